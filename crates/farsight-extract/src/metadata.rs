//! Metadata from JSON-LD, OpenGraph, `<meta>`, `<link>` and `<time>`.
//!
//! When sources disagree the order is: JSON-LD, then OpenGraph, then plain
//! `<meta>`, then the page's markup (`<time>`, `<title>`, `<h1>`). The
//! canonical URL prefers `<link rel="canonical">`, the language `<html lang>`:
//! those are the page's own statements about itself.

use dom_query::{Document, NodeData, NodeRef};
use serde_json::{Map, Value};

use crate::byline::{self, Mark};
use crate::jsonld::{self, Descend, ids_of, names_of, str_of, type_is};
use crate::render::collapse_ws;
use crate::structured::StructuredData;
use crate::structured_read::Collector;
use crate::{Metadata, date, paywall};

/// Elements marked as an author that are read before the markup counts as
/// naming none: author boxes and comment authors fail, and each read costs
/// the element's text.
const MAX_BYLINE_READS: usize = 8;

/// What the page says about itself, plus signals for the extractor.
#[derive(Debug, Default)]
pub(crate) struct PageFacts {
    pub metadata: Metadata,
    pub title: Option<String>,
    /// JSON-LD `isAccessibleForFree: false`.
    pub not_free: bool,
    /// JSON-LD `articleBody` (or a posting's `text`), when present: read
    /// when the page's markup is an empty application shell
    /// (`embedded_state.rs`).
    pub article_body: Option<String>,
    /// The longest `description` of a JSON-LD `Product` (or
    /// `ProductGroup`) node, as written: a product page's own text, which
    /// a script-built page may hold nowhere else (`product_text.rs`).
    pub product_description: Option<String>,
    /// `<base href>`.
    pub base_href: Option<String>,
    /// The `href` of `<link rel="alternate" type="text/markdown">` (or
    /// `text/x-markdown`): the page's own Markdown version, as written.
    pub markdown_href: Option<String>,
    /// The text of the page's only `<h1>` (none when it has several).
    pub h1: Option<String>,
    /// The page says it is an article (`og:type`, JSON-LD `@type`): its
    /// headline is its title, not part of its body.
    pub is_article: bool,
    /// The page says it sells a product (JSON-LD `Product`, `og:type`
    /// `product`): its reviews are not its content.
    pub is_product: bool,
    /// The page says it is a forum thread or a question with answers
    /// (JSON-LD `DiscussionForumPosting`, `QAPage`).
    pub is_discussion: bool,
    /// An element carries a paywall vendor's or publisher's marker
    /// (`paywall::is_marker`), read in the same walk.
    pub paywall_marker: bool,
    /// The page's JSON-LD and OpenGraph as data, when asked for.
    pub structured_data: Option<StructuredData>,
}

#[derive(Default)]
struct LdFacts {
    article: bool,
    product: bool,
    discussion: bool,
    /// A listing's page type (`CollectionPage`, `SearchResultsPage`...):
    /// WordPress SEO plugins say `og:type` article of category pages too,
    /// and their JSON-LD tells them apart.
    listing: bool,
    /// A plain `WebPage` node: SEO plugins (Yoast SEO, Rank Math) type a
    /// site's pages so in their graph, and add an `Article` node only for
    /// its posts.
    web_page: bool,
    /// A node besides those of [`PAGE_GRAPH`] (an `Article`, a
    /// `ClaimReview`, a `Recipe`...).
    other_content: bool,
    headline: Option<String>,
    description: Option<String>,
    author: Option<String>,
    /// The `@id`s an author given by reference points to (Yoast's
    /// `"author": {"@id": "…#/schema/person/…"}`), read when no author is
    /// named in place.
    author_ids: Vec<String>,
    /// Names of the objects that have an `@id`: the people referenced.
    names_by_id: std::collections::HashMap<String, String>,
    date: Option<String>,
    site_name: Option<String>,
    language: Option<String>,
    url: Option<String>,
    not_free: bool,
    body: Option<String>,
    product_description: Option<String>,
}

