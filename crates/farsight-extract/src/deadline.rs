//! The time an extraction may take, checked between stages and while
//! rendering, so a call with a timeout gets what was read by then instead of
//! waiting for the whole page.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// Calls of [`Deadline::passed`] between two readings of the clock: reading
/// it costs tens of nanoseconds, a node a few hundred.
const TICKS_PER_CHECK: u32 = 1024;

/// Once out of time before the content was chosen, the page's body is
/// rendered as it is for at most this much longer: something read beats
/// nothing.
const FALLBACK_GRACE: Duration = Duration::from_millis(200);

/// An extraction's deadline, if it has one.
pub(crate) struct Deadline {
    at: Cell<Option<Instant>>,
    ticks: Cell<u32>,
    /// Whether the deadline was seen passed: the result is partial.
    hit: Cell<bool>,
}

impl Deadline {
    pub(crate) fn new(at: Option<Instant>) -> Self {
        Self {
            at: Cell::new(at),
            ticks: Cell::new(0),
            hit: Cell::new(false),
        }
    }

    /// Whether the deadline has passed, reading the clock now.
    pub(crate) fn expired(&self) -> bool {
        if self.hit.get() {
            return true;
        }
        let passed = self.at.get().is_some_and(|at| Instant::now() >= at);
        self.hit.set(passed);
        passed
    }

    /// [`Deadline::expired`], cheap enough for every node: the clock is read
    /// once every [`TICKS_PER_CHECK`] calls.
    pub(crate) fn passed(&self) -> bool {
        if self.hit.get() {
            return true;
        }
        if self.at.get().is_none() {
            return false;
        }
        let t = self.ticks.get().wrapping_add(1);
        self.ticks.set(t);
        t.is_multiple_of(TICKS_PER_CHECK) && self.expired()
    }

    /// Whether the deadline was seen passed at some check.
    pub(crate) fn was_hit(&self) -> bool {
        self.hit.get()
    }

    /// Out of time before choosing the content: allows [`FALLBACK_GRACE`]
    /// more for rendering what there is, still reporting the result as cut
    /// short.
    pub(crate) fn grant_fallback(&self) -> FallbackTime<'_> {
        self.at.set(Some(Instant::now() + FALLBACK_GRACE));
        self.hit.set(false);
        FallbackTime(self)
    }
}

/// The grace of [`Deadline::grant_fallback`]; the result counts as cut short
/// whatever happens in it.
pub(crate) struct FallbackTime<'d>(&'d Deadline);

impl Drop for FallbackTime<'_> {
    fn drop(&mut self) {
        self.0.hit.set(true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_deadline_never_passes() {
        let d = Deadline::new(None);
        assert!((0..5000).all(|_| !d.passed()));
        assert!(!d.expired() && !d.was_hit());
    }

    #[test]
    fn a_past_deadline_is_seen_within_a_check_interval() {
        let d = Deadline::new(Some(Instant::now()));
        let calls = (1..=TICKS_PER_CHECK).find(|_| d.passed());
        assert_eq!(calls, Some(TICKS_PER_CHECK));
        assert!(d.passed() && d.was_hit());
    }

    #[test]
    fn the_fallback_grace_allows_more_and_still_counts_as_hit() {
        let d = Deadline::new(Some(Instant::now()));
        assert!(d.expired());
        {
            let _grace = d.grant_fallback();
            assert!(!d.expired());
        }
        assert!(d.was_hit());
    }
}
