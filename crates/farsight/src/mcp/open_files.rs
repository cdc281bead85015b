//! The process's open-file limit, and the HTTP server's connection bound
//! below it: every connection is a file descriptor, and a server out of
//! descriptors can neither accept the client with the token nor open the
//! sockets and cache files of the calls it is answering.

/// Descriptors kept for everything but client connections: the standard
/// streams, the listener, the cache database and its journal, the resolver.
const RESERVE_BASE: u64 = 64;

/// Descriptors kept per call in flight: a deep search reads four pages at
/// once besides the provider request and robots.txt, and the HTTP client
/// keeps some of those connections for reuse.
const RESERVE_PER_CALL: u64 = 8;

/// The fewest connections served, however low the limit: below this the
/// server is useless, and the limit is the thing to fix.
const MIN_CONNECTIONS: usize = 16;

/// The most a soft limit is raised to, where the hard limit is "unlimited"
/// (macOS refuses a soft limit above its own ceiling).
const RAISE_CAP: u64 = 1 << 20;

/// Raises the soft open-file limit to the hard one (a default soft limit of
/// 1,024 is a historical accident; the hard limit is what the administrator
/// set) and returns the soft limit now in force: `None` when unlimited or
/// unknown.
pub(super) fn raise_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
        let now = getrlimit(Resource::Nofile);
        let target = now.maximum.unwrap_or(RAISE_CAP).min(RAISE_CAP);
        if now.current.is_some_and(|soft| soft < target) {
            let raised = Rlimit {
                current: Some(target),
                maximum: now.maximum,
            };
            if let Err(e) = setrlimit(Resource::Nofile, raised) {
                tracing::debug!("cannot raise the open-file limit to {target}: {e}");
            }
        }
        getrlimit(Resource::Nofile).current
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Connections served at once: the configured number, lowered to leave the
/// calls' own descriptors free under the open-file limit `soft`.
pub(super) fn connection_bound(
    configured: usize,
    soft: Option<u64>,
    max_in_flight: usize,
) -> usize {
    let Some(soft) = soft else {
        return configured;
    };
    let calls = u64::try_from(max_in_flight).unwrap_or(u64::MAX);
    let reserve = RESERVE_BASE.saturating_add(calls.saturating_mul(RESERVE_PER_CALL));
    let room = usize::try_from(soft.saturating_sub(reserve)).unwrap_or(usize::MAX);
    configured.min(room.max(MIN_CONNECTIONS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_stays_below_the_limit_with_room_for_the_calls() {
        // The default 64 calls keep 64 + 512 descriptors.
        assert_eq!(connection_bound(1_024, Some(1_024), 64), 448);
        assert_eq!(connection_bound(1_024, Some(1 << 20), 64), 1_024);
        assert_eq!(connection_bound(60, Some(1_024), 64), 60);
        assert_eq!(connection_bound(1_024, None, 64), 1_024);
        // A tiny limit still serves a few.
        assert_eq!(connection_bound(1_024, Some(100), 64), MIN_CONNECTIONS);
    }

    #[cfg(unix)]
    #[test]
    fn the_soft_limit_is_raised_to_the_hard_one() {
        let hard = rustix::process::getrlimit(rustix::process::Resource::Nofile).maximum;
        let soft = raise_limit();
        match hard {
            Some(h) if h <= RAISE_CAP => assert_eq!(soft, Some(h)),
            _ => assert!(soft.is_none_or(|s| s >= 1_024.min(RAISE_CAP))),
        }
    }
}
