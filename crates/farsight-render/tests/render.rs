//! The renderer against local servers only: the page server runs on
//! 127.0.0.2 and is reached through `allow_hosts = ["127.0.0.2"]`; a
//! counting listener on 127.0.0.1 (not allowed) proves that what the egress
//! refuses never gets a connection. Each test needing Chromium is skipped,
//! with a message, where none is installed.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use farsight_net::{Fetcher, UpstreamProxy};
use farsight_render::{RenderErrorKind, RenderSettings, Renderer};
use tokio::net::TcpListener;

// The counting forward proxy of farsight-net's tests: the user's upstream.
#[allow(
    dead_code,
    reason = "shared with farsight-net's tests, which read more of it"
)]
#[path = "../../farsight-net/tests/it/forward_proxy.rs"]
mod forward_proxy;

use forward_proxy::ForwardProxy;

/// Requests per path, as the page server saw them.
#[derive(Clone, Default)]
struct Hits(Arc<std::sync::Mutex<Vec<String>>>);

impl Hits {
    fn count(&self, path: &str) -> usize {
        self.0.lock().unwrap().iter().filter(|p| *p == path).count()
    }
}

/// A listener that counts the connections it accepts and answers nothing
/// useful: the target that must never be reached.
struct Counting {
    addr: SocketAddr,
    accepted: Arc<AtomicUsize>,
}

impl Counting {
    async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let accepted = Arc::new(AtomicUsize::new(0));
        let count = Arc::clone(&accepted);
        tokio::spawn(async move {
            while let Ok((sock, _)) = listener.accept().await {
                count.fetch_add(1, Ordering::SeqCst);
                drop(sock);
            }
        });
        Self { addr, accepted }
    }

    fn count(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }
}

fn html(body: String) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

/// The pages of the tests; `inward` is the counting listener's port.
async fn page(
    Path(name): Path<String>,
    State((hits, inward, hostname)): State<(Hits, u16, String)>,
) -> Response {
    hits.0.lock().unwrap().push(name.clone());
    let inward_url = format!("http://127.0.0.1:{inward}/");
    match name.as_str() {
        "script-written" => html(
            "<html><body><div id=app></div><script>\
             window.addEventListener('load', () => setTimeout(() => {\
               document.getElementById('app').textContent = 'written by a script after load';\
             }, 100));</script></body></html>"
                .into(),
        ),
        "from-json" => html(
            "<html><body><div id=app>loading</div><script>\
             fetch('/p/data.json').then(r => r.json()).then(d => {\
               document.getElementById('app').textContent = d.text;\
             });</script></body></html>"
                .into(),
        ),
        "data.json" => (
            [(header::CONTENT_TYPE, "application/json")],
            r#"{"text":"fetched from the JSON endpoint"}"#,
        )
            .into_response(),
        "escape" => html(format!(
            "<html><body><p id=out>escape page</p><script>\
             const targets = ['{inward_url}', 'http://localhost:{inward}/', 'http://10.0.0.1/',\
               'http://[::1]:{inward}/', '/p/redirect-inward', 'http://{hostname}:{inward}/'];\
             Promise.allSettled(targets.map(t => fetch(t, {{mode: 'no-cors'}})))\
               .then(() => {{ document.getElementById('out').textContent = 'escape page done'; }});\
             </script><iframe src='{inward_url}frame'></iframe>\
             <script src='{inward_url}script.js'></script></body></html>"
        )),
        "redirect-inward" => (StatusCode::FOUND, [(header::LOCATION, inward_url)]).into_response(),
        "never-settles" => html(
            "<html><body><p>ticking</p><script>\
             setInterval(() => { document.body.append(String(Date.now())); }, 50);\
             </script></body></html>"
                .into(),
        ),
        "hungry" => html(
            "<html><body><p>hungry</p><script>\
             const keep = [];\
             setInterval(() => {\
               for (let i = 0; i < 50; i++) keep.push(new Array(200000).fill(Math.random()));\
               document.body.dataset.arrays = keep.length;\
             }, 5);\
             </script></body></html>"
                .into(),
        ),
        "heavy" => html(
            "<html><head><style>@font-face { font-family: F; src: url(/p/font.woff2); }\
             body { font-family: F; }</style>\
             <link rel=preload as=font href=/p/preload.woff2 crossorigin>\
             <script src=/p/app.js></script></head>\
             <body><p>text with media</p><img src=/p/picture.png>\
             <video src=/p/movie.mp4 autoplay></video>\
             <script>window.open('/p/popup');</script></body></html>"
                .into(),
        ),
        "app.js" => (
            [(header::CONTENT_TYPE, "text/javascript")],
            "document.addEventListener('DOMContentLoaded', () => document.body.append('app ran'));",
        )
            .into_response(),
        "loops" => html(
            "<html><body><script>setTimeout(() => { location.href = '/p/loops?' + Math.random(); }, 10);\
             </script></body></html>"
                .into(),
        ),
        _ => (StatusCode::NOT_FOUND, "no such page").into_response(),
    }
}

