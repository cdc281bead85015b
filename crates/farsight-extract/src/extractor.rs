//! Main-content extraction.

use crate::{Document, ExtractOptions, Format, Metadata};

/// Extracts the main content (or the selector's matches) of `html`.
///
/// Never panics and never fails: a page without content gives an empty
/// `content` and `likely_needs_javascript`.
pub fn extract(html: &str, options: &ExtractOptions) -> Document {
    let cfg = dom_smoothie::Config {
        text_mode: match options.format {
            Format::Markdown => dom_smoothie::TextMode::Markdown,
            Format::Text | Format::Html => dom_smoothie::TextMode::Formatted,
        },
        ..Default::default()
    };
    let Ok(mut readability) =
        dom_smoothie::Readability::new(html, options.base_url.as_deref(), Some(cfg))
    else {
        return Document {
            likely_needs_javascript: true,
            ..Document::default()
        };
    };
    match readability.parse() {
        Ok(article) => {
            let content = match options.format {
                Format::Html => article.content.to_string(),
                _ => article.text_content.trim().to_string(),
            };
            Document {
                title: Some(article.title).filter(|t| !t.is_empty()),
                likely_needs_javascript: content.is_empty(),
                content,
                metadata: Metadata {
                    description: article.excerpt,
                    author: article.byline,
                    date_published: article.published_time,
                    site_name: article.site_name,
                    language: article.lang,
                    canonical_url: article.url,
                },
                ..Document::default()
            }
        }
        Err(_) => Document {
            title: Some(readability.get_article_title().to_string()).filter(|t| !t.is_empty()),
            likely_needs_javascript: true,
            ..Document::default()
        },
    }
}
