//! MCP over Streamable HTTP at `/mcp` (stateless), with `GET /healthz`,
//! `GET /metrics`, a bearer token or OAuth 2.1 access tokens (with the
//! protected-resource metadata), Origin and Host validation, bounds on calls
//! in flight and per tenant, and a graceful drain on SIGTERM / Ctrl-C.
//! Connections are accepted and bounded in [`super::http_serve`].

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use anyhow::Context;
use axum::Router;
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

use super::FarsightMcp;
use super::auth::{self, Gate};
use super::http_conns::Timeouts;
use super::http_serve::{self, Limits};
use super::metrics::RedisState;
use super::metrics::{self, Metrics};
use super::oauth::Verifier;
use super::oauth_metadata;
use super::open_files;
use super::tenant_limit::TenantLimits;
use super::tenant_shared::SharedTenantBudget;
use crate::cli::UsageError;
use crate::config::ServerConfig;
use crate::service::Service;

/// Serves the tools over Streamable HTTP at `http://[server].addr/mcp` until
/// SIGTERM or Ctrl-C, then lets the calls in flight finish (at most
/// `[server].shutdown_grace_seconds`). Connections are bounded
/// (`[server].max_connections`, below the open-file limit) and closed when
/// slow to send a request head or idle too long.
///
/// # Errors
///
/// A [`UsageError`] when asked to listen beyond loopback without a token or
/// OAuth; an error when the address cannot be bound.
pub async fn serve_http(service: Service) -> anyhow::Result<()> {
    let settings = service.config().server.clone();
    let addr = settings.addr;
    if !addr.ip().is_loopback() && settings.token.is_none() && settings.oauth.is_none() {
        return Err(UsageError(format!(
            "refusing to serve MCP on {addr} without a bearer token: anyone who can reach \
             this address could use farsight. Set FARSIGHT_HTTP_TOKEN (or [server].token) \
             or [server.oauth], or listen on 127.0.0.1"
        ))
        .into());
    }
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let local = listener
        .local_addr()
        .context("cannot read the bound address")?;
    let (app, cancel) = router(service, &settings, local)?;
    let limits = Limits {
        connections: open_files::connection_bound(
            settings.max_connections,
            open_files::raise_limit(),
            settings.max_in_flight,
        ),
        timeouts: Timeouts {
            header_read: settings.header_read_timeout,
            idle: settings.idle_timeout,
        },
        grace: settings.shutdown_grace,
    };
    tracing::info!("serving at most {} connections at once", limits.connections);
    let shutdown = shutdown_signal();
    // Always shown, whatever the log level: it is how a person (or a test)
    // learns the port when asked for port 0.
    eprintln!("farsight: serving MCP at http://{local}/mcp");
    http_serve::serve(listener, app, limits, shutdown).await;
    cancel.cancel();
    Ok(())
}

