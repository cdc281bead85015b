//! Choosing passages within a token budget, and sharing a budget across
//! search results.

use std::collections::BTreeSet;

use super::split::{self, split};
use super::tokens::Counts;
use super::{Passage, PassageRanker, SKIP_MARKER};

/// What [`select_within_budget`](super::select_within_budget) kept of a page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// The kept passages in page order, with [`SKIP_MARKER`] on its own line
    /// wherever text was left out (including before the first or after the
    /// last passage).
    pub text: String,
    /// [`estimate_tokens`](super::estimate_tokens) of `text`; never more than
    /// the budget.
    pub tokens: usize,
    /// The [`Passage::index`] of each passage that is in `text`, in page
    /// order (the last one may be cut short).
    pub passages_used: Vec<usize>,
    /// Whether any text of the page was left out.
    pub skipped: bool,
    /// Whether some passage matched the query. When none did, `text` is the
    /// start of the page.
    pub matched: bool,
}

impl PassageRanker {
    /// The passages of `text` that best answer `query`, in page order, within
    /// `max_tokens` as counted by [`estimate_tokens`](super::estimate_tokens).
    ///
    /// A page that fits is returned whole. Otherwise passages are taken best
    /// first while they fit (a passage next to a strong match counts as
    /// [`context`](Self::context) × that match's score), and joined in page
    /// order with [`SKIP_MARKER`] where text was left out. If even the best passage does not fit, its
    /// best sentences are taken the same way (and, failing that, the
    /// beginning of its best sentence). If no passage matches the query (or
    /// it has no terms), the result is the first passages of the page.
    #[must_use]
    pub fn select(&self, query: &str, text: &str, max_tokens: usize) -> Selection {
        let passages = split(text);
        if passages.is_empty() {
            return Selection::default();
        }
        let ranked = self.rank(query, &passages);
        let matched = !ranked.is_empty();
        let whole = text.trim();
        let whole_tokens = Counts::of(whole).tokens();
        if whole_tokens <= max_tokens {
            return Selection {
                text: whole.to_string(),
                tokens: whole_tokens,
                passages_used: (0..passages.len()).collect(),
                skipped: false,
                matched,
            };
        }
        let page = Units {
            text,
            units: &passages,
            more_before: false,
            more_after: false,
        };
        let order: Vec<usize> = if matched {
            self.budget_order(&ranked, passages.len())
        } else {
            // Nothing matches: the start of the page, in order, until full.
            (0..passages.len()).collect()
        };
        let chosen = page.fill(&order, max_tokens, !matched);
        let best = order.first().copied().unwrap_or(0);
        let mut selection = if chosen.is_empty() {
            self.within_passage(query, &passages, best, max_tokens)
        } else {
            let text = page.assemble(&chosen);
            Selection {
                tokens: Counts::of(&text).tokens(),
                text,
                passages_used: chosen.iter().map(|&i| passages[i].index).collect(),
                skipped: true,
                matched,
            }
        };
        selection.matched = matched;
        debug_assert_eq!(selection.tokens, Counts::of(&selection.text).tokens());
        selection
    }

    /// The best sentences of passage `i`, which is too long on its own.
    fn within_passage(
        &self,
        query: &str,
        passages: &[Passage],
        i: usize,
        max_tokens: usize,
    ) -> Selection {
        let p = &passages[i];
        let sentences = split::sentences(&p.text, p.heading.as_deref());
        let part = Units {
            text: &p.text,
            units: &sentences,
            more_before: i > 0,
            more_after: i + 1 < passages.len(),
        };
        let ranked = self.rank(query, &sentences);
        let order: Vec<usize> = if ranked.is_empty() {
            (0..sentences.len()).collect()
        } else {
            ranked.iter().map(|&(k, _)| k).collect()
        };
        let mut chosen = part.fill(&order, max_tokens, ranked.is_empty());
        if chosen.is_empty() {
            // Not even one sentence fits: the beginning of the best one.
            let Some(&k) = order.first() else {
                return Selection::default();
            };
            chosen.insert(k);
            let (lead, _) = part.edges(&chosen);
            // The sentence is cut, so a marker always follows it.
            let trail = Counts::SEPARATOR.plus(Counts::of(SKIP_MARKER));
            let fits = |c: Counts| lead.plus(c).plus(trail).tokens() <= max_tokens;
            let prefix = longest_prefix(&sentences[k].text, fits);
            if prefix.is_empty() {
                return Selection {
                    skipped: true,
                    ..Selection::default()
                };
            }
            let cut = [Passage {
                text: prefix.to_string(),
                ..sentences[k].clone()
            }];
            let one = Units {
                text: &p.text,
                units: &cut,
                more_before: part.more_before || k > 0,
                more_after: true,
            };
            let text = one.assemble(&BTreeSet::from([0]));
            return Selection {
                tokens: Counts::of(&text).tokens(),
                text,
                passages_used: vec![p.index],
                skipped: true,
                matched: true,
            };
        }
        let text = part.assemble(&chosen);
        Selection {
            tokens: Counts::of(&text).tokens(),
            text,
            passages_used: vec![p.index],
            skipped: true,
            matched: true,
        }
    }
}