/// Reads the metadata, and the structured data when `structured` is true
/// (from the same JSON-LD parse and `<meta>` walk). Run before hidden
/// elements are removed: JSON-LD lives in `<script>`.
pub(crate) fn read(doc: &Document, structured: bool) -> PageFacts {
    let mut ld = LdFacts::default();
    let mut collector = structured.then(Collector::default);
    let mut meta: Vec<(String, String)> = Vec::new();
    let mut canonical = None;
    let mut markdown_href = None;
    let mut base_href = None;
    let mut html_lang = None;
    let mut title_tag = None;
    let mut first_h1: Option<String> = None;
    let mut h1s = 0usize;
    let mut time = None;
    let mut paywall_marker = false;
    let mut marked_author: Option<(Mark, String)> = None;
    let mut byline_reads = 0usize;

    for n in doc.root().descendants_it() {
        // One look at each element: its name (the parser's atom, not a
        // copy), the paywall's marker and the author's mark, read from its
        // attributes in place.
        let look = n.query_or(None, |node| {
            let NodeData::Element(el) = &node.data else {
                return None;
            };
            let marker = !paywall_marker && paywall::is_marker(node);
            let mark = (byline_reads < MAX_BYLINE_READS)
                .then(|| byline::mark_in(el))
                .flatten();
            Some((el.name.local.clone(), marker, mark))
        });
        let Some((name, marker, mark)) = look else {
            continue;
        };
        paywall_marker = paywall_marker || marker;
        if let Some(mark) = mark
            && marked_author.as_ref().is_none_or(|(m, _)| mark < *m)
        {
            byline_reads += 1;
            if let Some(name) = byline::name_of(&n, mark) {
                marked_author = Some((mark, name));
            }
        }
        match &*name {
            "html" if html_lang.is_none() => html_lang = n.attr("lang").map(|s| s.to_string()),
            "script" => {
                let ty = n.attr("type").unwrap_or_default();
                if ty.trim().eq_ignore_ascii_case("application/ld+json")
                    && let Ok(v) = serde_json::from_str::<Value>(n.text().trim())
                {
                    read_ld(&v, &mut ld);
                    if let Some(c) = collector.as_mut() {
                        c.add(v);
                    }
                }
            }
            "meta" => {
                let key = n
                    .attr("property")
                    .or_else(|| n.attr("name"))
                    .or_else(|| n.attr("itemprop"))
                    .or_else(|| n.attr("http-equiv"));
                if let (Some(k), Some(v)) = (key, n.attr("content")) {
                    let v = collapse_ws(&v);
                    if !v.is_empty() {
                        meta.push((k.trim().to_ascii_lowercase(), v));
                    }
                }
            }
            "link" => {
                let rel = n.attr("rel").unwrap_or_default().to_ascii_lowercase();
                if canonical.is_none() && rel.split_whitespace().any(|r| r == "canonical") {
                    canonical = n.attr("href").map(|s| s.trim().to_string());
                }
                if markdown_href.is_none()
                    && rel.split_whitespace().any(|r| r == "alternate")
                    && crate::is_markdown_type(&n.attr("type").unwrap_or_default())
                {
                    markdown_href = n
                        .attr("href")
                        .map(|s| s.trim().to_string())
                        .filter(|h| !h.is_empty());
                }
            }
            "base" if base_href.is_none() => base_href = n.attr("href").map(|s| s.to_string()),
            "title" if title_tag.is_none() && !in_svg(&n) => {
                title_tag = Some(collapse_ws(&n.text())).filter(|t| !t.is_empty());
            }
            "h1" => {
                h1s += 1;
                if first_h1.is_none() {
                    first_h1 = Some(collapse_ws(&n.text())).filter(|t| !t.is_empty());
                }
            }
            "time" if time.is_none() => {
                time = n
                    .attr("datetime")
                    .and_then(|d| date_in(&d))
                    .or_else(|| date_in(&n.text()));
            }
            _ => {}
        }
    }

    let get = |keys: &[&str]| -> Option<String> {
        keys.iter()
            .find_map(|k| meta.iter().find(|(mk, _)| mk == k).map(|(_, v)| v.clone()))
    };

    let site_name = ld.site_name.clone().or_else(|| {
        get(&[
            "og:site_name",
            "application-name",
            "twitter:app:name:iphone",
        ])
    });
    // JSON-LD, then `<meta>`, then the markup (see `byline.rs`).
    let author = ld
        .author
        .clone()
        .or_else(|| ld.referenced_author())
        .or_else(|| get(&["author", "dc.creator", "sailthru.author", "parsely-author"]))
        .or_else(|| get(&["article:author"]).filter(|a| !a.starts_with("http")))
        .or(marked_author.map(|(_, name)| name));
    let date = ld
        .date
        .as_deref()
        .and_then(date_in)
        .or_else(|| {
            get(&[
                "article:published_time",
                "og:published_time",
                "datepublished",
                "date",
                "pubdate",
                "publishdate",
                "publish-date",
                "dc.date",
                "dc.date.issued",
                "dcterms.created",
                "citation_publication_date",
                "sailthru.date",
                "parsely-pub-date",
            ])
            .as_deref()
            .and_then(date_in)
        })
        .or(time);
    let description = ld.description.clone().or_else(|| {
        get(&[
            "og:description",
            "description",
            "twitter:description",
            "dc.description",
        ])
    });
    let language = html_lang
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .or_else(|| get(&["og:locale"]).map(|l| l.replace('_', "-")))
        .or(ld.language.clone())
        .or_else(|| get(&["content-language", "dc.language"]));
    let canonical_url = canonical
        .filter(|c| !c.is_empty())
        .or_else(|| get(&["og:url"]))
        .or(ld.url.clone());

    let og_type = get(&["og:type"]).map(|t| t.to_ascii_lowercase());
    // Yoast SEO and Rank Math write `og:type` article on every page of a
    // WordPress site, WooCommerce's products and the site's pages included.
    // The page's JSON-LD says better when it calls the page a listing or a
    // product and not an article. A page, not a post, when the graph has a
    // `WebPage` and no `Article` node and either WordPress's body class
    // names a page (`page-id-42`; a post's is `postid-42`) or the `WebPage`
    // is its only content node on a page without `article:published_time`
    // (Yoast writes it on posts, not on pages). Themes that write
    // schema.org microdata (Astra, GeneratePress, Genesis) type a page's
    // `<body>` `WebPage` instead of a graph: with the body class of a page,
    // that says the same.
    let wordpress_page = !ld.article
        && ((is_wordpress_page(doc) && (ld.web_page || body_is_web_page(doc)))
            || (ld.web_page && !ld.other_content && get(&["article:published_time"]).is_none()));
    let og_article = og_type.as_deref() == Some("article")
        && !ld.listing
        && !ld.product
        && !wordpress_page
        && !is_wordpress_archive(doc)
        && !is_drupal_taxonomy(doc);
    let is_article = (ld.article || og_article) && !is_mediawiki_list(doc);
    let is_product = ld.product || og_type.as_deref().is_some_and(|t| t.starts_with("product"));
    let raw_title = get(&["og:title", "twitter:title"])
        .or(ld.headline.clone())
        .or(title_tag.clone())
        .or(first_h1.clone());
    let title = raw_title.map(|t| strip_site(&t, site_name.as_deref()));

    PageFacts {
        metadata: Metadata {
            description,
            author,
            date_published: date,
            site_name,
            language,
            canonical_url,
            site_url: None,
            // Made absolute by the extractor, from `markdown_href`.
            markdown_url: None,
        },
        title,
        not_free: ld.not_free,
        article_body: ld.body,
        product_description: ld.product_description,
        base_href,
        markdown_href,
        h1: first_h1.filter(|_| h1s == 1),
        is_article,
        is_product,
        is_discussion: ld.discussion,
        paywall_marker,
        structured_data: collector.map(|c| c.finish(&meta)),
    }
}

