//! Pages that are text but not HTML, read by what they are: a feed becomes
//! a list of its items, JSON is pretty-printed, Markdown is returned
//! without its raw HTML, source code comes back in a fenced block with its
//! language. Anything else is returned as it came.

use crate::{Document, ExtractOptions, Format, feed, json_text, markdown_text, source_text};

/// What a text page is, as farsight read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TextKind {
    /// RSS, Atom or JSON Feed: the feed's title and its items, newest first.
    Feed,
    /// JSON, pretty-printed.
    Json,
    /// Markdown, without raw HTML.
    Markdown,
    /// Source code in the named language (`python`, `rust`...).
    Source(&'static str),
    /// Anything else, as it came (also a feed or JSON that could not be
    /// read as one).
    Plain,
}

/// A text page as a document, and what it was read as.
#[derive(Debug, Clone, PartialEq)]
pub struct TextDocument {
    /// What the text was read as.
    pub kind: TextKind,
    /// The content (and for a feed its title, metadata and item links).
    pub document: Document,
}

/// Reads a text page of media type `essence` (lower case, no parameters;
/// empty when unknown) fetched from [`ExtractOptions::base_url`], in
/// [`ExtractOptions::format`]: feeds are listed in Markdown, or as plain
/// text for [`Format::Text`]; source code is fenced in Markdown only.
/// Never fails: what cannot be read as its kind comes back as it is.
pub fn read_text(body: &str, essence: &str, options: &ExtractOptions) -> TextDocument {
    let url = options.base_url.as_deref();
    let as_is = |kind| TextDocument {
        kind,
        document: Document {
            content: body.to_owned(),
            ..Document::default()
        },
    };
    let generic = matches!(essence, "" | "text/plain" | "application/octet-stream");
    if feed::is_feed(essence, body) {
        return match feed::read(body, url, options.format) {
            Some(document) => TextDocument {
                kind: TextKind::Feed,
                document,
            },
            None => as_is(TextKind::Plain),
        };
    }
    let extension = url.and_then(file_extension);
    let is_json = matches!(essence, "application/json" | "text/json" | "text/x-json")
        || essence.ends_with("+json")
        || (generic && extension.as_deref() == Some("json"));
    if is_json {
        return match json_text::pretty(body) {
            Some(content) => TextDocument {
                kind: TextKind::Json,
                document: Document {
                    content,
                    ..Document::default()
                },
            },
            None => as_is(TextKind::Plain),
        };
    }
    let is_markdown = is_markdown_type(essence)
        || (generic && matches!(extension.as_deref(), Some("md" | "markdown" | "mdown")));
    if is_markdown {
        return TextDocument {
            kind: TextKind::Markdown,
            document: Document {
                content: markdown_text::sanitize(body, url),
                ..Document::default()
            },
        };
    }
    let language = source_text::language(essence, if generic { url } else { None });
    if let Some(language) = language {
        let content = match options.format {
            Format::Markdown => source_text::fenced(body, language),
            _ => body.to_owned(),
        };
        return TextDocument {
            kind: TextKind::Source(language),
            document: Document {
                content,
                ..Document::default()
            },
        };
    }
    as_is(TextKind::Plain)
}

/// Whether a media type is Markdown's: `text/markdown` (RFC 7763) or the
/// older `text/x-markdown`, in any case, with or without parameters.
pub fn is_markdown_type(media_type: &str) -> bool {
    let essence = media_type.split(';').next().unwrap_or_default().trim();
    essence.eq_ignore_ascii_case("text/markdown") || essence.eq_ignore_ascii_case("text/x-markdown")
}

/// The lower-case extension of the URL's file name, if it has one.
fn file_extension(url: &str) -> Option<String> {
    let path = url.split(['?', '#']).next()?;
    let name = path.rsplit('/').next()?;
    let (stem, ext) = name.rsplit_once('.')?;
    (!stem.is_empty()).then(|| ext.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(body: &str, essence: &str, url: &str, format: Format) -> TextDocument {
        read_text(body, essence, &ExtractOptions::new(format).base_url(url))
    }

    #[test]
    fn each_kind_by_type_or_file_name() {
        let md = Format::Markdown;
        let kind = |body: &str, essence: &str, url: &str| read(body, essence, url, md).kind;
        assert_eq!(
            kind("{\"a\":1}", "application/json", "https://e.x/a"),
            TextKind::Json
        );
        assert_eq!(
            kind("{\"a\":1}", "application/problem+json", "https://e.x/a"),
            TextKind::Json
        );
        assert_eq!(
            kind("{\"a\":1}", "text/plain", "https://e.x/data.json"),
            TextKind::Json
        );
        assert_eq!(
            kind("# T", "text/markdown", "https://e.x/a"),
            TextKind::Markdown
        );
        assert_eq!(
            kind("# T", "text/plain", "https://e.x/README.md"),
            TextKind::Markdown
        );
        assert_eq!(
            kind("fn main() {}", "text/plain", "https://e.x/main.rs"),
            TextKind::Source("rust")
        );
        assert_eq!(
            kind("x = 1", "text/x-python", "https://e.x/run"),
            TextKind::Source("python")
        );
        assert_eq!(
            kind(
                "<rss version=\"2.0\"><channel><title>T</title></channel></rss>",
                "text/xml",
                "https://e.x/f"
            ),
            TextKind::Feed
        );
        // A CSV named .py by a server that says it is CSV is CSV.
        assert_eq!(kind("a,b", "text/csv", "https://e.x/x.py"), TextKind::Plain);
        assert_eq!(
            kind("just words", "text/plain", "https://e.x/notes.txt"),
            TextKind::Plain
        );
    }

    #[test]
    fn what_cannot_be_read_as_its_kind_comes_back_as_it_is() {
        for (body, essence) in [
            ("{\"a\":", "application/json"),
            ("<rss version=\"2.0\"><chan", "application/rss+xml"),
        ] {
            let r = read(body, essence, "https://e.x/a", Format::Markdown);
            assert_eq!(r.kind, TextKind::Plain, "{body}");
            assert_eq!(r.document.content, body);
        }
    }

    #[test]
    fn source_is_fenced_in_markdown_only() {
        let code = "echo ```hi```\n";
        let r = read(
            code,
            "application/x-sh",
            "https://e.x/run.sh",
            Format::Markdown,
        );
        assert_eq!(r.document.content, "````bash\necho ```hi```\n````");
        let r = read(code, "application/x-sh", "https://e.x/run.sh", Format::Text);
        assert_eq!(r.document.content, code);
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Whatever a server sends under whatever type, reading it returns.
        #[test]
        fn reading_never_panics(
            body in "(<rss version=\"2.0\">|<feed>|\\{\"version\":\"https://jsonfeed.org/version/1\"|<div>|\\[|`|\\{|<|&|[a-z \n\\]\\[(){}\":,])*",
            essence in prop::sample::select(vec![
                "application/rss+xml", "application/atom+xml", "application/feed+json",
                "application/json", "text/xml", "text/markdown", "text/plain", "text/x-python", "",
            ]),
        ) {
            let _ = read_text(&body, essence, &ExtractOptions::new(Format::Markdown).base_url("https://e.x/a.md"));
        }
    }
}
