//! What a proxy setting means: the user's own proxy (`[fetch].proxy`, or the
//! standard environment variables when the user opts in), and which target
//! URL goes through it. [`UpstreamProxy::for_url`] is the one routing
//! decision: the page fetcher, robots.txt, provider calls and the browser's
//! forward proxy all ask it.
//!
//! Credentials written in a proxy URL (`http://user:pass@proxy:3128`) are sent
//! to the proxy as `Proxy-Authorization` (reqwest reads them from the URL)
//! and shown nowhere: `Debug`, `Display`, error messages and
//! [`redact_proxy_url`] write `***` in their place.

use std::collections::BTreeMap;
use std::fmt;
use std::net::IpAddr;

use ipnet::IpNet;
use url::{Host, Url};

use crate::domain::normalize_host;
use crate::error::{Error, ErrorKind};

/// The environment variables [`UpstreamProxy::from_settings`] reads, lower
/// case first as curl reads them. A caller captures these into the map it
/// passes (tests pass their own map instead of changing the process's).
pub const PROXY_ENV_VARS: [&str; 8] = [
    "https_proxy",
    "HTTPS_PROXY",
    "http_proxy",
    "HTTP_PROXY",
    "all_proxy",
    "ALL_PROXY",
    "no_proxy",
    "NO_PROXY",
];

const PROXY_SUGGESTION: &str = "Write the proxy as a URL: http://proxy.example:3128, \
     https://proxy.example:443, socks5://proxy.example:1080 or socks5h://proxy.example:1080 \
     (user:password@ before the host if it needs a login).";

/// The user's upstream proxy: one proxy URL for `http://` targets, one for
/// `https://` targets (often the same), and the `NO_PROXY` hosts that go
/// direct. Cheap to clone.
#[derive(Clone, PartialEq, Eq)]
pub struct UpstreamProxy {
    http: Option<Url>,
    https: Option<Url>,
    no_proxy: NoProxy,
}

impl UpstreamProxy {
    /// The proxy described by the settings: `explicit` is `[fetch].proxy`
    /// (it wins over the environment's proxy variables); `env` is given when
    /// `[fetch].use_env_proxy = true` and holds the variables of
    /// [`PROXY_ENV_VARS`] that are set. `NO_PROXY` comes from `env` only.
    /// `None` when neither names a proxy.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidConfig`] error naming the setting or variable
    /// (never the credentials) when a proxy URL cannot be used, or when a
    /// `NO_PROXY` entry is an address or CIDR that does not parse.
    pub fn from_settings(
        explicit: Option<&str>,
        env: Option<&BTreeMap<String, String>>,
    ) -> Result<Option<Self>, Error> {
        let var = |names: &[&str]| -> Option<(String, String)> {
            let env = env?;
            names.iter().find_map(|n| {
                env.get(*n)
                    .map(|v| v.trim())
                    .filter(|v| !v.is_empty())
                    .map(|v| ((*n).to_owned(), v.to_owned()))
            })
        };
        let no_proxy = match var(&["no_proxy", "NO_PROXY"]) {
            Some((name, value)) => NoProxy::parse(&value, &name)?,
            None => NoProxy::default(),
        };
        if let Some(raw) = explicit.map(str::trim).filter(|s| !s.is_empty()) {
            let url = parse_proxy_url(raw, "fetch.proxy")?;
            return Ok(Some(Self {
                http: Some(url.clone()),
                https: Some(url),
                no_proxy,
            }));
        }
        let all = var(&["all_proxy", "ALL_PROXY"]);
        let pick = |names: &[&str]| -> Result<Option<Url>, Error> {
            match var(names).or_else(|| all.clone()) {
                Some((name, value)) => parse_proxy_url(&value, &name).map(Some),
                None => Ok(None),
            }
        };
        let https = pick(&["https_proxy", "HTTPS_PROXY"])?;
        let http = pick(&["http_proxy", "HTTP_PROXY"])?;
        if http.is_none() && https.is_none() {
            return Ok(None);
        }
        Ok(Some(Self {
            http,
            https,
            no_proxy,
        }))
    }

