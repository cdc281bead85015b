//! The cache key of a URL.

/// Normalises a URL for use as a cache key: the scheme and host lower-cased
/// (IDN hosts in punycode), the default port dropped, an empty path made `/`,
/// the fragment dropped. The query is kept as it is: its order can matter to
/// the server. Returns `None` for anything that is not an absolute URL with a
/// host.
#[must_use]
pub fn normalize_url(url: &str) -> Option<String> {
    let mut parsed = url::Url::parse(url.trim()).ok()?;
    parsed.host_str()?;
    parsed.set_fragment(None);
    Some(parsed.into())
}

#[cfg(test)]
mod tests {
    use super::normalize_url;

    #[test]
    fn normalises_case_port_and_fragment() {
        assert_eq!(
            normalize_url("HTTPS://Example.COM:443/Path?b=2&a=1#section").as_deref(),
            Some("https://example.com/Path?b=2&a=1")
        );
        assert_eq!(
            normalize_url("http://example.com:80").as_deref(),
            Some("http://example.com/")
        );
        assert_eq!(
            normalize_url("http://example.com:8080/").as_deref(),
            Some("http://example.com:8080/")
        );
        assert_eq!(
            normalize_url("http://bücher.example/").as_deref(),
            Some("http://xn--bcher-kva.example/")
        );
        assert_eq!(normalize_url("not a url"), None);
        assert_eq!(normalize_url("mailto:a@example.com"), None);
    }
}
