//! Several providers' rankings merged into one by reciprocal rank fusion.
//!
//! Each result scores `Σ 1 / (k + rank)` over the providers that returned it
//! (rank from 1), with `k = 60`, the constant of Cormack, Clarke and Büttcher
//! (SIGIR 2009): it needs no calibration between providers whose own scores
//! are not comparable, and a result that several providers agree on rises
//! above one that only a single provider ranks first.

use std::collections::HashMap;

use crate::normalize::dedupe_key_str;
use crate::request::{DEFAULT_MAX_RESULTS, MAX_RESULTS};
use crate::response::NO_RESULTS_SUGGESTION;
use crate::{
    Attempt, ErrorKind, SearchError, SearchRequest, SearchResponse, SearchResult, SearchService,
};

impl SearchService {
    /// Several providers at once, each asked alone, their answers merged by
    /// [`fuse`]. Fails only when none of them answered (or at once for an
    /// invalid query, which no provider would answer).
    pub(crate) async fn search_fused(
        &self,
        request: &SearchRequest,
        names: &[String],
    ) -> Result<SearchResponse, SearchError> {
        let started = tokio::time::Instant::now();
        let calls = names.iter().map(|name| async move {
            (name.clone(), self.search_chain(request, Some(name)).await)
        });
        let outcomes = futures_util::future::join_all(calls).await;
        let mut answered: Vec<(String, SearchResponse)> = Vec::new();
        let mut failures = Vec::new();
        for (name, outcome) in outcomes {
            match outcome {
                Ok(r) => answered.push((name, r)),
                Err(e)
                    if matches!(
                        e.kind(),
                        ErrorKind::InvalidQuery | ErrorKind::InvalidArgument
                    ) =>
                {
                    return Err(e);
                }
                Err(e) => failures.push((Attempt::new(name, &e), e)),
            }
        }
        if answered.is_empty() {
            return Err(SearchError::from_attempts(failures));
        }
        let max = request
            .max_results
            .unwrap_or(DEFAULT_MAX_RESULTS)
            .clamp(1, MAX_RESULTS) as usize;
        let lists: Vec<(String, Vec<SearchResult>)> = answered
            .iter()
            .map(|(name, r)| (name.clone(), r.results.clone()))
            .collect();
        let results = fuse(&lists, max);
        // Images have no shared ranking to fuse: each provider's in turn, an
        // image given twice kept once.
        let mut seen = std::collections::HashSet::new();
        let images: Vec<_> = answered
            .iter()
            .flat_map(|(_, r)| r.images.iter())
            .filter(|i| seen.insert(dedupe_key_str(&i.image_url)))
            .take(max)
            .cloned()
            .collect();
        let unapplied_filters = answered
            .iter()
            .flat_map(|(name, r)| {
                r.unapplied_filters
                    .iter()
                    .map(move |f| format!("{f} ({name})"))
            })
            .collect();
        let mut attempts: Vec<Attempt> = failures.into_iter().map(|(a, _)| a).collect();
        attempts.extend(
            answered
                .iter()
                .flat_map(|(_, r)| r.attempts.iter().cloned()),
        );
        let returned = (results.len() + images.len()) as u64;
        let elapsed = started.elapsed();
        Ok(SearchResponse {
            query: request.query.clone(),
            total_results: answered
                .iter()
                .map(|(_, r)| r.total_results)
                .max()
                .unwrap_or(0)
                .max(returned),
            suggestion: (results.is_empty() && images.is_empty())
                .then(|| NO_RESULTS_SUGGESTION.to_owned()),
            results,
            images,
            search_engine: answered
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>()
                .join("+"),
            search_time: elapsed.as_secs_f64(),
            response_time_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
            attempts,
            unapplied_filters,
            content_tokens: None,
        })
    }
}

/// The fusion constant.
pub const RRF_K: f64 = 60.0;

/// Merges `lists` (one per provider, best first) into one ranking of at most
/// `max` results, deduplicated by normalised URL. Each result names the
/// providers that returned it (in the order given) and carries its fusion
/// score; the first provider's copy of a result wins for its other fields,
/// except that a missing date or content is taken from another copy.
pub fn fuse(lists: &[(String, Vec<SearchResult>)], max: usize) -> Vec<SearchResult> {
    let mut merged: Vec<(SearchResult, f64, usize)> = Vec::new();
    let mut by_key: HashMap<String, usize> = HashMap::new();
    for (provider, results) in lists {
        for (rank, r) in results.iter().enumerate() {
            let key = dedupe_key_str(&r.url);
            let gain = 1.0 / (RRF_K + (rank + 1) as f64);
            match by_key.get(&key) {
                Some(&i) => {
                    let (m, score, best) = &mut merged[i];
                    *score += gain;
                    *best = (*best).min(rank);
                    if !m.providers.contains(provider) {
                        m.providers.push(provider.clone());
                    }
                    if m.date_published.is_none() {
                        m.date_published.clone_from(&r.date_published);
                    }
                    if m.content.is_none() {
                        m.content.clone_from(&r.content);
                    }
                }
                None => {
                    let mut m = r.clone();
                    m.providers = vec![provider.clone()];
                    by_key.insert(key, merged.len());
                    merged.push((m, gain, rank));
                }
            }
        }
    }
    // Ties (equal sums) go to the better single rank, then to first seen.
    let mut order: Vec<usize> = (0..merged.len()).collect();
    order.sort_by(|&a, &b| {
        merged[b]
            .1
            .total_cmp(&merged[a].1)
            .then(merged[a].2.cmp(&merged[b].2))
            .then(a.cmp(&b))
    });
    let mut slots: Vec<Option<(SearchResult, f64, usize)>> = merged.into_iter().map(Some).collect();
    order
        .into_iter()
        .take(max)
        .filter_map(|i| slots[i].take())
        .map(|(mut r, score, _)| {
            // Rounded so the JSON stays readable; six digits keep every rank distinct.
            r.score = Some((score * 1e6).round() / 1e6);
            r
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(url: &str) -> SearchResult {
        SearchResult {
            title: url.to_owned(),
            url: url.to_owned(),
            snippet: String::new(),
            domain: "x".to_owned(),
            date_published: None,
            score: None,
            content: None,
            content_error: None,
            providers: Vec::new(),
        }
    }

    #[test]
    fn agreement_beats_a_single_first_place() {
        let a = (
            "a".to_owned(),
            vec![r("https://one.test/"), r("https://two.test/")],
        );
        let b = (
            "b".to_owned(),
            vec![r("https://three.test/"), r("https://WWW.two.test#x")],
        );
        let fused = fuse(&[a, b], 10);
        let urls: Vec<&str> = fused.iter().map(|r| r.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://two.test/",
                "https://one.test/",
                "https://three.test/"
            ]
        );
        assert_eq!(fused[0].providers, ["a", "b"]);
        assert_eq!(fused[1].providers, ["a"]);
        let two = 1.0 / 62.0 + 1.0 / 62.0;
        assert!((fused[0].score.unwrap() - two).abs() < 1e-5);
    }

    #[test]
    fn max_bounds_the_answer() {
        let a = (
            "a".to_owned(),
            (0..10).map(|i| r(&format!("https://e.test/{i}"))).collect(),
        );
        assert_eq!(fuse(&[a], 3).len(), 3);
    }
}