/// Consecutive pieces of `text` to choose from, with or without more text
/// before and after them (which needs a marker when left out).
struct Units<'a> {
    text: &'a str,
    units: &'a [Passage],
    more_before: bool,
    more_after: bool,
}

impl Units<'_> {
    /// Takes units in `order` while the assembled text fits; with
    /// `prefix_only`, stops at the first that does not.
    fn fill(&self, order: &[usize], max_tokens: usize, prefix_only: bool) -> BTreeSet<usize> {
        let counts: Vec<Counts> = self.units.iter().map(|u| Counts::of(&u.text)).collect();
        let mut chosen = BTreeSet::new();
        for &i in order {
            chosen.insert(i);
            if self.cost(&chosen, &counts).tokens() > max_tokens {
                chosen.remove(&i);
                if prefix_only {
                    break;
                }
            }
        }
        chosen
    }

    /// Counts of the markers needed before the first and after the last
    /// chosen unit.
    fn edges(&self, chosen: &BTreeSet<usize>) -> (Counts, Counts) {
        let marker = Counts::of(SKIP_MARKER);
        let first = chosen.first().copied().unwrap_or(0);
        let last = chosen.last().copied().unwrap_or(0);
        let lead = if self.more_before || first > 0 {
            marker.plus(Counts::SEPARATOR)
        } else {
            Counts::default()
        };
        let trail = if self.more_after || last + 1 < self.units.len() {
            Counts::SEPARATOR.plus(marker)
        } else {
            Counts::default()
        };
        (lead, trail)
    }

    /// Counts of the assembled text, without building it.
    fn cost(&self, chosen: &BTreeSet<usize>, counts: &[Counts]) -> Counts {
        let marker = Counts::of(SKIP_MARKER);
        let (lead, trail) = self.edges(chosen);
        let mut total = lead;
        let mut prev: Option<usize> = None;
        for &i in chosen {
            total = match prev {
                None => total,
                Some(p) if p + 1 == i => total.plus(Counts::SEPARATOR),
                Some(_) => total
                    .plus(Counts::SEPARATOR)
                    .plus(marker)
                    .plus(Counts::SEPARATOR),
            };
            total = total.plus(counts[i]);
            prev = Some(i);
        }
        total.plus(trail)
    }

    /// The chosen units in order, with markers where text is left out.
    fn assemble(&self, chosen: &BTreeSet<usize>) -> String {
        let mut out = String::new();
        let (first, last) = match (chosen.first(), chosen.last()) {
            (Some(&f), Some(&l)) => (f, l),
            _ => return out,
        };
        if self.more_before || first > 0 {
            out.push_str(SKIP_MARKER);
            out.push_str("\n\n");
        }
        let mut prev: Option<usize> = None;
        for &i in chosen {
            match prev {
                None => {}
                Some(p) if p + 1 == i => {
                    let end = self.units[p].start + self.units[p].text.len();
                    out.push_str(separator(
                        self.text.get(end..self.units[i].start).unwrap_or(""),
                    ));
                }
                Some(_) => {
                    out.push_str("\n\n");
                    out.push_str(SKIP_MARKER);
                    out.push_str("\n\n");
                }
            }
            out.push_str(&self.units[i].text);
            prev = Some(i);
        }
        if self.more_after || last + 1 < self.units.len() {
            out.push_str("\n\n");
            out.push_str(SKIP_MARKER);
        }
        out
    }
}

/// Keeps the kind of break the page had between two neighbouring passages.
fn separator(gap: &str) -> &'static str {
    match gap.matches('\n').count() {
        0 => " ",
        1 => "\n",
        _ => "\n\n",
    }
}

