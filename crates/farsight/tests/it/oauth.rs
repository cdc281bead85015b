//! `farsight mcp --http` as an OAuth 2.1 resource server: tokens minted here
//! with local keys, the issuer's metadata and keys served by a local mock,
//! and the per-tenant limit counted by each token's subject.

use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientConfig};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::mcp_http::{HttpServer, args, http, transport};
use crate::support::PageServer;

const RESOURCE: &str = "http://farsight.test/mcp";
const METADATA_URL: &str = "http://farsight.test/.well-known/oauth-protected-resource/mcp";

/// A signing key of the issuer: its private half and its JWK.
struct Key {
    encoding: EncodingKey,
    jwk: Jwk,
}

fn key(kid: &str) -> Key {
    let pair = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
    let encoding = EncodingKey::from_ec_pem(pair.serialize_pem().as_bytes()).unwrap();
    let mut jwk = Jwk::from_encoding_key(&encoding, Algorithm::ES256).unwrap();
    jwk.common.key_id = Some(kid.to_owned());
    Key { encoding, jwk }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A token of `claims` signed by `key`, its header naming `kid`.
fn mint(key: &Key, kid: &str, claims: &serde_json::Value) -> String {
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some(kid.to_owned());
    encode(&header, claims, &key.encoding).unwrap()
}

fn claims(issuer: &str, sub: &str) -> serde_json::Value {
    serde_json::json!({
        "iss": issuer, "aud": RESOURCE, "sub": sub,
        "iat": now(), "exp": now() + 600,
    })
}

/// Serves the issuer's metadata (RFC 8414) and `keys` as its JWKS.
async fn publish(issuer: &MockServer, keys: &[&Key]) {
    issuer.reset().await;
    Mock::given(method("GET"))
        .and(path("/.well-known/oauth-authorization-server"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "issuer": issuer.uri(),
            "jwks_uri": format!("{}/jwks", issuer.uri()),
        })))
        .mount(issuer)
        .await;
    let set = JwkSet {
        keys: keys.iter().map(|k| k.jwk.clone()).collect(),
    };
    Mock::given(method("GET"))
        .and(path("/jwks"))
        .respond_with(ResponseTemplate::new(200).set_body_json(&set))
        .mount(issuer)
        .await;
}

/// POSTs `initialize` with `token`; the status and the `WWW-Authenticate` header.
async fn initialize(server: &HttpServer, token: Option<&str>) -> (u16, String) {
    let init = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}
    });
    let mut request = http()
        .post(server.mcp_url())
        .header("accept", "application/json, text/event-stream")
        .json(&init);
    if let Some(t) = token {
        request = request.bearer_auth(t);
    }
    let response = request.send().await.unwrap();
    let challenge = response
        .headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (response.status().as_u16(), challenge)
}

async fn oauth_server(issuer: &MockServer, extra: &str) -> HttpServer {
    HttpServer::start_with_config(
        None,
        &[],
        &format!(
            "\n[server]\ncalls_per_minute = 1\n{extra}\n[server.oauth]\nissuer = {:?}\nresource = {RESOURCE:?}\njwks_refresh_seconds = 0\n",
            issuer.uri()
        ),
    )
    .await
}

#[tokio::test]
async fn access_tokens_are_checked_and_refusals_point_to_the_metadata() {
    let issuer = MockServer::start().await;
    let k1 = key("k1");
    publish(&issuer, &[&k1]).await;
    let server = oauth_server(&issuer, "").await;
    let iss = issuer.uri();

    let valid = mint(&k1, "k1", &claims(&iss, "alice"));
    assert_eq!(initialize(&server, Some(&valid)).await.0, 200);

    // No token: where to get one, and no error (RFC 6750 §3.1).
    let (status, challenge) = initialize(&server, None).await;
    assert_eq!(status, 401);
    assert_eq!(
        challenge,
        format!("Bearer resource_metadata=\"{METADATA_URL}\"")
    );

    let mut expired = claims(&iss, "alice");
    expired["exp"] = serde_json::json!(now() - 3_600);
    let mut wrong_audience = claims(&iss, "alice");
    wrong_audience["aud"] = serde_json::json!("http://other.test/mcp");
    let wrong_issuer = claims("http://127.0.0.1:1", "alice");
    let forger = key("k1");
    let hmac = encode(
        &Header::new(Algorithm::HS256),
        &claims(&iss, "alice"),
        &EncodingKey::from_secret(b"a shared secret"),
    )
    .unwrap();
    let none = format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(br#"{"alg":"none","typ":"JWT","kid":"k1"}"#),
        URL_SAFE_NO_PAD.encode(claims(&iss, "alice").to_string())
    );
    for (what, token) in [
        ("expired", mint(&k1, "k1", &expired)),
        ("wrong audience", mint(&k1, "k1", &wrong_audience)),
        ("wrong issuer", mint(&k1, "k1", &wrong_issuer)),
        ("bad signature", mint(&forger, "k1", &claims(&iss, "alice"))),
        ("HMAC", hmac),
        ("alg none", none),
    ] {
        let (status, challenge) = initialize(&server, Some(&token)).await;
        assert_eq!(status, 401, "{what}");
        assert!(
            challenge.starts_with(&format!(
                "Bearer resource_metadata=\"{METADATA_URL}\", error=\"invalid_token\""
            )),
            "{what}: {challenge}"
        );
        assert!(!challenge.contains(&token), "{what}: the token is echoed");
    }

    // The metadata document, at the path-suffixed and the bare well-known path.
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let doc: serde_json::Value = http()
            .get(format!("{}{path}", server.base))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(doc["resource"], RESOURCE, "{path}");
        assert_eq!(doc["authorization_servers"][0], iss, "{path}");
        assert_eq!(doc["bearer_methods_supported"][0], "header", "{path}");
    }
}

