//! Integration tests of farsight-extract over hand-written pages in
//! `test-data/`.

mod behaviour;
mod deadline;
mod embedded_state;
mod hostile_text;
mod markup_patterns;
mod output_bounds;
mod page_defects;
mod properties;
mod snapshots;
mod whole_web;

use farsight_extract::{Document, ExtractOptions, Format, extract};

pub(crate) fn page(name: &str) -> String {
    let path = format!("{}/test-data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub(crate) fn run(name: &str, format: Format) -> Document {
    let opts = ExtractOptions::new(format)
        .base_url("https://example.com/articles/page.html")
        .include_links(true);
    extract(&page(name), &opts)
}
