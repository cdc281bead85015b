//! Application shells whose text is in the state their framework embeds
//! (issue 14): read without a browser, in every format; a shell without
//! state, and a page with content, stay as they were.

use farsight_extract::{ExtractOptions, Format, Shortfall, extract};

const URL: &str = "https://harbour.example/posts/reading-the-tides";

fn run(name: &str, format: Format) -> farsight_extract::Document {
    let html = crate::page(&format!("embedded-state/{name}"));
    extract(
        &html,
        &ExtractOptions::new(format)
            .base_url(URL)
            .include_links(true),
    )
}

#[test]
fn a_next_js_shell_answers_with_its_page_props() {
    for format in [Format::Markdown, Format::Text, Format::Html] {
        let doc = run("next-article.html", format);
        assert!(doc.embedded_state, "{format:?}");
        assert_eq!(doc.shortfall, None, "{format:?}: {}", doc.content);
        let c = &doc.content;
        for words in [
            "Every harbour publishes a tide table",
            "High and low water",
            "the rule of twelfths",
        ] {
            assert!(c.contains(words), "{format:?} lacks {words:?}: {c}");
        }
        // Document order: the excerpt, then the body.
        assert!(c.find("A short guide").unwrap() < c.find("Every harbour").unwrap());
        // Ids, URLs, slugs, dates, the build, the router: not text.
        for not in [
            "post_8f3a2c",
            "reading-the-tides",
            "2024-05-01",
            "cdn.harbour.example",
            "Hb7xk2LqP",
            "alert(1)",
            "Knots",
        ] {
            assert!(!c.contains(not), "{format:?} has {not:?}: {c}");
        }
        assert_eq!(
            doc.title.as_deref(),
            Some("Reading the tides | Harbour Notes")
        );
    }
    let md = run("next-article.html", Format::Markdown);
    assert!(
        md.content.contains("## High and low water"),
        "{}",
        md.content
    );
    assert!(
        md.content
            .contains("[the rule of twelfths](https://harbour.example/posts/rule-of-twelfths)"),
        "{}",
        md.content
    );
    assert!(
        md.links
            .iter()
            .any(|l| l.url == "https://harbour.example/posts/rule-of-twelfths"),
        "{:?}",
        md.links
    );
}

#[test]
fn a_nuxt_shell_answers_with_its_devalue_state() {
    let doc = run("nuxt-article.html", Format::Markdown);
    assert!(doc.embedded_state);
    assert_eq!(doc.shortfall, None, "{}", doc.content);
    let c = &doc.content;
    let order = [
        "A colony survives the winter",
        "Check in autumn",
        "Open the hive as little as possible",
    ];
    let at: Vec<usize> = order
        .iter()
        .map(|w| c.find(w).unwrap_or_else(|| panic!("{w:?} missing: {c}")))
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{c}");
    for not in [
        "ShallowReactive",
        "keeping-bees-in-winter",
        "4127",
        "buildAssetsDir",
    ] {
        assert!(!c.contains(not), "has {not:?}: {c}");
    }
}

#[test]
fn a_shell_without_state_stays_built_by_scripts() {
    for name in ["../js-shell.html", "../issue12/nextjs-shell.html"] {
        let doc = run(name, Format::Markdown);
        assert_eq!(doc.shortfall, Some(Shortfall::BuiltByScripts), "{name}");
        assert!(!doc.embedded_state, "{name}");
    }
    // State of labels and ids only is not content either.
    let html = r#"<html><head><title>Shop</title><script src="/_next/main.js"></script></head>
        <body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">
        {"props":{"pageProps":{"id":"p1","label":"Add to cart","cta":"Buy now",
        "img":"https://cdn.example/p1.jpg"}}}</script></body></html>"#;
    let doc = extract(html, &ExtractOptions::new(Format::Markdown));
    assert_eq!(doc.shortfall, Some(Shortfall::BuiltByScripts));
    assert!(!doc.embedded_state);
}

#[test]
fn a_page_with_content_ignores_its_state() {
    let body: String = (0..6)
        .map(|i| format!("<p>Server-rendered paragraph {i} about anchors, chains and the holding ground of a bay.</p>"))
        .collect();
    let html = format!(
        r#"<html><head><title>Anchoring</title></head><body><div id="__next"><article>{body}</article></div>
        <script id="__NEXT_DATA__" type="application/json">{{"props":{{"pageProps":{{"note":
        "A different text in the state that the page does not show anywhere at all."}}}}}}</script></body></html>"#
    );
    let doc = extract(&html, &ExtractOptions::new(Format::Markdown));
    assert!(!doc.embedded_state);
    assert_eq!(doc.shortfall, None);
    assert!(doc.content.contains("Server-rendered paragraph 5"));
    assert!(!doc.content.contains("different text"));
}

#[test]
fn json_ld_article_body_of_a_shell_is_its_content() {
    let text = "The lighthouse keeper climbed the hundred and twelve steps every evening at dusk. \
        He trimmed the wick, wound the clockwork that turned the lens, and logged the weather. ";
    let html = format!(
        r#"<html><head><title>The keeper</title><script type="application/ld+json">
        {{"@context":"https://schema.org","@type":"NewsArticle","headline":"The keeper",
        "articleBody":"{}"}}</script><script src="/bundle.js"></script></head>
        <body><div id="root"></div></body></html>"#,
        text.repeat(2)
    );
    let doc = extract(&html, &ExtractOptions::new(Format::Text));
    assert!(doc.embedded_state);
    assert!(
        doc.content.contains("hundred and twelve steps"),
        "{}",
        doc.content
    );
}

#[test]
fn huge_and_hostile_state_is_bounded() {
    // 60,000 distinct sentences (about 4 MB): read up to the cap, linear.
    let sentences: Vec<String> = (0..60_000)
        .map(|i| format!("\"Sentence {i} of an endless state, written to fill the page.\""))
        .collect();
    let html = format!(
        r#"<html><head><title>Big</title><script src="/a.js"></script></head><body><div id="__nuxt"></div>
        <script id="__NUXT_DATA__" type="application/json">[{}]</script></body></html>"#,
        sentences.join(",")
    );
    let doc = extract(&html, &ExtractOptions::new(Format::Markdown));
    assert!(doc.embedded_state);
    assert!(doc.content.len() < 700 * 1024, "{}", doc.content.len());
    assert!(doc.content.contains("Sentence 0 of"));
    assert!(!doc.content.contains("Sentence 59999 of"));
    // Nested past any limit, unterminated, not JSON: no content, no panic.
    for state in [
        "[".repeat(200_000),
        format!("{{\"props\":{{\"pageProps\":{}", "{\"a\":".repeat(100_000)),
        "<<<>>>".repeat(10_000),
    ] {
        let html = format!(
            r#"<html><head><script src="/a.js"></script></head><body><div id="__next"></div>
            <script id="__NEXT_DATA__" type="application/json">{state}</script></body></html>"#
        );
        let doc = extract(&html, &ExtractOptions::new(Format::Markdown));
        assert_eq!(doc.shortfall, Some(Shortfall::BuiltByScripts));
        assert!(!doc.embedded_state);
    }
}
