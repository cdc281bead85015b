//! Feeds, JSON, Markdown and source files, and a product page's structured
//! data, through the real fetch path against a local server (issue #13).

use std::collections::HashMap;

use farsight::{CallOptions, FetchFormat, FetchRequest, FetchResponse, FetchStatus, Service};
use serde_json::json;

use crate::support::{Canned, PageServer, config};

fn text(content_type: &'static str, body: impl Into<String>) -> Canned {
    Canned {
        status: 200,
        content_type,
        body: body.into().into_bytes(),
        headers: Vec::new(),
    }
}

// (A declaration naming another encoding than the bytes' is feed-rs's
// trap: `feed.rs` unit tests cover it; this server sends UTF-8 only.)
const RSS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel>
  <title>Harbour News</title>
  <link>https://harbour.example/</link>
  <description>What happens at the Café by the harbour</description>
  <item>
    <title>Old tide tables</title>
    <link>https://harbour.example/old</link>
    <pubDate>Mon, 01 Jan 2024 08:00:00 GMT</pubDate>
    <description>Older news.</description>
  </item>
  <item>
    <title>New lighthouse &amp; keeper</title>
    <link>https://harbour.example/new</link>
    <pubDate>Fri, 01 Mar 2024 08:00:00 GMT</pubDate>
    <author>jane@harbour.example (Jane Keeper)</author>
    <description><![CDATA[<p>The <b>new</b> keeper starts <script>alert(1)</script>today.</p><img src=x onerror=alert(2)>]]></description>
  </item>
  <item>
    <title>Undated notice</title>
    <link>/notice</link>
  </item>
</channel></rss>"#;

const ATOM: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Release notes</title>
  <link href="https://rel.example/" rel="alternate"/>
  <link href="https://rel.example/feed.atom" rel="self"/>
  <updated>2024-05-02T00:00:00Z</updated>
  <author><name>Release Team</name></author>
  <id>urn:x</id>
  <entry>
    <title type="html">v1.0 &lt;em&gt;released&lt;/em&gt;</title>
    <link href="https://rel.example/v1"/>
    <id>urn:1</id>
    <updated>2024-04-01T00:00:00Z</updated>
    <summary type="html">&lt;p&gt;First &lt;a href="javascript:x"&gt;stable&lt;/a&gt; release.&lt;/p&gt;</summary>
  </entry>
  <entry>
    <title>v1.1</title>
    <link href="https://rel.example/v1.1"/>
    <id>urn:2</id>
    <updated>2024-05-01T00:00:00Z</updated>
    <content type="html">&lt;p&gt;Bug fixes.&lt;/p&gt;</content>
  </entry>
</feed>"#;

const PRODUCT_PAGE: &str = r#"<html><head><title>Storm Lantern | Harbour Shop</title>
<meta property="og:title" content="Storm Lantern">
<meta property="og:type" content="product">
<meta property="og:image" content="https://shop.example/lantern.jpg">
<meta property="product:price:amount" content="49.90">
<meta property="product:price:currency" content="EUR">
<script type="application/ld+json">
{"@context": "https://schema.org", "@graph": [
  {"@type": "Organization", "@id": "https://shop.example/#org", "name": "Harbour Shop", "url": "https://shop.example/"},
  {"@type": "BreadcrumbList", "itemListElement": [
    {"@type": "ListItem", "position": 2, "name": "Lanterns", "item": "https://shop.example/lanterns"},
    {"@type": "ListItem", "position": 1, "name": "Home", "item": {"@id": "https://shop.example/"}}
  ]},
  {"@type": "Product", "name": "Storm Lantern", "sku": "SL-1", "brand": {"@type": "Brand", "name": "Beacon"},
   "offers": {"@type": "Offer", "price": 49.90, "priceCurrency": "EUR", "availability": "https://schema.org/InStock"}}
]}
</script>
<script type="application/ld+json">
[{"@type": "Product", "name": "Lantern Wicks", "offers": {"@type": "AggregateOffer", "lowPrice": "3.50", "highPrice": "9", "priceCurrency": "EUR", "offerCount": 4}},
 {"@type": "Product", "name": "Lantern Oil", "offers": [{"@type": "Offer", "price": "12.00", "priceCurrency": "USD", "availability": "OutOfStock"}, {"@type": "Offer", "price": "11.00", "priceCurrency": "EUR"}]}]
