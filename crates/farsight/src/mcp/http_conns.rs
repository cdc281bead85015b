//! The open connections of the HTTP server: how many there may be, which one
//! gives way when a new one arrives at the bound, and when one has been quiet
//! too long. Without this, idle sockets (1,100 of them need no token) filled
//! the process's open files and locked out the client that has the token.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

/// How long a connection may go without a request.
#[derive(Debug, Clone, Copy)]
pub(super) struct Timeouts {
    /// Time for a complete request head, from the connection's opening or
    /// from the first byte after an answer (slowloris).
    pub header_read: Duration,
    /// Time between an answer and the first byte of the next request.
    pub idle: Duration,
}

/// One open connection, shared by its task, its requests and the table.
pub(super) struct Conn {
    /// Order of opening: the table closes older connections first.
    id: u64,
    activity: Mutex<Activity>,
    closed_for_room: Notify,
}

/// What a connection is doing, for its deadline and for eviction.
struct Activity {
    /// Requests being answered (HTTP/1 answers one at a time; a count keeps
    /// this right whatever the connection driver does).
    in_flight: usize,
    /// When the last answer was given (or the connection opened).
    idle_since: Instant,
    /// When the request head being read began: the opening for a new
    /// connection, the first byte after an answer otherwise; `None` while a
    /// request is answered or the connection sits idle.
    head_started: Option<Instant>,
    /// A request on it carried the token (or none was needed): the client
    /// the server exists for, closed last when room is needed.
    authenticated: bool,
}

impl Conn {
    fn activity(&self) -> MutexGuard<'_, Activity> {
        // Nothing panics while holding it; a poisoned lock holds plain data.
        self.activity.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Bytes arrived: the first ones after an answer start the head clock.
    pub(super) fn bytes_read(&self) {
        let mut a = self.activity();
        if a.in_flight == 0 && a.head_started.is_none() {
            a.head_started = Some(Instant::now());
        }
    }

    /// A request head was read; the guard marks the answer given when dropped.
    pub(super) fn request_started(self: &Arc<Self>) -> InFlight {
        let mut a = self.activity();
        a.in_flight += 1;
        a.head_started = None;
        InFlight(self.clone())
    }

    /// A request on this connection passed the token check.
    pub(super) fn authenticated(&self) {
        self.activity().authenticated = true;
    }

    /// When the connection is to be closed, `None` while it answers.
    fn deadline(&self, t: Timeouts) -> Option<Instant> {
        let a = self.activity();
        if a.in_flight > 0 {
            return None;
        }
        Some(match a.head_started {
            Some(at) => at + t.header_read,
            None => a.idle_since + t.idle,
        })
    }

    /// Resolves once the connection has gone past its deadline.
    pub(super) async fn expired(&self, t: Timeouts) {
        loop {
            match self.deadline(t) {
                Some(at) if at <= Instant::now() => return,
                Some(at) => tokio::time::sleep_until(at).await,
                // Answering: look again later; the deadline starts when the
                // answer is given.
                None => tokio::time::sleep(t.header_read.min(t.idle)).await,
            }
        }
    }

    /// Resolves once the table closed this connection to make room.
    pub(super) async fn closed_for_room(&self) {
        self.closed_for_room.notified().await;
    }
}

/// A request being answered on a connection.
pub(super) struct InFlight(Arc<Conn>);

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut a = self.0.activity();
        a.in_flight = a.in_flight.saturating_sub(1);
        a.idle_since = Instant::now();
    }
}

/// The open connections, at most `bound` of them.
pub(super) struct Conns {
    bound: usize,
    next_id: AtomicU64,
    open: Mutex<BTreeMap<u64, Arc<Conn>>>,
}

impl Conns {
    pub(super) fn new(bound: usize) -> Self {
        Self {
            bound: bound.max(1),
            next_id: AtomicU64::new(0),
            open: Mutex::new(BTreeMap::new()),
        }
    }

