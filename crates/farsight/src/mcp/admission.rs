//! Whether a tool call is served now: the caller's tenant budget
//! (`[server].calls_per_minute`), then the server's bound on calls in flight
//! (`[server].max_in_flight`). A refused call is answered at once with a
//! retryable error and how long to wait, never queued without limit.

use rmcp::model::Extensions;
use tokio::sync::OwnedSemaphorePermit;

use super::FarsightMcp;
use super::auth::Tenant;
use farsight_search::ErrorKind;

/// How long a call refused for overload is told to wait: calls take tens of
/// milliseconds to seconds, so a second frees a slot most of the time.
const OVERLOADED_RETRY_MS: u64 = 1_000;

const OVERLOADED_MESSAGE: &str = "farsight is serving as many calls as it is allowed to at once";
const OVERLOADED_SUGGESTION: &str =
    "Retry in a moment; the server's [server].max_in_flight bounds concurrent calls";
const TENANT_SUGGESTION: &str = "Wait retryAfterMs before calling again; the server's \
     [server].calls_per_minute bounds each client's calls";

/// Why a call was not served; each tool answers it in its own error shape.
pub(super) struct Refusal {
    pub kind: ErrorKind,
    pub message: String,
    pub suggestion: &'static str,
    pub retry_after_ms: u64,
}

impl FarsightMcp {
    /// A permit for one call (`None` when calls in flight are not bounded),
    /// or the refusal to answer with.
    pub(super) async fn admit(
        &self,
        extensions: &Extensions,
    ) -> Result<Option<OwnedSemaphorePermit>, Refusal> {
        if let Some(limits) = &self.tenants {
            let tenant = tenant_of(extensions);
            if let Err(wait) = limits.take(&tenant).await {
                self.metrics.rate_limited("tenant");
                return Err(Refusal {
                    kind: ErrorKind::RateLimited,
                    message: format!(
                        "this client has made as many calls as it may in a minute ({} a minute)",
                        limits.per_minute()
                    ),
                    suggestion: TENANT_SUGGESTION,
                    retry_after_ms: u64::try_from(wait.as_millis()).unwrap_or(u64::MAX).max(1),
                });
            }
        }
        match &self.calls {
            None => Ok(None),
            Some(calls) => calls
                .clone()
                .try_acquire_owned()
                .map(Some)
                .map_err(|_| Refusal {
                    kind: ErrorKind::Overloaded,
                    message: OVERLOADED_MESSAGE.to_owned(),
                    suggestion: OVERLOADED_SUGGESTION,
                    retry_after_ms: OVERLOADED_RETRY_MS,
                }),
        }
    }
}

/// The tenant the HTTP layer put on the request; `local` over stdio, where
/// there is one client.
fn tenant_of(extensions: &Extensions) -> String {
    extensions
        .get::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Tenant>())
        .map_or_else(|| "local".to_owned(), |t| t.0.to_string())
}
