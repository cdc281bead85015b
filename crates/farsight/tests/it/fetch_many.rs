//! `web_fetch` with `urls` (issue 13): several pages in one call, in order,
//! each with its own answer, one request at a time per host, a slow page
//! cut alone; through the service, the command line and MCP over HTTP.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::http::{StatusCode, Uri};
use axum::response::{Html, IntoResponse};
use farsight::{CallOptions, ErrorKind, FetchRequest, FetchStatus, Service};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use serde_json::json;

use crate::mcp_http::{HttpServer, transport};
use crate::support::{PageServer, config, farsight, standard_pages, write_config};

fn many(urls: &[String]) -> FetchRequest {
    let mut r = FetchRequest::new("");
    r.urls = urls.to_vec();
    r
}

/// An address nothing listens on: connections to it are refused.
fn refused_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{addr}/nothing")
}

/// A service whose fetch timeout is `seconds`.
fn service_with_timeout(dir: &std::path::Path, seconds: u64) -> Service {
    let text = std::fs::read_to_string(write_config(dir)).unwrap();
    assert!(text.contains("timeout_seconds = 10\n"), "{text}");
    let text = text.replace(
        "timeout_seconds = 10\n",
        &format!("timeout_seconds = {seconds}\n"),
    );
    let raw = farsight::config::RawConfig::from_toml(&text).unwrap();
    Service::new(farsight::Config::resolve(raw).unwrap()).unwrap()
}

#[tokio::test]
async fn each_page_answers_in_order_and_one_failure_fails_no_other() {
    let dir = tempfile::tempdir().unwrap();
    let server = PageServer::start().await;
    let service = Service::new(config(dir.path())).unwrap();
    let urls = vec![
        server.url("/gone"),
        server.url("/short"),
        refused_url(),
        server.url("/data.json"),
    ];
    let answer = service
        .web_fetch_many(&many(&urls), CallOptions::default())
        .await
        .unwrap();
    let got: Vec<&str> = answer.results.iter().map(|r| r.url.as_str()).collect();
    assert_eq!(got, urls, "{answer:?}");
    let [gone, short, refused, data] = answer.results.as_slice() else {
        panic!("four answers: {answer:?}");
    };
    assert_eq!(gone.status, FetchStatus::Error);
    assert_eq!(gone.error_code, Some(404), "{gone:?}");
    assert_eq!(short.status, FetchStatus::Success, "{short:?}");
    assert_eq!(short.title.as_deref(), Some("Short page"));
    assert!(refused.is_error(), "{refused:?}");
    assert_ne!(
        refused.error_kind,
        Some(ErrorKind::HttpStatus),
        "{refused:?}"
    );
    assert_eq!(data.status, FetchStatus::Success, "{data:?}");
    assert!(data.content.as_deref().unwrap().contains("farsight"));
    assert_eq!(answer.status, FetchStatus::Partial);
    assert!(!answer.is_error());

    let failed = service
        .web_fetch_many(
            &many(&[server.url("/gone"), refused_url()]),
            CallOptions::default(),
        )
        .await
        .unwrap();
    assert!(failed.is_error(), "every page failed: {failed:?}");
}

#[tokio::test]
async fn the_window_is_per_page_and_the_pages_share_a_total_bound() {
    let dir = tempfile::tempdir().unwrap();
    let server = PageServer::start().await;
    let service = Service::new(config(dir.path())).unwrap();
    // Two pages keep their own window of 1000.
    let mut r = many(&[server.url("/article"), server.url("/article")]);
    r.max_length = 1000;
    let two = service
        .web_fetch_many(&r, CallOptions::default())
        .await
        .unwrap();
    for page in &two.results {
        assert_eq!(page.truncated, Some(true), "{page:?}");
        let shown = page.content.as_deref().unwrap().chars().count();
        assert!(shown <= 1000 && shown > 500, "{shown}");
    }
    assert!(two.message.is_none(), "{:?}", two.message);
    // Ten pages at the default window would be 100,000 characters: each
    // gets its share of the total.
    let ten: Vec<String> = (0..10).map(|_| server.url("/article")).collect();
    let answer = service
        .web_fetch_many(&many(&ten), CallOptions::default())
        .await
        .unwrap();
    let share = farsight::MAX_TOTAL_LENGTH / 10;
    let total: usize = answer
        .results
        .iter()
        .map(|p| p.content.as_deref().unwrap_or_default().chars().count())
        .sum();
    assert!(total <= farsight::MAX_TOTAL_LENGTH, "{total}");
    for page in &answer.results {
        assert_eq!(page.status, FetchStatus::Success, "{page:?}");
        assert!(page.next_start_index.unwrap() <= share, "{page:?}");
    }
    let note = answer.message.unwrap();
    assert!(note.contains(&format!("lowered to {share}")), "{note}");
}

/// What one test server saw: requests in flight now, the most at once, and
/// how many arrived.
#[derive(Default)]
struct Gauge {
    in_flight: AtomicUsize,
    most: AtomicUsize,
    arrived: AtomicUsize,
}