struct Site {
    base: String,
    hits: Hits,
}

/// This machine's host name when DNS (here /etc/hosts) maps it to
/// 127.0.0.1, where the counting listener is: a name that resolves inward.
async fn inward_hostname() -> Option<String> {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname").ok()?;
    let name = name.trim().to_ascii_lowercase();
    let inward = tokio::net::lookup_host((name.as_str(), 0))
        .await
        .ok()?
        .any(|a| a.ip() == std::net::Ipv4Addr::LOCALHOST);
    inward.then_some(name)
}

async fn site(inward: u16) -> Site {
    let hits = Hits::default();
    // Without such a name the page asks for `localhost` twice.
    let hostname = inward_hostname().await.unwrap_or_else(|| {
        eprintln!("the host name does not resolve to 127.0.0.1 here; its case is localhost again");
        "localhost".to_owned()
    });
    let app = Router::new()
        .route("/p/{name}", axum::routing::get(page))
        .with_state((hits.clone(), inward, hostname));
    let listener = TcpListener::bind("127.0.0.2:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Site {
        base: format!("http://{addr}/p/"),
        hits,
    }
}

fn settings() -> RenderSettings {
    RenderSettings {
        browser_path: None,
        max_tabs: 2,
        timeout: Duration::from_secs(30),
        idle_timeout: Duration::from_secs(60),
    }
}

fn fetcher(allow: &[&str]) -> Fetcher {
    Fetcher::builder()
        .allow_hosts(allow.iter().map(|s| (*s).to_owned()).collect())
        .build()
        .unwrap()
}

/// A renderer whose egress lets 127.0.0.2 through, or `None` (and a message)
/// without a browser.
fn renderer() -> Option<Renderer> {
    renderer_with(fetcher(&["127.0.0.2"]))
}

/// A renderer whose egress is `fetcher`'s, or `None` without a browser.
fn renderer_with(fetcher: Fetcher) -> Option<Renderer> {
    // RUST_LOG=farsight_render=debug shows why a page did not settle.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_test_writer()
        .try_init();
    let r = Renderer::new(settings(), fetcher);
    match r.browser() {
        Ok(_) => Some(r),
        Err(e) => {
            eprintln!("skipped: no browser to render with ({e})");
            None
        }
    }
}

#[tokio::test]
async fn without_a_browser_rendering_is_unavailable_with_advice() {
    let mut s = settings();
    s.browser_path = Some("/nonexistent/chromium".into());
    let r = Renderer::new(s, fetcher(&[]));
    let err = r
        .render("http://example.com/", Duration::from_secs(5))
        .await
        .unwrap_err();
    assert_eq!(err.kind, RenderErrorKind::Unavailable);
    assert!(err.suggestion.unwrap().contains("apt-get install chromium"));
}

#[tokio::test]
async fn content_written_by_scripts_comes_back() {
    let Some(r) = renderer() else { return };
    let inward = Counting::start().await;
    let site = site(inward.addr.port()).await;
    let started = std::time::Instant::now();
    let page = r
        .render(
            &format!("{}script-written", site.base),
            Duration::from_secs(20),
        )
        .await
        .unwrap();
    eprintln!(
        "rendered a local page in {} ms (browser start included)",
        started.elapsed().as_millis()
    );
    assert!(
        page.html.contains("written by a script after load"),
        "{}",
        page.html
    );
    assert!(page.settled);
    assert!(page.url.ends_with("/p/script-written"), "{}", page.url);
    let started = std::time::Instant::now();
    let again = r
        .render(
            &format!("{}script-written", site.base),
            Duration::from_secs(20),
        )
        .await
        .unwrap();
    assert!(again.settled);
    eprintln!(
        "rendered it again in {} ms (browser running)",
        started.elapsed().as_millis()
    );
    let started = std::time::Instant::now();
    let fetched = fetcher(&["127.0.0.2"])
        .fetch(
            &format!("{}script-written", site.base),
            &farsight_net::FetchOptions::default(),
        )
        .await
        .unwrap();
    eprintln!("fetched it static in {} ms", started.elapsed().as_millis());
    // Statically the element is empty: only the browser filled it.
    assert!(
        fetched.text.contains("<div id=app></div>"),
        "{}",
        fetched.text
    );
    assert!(
        !page.html.contains("<div id=\"app\"></div>"),
        "{}",
        page.html
    );

    let page = r
        .render(&format!("{}from-json", site.base), Duration::from_secs(20))
        .await
        .unwrap();
    assert!(
        page.html.contains("fetched from the JSON endpoint"),
        "{}",
        page.html
    );
    assert_eq!(site.hits.count("data.json"), 1);
    if let Some(rss) = r.browser_memory().await {
        eprintln!("browser memory after two pages: {} MB", rss / (1024 * 1024));
    }
    r.shutdown().await;
}

