//! DuckDuckGo, keyless, through its no-JavaScript pages: the HTML endpoint
//! (`https://html.duckduckgo.com/html/`, a POSTed form) and, when that answers
//! with a layout farsight does not recognise, the lite endpoint
//! (`https://lite.duckduckgo.com/lite/`).
//!
//! There is no API contract here, only pages, so the parsers are strict about
//! what they recognise: a results page, a genuine "no results" page, or the
//! bot-check ("anomaly") page, which is `rateLimited` and never "no results".
//! Anything else is an `unknown` error naming a layout change.
//!
//! Form fields (as DuckDuckGo's own form sends them): `q`, `b` (empty on the
//! first page), `kl` region (`wt-wt`: no region), `df` date filter
//! (`d`/`w`/`m`/`y`), `kp` safe search (`1` strict, `-2` off).

use async_trait::async_trait;
use dom_query::Document;
use reqwest::StatusCode;
use url::Url;

use super::http::{self, Reply};
use super::operators::{Native, query_with_operators};
use crate::{
    DateRange, ErrorKind, Provider, ProviderAnswer, ProviderQuery, ProviderSettings, RawResult,
    SearchError, Topic,
};

const NAME: &str = "duckduckgo";
const HTML_ENDPOINT: &str = "https://html.duckduckgo.com/html/";
const LITE_ENDPOINT: &str = "https://lite.duckduckgo.com/lite/";
/// The first page of the HTML endpoint holds about ten organic results (the
/// second starts at offset 10) and asking for more pages needs the page's
/// `vqd` token, which bot detection watches; there is no count parameter, so
/// the answer is cut to the requested count.
const MAX_RESULTS: u32 = 10;
/// DuckDuckGo refuses queries of 500 characters or more.
const MAX_QUERY_CHARS: usize = 499;
/// `wt-wt` is DuckDuckGo's "all regions".
const REGION: &str = "wt-wt";

/// The DuckDuckGo adapter (keyless, HTML endpoint with the lite endpoint as fallback).
#[derive(Debug, Clone)]
pub struct DuckDuckGoProvider {
    html: Url,
    lite: Url,
    client: reqwest::Client,
}

impl DuckDuckGoProvider {
    /// An adapter sending through `client`; `settings.base_url` replaces the
    /// origin of both endpoints (their paths `/html/` and `/lite/` are kept).
    ///
    /// # Errors
    ///
    /// `notConfigured` when `base_url` is not an http(s) URL.
    pub fn new(settings: &ProviderSettings, client: reqwest::Client) -> Result<Self, SearchError> {
        let base = settings.base_url.as_deref();
        Ok(Self {
            html: http::endpoint(NAME, base, HTML_ENDPOINT)?,
            lite: http::endpoint(NAME, base, LITE_ENDPOINT)?,
            client,
        })
    }

