//! rustls with the `ring` provider: lighter to build than aws-lc, but it must be
//! chosen before any client is built or rustls panics (see shared/CRATES.md).

use std::sync::Arc;

/// A TLS configuration with the `ring` provider and the webpki roots.
pub(crate) fn client_config() -> rustls::ClientConfig {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let roots = rustls::RootCertStore::from_iter(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map(|b| b.with_root_certificates(roots).with_no_client_auth())
        // The ring provider supports the default protocol versions; this cannot fail
        // unless rustls itself changes, and then a config without TLS 1.2 is still sane.
        .unwrap_or_else(|_| {
            rustls::ClientConfig::builder_with_protocol_versions(&[&rustls::version::TLS13])
                .with_root_certificates(rustls::RootCertStore::empty())
                .with_no_client_auth()
        })
}
