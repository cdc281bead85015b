//! The authorization server's signing keys (its JWKS): found through its
//! metadata when not configured, fetched through farsight's guarded client,
//! kept for `jwks_ttl`, and fetched again when a token names a key not in the
//! set (the issuer rotated its keys), at most once per `jwks_refresh`.

use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use farsight_net::{FetchOptions, Fetcher};
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey};
use tokio::sync::Mutex;

use crate::config::{FetchConfig, OAuthConfig};

/// A JWKS or a metadata document is a few kilobytes; a megabyte is plenty.
const MAX_DOCUMENT_BYTES: u64 = 1024 * 1024;

/// The keys, and when they were last fetched.
struct Held {
    keys: Option<JwkSet>,
    /// When `keys` were fetched.
    fetched_at: Option<Instant>,
    /// The last fetch attempt, successful or not: attempts are at least
    /// `refresh` apart, so an issuer that is down, or a stream of tokens
    /// naming unknown keys, costs it one request per `refresh`.
    tried_at: Option<Instant>,
    /// `jwks_url`, or the `jwks_uri` found in the issuer's metadata.
    jwks_url: Option<String>,
}

/// The issuer's keys, fetched on demand.
pub struct Jwks {
    issuer: String,
    ttl: Duration,
    refresh: Duration,
    fetcher: Fetcher,
    /// One fetch at a time: requests that arrive during a fetch wait for
    /// its keys rather than fetch again.
    held: Mutex<Held>,
}

/// Why no key was found for a token.
#[derive(Debug)]
pub enum KeyError {
    /// The token names a key the issuer does not publish (or none, among several).
    Unknown,
    /// The keys could not be fetched (issuer down, bad document).
    Unavailable(String),
}

impl Jwks {
    /// Keys of `oauth.issuer`, fetched with the egress rules of `[fetch]`
    /// (the private-network guard with its `allow_hosts`, the user's proxy
    /// and CAs) but neither robots.txt nor the page cache: rotation needs a
    /// fresh answer.
    ///
    /// # Errors
    ///
    /// When the client cannot be built from `[fetch]`.
    pub fn new(oauth: &OAuthConfig, fetch: &FetchConfig) -> anyhow::Result<Self> {
        let fetcher = Fetcher::builder()
            .proxy(fetch.upstream_proxy()?)
            .tls_trust(fetch.tls_trust()?)
            .timeout(fetch.timeout.min(Duration::from_secs(10)))
            .connect_timeout(fetch.connect_timeout)
            .max_redirects(fetch.max_redirects)
            .max_bytes(MAX_DOCUMENT_BYTES)
            .user_agent(fetch.user_agent.clone())
            .respect_robots_txt(false)
            .blocked_domains(fetch.blocked_domains.clone())
            .allow_private_networks(fetch.allow_private_networks)
            .allow_hosts(fetch.allow_hosts.clone())
            .cache(farsight_net::Cache::disabled())
            .build()
            .context("cannot set up the client that fetches [server.oauth]'s keys")?;
        Ok(Self {
            issuer: oauth.issuer.clone(),
            ttl: oauth.jwks_ttl,
            refresh: oauth.jwks_refresh,
            fetcher,
            held: Mutex::new(Held {
                keys: None,
                fetched_at: None,
                tried_at: None,
                jwks_url: oauth.jwks_url.clone(),
            }),
        })
    }

    /// The key that checks a token signed with `alg` by key `kid`.
    pub async fn key(&self, kid: Option<&str>, alg: Algorithm) -> Result<DecodingKey, KeyError> {
        let mut held = self.held.lock().await;
        let stale = held.fetched_at.is_none_or(|at| at.elapsed() >= self.ttl);
        if stale && self.may_try(&held) {
            self.fetch_into(&mut held).await;
        }
        if let Some(key) = held.keys.as_ref().and_then(|k| pick(k, kid, alg)) {
            return key;
        }
        // A key we do not know: the issuer may have rotated. Fetch again,
        // unless that was tried a moment ago.
        if self.may_try(&held) {
            self.fetch_into(&mut held).await;
        }
        match held.keys.as_ref() {
            Some(keys) => pick(keys, kid, alg).unwrap_or(Err(KeyError::Unknown)),
            None => Err(KeyError::Unavailable(
                "the authorization server's keys could not be fetched".to_owned(),
            )),
        }
    }

