//! What the page cache stores: the page, and how it was reached (every URL of
//! the redirect chain and the address each answer came from), so that a hit
//! is served only if the current policy would have let the fetch through.
//!
//! Why re-check instead of keying the cache by a fingerprint of the policy:
//! the guard stays the one owner of the rules (a rule added to it applies to
//! hits with no fingerprint to keep in step), processes whose policies differ
//! in ways that do not concern a page (another `blocked_domains` list, one
//! more `allow_hosts` entry) still share its download, and removing a
//! permission takes effect at once, in a running server as in a new process.
//! The check is a few string and address comparisons against data in the
//! entry: no DNS lookup, no connection.

use std::net::IpAddr;

use serde::{Deserialize, Serialize};
use url::{Host, Url};

use crate::guard::Guard;
use crate::page::Page;

/// One request of a fetch: the URL asked for and the address that answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Hop {
    pub(crate) url: String,
    /// The peer's address; `None` when the connection did not report one, in
    /// which case the hop cannot be re-checked and the entry is a miss.
    /// Through a proxy: an address the name resolved to on this machine
    /// (the peer is the proxy), or `None` when only the proxy could resolve it.
    pub(crate) peer: Option<IpAddr>,
    /// Whether the request went through the user's upstream proxy.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) via_proxy: bool,
}

/// A cache entry of the `page` namespace.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PageEntry {
    pub(crate) page: Page,
    /// The requests that led to the page, in order; the last one answered
    /// with it.
    pub(crate) hops: Vec<Hop>,
    /// Whether robots.txt was obeyed on every hop: a page fetched by a
    /// configuration that ignores robots.txt is not served to one that obeys.
    pub(crate) robots_obeyed: bool,
}

impl PageEntry {
    /// The same page as reached by its final request alone: what is stored
    /// under the final URL, which a later call asks for directly.
    pub(crate) fn final_hop_only(&self) -> Option<PageEntry> {
        Some(PageEntry {
            page: self.page.clone(),
            hops: vec![self.hops.last()?.clone()],
            robots_obeyed: self.robots_obeyed,
        })
    }

    /// Why the current policy would not have fetched this page, or `None`
    /// when it would have: every URL passes the URL rules and every address
    /// the address rules, and robots.txt was obeyed if it must be.
    pub(crate) fn refusal(&self, guard: &Guard, robots_required: bool) -> Option<String> {
        if self.hops.is_empty() {
            return Some("the entry records no request".to_owned());
        }
        if robots_required && !self.robots_obeyed {
            return Some("it was fetched without obeying robots.txt".to_owned());
        }
        for hop in &self.hops {
            let Ok(url) = Url::parse(&hop.url) else {
                return Some(format!("{:?} is not a URL", hop.url));
            };
            if let Err(e) = guard.check_parsed(&url) {
                return Some(e.to_string());
            }
            let Some(peer) = hop.peer else {
                if hop.via_proxy {
                    // Only the proxy could resolve the name: the URL policy
                    // above is all a fresh fetch would check too.
                    continue;
                }
                return Some(format!("the address that served {} is unknown", hop.url));
            };
            let name = match url.host() {
                Some(Host::Domain(name)) => Some(name),
                _ => None,
            };
            if let Err(e) = guard.check_ip(name, peer) {
                return Some(e.to_string());
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::PageKind;

    fn entry(hops: &[(&str, Option<&str>)], robots_obeyed: bool) -> PageEntry {
        PageEntry {
            page: Page {
                url: hops.last().map(|h| h.0.to_owned()).unwrap_or_default(),
                requested_url: hops.first().map(|h| h.0.to_owned()).unwrap_or_default(),
                status: 200,
                content_type: "text/html".to_owned(),
                kind: PageKind::Html,
                charset: "UTF-8".to_owned(),
                text: "<p>x</p>".to_owned(),
                bytes: None,
                truncated: false,
                from_cache: false,
            },
            hops: hops
                .iter()
                .map(|(url, peer)| Hop {
                    url: (*url).to_owned(),
                    peer: peer.map(|p| p.parse().unwrap()),
                    via_proxy: false,
                })
                .collect(),
            robots_obeyed,
        }
    }

    fn guard(allow_private: bool, allow_hosts: &[&str], blocked: &[&str]) -> Guard {
        let own = |l: &[&str]| l.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        Guard::new(&own(blocked), allow_private, &own(allow_hosts)).unwrap()
    }

    #[test]
    fn a_name_that_reached_a_private_address_needs_the_permission_still() {
        let e = entry(&[("http://intranet.example/a", Some("10.1.2.3"))], true);
        let refusal = e.refusal(&guard(false, &[], &[]), true).unwrap();
        assert!(refusal.contains("10.1.2.3"), "{refusal}");
        assert_eq!(e.refusal(&guard(true, &[], &[]), true), None);
        assert_eq!(
            e.refusal(&guard(false, &["intranet.example"], &[]), true),
            None
        );
        assert_eq!(e.refusal(&guard(false, &["10.0.0.0/8"], &[]), true), None);
        assert!(
            e.refusal(&guard(false, &["other.example"], &[]), true)
                .is_some()
        );
    }

    #[test]
    fn every_hop_of_the_chain_is_checked() {
        let e = entry(
            &[
                ("https://public.example/start", Some("93.184.216.34")),
                ("http://127.0.0.1:8080/inside", Some("127.0.0.1")),
                ("https://public.example/end", Some("93.184.216.34")),
            ],
            true,
        );
        assert!(e.refusal(&guard(false, &[], &[]), true).is_some());
        assert_eq!(e.refusal(&guard(false, &["127.0.0.1"], &[]), true), None);
        // A domain blocked since is refused on any hop.
        let blocked = guard(true, &[], &["public.example"]);
        assert!(
            e.refusal(&blocked, true)
                .unwrap()
                .contains("public.example")
        );
        // Stored under the final URL, only the last hop counts.
        let last = e.final_hop_only().unwrap();
        assert_eq!(last.hops.len(), 1);
        assert_eq!(last.refusal(&guard(false, &[], &[]), true), None);
    }

    #[test]
    fn robots_unknown_addresses_and_empty_chains_are_refused() {
        let public = [("https://public.example/", Some("93.184.216.34"))];
        let ignored_robots = entry(&public, false);
        assert!(
            ignored_robots
                .refusal(&guard(false, &[], &[]), true)
                .is_some()
        );
        assert_eq!(ignored_robots.refusal(&guard(false, &[], &[]), false), None);
        let mut unknown = entry(&[("https://public.example/", None)], true);
        assert!(unknown.refusal(&guard(true, &[], &[]), true).is_some());
        // Through a proxy, a name this machine could not resolve has no
        // address to check; its URL still is.
        unknown.hops[0].via_proxy = true;
        assert_eq!(unknown.refusal(&guard(false, &[], &[]), true), None);
        assert!(
            unknown
                .refusal(&guard(false, &[], &["public.example"]), true)
                .is_some()
        );
        assert!(
            entry(&[], true)
                .refusal(&guard(true, &[], &[]), true)
                .is_some()
        );
        assert!(
            entry(&[("not a url", Some("93.184.216.34"))], true)
                .refusal(&guard(true, &[], &[]), true)
                .is_some()
        );
    }
}
