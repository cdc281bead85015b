//! Bot walls: a bot-management vendor's challenge or block page, sent in
//! place of the page. It is named as such ([`ErrorKind::BotChallenge`]) and
//! never extracted as if it were the page's text.
//!
//! Every marker is one the vendor's own pages carry and anyone can observe
//! (a response header, a script host, an element id); a vendor is named only
//! on such a marker. Only small bodies are read for markers: a challenge
//! page is a few kilobytes, while a real article that happens to mention
//! Cloudflare is longer and, on a success status, must never be refused.
//! On a success status a body must also carry a marker of the challenge
//! page's own markup (its `<title>` element, an iframe's `src`: an article
//! quoting them writes them escaped) and one more marker of the same vendor.

use reqwest::header::HeaderMap;

use crate::error::{Error, ErrorKind};

/// The most body bytes looked at. Challenge pages measured: Cloudflare's
/// "Just a moment..." about 5-30 KB, DataDome's about 1-2 KB, PerimeterX's
/// and Imperva's a few KB.
pub(crate) const MAX_WALL_BYTES: usize = 64 * 1024;

/// Statuses that walls answer with when they refuse (and AWS WAF's 202 and
/// 405, which its header names anyway).
fn is_wall_status(status: u16) -> bool {
    matches!(status, 403 | 429 | 503)
}

struct Wall {
    vendor: &'static str,
    /// A header (lower-case name) and values (lower case; empty: any value)
    /// that say a challenge was served, on any status.
    header: Option<(&'static str, &'static [&'static str])>,
    /// Body markers (lower case); on a wall status one is enough.
    markers: &'static [&'static str],
    /// Markup only the challenge page itself has; on a success status one
    /// of these and one of `markers` are needed. Empty: the vendor's walls
    /// come with an error status, so a success is never one.
    template: &'static [&'static str],
}

const WALLS: &[Wall] = &[
    Wall {
        vendor: "Cloudflare",
        header: Some(("cf-mitigated", &["challenge"])),
        markers: &[
            "<title>just a moment...</title>",
            "challenges.cloudflare.com",
            "cf_chl_opt",
            "_cf_chl",
            "<title>attention required! | cloudflare</title>",
            "cf-error-details",
        ],
        template: &["<title>just a moment...</title>"],
    },
    Wall {
        vendor: "DataDome",
        header: Some(("x-datadome", &["protected"])),
        markers: &["captcha-delivery.com", "datadome"],
        template: &[],
    },
    Wall {
        vendor: "PerimeterX (HUMAN)",
        header: None,
        markers: &[
            "px-captcha",
            "captcha.px-cdn.net",
            "_pxappid",
            "px-cloud.net",
        ],
        template: &[],
    },
    Wall {
        vendor: "Imperva (Incapsula)",
        header: None,
        markers: &["_incapsula_resource", "incapsula incident id"],
        template: &["src=\"/_incapsula_resource"],
    },
    Wall {
        vendor: "AWS WAF",
        header: Some(("x-amzn-waf-action", &["challenge", "captcha"])),
        markers: &["awswaf", "aws-waf-token"],
        template: &[],
    },
    Wall {
        vendor: "Sucuri",
        header: None,
        markers: &[
            "sucuri website firewall",
            "sucuri_cloudproxy_js",
            "cloudproxy@sucuri.net",
        ],
        template: &[],
    },
    Wall {
        vendor: "Akamai",
        header: None,
        markers: &["errors.edgesuite.net"],
        template: &[],
    },
];

/// The vendor whose wall this response is, if it is one. `body` is the
/// start of the body (at most [`MAX_WALL_BYTES`] are looked at).
pub(crate) fn detect(status: u16, headers: &HeaderMap, body: &[u8]) -> Option<&'static str> {
    for wall in WALLS {
        if let Some((name, values)) = wall.header
            && let Some(v) = headers.get(name).and_then(|v| v.to_str().ok())
        {
            let v = v.trim().to_ascii_lowercase();
            if values.is_empty() || values.iter().any(|want| v == *want) {
                return Some(wall.vendor);
            }
        }
    }
    if body.len() > MAX_WALL_BYTES {
        return None;
    }
    let text = String::from_utf8_lossy(body).to_ascii_lowercase();
    let has = |markers: &[&str]| markers.iter().any(|m| text.contains(m));
    let wall_status = is_wall_status(status);
    WALLS
        .iter()
        .find(|wall| has(wall.markers) && (wall_status || has(wall.template)))
        .map(|wall| wall.vendor)
}

/// The wall an error response's body names, read only while it stays
/// small: a body larger than [`MAX_WALL_BYTES`], or one that does not
/// arrive whole, is not one.
pub(crate) async fn detect_in_error_body(
    resp: &mut reqwest::Response,
    status: u16,
) -> Option<&'static str> {
    let mut body = Vec::new();
    while let Ok(Some(chunk)) = resp.chunk().await {
        body.extend_from_slice(&chunk);
        if body.len() > MAX_WALL_BYTES {
            return None;
        }
    }
    detect(status, &HeaderMap::new(), &body)
}

