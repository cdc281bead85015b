//! Metadata, hidden text, sanitising, paywalls, selectors, links.

use farsight_extract::{ExtractOptions, Format, Shortfall, extract};

use crate::{page, run};

#[test]
fn metadata_sources_disagree_json_ld_wins() {
    let doc = run("metadata-conflict.html", Format::Markdown);
    let m = &doc.metadata;
    assert_eq!(m.description.as_deref(), Some("LD description"));
    assert_eq!(m.author.as_deref(), Some("Ada Lovelace, Alan Turing"));
    assert_eq!(m.date_published.as_deref(), Some("2024-03-01"));
    assert_eq!(m.site_name.as_deref(), Some("Example News LD"));
    // The page's own statements about itself win for these two.
    assert_eq!(m.language.as_deref(), Some("de-AT"));
    assert_eq!(
        m.canonical_url.as_deref(),
        Some("https://example.com/canonical")
    );
    assert_eq!(doc.title.as_deref(), Some("LD headline"));
}

// Issue 13: a page's Markdown version survives the pre-parse pass that drops
// most `<link>`s, and comes out absolute (against `<base href>` too), http(s)
// only.
#[test]
fn the_markdown_alternate_comes_out_absolute() {
    let markdown_url = |head: &str| {
        let html = format!(
            "<html><head>{head}<link rel=stylesheet href=/s.css></head><body><article>\
             <h1>Guide</h1><p>{}</p></article></body></html>",
            "Enough words in a paragraph to make it the content of the page. ".repeat(6)
        );
        let options = ExtractOptions::new(Format::Markdown).base_url("https://docs.example/guide/");
        extract(&html, &options).metadata.markdown_url
    };
    assert_eq!(
        markdown_url("<link rel=alternate type=text/markdown href=index.md>").as_deref(),
        Some("https://docs.example/guide/index.md")
    );
    assert_eq!(
        markdown_url(
            "<base href=\"https://cdn.example/v2/\">\
             <link rel=alternate type=text/x-markdown href=guide.md>"
        )
        .as_deref(),
        Some("https://cdn.example/v2/guide.md")
    );
    assert_eq!(
        markdown_url("<link rel=alternate type=text/markdown href=\"javascript:alert(1)\">"),
        None
    );
    assert_eq!(markdown_url(""), None);
}

// Issue 10: "Summary of 3 April 2023" was read as 2023-03-03 (the month
// picked out of "Summary"), and 31 February passed as a date.
#[test]
fn time_text_dates_are_whole_words_on_real_days() {
    let date = |time: &str| {
        let html = format!(
            "<html><body><article><h1>Notes</h1><time>{time}</time><p>{}</p></article></body></html>",
            "Enough words in a paragraph to make it the content of the page. ".repeat(6)
        );
        extract(&html, &ExtractOptions::new(Format::Text))
            .metadata
            .date_published
    };
    assert_eq!(
        date("Summary of 3 April 2023").as_deref(),
        Some("2023-04-03")
    );
    assert_eq!(date("31 February 2023"), None);
    assert_eq!(date("Published 29 Feb 2024").as_deref(), Some("2024-02-29"));
}

#[test]
fn metadata_falls_back_to_meta_and_time() {
    let doc = run("metadata-fallback.html", Format::Text);
    let m = &doc.metadata;
    assert_eq!(m.description.as_deref(), Some("Plain description"));
    assert_eq!(m.site_name.as_deref(), Some("My Blog"));
    assert_eq!(m.date_published.as_deref(), Some("2021-12-24"));
    // No author in `<meta>`: the byline's (issue 12).
    assert_eq!(m.author.as_deref(), Some("Someone"));
    // The " - My Blog" suffix goes because the site's name is known.
    assert_eq!(doc.title.as_deref(), Some("Plain title"));
}

#[test]
fn hidden_text_never_reaches_the_output() {
    for format in [Format::Markdown, Format::Text, Format::Html] {
        let doc = run("hidden.html", format);
        assert!(doc.content.contains("Visible paragraph one"), "{format:?}");
        assert!(
            !doc.content.contains("HIDDEN"),
            "{format:?}: {}",
            doc.content
        );
        assert!(!doc.content.contains('\u{200b}'));
        assert!(doc.content.contains("Zerowidthjoined"));
    }
}

