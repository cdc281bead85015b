//! Properties over arbitrary input.

use farsight_extract::{ExtractOptions, Format, extract};
use proptest::prelude::*;

const TAGS: [&str; 12] = [
    "p",
    "div",
    "table",
    "tr",
    "td",
    "ul",
    "li",
    "pre",
    "a",
    "b",
    "h2",
    "blockquote",
];

fn html_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            (0..TAGS.len()).prop_map(|i| format!("<{}>", TAGS[i])),
            (0..TAGS.len()).prop_map(|i| format!("</{}>", TAGS[i])),
            "[a-z é€|*`\u{200b}]{0,20}",
            Just("<td colspan=99999 rowspan=0>".to_string()),
            Just("<a href='javascript:x'>".to_string()),
        ],
        0..60,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn never_panics_on_arbitrary_text(html in ".{0,400}", selector in ".{0,20}") {
        for format in [Format::Markdown, Format::Text, Format::Html] {
            let doc = extract(&html, &ExtractOptions::new(format).selector(selector.clone()));
            prop_assert!(std::str::from_utf8(doc.content.as_bytes()).is_ok());
        }
    }

    #[test]
    fn never_panics_on_tag_soup(html in html_soup()) {
        for format in [Format::Markdown, Format::Text, Format::Html] {
            let opts = ExtractOptions::new(format).base_url("https://e.com/").include_links(true).include_images(true);
            let doc = extract(&html, &opts);
            prop_assert!(!doc.content.contains("\n\n\n"));
            if format == Format::Html {
                prop_assert!(!doc.content.contains("javascript:"));
            }
        }
    }
}
