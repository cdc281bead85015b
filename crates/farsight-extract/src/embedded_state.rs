//! The text a script framework embeds in a page for its scripts to build
//! the page from: Next.js's `__NEXT_DATA__` (`props.pageProps`), Nuxt's
//! `__NUXT_DATA__` (devalue's flat array), Angular's `ng-state`, and
//! JSON-LD's `articleBody`. A page whose HTML is an empty application shell
//! (`Shortfall::BuiltByScripts`) often holds its whole article there, and
//! reading it costs a JSON parse instead of a browser.
//!
//! The state is data, not a document: what reads as human text (strings of
//! several words, HTML strings) is kept in the order it comes, once each;
//! ids, URLs, class names, dates and short labels are dropped. The pieces
//! become a small HTML page of paragraphs (escaped) and HTML blocks (as
//! written) rendered by the extractor's own renderer, so their markup,
//! escaping and links are those of any page.
//!
//! Bounded: the JSON is walked once without being built (serde's visitor;
//! serde_json's nesting limit of 128 bounds the stack), at most
//! [`MAX_SCRIPTS`] state scripts are read, and gathering stops at
//! [`MAX_TEXT_BYTES`].

use std::collections::HashSet;
use std::fmt;

use dom_query::NodeRef;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::deadline::Deadline;
use crate::url_util::Resolver;
use crate::{Document, ExtractOptions, Format, clean, depth, extractor, parse, shortfall};

/// State scripts read at most on one page: a page has one or two; a page
/// with thousands is hostile.
const MAX_SCRIPTS: usize = 8;

/// Bytes of text gathered from one source at most: a long article is
/// 50-100 KB of text; past this the rest is not read (the answer is
/// windowed anyway).
const MAX_TEXT_BYTES: usize = 512 * 1024;

/// A string needs this many words to read as prose: fewer are labels,
/// button texts, names and titles.
const MIN_WORDS: usize = 5;

/// Text without spaces between words (Chinese, Japanese, Thai) reads as
/// prose from this many letters.
const MIN_UNSPACED_LETTERS: usize = 12;

/// Where a page keeps its state, and which part of it is the page's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Framework {
    /// `<script id="__NEXT_DATA__" type="application/json">`: the page's own
    /// data is `props.pageProps`; the rest is the build and the router.
    Next,
    /// `<script id="__NUXT_DATA__" type="application/json">`: devalue's flat
    /// array, whose strings come in the order the state was written.
    Nuxt,
    /// `<script id="ng-state" type="application/json">`: Angular's transfer
    /// state, the API answers the server rendered with.
    Angular,
}

impl Framework {
    /// The keys leading to the page's own data.
    fn path(self) -> &'static [&'static str] {
        match self {
            Self::Next => &["props", "pageProps"],
            Self::Nuxt | Self::Angular => &[],
        }
    }

    /// The framework whose state the `<script` tag `tag` (lower-cased, up to
    /// its `>`) holds, if any.
    fn of_tag(tag: &[u8]) -> Option<Self> {
        let id_is = |id: &str| {
            ["\"", "'", ""]
                .iter()
                .any(|q| contains(tag, format!("id={q}{id}{q}").as_bytes()))
        };
        if id_is("__next_data__") {
            Some(Self::Next)
        } else if id_is("__nuxt_data__") {
            Some(Self::Nuxt)
        } else if id_is("ng-state") {
            Some(Self::Angular)
        } else {
            None
        }
    }
}

/// A piece of human text found in the state.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    /// Words: escaped into paragraphs.
    Prose(String),
    /// An HTML string (a CMS body): rendered as the page's own markup.
    Html(String),
}

