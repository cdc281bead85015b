//! RSS, Atom and JSON Feed as a readable document: the feed's title and a
//! list of its items, newest first, each with its title as a link, its
//! date, its author and its summary as text. feed-rs parses the formats;
//! this file decides what is a feed and how it reads.

use std::cmp::Reverse;

use chrono::{DateTime, Utc};
use feed_rs::model::{Entry, Feed, Link as FeedLink, Text};

use crate::escape;
use crate::fragment::{cap_chars, one_line, one_markdown_line};
use crate::url_util::Resolver;
use crate::{Document, Format, Link, Metadata};

/// Items listed: feeds carry ten to a hundred; a feed of 100,000 items is
/// listed up to here, newest first, and the answer says how many more.
const MAX_ITEMS: usize = 200;
/// Characters of an item's summary: enough to say what the item is about;
/// the item's page has the rest.
const MAX_SUMMARY: usize = 500;
/// Characters of the feed's own description.
const MAX_DESCRIPTION: usize = 1_000;
/// How far into the body the root element is looked for (after the XML
/// declaration, comments, a doctype).
const SNIFF_BYTES: usize = 4 * 1024;

/// Whether a text of this media type is a feed: by the feed types, or for
/// generic XML, JSON and text by its root element (`<rss>`, `<feed>`, RSS
/// 1.0's `<rdf:RDF>`) or JSON Feed's `version`.
pub(crate) fn is_feed(essence: &str, body: &str) -> bool {
    match essence {
        "application/rss+xml"
        | "application/atom+xml"
        | "application/feed+json"
        | "application/x-rss+xml"
        | "application/rss+json" => true,
        e if e.ends_with("xml") => xml_root_is_feed(body),
        e if e.ends_with("json") => json_is_feed(body),
        "text/plain" | "" => xml_root_is_feed(body) || json_is_feed(body),
        _ => false,
    }
}

/// The body's first bytes, cut at a character boundary.
fn head(body: &str) -> &str {
    let mut end = body.len().min(SNIFF_BYTES);
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    &body[..end]
}

fn xml_root_is_feed(body: &str) -> bool {
    let mut rest = head(body).trim_start_matches('\u{feff}');
    // Skip the declaration, processing instructions, comments and a doctype.
    loop {
        rest = rest.trim_start();
        let close = if rest.starts_with("<?") {
            "?>"
        } else if rest.starts_with("<!--") {
            "-->"
        } else if rest.starts_with("<!") {
            ">"
        } else {
            break;
        };
        match rest.find(close) {
            Some(i) => rest = &rest[i + close.len()..],
            None => return false,
        }
    }
    let Some(tag) = rest.strip_prefix('<') else {
        return false;
    };
    let name: String = tag
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '>' && *c != '/')
        .collect();
    match name.as_str() {
        "rss" | "feed" | "atom:feed" => true,
        // Any RDF document has this root; RSS 1.0 names its namespace.
        "rdf:RDF" => body.contains("purl.org/rss/1.0"),
        _ => false,
    }
}

fn json_is_feed(body: &str) -> bool {
    let h = head(body);
    h.trim_start().starts_with('{') && h.contains("jsonfeed.org/version")
}

/// The feed in `body` as a document in `format` (Markdown, or plain text
/// for [`Format::Text`]), or `None` when feed-rs cannot read it.
pub(crate) fn read(body: &str, base_url: Option<&str>, format: Format) -> Option<Document> {
    let parser = feed_rs::parser::Builder::new()
        .base_uri(base_url)
        // Items need no ids here: skip hashing every item's link and title.
        .id_generator(|_, _, _| String::new())
        .build();
    let feed = parser
        .parse(without_xml_declaration(body).as_bytes())
        .ok()?;
    Some(document(feed, base_url, format == Format::Text))
}

/// The body is already UTF-8 (the fetcher decoded it); an XML declaration
/// naming another encoding would make feed-rs decode it a second time.
fn without_xml_declaration(body: &str) -> &str {
    let trimmed = body.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with("<?xml")
        && let Some(end) = trimmed.find("?>")
    {
        return &trimmed[end + 2..];
    }
    body
}

