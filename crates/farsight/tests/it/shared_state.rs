//! Several instances sharing one Redis (issue 15), each an in-process
//! `Service` with a cache directory of its own (so what they share can only
//! come through Redis), against a real `redis-server` of the test's own;
//! skipped with a message where it is not installed. `/healthz` is read from
//! a real `farsight mcp --http` process.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use farsight::{CallOptions, Config, FetchRequest, FetchStatus, SearchRequest, Service};
use farsight_net::testing::RedisServer;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::mcp_http::{HttpServer, http};
use crate::search_support::brave_body;
use crate::support::PageServer;

/// One instance: pages on 127.0.0.1 allowed, its own cache directory under
/// `dir`, the shared Redis, and `extra` TOML.
fn instance(dir: &Path, name: &str, redis_url: &str, extra: &str) -> Service {
    let toml = format!(
        "[fetch]\nallow_hosts = [\"127.0.0.1\"]\ntimeout_seconds = 10\n\n\
         [cache]\ndir = {:?}\nredis_url = {redis_url:?}\n\n{extra}",
        dir.join(name).display().to_string()
    );
    let raw = farsight::config::RawConfig::from_toml(&toml).unwrap();
    Service::new(Config::resolve(raw).unwrap()).unwrap()
}

fn window(url: &str, start_index: usize) -> FetchRequest {
    let mut r = FetchRequest::new(url);
    r.max_length = 1500;
    r.start_index = start_index;
    r
}