</script>
</head><body><main><h1>Storm Lantern</h1>
<p>A lantern that keeps burning in the worst storms the coast has seen, made of brass and glass by hand.</p>
<p>Its wick is trimmed by a brass wheel on the side, and its glass chimney is held in a cage of
wire that keeps it whole when the lantern falls on the deck of a rolling boat.</p>
<p>One filling of oil burns for two nights. The handle folds down for stowing, and the base has
a hook so that the lantern can hang from a beam in the cabin.</p>
</main></body></html>"#;

const MARKDOWN: &str = "# Guide\n\nPress <kbd>Ctrl</kbd> to start.\n\n\
    <div>\n<p>Hidden <a href=\"/docs\">docs</a></p><script>steal()</script>\n</div>\n\n\
    ```html\n<b>code stays</b>\n```\n";

const PYTHON: &str = "def tide(h):\n    \"\"\"Returns ```fenced``` text.\"\"\"\n    return h * 2\n";

fn pages() -> HashMap<&'static str, Canned> {
    let mut pages = HashMap::new();
    pages.insert("/news.rss", text("application/rss+xml", RSS));
    // Generic XML whose root is a feed.
    pages.insert("/atom", text("application/xml", ATOM));
    pages.insert(
        "/feed.json",
        text(
            "application/json",
            json!({
                "version": "https://jsonfeed.org/version/1.1",
                "title": "Ship log",
                "home_page_url": "https://log.example/",
                "items": [
                    {"id": "1", "url": "https://log.example/1", "title": "Sailed", "content_html": "<p>Left <i>port</i>.</p>", "date_published": "2024-02-01T00:00:00Z"},
                    {"id": "2", "url": "https://log.example/2", "title": "Docked", "content_text": "Back home.", "date_published": "2024-02-03T00:00:00Z", "authors": [{"name": "Captain"}]}
                ]
            })
            .to_string(),
        ),
    );
    pages.insert(
        "/data.json",
        text(
            "application/json",
            r#"{"zeta":1,"alpha":[12345678901234567890123,{"k":"v"}]}"#,
        ),
    );
    pages.insert("/bad.json", text("application/json", "{\"a\": 1,"));
    pages.insert("/product", Canned::html(PRODUCT_PAGE));
    pages.insert("/guide.md", text("text/markdown; charset=utf-8", MARKDOWN));
    pages.insert("/tide.py", text("text/plain; charset=utf-8", PYTHON));
    let many: String = (0..100_000)
        .map(|i| format!("<item><title>Item {i}</title><link>https://m.example/{i}</link></item>"))
        .collect();
    pages.insert(
        "/many.rss",
        text(
            "application/rss+xml",
            format!("<rss version=\"2.0\"><channel><title>Many</title>{many}</channel></rss>"),
        ),
    );
    pages
}

async fn setup() -> (PageServer, Service, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(dir.path());
    // The 100,000-item feed is about 6 MB.
    config.fetch.max_bytes = 16 * 1024 * 1024;
    let server = PageServer::with_pages(pages()).await;
    (server, Service::new(config).unwrap(), dir)
}

async fn fetch(service: &Service, req: &FetchRequest) -> FetchResponse {
    let r = service.web_fetch(req, CallOptions::default()).await;
    assert_eq!(r.status, FetchStatus::Success, "{r:?}");
    r
}

#[tokio::test]
async fn rss_lists_its_items_newest_first_as_inert_markdown() {
    let (server, service, _dir) = setup().await;
    let r = fetch(&service, &FetchRequest::new(server.url("/news.rss"))).await;
    assert_eq!(r.title.as_deref(), Some("Harbour News"));
    let meta = r.metadata.as_ref().unwrap();
    assert_eq!(meta.site_url.as_deref(), Some("https://harbour.example/"));
    assert_eq!(
        meta.description.as_deref(),
        Some("What happens at the Café by the harbour")
    );
    let content = r.content.as_deref().unwrap();
    let new = content
        .find("- [New lighthouse & keeper](https://harbour.example/new) — 2024-03-01 · Jane Keeper")
        .unwrap_or_else(|| panic!("{content}"));
    let old = content
        .find("- [Old tide tables](https://harbour.example/old) — 2024-01-01")
        .unwrap();
    let undated = content.find("Undated notice").unwrap();
    assert!(new < old && old < undated, "{content}");
    assert!(
        content.contains("  The **new** keeper starts today."),
        "{content}"
    );
    for raw in ["<script", "<img", "alert", "<p>", "<b>"] {
        assert!(!content.contains(raw), "{raw} in {content}");
    }
    let links = r.links.as_ref().unwrap();
    assert!(
        links.iter().any(|l| l.url == "https://harbour.example/new"),
        "{links:?}"
    );
}

