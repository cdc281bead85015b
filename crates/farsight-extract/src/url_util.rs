//! Making the page's URLs absolute and safe.

use url::Url;

/// Resolves references against the page's base URL.
pub(crate) struct Resolver {
    base: Option<Url>,
}

impl Resolver {
    /// `page` is the page's URL; `base_href` a `<base href>` in the page.
    pub(crate) fn new(page: Option<&str>, base_href: Option<&str>) -> Self {
        let page = page.and_then(|p| Url::parse(p.trim()).ok());
        let base = match (base_href, &page) {
            (Some(b), Some(p)) => p.join(b.trim()).ok().or(page.clone()),
            (Some(b), None) => Url::parse(b.trim()).ok(),
            (None, p) => p.clone(),
        };
        Self { base }
    }

    fn resolve(&self, reference: &str) -> Option<Url> {
        let r = reference.trim();
        if r.is_empty() {
            return None;
        }
        match &self.base {
            Some(b) => b.join(r).ok(),
            None => Url::parse(r).ok(),
        }
    }

    /// A link target worth giving an agent: absolute http(s) or mailto, not a
    /// fragment of the page itself, never `javascript:` or `data:`.
    pub(crate) fn link(&self, href: &str) -> Option<String> {
        let h = href.trim();
        if h.starts_with('#') {
            return None;
        }
        let url = self.resolve(h)?;
        if !matches!(url.scheme(), "http" | "https" | "mailto") {
            return None;
        }
        if let Some(base) = &self.base
            && url.fragment().is_some()
            && same_document(&url, base)
        {
            return None;
        }
        Some(url.to_string())
    }

    /// An image source: absolute http(s) only (no `data:` blobs).
    pub(crate) fn image(&self, src: &str) -> Option<String> {
        self.http(src)
    }

    /// A reference as an absolute http(s) URL, the only kind farsight
    /// fetches.
    pub(crate) fn http(&self, reference: &str) -> Option<String> {
        let url = self.resolve(reference)?;
        matches!(url.scheme(), "http" | "https").then(|| url.to_string())
    }
}

fn same_document(a: &Url, b: &Url) -> bool {
    let mut a = a.clone();
    let mut b = b.clone();
    a.set_fragment(None);
    b.set_fragment(None);
    a == b
}

/// Whether a URL has the shape of a forum thread or a question page
/// (`/t/slug/123`, `/threads/`, `viewtopic.php`, `showthread.php`,
/// `/questions/123/`, `/comments/`): most forum software says nothing
/// about itself in its markup, but its addresses are telling.
pub(crate) fn looks_like_thread(url: &str) -> bool {
    let Ok(u) = url::Url::parse(url) else {
        return false;
    };
    let path = u.path().to_ascii_lowercase();
    // Discourse's `/t/` is followed by the topic's number (`/t/slug/123`,
    // `/t/123`); without one, `/t/` is a shop's category or product page
    // (`/t/mesh-office-chair`), not a thread.
    if let Some((_, rest)) = path.split_once("/t/")
        && rest.split('/').any(is_number)
    {
        return true;
    }
    [
        "/thread/",
        "/threads/",
        "/topic/",
        "/topics/",
        "/comments/",
        "/discussion/",
        "/questions/",
        "viewtopic.php",
        "showthread.php",
    ]
    .iter()
    .any(|p| path.contains(p))
}

/// Whether a path segment is a number (a thread's id).
fn is_number(segment: &str) -> bool {
    !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_and_filters() {
        let r = Resolver::new(Some("https://ex.com/a/b.html"), None);
        assert_eq!(r.link("c.html").as_deref(), Some("https://ex.com/a/c.html"));
        assert_eq!(r.link("#top"), None);
        assert_eq!(r.link("b.html#x"), None);
        assert_eq!(r.link("javascript:alert(1)"), None);
        assert_eq!(r.link(" JavaScript:alert(1)"), None);
        assert_eq!(r.image("data:image/png;base64,AAAA"), None);
        assert_eq!(
            r.link("/x?y=1#frag").as_deref(),
            Some("https://ex.com/x?y=1#frag")
        );
    }

    #[test]
    fn base_href_wins() {
        let r = Resolver::new(Some("https://ex.com/a/"), Some("https://cdn.ex.com/d/"));
        assert_eq!(r.link("e").as_deref(), Some("https://cdn.ex.com/d/e"));
    }

    #[test]
    fn without_base_only_absolute() {
        let r = Resolver::new(None, None);
        assert_eq!(r.link("/relative"), None);
        assert_eq!(r.link("https://x.org/").as_deref(), Some("https://x.org/"));
    }
}