    async fn post(&self, url: &Url, form: &[(&'static str, String)]) -> Result<Reply, SearchError> {
        let request = self
            .client
            .post(url.clone())
            // The no-JS pages are reached from DuckDuckGo's own form; a browser
            // would send this Referer (its Referrer-Policy is `origin`).
            .header(reqwest::header::REFERER, "https://html.duckduckgo.com/")
            .header(reqwest::header::ACCEPT, "text/html")
            .form(form);
        http::send(NAME, request).await
    }
}

#[async_trait]
impl Provider for DuckDuckGoProvider {
    fn name(&self) -> &'static str {
        NAME
    }

    fn max_results(&self) -> u32 {
        MAX_RESULTS
    }

    async fn search(&self, query: &ProviderQuery) -> Result<ProviderAnswer, SearchError> {
        let form = form_fields(query)?;
        let reply = self.post(&self.html, &form).await?;
        let page = match classify(&reply, Layout::Html)? {
            Page::Unknown => {
                tracing::debug!("duckduckgo: unknown HTML layout, asking the lite endpoint");
                let reply = self.post(&self.lite, &form).await?;
                classify(&reply, Layout::Lite)?
            }
            page => page,
        };
        let mut results = match page {
            Page::Results(results) => results,
            Page::NoResults => Vec::new(),
            Page::Unknown => {
                return Err(SearchError::new(
                    ErrorKind::Unknown,
                    "DuckDuckGo answered with a page layout farsight does not recognise",
                )
                .with_provider(NAME)
                .with_suggestion(
                    "DuckDuckGo may have changed its pages; use another provider and report this.",
                ));
            }
        };
        results.truncate(query.count as usize);
        Ok(ProviderAnswer {
            images: Vec::new(),
            results,
            total_results: None,
            unapplied_filters: unapplied(query),
        })
    }
}

/// `kl`, DuckDuckGo's region: `country-language` ("de-de", "us-en", "ch-fr";
/// the United Kingdom is "uk"), or `wt-wt` (no region) without a country. A
/// country alone takes its own code as the language where that is one
/// ("de-de", "fr-fr"), else English ("us-en").
fn region(query: &ProviderQuery) -> String {
    let Some(country) = query.country.as_deref() else {
        return REGION.to_owned();
    };
    let language = match query.language.as_deref() {
        Some(l) => l.to_owned(),
        None => crate::locale::language_code(country).unwrap_or_else(|| "en".to_owned()),
    };
    let country = if country == "gb" { "uk" } else { country };
    format!("{country}-{language}")
}

fn form_fields(query: &ProviderQuery) -> Result<Vec<(&'static str, String)>, SearchError> {
    let q = query_with_operators(query, Native::default());
    if q.chars().count() > MAX_QUERY_CHARS {
        return Err(SearchError::new(
            ErrorKind::InvalidQuery,
            format!("DuckDuckGo accepts at most {MAX_QUERY_CHARS} characters (with site filters)"),
        )
        .with_provider(NAME)
        .with_suggestion("Shorten the query or use fewer domain filters."));
    }
    let mut form = vec![("q", q), ("b", String::new()), ("kl", region(query))];
    if let Some(range) = query.date_range {
        let df = match range {
            DateRange::Day => "d",
            DateRange::Week => "w",
            DateRange::Month => "m",
            DateRange::Year => "y",
        };
        form.push(("df", df.to_owned()));
    }
    form.push(("kp", if query.safe_search { "1" } else { "-2" }.to_owned()));
    Ok(form)
}

fn unapplied(query: &ProviderQuery) -> Vec<&'static str> {
    let mut out = Vec::new();
    // The no-JS pages have no news vertical.
    if query.topic == Topic::News {
        out.push("topic");
    }
    // The region pairs a language with a country; alone it has no place.
    if query.language.is_some() && query.country.is_none() {
        out.push("language");
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    Html,
    Lite,
}

#[derive(Debug, PartialEq)]
enum Page {
    Results(Vec<RawResult>),
    NoResults,
    Unknown,
}

/// What a reply is: an error, results, a genuine no-results page, or a page
/// this parser does not know.
fn classify(reply: &Reply, layout: Layout) -> Result<Page, SearchError> {
    let body = reply.text();
    if is_anomaly_page(&body) {
        return Err(blocked(
            reply,
            "DuckDuckGo answered with its bot check (anomaly page)",
        ));
    }
    let status = reply.status;
    if status == StatusCode::FORBIDDEN {
        // Keyless: a 403 is DuckDuckGo blocking this address, not a bad key.
        return Err(blocked(reply, "DuckDuckGo refused the request (HTTP 403)"));
    }
    if !status.is_success() {
        return Err(http::error_for_status(NAME, reply));
    }
    let page = match layout {
        Layout::Html => match parse_html_layout(&body) {
            Page::Unknown => parse_lite_layout(&body),
            page => page,
        },
        Layout::Lite => parse_lite_layout(&body),
    };
    // 202 is how DuckDuckGo answers a throttled client; without results it is
    // never "no results".
    if status == StatusCode::ACCEPTED && !matches!(&page, Page::Results(r) if !r.is_empty()) {
        return Err(blocked(
            reply,
            "DuckDuckGo answered HTTP 202 without results",
        ));
    }
    Ok(page)
}

fn blocked(reply: &Reply, message: &str) -> SearchError {
    SearchError::new(ErrorKind::RateLimited, message)
        .with_provider(NAME)
        .with_status(reply.status.as_u16())
        .with_retry_after_ms(http::retry_after_ms(&reply.headers))
        .with_suggestion(
            "DuckDuckGo is rate limiting this address; wait a few minutes or use another provider.",
        )
}

fn is_anomaly_page(body: &str) -> bool {
    let lower = body.to_ascii_lowercase();
    lower.contains("anomaly-modal")
        || lower.contains("bots use duckduckgo too")
        || lower.contains("id=\"challenge-form\"")
        || lower.contains("id='challenge-form'")
        || lower.contains("/anomaly.js")
}

/// The HTML endpoint: `div.result` blocks with `a.result__a` (title and link),
/// `.result__snippet` and `.result__url`; ads carry `result--ad`. A page
/// without results still holds one `div.result.result--no-result` block: its
/// `.no-results` text and, on some pages, an `a.result__a` titled "EOF" that
/// offers the query on Google. That block is never a result.
fn parse_html_layout(body: &str) -> Page {
    let doc = Document::from(body);
    let blocks = doc.select("div.result");
    if blocks.is_empty() {
        return if doc.select(".no-results").exists() {
            Page::NoResults
        } else {
            Page::Unknown
        };
    }
    let mut results = Vec::new();
    for block in blocks.iter() {
        if block.has_class("result--ad")
            || block.select(".badge--ad").exists()
            || block.has_class("result--no-result")
            || block.select(".no-results").exists()
        {
            continue;
        }
        let link = block.select("a.result__a").first();
        let Some(url) = link.attr("href").and_then(|href| result_url(&href)) else {
            continue;
        };
        let snippet = block.select(".result__snippet").first().inner_html();
        results.push(RawResult {
            title: link.inner_html().trim().to_owned(),
            url,
            snippet: snippet.trim().to_owned(),
            date: html_layout_date(&block),
            score: None,
            content: None,
        });
    }
    if results.is_empty() && doc.select(".no-results").exists() {
        return Page::NoResults;
    }
    Page::Results(results)
}

/// The HTML layout shows a timestamp beside the display URL on some results
/// (`<span>&nbsp;&nbsp;2024-03-01T00:00:00.0000000</span>`): the first span
/// that the one date reader reads as a date (the engine normalises it later).
fn html_layout_date(block: &dom_query::Selection<'_>) -> Option<String> {
    block
        .select(".result__extras__url > span")
        .iter()
        .filter(|span| !span.has_class("result__icon"))
        .map(|span| span.text().replace('\u{a0}', " ").trim().to_owned())
        .find(|text| crate::normalize::parse_date(text).is_some())
}

/// The lite endpoint: one table, each result spread over rows: `a.result-link`,
/// then `td.result-snippet`, then `span.link-text`; sponsored rows carry
/// `result-sponsored`.
fn parse_lite_layout(body: &str) -> Page {
    let doc = Document::from(body);
    if !doc.select("a.result-link").exists() {
        let text = doc.select("body").text().to_ascii_lowercase();
        let is_lite_page = doc.select("input[name=\"q\"]").exists();
        return if doc.select(".no-results").exists()
            || (is_lite_page && text.contains("no results"))
        {
            Page::NoResults
        } else {
            Page::Unknown
        };
    }
    let mut results: Vec<RawResult> = Vec::new();
    // Whether the rows being read belong to a result that was kept.
    let mut current = false;
    for row in doc.select("tr").iter() {
        let link = row.select("a.result-link").first();
        if link.exists() {
            current = false;
            if row.has_class("result-sponsored") {
                continue;
            }
            if let Some(url) = link.attr("href").and_then(|href| result_url(&href)) {
                results.push(RawResult {
                    title: link.inner_html().trim().to_owned(),
                    url,
                    ..RawResult::default()
                });
                current = true;
            }
            continue;
        }
        let snippet = row.select("td.result-snippet").first();
        if current
            && snippet.exists()
            && let Some(last) = results.last_mut()
        {
            last.snippet = snippet.inner_html().trim().to_owned();
        }
    }
    Page::Results(results)
}

/// The real target of a result link: DuckDuckGo's redirect
/// `//duckduckgo.com/l/?uddg=<encoded>&rut=...` is decoded; ad clicks
/// (`duckduckgo.com/y.js`), the "search on Google" fallback offered when
/// nothing was found, and anything that is not http(s) give `None`.
fn result_url(href: &str) -> Option<String> {
    let href = href.trim();
    let base = Url::parse("https://duckduckgo.com/").ok()?;
    let url = base.join(href).ok()?;
    let on_ddg = url
        .host_str()
        .is_some_and(|h| h == "duckduckgo.com" || h.ends_with(".duckduckgo.com"));
    let url = if on_ddg {
        if url.path().starts_with("/y.js") {
            return None;
        }
        if url.path() != "/l/" && url.path() != "/l" {
            return None;
        }
        let target = url
            .query_pairs()
            .find(|(k, _)| k == "uddg")
            .map(|(_, v)| v.into_owned())?;
        Url::parse(&target).ok()?
    } else {
        url
    };
    if is_search_fallback(&url) {
        return None;
    }
    matches!(url.scheme(), "http" | "https").then(|| url.to_string())
}

/// A link to another engine's result page for the same query
/// (`http://www.google.com/search?q=...`): DuckDuckGo's offer when it found
/// nothing, not a page about the query.
fn is_search_fallback(url: &Url) -> bool {
    let google = url.host_str().is_some_and(|h| {
        let h = h.strip_prefix("www.").unwrap_or(h);
        h == "google.com" || h.starts_with("google.")
    });
    google && url.path() == "/search"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SearchDepth;

    fn query(text: &str) -> ProviderQuery {
        ProviderQuery {
            query: text.to_owned(),
            count: 5,
            site: None,
            include_domains: vec![],
            exclude_domains: vec![],
            date_range: None,
            safe_search: true,
            topic: Topic::General,
            depth: SearchDepth::Basic,
            ..ProviderQuery::default()
        }
    }

    fn reply(status: u16, body: &str) -> Reply {
        Reply {
            status: StatusCode::from_u16(status).unwrap(),
            headers: Default::default(),
            body: bytes::Bytes::copy_from_slice(body.as_bytes()),
        }
    }

    #[test]
    fn the_google_fallback_is_no_result_url() {
        assert_eq!(
            result_url("http://www.google.com/search?hl=en&q=zzqxj"),
            None
        );
        assert_eq!(result_url("https://google.de/search?q=zzqxj"), None);
        assert!(result_url("https://www.google.com/maps").is_some());
        assert!(result_url("https://example.com/search?q=x").is_some());
    }

    #[test]
    fn redirect_links_are_decoded_and_ads_dropped() {
        assert_eq!(
            result_url("//duckduckgo.com/l/?uddg=https%3A%2F%2Fdoc.rust-lang.org%2Fbook%2F%3Fa%3D1%26b%3D2&rut=abc")
                .as_deref(),
            Some("https://doc.rust-lang.org/book/?a=1&b=2")
        );
        assert_eq!(
            result_url("https://www.rust-lang.org/").as_deref(),
            Some("https://www.rust-lang.org/")
        );
        assert_eq!(
            result_url("https://duckduckgo.com/y.js?ad_domain=x.com&u3=1"),
            None
        );
        assert_eq!(result_url("//duckduckgo.com/l/?rut=abc"), None);
        assert_eq!(result_url("javascript:alert(1)"), None);
        assert_eq!(
            result_url("//duckduckgo.com/l/?uddg=javascript%3Aalert(1)"),
            None
        );
    }

    #[test]
    fn form_maps_every_filter() {
        let mut q = query("rust async");
        q.site = Some("docs.rs".into());
        q.exclude_domains = vec!["spam.example".into()];
        q.date_range = Some(DateRange::Week);
        q.safe_search = false;
        let form = form_fields(&q).unwrap();
        assert_eq!(
            form,
            vec![
                ("q", "rust async site:docs.rs -site:spam.example".to_owned()),
                ("b", String::new()),
                ("kl", "wt-wt".to_owned()),
                ("df", "w".to_owned()),
                ("kp", "-2".to_owned()),
            ]
        );
        let q = query(&"x".repeat(600));
        assert_eq!(form_fields(&q).unwrap_err().kind(), ErrorKind::InvalidQuery);
    }

    #[test]
    fn html_layout_results_skip_ads_and_keep_html() {
        let body = r#"<div id="links" class="results">
          <div class="result results_links results_links_deep result--ad result--ad--small">
            <h2 class="result__title"><a class="result__a" href="https://duckduckgo.com/y.js?ad_domain=ads.example">Ad</a></h2>
            <a class="result__snippet" href="https://duckduckgo.com/y.js?x=1">Buy now</a>
          </div>
          <div class="result results_links results_links_deep web-result">
            <h2 class="result__title"><a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fwww.rust-lang.org%2F&amp;rut=1">The <b>Rust</b> Language</a></h2>
            <div class="result__extras"><div class="result__extras__url">
              <span class="result__icon"><img class="result__icon__img" src="x.ico"></span>
              <a class="result__url" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fwww.rust-lang.org%2F">www.rust-lang.org</a>
              <span>&nbsp; &nbsp; 2024-03-01T00:00:00.0000000</span>
            </div></div>
            <a class="result__snippet" href="x">Fast &amp; <b>reliable</b></a>
          </div></div>"#;
        let Page::Results(results) = parse_html_layout(body) else {
            panic!("expected results");
        };
        assert_eq!(results.len(), 1);
        assert_eq!(results[0].url, "https://www.rust-lang.org/");
        assert_eq!(results[0].title, "The <b>Rust</b> Language");
        assert_eq!(results[0].snippet, "Fast &amp; <b>reliable</b>");
        assert_eq!(
            results[0].date.as_deref(),
            Some("2024-03-01T00:00:00.0000000")
        );
    }

    #[test]
    fn no_results_unknown_and_anomaly_pages_are_told_apart() {
        let none = r#"<div id="links"><div class="result result--no-result"><div class="no-results">No results.</div></div></div>"#;
        assert_eq!(parse_html_layout(none), Page::NoResults);
        let with_fallback = r#"<div id="links"><div class="result results_links result--no-result"><div class="links_main result__body"><h2 class="result__title"><a rel="nofollow" class="result__a" href="http://www.google.com/search?hl=en&amp;q=zzqxj">EOF</a></h2><div class="no-results">No  results.</div></div></div></div>"#;
        assert_eq!(parse_html_layout(with_fallback), Page::NoResults);
        assert_eq!(
            classify(&reply(200, none), Layout::Html).unwrap(),
            Page::NoResults
        );
        assert_eq!(
            parse_html_layout("<html><body><p>Something new</p></body></html>"),
            Page::Unknown
        );
        let anomaly =
            r#"<div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>"#;
        let e = classify(&reply(202, anomaly), Layout::Html).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::RateLimited);
        let e = classify(&reply(200, anomaly), Layout::Lite).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::RateLimited);
        // A 202 whose body looks like "no results" is still the throttle.
        let e = classify(&reply(202, none), Layout::Html).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::RateLimited);
        let e = classify(&reply(403, "<html></html>"), Layout::Html).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::RateLimited);
        let e = classify(&reply(503, "down"), Layout::Html).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::ServiceUnavailable);
    }

    #[test]
    fn lite_layout_rows_are_grouped_and_sponsored_rows_dropped() {
        let body = r#"<form action="/lite/" method="post"><input name="q" value="rust"></form>
          <table>
            <tr class="result-sponsored"><td>1.</td><td><a class="result-link" href="https://duckduckgo.com/y.js?ad=1">Ad</a></td></tr>
            <tr class="result-sponsored"><td></td><td class="result-snippet">Sponsored text</td></tr>
            <tr><td>1.&nbsp;</td><td><a rel="nofollow" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fdocs.rs%2F" class="result-link">Docs.rs</a></td></tr>
            <tr><td></td><td class="result-snippet">Documentation for <b>Rust</b> crates</td></tr>
            <tr><td></td><td><span class="link-text">docs.rs</span></td></tr>
            <tr><td>2.&nbsp;</td><td><a href="https://crates.io/" class="result-link">crates.io</a></td></tr>
          </table>"#;
        let Page::Results(results) = parse_lite_layout(body) else {
            panic!("expected results");
        };
        assert_eq!(results.len(), 2);
        assert_eq!(results[0].url, "https://docs.rs/");
        assert_eq!(results[0].snippet, "Documentation for <b>Rust</b> crates");
        assert_eq!(results[1].url, "https://crates.io/");
        assert_eq!(results[1].snippet, "");
    }

    #[test]
    fn region_pairs_country_and_language() {
        let q = |c: Option<&str>, l: Option<&str>| ProviderQuery {
            query: "rust".into(),
            country: c.map(str::to_owned),
            language: l.map(str::to_owned),
            ..ProviderQuery::default()
        };
        assert_eq!(region(&q(None, None)), "wt-wt");
        assert_eq!(region(&q(Some("de"), None)), "de-de");
        assert_eq!(region(&q(Some("us"), None)), "us-en");
        assert_eq!(region(&q(Some("gb"), None)), "uk-en");
        assert_eq!(region(&q(Some("ch"), Some("fr"))), "ch-fr");
        assert_eq!(unapplied(&q(None, Some("fr"))), vec!["language"]);
    }
}
