//! Search answers rendered for a model's context.

use std::fmt::Write as _;

use farsight_search::{SearchDepth, SearchResponse, SearchResult};

/// The compact format (the default text of `web_search`):
/// `[Web Search: "query"]`, then `1. Title — domain.com: snippet` lines, then
/// the `Sources:` list.
pub fn render_compact(response: &SearchResponse) -> String {
    let mut out = format!("[Web Search: \"{}\"]\n", response.query);
    if !response.images.is_empty() {
        render_images(&mut out, response);
        return out;
    }
    if response.results.is_empty() {
        no_results(&mut out, response);
        return out;
    }
    for (i, r) in response.results.iter().enumerate() {
        let _ = write!(out, "{}. {} — {}", i + 1, one_line(&r.title), r.domain);
        if !r.snippet.is_empty() {
            let _ = write!(out, ": {}", one_line(&r.snippet));
        }
        out.push('\n');
    }
    notes(&mut out, response);
    out.push('\n');
    out.push_str(&render_sources(&response.results));
    out
}

/// The full format (deep search): one `## Result N: Title` section per result
/// with its source, date and extracted passages (or the snippet when the page
/// gave none), `---` between results, then the `Sources:` list.
pub fn render_full(response: &SearchResponse) -> String {
    let mut out = format!("[Web Search: \"{}\"]\n", response.query);
    if !response.images.is_empty() {
        render_images(&mut out, response);
        return out;
    }
    if response.results.is_empty() {
        no_results(&mut out, response);
        return out;
    }
    for (i, r) in response.results.iter().enumerate() {
        if i > 0 {
            out.push_str("\n---\n");
        }
        let _ = write!(
            out,
            "\n## Result {}: {}\nSource: {}\n",
            i + 1,
            one_line(&r.title),
            r.url
        );
        if let Some(date) = &r.date_published {
            let _ = writeln!(out, "Published: {date}");
        }
        out.push('\n');
        out.push_str(body_of(r).trim());
        out.push('\n');
    }
    notes(&mut out, response);
    out.push('\n');
    out.push_str(&render_sources(&response.results));
    out
}

/// The `Sources:` list of Markdown links that every answer ends with, so the
/// model can cite what it used.
pub fn render_sources(results: &[SearchResult]) -> String {
    let mut out = String::from("Sources:\n");
    for r in results {
        let _ = writeln!(
            out,
            "- [{}]({})",
            link_text(&r.title, &r.domain),
            link_target(&r.url)
        );
    }
    out
}

/// The return format of the `→ search` directive: a header with the count and
/// time, numbered `[N] "Title" — domain` entries with the snippet indented (and
/// the passages, for deep searches), and a hint about `depth:deep` after a
/// basic search.
pub fn render_directive_answer(response: &SearchResponse, depth: SearchDepth) -> String {
    let mut out = format!("Search: \"{}\"\n", response.query);
    let count = response.results.len();
    let _ = writeln!(
        out,
        "{count} result{} ({}ms)",
        if count == 1 { "" } else { "s" },
        response.response_time_ms
    );
    if count == 0
        && let Some(s) = &response.suggestion
    {
        let _ = writeln!(out, "\n{s}");
    }
    for (i, r) in response.results.iter().enumerate() {
        let _ = write!(
            out,
            "\n[{}] \"{}\" — {}\n",
            i + 1,
            one_line(&r.title),
            r.domain
        );
        if !r.snippet.is_empty() {
            let _ = writeln!(out, "    \"{}\"", one_line(&r.snippet));
        }
        if depth == SearchDepth::Deep
            && let Some(content) = r.content.as_deref().filter(|c| !c.trim().is_empty())
        {
            out.push('\n');
            for line in content.trim().lines() {
                if line.trim().is_empty() {
                    out.push('\n');
                } else {
                    let _ = writeln!(out, "    {line}");
                }
            }
        }
    }
    if depth == SearchDepth::Basic && count > 0 {
        let _ = write!(
            out,
            "\nUse → search \"{}\" depth:deep for full content extraction.\n",
            response.query.replace('"', "\\\"")
        );
    }
    out
}

fn body_of(r: &SearchResult) -> &str {
    match r.content.as_deref() {
        Some(content) if !content.trim().is_empty() => content,
        _ => &r.snippet,
    }
}

/// An image search: `1. Title — domain (W×H)` with the image, thumbnail and
/// page URLs on their own lines, so the model can cite or fetch either.
fn render_images(out: &mut String, response: &SearchResponse) {
    for (i, img) in response.images.iter().enumerate() {
        let title = one_line(&img.title);
        let title = if title.is_empty() {
            "(untitled)"
        } else {
            &title
        };
        let _ = write!(out, "{}. {} — {}", i + 1, title, img.domain);
        if let (Some(w), Some(h)) = (img.width, img.height) {
            let _ = write!(out, " ({w}×{h})");
        }
        let _ = write!(out, "\n   image: {}\n", img.image_url);
        if let Some(t) = &img.thumbnail_url {
            let _ = writeln!(out, "   thumbnail: {t}");
        }
        if let Some(p) = &img.page_url {
            let _ = writeln!(out, "   page: {p}");
        }
    }
    notes(out, response);
}

