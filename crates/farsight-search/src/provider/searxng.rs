//! A SearXNG instance: `GET {SEARXNG_URL}/search?format=json`.
//!
//! Dates: `publishedDate`, else the date an engine wrote at the start of the
//! snippet (which is then removed from it).
//!
//! Native: `categories=news`, `time_range` (day/week/month/year), `safesearch`
//! (0 off, 2 strict), `language`, images (`categories=images`: `img_src`,
//! `thumbnail_src`, `resolution` "W x H"). Not available: country (reported
//! unapplied; the instance's engines choose their regions). Emulated: site and domain filters as operators (the
//! instance passes them to its engines). No count parameter: one page is read.
//! JSON output must be enabled on the instance (`search.formats` in
//! settings.yml); when it is not, the instance answers 403 and the error says so.

use std::fmt;

use serde::Deserialize;

use super::http::{self, Reply};
use super::operators::{Native, query_with_operators};
use crate::normalize::split_date_prefix;
use crate::registry::not_configured;
use crate::{
    DateRange, ErrorKind, Provider, ProviderAnswer, ProviderQuery, ProviderSettings, RawImage,
    RawResult, SearchError, SearchType, Topic,
};

fn absolute(url: String) -> String {
    if url.starts_with("//") {
        format!("https:{url}")
    } else {
        url
    }
}

const NAME: &str = "searxng";
/// Only the path matters: the instance's URL replaces the origin.
const SEARCH: &str = "http://localhost/search";
/// One page of a SearXNG answer holds about 20 results at most.
const MAX_COUNT: u32 = 20;

/// The SearXNG adapter.
pub struct SearxngProvider {
    client: reqwest::Client,
    base_url: String,
    api_key: Option<String>,
}

impl fmt::Debug for SearxngProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearxngProvider")
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}

impl SearxngProvider {
    /// An adapter for the instance at `settings.base_url` (`SEARXNG_URL`); an
    /// `api_key`, when set, is sent as a bearer token for instances behind one.
    ///
    /// # Errors
    ///
    /// `notConfigured` without a URL or with one that is not http(s).
    pub fn new(settings: &ProviderSettings, client: reqwest::Client) -> Result<Self, SearchError> {
        let base_url = settings
            .base_url
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .ok_or_else(|| not_configured(NAME, "the instance URL"))?
            .to_owned();
        http::endpoint(NAME, Some(&base_url), SEARCH)?;
        Ok(Self {
            client,
            base_url,
            api_key: settings.api_key.clone().filter(|k| !k.trim().is_empty()),
        })
    }
}

fn params(query: &ProviderQuery) -> Vec<(&'static str, String)> {
    let mut p = vec![
        ("q", query_with_operators(query, Native::default())),
        ("format", "json".to_owned()),
        ("pageno", "1".to_owned()),
        (
            "categories",
            match (query.search_type, query.topic) {
                (SearchType::Images, _) => "images",
                (_, Topic::General) => "general",
                (_, Topic::News) => "news",
            }
            .to_owned(),
        ),
        (
            "safesearch",
            if query.safe_search { "2" } else { "0" }.to_owned(),
        ),
    ];
    if let Some(range) = query.date_range {
        let r = match range {
            DateRange::Day => "day",
            DateRange::Week => "week",
            DateRange::Month => "month",
            DateRange::Year => "year",
        };
        p.push(("time_range", r.to_owned()));
    }
    if let Some(language) = &query.language {
        p.push(("language", language.clone()));
    }
    p
}

#[async_trait::async_trait]
impl Provider for SearxngProvider {
    fn name(&self) -> &'static str {
        NAME
    }

    fn max_results(&self) -> u32 {
        MAX_COUNT
    }

    fn supports_images(&self) -> bool {
        true
    }

    async fn search(&self, query: &ProviderQuery) -> Result<ProviderAnswer, SearchError> {
        let url = http::endpoint(NAME, Some(&self.base_url), SEARCH)?;
        let mut request = self
            .client
            .get(url)
            .query(&params(query))
            .header("Accept", "application/json");
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key);
        }
        let reply = http::send(NAME, request).await?;
        if !reply.status.is_success() {
            return Err(error_for(&reply));
        }
        let mut answer = parse(&reply)?;
        // Image results are results too (with `img_src`); keep the kind asked for.
        if query.search_type == SearchType::Images {
            answer.results.clear();
        } else {
            answer.images.clear();
        }
        if query.country.is_some() {
            answer.unapplied_filters.push("country");
        }
        Ok(answer)
    }
}

