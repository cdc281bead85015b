//! DNS resolvers for reqwest: [`GuardedResolver`] checks every address a name
//! resolves to (web pages), [`PlainResolver`] does not (provider APIs, which
//! the user may run on the LAN). Both report a name without an answer as
//! [`NoDnsAnswer`], so that a person reads "could not resolve HOST (no DNS
//! answer)" instead of the resolver's error chain.
//!
//! reqwest connects to exactly the addresses a resolver returns, so checking
//! here pins the connection to a checked address: there is no second lookup a
//! rebinding DNS server could answer differently. (Hosts written as IP
//! literals never reach a resolver; [`crate::guard::Guard::check_parsed`]
//! covers those.)

use std::net::SocketAddr;
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use crate::error::Error;
use crate::guard::Guard;

/// The refusal, carried through reqwest's error chain so that the fetcher can
/// turn it back into a `BlockedUrl` error.
#[derive(Debug)]
pub(crate) struct Refused(pub(crate) Error);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

impl std::error::Error for Refused {}

/// A name the resolver found no address for: it does not exist, or no DNS
/// server answered (offline). Carried through reqwest's error chain.
#[derive(Debug)]
pub(crate) struct NoDnsAnswer {
    host: String,
}

impl std::fmt::Display for NoDnsAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "could not resolve {} (no DNS answer)", self.host)
    }
}

impl std::error::Error for NoDnsAnswer {}

/// The host that did not resolve, when `error` (or an error it wraps) is a
/// name without a DNS answer from one of farsight's resolvers, whether the
/// client is the [`crate::Fetcher`]'s or [`crate::api_client`]'s.
pub fn unresolved_host<'a>(error: &'a (dyn std::error::Error + 'static)) -> Option<&'a str> {
    let mut current = Some(error);
    while let Some(e) = current {
        if let Some(n) = e.downcast_ref::<NoDnsAnswer>() {
            return Some(&n.host);
        }
        current = e.source();
    }
    None
}

/// The addresses of `host`, or [`NoDnsAnswer`]. The resolver's own error
/// ("failed to lookup address information: Name or service not known", or
/// "Temporary failure in name resolution" when offline) says the same in
/// words a person does not need; it goes to the debug log.
pub(crate) async fn lookup(host: &str) -> Result<Vec<SocketAddr>, NoDnsAnswer> {
    // Port 0: reqwest puts the URL's port in afterwards.
    match tokio::net::lookup_host((host, 0)).await {
        Ok(addrs) => {
            let addrs: Vec<SocketAddr> = addrs.collect();
            if addrs.is_empty() {
                tracing::debug!(host, "the name resolved to no address");
                return Err(NoDnsAnswer {
                    host: host.to_owned(),
                });
            }
            Ok(addrs)
        }
        Err(e) => {
            tracing::debug!(host, "DNS lookup failed: {e}");
            Err(NoDnsAnswer {
                host: host.to_owned(),
            })
        }
    }
}

/// Resolves without checking the addresses: for provider APIs.
pub(crate) struct PlainResolver;

impl Resolve for PlainResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let addrs: Addrs = Box::new(lookup(&host).await?.into_iter());
            Ok(addrs)
        })
    }
}

pub(crate) struct GuardedResolver {
    guard: Arc<Guard>,
}

impl GuardedResolver {
    pub(crate) fn new(guard: Arc<Guard>) -> Self {
        Self { guard }
    }
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let guard = Arc::clone(&self.guard);
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let addrs = lookup(&host).await?;
            // One bad address refuses the name: a public name that also points
            // inside the network is an attack, not a configuration.
            for addr in &addrs {
                guard.check_ip(Some(&host), addr.ip()).map_err(|e| {
                    Box::new(Refused(e)) as Box<dyn std::error::Error + Send + Sync>
                })?;
            }
            let addrs: Addrs = Box::new(addrs.into_iter());
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[tokio::test]
    async fn localhost_by_dns_is_refused_unless_allowed() {
        let guard = Arc::new(Guard::default());
        let r = GuardedResolver::new(guard);
        let Ok(name) = Name::from_str("localhost") else {
            panic!("name")
        };
        let err = match r.resolve(name).await {
            Ok(_) => panic!("localhost must be refused"),
            Err(e) => e,
        };
        assert!(err.downcast_ref::<Refused>().is_some(), "{err}");

        let allowed = Arc::new(Guard::new(&[], false, &["localhost".into()]).unwrap());
        let r = GuardedResolver::new(allowed);
        let addrs: Vec<_> = match r.resolve(Name::from_str("localhost").unwrap()).await {
            Ok(a) => a.collect(),
            Err(e) => panic!("{e}"),
        };
        assert!(addrs.iter().all(|a| a.ip().is_loopback()));
    }

    /// RFC 6761: names under `.invalid` never resolve, online or offline.
    #[tokio::test]
    async fn a_name_without_answer_is_named_in_plain_words() {
        let name = Name::from_str("nothing-here.invalid").unwrap();
        let err = match PlainResolver.resolve(name).await {
            Ok(_) => panic!(".invalid must not resolve"),
            Err(e) => e,
        };
        assert_eq!(
            err.to_string(),
            "could not resolve nothing-here.invalid (no DNS answer)"
        );
        assert_eq!(unresolved_host(err.as_ref()), Some("nothing-here.invalid"));
        let other: Box<dyn std::error::Error + Send + Sync> = "refused".into();
        assert_eq!(unresolved_host(other.as_ref()), None);
    }
}