#[tokio::test]
async fn atom_in_generic_xml_and_json_feed_in_generic_json_are_feeds() {
    let (server, service, _dir) = setup().await;
    let r = fetch(&service, &FetchRequest::new(server.url("/atom"))).await;
    assert_eq!(r.title.as_deref(), Some("Release notes"));
    let meta = r.metadata.as_ref().unwrap();
    assert_eq!(meta.site_url.as_deref(), Some("https://rel.example/"));
    assert_eq!(meta.author.as_deref(), Some("Release Team"));
    let content = r.content.as_deref().unwrap();
    let v11 = content
        .find("[v1.1](https://rel.example/v1.1) — 2024-05-01")
        .unwrap_or_else(|| panic!("{content}"));
    let v10 = content
        .find("[v1.0 *released*](https://rel.example/v1) — 2024-04-01")
        .unwrap_or_else(|| panic!("{content}"));
    assert!(v11 < v10, "{content}");
    assert!(content.contains("  First stable release."), "{content}");
    assert!(content.contains("  Bug fixes."), "{content}");
    assert!(!content.contains("javascript"), "{content}");

    let r = fetch(&service, &FetchRequest::new(server.url("/feed.json"))).await;
    assert_eq!(r.title.as_deref(), Some("Ship log"));
    let content = r.content.as_deref().unwrap();
    let docked = content
        .find("- [Docked](https://log.example/2) — 2024-02-03 · Captain\n  Back home.")
        .unwrap_or_else(|| panic!("{content}"));
    let sailed = content
        .find("- [Sailed](https://log.example/1) — 2024-02-01\n  Left *port*.")
        .unwrap_or_else(|| panic!("{content}"));
    assert!(docked < sailed, "{content}");

    // As plain text: no Markdown link syntax.
    let mut req = FetchRequest::new(server.url("/feed.json"));
    req.format = FetchFormat::Text;
    let r = fetch(&service, &req).await;
    let content = r.content.as_deref().unwrap();
    assert!(
        content.contains("- Docked (https://log.example/2) — 2024-02-03 · Captain"),
        "{content}"
    );
    assert!(!content.contains("]("), "{content}");
}

#[tokio::test]
async fn a_feed_of_100k_items_lists_a_bounded_number_and_says_so() {
    let (server, service, _dir) = setup().await;
    let mut req = FetchRequest::new(server.url("/many.rss"));
    req.max_length = 1_000_000;
    let r = fetch(&service, &req).await;
    let content = r.content.as_deref().unwrap();
    let items = content
        .lines()
        .filter(|l| l.starts_with("- [Item "))
        .count();
    assert_eq!(items, 200, "{}", &content[..500]);
    assert!(
        content.contains("99800 more items in the feed are not listed"),
        "{}",
        &content[content.len() - 300..]
    );
    assert_eq!(r.links.as_ref().unwrap().len(), 200);
}

#[tokio::test]
async fn json_is_pretty_in_its_own_order_and_bad_json_comes_back_as_it_is() {
    let (server, service, _dir) = setup().await;
    let r = fetch(&service, &FetchRequest::new(server.url("/data.json"))).await;
    assert_eq!(
        r.content.as_deref(),
        Some(
            "{\n  \"zeta\": 1,\n  \"alpha\": [\n    12345678901234567890123,\n    {\n      \"k\": \"v\"\n    }\n  ]\n}"
        )
    );
    let r = fetch(&service, &FetchRequest::new(server.url("/bad.json"))).await;
    assert_eq!(r.content.as_deref(), Some("{\"a\": 1,"));
}