/// Waits (at most 10 s) until `check` holds.
async fn eventually(what: &str, mut check: impl AsyncFnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !check().await {
        assert!(Instant::now() < deadline, "never: {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn healthz(server: &HttpServer) -> serde_json::Value {
    let r = http()
        .get(format!("{}/healthz", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.status().as_u16(),
        200,
        "healthz answers 200 in every state"
    );
    r.json().await.unwrap()
}

#[tokio::test]
async fn a_page_fetched_on_one_instance_is_read_on_by_the_others_without_downloading_it() {
    let Some(redis) = RedisServer::start(
        "a_page_fetched_on_one_instance_is_read_on_by_the_others_without_downloading_it",
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pages = PageServer::start().await;
    let url = pages.url("/article");
    let instances: Vec<Service> = (1..=3)
        .map(|i| instance(dir.path(), &format!("i{i}"), &redis.url(), ""))
        .collect();

    let mut start = 0;
    let mut windows = Vec::new();
    for service in &instances {
        let r = service
            .web_fetch(&window(&url, start), CallOptions::default())
            .await;
        assert_eq!(r.status, FetchStatus::Success, "{r:?}");
        windows.push(r.content.clone().unwrap());
        start = r
            .next_start_index
            .expect("the article is longer than three windows");
    }
    assert_eq!(pages.hits("/article"), 1, "downloaded once for all three");
    assert_eq!(
        pages.hits("/robots.txt"),
        1,
        "robots.txt read once for all three"
    );
    assert!(windows[0] != windows[1] && windows[1] != windows[2]);
}

#[tokio::test]
async fn three_instances_keep_together_to_a_providers_budget() {
    let Some(redis) = RedisServer::start("three_instances_keep_together_to_a_providers_budget")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let arrivals: Arc<Mutex<Vec<Instant>>> = Arc::default();
    let provider = MockServer::start().await;
    let seen = arrivals.clone();
    let body = brave_body(&[("Tokio", "https://tokio.rs/", "An async runtime")]);
    Mock::given(method("GET"))
        .and(path("/res/v1/web/search"))
        .respond_with(move |_: &wiremock::Request| {
            seen.lock().unwrap().push(Instant::now());
            ResponseTemplate::new(200).set_body_json(body.clone())
        })
        .mount(&provider)
        .await;
    // Brave at 2 requests per second, burst 1; the keyless fallbacks point
    // at a closed port, so a call over budget cannot be answered elsewhere.
    let extra = format!(
        "[search]\nprovider = \"brave\"\n\n\
         [providers.brave]\napi_key = \"test\"\nbase_url = {:?}\nrequests_per_second = 2\nburst = 1\n\n\
         [providers.duckduckgo]\nbase_url = \"http://127.0.0.1:9\"\n\n\
         [providers.wikipedia]\nbase_url = \"http://127.0.0.1:9\"\n",
        provider.uri()
    );
    let instances: Vec<Service> = (1..=3)
        .map(|i| instance(dir.path(), &format!("i{i}"), &redis.url(), &extra))
        .collect();

    // Three times the budget of 5 s (1 + 2 x 5 = 11): 33 searches, each a
    // new question (no cache hits), spread over 5 s and over the instances.
    let started = Instant::now();
    let mut calls = Vec::new();
    for i in 0..33u32 {
        let service = instances[i as usize % 3].clone();
        calls.push(tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(150) * i).await;
            service
                .web_search(
                    &SearchRequest::new(format!("question {i}")),
                    CallOptions::default(),
                )
                .await
                .is_ok()
        }));
    }
    let mut answered = 0;
    for call in calls {
        answered += usize::from(call.await.unwrap());
    }
    let arrivals = arrivals.lock().unwrap().clone();
    let received = arrivals.len();
    let span = arrivals
        .last()
        .map_or(0.0, |last| last.duration_since(arrivals[0]).as_secs_f64());
    // Within the span from the first request to the last, the budget allows
    // the burst plus two a second; one more for the edges.
    let budget = 1 + (span * 2.0).ceil() as usize + 1;
    eprintln!("{received} of 33 searches reached the provider in {span:.2} s (budget {budget})");
    assert!(
        received <= budget,
        "{received} requests reached the provider in {span:.2} s (budget {budget})"
    );
    assert_eq!(answered, received, "every admitted search was answered");
    assert!(received >= 5, "the budget admits: {received}");
    assert!(received < 33, "some calls were over budget: {received}");
    assert!(started.elapsed() >= Duration::from_secs(4));
}

#[tokio::test]
async fn redis_stopping_fails_no_call_and_its_return_resumes_sharing() {
    let Some(mut redis) =
        RedisServer::start("redis_stopping_fails_no_call_and_its_return_resumes_sharing")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pages = PageServer::start().await;
    let (a, b) = (
        instance(dir.path(), "a", &redis.url(), ""),
        instance(dir.path(), "b", &redis.url(), ""),
    );
    let server = HttpServer::start(None, &[("REDIS_URL", redis.url().as_str())]).await;
    eventually("healthz ok", async || {
        healthz(&server).await["status"] == "ok"
    })
    .await;
    assert_eq!(healthz(&server).await, serde_json::json!({"status": "ok"}));

    let article = pages.url("/article");
    let first = a
        .web_fetch(&window(&article, 0), CallOptions::default())
        .await;
    assert_eq!(first.status, FetchStatus::Success, "{first:?}");

    redis.stop();
    // No call fails: b reads on (it downloads, having nothing shared), and
    // both fetch new pages.
    let next = first.next_start_index.unwrap();
    let r = b
        .web_fetch(&window(&article, next), CallOptions::default())
        .await;
    assert_eq!(r.status, FetchStatus::Success, "{r:?}");
    for service in [&a, &b] {
        let r = service
            .web_fetch(&window(&pages.url("/short"), 0), CallOptions::default())
            .await;
        assert_eq!(r.status, FetchStatus::Success, "{r:?}");
    }
    let health = b.redis_health().unwrap();
    assert!(!health.is_up());
    assert_eq!(health.outages(), 1);
    eventually("healthz degraded", async || {
        healthz(&server).await["status"] == "degraded"
    })
    .await;
    assert_eq!(
        healthz(&server).await,
        serde_json::json!({"status": "degraded", "reason": "redis: connection refused"})
    );

    redis.start_again();
    eventually("both instances back", async || {
        a.redis_health().unwrap().is_up() && b.redis_health().unwrap().is_up()
    })
    .await;
    eventually("healthz ok again", async || {
        healthz(&server).await["status"] == "ok"
    })
    .await;
    let data = pages.url("/data.json");
    let r = a.web_fetch(&window(&data, 0), CallOptions::default()).await;
    assert_eq!(r.status, FetchStatus::Success, "{r:?}");
    let r = b.web_fetch(&window(&data, 0), CallOptions::default()).await;
    assert_eq!(r.status, FetchStatus::Success, "{r:?}");
    assert_eq!(
        pages.hits("/data.json"),
        1,
        "shared again without a restart"
    );
    assert_eq!(health.outages(), 1);
}