#[test]
fn html_is_sanitised() {
    let doc = run("hidden.html", Format::Html);
    let c = doc.content.to_ascii_lowercase();
    for bad in [
        "<script",
        "<style",
        "<iframe",
        "<form",
        "<input",
        "<button",
        "onclick",
        "javascript:",
        "data:",
    ] {
        assert!(!c.contains(bad), "{bad} in {c}");
    }
    assert!(c.contains("<p>"));
}

#[test]
fn paywall_from_json_ld() {
    let doc = run("paywall.html", Format::Text);
    assert!(doc.paywalled);
    assert!(doc.content.contains("teaser"));
}

#[test]
fn paywall_from_teaser_and_prompt() {
    assert!(run("paywall-prompt.html", Format::Text).paywalled);
    assert!(!run("constructs.html", Format::Text).paywalled);
    assert!(!run("forum.html", Format::Text).paywalled);
}

#[test]
fn javascript_shell_is_empty() {
    let doc = run("js-shell.html", Format::Markdown);
    assert_eq!(doc.content, "");
    assert_eq!(doc.shortfall, Some(Shortfall::BuiltByScripts));
    assert_eq!(run("constructs.html", Format::Markdown).shortfall, None);
}

#[test]
fn selector_every_match_in_order() {
    let opts = ExtractOptions::new(Format::Markdown).selector(".post .body");
    let doc = extract(&page("forum.html"), &opts);
    assert_eq!(doc.selector_matched, Some(true));
    let a = doc.content.find("I have strings").unwrap_or(usize::MAX);
    let b = doc.content.find("chrono crate").unwrap_or(usize::MAX);
    let c = doc.content.find("time crate").unwrap_or(usize::MAX);
    assert!(a < b && b < c, "{}", doc.content);
    assert!(!doc.content.contains("alice"));
}

#[test]
fn selector_renders_tables_in_format() {
    let opts = ExtractOptions::new(Format::Markdown).selector(".infobox");
    let doc = extract(&page("constructs.html"), &opts);
    insta::assert_snapshot!(doc.content, @r"
    |  |  |
    | --- | --- |
    | Directed by | Someone |
    | Music by | Another |
    ");
}

#[test]
fn selector_without_match_falls_back() {
    let opts = ExtractOptions::new(Format::Text).selector("#nope");
    let doc = extract(&page("constructs.html"), &opts);
    assert_eq!(doc.selector_matched, Some(false));
    assert!(doc.content.contains("A paragraph with strong"));
}

#[test]
fn invalid_selector_is_reported_and_falls_back() {
    let opts = ExtractOptions::new(Format::Text).selector("div[");
    let doc = extract(&page("constructs.html"), &opts);
    assert_eq!(doc.selector_matched, Some(false));
    assert!(doc.selector_error.is_some());
    assert!(doc.content.contains("A paragraph with strong"));
}

#[test]
fn links_are_absolute_and_deduplicated() {
    let html = r##"<html><body><article><p>Some text that is long enough to be the main content of the page, really.
        <a href="/a">A</a> <a href="/a">A again</a> <a href="#top">top</a>
        <a href="javascript:void(0)">js</a> <a href="https://other.org/x">X</a></p></article></body></html>"##;
    let opts = ExtractOptions::new(Format::Markdown)
        .base_url("https://example.com/dir/")
        .include_links(true);
    let doc = extract(html, &opts);
    let urls: Vec<&str> = doc.links.iter().map(|l| l.url.as_str()).collect();
    assert_eq!(urls, ["https://example.com/a", "https://other.org/x"]);
    assert!(doc.content.contains("[A](https://example.com/a)"));
    let without = extract(html, &ExtractOptions::new(Format::Markdown));
    assert!(without.links.is_empty());
}

#[test]
fn deep_nesting_does_not_overflow() {
    // 100,000 levels, closed and unclosed, block and inline, each in every
    // format on a thread with tokio's 2 MiB blocking stack. The time is
    // printed by `farsight-bench --scaling` (well under a second in release).
    let depth = 100_000;
    for (open, close) in [
        ("<div>", "</div>"),
        ("<span>", "</span>"),
        ("<b>", "</b>"),
        ("<div>", ""),
    ] {
        let html = format!(
            "<html><body>{}<p>deep text</p>{}<p>after the nest</p></body></html>",
            open.repeat(depth),
            close.repeat(depth)
        );
        let job = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(move || {
                [Format::Markdown, Format::Text, Format::Html]
                    .map(|f| extract(&html, &ExtractOptions::new(f)).content)
            });
        let outputs = job.ok().and_then(|j| j.join().ok());
        let Some(outputs) = outputs else {
            panic!("{open}{close} x{depth}: the extraction thread died");
        };
        for content in outputs {
            assert!(
                content.contains("deep text"),
                "{open}{close}: {content:.200}"
            );
            assert!(
                content.contains("after the nest"),
                "{open}{close}: {content:.200}"
            );
        }
    }
}

#[test]
fn captions_bylines_dates_and_link_runs_are_left_out() {
    let doc = run("kinds/news-article.html", Format::Text);
    for kept in [
        "More than two hundred volunteers",
        "Organisers said",
        "The council has promised",
    ] {
        assert!(doc.content.contains(kept), "{kept}: {}", doc.content);
    }
    for dropped in [
        "Photo: Example News",
        "Jo Patel, Environment",
        "12 May 2024",
        "Read more",
        "Share on",
    ] {
        assert!(!doc.content.contains(dropped), "{dropped}: {}", doc.content);
    }
}

#[test]
fn a_listing_keeps_every_card_not_the_best_one() {
    let html = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/test-data/kinds/listing-page.html"
    ))
    .unwrap_or_default();
    assert!(!html.is_empty());
    let doc = extract(&html, &ExtractOptions::new(Format::Text));
    for job in [
        "Backend Engineer (Rust)",
        "Embedded Rust Developer",
        "Senior Systems Engineer",
    ] {
        assert!(doc.content.contains(job), "{job} missing: {}", doc.content);
    }
    assert!(!doc.content.contains("Get job alerts"));
}

