//! The browser's command line: headless, no profile, nothing it does on its
//! own, and every path around the egress proxy closed.

use std::path::Path;

use chromiumoxide::BrowserConfig;

/// The V8 old-space cap of one page, in MB: a page that allocates without
/// end dies at this bound (its tab crashes) instead of taking the machine.
pub(crate) const JS_HEAP_MB: u32 = 512;

/// Loopback too goes through the proxy: Chromium bypasses proxies for
/// loopback unless this is in the bypass list (it *removes* the implicit
/// rule), and the guard decides about loopback like any other address.
pub(crate) const PROXY_BYPASS: &str = "<-loopback>";

/// Switches without a value. Each closes a way the browser would reach out
/// by itself or around the proxy.
const SWITCHES: &[&str] = &[
    // Updates, sync, field trials, safe browsing lists, metrics uploads...
    "disable-background-networking",
    "disable-component-update",
    "disable-sync",
    "disable-default-apps",
    "disable-domain-reliability",
    "disable-client-side-phishing-detection",
    "disable-breakpad",
    "no-first-run",
    "no-default-browser-check",
    "metrics-recording-only",
    // QUIC is UDP: a proxy only carries TCP.
    "disable-quic",
    // No DNS prefetching or preconnecting (the resolver rules refuse it
    // anyway).
    "dns-prefetch-disable",
    // Popups and new windows never open.
    "block-new-web-contents",
    // Containers have a small /dev/shm; Chromium then crashes on big pages.
    "disable-dev-shm-usage",
    "disable-gpu",
    // Several tabs render at once; none is slowed for being in the background.
    "disable-background-timer-throttling",
    "disable-renderer-backgrounding",
    "disable-backgrounding-occluded-windows",
    "mute-audio",
    "hide-scrollbars",
];

/// Features switched off: LAN discovery (SSDP/mDNS, UDP around the proxy),
/// DNS over HTTPS (its own resolver), prediction and HTTPS upgrades (extra
/// requests the page did not make).
const DISABLED_FEATURES: &[&str] = &[
    "MediaRouter",
    "DialMediaRouteProvider",
    "CastMediaRouteProvider",
    "DnsOverHttps",
    "NetworkPrediction",
    "OptimizationHints",
    "Translate",
    "TranslateUI",
    "AutofillServerCommunication",
    "InterestFeedContentSuggestions",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
];

/// The launch configuration: `proxy` is the browser-wide egress (each page
/// gets its own proxy through its browser context, see `tab.rs`).
pub(crate) fn config(
    executable: &Path,
    profile: &Path,
    proxy: &str,
) -> Result<BrowserConfig, String> {
    let mut builder = BrowserConfig::builder()
        .chrome_executable(executable)
        .disable_default_args()
        .new_headless_mode()
        .user_data_dir(profile)
        // A page with a bad certificate is an error, never read.
        .respect_https_errors()
        .arg(("proxy-server", proxy))
        .arg(("proxy-bypass-list", PROXY_BYPASS))
        // The browser resolves no name itself: everything goes to the proxy
        // by name, and the proxy resolves and checks it.
        .arg(("host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"))
        // WebRTC only over the proxy (which carries no UDP): no STUN, no
        // local addresses leaked.
        .arg(("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"))
        .arg(("webrtc-ip-handling-policy", "disable_non_proxied_udp"))
        .arg((
            "js-flags",
            format!("--max-old-space-size={JS_HEAP_MB}").as_str(),
        ))
        .arg(("disable-features", DISABLED_FEATURES.join(",").as_str()))
        .arg(("password-store", "basic"))
        .arg(("lang", "en-US"))
        .args(SWITCHES.iter().copied());
    // The sandbox needs user namespaces that root in a container lacks;
    // as any other user it stays on.
    if running_as_root() {
        builder = builder.no_sandbox();
    }
    builder.build()
}

/// Whether this process runs as root (effective uid 0).
pub(crate) fn running_as_root() -> bool {
    rustix::process::geteuid().is_root()
}