/// The longest prefix of `s` that `fits`, ending at a word when any whole
/// word fits, else at a character. The token estimate grows with the prefix,
/// so a binary search finds it.
fn longest_prefix(s: &str, fits: impl Fn(Counts) -> bool) -> &str {
    let word_ends: Vec<usize> = s
        .char_indices()
        .zip(s.chars().skip(1))
        .filter(|((_, c), next)| !c.is_whitespace() && next.is_whitespace())
        .map(|((i, c), _)| i + c.len_utf8())
        .chain(std::iter::once(s.len()))
        .collect();
    let best = |cuts: &[usize]| {
        let n = cuts.partition_point(|&e| fits(Counts::of(&s[..e])));
        n.checked_sub(1).map(|k| cuts[k])
    };
    if let Some(end) = best(&word_ends) {
        return s[..end].trim_end();
    }
    let char_ends: Vec<usize> = s.char_indices().map(|(i, c)| i + c.len_utf8()).collect();
    best(&char_ends).map_or("", |end| s[..end].trim_end())
}

/// Splits `total_tokens` across search results by rank.
///
/// `available[i]` is what result `i` (best first) can use, usually
/// [`estimate_tokens`](super::estimate_tokens) of its page text; pass
/// `usize::MAX` when unknown. Result `i` is weighted `1 / √(i + 1)`, so the
/// first of five results gets about 2.2× the share of the last rather than
/// everything. A page shorter than its share keeps only what it can use, and
/// the rest is shared again among the others, by the same weights, until the
/// budget or the pages run out. The shares never add up to more than
/// `total_tokens`.
///
/// ```
/// use farsight_extract::share_budget;
///
/// let shares = share_budget(4000, &[usize::MAX; 5]);
/// assert_eq!(shares.iter().sum::<usize>(), 4000);
/// assert!(shares.windows(2).all(|w| w[0] >= w[1]));
///
/// // The short second page leaves its share to the others.
/// let shares = share_budget(3000, &[usize::MAX, 200, usize::MAX]);
/// assert_eq!(shares[1], 200);
/// assert_eq!(shares.iter().sum::<usize>(), 3000);
/// ```
#[must_use]
pub fn share_budget(total_tokens: usize, available: &[usize]) -> Vec<usize> {
    let weight = |i: usize| 1.0 / ((i + 1) as f64).sqrt();
    let mut shares = vec![0usize; available.len()];
    let mut remaining = total_tokens;
    let mut open: Vec<usize> = (0..available.len()).filter(|&i| available[i] > 0).collect();
    while remaining > 0 && !open.is_empty() {
        let weights: f64 = open.iter().map(|&i| weight(i)).sum();
        let round = remaining;
        let mut given = 0usize;
        for &i in &open {
            let share = (round as f64 * weight(i) / weights).floor() as usize;
            let g = share.min(available[i] - shares[i]).min(remaining - given);
            shares[i] += g;
            given += g;
        }
        if given == 0 {
            // Only rounding is left: a token each, best rank first.
            for &i in &open {
                if remaining > given && shares[i] < available[i] {
                    shares[i] += 1;
                    given += 1;
                }
            }
        }
        remaining -= given;
        open.retain(|&i| shares[i] < available[i]);
    }
    shares
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passage::{estimate_tokens, select_within_budget, split_passages};

    /// A page of numbered sections; section `k` mentions `topic{k}`.
    fn page(sections: usize) -> String {
        (0..sections)
            .map(|k| {
                format!(
                    "## Section {k}\n\nThis part of the page talks about topic{k} at some length, \
                     with enough ordinary words around it to make a real paragraph of text \
                     that an extractor would keep as content.\n"
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn budget_is_respected_and_page_order_kept() {
        let text = page(30);
        for budget in [10, 50, 100, 200, 400, 1000] {
            let s = select_within_budget("topic7 topic3 topic21", &text, budget);
            assert!(s.tokens <= budget, "{budget}: {}", s.tokens);
            assert_eq!(s.tokens, estimate_tokens(&s.text));
            assert!(s.passages_used.windows(2).all(|w| w[0] < w[1]));
        }
        let s = select_within_budget("topic21 topic3", &text, 200);
        let (a, b) = (s.text.find("topic3 "), s.text.find("topic21"));
        assert!(a.zip(b).is_some_and(|(a, b)| a < b), "{}", s.text);
    }

    #[test]
    fn skipped_text_is_marked() {
        let text = page(10);
        let s = select_within_budget("topic4", &text, 60);
        assert!(s.skipped && s.matched);
        assert!(s.text.starts_with("[…]\n\n## Section 4"), "{}", s.text);
        assert!(s.text.ends_with("\n\n[…]"));
        assert_eq!(s.passages_used, vec![4]);
    }

    #[test]
    fn gaps_between_passages_are_marked_once() {
        let text = page(10);
        let s = PassageRanker::new()
            .context(0.0)
            .select("topic2 topic6", &text, 150);
        assert_eq!(s.passages_used, vec![2, 6]);
        assert_eq!(s.text.matches(SKIP_MARKER).count(), 3, "{}", s.text);
    }

    #[test]
    fn a_page_that_fits_is_returned_whole() {
        let text = "\n\nShort page about nothing in particular.\n";
        let s = select_within_budget("unrelated", text, 100);
        assert_eq!(s.text, text.trim());
        assert!(!s.skipped && !s.matched);
    }

    #[test]
    fn no_match_falls_back_to_the_page_start() {
        let text = page(10);
        let s = select_within_budget("zebra", &text, 50);
        assert!(!s.matched && s.skipped);
        assert!(s.text.starts_with("## Section 0"));
        assert!(s.text.ends_with(SKIP_MARKER));
        assert!(s.tokens <= 50);
        assert_eq!(s.passages_used, vec![0]);
        let empty_query = select_within_budget("", &text, 50);
        assert_eq!(empty_query.text, s.text);
    }

    #[test]
    fn empty_text_and_zero_budget() {
        assert_eq!(select_within_budget("q", "", 100), Selection::default());
        assert_eq!(
            select_within_budget("q", "  \n\n ", 100),
            Selection::default()
        );
        let s = select_within_budget("topic1", &page(3), 0);
        assert!(s.text.is_empty() && s.tokens == 0 && s.skipped);
    }

    #[test]
    fn an_oversized_best_passage_is_cut() {
        let mut text = "Intro paragraph that says little.\n\n```\n".to_string();
        text.push_str(&"let needle = compute(needle, haystack);\n".repeat(60));
        text.push_str("```\n\nOutro.");
        let s = select_within_budget("needle", &text, 80);
        assert!(s.matched && s.skipped);
        assert!(s.tokens <= 80 && s.tokens > 40, "{}", s.tokens);
        assert!(s.text.contains("needle"));
    }

    #[test]
    fn a_cut_sentence_leaves_room_for_its_marker() {
        // Found by the proptest: the marker after a cut sentence was not
        // counted, and the selection went one token over.
        let s = select_within_budget("東", "aéé a0a東東0-aa*0*0-é\n東a", 3);
        assert!(s.tokens <= 3, "{s:?}");
    }

    #[test]
    fn cut_never_splits_a_character() {
        let text = format!("{}\n\n{}", "前".repeat(500), "後".repeat(500));
        for budget in [1, 3, 7, 50] {
            let s = select_within_budget("後", &text, budget);
            assert!(s.tokens <= budget);
        }
    }

    #[test]
    fn passages_used_match_split_indices() {
        let text = page(6);
        let ps = split_passages(&text);
        let s = select_within_budget("topic5", &text, 60);
        assert!(ps[s.passages_used[0]].text.contains("topic5"));
    }

    #[test]
    fn shares_decrease_by_rank_and_sum_to_total() {
        let s = share_budget(4000, &[usize::MAX; 5]);
        assert_eq!(s.iter().sum::<usize>(), 4000);
        assert!(s.windows(2).all(|w| w[0] >= w[1]), "{s:?}");
        assert!(s[0] * 10 < s[4] * 23, "{s:?}");
    }

    #[test]
    fn short_pages_give_back_their_share() {
        let s = share_budget(1000, &[100, usize::MAX, 0, 50]);
        assert_eq!(s[0], 100);
        assert_eq!(s[2], 0);
        assert_eq!(s[3], 50);
        assert_eq!(s[1], 850);
        let all_short = share_budget(1000, &[10, 20]);
        assert_eq!(all_short, vec![10, 20]);
    }

    #[test]
    fn shares_edge_cases() {
        assert!(share_budget(100, &[]).is_empty());
        assert_eq!(share_budget(0, &[5, 5]), vec![0, 0]);
        assert_eq!(share_budget(3, &[usize::MAX; 5]).iter().sum::<usize>(), 3);
        assert_eq!(
            share_budget(usize::MAX, &[usize::MAX; 3])
                .iter()
                .sum::<usize>(),
            usize::MAX
        );
    }
}
