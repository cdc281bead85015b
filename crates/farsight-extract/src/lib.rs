//! Main-content extraction for farsight: HTML text and a base URL in, a
//! [`Document`] out, rendered as Markdown, plain text or sanitised HTML.
//!
//! Pure and synchronous: no I/O, no async. The caller decodes bytes to text
//! (farsight-net does charsets) and runs this on a blocking thread.
//!
//! ```
//! use farsight_extract::{extract, ExtractOptions, Format};
//!
//! let html = "<html><head><title>Hi</title></head><body><article><h1>Hi</h1>\
//!             <p>Some words that make a paragraph long enough to count as content \
//!             for any reasonable extractor out there, repeated twice. Some words \
//!             that make a paragraph long enough to count as content.</p></article></body></html>";
//! let doc = extract(html, &ExtractOptions::new(Format::Text));
//! assert!(doc.content.contains("Some words"));
//! ```
#![deny(missing_docs)]

mod archive;
mod boilerplate;
mod byline;
mod cards;
mod char_count;
mod clean;
mod consent;
mod content;
pub mod date;
mod deadline;
mod density;
mod depth;
mod document;
mod embedded_state;
mod escape;
mod extractor;
mod fasthash;
mod feed;
mod flat;
mod footer_only;
mod fragment;
mod inner;
mod json_text;
mod jsonld;
mod kind;
mod links;
mod listicle;
mod markdown_text;
mod math;
mod metadata;
mod own_article;
mod parse;
mod passage;
mod passes;
mod paywall;
mod posts;
mod product_text;
mod readability;
mod recommendations;
mod region;
mod render;
mod reordered;
mod repeats;
mod sanitize;
mod selector;
mod shortfall;
mod source_text;
mod streamed;
mod structured;
mod structured_read;
mod table;
mod tag;
mod text_kinds;
mod threads;
mod trailing;
mod url_util;
mod walk;
mod words;

pub use document::{Document, Engine, ExtractOptions, Format, Link, Metadata, Shortfall};
pub use extractor::extract;
pub use structured::{
    Article, BreadcrumbList, Crumb, Event, Faq, FaqPage, Offer, Organization, Person, Product,
    Rating, Recipe, StructuredData, StructuredItem, VideoObject,
};
pub use text_kinds::{TextDocument, TextKind, is_markdown_type, read_text};

/// The depth the pre-parse pass caps elements at, for its fuzz target.
#[doc(hidden)]
pub const PREPARE_MAX_DEPTH: usize = depth::MAX_DEPTH;

/// The pre-parse pass alone (depth cap, NULs, attribute floods, scripts
/// emptied), for the fuzz target that checks it on its own.
#[doc(hidden)]
pub fn prepare_html(html: &str) -> std::borrow::Cow<'_, str> {
    depth::prepare(html, depth::MAX_DEPTH, true)
}

/// The deepest tree [`parse_html`] returns, for the same fuzz target.
#[doc(hidden)]
pub const PARSED_MAX_DEPTH: usize = flat::MAX_PARSED_DEPTH;

/// The one parse every page goes through (html5ever, watched for depth,
/// flattened past [`PARSED_MAX_DEPTH`]), for the same fuzz target.
#[doc(hidden)]
pub fn parse_html(html: &str) -> dom_query::Document {
    parse::parse(html)
}
pub use passage::{
    Passage, PassageRanker, SKIP_MARKER, Selection, estimate_tokens, rank_passages,
    select_within_budget, share_budget, split_passages,
};
pub use selector::{InvalidSelector, check_selector};
