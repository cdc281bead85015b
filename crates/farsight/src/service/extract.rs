//! The one place where the synchronous extractor runs, on tokio's blocking
//! pool, so a large page never stalls the threads serving other calls.

use farsight_extract::{Document, ExtractOptions};

/// Extracts `html` on a blocking thread.
///
/// A panic inside the extractor (it parses untrusted HTML) is caught by the
/// blocking pool and turned into an empty document that says it has no
/// content, so one hostile page cannot take the server down.
pub async fn extract_document(html: String, options: ExtractOptions) -> Document {
    match tokio::task::spawn_blocking(move || farsight_extract::extract(&html, &options)).await {
        Ok(doc) => doc,
        Err(e) => {
            tracing::error!("the extractor failed on a page: {e}");
            Document {
                likely_needs_javascript: true,
                ..Document::default()
            }
        }
    }
}
