//! Main-content extraction, in five stages over one parsed page: parse
//! (with the metadata read, React's streamed content and Marko's reordered
//! blocks put in place and what is hidden removed), classify
//! (`kind.rs`), choose the content roots (`content.rs`), clean them with
//! one ordered list of passes (`passes.rs`), render.

use dom_query::NodeRef;

use crate::deadline::Deadline;
use crate::render::{self, RenderOptions};
use crate::url_util::Resolver;
use crate::{
    Document, ExtractOptions, Format, Shortfall, boilerplate, clean, content, depth,
    embedded_state, footer_only, kind, links, metadata, own_article, passes, paywall, product_text,
    reordered, sanitize, shortfall, streamed,
};

/// Extracts the main content (or the selector's matches) of `html`.
///
/// Never panics and never fails: a page without content gives little or
/// no `content` and a [`Document::shortfall`] that says why.
pub fn extract(html: &str, options: &ExtractOptions) -> Document {
    let deadline = Deadline::new(options.deadline);
    let mut out = extract_within(html, options, &deadline);
    // The class and id words read on this page are not kept after it.
    crate::words::forget();
    out.timed_out = deadline.was_hit();
    out
}

fn extract_within(html: &str, options: &ExtractOptions, deadline: &Deadline) -> Document {
    // The page as it came, for the evidence of scripts that the pre-parse
    // pass empties (`<noscript>`, inline state).
    let raw = html;
    let html = depth::prepare(html, depth::MAX_DEPTH, options.format != Format::Html);
    let html: &str = &html;
    let dom = crate::parse::parse(html);
    let mut facts = metadata::read(&dom, options.include_structured_data);
    streamed::place(&dom, html);
    reordered::place(&dom, html);
    clean::remove_hidden(&dom);
    let resolver = Resolver::new(options.base_url.as_deref(), facts.base_href.as_deref());

    let mut out = Document {
        title: facts.title.clone(),
        metadata: facts.metadata.clone(),
        structured_data: facts.structured_data.take(),
        ..Document::default()
    };
    out.metadata.markdown_url = facts
        .markdown_href
        .as_deref()
        .and_then(|href| resolver.http(href));

    // Taken before the cleaning changes the page; not needed when JSON-LD
    // already says the page is not free.
    let visible_text = match dom.body() {
        Some(b) if !facts.not_free => paywall::visible_text(&b),
        _ => String::new(),
    };
    let signals = paywall::Signals {
        marker: facts.paywall_marker,
        visible_text,
    };

    if let Some(sel) = options.selector.as_deref() {
        match crate::selector::matcher(sel) {
            Err(e) => out.selector_error = Some(e.to_string()),
            Ok(m) => {
                let matches = outermost(dom.select_matcher(&m).nodes());
                out.selector_matched = Some(!matches.is_empty());
                if !matches.is_empty() {
                    let _grace = deadline.expired().then(|| deadline.grant_fallback());
                    finish(&mut out, &matches, options, &resolver, deadline);
                    return out;
                }
            }
        }
        if out.selector_matched.is_none() {
            out.selector_matched = Some(false);
        }
    }

    let kind = kind::classify(&dom, &facts, options.base_url.as_deref());
    // Infinite-scroll pages append other posts: only this page's own stays.
    if !kind.discussion {
        own_article::keep_own(&dom, &facts, options.base_url.as_deref(), &resolver);
    }
    // Out of time before choosing the content: the body as it is, for as
    // long as the fallback grace allows.
    if deadline.expired() {
        let _grace = deadline.grant_fallback();
        boilerplate::strip(&dom);
        let body: Vec<NodeRef<'_>> = dom.body().into_iter().collect();
        finish(&mut out, &body, options, &resolver, deadline);
        return out;
    }
    let choice = content::choose(&dom, options.engine, kind, deadline);
    passes::clean(&dom, &choice, kind);
    // Only the page's footer left on one product's page (see
    // `footer_only.rs`): nothing found.
    let nodes: Vec<NodeRef<'_>> = if kind.product && footer_only::only_footer(&dom, &choice.roots) {
        Vec::new()
    } else {
        choice
            .roots
            .iter()
            .filter_map(|id| dom.tree.get(id))
            .collect()
    };
    // Chosen just as time ran out: rendered within the fallback grace.
    let _grace = deadline.expired().then(|| deadline.grant_fallback());
    finish(&mut out, &nodes, options, &resolver, deadline);
    // A product's own description, when the markup left it out.
    if kind.product
        && let Some(description) = facts.product_description.as_deref()
    {
        product_text::add_description(
            &mut out.content,
            description,
            facts.h1.as_deref(),
            options,
            &resolver,
            deadline,
        );
    }
    // A thread's subject is its title, like an article's headline: people
    // marking threads leave it out.
    if let Some(h1) = facts
        .h1
        .as_deref()
        .filter(|_| !kind.article && !kind.discussion)
    {
        keep_heading(&mut out.content, h1, options.format);
    }
    out.shortfall = shortfall::judge(
        &out.content,
        options.format,
        out.title.as_deref(),
        facts.h1.as_deref(),
        raw,
    );
    // An application shell: the text its scripts would show is often in
    // the state they build the page from.
    if out.shortfall == Some(Shortfall::BuiltByScripts)
        && !deadline.expired()
        && let Some(state) = embedded_state::read(
            raw,
            facts.article_body.as_deref(),
            options,
            &resolver,
            deadline,
        )
    {
        out.content = state.content;
        out.links = state.links;
        out.shortfall = None;
        out.embedded_state = true;
    }
    let chars = out.content.chars().count();
    out.paywalled = signals.paywalled(facts.not_free, chars);
    out
}

