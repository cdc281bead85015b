//! One page in one tab: a fresh browser context whose proxy is a fresh
//! egress proxy (so the page's bytes, time and refusals are its own), the
//! navigation, the wait until it settles, and the DOM.

use std::time::Duration;

use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::inspector::{self, EventTargetCrashed};
use chromiumoxide::cdp::browser_protocol::network::{
    EventLoadingFailed, EventLoadingFinished, EventRequestWillBeSent, EventResponseReceived,
    ResourceType,
};
use chromiumoxide::cdp::browser_protocol::page::{
    AddScriptToEvaluateOnNewDocumentParams, EventFrameNavigated, NavigateParams, StopLoadingParams,
};
use chromiumoxide::cdp::browser_protocol::target::{
    CreateBrowserContextParams, CreateTargetParams,
};
use farsight_net::{BrowserProxy, ErrorKind, Fetcher, ProxyLimits, REFUSED_HEADER};
use futures_util::StreamExt as _;
use tokio::time::Instant;

use crate::PageBounds;
use crate::error::{RenderError, cdp};
use crate::flags::PROXY_BYPASS;
use crate::instance::Instance;
use crate::settle::{MUTATION_COUNTER, POLL, READ_STATE, Settle};

/// Main-frame navigations one page may make (its own load, a script
/// redirect or two); past this it loops on `location` and is stopped.
const MAX_NAVIGATIONS: u32 = 8;

/// Time past the page's bound for taking its DOM and closing the tab.
const GRACE: Duration = Duration::from_secs(5);

/// Renders `url` within `budget` in a tab of `instance`.
pub(crate) async fn render(
    instance: &Instance,
    fetcher: &Fetcher,
    url: &str,
    budget: Duration,
    limits: PageBounds,
) -> Result<crate::Rendered, RenderError> {
    // The URL as written meets the guard before the browser sees it.
    if let Err(e) = fetcher.check_url(url) {
        return Err(match e.kind() {
            ErrorKind::BlockedUrl => RenderError::blocked(e.message()),
            _ => RenderError::network(e.message()),
        });
    }
    let deadline = Instant::now() + budget;
    let proxy = fetcher
        .browser_proxy(
            ProxyLimits {
                max_bytes: limits.max_bytes,
                wall_time: budget + GRACE,
                ..ProxyLimits::default()
            },
            instance.credentials.clone(),
        )
        .await
        .map_err(|e| RenderError::browser(format!("the page's egress did not start: {e}")))?;
    let (context, page) = {
        let browser = instance.browser.read().await;
        let context = browser
            .create_browser_context(
                CreateBrowserContextParams::builder()
                    .dispose_on_detach(true)
                    .proxy_server(proxy.server())
                    .proxy_bypass_list(PROXY_BYPASS)
                    .build(),
            )
            .await
            .map_err(cdp("creating a browser context"))?;
        let mut target = CreateTargetParams::new("about:blank");
        target.browser_context_id = Some(context.clone());
        match browser.new_page(target).await {
            Ok(page) => (context, page),
            Err(e) => {
                let _ = browser.dispose_browser_context(context).await;
                return Err(cdp("opening a tab")(e));
            }
        }
    };
    // A browser that dies mid-page answers nothing more: stop waiting then.
    let result = tokio::select! {
        r = drive(&page, &proxy, instance, url, deadline, limits) => r,
        () = died(instance) => Err(RenderError::browser("the browser exited while rendering the page")),
    };
    if instance.alive() {
        let _ = tokio::time::timeout(GRACE, page.close()).await;
        let browser = instance.browser.read().await;
        let _ = tokio::time::timeout(GRACE, browser.dispose_browser_context(context)).await;
    }
    let stats = proxy.stats();
    tracing::debug!(
        bytes = stats.bytes,
        connections = stats.connections,
        refused = stats.refused,
        over_budget = stats.over_budget,
        "page rendered"
    );
    result
}