/// The words a `<link>` this module reads has among its attributes: `rel`
/// `canonical`, and `type` `text/markdown` or `text/x-markdown` of a
/// Markdown alternate. The pre-parse pass (`depth.rs`) drops every other
/// `<link>` (style sheets, icons, preloads: nodes for nothing) by this test,
/// so a link read here must pass it.
pub(crate) fn may_read_link(attrs: &[u8]) -> bool {
    [&b"canonical"[..], b"markdown"].iter().any(|word| {
        attrs
            .windows(word.len())
            .any(|w| w.eq_ignore_ascii_case(word))
    })
}

/// Whether the body's class is WordPress's for a page (`page-id-42`).
fn is_wordpress_page(doc: &Document) -> bool {
    doc.body().and_then(|b| b.attr("class")).is_some_and(|c| {
        c.split_ascii_whitespace()
            .any(|w| w.starts_with("page-id-"))
    })
}

/// Whether the body is a schema.org microdata item of type `WebPage`
/// (`itemtype="https://schema.org/WebPage"`, as themes that write
/// microdata type every page's body).
fn body_is_web_page(doc: &Document) -> bool {
    doc.body()
        .and_then(|b| b.attr("itemtype"))
        .is_some_and(|t| {
            let t = t.trim().trim_end_matches('/');
            t.strip_suffix("WebPage")
                .is_some_and(|rest| rest.ends_with("schema.org/"))
        })
}

