//! One named snapshot per page and format.

use farsight_extract::{ExtractOptions, Format, extract};

use crate::{page, run};

/// Every hand-written page directly in `test-data/`, sorted: a page added
/// there gets its snapshots without a list to keep in step (the corpora in
/// its subdirectories are gated by F1 in farsight-bench's `tests/gate.rs`).
fn hand_written_pages() -> Vec<String> {
    let dir = format!("{}/test-data", env!("CARGO_MANIFEST_DIR"));
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir}: {e}"));
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".html"))
        .collect();
    names.sort();
    names
}

#[test]
fn pages_in_every_format() {
    let pages = hand_written_pages();
    assert!(pages.len() >= 11, "test-data lost its pages: {pages:?}");
    for name in &pages {
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
