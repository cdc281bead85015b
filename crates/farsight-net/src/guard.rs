//! The URL policy and the SSRF guard: which URLs and which addresses farsight
//! may connect to. Checked before any connection, on every redirect hop, and
//! (through [`crate::resolver`]) on every address a name resolves to.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ipnet::IpNet;
use url::{Host, Url};

use crate::domain::{domain_matches, normalize_domain, normalize_host};
use crate::error::{Error, ErrorKind};

/// The longest URL fetched, in bytes: browsers and servers commonly stop
/// near 8-16 KB; past this no real page's address goes.
pub(crate) const MAX_URL_BYTES: usize = 16 * 1024;

const PRIVATE_SUGGESTION: &str = "Only public internet addresses can be fetched. To reach a local or \
     intranet host on purpose, add it to fetch.allow_hosts (or set fetch.allow_private_networks = true).";

/// The policy, built once by the fetcher builder.
#[derive(Clone, Debug, Default)]
pub(crate) struct Guard {
    /// As [`normalize_domain`] writes them.
    blocked_domains: Vec<String>,
    allow_private: bool,
    /// Host names let through the private-network guard (lower-case, no
    /// trailing dot); an entry `*.example` or `.example` lets subdomains through.
    allow_names: Vec<String>,
    allow_nets: Vec<IpNet>,
}

impl Guard {
    /// Builds the policy; a `blocked_domains` entry that is not a host name, or
    /// an `allow_hosts` entry that looks like an address or a CIDR but does not
    /// parse, is an error (a typo would otherwise silently block or allow
    /// nothing).
    pub(crate) fn new(
        blocked_domains: &[String],
        allow_private: bool,
        allow_hosts: &[String],
    ) -> Result<Self, String> {
        let mut blocked = Vec::new();
        for entry in blocked_domains.iter().filter(|e| !e.trim().is_empty()) {
            blocked.push(normalize_domain(entry).ok_or_else(|| {
                format!("blocked_domains entry {entry:?} is not a domain name (write it like example.com)")
            })?);
        }
        let mut allow_names = Vec::new();
        let mut allow_nets = Vec::new();
        for entry in allow_hosts {
            let entry = entry.trim();
            if entry.is_empty() {
                continue;
            }
            let bare = entry.trim_start_matches('[').trim_end_matches(']');
            if let Ok(net) = bare.parse::<IpNet>() {
                allow_nets.push(net.trunc());
            } else if let Ok(ip) = bare.parse::<IpAddr>() {
                allow_nets.push(IpNet::from(ip));
            } else if entry.contains(['/', ':']) || looks_like_ip(bare) {
                return Err(format!(
                    "allow_hosts entry {entry:?} is neither a host name, an IP address nor a CIDR block (write hosts without a scheme or port)"
                ));
            } else {
                allow_names.push(normalize_host(entry));
            }
        }
        Ok(Self {
            blocked_domains: blocked,
            allow_private,
            allow_names,
            allow_nets,
        })
    }

    /// Parses and checks a URL before any connection: scheme, credentials,
    /// blocked domains, and hosts that are non-public addresses as written.
    pub(crate) fn check_url(&self, raw: &str) -> Result<Url, Error> {
        if raw.len() > MAX_URL_BYTES {
            // Servers refuse such requests (or the connection breaks on
            // them), which read as a retryable network error; it is the URL.
            return Err(Error::new(
                ErrorKind::InvalidUrl,
                format!(
                    "the URL is {} bytes long; farsight fetches URLs of at most {MAX_URL_BYTES} bytes",
                    raw.len()
                ),
            )
            .with_suggestion("Check the URL: it is far longer than any page's address."));
        }
        let url = Url::parse(raw.trim()).map_err(|e| {
            Error::new(ErrorKind::InvalidUrl, format!("not a valid URL: {e}"))
                .with_suggestion(
                    "Check the URL: it must be absolute, like https://example.com/page.",
                )
                .with_url(raw)
        })?;
        self.check_parsed(&url)?;
        Ok(url)
    }

