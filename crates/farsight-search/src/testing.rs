//! A provider for testing agents and the code around them, without the network.
//!
//! [`MockProvider`] answers each query with what you told it to: results, or a
//! simulated error of any kind (with `retryAfterMs` for rate limits). It records
//! every query it received, so tests can assert what the engine sent: the count
//! after clamping, the filters, safe search.
//!
//! ```
//! use std::sync::Arc;
//! use farsight_search::testing::{MockProvider, raw_result};
//! use farsight_search::{ErrorKind, SearchRequest, SearchService};
//!
//! # tokio_test_block_on(async {
//! let mock = Arc::new(
//!     MockProvider::new("mock")
//!         .respond("rust async", vec![raw_result("Async Rust", "https://rust-lang.github.io/async-book/", "The async book")])
//!         .fail_with("broken", ErrorKind::ServiceUnavailable),
//! );
//! let service = SearchService::builder().provider(mock.clone()).build().unwrap();
//! let answer = service.search(SearchRequest::new("rust async")).await.unwrap();
//! assert_eq!(answer.results[0].domain, "rust-lang.github.io");
//! assert_eq!(mock.requests()[0].count, 5);
//! # });
//! # fn tokio_test_block_on<F: std::future::Future>(f: F) -> F::Output {
//! #     tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(f)
//! # }
//! ```
//!
//! Several replies for one query are given in turn, and the last one repeats:
//! `.fail_with(q, RateLimited).respond(q, results)` fails once, then answers,
//! which is how a retry is tested.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;

use crate::{
    ErrorKind, Provider, ProviderAnswer, ProviderQuery, RawResult, RetryPolicy, SearchError,
};

/// One reply of a [`MockProvider`].
#[derive(Debug, Clone)]
pub enum MockReply {
    /// Answer with these results.
    Answer(ProviderAnswer),
    /// Fail with this error.
    Error(SearchError),
}

/// A scripted provider; see the [module docs](self).
#[derive(Debug)]
pub struct MockProvider {
    name: &'static str,
    max_results: u32,
    latency: Duration,
    retry_policy: Option<RetryPolicy>,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    replies: HashMap<String, VecDeque<MockReply>>,
    fallback: Option<MockReply>,
    requests: Vec<ProviderQuery>,
}

impl MockProvider {
    /// A provider called `name` that answers every query with no results,
    /// returns at most 20 results per call and answers at once.
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            max_results: 20,
            latency: Duration::ZERO,
            retry_policy: None,
            state: Mutex::new(State::default()),
        }
    }

    /// The most results per call, which the engine clamps `maxResults` to.
    #[must_use]
    pub fn with_max_results(mut self, max: u32) -> Self {
        self.max_results = max;
        self
    }

    /// How long each call takes (with tokio's clock, so paused time skips it).
    #[must_use]
    pub fn with_latency(mut self, latency: Duration) -> Self {
        self.latency = latency;
        self
    }

    /// The retry rules the engine applies to this provider (default: the design's).
    #[must_use]
    pub fn with_retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.retry_policy = Some(policy);
        self
    }

    /// Adds a reply for `query` (compared after trimming and collapsing spaces).
    #[must_use]
    pub fn reply(self, query: &str, reply: MockReply) -> Self {
        self.lock()
            .replies
            .entry(key(query))
            .or_default()
            .push_back(reply);
        self
    }

    /// Adds an answer with `results` for `query`.
    #[must_use]
    pub fn respond(self, query: &str, results: Vec<RawResult>) -> Self {
        self.reply(
            query,
            MockReply::Answer(ProviderAnswer {
                images: Vec::new(),
                results,
                ..ProviderAnswer::default()
            }),
        )
    }

    /// Adds a whole answer (total, unapplied filters) for `query`.
    #[must_use]
    pub fn respond_answer(self, query: &str, answer: ProviderAnswer) -> Self {
        self.reply(query, MockReply::Answer(answer))
    }

    /// Adds a failure for `query`.
    #[must_use]
    pub fn fail(self, query: &str, error: SearchError) -> Self {
        self.reply(query, MockReply::Error(error))
    }

    /// Adds a failure of `kind` for `query`, as [`simulated_error`] makes it.
    #[must_use]
    pub fn fail_with(self, query: &str, kind: ErrorKind) -> Self {
        let error = simulated_error(self.name, kind, None);
        self.fail(query, error)
    }

    /// The reply for queries that have none of their own (default: no results).
    #[must_use]
    pub fn otherwise(self, reply: MockReply) -> Self {
        self.lock().fallback = Some(reply);
        self
    }

    /// Every query received, in order.
    pub fn requests(&self) -> Vec<ProviderQuery> {
        self.lock().requests.clone()
    }

    /// How many queries were received.
    pub fn request_count(&self) -> usize {
        self.lock().requests.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A test that panicked while holding the lock leaves usable data.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn next_reply(&self, query: &ProviderQuery) -> MockReply {
        let mut state = self.lock();
        state.requests.push(query.clone());
        let fallback = state.fallback.clone();
        match state.replies.get_mut(&key(&query.query)) {
            Some(queue) if queue.len() > 1 => queue.pop_front().unwrap_or_else(empty),
            Some(queue) => queue.front().cloned().unwrap_or_else(empty),
            None => fallback.unwrap_or_else(empty),
        }
    }
}

