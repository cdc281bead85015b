//! Measures passage selection against taking the first N tokens.
//!
//! ```text
//! passage-eval [DIR]
//! passage-eval --show PAGE QUESTION [BUDGET]
//! passage-eval --timing
//! ```
//!
//! DIR (default `test-data/passages` of this crate) holds pages as `.md`
//! files and `questions.tsv`: one question a line, `page<TAB>question<TAB>
//! answer phrase`, `#` comments; when two passages answer a question, the
//! answer column holds both phrases separated by ` || `.
//!
//! For budgets of 250, 500, 1,000 and 2,000 tokens a page, it prints the
//! share of questions whose answer phrase is in the returned content (case
//! and whitespace ignored), for the default ranker, for variants of it, and
//! for the first N tokens of the page, plus the share whose answer is in the
//! single best-ranked passage ("top-1").
//!
//! `--show` prints the ranking of one page's passages and the selection
//! (default budget 1,000). `--timing` times selection on large synthetic
//! pages.
#![allow(clippy::print_stdout)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use farsight_extract::{PassageRanker, estimate_tokens, split_passages};

/// The issue's budgets, plus 250 where the set stops being easy.
const BUDGETS: [usize; 4] = [250, 500, 1000, 2000];

struct Question {
    page: String,
    question: String,
    /// Phrases of which any one counts as the answer.
    answers: Vec<String>,
}

impl Question {
    fn answered_by(&self, text: &str) -> bool {
        let text = normalise(text);
        self.answers.iter().any(|a| text.contains(&normalise(a)))
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--timing") {
        timing();
        return;
    }
    if args.first().is_some_and(|a| a == "--show") {
        if let [_, page, question, rest @ ..] = args.as_slice() {
            let budget = rest.first().and_then(|b| b.parse().ok()).unwrap_or(1000);
            show(page, question, budget);
            return;
        }
        eprintln!("usage: passage-eval --show PAGE QUESTION [BUDGET]");
        std::process::exit(2);
    }
    let dir = args.first().map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("test-data/passages"),
        PathBuf::from,
    );
    if let Err(msg) = run(&dir) {
        eprintln!("passage-eval: {msg}");
        std::process::exit(1);
    }
}

fn run(dir: &Path) -> Result<(), String> {
    let list = std::fs::read_to_string(dir.join("questions.tsv"))
        .map_err(|e| format!("{}: {e}", dir.join("questions.tsv").display()))?;
    let questions = parse(&list)?;
    let mut pages: BTreeMap<String, String> = BTreeMap::new();
    for q in &questions {
        if !pages.contains_key(&q.page) {
            let path = dir.join(&q.page);
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            pages.insert(q.page.clone(), text);
        }
    }
    for q in &questions {
        let page = normalise(&pages[&q.page]);
        if let Some(a) = q.answers.iter().find(|a| !page.contains(&normalise(a))) {
            return Err(format!("{}: answer not in page: {a}", q.page));
        }
    }

    let words: usize = pages.values().map(|t| t.split_whitespace().count()).sum();
    let tokens: Vec<usize> = pages.values().map(|t| estimate_tokens(t)).collect();
    let passages: usize = pages.values().map(|t| split_passages(t).len()).sum();
    println!(
        "{} pages, {} questions; {} words, {}-{} tokens a page (mean {}), {:.0} passages a page",
        pages.len(),
        questions.len(),
        words,
        tokens.iter().min().unwrap_or(&0),
        tokens.iter().max().unwrap_or(&0),
        tokens.iter().sum::<usize>() / tokens.len().max(1),
        passages as f64 / pages.len().max(1) as f64,
    );
    println!();
    println!("share of questions whose answer is in the returned content");
    let header: Vec<String> = BUDGETS.iter().map(|b| format!("{b:>8}")).collect();
    println!("{:<44} {} {:>8}", "method", header.join(" "), "top-1");

    let base = PassageRanker::new()
        .context(0.0)
        .stemming(false)
        .proximity(0.0)
        .heading_weight(0.0);
    let variants: Vec<(&str, PassageRanker)> = vec![
        ("ranked (default)", PassageRanker::new()),
        ("BM25 only (no stemming/proximity/heading)", base),
        ("BM25 + stemming", base.stemming(true)),
        (
            "BM25 + stemming + proximity",
            base.stemming(true).proximity(0.5),
        ),
        (
            "BM25 + stemming + headings",
            base.stemming(true).heading_weight(1.0),
        ),
        (
            "default, headings weight 2",
            PassageRanker::new().heading_weight(2.0),
        ),
        (
            "default, proximity 1.0",
            PassageRanker::new().proximity(1.0),
        ),
        ("default, no context", PassageRanker::new().context(0.0)),
        ("default, context 0.3", PassageRanker::new().context(0.3)),
        ("default, context 0.8", PassageRanker::new().context(0.8)),
        ("default, b = 0.3", PassageRanker::new().b(0.3)),
        ("default, k1 = 2.0", PassageRanker::new().k1(2.0)),
    ];
    for (name, ranker) in &variants {
        let mut row: Vec<f64> = BUDGETS
            .iter()
            .map(|&b| {
                share(&questions, |q| {
                    ranker.select(&q.question, &pages[&q.page], b).text
                })
            })
            .collect();
        // The sharper signal for comparing rankers: is the answer in the
        // single best passage?
        row.push(share(&questions, |q| {
            let passages = split_passages(&pages[&q.page]);
            ranker
                .rank(&q.question, &passages)
                .first()
                .map(|&(i, _)| passages[i].text.clone())
                .unwrap_or_default()
        }));
        print_row(name, &row);
    }
    let first: Vec<f64> = BUDGETS
        .iter()
        .map(|&b| share(&questions, |q| first_tokens(&pages[&q.page], b).to_string()))
        .collect();
    print_row("first N tokens (baseline)", &first);

    println!();
    println!("mean tokens returned (default ranker; first N returns N or the page)");
    let used: Vec<String> = BUDGETS
        .iter()
        .map(|&b| {
            let sum: usize = questions
                .iter()
                .map(|q| {
                    PassageRanker::new()
                        .select(&q.question, &pages[&q.page], b)
                        .tokens
                })
                .sum();
            format!("{:>8}", sum / questions.len().max(1))
        })
        .collect();
    println!("{:<44} {}", "ranked (default)", used.join(" "));

    println!();
    println!("misses of the default ranker at {} tokens:", BUDGETS[2]);
    for q in &questions {
        let s = PassageRanker::new().select(&q.question, &pages[&q.page], BUDGETS[2]);
        if !q.answered_by(&s.text) {
            println!("  {}: {}", q.page, q.question);
        }
    }
    Ok(())
}

