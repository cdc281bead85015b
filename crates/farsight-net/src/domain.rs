//! Domain names as people write them in settings and requests, and the one
//! rule for whether a host belongs to a domain. The fetch guard's blocklist
//! and the search engine's `site`/`includeDomains`/`excludeDomains` filters
//! both use these, so an entry means the same thing everywhere.

use std::borrow::Cow;

/// A domain as someone wrote it (`https://www.Example.com:443/path`,
/// `*.example.com`, `.example.com`, `example.com.`, `Bücher.de`) reduced to
/// the host name that URLs carry: lower-case, without scheme, credentials,
/// port, path, leading `*.`/`.`/`www.` and trailing dot, and a Unicode name
/// in its IDNA (punycode) form (`xn--bcher-kva.de`). IP addresses stay
/// addresses (`[::1]` for IPv6). `None` when nothing like a host name is left.
#[must_use]
pub fn normalize_domain(raw: &str) -> Option<String> {
    let mut d = raw.trim();
    if let Some((_, rest)) = d.split_once("://") {
        d = rest;
    }
    let d = d.split(['/', '?', '#']).next().unwrap_or("");
    let d = d.rsplit('@').next().unwrap_or("");
    // A port goes, but the colons of an IPv6 literal stay.
    let d = match d.strip_prefix('[') {
        Some(v6) => &d[..v6.find(']').map_or(d.len(), |end| end + 2)],
        None => d.split(':').next().unwrap_or(""),
    };
    let d = strip_prefixes(d);
    if d.is_empty() {
        return None;
    }
    let name = match url::Host::parse(d).ok()? {
        // IDNA maps some characters to dots (`。`): strip again after it.
        url::Host::Domain(name) => strip_prefixes(&name).to_owned(),
        url::Host::Ipv4(ip) => ip.to_string(),
        url::Host::Ipv6(ip) => format!("[{ip}]"),
    };
    (!name.is_empty()).then_some(name)
}

/// Whether `host` is `domain` or one of its subdomains: `docs.rs` and
/// `www.docs.rs` are in `docs.rs`, `notdocs.rs` is not. Case, a trailing dot
/// and the Unicode or punycode spelling of either side do not matter.
#[must_use]
pub fn domain_matches(host: &str, domain: &str) -> bool {
    let host = ascii_name(host);
    let domain = ascii_name(domain);
    let (h, d) = (host.as_bytes(), domain.as_bytes());
    if d.is_empty() {
        return false;
    }
    h.eq_ignore_ascii_case(d)
        || (h.len() > d.len()
            && h[h.len() - d.len() - 1] == b'.'
            && h[h.len() - d.len()..].eq_ignore_ascii_case(d))
}

/// A host name as URLs carry it: lower-case ASCII without a trailing dot, a
/// Unicode name in punycode.
pub(crate) fn normalize_host(name: &str) -> String {
    ascii_name(name).to_ascii_lowercase()
}

/// `name` without a trailing dot, in punycode when it is Unicode (left as it
/// is when IDNA refuses it: it then matches only itself).
fn ascii_name(name: &str) -> Cow<'_, str> {
    let name = name.trim_end_matches('.');
    if name.is_ascii() {
        return Cow::Borrowed(name);
    }
    match url::Host::parse(name) {
        Ok(url::Host::Domain(d)) => Cow::Owned(d.trim_end_matches('.').to_owned()),
        _ => Cow::Owned(name.to_lowercase()),
    }
}

/// `d` without leading `*.`, `.` and `www.` (however many) and trailing dots.
fn strip_prefixes(mut d: &str) -> &str {
    loop {
        let next = d.trim_start_matches("*.").trim_start_matches('.');
        let next = match next.get(..4) {
            Some(www) if www.eq_ignore_ascii_case("www.") => &next[4..],
            _ => next,
        };
        if next.len() == d.len() {
            return d.trim_end_matches('.');
        }
        d = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_reduced_to_host_names() {
        for (raw, want) in [
            ("https://www.React.dev/learn", "react.dev"),
            ("*.example.com", "example.com"),
            (".example.com.", "example.com"),
            ("example.com:443", "example.com"),
            (
                "https://user:pw@Tracker.example:8443/x?y#z",
                "tracker.example",
            ),
            ("  docs.rs ", "docs.rs"),
            ("Bücher.de", "xn--bcher-kva.de"),
            ("https://www.bücher.de/", "xn--bcher-kva.de"),
            ("XN--BCHER-KVA.de", "xn--bcher-kva.de"),
            ("127.0.0.1:8080", "127.0.0.1"),
            ("[::1]:8080", "[::1]"),
            ("www", "www"),
            ("www.www.example.com", "example.com"),
            ("www..example.com", "example.com"),
            (".*.example.com", "example.com"),
            ("www。example.com", "example.com"),
        ] {
            assert_eq!(normalize_domain(raw).as_deref(), Some(want), "{raw}");
        }
        for raw in [
            "",
            "  ",
            "https://",
            "exa mple.com",
            "a<b>.com",
            "*.",
            "www.",
        ] {
            assert_eq!(normalize_domain(raw), None, "{raw:?}");
        }
    }

    #[test]
    fn hosts_match_their_domain_and_its_subdomains_only() {
        assert!(domain_matches("rust-lang.org", "rust-lang.org"));
        assert!(domain_matches("doc.rust-lang.org", "rust-lang.org"));
        assert!(domain_matches("A.B.Rust-Lang.ORG.", "rust-lang.org"));
        assert!(!domain_matches("notrust-lang.org", "rust-lang.org"));
        assert!(!domain_matches("rust-lang.org.evil", "rust-lang.org"));
        assert!(!domain_matches("org", "rust-lang.org"));
        assert!(!domain_matches("rust-lang.org", ""));
    }

    // Issue 10: a non-ASCII includeDomains entry must match its punycode form.
    #[test]
    fn unicode_and_punycode_spellings_match_each_other() {
        let entry = normalize_domain("bücher.de").expect("entry");
        assert!(domain_matches("xn--bcher-kva.de", &entry));
        assert!(domain_matches("shop.xn--bcher-kva.de", &entry));
        assert!(domain_matches("shop.bücher.de", "xn--bcher-kva.de"));
        assert!(domain_matches("xn--bcher-kva.de", "Bücher.de"));
        assert!(!domain_matches("xn--bcher-kva.de", "bucher.de"));
    }

    proptest::proptest! {
        // A normalised entry is a fixed point and matches itself, whatever was typed.
        #[test]
        fn normalising_is_idempotent_and_never_panics(raw in "\\PC{0,40}") {
            if let Some(d) = normalize_domain(&raw) {
                proptest::prop_assert_eq!(normalize_domain(&d), Some(d.clone()));
                proptest::prop_assert!(domain_matches(&d, &d));
            }
            let _ = domain_matches(&raw, "é.com");
        }
    }
}