    fn open(&self) -> MutexGuard<'_, BTreeMap<u64, Arc<Conn>>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers a new connection. At the bound, an idle one is closed
    /// first (see [`Conns::close_one_idle`]); `None` when every connection is
    /// answering a request, and the new one should be closed instead.
    pub(super) fn admit(&self) -> Option<Arc<Conn>> {
        let mut open = self.open();
        if open.len() >= self.bound && !close_one_idle(&mut open) {
            return None;
        }
        let now = Instant::now();
        let conn = Arc::new(Conn {
            id: self.next_id.fetch_add(1, Ordering::Relaxed),
            activity: Mutex::new(Activity {
                in_flight: 0,
                idle_since: now,
                // A new connection owes its first request head at once.
                head_started: Some(now),
                authenticated: false,
            }),
            closed_for_room: Notify::new(),
        });
        open.insert(conn.id, conn.clone());
        Some(conn)
    }

    /// Closes the idle connection that matters least, to free its socket
    /// (when the process is out of file descriptors). False when none is idle.
    pub(super) fn close_one_idle(&self) -> bool {
        close_one_idle(&mut self.open())
    }

    /// Forgets a connection that has ended.
    pub(super) fn remove(&self, conn: &Conn) {
        self.open().remove(&conn.id);
    }

    /// Connections open now.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.open().len()
    }
}

/// Closes the oldest idle connection that never carried the token, else the
/// oldest idle one: floods of token-less connections give way before the
/// client the server is for, and a connection answering a request is never
/// cut. Idle includes a connection part-way through a request head.
fn close_one_idle(open: &mut BTreeMap<u64, Arc<Conn>>) -> bool {
    let idle = |c: &&Arc<Conn>| c.activity().in_flight == 0;
    let victim = open
        .values()
        .filter(idle)
        .find(|c| !c.activity().authenticated)
        .or_else(|| open.values().find(idle))
        .map(|c| c.id);
    let Some(id) = victim else { return false };
    if let Some(conn) = open.remove(&id) {
        // A stored permit: the connection's task closes it even if it is not
        // waiting at this moment.
        conn.closed_for_room.notify_one();
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Timeouts = Timeouts {
        header_read: Duration::from_secs(10),
        idle: Duration::from_secs(60),
    };

    #[test]
    fn at_the_bound_the_oldest_unauthenticated_idle_connection_gives_way() {
        let conns = Conns::new(3);
        let token_client = conns.admit().unwrap();
        token_client.authenticated();
        let busy = conns.admit().unwrap();
        let _answering = busy.request_started();
        let flood = conns.admit().unwrap();
        assert_eq!(conns.len(), 3);

        let newcomer = conns.admit().unwrap();
        assert_eq!(conns.len(), 3);
        let open: Vec<u64> = conns.open().keys().copied().collect();
        assert_eq!(open, [token_client.id, busy.id, newcomer.id]);
        // Then the authenticated one, as the only other idle connection...
        newcomer.authenticated();
        let next = conns.admit().unwrap();
        let open: Vec<u64> = conns.open().keys().copied().collect();
        assert_eq!(open, [busy.id, newcomer.id, next.id]);
        drop(flood);
    }

    #[test]
    fn when_every_connection_is_answering_a_new_one_is_refused() {
        let conns = Conns::new(1);
        let busy = conns.admit().unwrap();
        let guard = busy.request_started();
        assert!(conns.admit().is_none());
        assert!(!conns.close_one_idle());
        drop(guard);
        assert!(conns.admit().is_some());
    }

    #[test]
    fn deadlines_follow_the_request_cycle() {
        let conns = Conns::new(4);
        let c = conns.admit().unwrap();
        let opened = c.deadline(T).unwrap();
        // New: the head is owed within header_read.
        assert!(opened <= Instant::now() + T.header_read);
        let answering = c.request_started();
        assert_eq!(c.deadline(T), None);
        drop(answering);
        // Between requests: idle, then a head once a byte arrives.
        let idle = c.deadline(T).unwrap();
        assert!(idle > Instant::now() + T.header_read);
        c.bytes_read();
        assert!(c.deadline(T).unwrap() <= Instant::now() + T.header_read);
        // Further bytes do not move the head's deadline (slowloris).
        let head = c.deadline(T);
        c.bytes_read();
        assert_eq!(c.deadline(T), head);
    }
}
