//! Ranking passages against a query with BM25.

use std::collections::HashMap;

use super::Passage;
use super::terms::terms;

/// Ranks passages against a query with Okapi BM25, each passage a document.
///
/// Terms come from a Unicode-aware tokenizer: letters and digits of any
/// script, case-folded, common Latin accents removed, English stop words
/// dropped, English words reduced by a light suffix stemmer (plurals, `-ing`,
/// `-ed`, `-ly`, `-ation`, `-ate`, a final `e`), and CJK text indexed as
/// overlapping character pairs.
///
/// Defaults (see [`PassageRanker::new`]) are the textbook `k1 = 1.2`,
/// `b = 0.75`, with stemming on, a small proximity bonus and section
/// headings counted as part of each passage below them. The evaluation
/// binary `passage-eval` compares these choices.
///
/// ```
/// use farsight_extract::{PassageRanker, split_passages};
///
/// let text = "# Pricing\n\nThe Pro plan costs $12 a month.\n\n# Support\n\nEmail us any time.";
/// let passages = split_passages(text);
/// let ranked = PassageRanker::new().rank("how much is the pro plan", &passages);
/// assert_eq!(ranked[0].0, 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PassageRanker {
    pub(crate) k1: f32,
    pub(crate) b: f32,
    pub(crate) stemming: bool,
    pub(crate) proximity: f32,
    pub(crate) heading_weight: f32,
    pub(crate) context: f32,
}

impl Default for PassageRanker {
    fn default() -> Self {
        PassageRanker {
            k1: 1.2,
            b: 0.75,
            stemming: true,
            proximity: 0.5,
            heading_weight: 1.0,
            context: 0.5,
        }
    }
}

impl PassageRanker {
    /// The default ranker: BM25 with `k1 = 1.2`, `b = 0.75`, stemming on,
    /// proximity weight 0.5, heading weight 1.0 and context weight 0.5.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// BM25 term-frequency saturation (default 1.2). Negative or non-finite
    /// values are ignored.
    #[must_use]
    pub fn k1(mut self, k1: f32) -> Self {
        if k1.is_finite() && k1 >= 0.0 {
            self.k1 = k1;
        }
        self
    }

    /// BM25 length normalisation, from 0 (none) to 1 (full) (default 0.75).
    /// Values outside that range are clamped; non-finite ones are ignored.
    #[must_use]
    pub fn b(mut self, b: f32) -> Self {
        if b.is_finite() {
            self.b = b.clamp(0.0, 1.0);
        }
        self
    }

    /// Whether English words are reduced by the light stemmer (default on).
    #[must_use]
    pub fn stemming(mut self, on: bool) -> Self {
        self.stemming = on;
        self
    }

    /// Weight of the proximity bonus (default 0.5; 0 turns it off). For
    /// each pair of distinct query terms found in a passage, the score gains
    /// `weight × min(idf₁, idf₂) / d`, where `d` is the smallest distance
    /// between the two terms in words. Negative or non-finite values are
    /// ignored.
    #[must_use]
    pub fn proximity(mut self, weight: f32) -> Self {
        if weight.is_finite() && weight >= 0.0 {
            self.proximity = weight;
        }
        self
    }

    /// How much a query term found in the passage's section headings counts,
    /// relative to one occurrence in its text (default 1.0; 0 ignores
    /// headings). Negative or non-finite values are ignored.
    #[must_use]
    pub fn heading_weight(mut self, weight: f32) -> Self {
        if weight.is_finite() && weight >= 0.0 {
            self.heading_weight = weight;
        }
        self
    }

    /// How much a passage's score lends to its neighbours when choosing what
    /// to keep within a budget (default 0.5; 0 turns it off). A passage is
    /// taken at the larger of its own score and `weight ×` the score of the
    /// passage before or after it, so that the sentences around a strong
    /// match (the start of its paragraph, the rest of a cut list) come before
    /// weak matches elsewhere on the page. It does not change
    /// [`rank`](Self::rank). Negative or non-finite values are ignored.
    #[must_use]
    pub fn context(mut self, weight: f32) -> Self {
        if weight.is_finite() && weight >= 0.0 {
            self.context = weight;
        }
        self
    }