fn document(feed: Feed, base_url: Option<&str>, text: bool) -> Document {
    let resolver = Resolver::new(base_url, None);
    let line = |t: &str| {
        if text {
            one_line(t)
        } else {
            one_markdown_line(t)
        }
    };
    let title = feed
        .title
        .as_ref()
        .map(|t| one_line(&t.content))
        .filter(|t| !t.is_empty());
    let description = feed
        .description
        .as_ref()
        .map(|d| cap_chars(&one_line(&d.content), MAX_DESCRIPTION))
        .filter(|d| !d.is_empty());
    let site_url = site_link(&feed.links).and_then(|l| resolver.link(&l.href));

    let mut entries = feed.entries;
    let total = entries.len();
    // Newest first; undated items after the dated ones, in feed order.
    entries.sort_by_key(|e| Reverse(date_of(e)));
    let mut out = String::new();
    if let Some(t) = &title {
        if text {
            out.push_str(t);
        } else {
            out.push_str("# ");
            out.push_str(&line(t));
        }
        out.push_str("\n\n");
    }
    if let Some(d) = &description {
        out.push_str(&if text { d.clone() } else { line(d) });
        out.push_str("\n\n");
    }
    let mut links = Vec::new();
    for entry in entries.iter().take(MAX_ITEMS) {
        let item = Item::of(entry, &resolver);
        if let (Some(url), Some(t)) = (&item.url, &item.title) {
            links.push(Link {
                text: one_line(t),
                url: url.clone(),
            });
        }
        item.write(&mut out, text);
    }
    if total > MAX_ITEMS {
        out.push_str(&format!(
            "\n{} more items in the feed are not listed (the newest {MAX_ITEMS} are).\n",
            total - MAX_ITEMS
        ));
    }
    if total == 0 {
        out.push_str("The feed has no items.\n");
    }
    Document {
        title,
        content: out.trim_end().to_owned(),
        metadata: Metadata {
            description,
            author: names(&feed.authors),
            date_published: feed
                .updated
                .or(feed.published)
                .map(|d| d.format("%Y-%m-%d").to_string()),
            site_name: None,
            language: feed.language,
            canonical_url: None,
            site_url,
            markdown_url: None,
        },
        links,
        ..Document::default()
    }
}

/// The link to the feed's site: Atom's `alternate` (or a link without a
/// `rel`), not its `self`.
fn site_link(links: &[FeedLink]) -> Option<&FeedLink> {
    links
        .iter()
        .find(|l| matches!(l.rel.as_deref(), None | Some("alternate")))
}

fn date_of(e: &Entry) -> Option<DateTime<Utc>> {
    e.published.or(e.updated)
}

fn names(people: &[feed_rs::model::Person]) -> Option<String> {
    let names: Vec<String> = people
        .iter()
        .filter_map(|p| {
            let name = one_line(p.name.as_deref()?);
            // RSS writes `jane@x.example (Jane Doe)`; feed-rs keeps the
            // parentheses of the name.
            let name = name
                .strip_prefix('(')
                .and_then(|n| n.strip_suffix(')'))
                .map_or(name.clone(), str::to_owned);
            (!name.is_empty()).then_some(name)
        })
        .collect();
    (!names.is_empty()).then(|| names.join(", "))
}

/// One item as it reads.
struct Item {
    title: Option<String>,
    url: Option<String>,
    date: Option<String>,
    author: Option<String>,
    /// HTML or text, as the feed gave it.
    summary: Option<String>,
}

impl Item {
    fn of(e: &Entry, resolver: &Resolver) -> Self {
        let text = |t: &Option<Text>| t.as_ref().map(|t| t.content.clone());
        Item {
            title: text(&e.title).filter(|t| !one_line(t).is_empty()),
            url: site_link(&e.links)
                .or(e.links.first())
                .and_then(|l| resolver.link(&l.href)),
            date: date_of(e).map(|d| d.format("%Y-%m-%d").to_string()),
            author: names(&e.authors),
            summary: text(&e.summary).or_else(|| e.content.as_ref().and_then(|c| c.body.clone())),
        }
    }

