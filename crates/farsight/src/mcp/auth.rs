//! Who may call `/mcp`, and as which tenant: nobody checked (a loopback
//! server without a token), the static `[server].token`, or OAuth 2.1 access
//! tokens (`[server.oauth]`). The tenant rides on the request's extensions
//! to the tools, where `[server].calls_per_minute` is counted by it.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq as _;

use super::http_conns::Conn;
use super::oauth::{Refused, Verifier};

/// Who is calling: `local` without a token, `token` with the static token,
/// `sub:SUBJECT` with an OAuth access token. Never the token itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tenant(pub Arc<str>);

/// How requests to `/mcp` are let in.
pub enum Gate {
    /// Everyone (a loopback server without a token).
    Open,
    /// Requests carrying this bearer token.
    Token(Arc<str>),
    /// Requests carrying a valid access token of the issuer.
    OAuth {
        /// Checks the tokens (boxed: it holds a whole HTTP client).
        verifier: Box<Verifier>,
        /// Where this server's protected-resource metadata is (RFC 9728),
        /// named in every 401.
        metadata_url: String,
    },
}

/// Lets a request in, marked with its [`Tenant`], or answers 401.
pub async fn require_auth(
    State(gate): State<Arc<Gate>>,
    mut request: Request,
    next: Next,
) -> Response {
    let given = bearer(&request);
    let tenant = match &*gate {
        Gate::Open => "local".to_owned(),
        Gate::Token(expected) => match given {
            // Compared without an early exit (subtle), so response timing does not
            // reveal how much of a guessed token was right.
            Some(g) if bool::from(g.as_bytes().ct_eq(expected.as_bytes())) => "token".to_owned(),
            _ => return token_refused(),
        },
        Gate::OAuth {
            verifier,
            metadata_url,
        } => match given {
            None => return oauth_refused(metadata_url, None),
            Some(token) => match verifier.verify(token).await {
                Ok(subject) => format!("sub:{subject}"),
                Err(why) => return oauth_refused(metadata_url, Some(&why)),
            },
        },
    };
    mark_authenticated(&request);
    request.extensions_mut().insert(Tenant(tenant.into()));
    next.run(request).await
}

/// The bearer token of `Authorization`, if any.
fn bearer(request: &Request) -> Option<&str> {
    request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(str::trim)
}

fn token_refused() -> Response {
    (
        StatusCode::UNAUTHORIZED,
        [
            (header::WWW_AUTHENTICATE, "Bearer"),
            (header::CONTENT_TYPE, "application/json"),
        ],
        "{\"error\":\"missing or wrong bearer token: send Authorization: Bearer <FARSIGHT_HTTP_TOKEN>\"}",
    )
        .into_response()
}

/// A 401 that sends the client to the metadata (RFC 9728 §5.1), with
/// `invalid_token` and why when a token was sent (RFC 6750 §3).
fn oauth_refused(metadata_url: &str, refused: Option<&Refused>) -> Response {
    let mut challenge = format!("Bearer resource_metadata=\"{metadata_url}\"");
    if let Some(Refused(why)) = refused {
        challenge.push_str(&format!(
            ", error=\"invalid_token\", error_description=\"{}\"",
            quotable(why)
        ));
    }
    let value = HeaderValue::from_str(&challenge)
        .unwrap_or_else(|_| HeaderValue::from_static("Bearer error=\"invalid_token\""));
    let body = serde_json::json!({
        "error": if refused.is_some() { "invalid_token" } else { "missing access token" },
        "error_description": refused.map_or(
            "send Authorization: Bearer <access token>; resource_metadata names the authorization server",
            |r| r.0.as_str(),
        ),
        "resource_metadata": metadata_url,
    });
    let mut response = (
        StatusCode::UNAUTHORIZED,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::WWW_AUTHENTICATE, value);
    response
}

/// Text that fits a quoted-string of a header: printable ASCII without `"`
/// or `\` (RFC 6750 restricts error_description to that anyway).
fn quotable(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' | '\\' => '\'',
            c if c.is_ascii_graphic() || c == ' ' => c,
            _ => '?',
        })
        .collect()
}

/// Tells the request's connection that it carries a client allowed in, so
/// that it is closed last when room is needed.
fn mark_authenticated(request: &Request) {
    if let Some(conn) = request.extensions().get::<Arc<Conn>>() {
        conn.authenticated();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_comparison() {
        assert!(bool::from(b"abc".ct_eq(b"abc")));
        assert!(!bool::from(b"abc".ct_eq(b"abd")));
        assert!(!bool::from(b"abc"[..].ct_eq(&b"abcd"[..])));
    }

    #[test]
    fn a_reason_cannot_break_out_of_its_quotes() {
        assert_eq!(quotable("bad \"kid\"\n\\x"), "bad 'kid'?'x");
    }
}
