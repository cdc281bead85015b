//! Markup patterns of many sites that extraction got wrong, each on a
//! hand-written page in `test-data/issue12/` (issue 12, "Defects found on
//! real pages that no one here wrote").

use farsight_extract::{ExtractOptions, Format, extract};

use crate::page;

fn run_at(name: &str, url: &str, format: Format) -> farsight_extract::Document {
    let opts = ExtractOptions::new(format).base_url(url);
    extract(&page(&format!("issue12/{name}")), &opts)
}

// An e-mail's wrapper styled `font-size:0` hid the whole newsletter,
// although every column sets its own size.
#[test]
fn a_font_size_zero_wrapper_does_not_hide_the_page() {
    for format in [Format::Markdown, Format::Text, Format::Html] {
        let doc = run_at(
            "newsletter-font-size-zero.html",
            "https://news.example/harbour/41",
            format,
        );
        let c = &doc.content;
        assert!(c.contains("eastern basin again"), "{format:?}: {c}");
        assert!(c.contains("four metres deep"), "{format:?}: {c}");
        // The preheader is styled to size 0 with nothing sized below it.
        assert!(!c.contains("Read this week"), "{format:?}: {c}");
    }
}

// A short post beside a cookie notice as long as itself: the notice was
// returned as the page's content. Once by its words and its choice ("Got
// it"), once by its class.
#[test]
fn a_cookie_notice_is_not_the_content_of_a_short_post() {
    let html = page("issue12/short-post-cookie-notice.html");
    let named = html.replace(r#"class="notice-wrap""#, r#"class="cookie-bar""#);
    let named = named.replace("Got it", "Fine");
    for (how, html) in [("words", html), ("class", named)] {
        for format in [Format::Markdown, Format::Text] {
            let doc = extract(
                &html,
                &ExtractOptions::new(format).base_url("https://crumb.example/cold-kitchen"),
            );
            let c = &doc.content;
            assert!(c.contains("starter sulks"), "{how} {format:?}: {c}");
            assert!(c.contains("open crumb"), "{how} {format:?}: {c}");
            assert!(!c.contains("use cookies"), "{how} {format:?}: {c}");
        }
    }
}
