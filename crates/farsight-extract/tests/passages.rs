//! Passage splitting and selection on the evaluation pages in
//! `test-data/passages/` (the set `passage-eval` measures).

use std::path::PathBuf;

use farsight_extract::{
    SKIP_MARKER, estimate_tokens, rank_passages, select_within_budget, split_passages,
};

struct Case {
    page: String,
    question: String,
    answers: Vec<String>,
}

impl Case {
    fn answered_by(&self, text: &str) -> bool {
        let text = norm(text);
        self.answers.iter().any(|a| text.contains(&norm(a)))
    }
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test-data/passages")
}

fn read(name: &str) -> String {
    let path = dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn cases() -> Vec<Case> {
    read("questions.tsv")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 3, "bad line: {l}");
            Case {
                page: cols[0].to_string(),
                question: cols[1].to_string(),
                answers: cols[2].split(" || ").map(str::to_string).collect(),
            }
        })
        .collect()
}

fn pages() -> Vec<(String, String)> {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".md"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| (read(&n), n))
        .map(|(t, n)| (n, t))
        .collect()
}

fn norm(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

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

#[test]
fn every_answer_is_on_its_page_and_in_one_passage() {
    for c in cases() {
        let text = read(&c.page);
        let passages = split_passages(&text);
        for answer in &c.answers {
            let hits = passages
                .iter()
                .filter(|p| norm(&p.text).contains(&norm(answer)))
                .count();
            assert!(
                hits >= 1,
                "{}: answer not inside one passage: {answer}",
                c.page
            );
        }
    }
}

#[test]
fn passages_are_slices_that_cover_each_page() {
    for (name, text) in pages() {
        let passages = split_passages(&text);
        let mut covered = String::new();
        for (i, p) in passages.iter().enumerate() {
            assert_eq!(p.index, i);
            assert_eq!(&text[p.start..p.start + p.text.len()], p.text, "{name}");
            // Prose is cut to 120 tokens; a heading on top or a whole code
            // block may take a passage further.
            assert!(
                estimate_tokens(&p.text) <= 420,
                "{name}: passage {i} too long"
            );
            covered.push_str(&p.text);
        }
        let strip = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        assert_eq!(strip(&covered), strip(&text), "{name}");
    }
}

#[test]
fn code_fences_are_never_cut_on_the_pages() {
    for (name, text) in pages() {
        for p in split_passages(&text) {
            let fences = p
                .text
                .lines()
                .filter(|l| l.trim_start().starts_with("```"))
                .count();
            assert!(
                fences % 2 == 0,
                "{name}: passage {} cuts a code block",
                p.index
            );
        }
    }
}

#[test]
fn selections_respect_budgets_and_page_order() {
    for c in cases() {
        let text = read(&c.page);
        let passages = split_passages(&text);
        for budget in [50, 200, 500, 1000, 2000] {
            let s = select_within_budget(&c.question, &text, budget);
            assert!(s.tokens <= budget, "{}: {} > {budget}", c.page, s.tokens);
            assert_eq!(s.tokens, estimate_tokens(&s.text));
            assert!(s.passages_used.windows(2).all(|w| w[0] < w[1]));
            // Each used passage (but a cut one) appears in order in the text.
            let mut from = 0;
            for &i in &s.passages_used {
                if let Some(at) = s.text[from..].find(&passages[i].text) {
                    from += at + passages[i].text.len();
                }
            }
            assert_eq!(s.skipped, s.text.contains(SKIP_MARKER), "{}", c.page);
        }
    }
}

/// The ranked selection must find clearly more answers than the start of the
/// page at the budgets the issue names. The figures are reported by
/// `cargo run --release -p farsight-extract --bin passage-eval`.
#[test]
fn ranked_selection_beats_the_first_n_tokens() {
    let cases = cases();
    assert!(cases.len() >= 40);
    for budget in [500, 1000, 2000] {
        let (mut ranked, mut first) = (0, 0);
        for c in &cases {
            let text = read(&c.page);
            if c.answered_by(&select_within_budget(&c.question, &text, budget).text) {
                ranked += 1;
            }
            if c.answered_by(first_tokens(&text, budget)) {
                first += 1;
            }
        }
        let share = ranked as f64 / cases.len() as f64;
        assert!(
            ranked >= first,
            "{budget}: ranked {ranked} < first-N {first}"
        );
        assert!(share >= 0.8, "{budget}: ranked share {share:.2}");
        if budget <= 1000 {
            assert!(
                ranked >= first + cases.len() / 3,
                "{budget}: {ranked} vs {first}"
            );
        }
    }
}

#[test]
fn the_best_passage_holds_the_answer_for_most_questions() {
    let cases = cases();
    let top1 = cases
        .iter()
        .filter(|c| {
            let text = read(&c.page);
            let passages = split_passages(&text);
            rank_passages(&c.question, &passages)
                .first()
                .is_some_and(|&(i, _)| c.answered_by(&passages[i].text))
        })
        .count();
    assert!(
        top1 * 10 >= cases.len() * 6,
        "top-1 {top1} of {}",
        cases.len()
    );
}
