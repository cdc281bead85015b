//! Browser-wide request interception (the DevTools `Fetch` domain on the
//! browser target, so it covers every tab and every browser context):
//!
//! - answers the egress proxy's credential challenge, and only the proxy's:
//!   a site asking for credentials gets none (they would leak the proxy's);
//! - fails requests for images, media and fonts before anything is sent:
//!   the text of a page needs none of them;
//! - fails any scheme the proxy does not carry.
//!
//! It runs on the browser target rather than per page because chromiumoxide
//! answers page-level `Fetch.authRequired` events itself, before any
//! listener could.

use std::collections::HashSet;
use std::sync::Arc;

use chromiumoxide::Browser;
use chromiumoxide::cdp::browser_protocol::fetch::{
    AuthChallengeResponse, AuthChallengeResponseResponse, AuthChallengeSource,
    ContinueRequestParams, ContinueWithAuthParams, EnableParams, EventAuthRequired,
    EventRequestPaused, FailRequestParams, RequestPattern, RequestStage,
};
use chromiumoxide::cdp::browser_protocol::network::{ErrorReason, ResourceType};
use farsight_net::ProxyCredentials;
use futures_util::StreamExt as _;
use tokio::sync::RwLock;
use tokio::task::JoinHandle;

use crate::error::{RenderError, cdp};

/// Starts answering; the returned task runs until the browser goes away.
pub(crate) async fn start(
    browser: Arc<RwLock<Browser>>,
    credentials: ProxyCredentials,
) -> Result<JoinHandle<()>, RenderError> {
    let (mut paused, mut auth) = {
        let b = browser.read().await;
        let paused = b
            .event_listener::<EventRequestPaused>()
            .await
            .map_err(cdp("listening for requests"))?;
        let auth = b
            .event_listener::<EventAuthRequired>()
            .await
            .map_err(cdp("listening for challenges"))?;
        let enable = EnableParams::builder()
            .pattern(
                RequestPattern::builder()
                    .url_pattern("*")
                    .request_stage(RequestStage::Request)
                    .build(),
            )
            .handle_auth_requests(true)
            .build();
        b.execute(enable)
            .await
            .map_err(cdp("enabling request interception"))?;
        (paused, auth)
    };
    Ok(tokio::spawn(async move {
        // Requests already given the credentials: a second challenge for
        // one means they were refused, and answering again would loop.
        let mut answered: HashSet<String> = HashSet::new();
        loop {
            tokio::select! {
                ev = paused.next() => {
                    let Some(ev) = ev else { break };
                    answer_request(&browser, &ev);
                }
                ev = auth.next() => {
                    let Some(ev) = ev else { break };
                    if answered.len() > 10_000 {
                        answered.clear();
                    }
                    let first = answered.insert(ev.request_id.inner().clone());
                    answer_challenge(&browser, &ev, first.then_some(&credentials));
                }
            }
        }
    }))
}

/// Whether the page may have this request at all.
fn wanted(ev: &EventRequestPaused) -> bool {
    let http = ev.request.url.starts_with("http://") || ev.request.url.starts_with("https://");
    http && !matches!(
        ev.resource_type,
        ResourceType::Image | ResourceType::Media | ResourceType::Font
    )
}

fn answer_request(browser: &Arc<RwLock<Browser>>, ev: &EventRequestPaused) {
    let browser = Arc::clone(browser);
    let id = ev.request_id.clone();
    let wanted = wanted(ev);
    // Answered in their own tasks: a slow answer must not hold up the rest.
    tokio::spawn(async move {
        let b = browser.read().await;
        let sent = if wanted {
            b.execute(ContinueRequestParams::new(id)).await.map(|_| ())
        } else {
            b.execute(FailRequestParams::new(id, ErrorReason::BlockedByClient))
                .await
                .map(|_| ())
        };
        if let Err(e) = sent {
            tracing::debug!("a paused request was not answered: {e}");
        }
    });
}

fn answer_challenge(
    browser: &Arc<RwLock<Browser>>,
    ev: &EventAuthRequired,
    credentials: Option<&ProxyCredentials>,
) {
    let from_proxy = matches!(ev.auth_challenge.source, Some(AuthChallengeSource::Proxy));
    let response = if let Some(credentials) = credentials.filter(|_| from_proxy) {
        let mut r = AuthChallengeResponse::new(AuthChallengeResponseResponse::ProvideCredentials);
        r.username = Some(credentials.username().to_owned());
        r.password = Some(credentials.password().to_owned());
        r
    } else {
        AuthChallengeResponse::new(AuthChallengeResponseResponse::CancelAuth)
    };
    let browser = Arc::clone(browser);
    let id = ev.request_id.clone();
    tokio::spawn(async move {
        let b = browser.read().await;
        if let Err(e) = b.execute(ContinueWithAuthParams::new(id, response)).await {
            tracing::debug!("a credential challenge was not answered: {e}");
        }
    });
}
