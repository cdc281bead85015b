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

fn author(html: &str) -> Option<String> {
    extract(html, &ExtractOptions::new(Format::Text))
        .metadata
        .author
}

/// A small article page whose byline is `byline` (markup around a name).
fn with_byline(byline: &str) -> String {
    format!(
        "<html><head><title>Tides</title></head><body><article><h1>Tides</h1>{byline}<p>{}</p>\
         <section class=\"comments\"><p class=\"comment-author\">Nobody Else</p></section>\
         </article></body></html>",
        "The tide comes in twice a day and goes out twice a day, as the moon pulls. ".repeat(4)
    )
}

// Authors marked in the page's markup were missing from the metadata.
#[test]
fn authors_are_read_from_microdata_rel_author_and_bylines() {
    for (byline, name) in [
        (
            r#"<div itemprop="author" itemscope itemtype="https://schema.org/Person">
               <img src="/a.jpg" alt=""><span itemprop="name">Jane Doe</span>
               <span itemprop="jobTitle">Harbour correspondent</span></div>"#,
            "Jane Doe",
        ),
        (r#"<span itemprop="author">Jane Doe</span>"#, "Jane Doe"),
        (
            r#"<p>Posted in <a href="/c/tides">Tides</a> by <a rel="author" href="/u/jd">Jane Doe</a></p>"#,
            "Jane Doe",
        ),
        (
            r#"<div class="article-byline">By Jane Doe</div>"#,
            "Jane Doe",
        ),
        (
            r#"<p class="byline">By <a href="/people/jd">Jane Doe</a> and <a href="/people/jr">John Roe</a>
               on <time datetime="2024-03-03">3 March 2024</time></p>"#,
            "Jane Doe, John Roe",
        ),
        (
            r#"<span class="author vcard"><a class="url fn n" href="/author/jd/">Jane Doe</a></span>"#,
            "Jane Doe",
        ),
        (
            r#"<span class="author-name">Jane Doe | 4 min read</span>"#,
            "Jane Doe",
        ),
    ] {
        assert_eq!(
            author(&with_byline(byline)).as_deref(),
            Some(name),
            "{byline}"
        );
    }
    // A biography or a sentence is not a name; a comment's author is not
    // the page's.
    for byline in [
        r#"<div class="byline">Jane Doe has covered the harbour for this paper since the great storm of 1987, and walks the causeway every week.</div>"#,
        r#"<p class="byline">Jane wrote this. She likes tides.</p>"#,
        "",
    ] {
        assert_eq!(author(&with_byline(byline)), None, "{byline}");
    }
}

#[test]
fn json_ld_authors_in_every_shape() {
    let ld = |author: &str| {
        format!(
            r#"<html><head><script type="application/ld+json">{{"@context":"https://schema.org",
            "@type":"NewsArticle","headline":"Tides","author":{author}}}</script></head>
            <body><article><h1>Tides</h1><p class="byline">By Markup Name</p><p>{}</p></article></body></html>"#,
            "The tide comes in twice a day and goes out twice a day. ".repeat(4)
        )
    };
    for (json, name) in [
        (r#"{"@type":"Person","name":"Jane Doe"}"#, "Jane Doe"),
        (
            r#"[{"@type":"Person","name":"Jane Doe"},{"@type":"Person","name":"John Roe"}]"#,
            "Jane Doe, John Roe",
        ),
        (r#""Jane Doe""#, "Jane Doe"),
        (
            r#"{"@type":"Person","givenName":"Jane","familyName":"Doe"}"#,
            "Jane Doe",
        ),
        // JSON-LD that names no one leaves the markup's name.
        (r#""https://example.com/jane""#, "Markup Name"),
    ] {
        assert_eq!(author(&ld(json)).as_deref(), Some(name), "{json}");
    }
    // The article names its author by @id; the Person comes later.
    let doc = run_at(
        "author-jsonld-graph.html",
        "https://coast.example/low-tide/",
        Format::Text,
    );
    assert_eq!(doc.metadata.author.as_deref(), Some("Morwenna Tregarthen"));
}

// An infinite-scroll blog appends the next post as another `<article>`: the
// longer one was chosen. The page's own post is found by its URL, or by
// its heading when no URL is given.
#[test]
fn the_post_of_the_page_wins_over_the_appended_next_post() {
    let html = page("issue12/infinite-scroll-next-post.html");
    let no_urls = html.replace("data-url=", "data-x=").replace(
        r#"<link rel="canonical" href="https://diary.example/2024/05/lowest-spring-tides/">"#,
        "",
    );
    // Asked for at another URL (a tracking query, no trailing slash): the
    // canonical link and the post's data-url still say which post it is.
    for (how, html, url) in [
        (
            "url",
            html.clone(),
            "https://diary.example/2024/05/lowest-spring-tides?utm_source=x",
        ),
        ("title", no_urls, "https://diary.example/some/other/address"),
    ] {
        let doc = extract(&html, &ExtractOptions::new(Format::Markdown).base_url(url));
        let c = &doc.content;
        assert!(c.contains("lowest of the year"), "{how}: {c}");
        assert!(c.contains("next spring tides fall"), "{how}: {c}");
        assert!(!c.contains("regatta"), "{how}: {c}");
    }
    // Reached at the next post's own address: that one is the page's.
    let doc = extract(
        &html.replace(
            r#"<link rel="canonical" href="https://diary.example/2024/05/lowest-spring-tides/">"#,
            "",
        ),
        &ExtractOptions::new(Format::Markdown)
            .base_url("https://diary.example/2024/05/record-regatta/"),
    );
    assert!(doc.content.contains("Forty-two boats"), "{}", doc.content);
    assert!(
        !doc.content.contains("lowest of the year"),
        "{}",
        doc.content
    );
}

// Almost no content was a success, and every empty answer claimed the page
// needed JavaScript. The reason is now what the page shows.
#[test]
fn almost_no_content_says_why() {
    use farsight_extract::Shortfall;
    let url = "https://site.example/page";
    for (name, why) in [
        ("browser-update-notice.html", Shortfall::NoMainContent),
        ("password-protected-post.html", Shortfall::NoMainContent),
        ("title-only.html", Shortfall::NoMainContent),
        ("nextjs-shell.html", Shortfall::BuiltByScripts),
        ("../js-shell.html", Shortfall::BuiltByScripts),
    ] {
        for format in [Format::Markdown, Format::Text, Format::Html] {
            let doc = run_at(name, url, format);
            assert_eq!(
                doc.shortfall,
                Some(why),
                "{name} {format:?}: {}",
                doc.content
            );
        }
    }
    // A short post is content, in every format.
    for format in [Format::Markdown, Format::Text, Format::Html] {
        let doc = run_at("short-post-cookie-notice.html", url, format);
        assert_eq!(doc.shortfall, None, "{format:?}: {}", doc.content);
    }
}

// A link post on a forum or a news aggregator (Reddit, Lemmy, Hacker News
// style): its body is a title linking out, with a byline above it. The
// title ended the content with nothing under it, so the pass that drops
// headings heading nothing dropped it too, and the answer was empty. A
// heading that is all the content holds is the content.
#[test]
fn a_title_that_is_all_the_content_stays() {
    for format in [Format::Markdown, Format::Text, Format::Html] {
        let opts = ExtractOptions::new(format)
            .base_url("https://forum.example.com/r/harbourtown/comments/1abc/town_council_votes/");
        let doc = extract(&page("link-post.html"), &opts);
        let c = &doc.content;
        assert!(c.contains("reopen the old ferry line"), "{format:?}: {c}");
        assert!(!c.contains("Terms"), "{format:?}: {c}");
    }
}

// A government page (Drupal's WebNY theme) names each of its sections
// `toc-para` (the targets of its table of contents): each read as
// furniture, each under half the text, together all of it, and the answer
// was empty. Furniture that holds nearly all of a region is not furniture.
#[test]
fn furniture_words_in_every_section_do_not_empty_the_page() {
    for format in [Format::Markdown, Format::Text, Format::Html] {
        let opts = ExtractOptions::new(format).base_url("https://harbour.example/register-a-boat");
        let doc = extract(&page("sections-named-like-furniture.html"), &opts);
        let c = &doc.content;
        assert!(c.contains("more than fourteen nights"), "{format:?}: {c}");
        assert!(
            c.contains("paid at the office or by post"),
            "{format:?}: {c}"
        );
        assert!(!c.contains("Privacy"), "{format:?}: {c}");
    }
}
