//! The HTTP server's accept loop and connections: each connection is driven
//! by hyper's HTTP/1 server under the deadlines and the bound of
//! [`super::http_conns`], and a shutdown stops accepting, lets the requests
//! being answered finish within the grace, then returns.
//!
//! `axum::serve` has no header-read or idle timeout and no connection bound,
//! and its version sniffing (HTTP/1 or 2) waits for bytes without a deadline:
//! hence this loop. HTTP/1 only, as before (axum was built without http2).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::Service as _;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use super::http_conns::{Conn, Conns, Timeouts};

/// The pause after a failed accept: a listener out of file descriptors stays
/// readable, and retrying at once would spin a core without serving anyone.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// How the server bounds its connections and its shutdown.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    /// Connections open at once.
    pub connections: usize,
    pub timeouts: Timeouts,
    /// How long requests being answered may run after the shutdown signal.
    pub grace: Duration,
}

/// Serves `app` on `listener` until `shutdown` resolves, then stops
/// accepting (the listener is closed, so new connections are refused),
/// closes idle connections, and waits at most `limits.grace` for the
/// requests being answered.
pub(super) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) {
    let conns = Arc::new(Conns::new(limits.connections));
    // Every connection holds a receiver: the signal to drain, and, once all
    // are dropped, the sign that the last connection has ended.
    let (stop_tx, stop_rx) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        match accepted {
            Ok((stream, _peer)) => {
                let Some(conn) = conns.admit() else {
                    tracing::warn!(
                        "{} connections are all answering requests; closing a new one",
                        limits.connections
                    );
                    continue;
                };
                tokio::spawn(serve_conn(
                    stream,
                    conn,
                    conns.clone(),
                    app.clone(),
                    limits.timeouts,
                    stop_rx.clone(),
                ));
            }
            Err(e) => {
                if out_of_descriptors(&e) && conns.close_one_idle() {
                    tracing::warn!("out of file descriptors: closed an idle connection");
                } else {
                    tracing::warn!("cannot accept a connection: {e}");
                }
                tokio::time::sleep(ACCEPT_BACKOFF).await;
            }
        }
    }
    drop(listener);
    tracing::info!("shutting down: no new connections, draining calls in flight");
    stop_tx.send_replace(true);
    drop(stop_rx);
    if tokio::time::timeout(limits.grace, stop_tx.closed())
        .await
        .is_err()
    {
        tracing::warn!(
            "calls were still running after {:?}; exiting anyway",
            limits.grace
        );
    }
}

/// The process (or system) has no file descriptor left for a new socket.
fn out_of_descriptors(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        use rustix::io::Errno;
        matches!(Errno::from_io_error(e), Some(Errno::MFILE | Errno::NFILE))
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// Answers the requests of one connection until the client closes it, it
/// misses a deadline, the table closes it to make room, or the drain ends it.
async fn serve_conn(
    stream: TcpStream,
    conn: Arc<Conn>,
    conns: Arc<Conns>,
    app: Router,
    timeouts: Timeouts,
    mut stop: watch::Receiver<bool>,
) {
    let app = TowerToHyperService::new(app);
    let requests = conn.clone();
    let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
        let in_flight = requests.request_started();
        // The token check marks the connection through this.
        request.extensions_mut().insert(requests.clone());
        let answer = app.call(request);
        async move {
            let answered = answer.await;
            // Answers are whole JSON bodies (json_response mode), so the
            // request is done when its response is.
            drop(in_flight);
            answered
        }
    });
    let io = TokioIo::new(Watched {
        stream,
        conn: conn.clone(),
    });
    let http = http1::Builder::new().serve_connection(io, service);
    tokio::pin!(http);
    let mut draining = false;
    loop {
        tokio::select! {
            served = http.as_mut() => {
                if let Err(e) = served {
                    tracing::debug!("connection ended: {e}");
                }
                break;
            }
            () = conn.expired(timeouts) => {
                tracing::debug!("closing a connection past its header-read or idle timeout");
                break;
            }
            () = conn.closed_for_room() => {
                tracing::debug!("closing an idle connection to make room for a new one");
                break;
            }
            _ = stop.wait_for(|stop| *stop), if !draining => {
                // hyper closes the connection now if idle, else after the
                // answer being written.
                draining = true;
                http.as_mut().graceful_shutdown();
            }
        }
    }
    conns.remove(&conn);
}

/// The connection's socket, telling the connection when bytes arrive (the
/// start of a request head).
struct Watched {
    stream: TcpStream,
    conn: Arc<Conn>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.conn.bytes_read();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