/// A page server that records how many requests it serves at once. Each
/// request waits (up to 5 s) until the OTHER server has had a request too,
/// then holds a moment: if farsight read the two hosts one after the other,
/// no request would ever find the other host busy; if it sent one host
/// several requests at once, they would all be in flight here together.
async fn gauged_server(me: Arc<Gauge>, other: Arc<Gauge>, overlap: Arc<AtomicBool>) -> String {
    let app = Router::new().fallback(move |uri: Uri| {
        let (me, other, overlap) = (me.clone(), other.clone(), overlap.clone());
        async move {
            me.arrived.fetch_add(1, Ordering::SeqCst);
            let now = me.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
            me.most.fetch_max(now, Ordering::SeqCst);
            for _ in 0..500 {
                if other.arrived.load(Ordering::SeqCst) > 0 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            if other.in_flight.load(Ordering::SeqCst) > 0 {
                overlap.store(true, Ordering::SeqCst);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            me.in_flight.fetch_sub(1, Ordering::SeqCst);
            if uri.path() == "/robots.txt" {
                return (StatusCode::NOT_FOUND, "none").into_response();
            }
            Html(format!(
                "<html><head><title>Page {0}</title></head><body><main><h1>Page {0}</h1>\
                 <p>The page at {0} has a paragraph long enough to be taken as the main \
                 content by the extractor, and a few more words for good measure.</p>\
                 <p>It has a second paragraph, with more words in it, for good measure and \
                 a little more length.</p></main></body></html>",
                uri.path()
            ))
            .into_response()
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    format!("http://{addr}")
}

// A host is host and port: two ports of 127.0.0.1 are two servers, read at
// the same time, each one request at a time.
#[tokio::test]
async fn one_request_at_a_time_per_host_while_hosts_run_together() {
    let dir = tempfile::tempdir().unwrap();
    let service = Service::new(config(dir.path())).unwrap();
    let (a, b) = (Arc::new(Gauge::default()), Arc::new(Gauge::default()));
    let overlap = Arc::new(AtomicBool::new(false));
    let base_a = gauged_server(a.clone(), b.clone(), overlap.clone()).await;
    let base_b = gauged_server(b.clone(), a.clone(), overlap.clone()).await;
    let urls: Vec<String> = (1..=3)
        .flat_map(|i| [format!("{base_a}/a{i}"), format!("{base_b}/b{i}")])
        .collect();
    let answer = service
        .web_fetch_many(&many(&urls), CallOptions::default())
        .await
        .unwrap();
    assert_eq!(answer.status, FetchStatus::Success, "{answer:?}");
    for (page, url) in answer.results.iter().zip(&urls) {
        assert_eq!(&page.url, url);
    }
    // Three pages each (and robots.txt).
    assert!(a.arrived.load(Ordering::SeqCst) >= 3);
    assert!(b.arrived.load(Ordering::SeqCst) >= 3);
    assert_eq!(
        a.most.load(Ordering::SeqCst),
        1,
        "host A got requests at once"
    );
    assert_eq!(
        b.most.load(Ordering::SeqCst),
        1,
        "host B got requests at once"
    );
    assert!(
        overlap.load(Ordering::SeqCst),
        "the two hosts were never read at the same time"
    );
}

#[tokio::test]
async fn a_slow_page_times_out_alone() {
    let dir = tempfile::tempdir().unwrap();
    // The slow page answers after 20 s; the fetch timeout is 2 s.
    let slow = PageServer::with_delay(standard_pages(), "/short", Duration::from_secs(20)).await;
    let fast = PageServer::start().await;
    let service = service_with_timeout(dir.path(), 2);
    let urls = vec![fast.url("/short"), slow.url("/short"), fast.url("/article")];
    let answer = service
        .web_fetch_many(&many(&urls), CallOptions::default())
        .await
        .unwrap();
    let statuses: Vec<FetchStatus> = answer.results.iter().map(|r| r.status).collect();
    assert_eq!(
        statuses,
        [
            FetchStatus::Success,
            FetchStatus::Error,
            FetchStatus::Success
        ],
        "{answer:?}"
    );
    assert_eq!(
        answer.results[1].error_kind,
        Some(ErrorKind::Timeout),
        "{answer:?}"
    );
    assert_eq!(answer.results[1].url, slow.url("/short"));
}

// The call ends at 1.5 times the fetch timeout: three reads of a page that
// never answers on one host (one at a time) cannot all have their 2 s. The
// first times out by itself, the second is cut while reading, the third
// never got its turn; the page of another host is read meanwhile.
#[tokio::test]
async fn the_call_is_bounded_and_pages_queued_behind_a_slow_one_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let slow = PageServer::with_delay(standard_pages(), "/short", Duration::from_secs(20)).await;
    let fast = PageServer::start().await;
    let service = service_with_timeout(dir.path(), 2);
    let stuck = slow.url("/short");
    let urls = vec![stuck.clone(), stuck.clone(), stuck, fast.url("/short")];
    let answer = service
        .web_fetch_many(&many(&urls), CallOptions::default())
        .await
        .unwrap();
    let [first, second, third, other] = answer.results.as_slice() else {
        panic!("four answers: {answer:?}");
    };
    for page in [first, second, third] {
        assert_eq!(page.error_kind, Some(ErrorKind::Timeout), "{page:?}");
    }
    let said = |p: &farsight::FetchResponse| p.message.clone().unwrap_or_default();
    assert!(!said(first).contains("time limit"), "{first:?}");
    assert!(said(second).contains("still being read"), "{second:?}");
    assert!(said(third).contains("waiting for its turn"), "{third:?}");
    assert_eq!(other.status, FetchStatus::Success, "{other:?}");
    assert_eq!(answer.status, FetchStatus::Partial);
}

#[tokio::test]
async fn too_many_urls_both_or_a_bad_one_refuse_the_call() {
    let dir = tempfile::tempdir().unwrap();
    let server = PageServer::start().await;
    let service = Service::new(config(dir.path())).unwrap();
    let eleven: Vec<String> = (0..11).map(|i| server.url(&format!("/p{i}"))).collect();
    let e = service
        .web_fetch_many(&many(&eleven), CallOptions::default())
        .await
        .unwrap_err();
    assert_eq!(e.error_kind, Some(ErrorKind::InvalidArgument));
    assert!(e.message.unwrap().contains("at most 10"));
    assert_eq!(server.hits("/p0"), 0, "nothing is fetched");

    let mut both = many(&[server.url("/short")]);
    both.url = server.url("/article");
    let e = service
        .web_fetch_many(&both, CallOptions::default())
        .await
        .unwrap_err();
    assert_eq!(e.error_kind, Some(ErrorKind::InvalidArgument));

    let e = service
        .web_fetch_many(
            &many(&[server.url("/short"), "ftp://example.com/x".to_owned()]),
            CallOptions::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(e.error_kind, Some(ErrorKind::InvalidUrl));
    assert!(e.message.unwrap().contains("`urls[1]`"));
    assert_eq!(server.hits("/short"), 0, "nothing is fetched");
}

#[tokio::test]
async fn the_cli_prints_each_page_under_its_url_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path());
    let server = PageServer::start().await;
    let (short, gone) = (server.url("/short"), server.url("/gone"));
    let cfg = cfg.to_str().unwrap();
    let o = farsight(&["fetch", &short, &gone, "--config", cfg], &[]).await;
    assert_eq!(o.status.code(), Some(0), "one page read: {o:?}");
    let out = String::from_utf8_lossy(&o.stdout);
    let first = out.find(&format!("==> [1/2] {short} <==")).expect(&out);
    let title = out.find("# Short page").expect(&out);
    let second = out.find(&format!("==> [2/2] {gone} <==")).expect(&out);
    let error = out.find("Error (httpStatus, HTTP 404)").expect(&out);
    assert!(first < title && title < second && second < error, "{out}");

    let o = farsight(&["fetch", &gone, &short, "--json", "--config", cfg], &[]).await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["status"], "partial");
    assert_eq!(json["results"][0]["url"], gone.as_str());
    assert_eq!(json["results"][1]["title"], "Short page");

    let o = farsight(&["fetch", &gone, &gone, "--config", cfg], &[]).await;
    assert_eq!(o.status.code(), Some(1), "every page failed: {o:?}");
}

#[tokio::test]
async fn mcp_over_http_answers_urls_with_results_and_a_header_per_page() {
    let pages = PageServer::start().await;
    let server = HttpServer::start(None, &[]).await;
    let client = ().serve(transport(&server.mcp_url(), None, &[])).await.unwrap();
    let (short, gone) = (pages.url("/short"), pages.url("/gone"));
    let params = CallToolRequestParams::new("web_fetch").with_arguments(
        json!({"urls": [short, gone], "format": "text"})
            .as_object()
            .unwrap()
            .clone(),
    );
    let answer = client.call_tool(params).await.unwrap();
    assert_eq!(answer.is_error, Some(false));
    let sc = answer
        .structured_content
        .clone()
        .expect("structuredContent");
    assert_eq!(sc["status"], "partial", "{sc}");
    assert_eq!(sc["results"][0]["status"], "success", "{sc}");
    assert_eq!(sc["results"][1]["errorKind"], "httpStatus", "{sc}");
    let text = answer.content[0].as_text().unwrap().text.clone();
    assert!(text.contains(&format!("==> [1/2] {short} <==")), "{text}");
    assert!(text.contains(&format!("==> [2/2] {gone} <==")), "{text}");

    // A list sent as a string (the Inspector sends every argument so).
    let params = CallToolRequestParams::new("web_fetch").with_arguments(
        json!({"urls": format!("[\"{short}\"]")})
            .as_object()
            .unwrap()
            .clone(),
    );
    let answer = client.call_tool(params).await.unwrap();
    let sc = answer.structured_content.clone().unwrap();
    assert_eq!(sc["results"][0]["title"], "Short page", "{sc}");
    client.cancel().await.unwrap();
}
