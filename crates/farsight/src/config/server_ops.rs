//! The settings of a served deployment beyond the listener itself:
//! `[server.oauth]` (remote clients with OAuth 2.1 access tokens), the
//! per-tenant call budget, `/metrics` and the log format.

use std::time::Duration;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

pub use crate::logging::LogFormat;

/// `[server.oauth]` as written.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)] // documented on `OAuthConfig` and in the README
pub struct RawOAuth {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issuer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audience: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jwks_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jwks_ttl_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jwks_refresh_seconds: Option<u64>,
}

/// `[server.oauth]`: this server is an OAuth 2.1 resource server (the MCP
/// authorization specification); every HTTP request carries an access token
/// of `issuer` meant for `audience`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct OAuthConfig {
    /// The authorization server, as its tokens' `iss` says it.
    pub issuer: String,
    /// What tokens' `aud` must hold; the resource URL unless set.
    pub audience: String,
    /// Where the signing keys are; `None`: read `jwks_uri` from the
    /// issuer's metadata (RFC 8414, then OpenID Connect discovery).
    pub jwks_url: Option<String>,
    /// This server's canonical URL (`https://farsight.example.com/mcp`),
    /// named in the protected-resource metadata (RFC 9728).
    pub resource: String,
    /// How long fetched keys are used before they are fetched again.
    pub jwks_ttl: Duration,
    /// The shortest time between two fetches of the keys: a token with an
    /// unknown `kid` (the issuer rotated its keys) fetches them again, but
    /// a stream of forged `kid`s cannot turn into a stream of fetches.
    pub jwks_refresh: Duration,
}

impl OAuthConfig {
    /// The settings from what was written: `issuer` and `resource` are
    /// required, URLs must be absolute http(s) URLs.
    ///
    /// # Errors
    ///
    /// Names the missing or malformed key.
    pub fn resolve(raw: RawOAuth) -> anyhow::Result<Self> {
        let Some(issuer) = raw.issuer.filter(|s| !s.trim().is_empty()) else {
            bail!(
                "server.oauth.issuer is missing: set it to the authorization server's issuer URL"
            );
        };
        let Some(resource) = raw.resource.filter(|s| !s.trim().is_empty()) else {
            bail!(
                "server.oauth.resource is missing: set it to this server's public URL, e.g. https://farsight.example.com/mcp"
            );
        };
        for (name, value) in [
            ("issuer", Some(&issuer)),
            ("resource", Some(&resource)),
            ("jwks_url", raw.jwks_url.as_ref()),
        ] {
            if let Some(v) = value {
                let url = url::Url::parse(v)
                    .with_context(|| format!("server.oauth.{name} {v:?} is not a URL"))?;
                if !matches!(url.scheme(), "http" | "https") {
                    bail!("server.oauth.{name} {v:?} must be an http(s) URL");
                }
            }
        }
        let audience = raw
            .audience
            .filter(|s| !s.trim().is_empty())
            .unwrap_or_else(|| resource.clone());
        Ok(Self {
            issuer,
            audience,
            jwks_url: raw.jwks_url,
            resource,
            // An hour: issuers publish a new key well before they sign with
            // it, and an unknown `kid` fetches the keys anyway.
            jwks_ttl: Duration::from_secs(raw.jwks_ttl_seconds.unwrap_or(3_600)),
            // A minute: a rotation is picked up at once, a flood of forged
            // `kid`s costs the issuer one request a minute.
            jwks_refresh: Duration::from_secs(raw.jwks_refresh_seconds.unwrap_or(60)),
        })
    }

    /// Back to what a file would say (for `farsight config`).
    pub fn to_raw(&self) -> RawOAuth {
        RawOAuth {
            issuer: Some(self.issuer.clone()),
            audience: Some(self.audience.clone()),
            jwks_url: self.jwks_url.clone(),
            resource: Some(self.resource.clone()),
            jwks_ttl_seconds: Some(self.jwks_ttl.as_secs()),
            jwks_refresh_seconds: Some(self.jwks_refresh.as_secs()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issuer_and_resource_are_required_and_audience_defaults_to_the_resource() {
        let err = OAuthConfig::resolve(RawOAuth::default()).unwrap_err();
        assert!(format!("{err:#}").contains("issuer"), "{err:#}");
        let err = OAuthConfig::resolve(RawOAuth {
            issuer: Some("https://auth.example.com".into()),
            ..RawOAuth::default()
        })
        .unwrap_err();
        assert!(format!("{err:#}").contains("resource"), "{err:#}");
        let c = OAuthConfig::resolve(RawOAuth {
            issuer: Some("https://auth.example.com".into()),
            resource: Some("https://farsight.example.com/mcp".into()),
            ..RawOAuth::default()
        })
        .unwrap();
        assert_eq!(c.audience, "https://farsight.example.com/mcp");
        let err = OAuthConfig::resolve(RawOAuth {
            issuer: Some("ftp://auth.example.com".into()),
            resource: Some("https://farsight.example.com/mcp".into()),
            ..RawOAuth::default()
        })
        .unwrap_err();
        assert!(format!("{err:#}").contains("http(s)"), "{err:#}");
    }
}