#[tokio::test]
async fn markdown_comes_back_without_its_html_and_source_in_a_fence() {
    let (server, service, _dir) = setup().await;
    let r = fetch(&service, &FetchRequest::new(server.url("/guide.md"))).await;
    let content = r.content.as_deref().unwrap();
    assert!(
        content.starts_with("# Guide\n\nPress Ctrl to start."),
        "{content}"
    );
    assert!(
        content.contains(&format!("Hidden [docs]({})", server.url("/docs"))),
        "{content}"
    );
    assert!(
        content.contains("```html\n<b>code stays</b>\n```"),
        "{content}"
    );
    assert!(!content.contains("steal"), "{content}");
    assert!(
        !content.contains("<kbd>") && !content.contains("<div>"),
        "{content}"
    );

    let r = fetch(&service, &FetchRequest::new(server.url("/tide.py"))).await;
    assert_eq!(
        r.content.as_deref(),
        Some(format!("````python\n{}\n````", PYTHON.trim_end()).as_str())
    );
    // As text, the code as it came.
    let mut req = FetchRequest::new(server.url("/tide.py"));
    req.format = FetchFormat::Text;
    assert_eq!(fetch(&service, &req).await.content.as_deref(), Some(PYTHON));
}

#[tokio::test]
async fn a_product_page_answers_what_it_costs() {
    let (server, service, _dir) = setup().await;
    let plain = fetch(&service, &FetchRequest::new(server.url("/product"))).await;
    assert_eq!(plain.structured_data, None);

    let mut req = FetchRequest::new(server.url("/product"));
    req.include_structured_data = true;
    let r = fetch(&service, &req).await;
    let data = r.structured_data.clone().unwrap();
    assert_eq!(
        data["items"],
        json!([
            {"type": "Organization", "name": "Harbour Shop", "url": "https://shop.example/"},
            {"type": "BreadcrumbList", "items": [
                {"name": "Home", "url": "https://shop.example/"},
                {"name": "Lanterns", "url": "https://shop.example/lanterns"}
            ]},
            {"type": "Product", "name": "Storm Lantern", "brand": "Beacon", "sku": "SL-1",
             "offers": [{"price": "49.9", "priceCurrency": "EUR", "availability": "InStock"}]},
            {"type": "Product", "name": "Lantern Wicks",
             "offers": [{"lowPrice": "3.50", "highPrice": "9", "priceCurrency": "EUR", "offerCount": "4"}]},
            {"type": "Product", "name": "Lantern Oil", "offers": [
                {"price": "12.00", "priceCurrency": "USD", "availability": "OutOfStock"},
                {"price": "11.00", "priceCurrency": "EUR"}
            ]}
        ]),
        "{data:#}"
    );
    assert_eq!(data["openGraph"]["product:price:amount"], "49.90");
    assert_eq!(data["openGraph"]["og:type"], "product");

    // The document without structured data, cached by the first call, does
    // not answer a call that asks for it; the one with it is cached too.
    let again = fetch(&service, &req).await;
    assert_eq!(again.structured_data, r.structured_data);
    // A page without any: an empty object, not a missing field.
    let mut req = FetchRequest::new(server.url("/article"));
    req.include_structured_data = true;
    let mut pages = pages();
    pages.insert(
        "/article",
        Canned::html(format!(
            "<html><body><article>{}</article></body></html>",
            "<p>Nothing structured here at all, only words about the sea and its tides.</p>"
                .repeat(5)
        )),
    );
    let other = PageServer::with_pages(pages).await;
    req.url = other.url("/article");
    let r = fetch(&service, &req).await;
    assert_eq!(r.structured_data, Some(json!({})));
}

#[tokio::test]
async fn the_cli_flag_adds_structured_data_to_fetch_and_extract() {
    let (server, _service, dir) = setup().await;
    let config = crate::support::write_config(dir.path());
    let config = config.to_str().unwrap();
    let url = server.url("/product");
    let o = crate::support::farsight(
        &[
            "--config",
            config,
            "fetch",
            &url,
            "--structured-data",
            "--json",
        ],
        &[],
    )
    .await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let answer: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        answer["structuredData"]["items"][2]["offers"][0]["price"], "49.9",
        "{answer:#}"
    );

    let file = dir.path().join("product.html");
    std::fs::write(&file, PRODUCT_PAGE).unwrap();
    let o = crate::support::farsight(
        &["extract", file.to_str().unwrap(), "--structured-data"],
        &[],
    )
    .await;
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Structured data:\n```json\n{"), "{text}");
    assert!(text.contains("\"priceCurrency\": \"EUR\""), "{text}");
    let o = crate::support::farsight(&["extract", file.to_str().unwrap()], &[]).await;
    assert!(!String::from_utf8_lossy(&o.stdout).contains("Structured data"));
}
