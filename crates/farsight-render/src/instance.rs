//! One running browser: the process, its DevTools connection, the task that
//! answers its requests, its browser-wide egress proxy and its throw-away
//! profile directory. Dropping it kills the process (chromiumoxide spawns
//! it with kill-on-drop) and removes the profile.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chromiumoxide::Browser;
use farsight_net::{BrowserProxy, Fetcher, ProxyCredentials, ProxyLimits};
use futures_util::StreamExt as _;
use tokio::sync::RwLock;
use tokio::task::JoinHandle;

use crate::error::RenderError;
use crate::{flags, interception, memory};

/// How long the browser may take to start and print its DevTools address.
const LAUNCH_TIMEOUT: Duration = Duration::from_secs(20);

pub(crate) struct Instance {
    pub(crate) browser: Arc<RwLock<Browser>>,
    /// The credentials every egress proxy of this browser asks for.
    pub(crate) credentials: ProxyCredentials,
    pid: Option<u32>,
    connected: Arc<AtomicBool>,
    tasks: Vec<JoinHandle<()>>,
    // Held for the browser's lifetime: the proxy of the default context,
    // and the profile directory (removed when dropped).
    _proxy: BrowserProxy,
    _profile: tempfile::TempDir,
}

impl Instance {
    pub(crate) async fn launch(executable: &Path, fetcher: &Fetcher) -> Result<Self, RenderError> {
        let credentials = ProxyCredentials::random()
            .map_err(|e| RenderError::browser(format!("no proxy credentials: {e}")))?;
        // The default context renders nothing; its proxy is there so that
        // whatever the browser might fetch outside a page's context meets
        // the guard too. Its bounds are a day's worth of nothing.
        let proxy = fetcher
            .browser_proxy(
                ProxyLimits {
                    max_bytes: 1024 * 1024,
                    wall_time: Duration::from_secs(365 * 24 * 60 * 60),
                    max_connections: 4,
                },
                credentials.clone(),
            )
            .await
            .map_err(|e| {
                RenderError::browser(format!("the browser's egress did not start: {e}"))
            })?;
        let profile = tempfile::Builder::new()
            .prefix("farsight-chromium-")
            .tempdir()
            .map_err(|e| RenderError::browser(format!("no profile directory: {e}")))?;
        let config = flags::config(executable, profile.path(), &proxy.server())
            .map_err(RenderError::unavailable)?;
        let launched = tokio::time::timeout(LAUNCH_TIMEOUT, Browser::launch(config)).await;
        let (mut browser, mut handler) = match launched {
            Ok(Ok(pair)) => pair,
            Ok(Err(e)) => {
                return Err(RenderError::unavailable(format!(
                    "the browser {} did not start: {e}",
                    executable.display()
                )));
            }
            Err(_) => {
                return Err(RenderError::unavailable(format!(
                    "the browser {} did not start within {} s",
                    executable.display(),
                    LAUNCH_TIMEOUT.as_secs()
                )));
            }
        };
        let pid = browser.get_mut_child().and_then(|c| c.as_mut_inner().id());
        let connected = Arc::new(AtomicBool::new(true));
        let flag = Arc::clone(&connected);
        // chromiumoxide's protocol loop: it must be polled for anything to
        // happen; when it ends, the browser is gone.
        let handler_task = tokio::spawn(async move {
            while let Some(event) = handler.next().await {
                if let Err(e) = event {
                    tracing::debug!("browser protocol: {e}");
                }
            }
            flag.store(false, Ordering::SeqCst);
        });
        let browser = Arc::new(RwLock::new(browser));
        let answering = match interception::start(Arc::clone(&browser), credentials.clone()).await {
            Ok(task) => task,
            Err(e) => {
                handler_task.abort();
                return Err(e);
            }
        };
        tracing::debug!(pid, "browser started");
        Ok(Self {
            browser,
            credentials,
            pid,
            connected,
            tasks: vec![handler_task, answering],
            _proxy: proxy,
            _profile: profile,
        })
    }

    /// The browser's process id.
    pub(crate) fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Whether the process runs and the DevTools connection is up.
    pub(crate) fn alive(&self) -> bool {
        self.connected.load(Ordering::SeqCst) && self.pid.is_none_or(memory::is_running)
    }

    /// Resident memory of the browser and all its processes.
    pub(crate) fn memory(&self) -> Option<u64> {
        self.pid.and_then(memory::tree_rss_bytes)
    }

    /// Closes the browser politely, then kills it and reaps the process
    /// (no zombie left behind).
    pub(crate) async fn shutdown(&self) {
        let mut browser = self.browser.write().await;
        if self.alive() {
            let _ = tokio::time::timeout(Duration::from_secs(2), browser.close()).await;
        }
        if let Ok(Ok(Some(_))) = tokio::time::timeout(Duration::from_secs(2), browser.wait()).await
        {
            return;
        }
        let _ = browser.kill().await;
        let _ = tokio::time::timeout(Duration::from_secs(2), browser.wait()).await;
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}
