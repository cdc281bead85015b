//! Access tokens of `[server.oauth]`, checked on every request: a JWS signed
//! by one of the issuer's keys with an asymmetric algorithm, issued by
//! `issuer` for `audience`, and within its lifetime.

use std::collections::HashSet;

use jsonwebtoken::{Algorithm, Validation, decode, decode_header};
use serde::Deserialize;

use super::oauth_jwks::{Jwks, KeyError};
use crate::config::{FetchConfig, OAuthConfig};

/// Seconds of clock difference forgiven on `exp` and `nbf`: the issuer's
/// clock and ours are never quite the same.
const LEEWAY_SECONDS: u64 = 30;

/// The signatures accepted: public-key ones only. `none` is not an
/// algorithm jsonwebtoken knows (such a header does not parse), and HMAC
/// (`HS256`...) is refused: with a shared secret, anyone holding it could
/// mint tokens, and a public key passed off as an HMAC secret is the classic
/// confusion attack.
const ACCEPTED: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// Why a token was refused: said in `error_description`, never with the token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

/// The claims farsight reads; `exp`, `nbf`, `iss` and `aud` are checked by
/// jsonwebtoken itself.
#[derive(Debug, Deserialize)]
struct Claims {
    sub: Option<String>,
    /// Client-credentials tokens of some issuers name the client here only.
    client_id: Option<String>,
}

/// Checks access tokens against the issuer's keys.
pub struct Verifier {
    issuer: String,
    audience: String,
    jwks: Jwks,
}

impl Verifier {
    /// A verifier for `oauth`, fetching keys with `[fetch]`'s egress rules.
    ///
    /// # Errors
    ///
    /// When the key client cannot be built.
    pub fn new(oauth: &OAuthConfig, fetch: &FetchConfig) -> anyhow::Result<Self> {
        Ok(Self {
            issuer: oauth.issuer.clone(),
            audience: oauth.audience.clone(),
            jwks: Jwks::new(oauth, fetch)?,
        })
    }

    /// The token's subject (its tenant) when the token is good.
    pub async fn verify(&self, token: &str) -> Result<String, Refused> {
        let header = decode_header(token)
            .map_err(|e| Refused(format!("the token is not a signed JWT ({e})")))?;
        if !ACCEPTED.contains(&header.alg) {
            return Err(Refused(format!(
                "tokens signed with {:?} are not accepted; the issuer must sign with RS256, ES256 or EdDSA",
                header.alg
            )));
        }
        let key = self
            .jwks
            .key(header.kid.as_deref(), header.alg)
            .await
            .map_err(|e| match e {
                KeyError::Unknown => Refused("the token's signing key is not the issuer's".into()),
                KeyError::Unavailable(why) => {
                    Refused(format!("the token cannot be checked now: {why}"))
                }
            })?;
        if key.family() != header.alg.family() {
            return Err(Refused(
                "the token's algorithm does not fit its signing key".into(),
            ));
        }
        let mut validation = Validation::new(header.alg);
        validation.leeway = LEEWAY_SECONDS;
        validation.validate_exp = true;
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.required_spec_claims = ["exp", "iss", "aud"]
            .into_iter()
            .map(str::to_owned)
            .collect::<HashSet<_>>();
        let data = decode::<Claims>(token, &key, &validation)
            .map_err(|e| Refused(format!("the token is not valid here: {}", describe(&e))))?;
        data.claims
            .sub
            .or(data.claims.client_id)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| Refused("the token names no subject (sub)".into()))
    }
}

/// A reason a client can act on, from jsonwebtoken's error.
fn describe(e: &jsonwebtoken::errors::Error) -> String {
    use jsonwebtoken::errors::ErrorKind as K;
    match e.kind() {
        K::ExpiredSignature => "it has expired".into(),
        K::ImmatureSignature => "it is not valid yet (nbf)".into(),
        K::InvalidAudience => "it is meant for another audience".into(),
        K::InvalidIssuer => "another issuer signed it".into(),
        K::InvalidSignature => "its signature does not match".into(),
        K::MissingRequiredClaim(c) => format!("it lacks the {c} claim"),
        other => format!("{other:?}"),
    }
}