#[test]
fn an_article_is_not_widened_to_its_related_cards() {
    let para = "A long paragraph of the article that says a great deal about the \
                river clean-up, the volunteers, the trolleys and the tyres. ";
    let card = |t: &str| {
        format!(
            "<div class=\"post\"><h3><a href=\"/{t}\">{t}</a></h3><p>{t} teaser text.</p></div>"
        )
    };
    let html = format!(
        "<html><body><main><div class=\"post\"><h1>Clean-up</h1><p>{}</p><p>{}</p></div></main>\
         <section class=\"more\">{}{}{}</section></body></html>",
        para.repeat(4),
        para.repeat(3),
        card("one"),
        card("two"),
        card("three")
    );
    let doc = extract(&html, &ExtractOptions::new(Format::Text));
    assert!(doc.content.contains("river clean-up"), "{}", doc.content);
    assert!(!doc.content.contains("three teaser"), "{}", doc.content);
}

#[test]
fn a_dropped_heading_comes_back_except_on_articles() {
    let body = "<p>A brushed steel kettle that boils a full litre in under three minutes, \
                with a concealed element that is easy to descale and a lid that opens wide.</p>";
    let page = |head: &str| {
        format!(
            "<html><head><title>Steel Kettle - Shop</title>{head}</head><body>\
             <header><h1>Steel Kettle</h1></header><main><div class=\"desc\">{}</div></main></body></html>",
            body.repeat(4)
        )
    };
    let product = extract(&page(""), &ExtractOptions::new(Format::Markdown));
    assert!(
        product.content.starts_with("# Steel Kettle\n\n"),
        "{}",
        product.content
    );
    let article = extract(
        &page("<meta property=\"og:type\" content=\"article\">"),
        &ExtractOptions::new(Format::Text),
    );
    assert!(
        !article.content.contains("Steel Kettle\n"),
        "{}",
        article.content
    );
    assert!(article.content.contains("brushed steel kettle"));
}