#[tokio::test]
async fn a_rotated_key_is_fetched_when_a_token_names_it() {
    let issuer = MockServer::start().await;
    let k1 = key("k1");
    publish(&issuer, &[&k1]).await;
    let server = oauth_server(&issuer, "").await;
    let iss = issuer.uri();
    assert_eq!(
        initialize(&server, Some(&mint(&k1, "k1", &claims(&iss, "alice"))))
            .await
            .0,
        200
    );
    // The issuer rotates: k2 signs from now on.
    let k2 = key("k2");
    publish(&issuer, &[&k1, &k2]).await;
    let rotated = mint(&k2, "k2", &claims(&iss, "alice"));
    assert_eq!(initialize(&server, Some(&rotated)).await.0, 200);
    let jwks_fetches = issuer
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.url.path() == "/jwks")
        .count();
    assert_eq!(
        jwks_fetches, 1,
        "the keys were fetched again after the reset"
    );
}

#[tokio::test]
async fn each_subject_has_its_own_calls_per_minute() {
    let pages = PageServer::start().await;
    let issuer = MockServer::start().await;
    let k1 = key("k1");
    publish(&issuer, &[&k1]).await;
    let server = oauth_server(&issuer, "").await;
    let iss = issuer.uri();
    let call = |token: String| {
        let url = server.mcp_url();
        let page = pages.url("/article");
        async move {
            let client = ClientConfig::default()
                .serve(transport(&url, Some(&token), &[]))
                .await
                .unwrap();
            let answer = client
                .call_tool(
                    CallToolRequestParams::new("web_fetch")
                        .with_arguments(args(serde_json::json!({"url": page}))),
                )
                .await
                .unwrap();
            let _ = client.cancel().await;
            answer
        }
    };
    let alice = mint(&k1, "k1", &claims(&iss, "alice"));
    let first = call(alice.clone()).await;
    assert_eq!(first.is_error, Some(false), "{first:?}");
    let second = call(alice).await;
    assert_eq!(second.is_error, Some(true));
    let json = second.structured_content.unwrap();
    assert_eq!(json["errorKind"], "rateLimited", "{json}");
    assert_eq!(json["retryable"], true, "{json}");
    let wait = json["retryAfterMs"].as_u64().unwrap();
    assert!(wait > 0 && wait <= 60_000, "{json}");
    // Another subject's budget is untouched.
    let bob = call(mint(&k1, "k1", &claims(&iss, "bob"))).await;
    assert_eq!(bob.is_error, Some(false), "{bob:?}");
}

#[tokio::test]
async fn an_issuer_without_keys_yet_refuses_tokens_until_it_publishes_them() {
    let issuer = MockServer::start().await;
    let server = oauth_server(&issuer, "").await;
    let k1 = key("k1");
    let token = mint(&k1, "k1", &claims(&issuer.uri(), "alice"));
    // Nothing published: the token cannot be checked, and says so.
    let (status, challenge) = initialize(&server, Some(&token)).await;
    assert_eq!(status, 401);
    assert!(challenge.contains("cannot be checked now"), "{challenge}");
    publish(&issuer, &[&k1]).await;
    assert_eq!(initialize(&server, Some(&token)).await.0, 200);
}

#[tokio::test]
async fn unknown_key_ids_fetch_the_keys_at_most_once_per_refresh_interval() {
    let issuer = MockServer::start().await;
    let k1 = key("k1");
    publish(&issuer, &[&k1]).await;
    let server = HttpServer::start_with_config(
        None,
        &[],
        &format!(
            "\n[server.oauth]\nissuer = {:?}\nresource = {RESOURCE:?}\njwks_refresh_seconds = 3600\n",
            issuer.uri()
        ),
    )
    .await;
    let iss = issuer.uri();
    assert_eq!(
        initialize(&server, Some(&mint(&k1, "k1", &claims(&iss, "alice"))))
            .await
            .0,
        200
    );
    for kid in ["forged-1", "forged-2", "forged-3"] {
        let token = mint(&key(kid), kid, &claims(&iss, "mallory"));
        assert_eq!(initialize(&server, Some(&token)).await.0, 401, "{kid}");
    }
    let jwks_fetches = issuer
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.url.path() == "/jwks")
        .count();
    assert_eq!(jwks_fetches, 1, "forged kids fetched the keys again");
}