/// The content, and its links, that the page's embedded state holds, when
/// it holds enough to be the page's content (by the same measure as any
/// page: [`shortfall::judge`]). `raw` is the page as it came (the pre-parse
/// pass drops scripts), `article_body` its JSON-LD `articleBody`.
pub(crate) fn read(
    raw: &str,
    article_body: Option<&str>,
    options: &ExtractOptions,
    resolver: &Resolver,
    deadline: &Deadline,
) -> Option<Document> {
    // One source at a time, the first that is enough: the same article
    // in two sources (pageProps and articleBody) is not read twice.
    for (framework, json) in state_scripts(raw) {
        if deadline.expired() {
            return None;
        }
        let pieces = gather(json, framework.path());
        if let Some(doc) = rendered(&pieces, options, resolver, deadline) {
            return Some(doc);
        }
    }
    let body = article_body?;
    let mut collector = Collector::default();
    collector.take(body);
    rendered(&collector.pieces, options, resolver, deadline)
}

/// One string of a page's data (prose, or an HTML string) rendered as
/// content in the requested format, as [`read`] renders a state's pieces;
/// `None` when it does not read as text (an id, a URL, a label).
pub(crate) fn render_one(
    text: &str,
    options: &ExtractOptions,
    resolver: &Resolver,
    deadline: &Deadline,
) -> Option<String> {
    let mut collector = Collector::default();
    collector.take(text);
    if collector.pieces.is_empty() {
        return None;
    }
    let doc = finished(&collector.pieces, options, resolver, deadline);
    Some(doc.content).filter(|c| !c.trim().is_empty())
}

/// The state scripts of `raw` and their text, in page order.
fn state_scripts(raw: &str) -> Vec<(Framework, &str)> {
    let lower = raw.to_ascii_lowercase();
    let lower = lower.as_bytes();
    let mut found = Vec::new();
    let mut from = 0;
    while found.len() < MAX_SCRIPTS {
        let Some(at) = memchr::memmem::find(&lower[from..], b"<script").map(|i| from + i) else {
            break;
        };
        let Some(tag_end) = memchr::memchr(b'>', &lower[at..]).map(|i| at + i) else {
            break;
        };
        let body_start = tag_end + 1;
        let body_end = memchr::memmem::find(&lower[body_start..], b"</script")
            .map_or(lower.len(), |i| body_start + i);
        if let Some(framework) = Framework::of_tag(&lower[at..tag_end]) {
            // ASCII lower-casing keeps every byte offset, and `<`, `>` are
            // ASCII: both ends are character boundaries of `raw`.
            if let Some(json) = raw.get(body_start..body_end) {
                found.push((framework, json));
            }
        }
        // Past this script's body: a `<script` written inside it is text.
        from = body_end.max(body_start);
    }
    found
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(haystack, needle).is_some()
}

/// The human text in `json`'s value at `path`, in order. JSON that is not
/// valid gives what was read before the fault.
fn gather(json: &str, path: &'static [&'static str]) -> Vec<Piece> {
    let mut collector = Collector::default();
    let mut de = serde_json::Deserializer::from_str(json.trim());
    // An error is the fault or the collector being full: either way, what
    // was gathered is kept.
    let _ = Walk::root(&mut collector, path).deserialize(&mut de);
    collector.flush_run();
    collector.pieces
}

/// The pieces gathered so far, the strings already seen, the bytes, and
/// the run of rich-text spans being joined.
#[derive(Default)]
struct Collector {
    pieces: Vec<Piece>,
    seen: HashSet<String>,
    bytes: usize,
    /// Rich text (Sanity's portable text, Contentful's documents) writes a
    /// paragraph as an array of spans, `[{"text": "Every harbour "},
    /// {"text": "publishes", "marks": ["em"]}, ...]`: one span alone is too
    /// short to read as prose. The spans of one array are joined here (with
    /// the nesting depth of their array) and read as one string when the
    /// array ends.
    run: Option<(usize, String)>,
}

impl Collector {
    fn full(&self) -> bool {
        self.bytes >= MAX_TEXT_BYTES
    }

    /// Adds a span of the array whose items are at nesting `depth` to the
    /// run.
    fn span(&mut self, depth: usize, s: &str) {
        if self.run.as_ref().is_some_and(|(d, _)| *d != depth) {
            self.flush_run();
        }
        let (_, run) = self.run.get_or_insert_with(|| (depth, String::new()));
        // Items that are sentences of their own, not spans of one.
        if run.ends_with(['.', '!', '?']) && s.starts_with(char::is_uppercase) {
            run.push_str("\n\n");
        }
        if run.len() + s.len() <= MAX_TEXT_BYTES {
            run.push_str(s);
        }
    }

