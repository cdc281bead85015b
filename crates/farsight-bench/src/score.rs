//! Token 4-gram precision, recall and F1, exactly as
//! `shared/bench/score.py` (the scrapinghub article-extraction-benchmark
//! method): per-page normalised tp/fp/fn, F1 from mean P and mean R.

use std::collections::HashMap;

/// `\w+` tokens with Python's Unicode meaning of `\w`.
pub fn tokenize(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let word = is_word(c);
        match (word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(&text[s..i]);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

/// Python's `\w` for str patterns: alphanumeric (Unicode categories L*, N*)
/// or underscore. Marks (M*) are not included in Python's definition.
fn is_word(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

fn shingles<'a>(toks: &[&'a str]) -> HashMap<Vec<&'a str>, usize> {
    let mut m = HashMap::new();
    let n = 4;
    let count = toks.len().saturating_sub(n - 1).max(1);
    for i in 0..count {
        let end = (i + n).min(toks.len());
        if i >= end {
            continue;
        }
        *m.entry(toks[i..end].to_vec()).or_insert(0) += 1;
    }
    m
}

/// Normalised (tp, fp, fn) for one page.
pub fn tp_fp_fn(truth: &str, pred: &str) -> (f64, f64, f64) {
    let t = tokenize(truth);
    let p = tokenize(pred);
    let ts = shingles(&t);
    let ps = shingles(&p);
    let (mut tp, mut fp, mut fneg) = (0.0, 0.0, 0.0);
    for (k, &tc) in &ts {
        let pc = ps.get(k).copied().unwrap_or(0);
        tp += tc.min(pc) as f64;
        fneg += tc.saturating_sub(pc) as f64;
    }
    for (k, &pc) in &ps {
        let tc = ts.get(k).copied().unwrap_or(0);
        fp += pc.saturating_sub(tc) as f64;
    }
    let s = tp + fp + fneg;
    if s > 0.0 {
        (tp / s, fp / s, fneg / s)
    } else {
        (tp, fp, fneg)
    }
}

pub fn precision((tp, fp, fneg): (f64, f64, f64)) -> f64 {
    if fp == 0.0 && fneg == 0.0 {
        1.0
    } else if tp == 0.0 && fp == 0.0 {
        0.0
    } else {
        tp / (tp + fp)
    }
}

pub fn recall((tp, fp, fneg): (f64, f64, f64)) -> f64 {
    if fp == 0.0 && fneg == 0.0 {
        1.0
    } else if tp == 0.0 && fneg == 0.0 {
        0.0
    } else {
        tp / (tp + fneg)
    }
}

/// (F1, precision, recall) over pages.
pub fn metrics(pages: &[(f64, f64, f64)]) -> (f64, f64, f64) {
    let ps: Vec<f64> = pages
        .iter()
        .filter(|x| x.0 + x.1 > 0.0)
        .map(|&x| precision(x))
        .collect();
    let rs: Vec<f64> = pages
        .iter()
        .filter(|x| x.0 + x.2 > 0.0)
        .map(|&x| recall(x))
        .collect();
    let mean = |v: &[f64]| {
        if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    };
    let (p, r) = (mean(&ps), mean(&rs));
    let f1 = if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    };
    (f1, p, r)
}

/// The mean of per-page figures (WCXB's score of a set of pages is the mean
/// of its pages' word F1); 0 for no pages.
pub fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// WCXB's metric for one page (`wcxb_score.py`): F1 of the bags of
/// lower-cased `\w+` words. An empty truth scores 1 only against an empty
/// prediction.
pub fn word_f1(pred: &str, truth: &str) -> f64 {
    let bag = |text: &str| {
        let lower = text.to_lowercase();
        let mut m: HashMap<String, usize> = HashMap::new();
        for t in tokenize(&lower) {
            *m.entry(t.to_owned()).or_insert(0) += 1;
        }
        m
    };
    let (p, r) = (bag(pred), bag(truth));
    let (np, nr): (usize, usize) = (p.values().sum(), r.values().sum());
    if nr == 0 {
        return if np == 0 { 1.0 } else { 0.0 };
    }
    let overlap: usize = p
        .iter()
        .map(|(w, &c)| c.min(r.get(w).copied().unwrap_or(0)))
        .sum();
    if np == 0 || overlap == 0 {
        return 0.0;
    }
    let (precision, recall) = (overlap as f64 / np as f64, overlap as f64 / nr as f64);
    2.0 * precision * recall / (precision + recall)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_f1_is_wcxb_score_py() {
        // Bags of lower-cased words: order and case do not matter.
        assert_eq!(word_f1("b A a", "a a B"), 1.0);
        // 2 of 3 predicted words are right, 2 of 4 true ones found.
        let f = word_f1("one two zzz", "one two three four");
        assert!((f - 2.0 * (2.0 / 3.0) * 0.5 / (2.0 / 3.0 + 0.5)).abs() < 1e-9);
        assert_eq!(word_f1("", ""), 1.0);
        assert_eq!(word_f1("x", ""), 0.0);
        assert_eq!(word_f1("", "x"), 0.0);
        assert_eq!(word_f1("snake_case", "snake case"), 0.0);
    }

    #[test]
    fn identical_is_perfect() {
        let x = tp_fp_fn("a b c d e", "a b c d e");
        assert_eq!((precision(x), recall(x)), (1.0, 1.0));
    }

    #[test]
    fn short_texts_give_one_shingle() {
        let x = tp_fp_fn("a b", "a b");
        assert_eq!(x, (1.0, 0.0, 0.0));
        let y = tp_fp_fn("a b", "");
        assert_eq!(recall(y), 0.0);
    }

    #[test]
    fn unicode_words() {
        assert_eq!(
            tokenize("Größe: 10 € — naïve_x"),
            vec!["Größe", "10", "naïve_x"]
        );
    }
}
