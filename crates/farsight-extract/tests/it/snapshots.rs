//! One named snapshot per page and format.

use farsight_extract::{ExtractOptions, Format, extract};

use crate::{page, run};

const PAGES: [&str; 10] = [
    "constructs.html",
    "forum.html",
    "product.html",
    "docs.html",
    "listing.html",
    "hidden.html",
    "link-cells.html",
    "math.html",
    "captions.html",
    "infobox.html",
];

#[test]
fn pages_in_every_format() {
    for name in PAGES {
        for (format, tag) in [
            (Format::Markdown, "md"),
            (Format::Text, "txt"),
            (Format::Html, "html"),
        ] {
            let doc = run(name, format);
            insta::assert_snapshot!(format!("{name}.{tag}"), doc.content);
        }
    }
}

#[test]
fn images_only_when_asked() {
    let opts = ExtractOptions::new(Format::Markdown)
        .base_url("https://example.com/articles/page.html")
        .include_images(true)
        .include_links(true);
    let doc = extract(&page("constructs.html"), &opts);
    assert!(
        doc.content
            .contains("![A cat](https://example.com/img/cat.png)")
    );
    let without = run("constructs.html", Format::Markdown);
    assert!(!without.content.contains("cat.png"));
    assert!(!without.content.contains("A cat"));
}
