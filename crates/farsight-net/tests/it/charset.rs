use axum::Router;
use axum::body::Body;
use axum::http::header;
use axum::response::Response;
use axum::routing::get;
use farsight_net::FetchOptions;

use crate::support::{fetcher, serve};

fn bytes_response(content_type: Option<&'static str>, body: Vec<u8>) -> Response {
    let mut b = Response::builder();
    if let Some(ct) = content_type {
        b = b.header(header::CONTENT_TYPE, ct);
    }
    b.body(Body::from(body)).unwrap()
}

fn encode(enc: &'static encoding_rs::Encoding, text: &str) -> Vec<u8> {
    let (bytes, _, had_errors) = enc.encode(text);
    assert!(!had_errors);
    bytes.into_owned()
}

const JA: &str = "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。";
const RU: &str = "Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация южных губерний.";
const FR: &str =
    "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë au delà des îles.";

async fn fetch_text(path: &str, app: Router) -> (String, String) {
    let addr = serve(app).await;
    let page = fetcher()
        .fetch(
            &format!("http://127.0.0.1:{}{path}", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap();
    (page.text, page.charset)
}

#[tokio::test]
async fn shift_jis_from_the_header() {
    let body = encode(
        encoding_rs::SHIFT_JIS,
        &format!("<html><body><p>{JA}</p></body></html>"),
    );
    let app = Router::new().route(
        "/",
        get(move || async move { bytes_response(Some("text/html; charset=Shift_JIS"), body) }),
    );
    let (text, charset) = fetch_text("/", app).await;
    assert_eq!(charset, "Shift_JIS");
    assert!(text.contains(JA), "{text}");
}

#[tokio::test]
async fn shift_jis_from_meta_charset() {
    let body = encode(
        encoding_rs::SHIFT_JIS,
        &format!("<html><head><meta charset=\"shift_jis\"></head><body><p>{JA}</p></body></html>"),
    );
    let app = Router::new().route(
        "/",
        get(move || async move { bytes_response(Some("text/html"), body) }),
    );
    let (text, charset) = fetch_text("/", app).await;
    assert_eq!(charset, "Shift_JIS");
    assert!(text.contains(JA), "{text}");
}

#[tokio::test]
async fn windows_1251_from_meta_http_equiv() {
    let body = encode(
        encoding_rs::WINDOWS_1251,
        &format!(
            "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\"></head><body><p>{RU}</p></body></html>"
        ),
    );
    let app = Router::new().route(
        "/",
        get(move || async move { bytes_response(Some("text/html"), body) }),
    );
    let (text, charset) = fetch_text("/", app).await;
    assert_eq!(charset, "windows-1251");
    assert!(text.contains(RU), "{text}");
}

#[tokio::test]
async fn windows_1251_detected_without_any_declaration() {
    let body = encode(
        encoding_rs::WINDOWS_1251,
        &format!("<html><body><p>{RU}</p><p>{RU}</p></body></html>"),
    );
    let app = Router::new().route(
        "/",
        get(move || async move { bytes_response(Some("text/html"), body) }),
    );
    let (text, charset) = fetch_text("/", app).await;
    assert_eq!(charset, "windows-1251");
    assert!(text.contains(RU), "{text}");
}

/// WHATWG maps the label ISO-8859-1 to windows-1252, a superset.
#[tokio::test]
async fn iso_8859_1_from_the_header() {
    let body = encode(
        encoding_rs::WINDOWS_1252,
        &format!("<html><body><p>{FR}</p></body></html>"),
    );
    let app = Router::new().route(
        "/",
        get(move || async move { bytes_response(Some("text/html; charset=ISO-8859-1"), body) }),
    );
    let (text, charset) = fetch_text("/", app).await;
    assert_eq!(charset, "windows-1252");
    assert!(text.contains(FR), "{text}");
}

#[tokio::test]
async fn utf16_with_a_bom_in_both_byte_orders() {
    let text = format!("<html><body><p>{JA} {RU}</p></body></html>");
    let mut le = vec![0xFF, 0xFE];
    let mut be = vec![0xFE, 0xFF];
    for unit in text.encode_utf16() {
        le.extend_from_slice(&unit.to_le_bytes());
        be.extend_from_slice(&unit.to_be_bytes());
    }
    let app = Router::new()
        .route(
            "/le",
            get(move || async move { bytes_response(Some("text/html"), le) }),
        )
        // The BOM wins over a wrong header charset, as in browsers.
        .route(
            "/be",
            get(move || async move { bytes_response(Some("text/html; charset=iso-8859-1"), be) }),
        );
    let addr = serve(app).await;
    for (path, want) in [("/le", "UTF-16LE"), ("/be", "UTF-16BE")] {
        let page = fetcher()
            .fetch(
                &format!("http://127.0.0.1:{}{path}", addr.port()),
                &FetchOptions::default(),
            )
            .await
            .unwrap();
        assert_eq!(page.charset, want);
        assert_eq!(page.text, text);
    }
}

#[tokio::test]
async fn utf8_is_the_plain_case() {
    let app = Router::new().route(
        "/",
        get(|| async {
            bytes_response(Some("text/plain"), format!("{JA}\n{RU}\n{FR}").into_bytes())
        }),
    );
    let (text, charset) = fetch_text("/", app).await;
    assert_eq!(charset, "UTF-8");
    assert_eq!(text, format!("{JA}\n{RU}\n{FR}"));
}
