//! Passages of a page that answer a query, within a token budget.
//!
//! An agent rarely wants a whole page, or its first N characters: it wants
//! the parts that answer its question. [`split_passages`] cuts extracted text
//! (Markdown or plain) into passages of roughly 60 to 120 tokens at block
//! boundaries, [`rank_passages`] scores them against a query with BM25, and
//! [`select_within_budget`] keeps the best of them, in page order, within a
//! budget counted by [`estimate_tokens`]. [`share_budget`] divides one budget
//! among several search results.

mod budget;
mod rank;
mod split;
mod terms;
mod tokens;

pub use budget::{Selection, share_budget};
pub use rank::PassageRanker;
pub use tokens::estimate_tokens;

/// Written where a [`Selection`] leaves text out, on a line of its own.
pub const SKIP_MARKER: &str = "[…]";

/// A piece of a page: one or a few blocks (paragraphs, list, table, code
/// block), or a part of a long one, with the heading above it attached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Passage {
    /// The text, exactly as it is in the page: `text == &page[start..start +
    /// text.len()]`, without surrounding whitespace.
    pub text: String,
    /// Byte offset of `text` in the page (always on a character boundary).
    pub start: usize,
    /// Position in page order, from 0.
    pub index: usize,
    /// The headings this passage sits under, outermost first, joined by
    /// `" > "` (for example `"Install > Linux"`). `None` before the first
    /// heading.
    pub heading: Option<String>,
}

/// Splits text into passages in page order.
///
/// Blocks are found as Markdown has them: `#` and underlined headings, blank
/// lines between paragraphs, lists, tables, block quotes and code fences.
/// Plain text splits at its blank lines. A block over 120 tokens is cut into
/// balanced parts at sentence ends (list items, table rows, lines of code),
/// or at spaces when a sentence is too long, and between characters only in
/// text without spaces. A code block stays whole up to 400 tokens. Blocks
/// under 60 tokens join the next block of their section while the passage
/// stays under 120, and a heading always joins the block after it.
///
/// Together the passages hold all of the text's non-whitespace characters.
///
/// ```
/// use farsight_extract::split_passages;
///
/// let md = "# Setup\n\nInstall it.\n\n```sh\ncargo install farsight\n```\n\n# Use\n\nRun it.";
/// let passages = split_passages(md);
/// assert_eq!(passages.len(), 2);
/// assert!(passages[0].text.starts_with("# Setup") && passages[0].text.ends_with("```"));
/// assert_eq!(passages[1].heading.as_deref(), Some("Use"));
/// ```
#[must_use]
pub fn split_passages(text: &str) -> Vec<Passage> {
    split::split(text)
}

/// Ranks passages against a query with the default [`PassageRanker`]: BM25
/// (`k1 = 1.2`, `b = 0.75`) over stemmed, case-folded terms without stop
/// words, plus a proximity bonus and section headings.
///
/// Returns `(position in passages, score)` for the passages that match at
/// least one query term, best first; empty when none does.
#[must_use]
pub fn rank_passages(query: &str, passages: &[Passage]) -> Vec<(usize, f32)> {
    PassageRanker::default().rank(query, passages)
}