    /// The same checks on an already parsed URL (a redirect target).
    pub(crate) fn check_parsed(&self, url: &Url) -> Result<(), Error> {
        let fail = |kind, msg: String, suggestion: &str| {
            Err(Error::new(kind, msg)
                .with_suggestion(suggestion)
                .with_url(url.as_str()))
        };
        if !matches!(url.scheme(), "http" | "https") {
            return fail(
                ErrorKind::InvalidUrl,
                format!(
                    "only http and https URLs can be fetched, not {}:",
                    url.scheme()
                ),
                "Use an http:// or https:// URL.",
            );
        }
        if !url.username().is_empty() || url.password().is_some() {
            return fail(
                ErrorKind::InvalidUrl,
                "URLs with a user name or password in them are not fetched".to_owned(),
                "Remove the user:password@ part; farsight never sends credentials.",
            );
        }
        let Some(host) = url.host() else {
            return fail(
                ErrorKind::InvalidUrl,
                "the URL has no host".to_owned(),
                "Use a full URL, like https://example.com/page.",
            );
        };
        if let Host::Domain(name) = &host {
            let name = normalize_host(name);
            if let Some(d) = self.blocked_domain(&name) {
                return fail(
                    ErrorKind::BlockedUrl,
                    format!("the domain {d} is on the configured blocklist"),
                    "This site is blocked by the configuration; find the information on another site.",
                );
            }
            if !self.allow_private && !self.name_allowed(&name) && is_localhost_name(&name) {
                return fail(
                    ErrorKind::BlockedUrl,
                    format!("{name} is a local host name"),
                    PRIVATE_SUGGESTION,
                );
            }
        }
        let ip = match host {
            Host::Ipv4(v4) => Some(IpAddr::V4(v4)),
            Host::Ipv6(v6) => Some(IpAddr::V6(v6)),
            Host::Domain(_) => None,
        };
        if let Some(ip) = ip {
            self.check_ip(None, ip)
                .map_err(|e| e.with_url(url.as_str()))?;
        }
        Ok(())
    }

    /// Checks one address, reached through `name` when it came from DNS.
    pub(crate) fn check_ip(&self, name: Option<&str>, ip: IpAddr) -> Result<(), Error> {
        if self.allow_private {
            return Ok(());
        }
        if name.is_some_and(|n| self.name_allowed(&normalize_host(n))) {
            return Ok(());
        }
        let canonical = ip.to_canonical();
        if self
            .allow_nets
            .iter()
            .any(|net| net.contains(&ip) || net.contains(&canonical))
        {
            return Ok(());
        }
        match non_public_reason(ip) {
            None => Ok(()),
            Some(reason) => {
                let msg = match name {
                    Some(n) => format!("{n} resolves to {ip}, a non-public address ({reason})"),
                    None => format!("{ip} is a non-public address ({reason})"),
                };
                Err(Error::new(ErrorKind::BlockedUrl, msg).with_suggestion(PRIVATE_SUGGESTION))
            }
        }
    }

    /// Whether `host` is named in `allow_hosts` (a name, an address or a
    /// block holding it), or everything is allowed: the user vouched for
    /// that host, so the browser's egress tunnels to any of its ports.
    pub(crate) fn explicitly_allowed(&self, host: &Host<&str>) -> bool {
        if self.allow_private {
            return true;
        }
        match host {
            Host::Domain(name) => self.name_allowed(&normalize_host(name)),
            Host::Ipv4(v4) => self.allow_nets.iter().any(|n| n.contains(&IpAddr::V4(*v4))),
            Host::Ipv6(v6) => {
                let ip = IpAddr::V6(*v6);
                let canonical = ip.to_canonical();
                self.allow_nets
                    .iter()
                    .any(|n| n.contains(&ip) || n.contains(&canonical))
            }
        }
    }

    fn blocked_domain(&self, name: &str) -> Option<&str> {
        self.blocked_domains
            .iter()
            .find(|d| domain_matches(name, d))
            .map(String::as_str)
    }

    fn name_allowed(&self, name: &str) -> bool {
        self.allow_names.iter().any(|a| {
            match a.strip_prefix("*.").or_else(|| a.strip_prefix('.')) {
                Some(parent) => domain_matches(name, parent),
                None => name == a,
            }
        })
    }
}

fn is_localhost_name(name: &str) -> bool {
    domain_matches(name, "localhost")
}

fn looks_like_ip(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_hexdigit() || matches!(c, '.' | ':'))
        && (s.contains(':') || s.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// Why an address is not on the public internet, or `None` when it is.
pub(crate) fn non_public_reason(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => v4_reason(v4),
        IpAddr::V6(v6) => v6_reason(v6),
    }
}

fn v4_reason(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    let reason = match (a, b, c) {
        (0, ..) => "unspecified / this network",
        (10, ..) => "private",
        (100, 64..=127, _) => "shared address space (CGNAT)",
        (127, ..) => "loopback",
        (169, 254, _) => "link-local",
        (172, 16..=31, _) => "private",
        (192, 0, 0) => "IETF protocol assignments",
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => "documentation",
        (192, 88, 99) => "6to4 relay anycast",
        (192, 168, _) => "private",
        (198, 18..=19, _) => "benchmarking",
        (224..=239, ..) => "multicast",
        (240..=255, ..) => "reserved or broadcast",
        _ => return None,
    };
    Some(reason)
}