    /// One proxy for every target, no exceptions: `[fetch].proxy` alone.
    ///
    /// # Errors
    ///
    /// As [`UpstreamProxy::from_settings`].
    pub fn all(proxy: &str) -> Result<Self, Error> {
        let url = parse_proxy_url(proxy.trim(), "the proxy")?;
        Ok(Self {
            http: Some(url.clone()),
            https: Some(url),
            no_proxy: NoProxy::default(),
        })
    }

    /// The proxy URL (with its credentials, for the connection only) that a
    /// request to `target` goes through, or `None` when it goes direct: a
    /// scheme without a proxy, or a host `NO_PROXY` lists.
    #[must_use]
    pub fn for_url(&self, target: &Url) -> Option<&Url> {
        let proxy = match target.scheme() {
            "https" | "wss" => self.https.as_ref(),
            "http" | "ws" => self.http.as_ref(),
            _ => None,
        }?;
        if self.no_proxy.matches(target) {
            return None;
        }
        Some(proxy)
    }

    /// The host names of the proxies (lower case), so that a resolver can let
    /// the user's own proxy through the guard: as the proxy, never as a target.
    #[must_use]
    pub fn proxy_hosts(&self) -> Vec<String> {
        let mut hosts: Vec<String> = [&self.http, &self.https]
            .into_iter()
            .flatten()
            .filter_map(|u| match u.host() {
                Some(Host::Domain(d)) => Some(normalize_host(d)),
                _ => None,
            })
            .collect();
        hosts.dedup();
        hosts
    }

    /// `text` with the proxies' credentials replaced by `***`: for messages
    /// built from errors a library wrote, which might quote the proxy URL.
    #[must_use]
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for url in [&self.http, &self.https].into_iter().flatten() {
            // The user name alone may be a common word; with the password
            // it is the secret, and the password alone always is.
            if let Some(password) = url.password().filter(|p| !p.is_empty()) {
                out = out.replace(&format!("{}:{password}", url.username()), "***");
                out = out.replace(password, "***");
            }
        }
        out
    }
}

impl fmt::Debug for UpstreamProxy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |u: &Option<Url>| u.as_ref().map(|u| redact_proxy_url(u.as_str()));
        f.debug_struct("UpstreamProxy")
            .field("http", &shown(&self.http))
            .field("https", &shown(&self.https))
            .field("no_proxy", &self.no_proxy)
            .finish()
    }
}

impl fmt::Display for UpstreamProxy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.http, &self.https) {
            (Some(h), Some(s)) if h == s => f.write_str(&redact_proxy_url(h.as_str())),
            (h, s) => {
                let mut parts = Vec::new();
                if let Some(h) = h {
                    parts.push(format!("http: {}", redact_proxy_url(h.as_str())));
                }
                if let Some(s) = s {
                    parts.push(format!("https: {}", redact_proxy_url(s.as_str())));
                }
                f.write_str(&parts.join(", "))
            }
        }
    }
}

/// A proxy URL as it may be shown: any user name and password become `***`
/// (`http://***@proxy:3128`). Text that is not a URL keeps only what follows
/// its last `@`.
#[must_use]
pub fn redact_proxy_url(raw: &str) -> String {
    let with_scheme = if raw.contains("://") {
        raw.to_owned()
    } else {
        format!("http://{raw}")
    };
    match Url::parse(&with_scheme) {
        Ok(u) => {
            let host = u.host_str().unwrap_or_default();
            let port = u.port().map(|p| format!(":{p}")).unwrap_or_default();
            let login = if u.username().is_empty() && u.password().is_none() {
                ""
            } else {
                "***@"
            };
            format!("{}://{login}{host}{port}", u.scheme())
        }
        Err(_) => match raw.rfind('@') {
            Some(at) => format!("***@{}", &raw[at + 1..]),
            None => raw.to_owned(),
        },
    }
}