/// The passages of `text` that best answer `query`, in page order, within
/// `max_tokens`, using the default [`PassageRanker`]; see
/// [`PassageRanker::select`].
///
/// ```
/// use farsight_extract::{estimate_tokens, select_within_budget};
///
/// let page = (0..40)
///     .map(|i| format!("Paragraph {i} is filler about nothing much, long enough to cost tokens."))
///     .chain(["The warranty lasts two years from the date of purchase.".to_string()])
///     .collect::<Vec<_>>()
///     .join("\n\n");
/// let s = select_within_budget("how long is the warranty", &page, 60);
/// assert!(s.text.contains("two years"));
/// assert!(s.text.starts_with("[…]"));
/// assert!(s.tokens <= 60 && s.tokens == estimate_tokens(&s.text));
/// ```
#[must_use]
pub fn select_within_budget(query: &str, text: &str, max_tokens: usize) -> Selection {
    PassageRanker::default().select(query, text, max_tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passages_are_slices_of_the_page() {
        let md =
            "Intro line.\n\n# A\n\nText under A.\n\n## A.1\n\n- x\n- y\n\n| h |\n|---|\n| v |\n";
        for p in split_passages(md) {
            assert_eq!(&md[p.start..p.start + p.text.len()], p.text);
        }
    }

    #[test]
    fn headings_attach_to_what_follows() {
        let md = "# Title\n\n## Part\n\nBody of the part.\n\n## Other\n\nOther body.";
        let ps = split_passages(md);
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].text, "# Title\n\n## Part\n\nBody of the part.");
        assert_eq!(ps[0].heading.as_deref(), Some("Title > Part"));
        assert_eq!(ps[1].heading.as_deref(), Some("Title > Other"));
    }

    #[test]
    fn splits_at_blocks() {
        let para = |w: &str| format!("{} end.", w.repeat(70));
        let md = format!(
            "{}\n\n{}\n\n- {}\n- item",
            para("alpha "),
            para("beta "),
            para("gamma ")
        );
        let ps = split_passages(&md);
        assert_eq!(ps.len(), 3, "{ps:#?}");
        assert!(ps[0].text.starts_with("alpha") && ps[0].text.ends_with("end."));
        assert!(ps[1].text.starts_with("beta"));
        assert!(ps[2].text.starts_with("- gamma") && ps[2].text.ends_with("- item"));
    }

    #[test]
    fn code_fences_stay_whole() {
        let code = (0..40)
            .map(|i| format!("    let value_{i} = compute({i});\n\n"))
            .collect::<String>();
        let md = format!("Before.\n\n```rust\n{code}```\n\nAfter.");
        let ps = split_passages(&md);
        let with_code: Vec<&Passage> = ps.iter().filter(|p| p.text.contains("value_")).collect();
        assert_eq!(with_code.len(), 1);
        assert!(with_code[0].text.contains("```rust") && with_code[0].text.ends_with("```"));
    }

    #[test]
    fn long_blocks_split_at_sentences() {
        let para = "Each sentence here is an ordinary one with about twelve words. ".repeat(40);
        let ps = split_passages(&para);
        assert!(ps.len() >= 5, "{}", ps.len());
        for p in &ps {
            assert!(estimate_tokens(&p.text) <= 120);
            assert!(p.text.ends_with('.'));
        }
    }

    #[test]
    fn all_text_is_covered() {
        let md = "# T\n\nSome text.\n\n---\n\n> quote\n\nMore. ".repeat(20);
        let ps = split_passages(&md);
        let joined: String = ps.iter().map(|p| p.text.as_str()).collect();
        let strip = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        assert_eq!(strip(&joined), strip(&md));
        assert!(ps.iter().enumerate().all(|(i, p)| p.index == i));
    }

    proptest::proptest! {
        #[test]
        fn any_text_and_query_stay_within_budget(
            text in "(?s)[a-z #`|>*\\-\n.!?\u{e9}\u{6771}\u{1F600}0-9]{0,1500}",
            query in "[a-z \u{6771}]{0,30}",
            budget in 0usize..400,
        ) {
            let passages = split_passages(&text);
            for p in &passages {
                proptest::prop_assert_eq!(&text[p.start..p.start + p.text.len()], p.text.as_str());
            }
            let ranked = rank_passages(&query, &passages);
            proptest::prop_assert!(ranked.iter().all(|&(i, s)| i < passages.len() && s > 0.0));
            let s = select_within_budget(&query, &text, budget);
            proptest::prop_assert!(s.tokens <= budget);
            proptest::prop_assert_eq!(s.tokens, estimate_tokens(&s.text));
            proptest::prop_assert!(s.passages_used.iter().all(|&i| i < passages.len()));
        }

        #[test]
        fn shares_never_exceed_the_total(
            total in 0usize..100_000,
            available in proptest::collection::vec(0usize..5_000, 0..12),
        ) {
            let shares = share_budget(total, &available);
            proptest::prop_assert_eq!(shares.len(), available.len());
            proptest::prop_assert!(shares.iter().sum::<usize>() <= total);
            proptest::prop_assert!(shares.iter().zip(&available).all(|(s, a)| s <= a));
            let wanted: usize = available.iter().sum();
            proptest::prop_assert_eq!(shares.iter().sum::<usize>(), total.min(wanted));
        }
    }

    #[test]
    fn empty_text_has_no_passages() {
        assert!(split_passages("").is_empty());
        assert!(split_passages(" \n\t\n").is_empty());
    }
}