fn empty() -> MockReply {
    MockReply::Answer(ProviderAnswer::default())
}

fn key(query: &str) -> String {
    query.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[async_trait::async_trait]
impl Provider for MockProvider {
    fn name(&self) -> &'static str {
        self.name
    }

    fn max_results(&self) -> u32 {
        self.max_results
    }

    async fn search(&self, query: &ProviderQuery) -> Result<ProviderAnswer, SearchError> {
        let reply = self.next_reply(query);
        if !self.latency.is_zero() {
            tokio::time::sleep(self.latency).await;
        }
        match reply {
            MockReply::Answer(answer) => Ok(answer),
            MockReply::Error(error) => Err(error),
        }
    }

    fn retry_policy(&self) -> RetryPolicy {
        self.retry_policy.unwrap_or_default()
    }
}

/// A result with a title, URL and snippet (no date, score or content).
pub fn raw_result(title: &str, url: &str, snippet: &str) -> RawResult {
    RawResult {
        title: title.to_owned(),
        url: url.to_owned(),
        snippet: snippet.to_owned(),
        ..RawResult::default()
    }
}

/// An error of `kind` as a real provider would report it, with the status a
/// provider would have sent, a suggestion, and `retry_after_ms` (1 s by
/// default for `rateLimited`).
pub fn simulated_error(
    provider: &'static str,
    kind: ErrorKind,
    retry_after_ms: Option<u64>,
) -> SearchError {
    let (status, message) = match kind {
        ErrorKind::AuthenticationFailed => (Some(401), "simulated: the API key was refused"),
        ErrorKind::RateLimited => (Some(429), "simulated: too many requests"),
        ErrorKind::QuotaExceeded => (Some(402), "simulated: the plan's quota is used up"),
        ErrorKind::InvalidQuery => (Some(400), "simulated: the query was rejected"),
        ErrorKind::ServiceUnavailable => (Some(503), "simulated: the service is unavailable"),
        ErrorKind::Timeout => (None, "simulated: no answer in time"),
        ErrorKind::NotConfigured => (None, "simulated: not configured"),
        _ => (None, "simulated: an unexpected failure"),
    };
    let retry_after_ms = match kind {
        ErrorKind::RateLimited => retry_after_ms.or(Some(1000)),
        _ => retry_after_ms,
    };
    let mut error = SearchError::new(kind, message)
        .with_provider(provider)
        .with_retry_after_ms(retry_after_ms)
        .with_suggestion("This error was simulated by MockProvider.");
    if let Some(status) = status {
        error = error.with_status(status);
    }
    error
}