/// Parses one proxy URL; a value without a scheme is `http://` (as curl
/// and the environment variables' other readers take it).
fn parse_proxy_url(raw: &str, setting: &str) -> Result<Url, Error> {
    let invalid = |why: &str| {
        Error::new(
            ErrorKind::InvalidConfig,
            format!(
                "{setting} = {:?} is not a usable proxy: {why}",
                redact_proxy_url(raw)
            ),
        )
        .with_suggestion(PROXY_SUGGESTION)
    };
    let with_scheme = if raw.contains("://") {
        raw.to_owned()
    } else {
        format!("http://{raw}")
    };
    // The URL parser's own message never quotes the input, so it is safe here.
    let url = Url::parse(&with_scheme).map_err(|e| invalid(&e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https" | "socks5" | "socks5h") {
        return Err(invalid(&format!(
            "the scheme {}:// is not one farsight speaks",
            url.scheme()
        )));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(invalid("it names no host"));
    }
    if url.path() != "/" && !url.path().is_empty() || url.query().is_some() {
        return Err(invalid("a proxy is a host and a port, without a path"));
    }
    Ok(url)
}

/// The `NO_PROXY` list: hosts that go direct.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct NoProxy {
    /// `*`: nothing goes through the proxy.
    everything: bool,
    entries: Vec<NoProxyEntry>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum NoProxyEntry {
    /// A domain and its subdomains (`example.com`, `.example.com`,
    /// `*.example.com`), optionally on one port only.
    Domain { name: String, port: Option<u16> },
    /// An address or a CIDR block, optionally on one port only.
    Net { net: IpNet, port: Option<u16> },
}

impl NoProxy {
    /// Entries are separated by commas (or spaces, which some tools write).
    fn parse(value: &str, variable: &str) -> Result<Self, Error> {
        let mut list = Self::default();
        for entry in value
            .split([',', ' ', '\t'])
            .map(str::trim)
            .filter(|e| !e.is_empty())
        {
            if entry == "*" {
                list.everything = true;
                continue;
            }
            list.entries.push(parse_no_proxy_entry(entry).ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidConfig,
                    format!("{variable} entry {entry:?} is neither a host name, an IP address nor a CIDR block"),
                )
                .with_suggestion(
                    "Write NO_PROXY as a comma-separated list like localhost,.corp.example,10.0.0.0/8,intranet:8080.",
                )
            })?);
        }
        Ok(list)
    }

    fn matches(&self, target: &Url) -> bool {
        if self.everything {
            return true;
        }
        let Some(host) = target.host() else {
            return false;
        };
        let port = target.port_or_known_default();
        let ip = match &host {
            Host::Ipv4(v4) => Some(IpAddr::V4(*v4)),
            Host::Ipv6(v6) => Some(IpAddr::V6(*v6)),
            Host::Domain(_) => None,
        };
        let name = match &host {
            Host::Domain(d) => Some(normalize_host(d)),
            _ => None,
        };
        self.entries.iter().any(|entry| match entry {
            NoProxyEntry::Domain { name: n, port: p } => {
                p.is_none_or(|p| Some(p) == port)
                    && name.as_deref().is_some_and(|h| {
                        h == n || h.strip_suffix(n.as_str()).is_some_and(|r| r.ends_with('.'))
                    })
            }
            NoProxyEntry::Net { net, port: p } => {
                p.is_none_or(|p| Some(p) == port)
                    && ip.is_some_and(|ip| net.contains(&ip) || net.contains(&ip.to_canonical()))
            }
        })
    }
}

