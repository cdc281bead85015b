//! The extraction benchmark.
//!
//! ```text
//! farsight-bench CORPUS_DIR OUT_DIR [--format text|markdown] [--engine auto|readability|density] [--documents]
//! farsight-bench --scaling
//! farsight-bench --growth [--max-mb N] [--limit-s S] [--only PATTERN]
//! ```
//!
//! The first form runs the extractor over every `<id>.html` of a corpus in
//! the layout of `shared/bench/dev` (`<id>.json` holds `url` and
//! `articleBody`), writes `<id>.txt` predictions, `_timings.tsv` (id, ms,
//! precision, recall, F1; score.py reads the first two columns) and
//! `_rss_kb` to OUT_DIR, and prints token precision/recall/F1 computed as
//! `score.py` does, time per page (parse + extract, file I/O outside the
//! timer) and peak memory. Markdown output is turned into plain text (link
//! targets and markup dropped) before scoring. `--documents` also writes
//! each page's whole result (content as rendered, metadata, shortfall) as
//! `<id>.doc.json`, so a change meant to leave output alone (a speed-up)
//! can be checked with `diff -r` against an earlier run.
//!
//! `--scaling` times synthetic pages from 10 KB to 10 MB and a page nested
//! 100,000 elements deep, on a thread with a 2 MiB stack (tokio's blocking
//! threads have that much).
//!
//! `--growth` grows hostile patterns (thousands of list items, paragraphs,
//! headings, misnested tags, NUL floods, attribute floods, ...) from 100 KB
//! to 5 MiB, each case in a child process, and prints time, peak memory and
//! output size per MB with a verdict per pattern (see `growth.rs`).
#![allow(clippy::print_stdout)]

mod compare;
mod growth;
mod mdtext;
mod scaling;

use std::path::{Path, PathBuf};
use std::time::Instant;

use farsight_bench::corpus;
use farsight_bench::score::{self, mean};
use farsight_extract::{Engine, Format, extract};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--growth") {
        growth::run(&args);
        return;
    }
    if let [flag, name, bytes] = args.as_slice()
        && flag == "--growth-case"
    {
        growth::run_case(name, bytes.parse().unwrap_or(0));
        return;
    }
    if args.iter().any(|a| a == "--scaling") {
        scaling::run();
        return;
    }
    let mut format = Format::Text;
    let mut engine = Engine::Auto;
    let mut compare: Option<PathBuf> = None;
    let mut documents = false;
    let mut dirs = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--format" => {
                format = match it.next().map(String::as_str) {
                    Some("markdown") => Format::Markdown,
                    Some("text") => Format::Text,
                    other => die(&format!("--format text|markdown, not {other:?}")),
                }
            }
            "--engine" => {
                engine = match it.next().map(String::as_str) {
                    Some("auto") => Engine::Auto,
                    Some("readability") => Engine::Readability,
                    Some("density") => Engine::Density,
                    other => die(&format!("--engine auto|readability|density, not {other:?}")),
                }
            }
            "--documents" => documents = true,
            "--compare" => match it.next() {
                Some(d) => compare = Some(PathBuf::from(d)),
                None => die("--compare takes the OUT_DIR of an earlier run"),
            },
            _ => dirs.push(PathBuf::from(a)),
        }
    }
    let [corpus, out] = dirs.as_slice() else {
        die(
            "usage: farsight-bench CORPUS_DIR OUT_DIR [--format text|markdown] [--engine auto|readability|density] [--compare EARLIER_OUT_DIR] [--documents] | --scaling | --growth",
        );
    };
    // Read before this run writes: OUT_DIR may be the earlier run's.
    let earlier = compare.as_deref().map(compare::read).transpose();
    let earlier = earlier.unwrap_or_else(|e| die(&e));
    if let Err(e) = bench(corpus, out, format, engine, documents) {
        die(&e);
    }
    if let Some(earlier) = earlier
        && let Err(e) = compare::print(&earlier, out)
    {
        die(&e);
    }
}

fn die(msg: &str) -> ! {
    eprintln!("farsight-bench: {msg}");
    std::process::exit(2);
}