    /// Reads the run of the array whose items are at `depth` once it ends.
    fn end_array(&mut self, depth: usize) {
        if self.run.as_ref().is_some_and(|(d, _)| *d == depth) {
            self.flush_run();
        }
    }

    fn flush_run(&mut self) {
        if let Some((_, run)) = self.run.take() {
            self.take(&run);
        }
    }

    /// Keeps `s` when it reads as human text and was not seen yet (state
    /// repeats itself: a post in a list and in its page, in a cache).
    fn take(&mut self, s: &str) {
        let s = s.trim();
        let Some(is_html) = classify(s) else {
            return;
        };
        // A run of spans before it comes before it.
        if self.run.is_some() {
            self.flush_run();
        }
        if self.full() || !self.seen.insert(s.to_owned()) {
            return;
        }
        // One huge string is cut to what is left of the cap (an HTML string
        // cut inside a tag is still parsed as any page is).
        let s = &s[..s.floor_char_boundary(MAX_TEXT_BYTES - self.bytes)];
        self.bytes += s.len();
        self.pieces.push(if is_html {
            Piece::Html(s.to_owned())
        } else {
            Piece::Prose(s.to_owned())
        });
    }
}

/// `Some(true)` for an HTML string with text in it, `Some(false)` for prose,
/// `None` for anything else (ids, URLs, names, labels, code, CSS).
fn classify(s: &str) -> Option<bool> {
    let looks_like_html = s.contains('<')
        && s.contains('>')
        && (s.contains("</") || s.contains("<br") || s.contains("<p"));
    let text = if looks_like_html {
        std::borrow::Cow::Owned(crate::shortfall::text_between_tags(s, ' '))
    } else {
        if ["http://", "https://", "//", "/", "data:", "{", "["]
            .iter()
            .any(|p| s.starts_with(p))
            && !s.contains(' ')
        {
            return None;
        }
        std::borrow::Cow::Borrowed(s)
    };
    reads_as_prose(&text).then_some(looks_like_html)
}

/// Words, mostly letters, not code: `text` has [`MIN_WORDS`] words with
/// letters in them (or [`MIN_UNSPACED_LETTERS`] letters of a script written
/// without spaces), letters are most of its characters, and code's
/// punctuation is rare.
fn reads_as_prose(text: &str) -> bool {
    let (mut letters, mut unspaced, mut visible, mut code) = (0usize, 0usize, 0usize, 0usize);
    for c in text.chars() {
        if c.is_whitespace() {
            continue;
        }
        visible += 1;
        if c.is_alphabetic() {
            letters += 1;
            // Han, kana, Hangul, Thai: far above Latin and its accents.
            if u32::from(c) >= 0x0E00 {
                unspaced += 1;
            }
        } else if matches!(c, '{' | '}' | ';' | '=' | '<' | '>' | '_' | '\\' | '|') {
            code += 1;
        }
    }
    let (mut words, mut marked) = (0usize, 0usize);
    for word in text
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphabetic))
    {
        words += 1;
        // Class lists, keys and paths (`px-4`, `md:flex`, `a/b`, `x_y`):
        // prose hyphenates a word now and then, not most of them.
        if word.contains(['-', ':', '/', '_', '=']) || word.contains(|c: char| c.is_ascii_digit()) {
            marked += 1;
        }
    }
    let enough = words >= MIN_WORDS || unspaced >= MIN_UNSPACED_LETTERS;
    enough && letters * 10 >= visible * 6 && code * 20 <= visible && marked * 2 <= words
}

/// The pieces as a document in `options`' format, when that is content.
fn rendered(
    pieces: &[Piece],
    options: &ExtractOptions,
    resolver: &Resolver,
    deadline: &Deadline,
) -> Option<Document> {
    if pieces.is_empty() {
        return None;
    }
    let doc = finished(pieces, options, resolver, deadline);
    // Judged as any page's content is; no title to discount, and no page
    // to look for scripts in: enough or not, nothing else.
    shortfall::judge(&doc.content, options.format, None, None, "")
        .is_none()
        .then_some(doc)
}

