//! The protected-resource metadata of RFC 9728: how an MCP client learns,
//! from a 401, which authorization server issues tokens for this server.

use std::sync::Arc;

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

use crate::config::OAuthConfig;

/// The well-known path prefix of RFC 9728 §3.
const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// Where the metadata of `resource` is: the well-known path inserted between
/// its origin and its path (`https://h/mcp` →
/// `https://h/.well-known/oauth-protected-resource/mcp`).
pub fn metadata_url(resource: &str) -> String {
    match url::Url::parse(resource) {
        Ok(url) => format!(
            "{}{WELL_KNOWN}{}",
            url.origin().ascii_serialization(),
            url.path().trim_end_matches('/')
        ),
        // Checked when the configuration was read; kept as written otherwise.
        Err(_) => format!("{}{WELL_KNOWN}", resource.trim_end_matches('/')),
    }
}

/// The document (RFC 9728 §2): the resource and its authorization server.
pub fn document(oauth: &OAuthConfig) -> serde_json::Value {
    serde_json::json!({
        "resource": oauth.resource,
        "authorization_servers": [oauth.issuer],
        "bearer_methods_supported": ["header"],
        "resource_name": "farsight",
    })
}

/// The routes serving the document: the path-suffixed form for the
/// resource's own path (`/.well-known/oauth-protected-resource/mcp`) and the
/// bare one, which clients that know only the host try.
pub fn routes(oauth: &OAuthConfig) -> Router {
    let body: Arc<str> = document(oauth).to_string().into();
    let serve = move || {
        let body = body.clone();
        async move {
            (
                [(header::CONTENT_TYPE, "application/json")],
                body.to_string(),
            )
                .into_response()
        }
    };
    let suffix = url::Url::parse(&oauth.resource)
        .map(|u| u.path().trim_end_matches('/').to_owned())
        .unwrap_or_default();
    let mut router = Router::new().route(WELL_KNOWN, get(serve.clone()));
    if !suffix.is_empty() {
        router = router.route(&format!("{WELL_KNOWN}{suffix}"), get(serve));
    }
    router
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_url_inserts_the_well_known_path_before_the_resource_path() {
        assert_eq!(
            metadata_url("https://farsight.example.com/mcp"),
            "https://farsight.example.com/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            metadata_url("http://127.0.0.1:8787/"),
            "http://127.0.0.1:8787/.well-known/oauth-protected-resource"
        );
    }
}
