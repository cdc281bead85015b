//! Arbitrary bytes as the page and an arbitrary selector: extraction must
//! never panic, in any format.
#![no_main]

use farsight_extract::{ExtractOptions, Format, extract};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first line (up to 64 bytes) is the selector, the rest the page.
    let split = data.iter().take(64).position(|&b| b == b'\n');
    let (selector, page) = match split {
        Some(i) => (
            Some(String::from_utf8_lossy(&data[..i]).to_string()),
            &data[i + 1..],
        ),
        None => (None, data),
    };
    let html = String::from_utf8_lossy(page);
    let format = match data.first().map(|b| b % 3) {
        Some(0) => Format::Markdown,
        Some(1) => Format::Text,
        _ => Format::Html,
    };
    let mut opts = ExtractOptions::new(format)
        .base_url("https://example.com/a/b")
        .include_links(true)
        .include_images(true);
    if let Some(s) = selector {
        opts = opts.selector(s);
    }
    let doc = extract(&html, &opts);
    assert!(std::str::from_utf8(doc.content.as_bytes()).is_ok());
});