#[test]
fn a_layout_wrapper_named_sidebar_keeps_the_article() {
    let para = "The committee met on Monday and agreed, after a long debate, to fund the new bridge across the river. ";
    let html = format!(
        "<html><body><article><div class=\"content-with-sidebar-wrp\"><div class=\"body\">\
         <p>{p}</p><p>{p}</p><p>{p}</p><p>{p}</p><p>{p}</p></div>\
         <div class=\"sidebar\"><p>Short aside, ignore me.</p></div></div></article>\
         <footer><p>Company address, phone and fax numbers here.</p></footer></body></html>",
        p = para
    );
    let doc = extract(&html, &ExtractOptions::default());
    assert!(
        doc.content.contains("fund the new bridge"),
        "{}",
        doc.content
    );
    assert!(!doc.content.contains("Short aside"), "{}", doc.content);
}

/// Extracts a page of `test-data/kinds` with its own URL, as the benchmark
/// does.
fn kind_page(id: &str) -> farsight_extract::Document {
    let html = page(&format!("kinds/{id}.html"));
    let meta: serde_json::Value =
        serde_json::from_str(&page(&format!("kinds/{id}.json"))).unwrap_or_default();
    let url = meta["url"].as_str().unwrap_or("https://example.com/");
    extract(&html, &ExtractOptions::new(Format::Text).base_url(url))
}

fn assert_has(doc: &farsight_extract::Document, keep: &[&str], drop: &[&str]) {
    for k in keep {
        assert!(doc.content.contains(k), "{k:?} missing: {}", doc.content);
    }
    for d in drop {
        assert!(!doc.content.contains(d), "{d:?} kept: {}", doc.content);
    }
}

#[test]
fn a_service_page_keeps_every_section_of_its_main() {
    let doc = kind_page("service-saas");
    assert_has(
        &doc,
        &[
            // Hero, features, testimonial attribution, FAQ question (a
            // disclosure button), pricing.
            "Page the right engineer",
            "Smart alert grouping",
            "Amara Osei",
            "How long does it take to migrate from another paging tool?",
            "Priced per responder",
        ],
        &["Accept all", "All rights reserved"],
    );
}

#[test]
fn a_thread_keeps_every_post_not_user_panels() {
    let doc = kind_page("forum-phpbb");
    assert_has(
        &doc,
        &[
            "My 1541-II (the later one",
            // Short posts, authors and dates are the thread's too.
            "Great thread, bookmarked.",
            "floppyfred",
            "Sun Oct 06, 2024 7:42 pm",
        ],
        &["Posts: 9412", "Joined: Tue Mar 03, 2009", "Similar topics"],
    );
}

#[test]
fn every_comment_of_an_old_reddit_thread_is_kept() {
    let doc = kind_page("forum-reddit");
    assert_has(
        &doc,
        &["Both, but mostly underproofed.", "Two easy options:"],
        &[],
    );
}

#[test]
fn a_product_page_keeps_its_description_and_drops_reviews() {
    // Shopify's default theme marks the description `quick-add-hidden`.
    let doc = kind_page("product-shopify");
    assert_has(
        &doc,
        &[
            "Our bestselling crew, knitted in a mid-weight",
            "80% Corriedale-merino wool",
        ],
        &[],
    );
    let doc = kind_page("product-magento");
    assert_has(&doc, &[], &["Finally retired my corded hammer drill"]);
}

#[test]
fn a_shop_category_keeps_its_intro_and_items() {
    let doc = kind_page("collection-woocommerce");
    assert_has(
        &doc,
        &["Sharp, well-balanced tools", "Felco 2 Original Secateurs"],
        &["Add to basket", "Rated 4.80 out of 5"],
    );
}

#[test]
fn styled_spans_side_by_side_do_not_run_together() {
    let html = "<html><body><div class=\"stat\"><span class=\"value\">1,124</span>\
                <span class=\"label\">knee replacements</span></div>\
                <pre><span class=\"k\">fn</span><span class=\"p\">()</span></pre></body></html>";
    let opts = ExtractOptions::new(Format::Text).selector("body");
    let doc = extract(html, &opts);
    assert!(
        doc.content.contains("1,124 knee replacements"),
        "{}",
        doc.content
    );
    // Code keeps its characters exactly.
    assert!(doc.content.contains("fn()"), "{}", doc.content);
}
