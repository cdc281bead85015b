//! A product page's description from its schema.org data. Shops mark
//! their product pages with a JSON-LD `Product` (Shopify, WooCommerce,
//! Magento and BigCommerce themes, and most headless storefronts) whose
//! `description` is the product's own text, the part of the page that
//! people marking it keep first. Pages built by scripts often show it only
//! in a drawer or a tab that the HTML leaves empty, or not at all: the
//! content found in the markup then holds a price and a menu, and the
//! description is put under the product's name (the page's `<h1>`) when
//! the content has it as a line of its own, else before the content.

use crate::deadline::Deadline;
use crate::url_util::Resolver;
use crate::{ExtractOptions, embedded_state};

/// A description needs this many words to be the product's text: fewer are
/// a tag line or a name ("Cotton tee, black").
const MIN_WORDS: usize = 12;

/// The content already says the description when it holds this share of
/// its distinct words.
const ALREADY_SAID: f32 = 0.5;

/// Puts `description` (a JSON-LD `Product`'s, plain or HTML) under the
/// line of `content` that is the page's `h1`, or before `content`, when
/// the content leaves most of its words out.
pub(crate) fn add_description(
    content: &mut String,
    description: &str,
    h1: Option<&str>,
    options: &ExtractOptions,
    resolver: &Resolver,
    deadline: &Deadline,
) {
    // Descriptions written URL-encoded ("An%20elegant%20sofa") or as one
    // token are not text.
    if description.split_whitespace().count() < MIN_WORDS || deadline.expired() {
        return;
    }
    let Some(rendered) = embedded_state::render_one(description, options, resolver, deadline)
    else {
        return;
    };
    let said: std::collections::HashSet<String> = words(content).collect();
    let mut own: Vec<String> = words(&rendered).collect();
    own.sort_unstable();
    own.dedup();
    let found = own.iter().filter(|w| said.contains(*w)).count();
    if own.is_empty() || found as f32 >= own.len() as f32 * ALREADY_SAID {
        return;
    }
    let at = h1.map(crate::extractor::words_key).and_then(|key| {
        let mut start = 0;
        content.split_inclusive('\n').find_map(|line| {
            start += line.len();
            (!key.is_empty() && crate::extractor::words_key(line) == key).then_some(start)
        })
    });
    let rest = content.split_off(at.unwrap_or(0));
    let mut out = content.trim_end().to_owned();
    if !out.is_empty() {
        out.push_str("\n\n");
    }
    out.push_str(rendered.trim());
    if !rest.trim().is_empty() {
        out.push_str("\n\n");
        out.push_str(rest.trim_start());
    }
    *content = out;
}

/// The lower-cased words of `text` (letters and digits).
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}
