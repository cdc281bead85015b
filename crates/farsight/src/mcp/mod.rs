//! The MCP server: the tools as an agent sees them. Each tool is a few lines
//! that call one [`Service`] method; the logic lives in the service.

use std::sync::{Arc, LazyLock};

mod admission;
mod args;
mod auth;
mod call_log;
mod http;
mod http_conns;
mod http_serve;
pub mod metrics;
mod oauth;
mod oauth_jwks;
mod oauth_metadata;
mod open_files;
mod schema;
mod stdio;
pub mod tenant_limit;
mod tenant_shared;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    CallToolResult, ContentBlock, Extensions, Implementation, JsonObject, ServerCapabilities,
    ServerConfig,
};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use tokio::sync::Semaphore;

pub use auth::Tenant;
pub use http::serve_http;
pub use metrics::Metrics;
pub use schema::STANDARD_FORMATS;
pub use stdio::serve_stdio;
pub use tenant_limit::{LocalTenantBudget, TenantBudgetStore, TenantLimits};

use crate::context::{WEB_SEARCH_DESCRIPTION, render_search_text};
use crate::render;
use crate::service::{CallOptions, FetchManyResponse, FetchRequest, FetchResponse, Service};
use farsight_search::{ErrorKind, SearchError, SearchRequest, SearchResponse};

/// The input schemas, built once: `tools/list` shows them and the argument
/// reader takes each field's expectation from them.
static SEARCH_INPUT: LazyLock<Arc<JsonObject>> =
    LazyLock::new(schema::input_schema::<SearchRequest>);
static FETCH_INPUT: LazyLock<Arc<JsonObject>> = LazyLock::new(schema::input_schema::<FetchRequest>);

/// The order of `tools/list`: search first, as an agent uses them.
const TOOL_ORDER: [&str; 2] = ["web_search", "web_fetch"];

/// What the model reads about `web_fetch`: when to use it and how to read
/// on; the parameters themselves are documented in the input schema.
const WEB_FETCH_DESCRIPTION: &str = "\
Read public http(s) pages: main content as Markdown, title, metadata, links. \
Long pages come in windows: pass startIndex=nextStartIndex. \
For one answer in a long page, pass focus. \
On error read the suggestion.";

/// What the model reads about the server as a whole.
const INSTRUCTIONS: &str = "\
farsight gives you the web: web_search (when offered) finds pages, web_fetch reads pages whose URLs you know. \
Follow nextStartIndex only as far as you need; errors carry a suggestion.";

/// The MCP server: the service behind the tools, and their router.
#[derive(Clone)]
pub struct FarsightMcp {
    service: Service,
    tool_router: ToolRouter<Self>,
    /// Calls allowed at once (HTTP); `None` means no bound (stdio, one client).
    calls: Option<Arc<Semaphore>>,
    /// Calls a minute per tenant (HTTP, `[server].calls_per_minute`).
    tenants: Option<TenantLimits>,
    /// What `/metrics` shows; recorded over stdio too, where no one reads it.
    metrics: Arc<Metrics>,
}

#[tool_router]
impl FarsightMcp {
    /// A server offering the tools that the service's configuration enables.
    pub fn new(service: Service) -> Self {
        let mut tool_router = Self::tool_router();
        if !service.fetch_enabled() {
            tool_router.remove_route("web_fetch");
        }
        if !service.search_enabled() {
            tool_router.remove_route("web_search");
        }
        Self {
            service,
            tool_router,
            calls: None,
            tenants: None,
            metrics: Arc::new(Metrics::new()),
        }
    }

    /// Bounds each tenant's calls a minute (see [`TenantLimits`]).
    #[must_use]
    pub fn with_tenant_limits(mut self, limits: TenantLimits) -> Self {
        self.tenants = Some(limits);
        self
    }

    /// Records into `metrics` (shared with `/metrics` and the cache layers).
    #[must_use]
    pub fn with_metrics(mut self, metrics: Arc<Metrics>) -> Self {
        self.metrics = metrics;
        self
    }

    /// Bounds the tool calls served at once; beyond `max` a call is answered
    /// at once with a retryable error rather than queued without limit.
    #[must_use]
    pub fn with_call_limit(mut self, max: usize) -> Self {
        self.calls = Some(Arc::new(Semaphore::new(max.max(1))));
        self
    }

    /// The service behind the tools.
    pub fn service(&self) -> &Service {
        &self.service
    }

