//! When a page has settled: no request in flight for a while AND the DOM
//! stopped changing for a while, after the load event. The DOM side is a
//! `MutationObserver` counter the page carries from its first script on;
//! the network side is the DevTools request events. Pure bookkeeping here,
//! so the rule is tested without a browser.

use std::collections::HashMap;
use std::time::Duration;

use tokio::time::Instant;

/// How long both the network and the DOM must be still.
pub(crate) const QUIET: Duration = Duration::from_millis(500);

/// How long a request that has its response may stay unfinished before it
/// stops holding the page up. Chromium does not always report the end of a
/// request whose response arrived (seen with documents and refused
/// scripts); a body still streaming this long after its headers is a
/// stream (server-sent events, long polling), not part of the page.
pub(crate) const RESPONDED_GRACE: Duration = Duration::from_secs(2);

/// How long a request without any answer holds the page up. Chromium does
/// not report every request's end to the tab (a refused cross-origin
/// script was seen to stay "in flight"), and a server that never answers
/// must not keep a page from settling until its time bound.
pub(crate) const UNANSWERED_GRACE: Duration = Duration::from_secs(5);

/// How often the DOM counter is read.
pub(crate) const POLL: Duration = Duration::from_millis(100);

/// Installed before any script of the page runs: counts DOM mutations into
/// a global the driver reads. Attached to the document element as soon as
/// there is one.
pub(crate) const MUTATION_COUNTER: &str = r"(() => {
  if (window.__farsightMutations !== undefined) return;
  window.__farsightMutations = 0;
  const observe = () => {
    const root = document.documentElement;
    if (!root) return false;
    new MutationObserver((records) => { window.__farsightMutations += records.length; })
      .observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
    return true;
  };
  if (!observe()) {
    new MutationObserver((_, me) => { if (observe()) me.disconnect(); })
      .observe(document, { childList: true });
  }
})();";

/// What the DOM counter read returns: the count and `document.readyState`.
pub(crate) const READ_STATE: &str =
    "JSON.stringify([window.__farsightMutations || 0, document.readyState])";

/// The settle rule's state.
#[derive(Debug)]
pub(crate) struct Settle {
    /// Request id to what it asked for (kept for the debug log), when it
    /// started and when its response arrived.
    in_flight: HashMap<String, (String, Instant, Option<Instant>)>,
    last_network: Instant,
    last_dom: Instant,
    mutations: u64,
    loaded: bool,
}

impl Settle {
    pub(crate) fn new(now: Instant) -> Self {
        Self {
            in_flight: HashMap::new(),
            last_network: now,
            last_dom: now,
            mutations: 0,
            loaded: false,
        }
    }

    pub(crate) fn request_started(&mut self, id: &str, what: &str, now: Instant) {
        self.in_flight
            .insert(id.to_owned(), (what.to_owned(), now, None));
        self.last_network = now;
    }

    pub(crate) fn response_arrived(&mut self, id: &str, now: Instant) {
        if let Some((_, _, responded)) = self.in_flight.get_mut(id) {
            *responded = Some(now);
        }
        self.last_network = now;
    }

    /// Requests that still hold the page up.
    fn pending(&self, now: Instant) -> impl Iterator<Item = &str> {
        self.in_flight
            .values()
            .filter(move |(_, started, responded)| match responded {
                Some(t) => now.duration_since(*t) < RESPONDED_GRACE,
                None => now.duration_since(*started) < UNANSWERED_GRACE,
            })
            .map(|(what, _, _)| what.as_str())
    }

    pub(crate) fn request_ended(&mut self, id: &str, now: Instant) {
        self.in_flight.remove(id);
        self.last_network = now;
    }

    /// A new read of the DOM counter and the ready state.
    pub(crate) fn dom_read(&mut self, mutations: u64, ready_state: &str, now: Instant) {
        if mutations != self.mutations {
            self.mutations = mutations;
            self.last_dom = now;
        }
        self.loaded = ready_state == "complete";
    }

    /// A new document (a navigation): its DOM starts over.
    pub(crate) fn navigated(&mut self, now: Instant) {
        self.mutations = 0;
        self.last_dom = now;
        self.loaded = false;
    }

    /// Why the page is not settled, for the debug log at the bound.
    pub(crate) fn describe(&self, now: Instant) -> String {
        format!(
            "loaded: {}, requests in flight: {:?}, network still for {} ms, DOM still for {} ms",
            self.loaded,
            self.pending(now).collect::<Vec<_>>(),
            now.duration_since(self.last_network).as_millis(),
            now.duration_since(self.last_dom).as_millis()
        )
    }

    pub(crate) fn settled(&self, now: Instant) -> bool {
        self.loaded
            && self.pending(now).next().is_none()
            && now.duration_since(self.last_network) >= QUIET
            && now.duration_since(self.last_dom) >= QUIET
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settles_only_when_loaded_and_both_network_and_dom_are_still() {
        let t0 = Instant::now();
        let mut s = Settle::new(t0);
        let later = |ms| t0 + Duration::from_millis(ms);
        s.dom_read(3, "interactive", later(100));
        assert!(!s.settled(later(2000)), "not loaded yet");
        s.dom_read(3, "complete", later(200));
        s.request_started("1", "/x", later(300));
        assert!(!s.settled(later(2000)), "a request is in flight");
        assert!(
            !s.settled(later(5200)),
            "an unanswered request holds the page up"
        );
        assert!(
            s.settled(later(5400)),
            "an unanswered request holds up to its grace"
        );
        s.request_ended("1", later(400));
        assert!(!s.settled(later(800)), "the network was busy 400 ms ago");
        assert!(s.settled(later(900)));
        s.dom_read(9, "complete", later(1000));
        assert!(!s.settled(later(1400)), "the DOM changed 400 ms ago");
        assert!(s.settled(later(1500)));
        s.request_started("2", "/stream", later(1600));
        s.response_arrived("2", later(1700));
        assert!(!s.settled(later(3000)), "a response arrived 1.3 s ago");
        assert!(
            s.settled(later(3800)),
            "a responded request holds up to its grace"
        );
        s.navigated(later(1600));
        assert!(!s.settled(later(5000)), "a new document is not loaded");
    }
}
