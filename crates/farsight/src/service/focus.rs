//! `web_fetch` with `focus`: the passages of one page that best answer a
//! query, within `maxLength` characters, instead of the page's first window.

use farsight_extract::select_within_budget;

use super::model::{FetchRequest, FetchResponse, FetchStatus};

/// The content fields of a `web_fetch` answer with `focus`: the focused
/// passages instead of a window. `contentLength` stays the whole page's
/// length; `truncated` says whether text was left out.
pub(crate) fn focused_response(
    url: String,
    content: &str,
    focus: &str,
    request: &FetchRequest,
    page_truncated: bool,
    status: &mut FetchStatus,
    notes: &mut Vec<String>,
) -> FetchResponse {
    let f = focused(content, focus, request.max_length.max(1));
    if !f.matched {
        notes.push(format!(
            "No passage of the page matches the focus {focus:?}; its beginning is returned."
        ));
    }
    if page_truncated {
        *status = FetchStatus::Partial;
        notes.push(
            "The page is larger than the download limit; only its beginning was read.".to_owned(),
        );
    }
    FetchResponse {
        url,
        status: *status,
        content: Some(f.text),
        content_length: Some(content.chars().count()),
        truncated: Some(f.skipped || page_truncated),
        next_start_index: None,
        ..FetchResponse::default()
    }
}

/// What a focused read kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Focused {
    /// The passages, in page order, "[…]" where text was left out.
    pub text: String,
    /// Whether some of the page was left out.
    pub skipped: bool,
    /// Whether any passage matched the focus (if none did, the text is the
    /// page's beginning).
    pub matched: bool,
}

/// The best passages of `content` for `focus` in at most `max_chars` characters.
///
/// The ranking counts tokens, the tool counts characters. The token estimate
/// is at least a quarter of the characters (whitespace runs count once), so a
/// budget of `max_chars / 4` tokens lands near the limit; a page of long
/// whitespace runs can overshoot it, and then the budget shrinks until it fits.
pub(crate) fn focused(content: &str, focus: &str, max_chars: usize) -> Focused {
    let mut budget = (max_chars / 4).max(1);
    loop {
        let s = select_within_budget(focus, content, budget);
        let chars = s.text.chars().count();
        if chars <= max_chars || budget == 1 {
            let text = if chars <= max_chars {
                s.text
            } else {
                s.text.chars().take(max_chars).collect()
            };
            return Focused {
                text,
                skipped: s.skipped,
                matched: s.matched,
            };
        }
        // Shrink in proportion to the overshoot, and a little more, so this
        // ends in a step or two.
        let next = budget * max_chars / chars * 9 / 10;
        budget = next.clamp(1, budget - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_kept_within_the_length() {
        let page = (0..80)
            .map(|i| format!("Paragraph {i} is about the harbour and its many boats."))
            .chain(["The fog horn sounds every thirty seconds in bad weather.".to_owned()])
            .chain((80..120).map(|i| format!("Paragraph {i} is about the town.")))
            .collect::<Vec<_>>()
            .join("\n\n");
        let f = focused(&page, "how often does the fog horn sound", 400);
        assert!(f.text.chars().count() <= 400, "{}", f.text.len());
        assert!(f.text.contains("thirty seconds"), "{}", f.text);
        assert!(f.skipped && f.matched);
    }

    #[test]
    fn whitespace_heavy_pages_still_fit() {
        let page = format!("{}needle here", "word          ".repeat(500));
        let f = focused(&page, "needle", 100);
        assert!(f.text.chars().count() <= 100);
    }
}