    #[tool(
        name = "web_search",
        description = WEB_SEARCH_DESCRIPTION,
        input_schema = SEARCH_INPUT.clone(),
        output_schema = schema::output_schema::<SearchResponse, SearchError>(),
        annotations(
            title = "Search the web",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn web_search(&self, arguments: JsonObject, extensions: Extensions) -> CallToolResult {
        let record = call_log::CallRecord::start("web_search", &self.metrics);
        let request: SearchRequest = match args::read_args(&arguments, &SEARCH_INPUT) {
            Ok(r) => r,
            Err(e) => {
                record.finish(&call_log::refused(ErrorKind::InvalidArgument));
                let refused = SearchError::new(ErrorKind::InvalidArgument, e.message)
                    .with_query(text_arg(&arguments, "query"))
                    .with_suggestion("Fix that argument and call web_search again.");
                return tool_result(&refused, true, |_| String::new());
            }
        };
        let _permit = match self.admit(&extensions).await {
            Ok(permit) => permit,
            Err(r) => {
                record.finish(&call_log::refused(r.kind));
                let refused = SearchError::new(r.kind, r.message)
                    .with_query(request.query.clone())
                    .with_retry_after_ms(Some(r.retry_after_ms))
                    .with_suggestion(r.suggestion);
                return tool_result(&refused, true, |_| String::new());
            }
        };
        let answer = self
            .service
            .web_search(&request, CallOptions::default())
            .await;
        record.finish(&call_log::searched(&answer, &self.metrics));
        match answer {
            Ok(answer) => tool_result(&answer, false, render_search_text),
            Err(error) => tool_result(&error, true, |_| String::new()),
        }
    }

    #[tool(
        name = "web_fetch",
        description = WEB_FETCH_DESCRIPTION,
        input_schema = FETCH_INPUT.clone(),
        output_schema = schema::output_schema_one_or_many::<FetchResponse, FetchManyResponse>(),
        annotations(
            title = "Fetch a web page",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn web_fetch(&self, arguments: JsonObject, extensions: Extensions) -> CallToolResult {
        let record = call_log::CallRecord::start("web_fetch", &self.metrics);
        let request: FetchRequest = match args::read_args(&arguments, &FETCH_INPUT) {
            Ok(r) => r,
            Err(e) => {
                record.finish(&call_log::refused(ErrorKind::InvalidArgument));
                let refused = FetchResponse::error(
                    text_arg(&arguments, "url"),
                    ErrorKind::InvalidArgument,
                    e.message,
                    "Fix that argument and call web_fetch again.",
                );
                return tool_result(&refused, true, |_| String::new());
            }
        };
        let _permit = match self.admit(&extensions).await {
            Ok(permit) => permit,
            Err(r) => {
                record.finish(&call_log::refused(r.kind));
                let refused = FetchResponse {
                    retry_after_ms: Some(r.retry_after_ms),
                    ..FetchResponse::error(request.url.clone(), r.kind, r.message, r.suggestion)
                };
                return tool_result(&refused, true, |_| String::new());
            }
        };
        if request.urls.is_empty() && !request.url.trim().is_empty() {
            let answer = self
                .service
                .web_fetch(&request, CallOptions::default())
                .await;
            record.finish(&call_log::fetched(&answer));
            return tool_result(&answer, answer.is_error(), |a| {
                render::fetch_text(a, "startIndex =")
            });
        }
        // `urls`, or a call that names no page or both: the service reads
        // the pages or refuses the call.
        let answers = self
            .service
            .web_fetch_many(&request, CallOptions::default())
            .await;
        record.finish(&match &answers {
            Ok(a) => call_log::fetched_many(a),
            Err(refused) => call_log::fetched(refused),
        });
        match answers {
            Ok(answers) => tool_result(&answers, answers.is_error(), |a: &FetchManyResponse| {
                render::fetch_many_text(a, |page| format!("url = {} and startIndex =", page.url))
            }),
            Err(refused) => tool_result(&refused, true, |_| String::new()),
        }
    }
}

/// A string argument as sent (for an error answer that echoes it), or empty.
fn text_arg(arguments: &JsonObject, name: &str) -> String {
    arguments
        .get(name)
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// A tool result with `structuredContent` and, for text-only clients, a text
/// block: the answer for a person on success, the error JSON on failure.
fn tool_result<T: serde::Serialize>(
    answer: &T,
    is_error: bool,
    text_for_person: impl Fn(&T) -> String,
) -> CallToolResult {
    let value = match serde_json::to_value(answer) {
        Ok(v) => v,
        Err(e) => {
            return CallToolResult::error(vec![ContentBlock::text(format!(
                "farsight could not encode its answer: {e}"
            ))]);
        }
    };
    let mut result = if is_error {
        CallToolResult::structured_error(value)
    } else {
        let text = text_for_person(answer);
        let mut r = CallToolResult::structured(value);
        r.content = vec![ContentBlock::text(text)];
        r
    };
    result.is_error = Some(is_error);
    result
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for FarsightMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("farsight", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    // `ToolRouter::list_all` sorts by name; agents read the list in order, and
    // web_search comes first in how they use the tools.
    async fn list_tools(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListToolsResult, rmcp::ErrorData> {
        let supports_cache_hints = context
            .protocol_version()
            .is_some_and(|version| version >= rmcp::model::ProtocolVersion::V_2026_07_28);
        let mut tools = self.tool_router.list_all();
        tools.sort_by_key(|t| {
            TOOL_ORDER
                .iter()
                .position(|n| *n == t.name)
                .unwrap_or(TOOL_ORDER.len())
        });
        Ok(rmcp::model::ListToolsResult {
            result_type: Some(rmcp::model::ResultType::COMPLETE),
            tools,
            meta: None,
            next_cursor: None,
            ttl_ms: supports_cache_hints.then_some(0),
            cache_scope: supports_cache_hints.then_some(rmcp::model::CacheScope::Public),
        })
    }
}
