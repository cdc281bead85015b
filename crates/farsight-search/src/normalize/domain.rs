//! Registrable domains, the URL key used to find duplicates, and the domain
//! filters the engine applies to every provider's results (what an entry
//! means and whether a host is in it is `farsight_net`'s, as for the fetch
//! blocklist).

use farsight_net::domain_matches;
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

/// The key two results share when they are the same page, the one URL key of
/// the engine (deduplication of one provider's results and fusion of several):
/// scheme (http and https), host case, `www.`, the default port, the
/// fragment, a trailing slash and tracking parameters (`utm_*`, `fbclid`,
/// `gclid`, ...) do not make two results different.
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
    let host = url.host_str().unwrap_or("").to_ascii_lowercase();
    let host = host.trim_start_matches("www.");
    // `port()` is `None` for the scheme's default port.
    let port = url.port().map(|p| format!(":{p}")).unwrap_or_default();
    let path = url.path().trim_end_matches('/');
    let query = url.query().map(|q| format!("?{q}")).unwrap_or_default();
    // http and https copies of a page are the same result for an agent.
    format!("{host}{port}{path}{query}")
}

/// [`dedupe_key`] of a URL given as text; text that is not a URL is its own
/// key (trimmed).
pub(crate) fn dedupe_key_str(raw: &str) -> String {
    Url::parse(raw.trim()).map_or_else(|_| raw.trim().to_owned(), |url| dedupe_key(&url))
}

/// Query parameters that say where a click came from, not what the page is.
fn is_tracking_param(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.starts_with("utm_")
        || matches!(
            name.as_str(),
            "fbclid"
                | "gclid"
                | "gclsrc"
                | "dclid"
                | "gbraid"
                | "wbraid"
                | "msclkid"
                | "mc_cid"
                | "mc_eid"
                | "yclid"
                | "igshid"
                | "mkt_tok"
                | "_hsenc"
                | "_hsmi"
        )
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
            && !domain_matches(host, site)
        {
            return false;
        }
        if !self.include.is_empty() && !self.include.iter().any(|d| domain_matches(host, d)) {
            return false;
        }
        !self.exclude.iter().any(|d| domain_matches(host, d))
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
        assert_eq!(
            dedupe_key(&u("https://example.com:443/a")),
            dedupe_key(&u("http://example.com:80/a"))
        );
        assert_ne!(
            dedupe_key(&u("https://example.com:8443/a")),
            dedupe_key(&u("https://example.com/a"))
        );
        assert_eq!(
            dedupe_key(&u("https://e.com/a?GCLID=1&msclkid=2&utm_Medium=x")),
            dedupe_key(&u("https://e.com/a"))
        );
    }

    // The rules fusion's own `url_key` had, now kept here once (issue 10).
    #[test]
    fn fusion_keys_are_the_same_keys() {
        assert_eq!(
            dedupe_key_str("https://Example.com/a/?utm_source=x&id=3#top"),
            dedupe_key_str("http://example.com/a?id=3&fbclid=9")
        );
        assert_ne!(
            dedupe_key_str("https://e.com/a?id=3"),
            dedupe_key_str("https://e.com/a?id=4")
        );
        assert_eq!(
            dedupe_key_str("https://WWW.two.test#x"),
            dedupe_key_str("https://two.test/")
        );
        assert_eq!(dedupe_key_str(" not a url "), "not a url");
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

    // Issue 10: a non-ASCII includeDomains entry must match its punycode form.
    #[test]
    fn unicode_entries_match_punycode_hosts() {
        let entry = farsight_net::normalize_domain("bücher.de").unwrap();
        let f = DomainFilter {
            site: None,
            include: vec![entry],
            exclude: vec![],
        };
        assert!(f.allows(&u("https://xn--bcher-kva.de/buch")));
        assert!(f.allows(&u("https://www.bücher.de/")));
        assert!(!f.allows(&u("https://bucher.de/")));
    }
}