/// Renders `nodes` into `out` in the requested format and collects links.
pub(crate) fn finish(
    out: &mut Document,
    nodes: &[NodeRef<'_>],
    options: &ExtractOptions,
    resolver: &Resolver,
    deadline: &Deadline,
) {
    out.content = match options.format {
        Format::Html => sanitize::sanitize(nodes, resolver, options.include_images, deadline),
        f => render::render(
            nodes,
            &RenderOptions {
                markdown: f == Format::Markdown,
                images: options.include_images,
                links: options.include_links,
                resolver,
                deadline,
            },
        ),
    };
    // Links are a second walk of the content: not when time is up.
    if options.include_links && !deadline.expired() {
        out.links = links::collect(nodes, resolver);
    }
}

/// Puts the page's heading back on top of the content when the engine left
/// it out: a product's name, a listing's subject are part of what the page
/// says. Not on articles, whose headline is their title and not part of
/// their body (schema.org's `articleBody`), nor on threads (the same for
/// their subject), nor in HTML (sanitised markup of the chosen elements
/// only).
fn keep_heading(content: &mut String, h1: &str, format: Format) {
    // Permalink anchors ("Configuration#", "Install¶") are not the heading.
    let h1 = h1.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '#' | '¶' | '§'));
    let key = words_key(h1);
    if content.trim().is_empty() || format == Format::Html || key.is_empty() {
        return;
    }
    // Already there: as a line of its own, or in a short first line (a
    // heading with a permalink or a number around it).
    let mut lines = content.lines().map(words_key).filter(|l| !l.is_empty());
    let in_first = |first: String| first.contains(&key) && first.len() <= key.len() * 2;
    if lines.next().is_some_and(in_first) || lines.any(|l| l == key) {
        return;
    }
    let heading = match format {
        // The heading is page text: escaped like any other.
        Format::Markdown => format!("# {}\n\n", crate::escape::escape_inline(h1)),
        _ => format!("{}\n\n", crate::escape::defuse_text(h1)),
    };
    content.insert_str(0, &heading);
}

/// Lower-cased letters and digits only, to find a heading in rendered text
/// whatever the markup, spacing and punctuation around it.
pub(crate) fn words_key(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Drops matches nested inside an earlier match, so no text appears twice.
fn outermost<'a>(nodes: &[NodeRef<'a>]) -> Vec<NodeRef<'a>> {
    let mut kept: Vec<NodeRef<'a>> = Vec::new();
    for n in nodes {
        let inside = kept
            .iter()
            .any(|k| n.ancestors_it(None).any(|a| a.id == k.id));
        if !inside {
            kept.push(*n);
        }
    }
    kept
}
