//! Extraction under a deadline: past it, what was read by then, marked as
//! cut short; never a result that looks whole.

use std::time::{Duration, Instant};

use farsight_extract::{ExtractOptions, Format, extract};

fn article() -> String {
    crate::page("docs.html")
}

#[test]
fn without_a_deadline_nothing_is_cut() {
    let doc = extract(&article(), &ExtractOptions::new(Format::Markdown));
    assert!(!doc.timed_out);
    assert!(!doc.content.is_empty());
}

#[test]
fn a_distant_deadline_changes_nothing() {
    let plain = extract(&article(), &ExtractOptions::new(Format::Markdown));
    let opts =
        ExtractOptions::new(Format::Markdown).deadline(Instant::now() + Duration::from_secs(3600));
    let doc = extract(&article(), &opts);
    assert!(!doc.timed_out);
    assert_eq!(doc.content, plain.content);
}

#[test]
fn a_passed_deadline_gives_the_body_marked_as_cut_short() {
    for format in [Format::Markdown, Format::Text, Format::Html] {
        let opts = ExtractOptions::new(format).deadline(Instant::now());
        let doc = extract(&article(), &opts);
        assert!(doc.timed_out, "{format:?}");
        // The small page fits in the fallback's grace: its text is there.
        assert!(!doc.content.trim().is_empty(), "{format:?}");
        assert!(doc.title.is_some());
    }
}

#[test]
fn a_huge_page_past_its_deadline_ends_with_a_part_of_it() {
    // 40,000 paragraphs; a deadline already passed. Rendering stops within
    // the fallback's grace, so the content is at most the whole text and
    // the result says it was cut short (how much arrives depends on the
    // machine: no assertion on the amount).
    let mut html = String::from("<html><body><main>");
    for i in 0..40_000 {
        html.push_str(&format!("<p>Paragraph number {i} of a very long page.</p>"));
    }
    html.push_str("</main></body></html>");
    let full = extract(&html, &ExtractOptions::new(Format::Text));
    let cut = extract(
        &html,
        &ExtractOptions::new(Format::Text).deadline(Instant::now()),
    );
    assert!(cut.timed_out && !full.timed_out);
    assert!(cut.content.len() <= full.content.len());
    assert!(full.content.starts_with(cut.content.trim_end()) || cut.content.is_empty());
}