#[tokio::test]
async fn what_the_egress_refuses_never_sees_a_connection() {
    let Some(r) = renderer() else { return };
    let inward = Counting::start().await;
    let site = site(inward.addr.port()).await;
    let page = r
        .render(&format!("{}escape", site.base), Duration::from_secs(20))
        .await
        .unwrap();
    assert!(page.html.contains("escape page done"), "{}", page.html);
    assert_eq!(
        site.hits.count("redirect-inward"),
        1,
        "the redirect was followed up to the egress"
    );

    // The main document itself: inward as written, and through a redirect.
    let err = r
        .render(
            &format!("http://127.0.0.1:{}/", inward.addr.port()),
            Duration::from_secs(20),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind, RenderErrorKind::Blocked, "{err}");
    let err = r
        .render(
            &format!("{}redirect-inward", site.base),
            Duration::from_secs(20),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind, RenderErrorKind::Blocked, "{err}");
    assert!(err.suggestion.unwrap().contains("allow_hosts"));
    assert_eq!(inward.count(), 0, "a refused target was connected to");
    r.shutdown().await;

    // The control: with the listener allowed, the same page does reach it,
    // so the zero above is the egress's doing.
    let allowed = Renderer::new(settings(), fetcher(&["127.0.0.2", "127.0.0.1"]));
    let _ = allowed
        .render(&format!("{}escape", site.base), Duration::from_secs(20))
        .await
        .unwrap();
    assert!(
        inward.count() > 0,
        "the control page never reached the listener"
    );
    allowed.shutdown().await;
}

