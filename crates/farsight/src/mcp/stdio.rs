//! MCP over stdio: stdin and stdout carry the protocol, nothing else.

use anyhow::Context;
use rmcp::ServiceExt;

use super::FarsightMcp;
use crate::service::Service;

/// Serves the tools over stdin/stdout until the client closes the stream.
///
/// # Errors
///
/// When the handshake fails or the transport breaks.
pub async fn serve_stdio(service: Service) -> anyhow::Result<()> {
    let server = FarsightMcp::new(service)
        .serve(rmcp::transport::stdio())
        .await
        .context("the MCP handshake over stdio failed")?;
    tracing::info!("serving MCP over stdio");
    server
        .waiting()
        .await
        .context("the MCP stdio session failed")?;
    Ok(())
}