fn bench(
    dir: &Path,
    out: &Path,
    format: Format,
    engine: Engine,
    documents: bool,
) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let ids = corpus::page_ids(dir)?;
    let mut timings = Vec::new();
    let mut pages = Vec::new();
    let mut words = Vec::new();
    let mut tsv = String::new();
    let mut kinds: Vec<Option<String>> = Vec::new();
    for id in &ids {
        let page = corpus::read(dir, id)?;
        let opts = page.options(format, engine);
        let (html, truth) = (page.html.as_str(), page.truth.as_str());
        kinds.push(page.kind.clone());
        let start = Instant::now();
        let doc = extract(html, &opts);
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        if documents {
            let json = serde_json::to_string_pretty(&doc).map_err(|e| format!("{id}: {e}"))?;
            std::fs::write(out.join(format!("{id}.doc.json")), json)
                .map_err(|e| format!("{id}.doc.json: {e}"))?;
        }
        let pred = match format {
            Format::Markdown => mdtext::to_text(&doc.content),
            _ => doc.content,
        };
        std::fs::write(out.join(format!("{id}.txt")), &pred)
            .map_err(|e| format!("{id}.txt: {e}"))?;
        let counts = score::tp_fp_fn(truth, &pred);
        let (p, r) = (score::precision(counts), score::recall(counts));
        let f1 = if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        };
        let word_f1 = score::word_f1(&pred, truth);
        tsv.push_str(&format!(
            "{id}\t{ms:.3}\t{p:.3}\t{r:.3}\t{f1:.3}\t{word_f1:.3}\n"
        ));
        timings.push((ms, id.clone()));
        pages.push(counts);
        words.push(word_f1);
    }
    std::fs::write(out.join("_timings.tsv"), tsv).map_err(|e| e.to_string())?;
    let rss = peak_rss_kb();
    std::fs::write(out.join("_rss_kb"), format!("{rss}\n")).map_err(|e| e.to_string())?;

    let (f1, p, r) = score::metrics(&pages);
    let mut ms: Vec<f64> = timings.iter().map(|t| t.0).collect();
    ms.sort_by(f64::total_cmp);
    let median = median(&ms);
    let p90 = ms
        .get((0.9 * (ms.len().saturating_sub(1)) as f64) as usize)
        .copied()
        .unwrap_or(0.0);
    let total: f64 = ms.iter().sum();
    let slowest = timings.iter().max_by(|a, b| a.0.total_cmp(&b.0));
    println!(
        "corpus {} ({} pages), format {:?}",
        dir.display(),
        ids.len(),
        format
    );
    println!(
        "F1 {f1:.3}  precision {p:.3}  recall {r:.3}  word F1 (WCXB's metric) {:.3}",
        mean(&words)
    );
    print_by_kind(&kinds, &pages, &words);
    println!(
        "ms/page: median {median:.2}  p90 {p90:.2}  max {:.2} ({})  total {:.2} s",
        slowest.map_or(0.0, |s| s.0),
        slowest.map_or("-", |s| s.1.as_str()),
        total / 1000.0
    );
    println!("peak memory (VmHWM) {:.1} MB", rss as f64 / 1024.0);
    Ok(())
}

/// F1, precision and recall per kind in both metrics, when the corpus
/// names more than one kind.
fn print_by_kind(kinds: &[Option<String>], pages: &[(f64, f64, f64)], words: &[f64]) {
    let mut names: Vec<&str> = kinds.iter().flatten().map(String::as_str).collect();
    names.sort_unstable();
    names.dedup();
    if names.len() < 2 {
        return;
    }
    for name in names {
        let of_kind: Vec<(f64, f64, f64)> = kinds
            .iter()
            .zip(pages)
            .filter(|(k, _)| k.as_deref() == Some(name))
            .map(|(_, p)| *p)
            .collect();
        let (f1, p, r) = score::metrics(&of_kind);
        let of_kind_words: Vec<f64> = kinds
            .iter()
            .zip(words)
            .filter(|(k, _)| k.as_deref() == Some(name))
            .map(|(_, w)| *w)
            .collect();
        println!(
            "  {name:<16} {:>4} pages  F1 {f1:.3}  precision {p:.3}  recall {r:.3}  word F1 {:.3}",
            of_kind.len(),
            mean(&of_kind_words)
        );
    }
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return 0.0;
    }
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// Peak resident memory of this process, from /proc/self/status.
pub(crate) fn peak_rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}