/// The whole HTTP application: `/mcp` behind the token check, `/healthz`,
/// `/metrics` when enabled, the OAuth metadata when configured. Also returns
/// the MCP service's cancellation token, to end it on shutdown.
fn router(
    service: Service,
    settings: &ServerConfig,
    local: SocketAddr,
) -> anyhow::Result<(Router, CancelHandle)> {
    let mut config = StreamableHttpServerConfig::default()
        // Stateless: any instance can answer any request, and there is no
        // session state to lose when one restarts.
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_allowed_origins(allowed_origins(settings))
        .enforce_origin_validation();
    config = if settings.allowed_hosts.iter().any(|h| h == "*")
        || (!local.ip().is_loopback() && settings.allowed_hosts.is_empty())
    {
        // Host checks protect a token-less local server from DNS rebinding; a
        // non-loopback server always has a token or OAuth, which covers that.
        config.disable_allowed_hosts()
    } else {
        let mut hosts = vec![
            "localhost".to_owned(),
            "127.0.0.1".to_owned(),
            "::1".to_owned(),
        ];
        hosts.extend(settings.allowed_hosts.iter().cloned());
        config.with_allowed_hosts(hosts)
    };
    let cancel = CancelHandle(Box::new({
        let token = config.cancellation_token.clone();
        move || token.cancel()
    }));
    let gate = gate(&service, settings)?;
    let metrics = Arc::new(Metrics::new());
    let redis_health = service.redis_health();
    let cache = service.cache().clone();
    let mut mcp = FarsightMcp::new(service.clone())
        .with_call_limit(settings.max_in_flight)
        .with_metrics(metrics.clone());
    if let Some(per_minute) = settings.calls_per_minute.and_then(NonZeroU32::new) {
        mcp = mcp.with_tenant_limits(tenant_limits(&service, per_minute));
    }
    let mcp_service = StreamableHttpService::new(
        move || Ok(mcp.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let mut app = Router::new()
        .nest_service("/mcp", mcp_service)
        .layer(middleware::from_fn_with_state(
            Arc::new(gate),
            auth::require_auth,
        ))
        .layer(middleware::from_fn(one_origin))
        .route(
            "/healthz",
            get({
                let redis = redis_health.clone();
                move || healthz(redis.clone())
            }),
        );
    // Counts by tool say what a deployment is used for: shown on loopback,
    // elsewhere only when asked for ([server].metrics = true).
    if settings.metrics.unwrap_or(local.ip().is_loopback()) {
        app = app.route(
            "/metrics",
            get(move || {
                let metrics = metrics.clone();
                let redis = redis_health.clone();
                let cache = cache.clone();
                let service = service.clone();
                async move {
                    metrics.redis_state(redis_state(redis.as_ref()));
                    metrics.cache_lookups(&cache.lookups());
                    metrics.provider_waits(service.search_rate_limit_waits());
                    (
                        [(header::CONTENT_TYPE, metrics::CONTENT_TYPE)],
                        metrics.encode(),
                    )
                }
            }),
        );
    }
    if let Some(oauth) = &settings.oauth {
        app = app.merge(oauth_metadata::routes(oauth));
    }
    Ok((app, cancel))
}

/// How `/mcp` lets requests in: OAuth, the static token, or open (loopback
/// only; checked by the caller). Both configured is refused when the
/// configuration is read.
fn gate(service: &Service, settings: &ServerConfig) -> anyhow::Result<Gate> {
    if let Some(oauth) = &settings.oauth {
        return Ok(Gate::OAuth {
            verifier: Box::new(Verifier::new(oauth, &service.config().fetch)?),
            metadata_url: oauth_metadata::metadata_url(&oauth.resource),
        });
    }
    Ok(match &settings.token {
        Some(token) => Gate::Token(Arc::from(token.as_str())),
        None => Gate::Open,
    })
}

/// `[server].calls_per_minute` per tenant: shared by every instance through
/// Redis when `[cache].redis_url` is set, else counted in this process.
fn tenant_limits(service: &Service, per_minute: NonZeroU32) -> TenantLimits {
    match service.cache().redis() {
        Some(link) => TenantLimits::new(
            Arc::new(SharedTenantBudget::new(link.clone(), per_minute)),
            per_minute,
        ),
        None => TenantLimits::local(per_minute),
    }
}

/// The Redis state as `/metrics` shows it.
fn redis_state(health: Option<&farsight_net::RedisHealth>) -> RedisState {
    match health.map(farsight_net::RedisHealth::status) {
        None => RedisState::Disabled,
        Some(farsight_net::RedisStatus::Up) => RedisState::Up,
        Some(farsight_net::RedisStatus::Degraded { .. }) => RedisState::Degraded,
    }
}

/// Ends the MCP service when called.
struct CancelHandle(Box<dyn FnOnce() + Send>);

impl CancelHandle {
    fn cancel(self) {
        (self.0)();
    }
}

/// The server's own loopback origins (any port), then the configured ones.
fn allowed_origins(settings: &ServerConfig) -> Vec<String> {
    let mut origins: Vec<String> = ["localhost", "127.0.0.1", "[::1]"]
        .iter()
        .flat_map(|h| [format!("http://{h}:*"), format!("https://{h}:*")])
        .collect();
    origins.extend(settings.allowed_origins.iter().cloned());
    origins
}

/// `ok`, or `degraded` with the reason while the shared Redis is unavailable.
/// 200 either way: a degraded instance still answers every call (from its
/// local cache and budgets), so a load balancer should keep sending to it.
async fn healthz(redis: Option<farsight_net::RedisHealth>) -> impl IntoResponse {
    let body = match redis.map(|h| h.status()) {
        None | Some(farsight_net::RedisStatus::Up) => serde_json::json!({"status": "ok"}),
        Some(farsight_net::RedisStatus::Degraded { reason }) => {
            serde_json::json!({"status": "degraded", "reason": reason})
        }
    };
    (
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
}

/// Refuses a request that carries several different `Origin` headers: the
/// origin check of the MCP service reads one of them, so another, foreign
/// one could ride along. A browser sends one; repeats of the same value are
/// harmless and checked as that value.
async fn one_origin(request: Request, next: Next) -> Response {
    let mut origins = request.headers().get_all(header::ORIGIN).iter();
    let first = origins.next();
    if origins.any(|o| Some(o) != first) {
        return (
            StatusCode::FORBIDDEN,
            [(header::CONTENT_TYPE, "application/json")],
            "{\"error\":\"several different Origin headers; send one\"}",
        )
            .into_response();
    }
    next.run(request).await
}

/// Resolves on SIGTERM or Ctrl-C. The SIGTERM handler is installed at once,
/// before the address is announced, so that a signal sent as soon as the
/// server is up drains it instead of killing it outright.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    async move {
        let ctrl_c = async {
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        };
        #[cfg(unix)]
        let term = async move {
            match term {
                Some(mut s) => {
                    s.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        #[cfg(not(unix))]
        let term = std::future::pending::<()>();
        tokio::select! {
            () = ctrl_c => {},
            () = term => {},
        }
    }
}
