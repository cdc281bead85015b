//! The browser's lifecycle: started on the first page, one instance shared
//! by all, at most `max_tabs` pages at once, restarted when it died, shut
//! down after `idle_timeout` without pages.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use farsight_net::Fetcher;
use tokio::sync::{Mutex, Semaphore};
use tokio::time::Instant;

use crate::error::RenderError;
use crate::instance::Instance;
use crate::tab;
use crate::{PageBounds, RenderSettings, Rendered, discover};

pub(crate) struct Pool {
    settings: RenderSettings,
    bounds: PageBounds,
    fetcher: Fetcher,
    tabs: Semaphore,
    current: Mutex<Option<Arc<Instance>>>,
    /// Pages being rendered now, and when the last one ended: the idle clock.
    active: AtomicUsize,
    last_used: std::sync::Mutex<Instant>,
    /// Browsers started so far (a restart makes it 2).
    launches: AtomicUsize,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("active", &self.active.load(Ordering::Relaxed))
            .field("launches", &self.launches.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

/// Counts a page as active while it lives; its end restarts the idle clock.
struct Active<'a>(&'a Pool);

impl Drop for Active<'_> {
    fn drop(&mut self) {
        if let Ok(mut t) = self.0.last_used.lock() {
            *t = Instant::now();
        }
        self.0.active.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Pool {
    pub(crate) fn new(settings: RenderSettings, bounds: PageBounds, fetcher: Fetcher) -> Self {
        Self {
            bounds,
            tabs: Semaphore::new(settings.max_tabs.max(1)),
            settings,
            fetcher,
            current: Mutex::new(None),
            active: AtomicUsize::new(0),
            last_used: std::sync::Mutex::new(Instant::now()),
            launches: AtomicUsize::new(0),
        }
    }

    pub(crate) fn browser(&self) -> Result<PathBuf, RenderError> {
        discover::find_browser(self.settings.browser_path.as_deref())
    }

    pub(crate) async fn render(
        self: &Arc<Self>,
        url: &str,
        timeout: Duration,
    ) -> Result<Rendered, RenderError> {
        let budget = timeout.min(self.settings.timeout);
        let start = Instant::now();
        // Waiting for a tab counts against the page's time.
        let Ok(Ok(_tab)) = tokio::time::timeout(budget, self.tabs.acquire()).await else {
            return Err(RenderError::timeout(
                "every browser tab stayed busy for the whole time the page had",
            ));
        };
        self.active.fetch_add(1, Ordering::SeqCst);
        let _active = Active(self);
        let instance = self.instance().await?;
        let left = budget.saturating_sub(start.elapsed());
        let result = tab::render(&instance, &self.fetcher, url, left, self.bounds).await;
        if result.is_err() && !instance.alive() {
            tracing::debug!("the browser died during a page; the next page starts a new one");
        }
        result
    }

    /// The running browser, started (or restarted) when needed.
    async fn instance(self: &Arc<Self>) -> Result<Arc<Instance>, RenderError> {
        let mut current = self.current.lock().await;
        if let Some(instance) = current.as_ref() {
            if instance.alive() {
                return Ok(Arc::clone(instance));
            }
            tracing::debug!("the browser is gone; starting a new one");
            if let Some(dead) = current.take() {
                dead.shutdown().await;
            }
        }
        let executable = self.browser()?;
        let instance = Arc::new(Instance::launch(&executable, &self.fetcher).await?);
        self.launches.fetch_add(1, Ordering::SeqCst);
        *current = Some(Arc::clone(&instance));
        tokio::spawn(idle_watch(Arc::downgrade(self), Arc::downgrade(&instance)));
        Ok(instance)
    }

    pub(crate) async fn shutdown(&self) {
        let taken = self.current.lock().await.take();
        if let Some(instance) = taken {
            instance.shutdown().await;
        }
    }

    pub(crate) async fn pid(&self) -> Option<u32> {
        self.current.lock().await.as_ref().and_then(|i| i.pid())
    }

    pub(crate) async fn memory(&self) -> Option<u64> {
        self.current.lock().await.as_ref().and_then(|i| i.memory())
    }

    pub(crate) fn launches(&self) -> usize {
        self.launches.load(Ordering::SeqCst)
    }
}

/// Shuts `instance` down once no page used it for the idle timeout; ends
/// when the pool or that instance is gone.
async fn idle_watch(pool: Weak<Pool>, instance: Weak<Instance>) {
    loop {
        let Some(p) = pool.upgrade() else { return };
        let idle = p.settings.idle_timeout;
        let check = (idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(30));
        drop(p);
        tokio::time::sleep(check).await;
        let Some(p) = pool.upgrade() else { return };
        let Some(watched) = instance.upgrade() else {
            return;
        };
        let since = p.last_used.lock().map(|t| t.elapsed()).unwrap_or_default();
        if p.active.load(Ordering::SeqCst) > 0 || since < idle {
            continue;
        }
        let mut current = p.current.lock().await;
        // Only the instance this watch was started for, and only if no page
        // started while the lock was awaited.
        if current.as_ref().is_some_and(|c| Arc::ptr_eq(c, &watched))
            && p.active.load(Ordering::SeqCst) == 0
        {
            let taken = current.take();
            drop(current);
            if let Some(instance) = taken {
                tracing::debug!(
                    "the browser was idle for {} s; shutting it down",
                    idle.as_secs()
                );
                instance.shutdown().await;
            }
        }
        return;
    }
}