/// Whether the body's class is WordPress's for an archive (`archive`:
/// WordPress's `body_class()` writes it on every category, tag, taxonomy,
/// author, date and post-type archive, WooCommerce's shop categories
/// included): an index of posts or products, whatever `og:type` says.
fn is_wordpress_archive(doc: &Document) -> bool {
    doc.body()
        .and_then(|b| b.attr("class"))
        .is_some_and(|c| c.split_ascii_whitespace().any(|w| w == "archive"))
}

/// Whether the body's class is Drupal core's for a taxonomy term page
/// (`path-taxonomy`): the term's index of nodes, a listing whatever
/// `og:type` (Metatag's default article) says.
fn is_drupal_taxonomy(doc: &Document) -> bool {
    doc.body()
        .and_then(|b| b.attr("class"))
        .is_some_and(|c| c.split_ascii_whitespace().any(|w| w == "path-taxonomy"))
}

/// Whether the page is a MediaWiki list article: the body's classes say
/// `mediawiki` and name the page (`page-List_of_programming_languages`),
/// whose title starts "List of" or "Lists of" by Wikipedia's naming
/// convention for lists. MediaWiki's JSON-LD types every page `Article`;
/// a list's rows and runs of links are its content.
fn is_mediawiki_list(doc: &Document) -> bool {
    doc.body().and_then(|b| b.attr("class")).is_some_and(|c| {
        let mut words = c.split_ascii_whitespace();
        words.clone().any(|w| w == "mediawiki")
            && words.any(|w| w.starts_with("page-List_of_") || w.starts_with("page-Lists_of_"))
    })
}

fn in_svg(n: &NodeRef<'_>) -> bool {
    n.ancestors_it(Some(8))
        .any(|a| a.node_name().as_deref() == Some("svg"))
}

fn is_content_type(t: &str) -> bool {
    t.ends_with("Article")
        || matches!(
            t,
            "BlogPosting"
                | "Report"
                | "Review"
                | "Recipe"
                | "Product"
                | "ProductGroup"
                | "WebPage"
                | "ItemPage"
                | "QAPage"
                | "DiscussionForumPosting"
                | "SocialMediaPosting"
                | "Event"
                | "HowTo"
                | "Course"
                | "VideoObject"
                | "CreativeWork"
                | "LiveBlogPosting"
        )
}

