//! Registrable domains, the URL key used to find duplicates, and the domain
//! filters the engine applies to every provider's results.

use url::Url;

/// The registrable domain of `url` (`docs.rust-lang.org` → `rust-lang.org`,
/// `news.bbc.co.uk` → `bbc.co.uk`); the host itself for IP addresses and names
/// without a public suffix.
pub(crate) fn registrable_domain(url: &Url) -> String {
    let Some(host) = url.host_str() else {
        return String::new();
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    match url.host() {
        Some(url::Host::Domain(_)) => psl::domain_str(&host).unwrap_or(&host).to_owned(),
        _ => host,
    }
}

/// The key two results share when they are the same page: scheme and host
/// lower-cased (the URL parser does that), default port, fragment, trailing
/// slash and tracking parameters (`utm_*`, `fbclid`, `gclid`, ...) removed.
pub(crate) fn dedupe_key(url: &Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    let kept: Vec<(String, String)> = url
        .query_pairs()
        .filter(|(k, _)| !is_tracking_param(k))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    if kept.is_empty() {
        url.set_query(None);
    } else {
        url.query_pairs_mut().clear().extend_pairs(kept);
    }
    let host = url
        .host_str()
        .unwrap_or("")
        .trim_start_matches("www.")
        .to_owned();
    let port = url.port().map(|p| format!(":{p}")).unwrap_or_default();
    let path = url.path().trim_end_matches('/');
    let query = url.query().map(|q| format!("?{q}")).unwrap_or_default();
    // http and https copies of a page are the same result for an agent.
    format!("{host}{port}{path}{query}")
}

fn is_tracking_param(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.starts_with("utm_")
        || matches!(
            name.as_str(),
            "fbclid" | "gclid" | "dclid" | "msclkid" | "mc_cid" | "mc_eid" | "yclid"
        )
}

/// A domain as the agent wrote it (`https://www.Example.com/path`,
/// `*.example.com`, `example.com.`) reduced to a lower-case host name.
pub(crate) fn normalize_domain(raw: &str) -> Option<String> {
    let mut d = raw.trim().to_ascii_lowercase();
    if let Some(rest) = d.split_once("://").map(|(_, rest)| rest.to_owned()) {
        d = rest;
    }
    let d = d
        .split(['/', '?', '#'])
        .next()
        .unwrap_or("")
        .rsplit('@')
        .next()
        .unwrap_or("");
    // Drop a port, but not from an IPv6 literal.
    let d = if d.starts_with('[') {
        d
    } else {
        d.split(':').next().unwrap_or("")
    };
    let d = d.trim_start_matches("*.").trim_start_matches('.');
    let d = d.strip_prefix("www.").unwrap_or(d).trim_end_matches('.');
    (!d.is_empty() && !d.contains(char::is_whitespace)).then(|| d.to_owned())
}

/// Whether `host` is `domain` or one of its subdomains.
pub(crate) fn host_matches(host: &str, domain: &str) -> bool {
    let host = host.trim_end_matches('.');
    host.eq_ignore_ascii_case(domain)
        || (host.len() > domain.len()
            && host.as_bytes()[host.len() - domain.len() - 1] == b'.'
            && host[host.len() - domain.len()..].eq_ignore_ascii_case(domain))
}

/// The domain filters of one request, already normalised.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct DomainFilter {
    pub(crate) site: Option<String>,
    pub(crate) include: Vec<String>,
    pub(crate) exclude: Vec<String>,
}

impl DomainFilter {
    /// Whether a result at `url` may be shown.
    pub(crate) fn allows(&self, url: &Url) -> bool {
        let Some(host) = url.host_str() else {
            return false;
        };
        if let Some(site) = &self.site
            && !host_matches(host, site)
        {
            return false;
        }
        if !self.include.is_empty() && !self.include.iter().any(|d| host_matches(host, d)) {
            return false;
        }
        !self.exclude.iter().any(|d| host_matches(host, d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn registrable_domains() {
        assert_eq!(
            registrable_domain(&u("https://docs.rust-lang.org/x")),
            "rust-lang.org"
        );
        assert_eq!(
            registrable_domain(&u("https://news.bbc.co.uk/")),
            "bbc.co.uk"
        );
        assert_eq!(
            registrable_domain(&u("https://user.github.io/")),
            "user.github.io"
        );
        assert_eq!(
            registrable_domain(&u("http://127.0.0.1:8080/")),
            "127.0.0.1"
        );
        assert_eq!(
            registrable_domain(&u("https://WWW.Example.COM/")),
            "example.com"
        );
    }

    #[test]
    fn duplicates_share_a_key() {
        let a = dedupe_key(&u("https://Example.com/page/?utm_source=x&id=3#top"));
        let b = dedupe_key(&u("http://www.example.com/page?id=3&fbclid=abc"));
        let c = dedupe_key(&u("https://example.com/page?id=4"));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(
            dedupe_key(&u("https://example.com/")),
            dedupe_key(&u("https://example.com"))
        );
    }

    #[test]
    fn domains_are_normalised() {
        assert_eq!(
            normalize_domain("https://www.React.dev/learn").as_deref(),
            Some("react.dev")
        );
        assert_eq!(
            normalize_domain("*.example.com").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            normalize_domain("example.com:443").as_deref(),
            Some("example.com")
        );
        assert_eq!(normalize_domain("  "), None);
    }

    #[test]
    fn filter_counts_subdomains() {
        let f = DomainFilter {
            site: None,
            include: vec!["rust-lang.org".into()],
            exclude: vec!["blog.rust-lang.org".into()],
        };
        assert!(f.allows(&u("https://doc.rust-lang.org/std")));
        assert!(f.allows(&u("https://rust-lang.org/")));
        assert!(!f.allows(&u("https://blog.rust-lang.org/2024")));
        assert!(!f.allows(&u("https://notrust-lang.org/")));
        assert!(!f.allows(&u("https://example.com/")));
    }
}