/// One `NO_PROXY` entry, or `None` when it cannot be one.
fn parse_no_proxy_entry(entry: &str) -> Option<NoProxyEntry> {
    // `[::1]:8080`, `[::1]`, a bare IPv6 address or CIDR, `10.0.0.0/8`,
    // `10.1.2.3:8080`, `host:8080`, `.example.com`, `*.example.com`.
    if let Some(rest) = entry.strip_prefix('[') {
        let (addr, after) = rest.split_once(']')?;
        let port = match after.strip_prefix(':') {
            Some(p) => Some(p.parse().ok()?),
            None if after.is_empty() => None,
            None => return None,
        };
        let net = addr
            .parse::<IpNet>()
            .ok()
            .or_else(|| addr.parse::<IpAddr>().ok().map(IpNet::from))?;
        return Some(NoProxyEntry::Net {
            net: net.trunc(),
            port,
        });
    }
    if let Ok(net) = entry.parse::<IpNet>() {
        return Some(NoProxyEntry::Net {
            net: net.trunc(),
            port: None,
        });
    }
    if let Ok(ip) = entry.parse::<IpAddr>() {
        return Some(NoProxyEntry::Net {
            net: IpNet::from(ip),
            port: None,
        });
    }
    let (host, port) = match entry.rsplit_once(':') {
        Some((h, p)) => (h, Some(p.parse::<u16>().ok()?)),
        None => (entry, None),
    };
    if let Ok(ip) = host.parse::<IpAddr>() {
        return Some(NoProxyEntry::Net {
            net: IpNet::from(ip),
            port,
        });
    }
    let name = host
        .strip_prefix("*.")
        .or_else(|| host.strip_prefix('.'))
        .unwrap_or(host);
    if name.is_empty() || name.contains(['/', ':', '*', '@', '[', ']']) {
        return None;
    }
    Some(NoProxyEntry::Domain {
        name: normalize_host(name),
        port,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    fn routed(p: &UpstreamProxy, target: &str) -> Option<String> {
        p.for_url(&url(target))
            .map(|u| u.host_str().unwrap_or_default().to_owned())
    }

    #[test]
    fn nothing_configured_is_no_proxy() {
        assert!(UpstreamProxy::from_settings(None, None).unwrap().is_none());
        assert!(
            UpstreamProxy::from_settings(Some("  "), Some(&env(&[])))
                .unwrap()
                .is_none()
        );
        // The environment is read only when the user opted in.
        let e = env(&[("HTTPS_PROXY", "http://p:3128")]);
        assert!(UpstreamProxy::from_settings(None, None).unwrap().is_none());
        assert!(
            UpstreamProxy::from_settings(None, Some(&e))
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn the_environment_names_a_proxy_per_scheme() {
        let e = env(&[
            ("HTTPS_PROXY", "http://secure:3128"),
            ("http_proxy", "plain:8080"),
            ("HTTP_PROXY", "ignored:1"),
        ]);
        let p = UpstreamProxy::from_settings(None, Some(&e))
            .unwrap()
            .unwrap();
        assert_eq!(routed(&p, "https://example.com/"), Some("secure".into()));
        assert_eq!(routed(&p, "http://example.com/"), Some("plain".into()));
        assert_eq!(
            p.for_url(&url("http://example.com/")).unwrap().port(),
            Some(8080)
        );
        assert_eq!(routed(&p, "ftp://example.com/"), None);

        let only_https = env(&[("https_proxy", "http://secure:3128")]);
        let p = UpstreamProxy::from_settings(None, Some(&only_https))
            .unwrap()
            .unwrap();
        assert_eq!(routed(&p, "http://example.com/"), None);

        let all = env(&[
            ("ALL_PROXY", "socks5h://sock:1080"),
            ("http_proxy", "plain:8080"),
        ]);
        let p = UpstreamProxy::from_settings(None, Some(&all))
            .unwrap()
            .unwrap();
        assert_eq!(routed(&p, "https://example.com/"), Some("sock".into()));
        assert_eq!(routed(&p, "http://example.com/"), Some("plain".into()));
    }

    #[test]
    fn an_explicit_proxy_wins_and_no_proxy_still_applies() {
        let e = env(&[
            ("HTTPS_PROXY", "http://envproxy:3128"),
            ("NO_PROXY", "intranet.example"),
        ]);
        let p = UpstreamProxy::from_settings(Some("http://mine:3128"), Some(&e))
            .unwrap()
            .unwrap();
        assert_eq!(routed(&p, "https://example.com/"), Some("mine".into()));
        assert_eq!(routed(&p, "http://example.com/"), Some("mine".into()));
        assert_eq!(routed(&p, "https://wiki.intranet.example/"), None);
        // Without use_env_proxy, NO_PROXY is not read.
        let p = UpstreamProxy::from_settings(Some("http://mine:3128"), None)
            .unwrap()
            .unwrap();
        assert_eq!(
            routed(&p, "https://wiki.intranet.example/"),
            Some("mine".into())
        );
    }

    #[test]
    fn no_proxy_entries_match_as_curl_reads_them() {
        let e = env(&[
            ("https_proxy", "http://p:3128"),
            ("http_proxy", "http://p:3128"),
            (
                "no_proxy",
                "localhost, .corp.example,*.wild.example,exact.example, 10.0.0.0/8,192.168.1.7,[::1],fd00::/8, svc.example:8443,10.9.9.9:8080",
            ),
        ]);
        let p = UpstreamProxy::from_settings(None, Some(&e))
            .unwrap()
            .unwrap();
        let direct = [
            "http://localhost/",
            "http://LOCALHOST./",
            "https://corp.example/",
            "https://a.b.corp.example/",
            "https://x.wild.example/",
            "https://wild.example/",
            "https://exact.example/",
            "https://sub.exact.example/",
            "http://10.1.2.3/",
            "http://192.168.1.7:9000/",
            "http://[::1]:8080/",
            "http://[fd12::1]/",
            "https://svc.example:8443/",
            "http://10.9.9.9:8080/",
        ];
        for t in direct {
            assert_eq!(routed(&p, t), None, "{t} must go direct");
        }
        let proxied = [
            "https://example.com/",
            "https://notcorp.example/",
            "https://exact.example.evil/",
            "https://xexact.example/",
            "http://11.1.2.3/",
            "http://192.168.1.8/",
            "https://svc.example/",
            "http://svc.example:8080/",
            "http://[2001:db8::1]/",
        ];
        for t in proxied {
            assert_eq!(routed(&p, t), Some("p".into()), "{t} must use the proxy");
        }
        let star = env(&[("https_proxy", "http://p:3128"), ("NO_PROXY", "*")]);
        let p = UpstreamProxy::from_settings(None, Some(&star))
            .unwrap()
            .unwrap();
        assert_eq!(routed(&p, "https://example.com/"), None);
    }

    #[test]
    fn bad_values_are_named_without_their_credentials() {
        let err = UpstreamProxy::from_settings(Some("ftp://u:hunter2@p:21"), None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidConfig);
        let shown = format!("{err} {err:?}");
        assert!(
            shown.contains("fetch.proxy") && !shown.contains("hunter2"),
            "{shown}"
        );
        let e = env(&[("HTTPS_PROXY", "http://u:hunter2@p:3128/some/path")]);
        let err = UpstreamProxy::from_settings(None, Some(&e)).unwrap_err();
        let shown = format!("{err} {err:?}");
        assert!(
            shown.contains("HTTPS_PROXY") && !shown.contains("hunter2"),
            "{shown}"
        );
        let e = env(&[
            ("HTTPS_PROXY", "http://p:3128"),
            ("NO_PROXY", "10.0.0.0/99"),
        ]);
        let err = UpstreamProxy::from_settings(None, Some(&e)).unwrap_err();
        assert!(err.to_string().contains("NO_PROXY"), "{err}");
        assert!(UpstreamProxy::all("http://").is_err());
    }

    #[test]
    fn credentials_stay_for_the_connection_and_are_never_shown() {
        let p = UpstreamProxy::all("http://alice:hunter2@proxy.corp:3128").unwrap();
        let u = p.for_url(&url("https://example.com/")).unwrap();
        assert_eq!((u.username(), u.password()), ("alice", Some("hunter2")));
        let shown = format!("{p} {p:?}");
        assert!(
            !shown.contains("hunter2") && !shown.contains("alice"),
            "{shown}"
        );
        assert!(shown.contains("http://***@proxy.corp:3128"), "{shown}");
        assert_eq!(
            redact_proxy_url("alice:hunter2@proxy:3128"),
            "http://***@proxy:3128"
        );
        assert_eq!(
            redact_proxy_url("socks5h://proxy:1080"),
            "socks5h://proxy:1080"
        );
        assert_eq!(
            p.scrub("sent alice:hunter2@proxy; hunter2 refused"),
            "sent ***@proxy; *** refused"
        );
        assert_eq!(p.proxy_hosts(), vec!["proxy.corp".to_owned()]);
    }
}
