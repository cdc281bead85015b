//! `farsight mcp --http` under abuse (issue #11): connections that send
//! nothing or a request head byte by byte, floods of idle connections
//! against a token-protected server, and SIGTERM with a call in flight.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Notify;

use crate::mcp_http::{HttpServer, args, http, transport};

const TOKEN: &str = "abuse-test-token";

/// Bound for anything the server is expected to do: generous, since the
/// machine may be busy; the assertions are about what happens, not when.
const PATIENCE: Duration = Duration::from_secs(30);

/// Waits until the server closes `stream` (end of file or a reset); false
/// if it is still open after `bound`.
async fn closed_within(stream: &mut TcpStream, bound: Duration) -> bool {
    let mut buf = [0u8; 1024];
    tokio::time::timeout(bound, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await
    .is_ok()
}

/// Opens `n` connections; every `half_head`-th one sends the start of a
/// request head and stops there.
async fn flood(addr: &str, n: usize, half_head: usize) -> Vec<TcpStream> {
    let mut streams = Vec::with_capacity(n);
    for i in 0..n {
        let mut s = TcpStream::connect(addr).await.unwrap();
        if half_head > 0 && i % half_head == 0 {
            s.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .await
                .unwrap();
        }
        streams.push(s);
    }
    streams
}

/// How many of `streams` the server has closed (each given `bound`, all at
/// once).
async fn count_closed(streams: Vec<TcpStream>, bound: Duration) -> usize {
    let checks = streams
        .into_iter()
        .map(|mut s| async move { closed_within(&mut s, bound).await });
    futures_util::future::join_all(checks)
        .await
        .into_iter()
        .filter(|closed| *closed)
        .count()
}

/// The client with the token lists the tools.
async fn token_client_lists_tools(server: &HttpServer) {
    let client = tokio::time::timeout(
        PATIENCE,
        ClientConfig::default().serve(transport(&server.mcp_url(), Some(TOKEN), &[])),
    )
    .await
    .expect("the token client was kept waiting")
    .expect("the token client could not initialize");
    let tools = tokio::time::timeout(PATIENCE, client.list_all_tools())
        .await
        .expect("tools/list was kept waiting")
        .unwrap();
    assert_eq!(tools.len(), 2);
    let _ = client.cancel().await;
}

#[tokio::test]
async fn silent_slow_and_idle_connections_are_closed() {
    let server = HttpServer::start_with_config(
        Some(TOKEN),
        &[],
        "[server]\nheader_read_timeout_seconds = 1\nidle_timeout_seconds = 1\n",
    )
    .await;
    let addr = server.addr().to_owned();

    // Sends nothing at all.
    let mut silent = TcpStream::connect(&addr).await.unwrap();
    // Sends half a head.
    let mut half = TcpStream::connect(&addr).await.unwrap();
    half.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    // Dribbles a head, one byte at a time, never finishing it: each byte
    // must not buy more time.
    let dribbler = TcpStream::connect(&addr).await.unwrap();
    let (mut dribble_read, mut dribble_write) = dribbler.into_split();
    let dribbling = tokio::spawn(async move {
        for byte in b"GET /healthz HTTP/1.1\r\nX-Slow: ".iter().cycle() {
            if dribble_write.write_all(&[*byte]).await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });
    // Answered once, then idle.
    let mut idle = TcpStream::connect(&addr).await.unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();

    assert!(closed_within(&mut silent, PATIENCE).await, "silent");
    assert!(closed_within(&mut half, PATIENCE).await, "half a head");
    let mut buf = [0u8; 64];
    let dribble_closed = tokio::time::timeout(PATIENCE, async {
        while !matches!(dribble_read.read(&mut buf).await, Ok(0) | Err(_)) {}
    })
    .await;
    assert!(dribble_closed.is_ok(), "dribbling a head");
    dribbling.abort();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(PATIENCE, idle.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "idle after an answer");
    assert!(
        String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&answer)
    );

    // The server still serves.
    let health = http()
        .get(format!("{}/healthz", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status().as_u16(), 200);
}

#[tokio::test]
async fn idle_connections_beyond_the_bound_do_not_lock_out_the_token_client() {
    // Timeouts far away: only the bound can make room here.
    let server = HttpServer::start_with_config(
        Some(TOKEN),
        &[],
        "[server]\nmax_connections = 60\nheader_read_timeout_seconds = 600\nidle_timeout_seconds = 600\n",
    )
    .await;
    // 80 token-less connections, one in eight part-way through a head.
    let streams = flood(server.addr(), 80, 8).await;
    token_client_lists_tools(&server).await;
    // 20 gave way to the flood itself, at least one more to the client.
    let closed = count_closed(streams, Duration::from_secs(5)).await;
    assert!(closed >= 21, "only {closed} of 80 idle connections closed");
}

#[tokio::test]
async fn eleven_hundred_idle_connections_do_not_lock_out_the_token_client() {
    const N: usize = 1_100;
    // This test's own sockets, besides those of the tests running beside it.
    let needed = N as u64 + 400;
    let soft = raise_own_open_file_limit();
    if soft < needed {
        eprintln!(
            "skipped: this process may open {soft} files, the test needs {needed} (raise `ulimit -n`)"
        );
        return;
    }
    let server = HttpServer::start_with_config(
        Some(TOKEN),
        &[],
        "[server]\nheader_read_timeout_seconds = 600\nidle_timeout_seconds = 600\n",
    )
    .await;
    let streams = flood(server.addr(), N, 0).await;
    token_client_lists_tools(&server).await;
    // The default bound is 1,024 at most.
    let closed = count_closed(streams, Duration::from_secs(5)).await;
    assert!(
        closed > N - 1_024,
        "only {closed} of {N} idle connections closed"
    );
}

#[tokio::test]
async fn a_server_with_few_file_descriptors_still_lets_the_token_client_in() {
    // 256 descriptors in all: without a bound below that, 300 idle
    // connections exhaust them and the client's waits behind them unserved.
    const N: usize = 300;
    let server = HttpServer::start_with_open_file_limit(
        Some(TOKEN),
        "[server]\nheader_read_timeout_seconds = 600\nidle_timeout_seconds = 600\n",
        256,
    )
    .await;
    let streams = flood(server.addr(), N, 0).await;
    token_client_lists_tools(&server).await;
    // The bound (a few dozen at most under this limit) made room for the rest.
    let closed = count_closed(streams, Duration::from_secs(5)).await;
    assert!(
        closed >= N - 64,
        "only {closed} of {N} idle connections closed"
    );
}

/// Raises this process's soft open-file limit to its hard one; returns the
/// soft limit now in force.
fn raise_own_open_file_limit() -> u64 {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let now = getrlimit(Resource::Nofile);
    let _ = setrlimit(
        Resource::Nofile,
        Rlimit {
            current: now.maximum,
            maximum: now.maximum,
        },
    );
    getrlimit(Resource::Nofile).current.unwrap_or(u64::MAX)
}

/// A page server whose `/gate` answers only once the test opens the gate,
/// and tells the test when the request has arrived.
struct GatedPage {
    addr: std::net::SocketAddr,
    arrived: Arc<Notify>,
    gate: Arc<Notify>,
}

impl GatedPage {
    async fn start() -> GatedPage {
        let arrived = Arc::new(Notify::new());
        let gate = Arc::new(Notify::new());
        let (a, g) = (arrived.clone(), gate.clone());
        let app = Router::new().route(
            "/gate",
            axum::routing::get(move || {
                let (arrived, gate) = (a.clone(), g.clone());
                async move {
                    arrived.notify_one();
                    gate.notified().await;
                    axum::response::Html(
                        "<html><head><title>Gated page</title></head><body><main>\
                         <h1>Gated page</h1><p>A page that answers when the test lets it, \
                         long enough to be taken as the main content.</p></main></body></html>",
                    )
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        GatedPage {
            addr,
            arrived,
            gate,
        }
    }

    fn url(&self) -> String {
        format!("http://{}/gate", self.addr)
    }
}

fn send_sigterm(server: &HttpServer) {
    let pid = rustix::process::Pid::from_raw(i32::try_from(server.pid()).unwrap()).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
}

/// Starts a `web_fetch` of the gated page and waits until it has reached
/// the page; returns the call's eventual answer.
async fn call_in_flight(
    server: &HttpServer,
    page: &GatedPage,
) -> tokio::task::JoinHandle<Result<rmcp::model::CallToolResult, rmcp::ServiceError>> {
    let client = ClientConfig::default()
        .serve(transport(&server.mcp_url(), None, &[]))
        .await
        .unwrap();
    let url = page.url();
    let call = tokio::spawn(async move {
        let answer = client
            .call_tool(
                CallToolRequestParams::new("web_fetch")
                    .with_arguments(args(serde_json::json!({"url": url}))),
            )
            .await;
        let _ = client.cancel().await;
        answer
    });
    tokio::time::timeout(PATIENCE, page.arrived.notified())
        .await
        .expect("the call never reached the page");
    call
}

/// Slow fetches must not time out on their own while the test holds them.
const SLOW_FETCH: [(&str, &str); 1] = [("FARSIGHT_FETCH_TIMEOUT_SECONDS", "300")];

#[tokio::test]
async fn sigterm_refuses_new_connections_and_lets_the_call_in_flight_finish() {
    let page = GatedPage::start().await;
    let mut server = HttpServer::start_with_config(
        None,
        &SLOW_FETCH,
        "[server]\nshutdown_grace_seconds = 120\n",
    )
    .await;
    let call = call_in_flight(&server, &page).await;
    send_sigterm(&server);

    // New connections are refused while the call is still held.
    let refused = tokio::time::timeout(PATIENCE, async {
        loop {
            match TcpStream::connect(server.addr()).await {
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => return,
                _ => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    })
    .await;
    assert!(refused.is_ok(), "new connections were still accepted");

    // The call gets its grace: it completes once the page answers.
    page.gate.notify_one();
    let answer = tokio::time::timeout(PATIENCE, call)
        .await
        .expect("the call did not complete")
        .unwrap()
        .expect("the call failed");
    assert_eq!(answer.is_error, Some(false), "{answer:?}");
    assert_eq!(
        answer.structured_content.as_ref().unwrap()["title"],
        "Gated page"
    );
    // Then the process exits, well before its grace is over.
    let status = server
        .exited_within(PATIENCE)
        .await
        .expect("the server did not exit after its last call");
    assert!(status.success(), "{status:?}");
}

#[tokio::test]
async fn sigterm_exits_after_a_short_grace_though_a_call_cannot_finish() {
    let page = GatedPage::start().await;
    let mut server =
        HttpServer::start_with_config(None, &SLOW_FETCH, "[server]\nshutdown_grace_seconds = 1\n")
            .await;
    let call = call_in_flight(&server, &page).await;
    send_sigterm(&server);
    // The gate stays shut: the call cannot finish, the process exits anyway.
    let status = server
        .exited_within(PATIENCE)
        .await
        .expect("the server did not exit after its grace");
    assert!(status.success(), "{status:?}");
    let answer = tokio::time::timeout(PATIENCE, call)
        .await
        .expect("the call did not end with the server")
        .unwrap();
    assert!(
        answer.is_err() || answer.as_ref().unwrap().is_error == Some(true),
        "{answer:?}"
    );
}