    /// Whether a fetch may be tried now: none was tried within `refresh`.
    fn may_try(&self, held: &Held) -> bool {
        held.tried_at.is_none_or(|at| at.elapsed() >= self.refresh)
    }

    /// Fetches the keys into `held`; on failure the old keys stay (an issuer
    /// briefly down does not lock everyone out) and the failure is logged.
    async fn fetch_into(&self, held: &mut Held) {
        held.tried_at = Some(Instant::now());
        match self.fetch(held.jwks_url.clone()).await {
            Ok((url, keys)) => {
                tracing::debug!(keys = keys.keys.len(), "fetched the OAuth issuer's keys");
                held.jwks_url = Some(url);
                held.keys = Some(keys);
                held.fetched_at = held.tried_at;
            }
            Err(e) => tracing::warn!("cannot fetch the OAuth issuer's keys: {e:#}"),
        }
    }

    async fn fetch(&self, jwks_url: Option<String>) -> anyhow::Result<(String, JwkSet)> {
        let url = match jwks_url {
            Some(url) => url,
            None => self.discover().await?,
        };
        let text = self.get(&url).await?;
        let keys: JwkSet = serde_json::from_str(&text)
            .with_context(|| format!("{url} is not a JSON Web Key Set"))?;
        Ok((url, keys))
    }

    /// `jwks_uri` from the issuer's metadata: RFC 8414 first, then OpenID
    /// Connect discovery; the document must name the same issuer.
    async fn discover(&self) -> anyhow::Result<String> {
        let mut failures = Vec::new();
        for url in metadata_urls(&self.issuer)? {
            let doc = match self.get(&url).await {
                Ok(text) => text,
                Err(e) => {
                    failures.push(format!("{e:#}"));
                    continue;
                }
            };
            let doc: serde_json::Value = serde_json::from_str(&doc)
                .with_context(|| format!("{url} is not a JSON document"))?;
            if doc.get("issuer").and_then(|v| v.as_str()) != Some(self.issuer.as_str()) {
                bail!("{url} names another issuer than {}", self.issuer);
            }
            return doc
                .get("jwks_uri")
                .and_then(|v| v.as_str())
                .map(str::to_owned)
                .ok_or_else(|| anyhow!("{url} has no jwks_uri"));
        }
        bail!(
            "no authorization server metadata for {} ({}); set [server.oauth].jwks_url",
            self.issuer,
            failures.join("; ")
        )
    }

    async fn get(&self, url: &str) -> anyhow::Result<String> {
        let page = self
            .fetcher
            .fetch(url, &FetchOptions::new().bypass_cache(true))
            .await
            .map_err(|e| anyhow!("{url}: {}", e.message()))?;
        Ok(page.text)
    }
}

/// The key for `kid` (or the only key that fits `alg` when the token names
/// none), if the set has it; `Err` for a key that cannot be used.
fn pick(keys: &JwkSet, kid: Option<&str>, alg: Algorithm) -> Option<Result<DecodingKey, KeyError>> {
    let jwk = match kid {
        Some(kid) => keys.find(kid)?,
        None => {
            let mut fitting = keys
                .keys
                .iter()
                .filter(|k| DecodingKey::from_jwk(k).is_ok_and(|d| d.family() == alg.family()));
            let only = fitting.next()?;
            if fitting.next().is_some() {
                return Some(Err(KeyError::Unknown));
            }
            only
        }
    };
    Some(DecodingKey::from_jwk(jwk).map_err(|e| KeyError::Unavailable(format!("key {kid:?}: {e}"))))
}

/// Where an issuer's metadata is: `/.well-known/oauth-authorization-server`
/// inserted before the issuer's path (RFC 8414 §3.1), then OpenID Connect's
/// `/.well-known/openid-configuration` after it.
fn metadata_urls(issuer: &str) -> anyhow::Result<Vec<String>> {
    let url = url::Url::parse(issuer).with_context(|| format!("issuer {issuer:?}"))?;
    let origin = url.origin().ascii_serialization();
    let path = url.path().trim_end_matches('/');
    Ok(vec![
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}{path}/.well-known/openid-configuration"),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_is_looked_for_where_rfc_8414_and_openid_put_it() {
        assert_eq!(
            metadata_urls("https://auth.example.com").unwrap(),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration"
            ]
        );
        assert_eq!(
            metadata_urls("https://auth.example.com/tenant1/").unwrap(),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration"
            ]
        );
    }
}
