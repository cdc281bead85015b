//! The browser proxy's bounds and what it counted: bytes through it (both
//! directions), connections, refusals. One budget per proxy, so one render
//! with its own proxy has its own byte cap.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// How much one browser proxy lets through.
#[derive(Debug, Clone, Copy)]
pub struct ProxyLimits {
    /// Bytes through the proxy, requests and responses together; past it
    /// tunnels are closed and responses cut.
    pub max_bytes: u64,
    /// How long the proxy serves; past it every connection is closed.
    pub wall_time: Duration,
    /// Client connections open at once; more wait to be accepted.
    pub max_connections: usize,
}

impl Default for ProxyLimits {
    fn default() -> Self {
        Self {
            // A heavy news page with its scripts is a few MB; images, media
            // and fonts are not fetched by the browser at all.
            max_bytes: 32 * 1024 * 1024,
            wall_time: Duration::from_secs(60),
            // Chromium opens at most 6 per host and about 10 per proxy.
            max_connections: 32,
        }
    }
}

/// What a proxy counted so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProxyStats {
    /// Bytes through, both directions (bodies and tunnelled bytes).
    pub bytes: u64,
    /// Client connections accepted.
    pub connections: u64,
    /// Requests refused by the guard or the port rule.
    pub refused: u64,
    /// Requests without the proxy's credentials (a browser's first request
    /// to a proxy always is one: it sends them only when challenged).
    pub unauthenticated: u64,
    /// Whether the byte cap was reached (something was cut).
    pub over_budget: bool,
}

/// One refusal by the guard: the host (never a URL: queries carry tokens)
/// and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The host as the request named it.
    pub host: String,
    /// The guard's message.
    pub message: String,
}

/// Refusals kept for the caller to explain a failed page; the rest are
/// only counted.
const KEPT_REFUSALS: usize = 32;

#[derive(Debug, Default)]
pub(crate) struct Budget {
    max_bytes: u64,
    bytes: AtomicU64,
    connections: AtomicU64,
    refused: AtomicU64,
    unauthenticated: AtomicU64,
    over: AtomicBool,
    refusals: Mutex<Vec<Refusal>>,
}

impl Budget {
    pub(crate) fn new(max_bytes: u64) -> Self {
        Self {
            max_bytes,
            ..Self::default()
        }
    }

    /// Counts `n` bytes; `false` once the cap is passed.
    pub(crate) fn take(&self, n: usize) -> bool {
        let n = u64::try_from(n).unwrap_or(u64::MAX);
        let total = self.bytes.fetch_add(n, Ordering::Relaxed).saturating_add(n);
        if total > self.max_bytes {
            self.over.store(true, Ordering::Relaxed);
            return false;
        }
        true
    }

    /// Bytes left before the cap.
    pub(crate) fn left(&self) -> u64 {
        self.max_bytes
            .saturating_sub(self.bytes.load(Ordering::Relaxed))
    }

    pub(crate) fn connection(&self) {
        self.connections.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a refusal, and keeps the first few with their host.
    pub(crate) fn refuse(&self, r: Refusal) {
        self.refused.fetch_add(1, Ordering::Relaxed);
        tracing::debug!(host = %r.host, "browser egress refused: {}", r.message);
        if let Ok(mut kept) = self.refusals.lock()
            && kept.len() < KEPT_REFUSALS
        {
            kept.push(r);
        }
    }

    /// Counts a request without the credentials.
    pub(crate) fn unauthenticated(&self) {
        self.unauthenticated.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn stats(&self) -> ProxyStats {
        ProxyStats {
            bytes: self.bytes.load(Ordering::Relaxed),
            connections: self.connections.load(Ordering::Relaxed),
            refused: self.refused.load(Ordering::Relaxed),
            unauthenticated: self.unauthenticated.load(Ordering::Relaxed),
            over_budget: self.over.load(Ordering::Relaxed),
        }
    }

    pub(crate) fn refusals(&self) -> Vec<Refusal> {
        self.refusals.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

/// A stream whose reads and writes are counted against a budget; past the
/// cap it fails, which ends the tunnel it is part of.
pub(crate) struct Metered<S> {
    inner: S,
    budget: Arc<Budget>,
}

impl<S> Metered<S> {
    pub(crate) fn new(inner: S, budget: Arc<Budget>) -> Self {
        Self { inner, budget }
    }
}

fn over_budget() -> std::io::Error {
    std::io::Error::other("the page's byte budget through the browser proxy is spent")
}

impl<S: AsyncRead + Unpin> AsyncRead for Metered<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                let n = buf.filled().len() - before;
                if this.budget.take(n) {
                    Poll::Ready(Ok(()))
                } else {
                    Poll::Ready(Err(over_budget()))
                }
            }
            other => other,
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Metered<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_write(cx, buf) {
            Poll::Ready(Ok(n)) => {
                if this.budget.take(n) {
                    Poll::Ready(Ok(n))
                } else {
                    Poll::Ready(Err(over_budget()))
                }
            }
            other => other,
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_stops_past_its_cap_and_keeps_refusals() {
        let b = Budget::new(10);
        assert!(b.take(10));
        assert_eq!(b.left(), 0);
        assert!(!b.take(1));
        assert!(b.stats().over_budget);
        b.refuse(Refusal {
            host: "10.0.0.1".into(),
            message: "private".into(),
        });
        b.unauthenticated();
        assert_eq!(b.stats().refused, 1);
        assert_eq!(b.stats().unauthenticated, 1);
        assert_eq!(b.refusals().len(), 1);
    }
}
