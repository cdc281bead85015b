//! A DNS resolver for reqwest that checks every address a name resolves to.
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
            // Port 0: reqwest puts the URL's port in afterwards.
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if addrs.is_empty() {
                return Err(format!("{host} has no addresses").into());
            }
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
}