/// The pieces rendered as a page's content is, in `options`' format.
fn finished(
    pieces: &[Piece],
    options: &ExtractOptions,
    resolver: &Resolver,
    deadline: &Deadline,
) -> Document {
    let dom = parse::parse(&depth::prepare(
        &as_html(pieces),
        depth::MAX_DEPTH,
        options.format != Format::Html,
    ));
    clean::remove_hidden(&dom);
    let body: Vec<NodeRef<'_>> = dom.body().into_iter().collect();
    let mut doc = Document::default();
    extractor::finish(&mut doc, &body, options, resolver, deadline);
    doc
}

/// The pieces as the body of an HTML page: prose escaped into paragraphs
/// (blank lines part them, line breaks stay), HTML strings as written.
fn as_html(pieces: &[Piece]) -> String {
    let mut page = String::from("<html><body>");
    for piece in pieces {
        match piece {
            Piece::Prose(text) => {
                for paragraph in text.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
                    page.push_str("<p>");
                    for (i, line) in paragraph.lines().enumerate() {
                        if i > 0 {
                            page.push_str("<br>");
                        }
                        push_escaped(&mut page, line);
                    }
                    page.push_str("</p>");
                }
            }
            // Its own block: an unclosed tag in one string does not swallow
            // the next.
            Piece::Html(html) => {
                page.push_str("<div>");
                page.push_str(html);
                page.push_str("</div>");
            }
        }
    }
    page.push_str("</body></html>");
    page
}

fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
}

/// A walk of a JSON value that hands its strings to the collector: all of
/// them once `path` is empty, else only those under `path`'s next key.
struct Walk<'c> {
    collector: &'c mut Collector,
    path: &'static [&'static str],
    /// Arrays around this value.
    depth: usize,
    /// This value is an array's item (at `depth - 1`).
    item: bool,
    /// This value is a span's text: the `text` or `value` of an object that
    /// is an item of an array, whose items are at this depth.
    span_of: Option<usize>,
}

/// The keys of a rich-text span's text: Sanity, Prismic, Storyblok and
/// Slate write `text`, Contentful writes `value`.
const SPAN_KEYS: [&str; 2] = ["text", "value"];

impl<'c> Walk<'c> {
    fn root(collector: &'c mut Collector, path: &'static [&'static str]) -> Self {
        Walk {
            collector,
            path,
            depth: 0,
            item: false,
            span_of: None,
        }
    }

    /// The walk of a value inside this one.
    fn inner(
        &mut self,
        path: &'static [&'static str],
        item: bool,
        span_of: Option<usize>,
    ) -> Walk<'_> {
        Walk {
            collector: &mut *self.collector,
            path,
            depth: self.depth + usize::from(item),
            item,
            span_of,
        }
    }
}