    fn write(&self, out: &mut String, text: bool) {
        let line = |t: &str| {
            if text {
                one_line(t)
            } else {
                one_markdown_line(t)
            }
        };
        let title = self
            .title
            .as_deref()
            .map(line)
            .unwrap_or_else(|| "(untitled)".to_owned());
        out.push_str("- ");
        match (&self.url, text) {
            (Some(url), false) => {
                out.push_str(&format!("[{title}]({})", escape::escape_url(url)));
            }
            (Some(url), true) => out.push_str(&format!("{title} ({url})")),
            (None, _) => out.push_str(&title),
        }
        let facts: Vec<String> = [self.date.clone(), self.author.as_deref().map(line)]
            .into_iter()
            .flatten()
            .collect();
        if !facts.is_empty() {
            out.push_str(" — ");
            out.push_str(&facts.join(" · "));
        }
        out.push('\n');
        if let Some(summary) = self
            .summary
            .as_deref()
            .map(|s| cap_chars(&line(s), MAX_SUMMARY))
            .filter(|s| !s.is_empty())
        {
            out.push_str("  ");
            out.push_str(&summary);
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feeds_are_known_by_type_root_or_version() {
        assert!(is_feed("application/rss+xml", ""));
        assert!(is_feed("application/feed+json", ""));
        let rss = "\u{feff}<?xml version=\"1.0\"?>\n<!-- c --><?xml-stylesheet href=\"s.xsl\"?>\n<!DOCTYPE rss>\n<rss version=\"2.0\">";
        assert!(is_feed("text/xml", rss));
        assert!(is_feed(
            "application/xml",
            "<feed xmlns=\"http://www.w3.org/2005/Atom\">"
        ));
        assert!(is_feed(
            "application/rdf+xml",
            "<rdf:RDF xmlns=\"http://purl.org/rss/1.0/\">"
        ));
        assert!(!is_feed("application/xml", "<rdf:RDF xmlns:foaf=\"x\">"));
        assert!(!is_feed("application/xml", "<svg><rss/></svg>"));
        assert!(is_feed(
            "application/json",
            r#"{"version": "https://jsonfeed.org/version/1.1", "items": []}"#
        ));
        assert!(!is_feed("application/json", r#"{"version": "2"}"#));
        assert!(!is_feed("text/markdown", "<rss>"));
    }

    #[test]
    fn a_declared_encoding_does_not_decode_twice() {
        let body = "<?xml version=\"1.0\" encoding=\"windows-1252\"?><rss version=\"2.0\"><channel>\
                    <title>Crème brûlée</title></channel></rss>";
        let doc = read(body, None, Format::Markdown).unwrap();
        assert_eq!(doc.title.as_deref(), Some("Crème brûlée"));
        assert!(
            doc.content.contains("The feed has no items."),
            "{}",
            doc.content
        );
    }

    #[test]
    fn markdown_in_titles_is_escaped_and_links_are_checked() {
        let body = "<rss version=\"2.0\"><channel><title>T</title>\
                    <item><title>[click](https://evil.example) *now*</title><link>javascript:alert(1)</link></item>\
                    <item><title>Relative</title><link>/a b</link></item></channel></rss>";
        let doc = read(body, Some("https://e.x/feed"), Format::Markdown).unwrap();
        assert!(
            doc.content
                .contains("- \\[click\\](https://evil.example) \\*now\\*\n"),
            "{}",
            doc.content
        );
        assert!(
            doc.content.contains("- [Relative](https://e.x/a%20b)"),
            "{}",
            doc.content
        );
    }

    #[test]
    fn a_hundred_thousand_items_are_listed_up_to_the_cap() {
        let items: String = (0..100_000)
            .map(|i| {
                format!(
                    "<item><title>Item {i}</title><link>https://m.example/{i}</link>\
                     <description>{}</description></item>",
                    "word ".repeat(if i == 0 { 10_000 } else { 3 })
                )
            })
            .collect();
        let body =
            format!("<rss version=\"2.0\"><channel><title>Many</title>{items}</channel></rss>");
        let doc = read(&body, None, Format::Markdown).unwrap();
        let listed = doc
            .content
            .lines()
            .filter(|l| l.starts_with("- [Item "))
            .count();
        assert_eq!(listed, MAX_ITEMS);
        assert_eq!(doc.links.len(), MAX_ITEMS);
        assert!(
            doc.content
                .ends_with("99800 more items in the feed are not listed (the newest 200 are).")
        );
        let longest = doc
            .content
            .lines()
            .map(|l| l.chars().count())
            .max()
            .unwrap();
        assert!(longest <= MAX_SUMMARY + 3, "{longest}");
    }

    #[test]
    fn not_a_feed_is_none() {
        assert!(
            read(
                "<rss version=\"2.0\"><channel><title>cut",
                None,
                Format::Markdown
            )
            .is_none()
        );
        assert!(
            read(
                "{\"version\": \"https://jsonfeed.org/version/1\"",
                None,
                Format::Markdown
            )
            .is_none()
        );
    }
}
