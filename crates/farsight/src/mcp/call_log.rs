//! One record per tool call: the metrics of its outcome and latency, and one
//! log line (target `farsight::call`) with the tool, the outcome, the
//! duration and the providers. Never the arguments: no query, URL, key or
//! token reaches the log.

use std::sync::Arc;
use std::time::Instant;

use farsight_search::{Attempt, ErrorKind, SearchError, SearchResponse};

use super::metrics::{InFlight, Metrics};
use crate::logging::CALL_TARGET;
use crate::service::{FetchManyResponse, FetchResponse, FetchStatus};

/// A call being served: counted in flight until it is finished or dropped.
pub struct CallRecord {
    tool: &'static str,
    started: Instant,
    metrics: Arc<Metrics>,
    _in_flight: InFlight,
}

/// How a call ended, as the metrics and the log name it.
pub struct Outcome {
    /// `success`, `partial`, or the error kind (`rateLimited`...).
    pub label: String,
    /// The providers that were asked (search) or how a page was read
    /// (`http`, `browser`).
    pub providers: Vec<String>,
}

impl CallRecord {
    /// A call of `tool` begins now.
    pub fn start(tool: &'static str, metrics: &Arc<Metrics>) -> Self {
        Self {
            tool,
            started: Instant::now(),
            metrics: metrics.clone(),
            _in_flight: metrics.call_started(),
        }
    }

    /// Records the call's end: metrics, then the log line.
    pub fn finish(self, outcome: &Outcome) {
        let took = self.started.elapsed();
        self.metrics.call_answered(self.tool, &outcome.label, took);
        let duration_ms = u64::try_from(took.as_millis()).unwrap_or(u64::MAX);
        tracing::info!(
            target: CALL_TARGET,
            tool = self.tool,
            outcome = outcome.label.as_str(),
            duration_ms,
            providers = outcome.providers.join(",").as_str(),
            "call"
        );
    }
}

/// The wire name of an error kind (`rateLimited`), as answers spell it.
pub fn kind_label(kind: ErrorKind) -> String {
    kind.as_str().to_owned()
}

fn status_label(status: FetchStatus) -> String {
    match status {
        FetchStatus::Success => "success",
        FetchStatus::Partial => "partial",
        FetchStatus::Error => "error",
    }
    .to_owned()
}

/// A refusal before any work (bad arguments, overload, a tenant's budget).
pub fn refused(kind: ErrorKind) -> Outcome {
    Outcome {
        label: kind_label(kind),
        providers: Vec::new(),
    }
}

/// A search's answer; each provider attempt is counted in the metrics.
pub fn searched(answer: &Result<SearchResponse, SearchError>, metrics: &Metrics) -> Outcome {
    let (label, answered, attempts): (String, Vec<String>, &[Attempt]) = match answer {
        Ok(a) => (
            "success".to_owned(),
            a.search_engine
                .split('+')
                .filter(|p| !p.is_empty())
                .map(str::to_owned)
                .collect(),
            &a.attempts,
        ),
        Err(e) => (kind_label(e.kind()), Vec::new(), e.attempts()),
    };
    let mut providers = Vec::new();
    for attempt in attempts {
        let kind = kind_label(attempt.error_kind);
        metrics.provider_attempt(&attempt.provider, &kind);
        if attempt.error_kind == ErrorKind::RateLimited {
            metrics.rate_limited("provider");
        }
        providers.push(attempt.provider.clone());
    }
    for provider in answered {
        metrics.provider_attempt(&provider, "ok");
        providers.push(provider);
    }
    providers.dedup();
    Outcome { label, providers }
}

/// One page's answer.
pub fn fetched(answer: &FetchResponse) -> Outcome {
    let label = match answer.error_kind {
        Some(kind) if answer.status == FetchStatus::Error => kind_label(kind),
        _ => status_label(answer.status),
    };
    Outcome {
        label,
        providers: vec![how_read(answer).to_owned()],
    }
}

/// The answer of a call with `urls`.
pub fn fetched_many(answer: &FetchManyResponse) -> Outcome {
    let mut providers: Vec<String> = answer
        .results
        .iter()
        .map(|r| how_read(r).to_owned())
        .collect();
    providers.sort();
    providers.dedup();
    Outcome {
        label: status_label(answer.status),
        providers,
    }
}

fn how_read(answer: &FetchResponse) -> &'static str {
    if answer.rendered == Some(true) {
        "browser"
    } else {
        "http"
    }
}