/// Stops the walk once enough text is gathered.
const FULL: &str = "enough text gathered";

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        if self.path.is_empty() {
            match self.span_of {
                Some(depth) => self.collector.span(depth, v),
                None => self.collector.take(v),
            }
            if self.collector.full() {
                return Err(E::custom(FULL));
            }
        }
        Ok(())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        if !self.path.is_empty() {
            // Not on the way to the page's data.
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            return Ok(());
        }
        while seq
            .next_element_seed(self.inner(&[], true, None))?
            .is_some()
        {}
        // Its items (and their spans) are one level deeper.
        self.collector.end_array(self.depth + 1);
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match self.path.split_first() {
                Some((next, rest)) if key == *next => {
                    map.next_value_seed(self.inner(rest, false, None))?;
                }
                Some(_) => {
                    map.next_value::<IgnoredAny>()?;
                }
                None => {
                    // An object in an array holding its text under a span
                    // key is a span of that array's run.
                    let span_of =
                        (self.item && SPAN_KEYS.contains(&key.as_ref())).then_some(self.depth);
                    map.next_value_seed(self.inner(&[], false, span_of))?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARAGRAPH: &str = "Tides rise and fall twice a day because the moon pulls the oceans \
        towards it, and the earth turns beneath that bulge of water.";

    fn prose(s: &str) -> Piece {
        Piece::Prose(s.to_owned())
    }

    #[test]
    fn next_data_is_read_under_page_props_only() {
        let json = format!(
            r#"{{"props":{{"pageProps":{{"id":"a1b2","slug":"tides","title":"Tides",
            "url":"https://e.x/tides","body":"{PARAGRAPH}","tags":["sea","moon"]}},
            "__N_SSP":true}},"page":"/[slug]","buildId":"Build id that reads like a sentence of words",
            "runtimeConfig":{{"note":"A configuration note long enough to read as prose here"}}}}"#
        );
        assert_eq!(gather(&json, Framework::Next.path()), [prose(PARAGRAPH)]);
    }

    #[test]
    fn nuxt_devalue_strings_come_in_order_once() {
        let json = format!(
            r#"[["ShallowReactive",1],{{"data":2,"state":5}},["ShallowReactive",3],
            {{"post":4}},"<p>The first paragraph of the post, with <a href=\"/x\">a link</a> in it.</p>",
            {{}},"{PARAGRAPH}","{PARAGRAPH}","2024-05-01T10:00:00Z","Reactive"]"#
        );
        assert_eq!(
            gather(&json, &[]),
            [
                Piece::Html(
                    "<p>The first paragraph of the post, with <a href=\"/x\">a link</a> in it.</p>"
                        .to_owned()
                ),
                prose(PARAGRAPH),
            ]
        );
    }

    #[test]
    fn rich_text_spans_are_joined_into_their_paragraph() {
        // Sanity's portable text: one block per paragraph, its words in spans.
        let sanity = r#"{"props":{"pageProps":{"body":[
            {"_type":"block","_key":"a1","style":"normal","markDefs":[],"children":[
              {"_type":"span","_key":"s1","text":"Every harbour publishes a ","marks":[]},
              {"_type":"span","_key":"s2","text":"tide table","marks":["strong"]},
              {"_type":"span","_key":"s3","text":", and a skipper reads it first.","marks":[]}]},
            {"_type":"block","_key":"a2","style":"normal","children":[
              {"_type":"span","text":"Slack water comes twice ","marks":["em"]},
              {"_type":"span","text":"a day, around each turn of the tide.","marks":[]}]}]}}}"#;
        assert_eq!(
            gather(sanity, Framework::Next.path()),
            [
                prose("Every harbour publishes a tide table, and a skipper reads it first."),
                prose("Slack water comes twice a day, around each turn of the tide."),
            ]
        );
        // Contentful's rich text: `value` in text nodes.
        let contentful = r#"[{"nodeType":"document","content":[
            {"nodeType":"paragraph","content":[
              {"nodeType":"text","value":"Open the hive ","marks":[]},
              {"nodeType":"text","value":"as little as possible","marks":[{"type":"bold"}]},
              {"nodeType":"text","value":" in the cold months.","marks":[]}]}]}]"#;
        assert_eq!(
            gather(contentful, &[]),
            [prose(
                "Open the hive as little as possible in the cold months."
            )]
        );
        // Items that are sentences of their own stay apart, in order with
        // the strings around them.
        let items = format!(
            r#"[{{"q":"{PARAGRAPH}"}},{{"text":"One answer that is a sentence."}},
            {{"text":"Another answer that is a sentence."}},{{"q":"A last question of several words here?"}}]"#
        );
        assert_eq!(
            gather(&items, &[]),
            [
                prose(PARAGRAPH),
                prose("One answer that is a sentence.\n\nAnother answer that is a sentence."),
                prose("A last question of several words here?"),
            ]
        );
    }

    #[test]
    fn what_is_not_prose() {
        for no in [
            "a1b2c3d4-e5f6-7890-abcd-ef1234567890",
            "https://example.com/a/long/path/to/an/image.jpg",
            "/static/chunks/pages/index-3f2a.js",
            "Read more",
            "flex items-center justify-between px-4 py-2",
            "color: red; margin: 0 auto; padding: 0; display: block;",
            "function(a){return a.b=c;} var x = {y: 1};",
            "2024-05-01T10:00:00Z",
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0",
        ] {
            assert_eq!(classify(no), None, "{no}");
        }
        assert_eq!(classify(PARAGRAPH), Some(false));
        assert_eq!(
            classify("潮汐每天涨落两次，这是因为月球的引力。"),
            Some(false)
        );
        assert_eq!(
            classify("<p>A paragraph of several words in HTML.</p>"),
            Some(true)
        );
        assert_eq!(classify("<p><img src=x></p>"), None);
    }

    #[test]
    fn state_scripts_are_found_by_id_in_any_case_and_quoting() {
        let page = r#"<html><head><script src="/a.js"></script>
            <SCRIPT type="application/json" ID='__NEXT_DATA__'>{"props":{}}</SCRIPT>
            <script id=__NUXT_DATA__ type="application/json">[1]</script>
            <script type="application/json" id="other">{"x":1}</script>
            <script id="ng-state" type="application/json">{"y":2}</script>"#;
        let found: Vec<_> = state_scripts(page).into_iter().collect();
        assert_eq!(
            found,
            [
                (Framework::Next, r#"{"props":{}}"#),
                (Framework::Nuxt, "[1]"),
                (Framework::Angular, r#"{"y":2}"#),
            ]
        );
    }

    #[test]
    fn hostile_state_is_bounded() {
        // Deeper than serde_json's limit: nothing read, no stack overflow.
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(gather(&deep, &[]).is_empty());
        // Megabytes of distinct prose: gathering stops at its cap.
        let many: Vec<String> = (0..40_000)
            .map(|i| format!("\"Sentence number {i} of a very long state that goes on\""))
            .collect();
        let json = format!("[{}]", many.join(","));
        let pieces = gather(&json, &[]);
        let bytes: usize = pieces
            .iter()
            .map(|p| match p {
                Piece::Prose(s) | Piece::Html(s) => s.len(),
            })
            .sum();
        assert!(bytes <= MAX_TEXT_BYTES + 100, "{bytes}");
        assert!(pieces.len() < 40_000);
        // One string of megabytes is cut to the cap.
        let huge = format!(
            "[\"{}\"]",
            "Words of one endless paragraph. ".repeat(100_000)
        );
        match gather(&huge, &[]).as_slice() {
            [Piece::Prose(s)] => assert!(s.len() <= MAX_TEXT_BYTES, "{}", s.len()),
            other => panic!("{}", other.len()),
        }
        // Broken JSON keeps what came before the fault.
        let broken = format!(r#"["{PARAGRAPH}", {{"a": "#);
        assert_eq!(gather(&broken, &[]), [prose(PARAGRAPH)]);
        // Thousands of state scripts: a few are read.
        let scripts = r#"<script id="__NUXT_DATA__">[]</script>"#.repeat(10_000);
        assert_eq!(state_scripts(&scripts).len(), MAX_SCRIPTS);
    }

    #[test]
    fn prose_is_escaped_and_html_is_rendered() {
        let pieces = [
            prose(&format!(
                "{PARAGRAPH}\n\nA second paragraph <b>not bold</b> [not a link](x) of words."
            )),
            Piece::Html(
                "<h2>Low tide</h2><p>At low tide the <a href=\"/pools\">rock pools</a> show crabs \
                 and anemones.</p><script>alert(1)</script>"
                    .to_owned(),
            ),
        ];
        let options = ExtractOptions::new(Format::Markdown).include_links(true);
        let resolver = Resolver::new(Some("https://e.x/tides"), None);
        let doc = rendered(&pieces, &options, &resolver, &Deadline::new(None)).unwrap();
        assert_eq!(
            doc.content,
            format!(
                "{PARAGRAPH}\n\nA second paragraph \\<b>not bold\\</b> \\[not a link\\](x) of \
                 words.\n\n## Low tide\n\nAt low tide the [rock pools](https://e.x/pools) show \
                 crabs and anemones."
            )
        );
        assert_eq!(doc.links.len(), 1);
        // Too little is no content.
        let little = [prose("Just one short sentence of words here.")];
        assert!(rendered(&little, &options, &resolver, &Deadline::new(None)).is_none());
    }
}
