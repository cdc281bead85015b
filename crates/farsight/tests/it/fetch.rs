//! `web_fetch` through the service, against a local page server.

use farsight::{CallOptions, FetchFormat, FetchRequest, FetchStatus, Service};

use crate::support::{PageServer, config};

async fn setup() -> (PageServer, Service, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let server = PageServer::start().await;
    let service = Service::new(config(dir.path())).unwrap();
    (server, service, dir)
}

#[tokio::test]
async fn a_page_comes_back_with_title_metadata_and_absolute_links() {
    let (server, service, _dir) = setup().await;
    let r = service
        .web_fetch(
            &FetchRequest::new(server.url("/article")),
            CallOptions::default(),
        )
        .await;
    assert_eq!(r.status, FetchStatus::Success, "{r:?}");
    assert_eq!(r.url, server.url("/article"));
    assert!(
        r.title.as_deref().unwrap().starts_with("Lighthouses"),
        "{:?}",
        r.title
    );
    let meta = r.metadata.as_ref().unwrap();
    assert_eq!(meta.description.as_deref(), Some("All about lighthouses"));
    assert_eq!(meta.site_name.as_deref(), Some("Coast Site"));
    let links = r.links.as_ref().unwrap();
    assert!(
        links.iter().any(|l| l.url == server.url("/keepers/1")),
        "{links:?}"
    );
    let json = serde_json::to_value(&r).unwrap();
    for key in [
        "url",
        "status",
        "title",
        "content",
        "contentLength",
        "truncated",
        "metadata",
        "links",
    ] {
        assert!(json.get(key).is_some(), "{key} missing in {json}");
    }
    assert!(json.get("errorKind").is_none());
}

#[tokio::test]
async fn windows_cut_between_paragraphs_and_reading_on_comes_from_the_cache() {
    let (server, service, _dir) = setup().await;
    let mut req = FetchRequest::new(server.url("/article"));
    req.max_length = 1500;
    let first = service.web_fetch(&req, CallOptions::default()).await;
    assert_eq!(first.truncated, Some(true), "{first:?}");
    let next = first.next_start_index.unwrap();
    let content = first.content.unwrap();
    assert!(content.chars().count() <= 1500);
    assert!(
        content.ends_with("home."),
        "cut inside a paragraph: {content:?}"
    );
    let total = first.content_length.unwrap();
    assert!(total > 6000, "{total}");

    let mut seen = content;
    req.start_index = next;
    let mut windows = 1;
    loop {
        let r = service.web_fetch(&req, CallOptions::default()).await;
        let text = r.content.unwrap();
        assert!(
            text.starts_with("Paragraph") || text.starts_with("Read"),
            "{text:?}"
        );
        seen.push_str(&text);
        windows += 1;
        match r.next_start_index {
            Some(n) => req.start_index = n,
            None => {
                assert_eq!(r.truncated, Some(false));
                break;
            }
        }
    }
    assert!(windows >= 5, "{windows}");
    assert!(seen.contains("Paragraph 59 of the long article"));
    assert_eq!(
        server.hits("/article"),
        1,
        "reading on must not download again"
    );
}

#[tokio::test]
async fn no_cache_downloads_again() {
    let (server, service, _dir) = setup().await;
    let req = FetchRequest::new(server.url("/short"));
    service.web_fetch(&req, CallOptions::default()).await;
    service.web_fetch(&req, CallOptions::default()).await;
    assert_eq!(server.hits("/short"), 1);
    service
        .web_fetch(&req, CallOptions::default().bypass_cache(true))
        .await;
    assert_eq!(server.hits("/short"), 2);
}

#[tokio::test]
async fn the_three_formats_differ_and_reuse_one_download() {
    let (server, service, _dir) = setup().await;
    let mut req = FetchRequest::new(server.url("/short"));
    let md = service
        .web_fetch(&req, CallOptions::default())
        .await
        .content
        .unwrap();
    req.format = FetchFormat::Text;
    let text = service
        .web_fetch(&req, CallOptions::default())
        .await
        .content
        .unwrap();
    req.format = FetchFormat::Html;
    let html = service
        .web_fetch(&req, CallOptions::default())
        .await
        .content
        .unwrap();
    assert!(md.contains("**bold**") && md.contains("](http://"), "{md}");
    assert!(
        !text.contains("**") && !text.contains("<p>") && text.contains("bold"),
        "{text}"
    );
    assert!(html.contains("<strong>bold</strong>"), "{html}");
    assert_eq!(server.hits("/short"), 1);
}

