//! The provider API client keeps keys at home: a redirect is followed only
//! within the provider's own origin, and no `Referer` is sent (issue 11).

use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use axum::Router;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;

use crate::support::serve;

type Seen = Arc<Mutex<Vec<HeaderMap>>>;

/// A server that records the headers of every request it gets.
async fn recording() -> (std::net::SocketAddr, Seen) {
    let seen: Seen = Arc::default();
    let log = seen.clone();
    let app = Router::new().fallback(move |headers: HeaderMap| {
        let log = log.clone();
        async move {
            log.lock().unwrap().push(headers);
            "{}"
        }
    });
    (serve(app).await, seen)
}

/// A provider whose `/search` redirects to `target`; `/moved` answers and
/// records the headers it got.
async fn redirecting(target: String) -> (std::net::SocketAddr, Seen) {
    let seen: Seen = Arc::default();
    let log = seen.clone();
    let app = Router::new()
        .route(
            "/search",
            get(move || {
                let target = target.clone();
                async move { (StatusCode::FOUND, [(header::LOCATION, target)]).into_response() }
            }),
        )
        .route(
            "/moved",
            get(move |headers: HeaderMap| {
                let log = log.clone();
                async move {
                    log.lock().unwrap().push(headers);
                    "{\"moved\": true}"
                }
            }),
        );
    (serve(app).await, seen)
}

fn client() -> reqwest::Client {
    farsight_net::api_client(
        "farsight-test",
        Duration::from_secs(5),
        None,
        &farsight_net::TlsTrust::default(),
    )
    .unwrap()
}

#[tokio::test]
async fn a_redirect_to_another_origin_is_not_followed_and_the_key_stays_home() {
    let (elsewhere, seen) = recording().await;
    let (provider, _) = redirecting(format!("http://{elsewhere}/steal?x=1")).await;
    let outcome = client()
        .get(format!("http://{provider}/search?key=SECRET-QUERY-KEY"))
        .header("X-Subscription-Token", "SECRET-HEADER-KEY")
        .send()
        .await;
    let error = outcome.expect_err("a cross-origin redirect must fail the call");
    // Providers report errors without their URL (it may carry a key); what
    // is left must not quote the key either.
    let error = error.without_url();
    let text = format!("{error:?} {error}");
    assert!(text.contains("another origin"), "{text}");
    assert!(
        !text.contains("SECRET"),
        "the error must not quote the key: {text}"
    );
    assert!(
        seen.lock().unwrap().is_empty(),
        "the other origin was contacted"
    );
}

#[tokio::test]
async fn a_redirect_within_the_origin_is_followed_without_a_referer() {
    let (provider, seen) = redirecting("/moved".to_owned()).await;
    let answer = client()
        .get(format!("http://{provider}/search?key=k"))
        .send()
        .await
        .expect("a same-origin redirect is followed");
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.text().await.unwrap(), "{\"moved\": true}");
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    assert!(
        seen[0].get(header::REFERER).is_none(),
        "a Referer would carry the first URL, key and all: {:?}",
        seen[0]
    );
}