fn v6_reason(ip: Ipv6Addr) -> Option<&'static str> {
    let seg = ip.segments();
    let embedded_v4 = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
    if ip.is_unspecified() {
        return Some("unspecified");
    }
    if ip.is_loopback() {
        return Some("loopback");
    }
    // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible (::a.b.c.d):
    // judged by the IPv4 address inside.
    if seg[..5] == [0; 5] && (seg[5] == 0xffff || seg[5] == 0) {
        return v4_reason(embedded_v4(seg[6], seg[7])).or(if seg[5] == 0 {
            Some("IPv4-compatible (deprecated)")
        } else {
            None
        });
    }
    // NAT64 well-known prefix 64:ff9b::/96 carries the IPv4 address in the last 32 bits.
    if seg[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return v4_reason(embedded_v4(seg[6], seg[7]));
    }
    if seg[0] == 0x64 && seg[1] == 0xff9b && seg[2] == 1 {
        return Some("local-use NAT64");
    }
    // 6to4: 2002:AABB:CCDD::/48 embeds the IPv4 address AA.BB.CC.DD.
    if seg[0] == 0x2002 {
        return v4_reason(embedded_v4(seg[1], seg[2]));
    }
    // Teredo: 2001:0:SSSS:SSSS:...:CCCC:CCCC, server in bits 32..64, client
    // (obfuscated by XOR) in the last 32 bits.
    if seg[0] == 0x2001 && seg[1] == 0 {
        return v4_reason(embedded_v4(seg[2], seg[3]))
            .or_else(|| v4_reason(embedded_v4(!seg[6], !seg[7])));
    }
    if seg[0] == 0x2001 && seg[1] == 0x0db8 || (seg[0] == 0x3fff && seg[1] < 0x1000) {
        return Some("documentation");
    }
    if seg[0] == 0x2001 && (0x10..0x30).contains(&seg[1]) {
        return Some("ORCHID (not routable)");
    }
    if seg[0] == 0x0100 && seg[1..4] == [0; 3] {
        return Some("discard-only");
    }
    match seg[0] {
        0xfc00..=0xfdff => Some("unique local"),
        0xfe80..=0xfebf => Some("link-local"),
        0xfec0..=0xfeff => Some("site-local (deprecated)"),
        0xff00..=0xffff => Some("multicast"),
        // Only 2000::/3 is allocated for global unicast; everything else is
        // reserved and has no business being a web server.
        0x2000..=0x3fff => None,
        _ => Some("reserved"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn checking_never_panics(s in ".*") {
            let _ = guard().check_url(&s);
            let _ = guard().check_url(&format!("http://{s}/"));
        }

        /// Whatever notation an address is written in, the guard judges the
        /// address: every IPv4-mapped form agrees with the plain IPv4 form.
        #[test]
        fn mapped_and_plain_ipv4_agree(a in any::<u32>()) {
            let v4 = Ipv4Addr::from(a);
            let mapped = IpAddr::V6(v4.to_ipv6_mapped());
            prop_assert_eq!(non_public_reason(IpAddr::V4(v4)).is_some(), non_public_reason(mapped).is_some());
            let decimal = format!("http://{a}/");
            let plain = format!("http://{v4}/");
            prop_assert_eq!(guard().check_url(&decimal).is_ok(), guard().check_url(&plain).is_ok());
        }
    }

    fn guard() -> Guard {
        Guard::new(&["evil.example".into()], false, &[]).unwrap()
    }

    #[test]
    fn refuses_every_local_literal_form() {
        let g = guard();
        for url in [
            "http://127.1/",
            "http://0177.0.0.1/",
            "http://0x7f000001/",
            "http://2130706433/",
            "http://[::1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://[::ffff:7f00:1]/",
            "http://0.0.0.0/",
            "http://169.254.169.254/latest/meta-data/",
            "http://100.64.0.1/",
            "http://[fd00::1]/",
            "http://localhost/",
            "http://localhost./",
            "http://api.localhost/",
            "http://LOCALHOST:8080/",
            "http://10.1.2.3/",
            "http://172.16.0.1/",
            "http://172.31.255.255/",
            "http://192.168.1.1/",
            "http://224.0.0.1/",
            "http://255.255.255.255/",
            "http://192.0.2.1/",
            "http://198.51.100.7/",
            "http://203.0.113.9/",
            "http://[fe80::1]/",
            "http://[fec0::1]/",
            "http://[ff02::1]/",
            "http://[2001:db8::1]/",
            "http://[2002:7f00:1::]/",
            "http://[2002:c0a8:101::1]/",
            "http://[64:ff9b::a00:1]/",
            "http://[64:ff9b::7f00:1]/",
            "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
            "http://[::127.0.0.1]/",
            "http://[::]/",
        ] {
            let err = g.check_url(url).expect_err(url);
            assert_eq!(err.kind(), ErrorKind::BlockedUrl, "{url}");
            assert!(err.suggestion().is_some(), "{url}");
        }
    }

    #[test]
    fn lets_public_addresses_and_names_through() {
        let g = guard();
        for url in [
            "https://example.com/",
            "http://93.184.215.14/",
            "http://8.8.8.8:8080/x",
            "http://[2606:4700::1111]/",
            "http://[64:ff9b::808:808]/",
            "http://[2002:808:808::1]/",
            "http://172.32.0.1/",
            "http://100.128.0.1/",
            "https://notlocalhost.com/",
        ] {
            assert!(g.check_url(url).is_ok(), "{url}");
        }
    }

    #[test]
    fn schemes_credentials_and_garbage_are_invalid() {
        let g = guard();
        for url in [
            "ftp://example.com/",
            "file:///etc/passwd",
            "javascript:alert(1)",
            "https://user:pw@example.com/",
            "https://user@example.com/",
            "not a url",
            "/relative/path",
            "",
        ] {
            let err = g.check_url(url).expect_err(url);
            assert_eq!(err.kind(), ErrorKind::InvalidUrl, "{url}");
            assert!(err.suggestion().is_some(), "{url}");
        }
    }

    #[test]
    fn blocked_domains_cover_subdomains_only() {
        let g = guard();
        for url in ["https://evil.example/", "https://a.b.EVIL.example./x"] {
            assert_eq!(g.check_url(url).unwrap_err().kind(), ErrorKind::BlockedUrl);
        }
        assert!(g.check_url("https://notevil.example/").is_ok());
        let as_url = Guard::new(&["https://Tracker.example:8443/x".into()], false, &[]).unwrap();
        assert!(as_url.check_url("http://cdn.tracker.example/").is_err());
        assert!(as_url.check_url("http://tracker.example.org/").is_ok());
        let idn = Guard::new(&["Bücher.example".into()], false, &[]).unwrap();
        assert!(idn.check_url("https://www.bücher.example/").is_err());
        assert!(idn.check_url("https://www.xn--bcher-kva.example/").is_err());
        let puny = Guard::new(&["xn--bcher-kva.example".into()], false, &[]).unwrap();
        assert!(puny.check_url("https://shop.bücher.example/").is_err());
        // A blank entry is nothing; one that is not a host name is a mistake to report.
        assert!(Guard::new(&["  ".into()], false, &[]).is_ok());
        let typo = Guard::new(&["evil example".into()], false, &[]).unwrap_err();
        assert!(typo.contains("evil example"), "{typo}");
    }

    #[test]
    fn allow_hosts_accepts_names_ips_and_cidrs() {
        let g = Guard::new(
            &[],
            false,
            &[
                "127.0.0.1".into(),
                "10.0.0.0/8".into(),
                "intranet.corp".into(),
                "[::1]".into(),
            ],
        )
        .unwrap();
        assert!(g.check_url("http://127.0.0.1:8080/").is_ok());
        assert!(g.check_url("http://10.9.8.7/").is_ok());
        assert!(g.check_url("http://[::1]/").is_ok());
        assert!(g.check_url("http://127.0.0.2/").is_err());
        assert!(
            g.check_ip(Some("intranet.corp"), "192.168.1.1".parse().unwrap())
                .is_ok()
        );
        assert!(
            g.check_ip(Some("other.corp"), "192.168.1.1".parse().unwrap())
                .is_err()
        );
        assert!(Guard::new(&[], false, &["10.0.0.0/33".into()]).is_err());
        assert!(Guard::new(&[], false, &["300.1.1.1".into()]).is_err());
        assert!(Guard::new(&[], false, &["localhost:8080".into()]).is_err());
        assert!(Guard::new(&[], false, &["http://intranet/".into()]).is_err());
    }

    #[test]
    fn allow_private_networks_lets_everything_through_but_the_blocklist() {
        let g = Guard::new(&["evil.example".into()], true, &[]).unwrap();
        assert!(g.check_url("http://localhost:3000/").is_ok());
        assert!(g.check_url("http://127.0.0.1/").is_ok());
        assert!(g.check_url("http://evil.example/").is_err());
    }
}