/// The error for a wall of `vendor`.
pub(crate) fn wall_error(vendor: &str, status: u16, url: &str) -> Error {
    Error::new(
        ErrorKind::BotChallenge,
        format!("the site answered with {vendor}'s bot check (HTTP {status}) instead of the page"),
    )
    .with_suggestion(
        "The site blocks automated readers; farsight does not solve bot challenges, and \
         rendering the page in a browser does not pass them either. Use the search result's \
         snippet, a cached or archived copy, or find the information on another source.",
    )
    .with_status(status)
    .with_retryable(false)
    .with_url(url)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{HeaderName, HeaderValue};

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(
                HeaderName::from_bytes(k.as_bytes()).unwrap(),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        h
    }

    const CLOUDFLARE: &str = r#"<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta http-equiv="refresh" content="390"></head><body><div class="main-wrapper" role="main">
<noscript>Enable JavaScript and cookies to continue</noscript></div>
<script>(function(){window._cf_chl_opt={cvId: '3',cZone: "example.com",cType: 'managed'};
var a = document.createElement('script');a.src = '/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8';
document.getElementsByTagName('head')[0].appendChild(a);}());</script></body></html>"#;

    const ARTICLE: &str = r#"<html><head><title>How Cloudflare's challenge works</title></head><body>
<article><p>When Cloudflare suspects a bot it serves a page titled &lt;title&gt;Just a moment...&lt;/title&gt;
that loads a script from challenges.cloudflare.com. The page sets window._cf_chl_opt.</p></article></body></html>"#;

    #[test]
    fn each_vendor_is_named_on_its_marker() {
        // (status, headers, body, vendor named)
        type Case<'a> = (u16, &'a [(&'a str, &'a str)], &'a str, &'a str);
        let cases: &[Case<'_>] = &[
            (403, &[("cf-mitigated", "challenge")], "", "Cloudflare"),
            (200, &[("cf-mitigated", "Challenge")], "", "Cloudflare"),
            (503, &[], CLOUDFLARE, "Cloudflare"),
            (200, &[], CLOUDFLARE, "Cloudflare"),
            (
                403,
                &[],
                "<html><title>Attention Required! | Cloudflare</title><div id=\"cf-error-details\">",
                "Cloudflare",
            ),
            (
                403,
                &[],
                "<html><script>var dd={'host':'geo.captcha-delivery.com'}</script></html>",
                "DataDome",
            ),
            (403, &[("x-datadome", "protected")], "", "DataDome"),
            (
                403,
                &[],
                "<div id=\"px-captcha\"></div><script>window._pxAppId='PXabc';</script>",
                "PerimeterX (HUMAN)",
            ),
            (
                200,
                &[],
                "<html><iframe src=\"/_Incapsula_Resource?SWUDNSAI=31\">Request unsuccessful. Incapsula incident ID: 1</iframe></html>",
                "Imperva (Incapsula)",
            ),
            (202, &[("x-amzn-waf-action", "challenge")], "", "AWS WAF"),
            (405, &[("x-amzn-waf-action", "captcha")], "", "AWS WAF"),
            (
                403,
                &[],
                "<title>Sucuri WebSite Firewall - Access Denied</title>",
                "Sucuri",
            ),
            (
                403,
                &[],
                "<H1>Access Denied</H1>Reference #18.1 <P>https://errors.edgesuite.net/18.1</P>",
                "Akamai",
            ),
        ];
        for (status, h, body, vendor) in cases {
            assert_eq!(
                detect(*status, &headers(h), body.as_bytes()),
                Some(*vendor),
                "{status} {h:?} {body}"
            );
        }
    }

    #[test]
    fn articles_and_plain_errors_are_not_walls() {
        let none = headers(&[]);
        // An article quoting the challenge: markers in prose, success status.
        assert_eq!(detect(200, &none, ARTICLE.as_bytes()), None);
        // Cloudflare injects its challenge-platform script into sites' own
        // pages, error pages included: not a wall by itself.
        let injected = b"<script src=\"/cdn-cgi/challenge-platform/scripts/jsd/main.js\"></script><p>Not found</p>";
        assert_eq!(detect(200, &none, injected), None);
        assert_eq!(detect(403, &none, injected), None);
        // A normal 403 and 503.
        assert_eq!(
            detect(403, &none, b"<html><h1>403 Forbidden</h1><hr>nginx</html>"),
            None
        );
        assert_eq!(detect(503, &none, b"Service Unavailable"), None);
        // A page served through Cloudflare is not a challenge.
        assert_eq!(
            detect(
                200,
                &headers(&[("server", "cloudflare"), ("cf-ray", "8a")]),
                b"<p>hi</p>"
            ),
            None
        );
        assert_eq!(
            detect(403, &headers(&[("cf-mitigated", "none")]), b""),
            None
        );
        // A long page is never read for markers, even on a wall status.
        let mut long = CLOUDFLARE.to_owned();
        long.push_str(&"<p>text</p>".repeat(MAX_WALL_BYTES / 8));
        assert_eq!(detect(403, &none, long.as_bytes()), None);
    }

    #[test]
    fn the_error_names_the_vendor_and_is_honest_about_rendering() {
        let e = wall_error("Cloudflare", 403, "https://example.com/a");
        assert_eq!(e.kind(), ErrorKind::BotChallenge);
        assert_eq!(e.status(), Some(403));
        assert!(!e.is_retryable());
        assert!(e.message().contains("Cloudflare"), "{e}");
        let s = e.suggestion().unwrap();
        assert!(s.contains("another source") && s.contains("browser"), "{s}");
    }
}