#[tokio::test]
async fn a_matching_selector_returns_only_its_elements() {
    let (server, service, _dir) = setup().await;
    let mut req = FetchRequest::new(server.url("/article"));
    req.selector = Some(".infobox".to_owned());
    let r = service.web_fetch(&req, CallOptions::default()).await;
    assert_eq!(r.selector_matched, Some(true), "{r:?}");
    assert_eq!(r.selector.as_deref(), Some(".infobox"));
    let content = r.content.unwrap();
    assert!(content.contains("Jeddah Light"), "{content}");
    assert!(!content.contains("Paragraph 3"), "{content}");
}

#[tokio::test]
async fn a_selector_that_matches_nothing_falls_back_and_says_so() {
    let (server, service, _dir) = setup().await;
    let mut req = FetchRequest::new(server.url("/article"));
    req.selector = Some("#no-such-thing".to_owned());
    let r = service.web_fetch(&req, CallOptions::default()).await;
    assert_eq!(r.status, FetchStatus::Success);
    assert_eq!(r.selector_matched, Some(false));
    assert!(r.content.unwrap().contains("Paragraph 3"));
    assert!(r.message.unwrap().contains("matched nothing"));
}

#[tokio::test]
async fn a_json_page_is_returned_as_pretty_text() {
    let (server, service, _dir) = setup().await;
    let r = service
        .web_fetch(
            &FetchRequest::new(server.url("/data.json")),
            CallOptions::default(),
        )
        .await;
    assert_eq!(r.status, FetchStatus::Success, "{r:?}");
    assert_eq!(
        r.content.as_deref(),
        Some("{\n  \"name\": \"farsight\",\n  \"tools\": [\n    \"web_fetch\"\n  ]\n}")
    );
}

#[tokio::test]
async fn a_page_without_static_content_is_partial() {
    let (server, service, _dir) = setup().await;
    let r = service
        .web_fetch(
            &FetchRequest::new(server.url("/app")),
            CallOptions::default(),
        )
        .await;
    assert_eq!(r.status, FetchStatus::Partial, "{r:?}");
    assert!(r.message.unwrap().contains("JavaScript"));
}

#[tokio::test]
async fn http_errors_carry_kind_code_and_advice() {
    let (server, service, _dir) = setup().await;
    let r = service
        .web_fetch(
            &FetchRequest::new(server.url("/gone")),
            CallOptions::default(),
        )
        .await;
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["status"], "error", "{json}");
    assert_eq!(json["errorKind"], "httpStatus");
    assert_eq!(json["errorCode"], 404);
    assert_eq!(json["retryable"], false);
    assert!(
        json["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{json}"
    );
    assert!(
        json["suggestion"].as_str().is_some_and(|m| !m.is_empty()),
        "{json}"
    );
    assert!(json.get("content").is_none(), "{json}");

    let busy = service
        .web_fetch(
            &FetchRequest::new(server.url("/busy")),
            CallOptions::default(),
        )
        .await;
    assert_eq!(busy.error_code, Some(503));
    assert_eq!(busy.retryable, Some(true));
    assert_eq!(busy.retry_after_ms, Some(7000));

    let denied = service
        .web_fetch(
            &FetchRequest::new(server.url("/private")),
            CallOptions::default(),
        )
        .await;
    assert_eq!(denied.error_code, Some(403));
    assert_eq!(denied.retryable, Some(false));
}

#[tokio::test]
async fn refused_urls_never_connect() {
    let (_server, service, _dir) = setup().await;
    for (url, kind) in [
        ("ftp://example.com/file", "invalidUrl"),
        ("https://user:pw@example.com/", "invalidUrl"),
        ("not a url", "invalidUrl"),
        ("http://10.0.0.1/", "blockedUrl"),
        ("http://[::1]/", "blockedUrl"),
        ("http://169.254.169.254/latest/meta-data/", "blockedUrl"),
    ] {
        let r = service
            .web_fetch(&FetchRequest::new(url), CallOptions::default())
            .await;
        assert_eq!(r.status, FetchStatus::Error, "{url}");
        assert_eq!(r.error_kind.map(|k| k.as_str()), Some(kind), "{url}: {r:?}");
        assert!(r.suggestion.is_some(), "{url}: {r:?}");
    }
}

