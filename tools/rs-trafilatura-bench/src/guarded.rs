//! One timed, guarded call of rs-trafilatura on one page.
//!
//! The timer covers exactly the library call (parse + extract); reading and
//! decoding the file happen before it, writing the prediction after it, as in
//! farsight-bench. An error or a panic inside the library becomes a
//! `Failure`, so one bad page never ends the run.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use rs_trafilatura::{Options, extract_with_options};

/// What one call produced.
pub enum Outcome {
    /// The main content as plain text (`content_text`).
    Text(String),
    /// The library returned an error or panicked; the message says which.
    Failure(String),
}

/// The options used for every page: the library's defaults plus the page's
/// URL. These are what rs-trafilatura's own `extract_stdin` binary uses (its
/// doc: "Used by the text-extraction-benchmark Python wrapper"), which is how
/// the published WCXB figures were produced, reading `content_text`.
pub fn options_for(url: Option<String>) -> Options {
    Options {
        url,
        ..Options::default()
    }
}

/// Runs the extraction once and returns what it produced and the time in ms.
pub fn extract_timed(html: &str, options: &Options) -> (Outcome, f64) {
    let start = Instant::now();
    // AssertUnwindSafe: nothing the closure borrows is used after a panic
    // except to be dropped, so a half-updated state cannot be observed.
    let result = catch_unwind(AssertUnwindSafe(|| extract_with_options(html, options)));
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let outcome = match result {
        Ok(Ok(r)) => Outcome::Text(r.content_text),
        Ok(Err(e)) => Outcome::Failure(format!("error: {e}")),
        Err(payload) => Outcome::Failure(format!("panic: {}", panic_message(&*payload))),
    };
    (outcome, ms)
}

/// The text of a panic payload (`panic!` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-text panic payload".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_article_comes_back_as_text() {
        let body = "The committee met on Tuesday to discuss the river crossing. ".repeat(12);
        let html = format!(
            "<html><body><nav><a href='/'>Home</a></nav><article><h1>Bridge</h1><p>{body}</p></article><footer>Copyright</footer></body></html>"
        );
        let (outcome, _ms) =
            extract_timed(&html, &options_for(Some("https://example.org/a".into())));
        match outcome {
            Outcome::Text(t) => assert!(t.contains("river crossing"), "got {t:?}"),
            Outcome::Failure(why) => panic!("unexpected failure: {why}"),
        }
    }

    #[test]
    fn panic_payloads_of_both_text_kinds_are_read() {
        let s: Box<dyn std::any::Any + Send> = Box::new("static text");
        assert_eq!(panic_message(&*s), "static text");
        let owned: Box<dyn std::any::Any + Send> = Box::new(String::from("owned text"));
        assert_eq!(panic_message(&*owned), "owned text");
        let other: Box<dyn std::any::Any + Send> = Box::new(7_u8);
        assert_eq!(panic_message(&*other), "non-text panic payload");
    }

    #[test]
    fn options_carry_the_page_url_and_keep_the_defaults() {
        let o = options_for(Some("https://example.org/".into()));
        assert_eq!(o.url.as_deref(), Some("https://example.org/"));
        let d = Options::default();
        assert_eq!(
            (o.include_tables, o.favor_precision, o.favor_recall),
            (d.include_tables, d.favor_precision, d.favor_recall)
        );
    }
}