fn timing() {
    let para = "Passages are ranked against the query and the best ones are kept in page order, \
                within the budget, with a marker where text was skipped. ";
    let prose: String = (0..5_000)
        .map(|i| {
            format!(
                "## Section {i}\n\n{}topic{i} closes it.\n\n",
                para.repeat(3)
            )
        })
        .collect();
    let list: String = (0..40_000)
        .map(|i| format!("- item {i} of a long list\n"))
        .collect();
    let no_spaces = "x".repeat(1_000_000);
    let cjk = "東京都の人口は約千四百万人です。".repeat(40_000);
    for (name, text) in [
        ("prose", &prose),
        ("list", &list),
        ("no spaces", &no_spaces),
        ("cjk", &cjk),
    ] {
        let start = std::time::Instant::now();
        let s = PassageRanker::new().select("topic4321 ranked budget 東京", text, 2000);
        println!(
            "{name:<10} {:>5} KB  {:>7.1} ms  {} passages used, {} tokens",
            text.len() / 1024,
            start.elapsed().as_secs_f64() * 1000.0,
            s.passages_used.len(),
            s.tokens
        );
    }
}

fn show(page: &str, question: &str, budget: usize) {
    let text = match std::fs::read_to_string(page) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("passage-eval: {page}: {e}");
            std::process::exit(1);
        }
    };
    let passages = split_passages(&text);
    for (i, score) in farsight_extract::rank_passages(question, &passages)
        .iter()
        .take(8)
    {
        let p = &passages[*i];
        let head: String = p.text.chars().take(100).collect();
        println!(
            "{score:>7.2}  #{i:<3} {:>4} tok  {}",
            estimate_tokens(&p.text),
            head.replace('\n', " ")
        );
    }
    let s = PassageRanker::new().select(question, &text, budget);
    println!(
        "\n--- selection: {} tokens, passages {:?}\n{}",
        s.tokens, s.passages_used, s.text
    );
}

fn print_row(name: &str, row: &[f64]) {
    let cells: Vec<String> = row.iter().map(|v| format!("{:>7.1}%", v * 100.0)).collect();
    println!("{name:<44} {}", cells.join(" "));
}

fn share(questions: &[Question], answer_of: impl Fn(&Question) -> String) -> f64 {
    let hits = questions
        .iter()
        .filter(|q| q.answered_by(&answer_of(q)))
        .count();
    hits as f64 / questions.len().max(1) as f64
}

/// The longest prefix of `text` ending at a word whose estimate fits.
fn first_tokens(text: &str, budget: usize) -> &str {
    let text = text.trim();
    let ends: Vec<usize> = text
        .char_indices()
        .filter(|(_, c)| c.is_whitespace())
        .map(|(i, _)| i)
        .chain(std::iter::once(text.len()))
        .collect();
    let n = ends.partition_point(|&e| estimate_tokens(&text[..e]) <= budget);
    n.checked_sub(1).map_or("", |k| &text[..ends[k]])
}

fn normalise(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn parse(list: &str) -> Result<Vec<Question>, String> {
    let mut out = Vec::new();
    for (n, line) in list.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut cols = line.split('\t');
        match (cols.next(), cols.next(), cols.next(), cols.next()) {
            (Some(page), Some(question), Some(answer), None) => out.push(Question {
                page: page.to_string(),
                question: question.to_string(),
                answers: answer.split(" || ").map(str::to_string).collect(),
            }),
            _ => {
                return Err(format!(
                    "questions.tsv line {}: expected 3 tab-separated columns",
                    n + 1
                ));
            }
        }
    }
    Ok(out)
}