fn no_results(out: &mut String, response: &SearchResponse) {
    out.push_str(
        response
            .suggestion
            .as_deref()
            .unwrap_or(farsight_search::NO_RESULTS_SUGGESTION),
    );
    out.push('\n');
}

/// Which filters were not applied, and which providers failed before the one
/// that answered: the model should know both.
fn notes(out: &mut String, response: &SearchResponse) {
    if !response.unapplied_filters.is_empty() {
        let _ = write!(
            out,
            "\nNote: {} did not apply: {}.\n",
            response.search_engine,
            response.unapplied_filters.join(", ")
        );
    }
    if !response.attempts.is_empty() {
        let failed: Vec<String> = response
            .attempts
            .iter()
            .map(|a| format!("{} ({})", a.provider, a.error_kind))
            .collect();
        let _ = writeln!(
            out,
            "\nAnswered by {} after {} failed.",
            response.search_engine,
            failed.join(", ")
        );
    }
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Link text with the characters that would end or break a Markdown link escaped.
fn link_text(title: &str, domain: &str) -> String {
    let title = one_line(title);
    let title = if title.is_empty() {
        domain.to_owned()
    } else {
        title
    };
    let mut out = String::with_capacity(title.len());
    for c in title.chars() {
        if matches!(c, '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A link target that cannot end the Markdown link early.
fn link_target(url: &str) -> String {
    url.replace(' ', "%20")
        .replace('(', "%28")
        .replace(')', "%29")
}

#[cfg(test)]
mod tests {
    use super::*;
    use farsight_search::{Attempt, ErrorKind};

    fn response(with_content: bool) -> SearchResponse {
        let result = |n: u32, title: &str, url: &str, domain: &str, snippet: &str| SearchResult {
            title: title.to_owned(),
            url: url.to_owned(),
            snippet: snippet.to_owned(),
            domain: domain.to_owned(),
            date_published: (n == 1).then(|| "2025-01-15".to_owned()),
            score: None,
            content: with_content.then(|| {
                format!("Passage one of result {n}.\n\n[…]\n\nPassage two of result {n}.")
            }),
            content_error: None,
            providers: Vec::new(),
        };
        SearchResponse {
            query: "react native performance".to_owned(),
            total_results: 2,
            results: vec![
                result(
                    1,
                    "Performance Overview · React Native",
                    "https://reactnative.dev/docs/performance",
                    "reactnative.dev",
                    "Learn how to keep [60 fps] in your app.",
                ),
                result(
                    2,
                    "Optimizing Expo apps (2025)",
                    "https://docs.expo.dev/guides/optimizing (new)",
                    "expo.dev",
                    "Tips for\nfaster startup.",
                ),
            ],
            search_engine: "brave".to_owned(),
            search_time: 0.234,
            response_time_ms: 234,
            suggestion: None,
            attempts: vec![Attempt {
                provider: "tavily".to_owned(),
                error_kind: ErrorKind::RateLimited,
                message: "slow down".to_owned(),
            }],
            unapplied_filters: vec![],
            content_tokens: None,
            images: vec![],
        }
    }

    #[test]
    fn image_answers_list_image_thumbnail_and_page() {
        let mut r = response(false);
        r.results.clear();
        r.unapplied_filters = vec!["country".to_owned()];
        r.images = vec![farsight_search::ImageResult {
            title: "Eiffel Tower at night".to_owned(),
            image_url: "https://travel.example/img/eiffel.jpg".to_owned(),
            thumbnail_url: Some("https://imgs.example/t.jpg".to_owned()),
            width: Some(1600),
            height: Some(1200),
            page_url: Some("https://travel.example/paris".to_owned()),
            domain: "travel.example".to_owned(),
        }];
        let text = render_compact(&r);
        assert!(
            text.contains("1. Eiffel Tower at night — travel.example (1600×1200)"),
            "{text}"
        );
        assert!(
            text.contains("   image: https://travel.example/img/eiffel.jpg\n"),
            "{text}"
        );
        assert!(
            text.contains("   thumbnail: https://imgs.example/t.jpg\n"),
            "{text}"
        );
        assert!(
            text.contains("   page: https://travel.example/paris\n"),
            "{text}"
        );
        assert!(text.contains("did not apply: country"), "{text}");
        assert_eq!(render_full(&r), text);
    }

    #[test]
    fn compact_format() {
        insta::assert_snapshot!("compact", render_compact(&response(false)));
    }

    #[test]
    fn full_format() {
        insta::assert_snapshot!("full", render_full(&response(true)));
    }

    #[test]
    fn directive_formats() {
        insta::assert_snapshot!(
            "directive_basic",
            render_directive_answer(&response(false), SearchDepth::Basic)
        );
        insta::assert_snapshot!(
            "directive_deep",
            render_directive_answer(&response(true), SearchDepth::Deep)
        );
    }

    #[test]
    fn no_results_says_so() {
        let mut r = response(false);
        r.results.clear();
        r.attempts.clear();
        r.suggestion = Some(farsight_search::NO_RESULTS_SUGGESTION.to_owned());
        let text = render_compact(&r);
        assert!(text.contains("No results found. Try broader search terms or check spelling."));
    }
}
