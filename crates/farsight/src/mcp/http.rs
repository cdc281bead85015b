//! MCP over Streamable HTTP.

use crate::service::Service;

/// Serves the tools over Streamable HTTP at `/mcp`.
///
/// # Errors
///
/// When the address cannot be bound.
pub async fn serve_http(service: Service) -> anyhow::Result<()> {
    let _ = service;
    anyhow::bail!("the HTTP transport is not available yet")
}
