//! Cost against page size: synthetic pages from 10 KB to 10 MB and a page
//! nested 100,000 elements deep.
//!
//! Each figure is the median of repeated runs (at least three, and as many
//! as fit in about a quarter of a second): one run of a 10 KB page lasts a
//! millisecond, less than the noise of a shared machine, so a single run
//! made the small rows wander by 2x from one invocation to the next.

use std::time::{Duration, Instant};

use farsight_extract::{ExtractOptions, Format, extract};

const PARAGRAPH: &str = "<p>The committee met on Tuesday to review the proposal, and after a long \
    discussion of the costs and the <a href=\"/schedule\">schedule</a> it agreed to publish a \
    revised plan with <em>clear</em> milestones before the end of the month.</p>\n";
const NAV: &str =
    "<ul class=\"menu\"><li><a href=\"/a\">Home</a></li><li><a href=\"/b\">News</a></li></ul>\n";

fn page(bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 1024);
    s.push_str("<!doctype html><html><head><title>Scaling</title></head><body><nav>");
    s.push_str(NAV);
    s.push_str("</nav><main><article><h1>Scaling</h1>");
    let mut i = 0;
    while s.len() < bytes {
        if i % 20 == 0 {
            s.push_str("<h2>Section</h2><div class=\"sidebar\">");
            s.push_str(NAV);
            s.push_str("</div>");
        }
        s.push_str(PARAGRAPH);
        i += 1;
    }
    s.push_str("</article></main><footer>Footer</footer></body></html>");
    s
}

/// A page nested `levels` deep with `open`/`close` tags around a paragraph.
fn deep(levels: usize, open: &str, close: &str) -> String {
    let mut s = String::with_capacity(levels * (open.len() + close.len()) + 64);
    s.push_str("<html><body>");
    for _ in 0..levels {
        s.push_str(open);
    }
    s.push_str("<p>deep text at the bottom</p>");
    for _ in 0..levels {
        s.push_str(close);
    }
    s.push_str("</body></html>");
    s
}

/// Median milliseconds over repeated runs, and the content length.
fn time(html: &str, format: Format) -> (f64, usize) {
    const MIN_RUNS: usize = 3;
    const MAX_RUNS: usize = 200;
    const BUDGET: Duration = Duration::from_millis(250);
    let opts = ExtractOptions::new(format).base_url("https://example.com/");
    let began = Instant::now();
    let mut runs = Vec::new();
    let mut out = 0;
    while runs.len() < MIN_RUNS || (runs.len() < MAX_RUNS && began.elapsed() < BUDGET) {
        let start = Instant::now();
        let doc = extract(html, &opts);
        runs.push(start.elapsed().as_secs_f64() * 1000.0);
        out = doc.content.len();
    }
    runs.sort_by(f64::total_cmp);
    (runs[runs.len() / 2], out)
}

pub fn run() {
    let job = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            println!(
                "{:>10} {:>10} {:>10} {:>10} {:>12}",
                "page", "bytes", "ms", "ms/MB", "content B"
            );
            // One untimed round first: the first pages after start-up pay
            // for cold caches and the allocator's first growth.
            let _ = time(&page(100_000), Format::Text);
            for size in [10_000, 100_000, 1_000_000, 10_000_000] {
                let html = page(size);
                for format in [Format::Text, Format::Markdown] {
                    let (ms, out) = time(&html, format);
                    let mb = html.len() as f64 / 1_000_000.0;
                    println!(
                        "{:>10} {:>10} {:>10.2} {:>10.1} {:>12}  {format:?}",
                        format!("{}KB", size / 1000),
                        html.len(),
                        ms,
                        ms / mb,
                        out
                    );
                }
            }
            for (open, close, label) in [
                ("<div>", "</div>", "<div> x100,000"),
                ("<span>", "</span>", "<span> x100,000"),
                ("<b>", "</b>", "<b> x100,000"),
                ("<div>", "", "unclosed <div> x100,000"),
            ] {
                let html = deep(100_000, open, close);
                for format in [Format::Text, Format::Markdown] {
                    let (ms, out) = time(&html, format);
                    println!(
                        "{:>10} {:>10} {:>10.1} {:>10.1} {:>12}  {format:?} {label}",
                        "deep",
                        html.len(),
                        ms,
                        ms / (html.len() as f64 / 1_000_000.0),
                        out
                    );
                }
            }
        });
    match job.map(|j| j.join()) {
        Ok(Ok(())) => println!(
            "peak memory (VmHWM) {:.1} MB",
            super::peak_rss_kb() as f64 / 1024.0
        ),
        _ => eprintln!("scaling run failed"),
    }
}