/// The user's upstream proxy, as `[fetch].proxy` and as the environment's
/// variables: the browser's requests reach the page server through it.
#[tokio::test]
async fn pages_go_through_the_users_upstream_proxy() {
    let inward = Counting::start().await;
    let site = site(inward.addr.port()).await;
    let upstream = ForwardProxy::start(&[]).await;
    let env: BTreeMap<String, String> = [
        ("http_proxy", upstream.url(None)),
        ("https_proxy", upstream.url(None)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    let forms = [
        (
            "[fetch].proxy",
            UpstreamProxy::all(&upstream.url(Some("alice:pw"))).unwrap(),
        ),
        (
            "the environment",
            UpstreamProxy::from_settings(None, Some(&env))
                .unwrap()
                .unwrap(),
        ),
    ];
    for (form, proxy) in forms {
        let before = upstream.asked().len();
        let fetcher = Fetcher::builder()
            .proxy(proxy)
            .allow_hosts(vec!["127.0.0.2".into()])
            .build()
            .unwrap();
        let Some(r) = renderer_with(fetcher) else {
            return;
        };
        let page = r
            .render(&format!("{}from-json", site.base), Duration::from_secs(20))
            .await
            .unwrap();
        assert!(
            page.html.contains("fetched from the JSON endpoint"),
            "{form}: {}",
            page.html
        );
        let asked = upstream.asked();
        let through: Vec<&str> = asked[before..]
            .iter()
            .map(|a| a.target.as_str())
            .filter(|t| t.starts_with(&site.base))
            .collect();
        // The page and the JSON its script asks for, both via the upstream.
        assert!(
            through.iter().any(|t| t.ends_with("/from-json"))
                && through.iter().any(|t| t.ends_with("/data.json")),
            "{form}: {asked:?}"
        );
        r.shutdown().await;
    }
}

#[tokio::test]
async fn images_media_fonts_and_popups_are_not_fetched() {
    let Some(r) = renderer() else { return };
    let inward = Counting::start().await;
    let site = site(inward.addr.port()).await;
    let page = r
        .render(&format!("{}heavy", site.base), Duration::from_secs(20))
        .await
        .unwrap();
    assert!(page.html.contains("app ran"), "{}", page.html);
    assert_eq!(site.hits.count("app.js"), 1, "scripts are fetched");
    for path in [
        "picture.png",
        "movie.mp4",
        "font.woff2",
        "preload.woff2",
        "popup",
    ] {
        assert_eq!(site.hits.count(path), 0, "{path} was requested");
    }
    r.shutdown().await;
}

#[tokio::test]
async fn a_page_that_never_settles_is_taken_at_its_bound() {
    let Some(r) = renderer() else { return };
    let inward = Counting::start().await;
    let site = site(inward.addr.port()).await;
    let page = r
        .render(
            &format!("{}never-settles", site.base),
            Duration::from_secs(3),
        )
        .await
        .unwrap();
    assert!(!page.settled);
    assert!(page.html.contains("ticking"), "{}", page.html);

    let err = r
        .render(&format!("{}loops", site.base), Duration::from_secs(20))
        .await
        .unwrap_err();
    assert!(err.message.contains("location"), "{err}");
    r.shutdown().await;
}

#[tokio::test]
async fn a_browser_killed_mid_page_is_restarted_on_the_next() {
    let Some(r) = renderer() else { return };
    let inward = Counting::start().await;
    let site = site(inward.addr.port()).await;
    let busy = {
        let r = r.clone();
        let url = format!("{}never-settles", site.base);
        tokio::spawn(async move { r.render(&url, Duration::from_secs(20)).await })
    };
    // Wait until the page is being rendered, then kill the browser.
    let mut pid = None;
    for _ in 0..200 {
        if site.hits.count("never-settles") > 0 {
            pid = r.browser_pid().await;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let pid = pid.expect("the page never reached the server");
    let killed = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let first = busy.await.unwrap();
    // The never-settling page cannot have finished: it fails as a browser
    // failure, without waiting for its time bound.
    let err = first.unwrap_err();
    assert_eq!(err.kind, RenderErrorKind::Browser, "{err}");

    let page = r
        .render(
            &format!("{}script-written", site.base),
            Duration::from_secs(20),
        )
        .await
        .unwrap();
    assert!(page.html.contains("written by a script after load"));
    assert_eq!(r.launches(), 2);
    assert_ne!(r.browser_pid().await, Some(pid));
    r.shutdown().await;
}

#[tokio::test]
async fn a_page_allocating_without_end_is_stopped_and_memory_stays_bounded() {
    let Some(r) = renderer() else { return };
    let inward = Counting::start().await;
    let site = site(inward.addr.port()).await;
    // The browser's memory (all its processes) sampled while the page runs.
    let peak = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let sampler = {
        let r = r.clone();
        let peak = Arc::clone(&peak);
        tokio::spawn(async move {
            loop {
                if let Some(m) = r.browser_memory().await {
                    peak.fetch_max(m, Ordering::SeqCst);
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
    };
    let result = r
        .render(&format!("{}hungry", site.base), Duration::from_secs(15))
        .await;
    sampler.abort();
    let peak_mb = peak.load(Ordering::SeqCst) / (1024 * 1024);
    eprintln!(
        "allocating page: {:?}; browser peak memory {peak_mb} MB",
        result
            .as_ref()
            .map(|p| p.settled)
            .map_err(|e| e.message.clone()),
    );
    match &result {
        Ok(page) => assert!(!page.settled, "an allocating page cannot settle"),
        // Crashed at its heap cap, or stopped at its time bound with its
        // script still busy: either way stopped, and the browser lives on.
        Err(e) => assert!(
            matches!(e.kind, RenderErrorKind::Browser | RenderErrorKind::Timeout),
            "{e}"
        ),
    }
    assert!(peak_mb > 0, "the browser's memory was not measured");
    // The V8 heap cap (512 MB) and the browser-wide bound (2 GB) hold it
    // well below this.
    assert!(peak_mb < 3 * 1024, "{peak_mb} MB");
    // The browser still renders after it.
    let page = r
        .render(
            &format!("{}script-written", site.base),
            Duration::from_secs(20),
        )
        .await
        .unwrap();
    assert!(page.settled);
    r.shutdown().await;
}

#[tokio::test]
async fn an_idle_browser_is_shut_down_and_reaped() {
    let mut s = settings();
    s.idle_timeout = Duration::from_millis(500);
    let r = Renderer::new(s, fetcher(&["127.0.0.2"]));
    if let Err(e) = r.browser() {
        eprintln!("skipped: no browser to render with ({e})");
        return;
    }
    let inward = Counting::start().await;
    let site = site(inward.addr.port()).await;
    r.render(
        &format!("{}script-written", site.base),
        Duration::from_secs(20),
    )
    .await
    .unwrap();
    let pid = r.browser_pid().await.expect("a browser runs after a page");
    // Polled, not timed: the browser goes within the idle timeout and a
    // check period; the bound only keeps a broken build from hanging.
    let proc_dir = format!("/proc/{pid}");
    let mut gone = false;
    for _ in 0..300 {
        // Gone from the renderer, and reaped: no process (not even a
        // zombie) under that id.
        if r.browser_pid().await.is_none() && !std::path::Path::new(&proc_dir).exists() {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(gone, "the idle browser {pid} was not shut down and reaped");
    // And the next page starts a new one.
    r.render(
        &format!("{}script-written", site.base),
        Duration::from_secs(20),
    )
    .await
    .unwrap();
    assert_eq!(r.launches(), 2);
    r.shutdown().await;
}