/// Resolves when the browser is gone (checked a few times a second).
async fn died(instance: &Instance) {
    while instance.alive() {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// What the main document's response said.
struct MainResponse {
    status: i64,
    refused: bool,
}

async fn drive(
    page: &Page,
    proxy: &BrowserProxy,
    instance: &Instance,
    url: &str,
    deadline: Instant,
    limits: PageBounds,
) -> Result<crate::Rendered, RenderError> {
    page.execute(AddScriptToEvaluateOnNewDocumentParams::new(
        MUTATION_COUNTER,
    ))
    .await
    .map_err(cdp("preparing the tab"))?;
    let listen = cdp("listening to the tab");
    let mut started = page
        .event_listener::<EventRequestWillBeSent>()
        .await
        .map_err(&listen)?;
    let mut finished = page
        .event_listener::<EventLoadingFinished>()
        .await
        .map_err(&listen)?;
    let mut failed = page
        .event_listener::<EventLoadingFailed>()
        .await
        .map_err(&listen)?;
    let mut responses = page
        .event_listener::<EventResponseReceived>()
        .await
        .map_err(&listen)?;
    let mut navigated = page
        .event_listener::<EventFrameNavigated>()
        .await
        .map_err(&listen)?;
    let mut crashed = page
        .event_listener::<EventTargetCrashed>()
        .await
        .map_err(listen)?;
    // Crashes (a page past its heap cap) are reported by this domain only.
    page.execute(inspector::EnableParams::default())
        .await
        .map_err(cdp("preparing the tab"))?;

    let navigation =
        match tokio::time::timeout_at(deadline, page.execute(NavigateParams::new(url))).await {
            Ok(Ok(nav)) => nav.result,
            Ok(Err(e)) => return Err(cdp("loading the page")(e)),
            Err(_) => {
                return Err(RenderError::timeout(
                    "the page's main document did not arrive in time",
                ));
            }
        };
    if let Some(text) = navigation.error_text {
        return Err(failed_navigation(&text, proxy, url));
    }
    let main_frame = navigation.frame_id;
    let mut settle = Settle::new(Instant::now());
    let mut navigations = 0u32;
    let mut main: Option<MainResponse> = None;
    let mut tick = tokio::time::interval(POLL);
    let mut ticks = 0u64;
    let settled = loop {
        tokio::select! {
            () = tokio::time::sleep_until(deadline) => {
                tracing::debug!("the page did not settle in time: {}", settle.describe(Instant::now()));
                break false;
            }
            Some(ev) = started.next() => {
                if holds_up_the_page(&ev) {
                    // Host and type only: the log never carries a query.
                    let what = format!(
                        "{:?} {}",
                        ev.r#type,
                        url::Url::parse(&ev.request.url)
                            .map(|u| format!("{}{}", u.host_str().unwrap_or(""), u.path()))
                            .unwrap_or_default()
                    );
                    settle.request_started(ev.request_id.inner(), &what, Instant::now());
                }
            }
            Some(ev) = finished.next() => settle.request_ended(ev.request_id.inner(), Instant::now()),
            Some(ev) = failed.next() => settle.request_ended(ev.request_id.inner(), Instant::now()),
            Some(ev) = responses.next() => {
                settle.response_arrived(ev.request_id.inner(), Instant::now());
                if ev.r#type == ResourceType::Document && ev.frame_id.as_ref() == Some(&main_frame) {
                    let refused = ev.response.headers.inner().as_object().is_some_and(|h| {
                        h.keys().any(|k| k.eq_ignore_ascii_case(REFUSED_HEADER))
                    });
                    main = Some(MainResponse { status: ev.response.status, refused });
                }
            }
            Some(ev) = navigated.next() => {
                if ev.frame.parent_id.is_none() {
                    navigations += 1;
                    settle.navigated(Instant::now());
                    if navigations > MAX_NAVIGATIONS {
                        let _ = page.execute(StopLoadingParams::default()).await;
                        return Err(RenderError::network(format!(
                            "the page kept changing its location (more than {MAX_NAVIGATIONS} navigations) and was stopped"
                        )));
                    }
                }
            }
            Some(ev) = crashed.next() => {
                let _ = ev;
                return Err(RenderError::browser(
                    "the page crashed (it may have used more memory than a page may); it was stopped",
                ));
            }
            _ = tick.tick() => {
                ticks += 1;
                let now = Instant::now();
                if let Some((mutations, ready)) = read_dom_state(page, deadline).await {
                    settle.dom_read(mutations, &ready, now);
                }
                // /proc is read every half second, not every tick.
                if ticks.is_multiple_of(5)
                    && let Some(rss) = instance.memory()
                    && rss > limits.max_browser_memory
                {
                    return Err(RenderError::browser(format!(
                        "the browser used {} MB while rendering the page (limit {} MB); the page was stopped",
                        rss / (1024 * 1024),
                        limits.max_browser_memory / (1024 * 1024)
                    )));
                }
                if settle.settled(now) {
                    break true;
                }
            }
        }
    };
    if let Some(m) = &main {
        if m.refused {
            return Err(blocked_by_egress(proxy, url));
        }
        if m.status >= 400 {
            return Err(RenderError::network(format!(
                "the server answered the page with HTTP status {}",
                m.status
            )));
        }
    }
    let html = match tokio::time::timeout(GRACE, page.content()).await {
        Ok(Ok(html)) => html,
        Ok(Err(e)) => return Err(cdp("reading the page's DOM")(e)),
        Err(_) => {
            return Err(RenderError::timeout(
                "the page kept the browser busy past its time bound (its DOM could not be read); it was stopped",
            ));
        }
    };
    let final_url = match tokio::time::timeout(GRACE, page.url()).await {
        Ok(Ok(Some(u))) => u,
        _ => url.to_owned(),
    };
    Ok(crate::Rendered {
        html,
        url: final_url,
        settled,
    })
}

/// Whether a request counts for settling. Not: documents (the page's own
/// is covered by `document.readyState`, and Chromium does not always report
/// its response to the tab; a cross-site frame's runs in a process of its
/// own whose events never come here), images, media and fonts (failed by
/// the interception before they are sent; their end is not always reported
/// either), and what is not http(s) (`data:`, `blob:`).
fn holds_up_the_page(ev: &EventRequestWillBeSent) -> bool {
    let http = ev.request.url.starts_with("http://") || ev.request.url.starts_with("https://");
    let skipped_type = matches!(
        ev.r#type,
        Some(
            ResourceType::Document | ResourceType::Image | ResourceType::Media | ResourceType::Font
        )
    );
    http && !skipped_type
}

/// The DOM mutation count and ready state, or `None` while the page is
/// between documents.
async fn read_dom_state(page: &Page, deadline: Instant) -> Option<(u64, String)> {
    let bound = deadline.min(Instant::now() + Duration::from_secs(1));
    let result = tokio::time::timeout_at(bound, page.evaluate(READ_STATE))
        .await
        .ok()?
        .ok()?;
    let text: String = result.into_value().ok()?;
    let (mutations, ready): (u64, String) = serde_json::from_str(&text).ok()?;
    Some((mutations, ready))
}

/// A navigation that failed: refused by the egress (a tunnel refused shows
/// as a tunnel error in the browser), or the network.
fn failed_navigation(text: &str, proxy: &BrowserProxy, url: &str) -> RenderError {
    if !proxy.refusals().is_empty() {
        return blocked_by_egress(proxy, url);
    }
    RenderError::network(format!("the page could not be loaded: {text}"))
}

/// `Blocked`, with the guard's reason for the page's host when there is one.
fn blocked_by_egress(proxy: &BrowserProxy, url: &str) -> RenderError {
    let host = url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned));
    let refusals = proxy.refusals();
    let reason = refusals
        .iter()
        .find(|r| Some(&r.host) == host.as_ref())
        .or_else(|| refusals.first())
        .map_or_else(
            || "a request the page needed".to_owned(),
            |r| r.message.clone(),
        );
    RenderError::blocked(format!(
        "the page was refused by farsight's egress: {reason}"
    ))
}
