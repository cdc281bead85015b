//! rs-trafilatura side by side with farsight.
//!
//! ```text
//! rs-trafilatura-bench CORPUS_DIR OUT_DIR
//! ```
//!
//! Runs rs-trafilatura (crates.io) over every page of a corpus in the layout
//! of `shared/bench/dev` or `shared/bench/wcxb-dev` and writes, into OUT_DIR,
//! `<id>.txt` (the plain-text prediction; empty when the library failed) and
//! `_timings.tsv` (`id<TAB>ms`): the layout farsight-bench writes, so
//! `score.py` and `wcxb_score.py` score both tools the same way. Scoring is
//! left to those scorers; this tool prints only the time figures and the
//! failures.
#![allow(clippy::print_stdout)]

mod corpus;
mod guarded;
mod stats;

use std::path::{Path, PathBuf};

use guarded::Outcome;

/// Stack for the thread that runs the extractions. A page nested deep enough
/// to overflow a recursive walk would abort the whole process (a stack
/// overflow is not a panic that `catch_unwind` can stop); a large stack lets
/// such a page finish and be scored instead.
const WORKER_STACK: usize = 256 * 1024 * 1024;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [corpus, out] = args.as_slice() else {
        die("usage: rs-trafilatura-bench CORPUS_DIR OUT_DIR");
    };
    let (corpus, out) = (PathBuf::from(corpus), PathBuf::from(out));
    // The library's panics are caught and reported per page below; the
    // default hook would also print each one with a backtrace hint.
    std::panic::set_hook(Box::new(|_| {}));
    let worker = std::thread::Builder::new()
        .name("extract".to_string())
        .stack_size(WORKER_STACK)
        .spawn(move || bench(&corpus, &out));
    let result = match worker {
        Ok(handle) => handle
            .join()
            .unwrap_or_else(|_| Err("the worker thread panicked".to_string())),
        Err(e) => Err(format!("cannot start the worker thread: {e}")),
    };
    if let Err(e) = result {
        die(&e);
    }
}

fn die(msg: &str) -> ! {
    eprintln!("rs-trafilatura-bench: {msg}");
    std::process::exit(2);
}

fn bench(corpus: &Path, out: &Path) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let ids = corpus::page_ids(corpus)?;
    let mut tsv = String::new();
    let mut times = Vec::with_capacity(ids.len());
    let mut slowest: Option<(f64, &str)> = None;
    let mut failures = 0usize;
    for id in &ids {
        let bytes = corpus::page_bytes(corpus, id)?;
        // Decoded the way farsight-bench decodes, so both get the same text.
        let html = String::from_utf8_lossy(&bytes);
        let options = guarded::options_for(corpus::page_url(corpus, id));
        let (outcome, ms) = guarded::extract_timed(&html, &options);
        let text = match outcome {
            Outcome::Text(t) => t,
            Outcome::Failure(why) => {
                failures += 1;
                eprintln!("{id}: {why}");
                String::new()
            }
        };
        std::fs::write(out.join(format!("{id}.txt")), text)
            .map_err(|e| format!("{id}.txt: {e}"))?;
        tsv.push_str(&format!("{id}\t{ms:.3}\n"));
        times.push(ms);
        if slowest.is_none_or(|(m, _)| ms > m) {
            slowest = Some((ms, id));
        }
    }
    let tsv_path = out.join("_timings.tsv");
    std::fs::write(&tsv_path, tsv).map_err(|e| format!("{}: {e}", tsv_path.display()))?;

    let s = stats::summarise(&times);
    println!(
        "corpus {} ({} pages), rs-trafilatura: default options + page URL, content_text",
        corpus.display(),
        ids.len()
    );
    println!("failures (error or panic, written as empty): {failures}");
    println!(
        "ms/page: median {:.2}  p90 {:.2}  max {:.2} ({})  total {:.2} s  {:.1} pages/s",
        s.median_ms,
        s.p90_ms,
        s.max_ms,
        slowest.map_or("-", |x| x.1),
        s.total_s,
        s.pages_per_s
    );
    Ok(())
}