#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    results: Vec<Item>,
    #[serde(default)]
    number_of_results: Option<f64>,
    // `[["engine", "reason"], ...]`
    #[serde(default)]
    unresponsive_engines: Vec<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Item {
    #[serde(default)]
    title: String,
    url: String,
    #[serde(default)]
    content: String,
    #[serde(default)]
    score: Option<f64>,
    #[serde(default)]
    published_date: Option<String>,
    /// Image results (`template: "images.html"`): the image, its thumbnail and
    /// its size as "1920 x 1080"; `url` is then the page.
    #[serde(default, rename = "img_src")]
    img_src: Option<String>,
    #[serde(default, rename = "thumbnail_src")]
    thumbnail_src: Option<String>,
    #[serde(default)]
    resolution: Option<String>,
}

/// "1920 x 1080" (or "1920x1080", "1920 × 1080") as width and height.
fn resolution(raw: Option<&str>) -> (Option<u32>, Option<u32>) {
    let Some(raw) = raw else {
        return (None, None);
    };
    let mut parts = raw
        .split(['x', 'X', '×'])
        .map(|n| n.trim().parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten(), parts.next()) {
        (Some(w), Some(h), None) => (Some(w), Some(h)),
        _ => (None, None),
    }
}

fn parse(reply: &Reply) -> Result<ProviderAnswer, SearchError> {
    let answer: Answer = reply.json(NAME)?;
    if answer.results.is_empty() && !answer.unresponsive_engines.is_empty() {
        // No results because the engines failed is not "no results".
        let engines: Vec<String> = answer
            .unresponsive_engines
            .iter()
            .map(|e| e.join(": "))
            .collect();
        return Err(SearchError::new(
            ErrorKind::ServiceUnavailable,
            format!(
                "the SearXNG instance's engines did not answer ({})",
                engines.join(", ")
            ),
        )
        .with_provider(NAME)
        .with_suggestion("Try again later, or enable more engines on the instance."));
    }
    let total = answer
        .number_of_results
        .filter(|n| n.is_finite() && *n >= 1.0)
        .map(|n| n as u64);
    let images = answer
        .results
        .iter()
        .filter_map(|i| {
            let image_url = i.img_src.clone().filter(|s| !s.trim().is_empty())?;
            let (width, height) = resolution(i.resolution.as_deref());
            Some(RawImage {
                title: i.title.clone(),
                // Some engines give protocol-relative sources ("//host/img.jpg").
                image_url: absolute(image_url),
                thumbnail_url: i
                    .thumbnail_src
                    .clone()
                    .filter(|s| !s.trim().is_empty())
                    .map(absolute),
                width,
                height,
                page_url: Some(i.url.clone()),
            })
        })
        .collect();
    Ok(ProviderAnswer {
        images,
        results: answer
            .results
            .into_iter()
            .map(|i| {
                // Engines behind the instance write the date at the start of
                // the content ("3 days ago · ...", "Apr 17, 2024 — ...").
                let (prefix_date, snippet) = match split_date_prefix(&i.content) {
                    Some((date, rest)) => (Some(date), rest.to_owned()),
                    None => (None, i.content),
                };
                RawResult {
                    title: i.title,
                    url: i.url,
                    snippet,
                    date: i
                        .published_date
                        .filter(|d| !d.trim().is_empty())
                        .or(prefix_date),
                    score: i.score,
                    content: None,
                }
            })
            .collect(),
        total_results: total,
        unapplied_filters: Vec::new(),
    })
}