/// The nodes Yoast SEO's graph gives every page of a site, besides the
/// `WebSite` and `Organization`: a page whose JSON-LD holds nothing else
/// says nothing about being an article.
const PAGE_GRAPH: [&str; 7] = [
    "WebPage",
    "BreadcrumbList",
    "ListItem",
    "ImageObject",
    "SearchAction",
    "EntryPoint",
    "Person",
];

/// Reads one JSON-LD block's nodes into `ld`.
fn read_ld(block: &Value, ld: &mut LdFacts) {
    jsonld::walk(block, &mut |o| read_ld_node(o, ld));
}

fn read_ld_node(o: &Map<String, Value>, ld: &mut LdFacts) -> Descend {
    if let (Some(id), Some(name)) = (o.get("@id").and_then(Value::as_str), jsonld::node_name(o)) {
        ld.names_by_id.entry(id.to_owned()).or_insert(name);
    }
    if type_is(o, |t| {
        t == "WebSite" || t == "Organization" || t == "NewsMediaOrganization"
    }) {
        if ld.site_name.is_none() && type_is(o, |t| t == "WebSite") {
            ld.site_name = o.get("name").and_then(str_of);
        }
        return Descend::Stop;
    }
    ld.other_content |= o.contains_key("@type") && !type_is(o, |t| PAGE_GRAPH.contains(&t));
    ld.listing |= type_is(o, |t| {
        matches!(
            t,
            "CollectionPage" | "SearchResultsPage" | "ItemList" | "ProfilePage"
        )
    });
    if !type_is(o, is_content_type) {
        return Descend::Stop;
    }
    ld.web_page |= type_is(o, |t| t == "WebPage");
    ld.article |= type_is(o, |t| {
        t.ends_with("Article") || matches!(t, "BlogPosting" | "LiveBlogPosting" | "Report")
    });
    let product = type_is(o, |t| matches!(t, "Product" | "ProductGroup"));
    ld.product |= product;
    if product && let Some(d) = o.get("description").and_then(Value::as_str) {
        // A product group and its variants: the longest says most.
        if ld
            .product_description
            .as_ref()
            .is_none_or(|k| d.len() > k.len())
        {
            ld.product_description = Some(d.to_owned());
        }
    }
    ld.web_page |= type_is(o, |t| t == "WebPage");
    ld.discussion |= type_is(o, |t| matches!(t, "DiscussionForumPosting" | "QAPage"));
    // A WebPage wrapping the article fills gaps only.
    let strong = !type_is(o, |t| t == "WebPage");
    let set = |slot: &mut Option<String>, val: Option<String>| {
        if val.is_some() && (slot.is_none() || strong) && slot.is_none() {
            *slot = val;
        }
    };
    set(
        &mut ld.headline,
        o.get("headline").or(o.get("name")).and_then(str_of),
    );
    set(&mut ld.description, o.get("description").and_then(str_of));
    let author = o.get("author").or(o.get("creator"));
    set(&mut ld.author, author.and_then(names_of));
    if ld.author.is_none() && ld.author_ids.is_empty() {
        ld.author_ids = author.map(ids_of).unwrap_or_default();
    }
    set(
        &mut ld.date,
        o.get("datePublished")
            .or(o.get("dateCreated"))
            .or(o.get("uploadDate"))
            .and_then(str_of),
    );
    set(&mut ld.language, o.get("inLanguage").and_then(str_of));
    set(
        &mut ld.url,
        o.get("url").and_then(|u| u.as_str().map(str::to_string)),
    );
    if ld.site_name.is_none() {
        ld.site_name = o
            .get("publisher")
            .and_then(|p| p.get("name"))
            .and_then(str_of);
    }
    if let Some(f) = o.get("isAccessibleForFree") {
        let free = match f {
            Value::Bool(b) => *b,
            Value::String(s) => !s.trim().eq_ignore_ascii_case("false"),
            _ => true,
        };
        ld.not_free |= !free;
    }
    if ld.body.is_none() {
        // A post's body is its `text` (SocialMediaPosting,
        // DiscussionForumPosting); an article's is `articleBody`.
        let posting = type_is(o, |t| t.ends_with("Posting"));
        ld.body = o
            .get("articleBody")
            .or_else(|| o.get("text").filter(|_| posting))
            .and_then(|b| b.as_str())
            .map(str::to_string);
    }
    Descend::MainEntity
}