    /// The order in which to take passages for a budget: by score, each
    /// passage lifted to `context ×` its best neighbour's score.
    pub(crate) fn budget_order(&self, ranked: &[(usize, f32)], len: usize) -> Vec<usize> {
        let mut own = vec![0.0f32; len];
        for &(i, score) in ranked {
            if let Some(s) = own.get_mut(i) {
                *s = score;
            }
        }
        let lifted: Vec<f32> = (0..len)
            .map(|i| {
                let before = i.checked_sub(1).map_or(0.0, |j| own[j]);
                let after = own.get(i + 1).copied().unwrap_or(0.0);
                own[i].max(self.context * before.max(after))
            })
            .collect();
        let mut order: Vec<usize> = (0..len).filter(|&i| lifted[i] > 0.0).collect();
        order.sort_by(|&a, &b| lifted[b].total_cmp(&lifted[a]).then(a.cmp(&b)));
        order
    }

    /// Scores `passages` against `query` and returns `(position in
    /// passages, score)` for every passage that matches at least one query
    /// term, best first (ties in page order). Empty when the query has no
    /// terms left after stop words, or nothing matches.
    #[must_use]
    pub fn rank(&self, query: &str, passages: &[Passage]) -> Vec<(usize, f32)> {
        let mut query_terms = terms(query, self.stemming);
        let mut seen = std::collections::HashSet::new();
        query_terms.retain(|t| seen.insert(t.clone()));
        if query_terms.is_empty() || passages.is_empty() {
            return Vec::new();
        }
        let slot: HashMap<&str, usize> = query_terms
            .iter()
            .enumerate()
            .map(|(i, t)| (t.as_str(), i))
            .collect();
        let q = query_terms.len();

        struct Stats {
            len: usize,
            /// Positions of each query term in the text.
            positions: Vec<Vec<u32>>,
            /// Occurrences of each query term in the section headings.
            in_heading: Vec<u32>,
        }
        let stats: Vec<Stats> = passages
            .iter()
            .map(|p| {
                let body = terms(&p.text, self.stemming);
                let mut positions = vec![Vec::new(); q];
                for (pos, t) in body.iter().enumerate() {
                    if let Some(&i) = slot.get(t.as_str()) {
                        positions[i].push(u32::try_from(pos).unwrap_or(u32::MAX));
                    }
                }
                let mut in_heading = vec![0u32; q];
                if let Some(h) = &p.heading {
                    for t in terms(h, self.stemming) {
                        if let Some(&i) = slot.get(t.as_str()) {
                            in_heading[i] += 1;
                        }
                    }
                }
                Stats {
                    len: body.len(),
                    positions,
                    in_heading,
                }
            })
            .collect();

        let n = passages.len() as f32;
        let avg_len = (stats.iter().map(|s| s.len).sum::<usize>() as f32 / n).max(1.0);
        let tf = |s: &Stats, i: usize| {
            s.positions[i].len() as f32 + self.heading_weight * s.in_heading[i] as f32
        };
        let idf: Vec<f32> = (0..q)
            .map(|i| {
                let df = stats.iter().filter(|s| tf(s, i) > 0.0).count() as f32;
                (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
            })
            .collect();

        let mut ranked: Vec<(usize, f32)> = stats
            .iter()
            .enumerate()
            .filter_map(|(p, s)| {
                let norm = self.k1 * (1.0 - self.b + self.b * s.len as f32 / avg_len);
                let mut score = 0.0;
                for (i, idf_i) in idf.iter().enumerate() {
                    let f = tf(s, i);
                    if f > 0.0 {
                        score += idf_i * f * (self.k1 + 1.0) / (f + norm);
                    }
                }
                if self.proximity > 0.0 {
                    for i in 0..q {
                        for j in i + 1..q {
                            if let Some(d) = min_distance(&s.positions[i], &s.positions[j]) {
                                score += self.proximity * idf[i].min(idf[j]) / d as f32;
                            }
                        }
                    }
                }
                (score > 0.0).then_some((p, score))
            })
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked
    }
}

/// The smallest distance between a position in `a` and one in `b` (both
/// sorted), or `None` if either is empty.
fn min_distance(a: &[u32], b: &[u32]) -> Option<u32> {
    let (mut i, mut j) = (0, 0);
    let mut best: Option<u32> = None;
    while i < a.len() && j < b.len() {
        let d = a[i].abs_diff(b[j]).max(1);
        best = Some(best.map_or(d, |x| x.min(d)));
        if a[i] < b[j] {
            i += 1;
        } else {
            j += 1;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passage::split_passages;

    fn passages(texts: &[&str]) -> Vec<Passage> {
        texts
            .iter()
            .enumerate()
            .map(|(index, t)| Passage {
                text: (*t).to_string(),
                start: 0,
                index,
                heading: None,
            })
            .collect()
    }

    #[test]
    fn rarer_terms_weigh_more() {
        let ps = passages(&[
            "the server starts on port 8080 by default",
            "the server logs to stderr",
            "the server reads its config from a file",
        ]);
        let r = PassageRanker::new().rank("which port does the server use", &ps);
        assert_eq!(r[0].0, 0);
    }

    #[test]
    fn stemming_matches_inflections() {
        let ps = passages(&["Configuring the proxies", "Nothing relevant here at all"]);
        assert!(PassageRanker::new().rank("proxy configuration", &ps)[0].0 == 0);
        assert!(
            PassageRanker::new()
                .stemming(false)
                .rank("proxy configuration", &ps)
                .is_empty()
        );
    }

    #[test]
    fn case_and_accents_fold() {
        let ps = passages(&["Le CAFÉ ouvre à huit heures", "La boulangerie ferme tard"]);
        assert_eq!(PassageRanker::new().rank("café", &ps)[0].0, 0);
    }

    #[test]
    fn cjk_bigrams_match() {
        let ps = passages(&["東京都の人口は約1400万人です", "大阪府の天気は晴れ"]);
        assert_eq!(PassageRanker::new().rank("東京の人口", &ps)[0].0, 0);
    }

    #[test]
    fn stop_word_queries_match_nothing() {
        let ps = passages(&["what is this and how is it done"]);
        assert!(PassageRanker::new().rank("what is it", &ps).is_empty());
        assert!(PassageRanker::new().rank("", &ps).is_empty());
        assert!(PassageRanker::new().rank("anything", &[]).is_empty());
    }

    #[test]
    fn proximity_prefers_terms_together() {
        let ps = passages(&[
            "refund policy: we refund within 30 days of purchase",
            "our policy on shipping is generous. many unrelated words sit here. a refund is possible",
        ]);
        let r = PassageRanker::new().b(0.0).rank("refund policy", &ps);
        assert_eq!(r[0].0, 0);
    }

    #[test]
    fn headings_lift_their_section() {
        let text = "# Installing on Linux\n\nRun the script below and wait for it to finish.\n\n\
                    # Uninstalling\n\nRun the script with a flag to remove everything.";
        let ps = split_passages(text);
        let r = PassageRanker::new().rank("run script linux", &ps);
        assert_eq!(r[0].0, 0);
    }

    #[test]
    fn setters_ignore_bad_values() {
        let r = PassageRanker::new()
            .k1(f32::NAN)
            .b(7.0)
            .proximity(-1.0)
            .heading_weight(f32::INFINITY)
            .context(-2.0);
        assert_eq!(r.k1, 1.2);
        assert_eq!(r.b, 1.0);
        assert_eq!(r.proximity, 0.5);
        assert_eq!(r.heading_weight, 1.0);
        assert_eq!(r.context, 0.5);
    }

    #[test]
    fn budget_order_lifts_neighbours_of_strong_matches() {
        let ranked = [(3, 4.0), (0, 1.0)];
        let order = PassageRanker::new().budget_order(&ranked, 6);
        assert_eq!(order, vec![3, 2, 4, 0, 1]);
        let plain = PassageRanker::new().context(0.0).budget_order(&ranked, 6);
        assert_eq!(plain, vec![3, 0]);
    }

    #[test]
    fn min_distance_merges_sorted_lists() {
        assert_eq!(min_distance(&[1, 10, 20], &[5, 18]), Some(2));
        assert_eq!(min_distance(&[], &[1]), None);
    }
}
