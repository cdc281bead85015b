//! Domain filters written into the query text, for providers (or filters) without
//! a native parameter: `site:` for the site or included domains, `-site:` for
//! excluded ones. The engine filters the results again whatever the provider did.

use crate::ProviderQuery;

/// Which filters an adapter passes natively, so they are not repeated as operators.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Native {
    /// `site` and `include_domains` are sent as parameters.
    pub(crate) include: bool,
    /// `exclude_domains` are sent as parameters.
    pub(crate) exclude: bool,
}

/// `query.query` with the operators for every domain filter not sent natively.
///
/// Several included domains become `site:a OR site:b`, which Google, Brave,
/// Serper, SearXNG's engines and DuckDuckGo read as "either site".
pub(crate) fn query_with_operators(query: &ProviderQuery, native: Native) -> String {
    let mut q = query.query.trim().to_owned();
    if !native.include {
        let sites: Vec<String> = query
            .site
            .iter()
            .chain(query.include_domains.iter())
            .map(|d| format!("site:{d}"))
            .collect();
        if !sites.is_empty() {
            q.push(' ');
            q.push_str(&sites.join(" OR "));
        }
    }
    if !native.exclude {
        for d in &query.exclude_domains {
            q.push_str(" -site:");
            q.push_str(d);
        }
    }
    q
}

/// The domains to send as a native "include" parameter: the site, or the included
/// domains (the engine intersects both on the results).
pub(crate) fn native_includes(query: &ProviderQuery) -> Vec<String> {
    match &query.site {
        Some(site) => vec![site.clone()],
        None => query.include_domains.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{SearchDepth, Topic};

    fn q() -> ProviderQuery {
        ProviderQuery {
            query: "rust async".into(),
            count: 5,
            site: None,
            include_domains: vec!["docs.rs".into(), "rust-lang.org".into()],
            exclude_domains: vec!["reddit.com".into()],
            date_range: None,
            safe_search: true,
            topic: Topic::General,
            depth: SearchDepth::Basic,
            ..ProviderQuery::default()
        }
    }

    #[test]
    fn operators_for_what_is_not_native() {
        assert_eq!(
            query_with_operators(&q(), Native::default()),
            "rust async site:docs.rs OR site:rust-lang.org -site:reddit.com"
        );
        assert_eq!(
            query_with_operators(
                &q(),
                Native {
                    include: true,
                    exclude: false
                }
            ),
            "rust async -site:reddit.com"
        );
        assert_eq!(
            query_with_operators(
                &q(),
                Native {
                    include: true,
                    exclude: true
                }
            ),
            "rust async"
        );
    }
}