impl LdFacts {
    /// The names of the author's `@id`s, once every JSON-LD block is read
    /// (the Person may come after the article in the graph).
    fn referenced_author(&self) -> Option<String> {
        let names: Vec<&str> = self
            .author_ids
            .iter()
            .filter_map(|id| self.names_by_id.get(id).map(String::as_str))
            .collect();
        (!names.is_empty()).then(|| names.join(", "))
    }
}

/// Removes a " | Site" / " - Site" suffix (or "Site | " prefix) when the site
/// is known.
fn strip_site(title: &str, site: Option<&str>) -> String {
    let title = title.trim();
    let Some(site) = site.map(str::trim).filter(|s| !s.is_empty()) else {
        return title.to_string();
    };
    const SEPS: [&str; 7] = [" | ", " - ", " – ", " — ", " · ", " :: ", " » "];
    for sep in SEPS {
        if let Some(head) = title.strip_suffix(site).and_then(|h| h.strip_suffix(sep))
            && !head.trim().is_empty()
        {
            return head.trim().to_string();
        }
        if let Some(tail) = title.strip_prefix(site).and_then(|h| h.strip_prefix(sep))
            && !tail.trim().is_empty()
        {
            return tail.trim().to_string();
        }
    }
    title.to_string()
}

/// The date a metadata value or a `<time>` element writes, as `YYYY-MM-DD`:
/// the first whole date in it ("Updated 3 April 2023" is 2023-04-03). Ages
/// ("3 days ago") are not read: extraction does not depend on the clock.
fn date_in(text: &str) -> Option<String> {
    date::find_date(text, None).map(|m| m.date)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(
            date_in("2024-03-01T10:00:00Z").as_deref(),
            Some("2024-03-01")
        );
        assert_eq!(date_in("2024/3/1").as_deref(), Some("2024-03-01"));
        assert_eq!(date_in("20240301").as_deref(), Some("2024-03-01"));
        assert_eq!(date_in("March 1, 2024").as_deref(), Some("2024-03-01"));
        assert_eq!(date_in("1 Mar 2024").as_deref(), Some("2024-03-01"));
        assert_eq!(date_in("yesterday"), None);
        assert_eq!(date_in("2024-13-45"), None);
    }

    // Issue 10: the month was picked out of "Summary" and any day up to 31 passed.
    #[test]
    fn dates_are_whole_words_on_real_calendar_days() {
        assert_eq!(
            date_in("Summary of 3 April 2023").as_deref(),
            Some("2023-04-03")
        );
        assert_eq!(date_in("31 February 2023"), None);
        assert_eq!(date_in("2023-02-29"), None);
        assert_eq!(date_in("2024-02-29").as_deref(), Some("2024-02-29"));
    }

    fn markdown_href(html: &str) -> Option<String> {
        read(&crate::parse::parse(html), false).markdown_href
    }

    #[test]
    fn the_markdown_alternate_is_read_by_rel_and_type() {
        assert_eq!(
            markdown_href(
                "<head><link rel=\"alternate\" type=\"text/markdown\" href=\" /doc.md \"></head>"
            )
            .as_deref(),
            Some("/doc.md")
        );
        assert_eq!(
            markdown_href(
                "<link rel=\"Alternate nofollow\" type=\"text/x-markdown; charset=utf-8\" href=a.md>"
            )
            .as_deref(),
            Some("a.md")
        );
        for other in [
            "<link rel=alternate type=application/rss+xml href=/feed>",
            "<link rel=stylesheet type=text/markdown href=/x.md>",
            "<link rel=alternate type=text/markdown href=\"\">",
        ] {
            assert_eq!(markdown_href(other), None, "{other}");
        }
    }

    #[test]
    fn the_links_read_here_pass_the_pre_parse_test() {
        assert!(may_read_link(b" rel=CANONICAL href=/c"));
        assert!(may_read_link(
            b" rel=alternate type=\"text/x-markdown\" href=/c"
        ));
        assert!(!may_read_link(b" rel=stylesheet href=a.css"));
        assert!(!may_read_link(b" rel=alternate type=application/atom+xml"));
    }

    fn is_article(html: &str) -> bool {
        read(&crate::parse::parse(html), false).is_article
    }

    // Yoast SEO and Rank Math say `og:type` article of every WordPress
    // page: a page (body `page-id-N`, or a `WebPage` graph without an
    // `Article` and without a publishing time) is not an article, a post
    // or a page whose graph has an `Article` node still is.
    #[test]
    fn a_wordpress_page_is_not_an_article_for_its_og_type() {
        let page = |body: &str, types: &str| {
            format!(
                "<html><head><meta property=\"og:type\" content=\"article\">\
                 <script type=\"application/ld+json\">{{\"@graph\":[{types}]}}</script>\
                 </head><body class=\"{body}\"><p>Text</p></body></html>"
            )
        };
        let web_page = r#"{"@type":"WebPage","name":"Roof repair"}"#;
        let article = r#"{"@type":"WebPage"},{"@type":"Article","headline":"Roof repair"}"#;
        assert!(!is_article(&page(
            "page-template-default page page-id-42",
            web_page
        )));
        // A post: Yoast writes its publishing time (and names it an
        // `Article` in the graph; without that node the time decides).
        let post = page("single single-post postid-42", web_page).replace(
            "<script",
            "<meta property=\"article:published_time\" content=\"2024-05-01\"><script",
        );
        assert!(is_article(&post));
        // The Yoast page graph alone, without a publishing time, is a page
        // whatever the body class.
        assert!(!is_article(&page("home", web_page)));
        assert!(is_article(&page("page page-id-42", article)));
        // No graph: `og:type` alone still decides.
        assert!(is_article(&page(
            "page page-id-42",
            r#"{"@type":"WebSite"}"#
        )));
        // A theme's microdata types the page's body instead of a graph.
        let micro = |body: &str| {
            page(body, r#"{"@type":"WebSite"}"#).replace(
                "<body class",
                "<body itemtype=\"https://schema.org/WebPage\" itemscope class",
            )
        };
        assert!(!is_article(&micro("page page-id-42")));
        assert!(is_article(&micro("single single-post postid-42")));
    }

    // MediaWiki types every page an `Article` in its JSON-LD; a list's
    // page, named "List of ..." in the body's class, is not one.
    #[test]
    fn a_mediawiki_list_is_not_an_article() {
        let page = |body: &str| {
            format!(
                "<html><head><script type=\"application/ld+json\">\
                 {{\"@type\":\"Article\",\"name\":\"x\"}}</script></head>\
                 <body class=\"{body}\"><p>Text</p></body></html>"
            )
        };
        assert!(!is_article(&page("mediawiki ns-0 page-List_of_knots")));
        assert!(!is_article(&page("mediawiki ns-0 page-Lists_of_rivers")));
        assert!(is_article(&page("mediawiki ns-0 page-Knot")));
        assert!(is_article(&page("mediawiki ns-0 page-Listening_post")));
        assert!(is_article(&page("blog page-List_of_knots")));
    }

    #[test]
    fn site_suffix() {
        assert_eq!(
            strip_site("Hello world | Example", Some("Example")),
            "Hello world"
        );
        assert_eq!(strip_site("Example - Hello", Some("Example")), "Hello");
        assert_eq!(
            strip_site("Hello | Other", Some("Example")),
            "Hello | Other"
        );
        assert_eq!(strip_site("Hello | Other", None), "Hello | Other");
    }
}