fn error_for(reply: &Reply) -> SearchError {
    let status = reply.status.as_u16();
    if status == 403 {
        return SearchError::new(
            ErrorKind::NotConfigured,
            "the SearXNG instance refused JSON output (HTTP 403): its JSON format is disabled",
        )
        .with_provider(NAME)
        .with_status(status)
        .with_suggestion(
            "Enable JSON on the instance: add `json` to `search.formats` in settings.yml (formats: [html, json]) and restart it.",
        );
    }
    http::error_for_status(NAME, reply)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SearchDepth;
    use bytes::Bytes;
    use reqwest::StatusCode;
    use reqwest::header::HeaderMap;

    fn reply(status: u16, body: &str) -> Reply {
        Reply {
            status: StatusCode::from_u16(status).unwrap(),
            headers: HeaderMap::new(),
            body: Bytes::from(body.to_owned()),
        }
    }

    #[test]
    fn maps_every_filter() {
        let q = ProviderQuery {
            query: "rust".into(),
            count: 5,
            site: None,
            include_domains: vec!["docs.rs".into()],
            exclude_domains: vec![],
            date_range: Some(DateRange::Week),
            safe_search: true,
            topic: Topic::News,
            depth: SearchDepth::Basic,
            ..ProviderQuery::default()
        };
        let p = params(&q);
        let get = |k: &str| p.iter().find(|(n, _)| *n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("q"), Some("rust site:docs.rs"));
        assert_eq!(get("format"), Some("json"));
        assert_eq!(get("categories"), Some("news"));
        assert_eq!(get("safesearch"), Some("2"));
        assert_eq!(get("time_range"), Some("week"));
    }

    #[test]
    fn maps_language_and_images() {
        let q = ProviderQuery {
            query: "eiffel tower".into(),
            language: Some("fr".into()),
            search_type: SearchType::Images,
            ..ProviderQuery::default()
        };
        let p = params(&q);
        let get = |k: &str| p.iter().find(|(n, _)| *n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("language"), Some("fr"));
        assert_eq!(get("categories"), Some("images"));
    }

    #[test]
    fn reads_image_results() {
        // An instance's JSON for categories=images (the images.html template), trimmed.
        let a = parse(&reply(200, r#"{"query":"eiffel tower","number_of_results":0,"results":[
            {"template":"images.html","url":"https://commons.example/wiki/File:Eiffel.jpg","title":"Eiffel Tower",
             "content":"","img_src":"https://upload.example/eiffel.jpg","thumbnail_src":"//thumbs.example/eiffel_200.jpg",
             "resolution":"1600 x 1200","img_format":"jpeg","engine":"wikicommons.images","score":1.0},
            {"template":"images.html","url":"https://b.example/p","title":"No size","img_src":"https://b.example/i.png","resolution":"unknown"}]}"#)).unwrap();
        let i = &a.images[0];
        assert_eq!(i.image_url, "https://upload.example/eiffel.jpg");
        assert_eq!(
            i.thumbnail_url.as_deref(),
            Some("https://thumbs.example/eiffel_200.jpg")
        );
        assert_eq!((i.width, i.height), (Some(1600), Some(1200)));
        assert_eq!(
            i.page_url.as_deref(),
            Some("https://commons.example/wiki/File:Eiffel.jpg")
        );
        assert_eq!((a.images[1].width, a.images[1].height), (None, None));
    }

    #[test]
    fn failed_engines_are_not_an_empty_answer() {
        let e = parse(&reply(200, r#"{"query":"x","number_of_results":0,"results":[],"unresponsive_engines":[["google","CAPTCHA"]]}"#)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::ServiceUnavailable);
        assert!(e.message().contains("CAPTCHA"));
        let a = parse(&reply(
            200,
            r#"{"query":"x","number_of_results":0,"results":[],"unresponsive_engines":[]}"#,
        ))
        .unwrap();
        assert!(a.results.is_empty());
    }

    #[test]
    fn json_disabled_says_how_to_enable_it() {
        let e = error_for(&reply(403, "<html>403 Forbidden</html>"));
        assert!(e.suggestion().unwrap_or("").contains("search.formats"));
    }
}