#[tokio::test]
async fn a_page_cut_at_the_byte_cap_is_marked_truncated() {
    let dir = tempfile::tempdir().unwrap();
    let server = PageServer::start().await;
    let mut cfg = config(dir.path());
    cfg.fetch.max_bytes = 3000;
    let service = Service::new(cfg).unwrap();
    let r = service
        .web_fetch(
            &FetchRequest::new(server.url("/article")),
            CallOptions::default(),
        )
        .await;
    assert_eq!(r.status, FetchStatus::Partial, "{r:?}");
    assert_eq!(r.truncated, Some(true));
    assert!(r.message.unwrap().contains("download limit"));
}

/// With a call timeout too short to read the page, the answer is the part
/// read by then (`partial`, saying so) or a `timeout` error; never a
/// success, and nothing cut short is cached: a later call with time
/// enough reads the whole page.
#[tokio::test]
async fn extraction_past_the_call_deadline_is_partial_or_a_timeout_and_not_cached() {
    use crate::support::Canned;

    let mut big = String::from("<html><head><title>Big</title></head><body><main>");
    for i in 0..60_000 {
        big.push_str(&format!("<p>Paragraph {i}, with words enough to read.</p>"));
    }
    big.push_str("</main></body></html>");
    let mut pages = crate::support::standard_pages();
    pages.insert("/big", Canned::html(big));
    let server = PageServer::with_pages(pages).await;
    let dir = tempfile::tempdir().unwrap();
    let mut hurried = config(dir.path());
    // Already past the extraction's own deadline when the page arrives.
    hurried.fetch.timeout = std::time::Duration::from_millis(300);
    let hurried = Service::new(hurried).unwrap();
    for path in ["/article", "/big"] {
        let r = hurried
            .web_fetch(&FetchRequest::new(server.url(path)), CallOptions::default())
            .await;
        match r.status {
            FetchStatus::Partial => {
                assert!(
                    r.message
                        .as_deref()
                        .unwrap_or_default()
                        .contains("ran out of time"),
                    "{r:?}"
                );
                assert!(!r.content.unwrap_or_default().is_empty());
            }
            FetchStatus::Error => {
                assert_eq!(r.error_kind.map(|k| k.as_str()), Some("timeout"), "{r:?}");
                assert!(r.suggestion.is_some());
            }
            FetchStatus::Success => panic!("{path}: a success past the deadline: {r:?}"),
        }
    }
    // Same cache directory, time enough: the whole page, extracted afresh.
    let patient = Service::new(config(dir.path())).unwrap();
    let r = patient
        .web_fetch(
            &FetchRequest::new(server.url("/article")),
            CallOptions::default(),
        )
        .await;
    assert_eq!(r.status, FetchStatus::Success, "{r:?}");
    assert!(r.message.is_none(), "{r:?}");
}

/// A gzip bomb that decodes to NULs after a little HTML: the download stops
/// at the byte cap, the NULs never reach the answer, and the call answers
/// (the pre-parse pass drops them before the parser, which kept an error
/// per NUL: 1.6 GB for 5 MiB).
#[tokio::test]
async fn a_gzip_bomb_of_nuls_is_read_to_the_cap_without_them() {
    use std::io::Write;

    use flate2::Compression;
    use flate2::write::GzEncoder;
    use wiremock::matchers::path;
    use wiremock::{Mock, MockServer, ResponseTemplate};

    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    gz.write_all(b"<html><head><title>Bomb</title></head><body><p>Words before the flood.</p><p>")
        .unwrap();
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..64 {
        gz.write_all(&zeros).unwrap();
    }
    let body = gz.finish().unwrap();
    let server = MockServer::start().await;
    Mock::given(path("/bomb"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("content-type", "text/html; charset=utf-8")
                .insert_header("content-encoding", "gzip")
                .set_body_bytes(body),
        )
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let service = Service::new(config(dir.path())).unwrap();
    let r = service
        .web_fetch(
            &FetchRequest::new(format!("{}/bomb", server.uri())),
            CallOptions::default(),
        )
        .await;
    let content = r.content.clone().unwrap_or_default();
    assert!(!content.contains('\0'), "{r:?}");
    if r.status != FetchStatus::Error {
        assert!(content.contains("Words before the flood"), "{r:?}");
        assert_eq!(r.truncated, Some(true), "{r:?}");
    }
}
