//! Which certificate authorities farsight trusts, and the rustls client
//! configuration built on them.
//!
//! Three sources, added together: the webpki roots compiled in (so a machine
//! with no usable store still reaches the web), the system's trust store
//! (where a company installs its own CA), and an optional PEM file
//! (`[fetch].ca_file` or `SSL_CERT_FILE`) for a TLS-inspecting proxy whose
//! CA is not installed system-wide.
//!
//! rustls with the `ring` provider: lighter to build than aws-lc, but it must be
//! chosen before any client is built or rustls panics (see shared/CRATES.md).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

use crate::error::{Error, ErrorKind};

/// The trusted CAs, loaded once and shared by every client built from them.
/// Cheap to clone.
#[derive(Clone)]
pub struct TlsTrust {
    config: Arc<rustls::ClientConfig>,
    /// Shown by `Debug`: how many roots came from where.
    system_roots: usize,
    extra_file: Option<(PathBuf, usize)>,
    /// With an extra file: the system store and that file's CAs as one PEM,
    /// for clients that take PEM rather than a rustls configuration (Redis
    /// over `rediss://`). Without one those clients read the system store
    /// themselves.
    pem_bundle: Option<Arc<Vec<u8>>>,
}

impl TlsTrust {
    /// The webpki roots, the system store, and the CAs of `ca_file` when
    /// given. A system store that cannot be read is logged (debug) and
    /// skipped: the built-in roots still work.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidConfig`] error naming `ca_file` when it is
    /// missing, unreadable, or holds no certificate.
    pub fn load(ca_file: Option<&Path>) -> Result<Self, Error> {
        let mut roots =
            rustls::RootCertStore::from_iter(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        let system = rustls_native_certs::load_native_certs();
        for e in &system.errors {
            tracing::debug!("the system trust store could not be read in full: {e}");
        }
        let system_certs = system.certs;
        let (system_roots, rejected) = roots.add_parsable_certificates(system_certs.clone());
        if rejected > 0 {
            tracing::debug!(
                rejected,
                "system certificates rustls cannot use were skipped"
            );
        }
        let mut pem_bundle = None;
        let extra_file = match ca_file {
            Some(path) => {
                let certs = read_ca_file(path)?;
                pem_bundle = Some(Arc::new(to_pem(system_certs.iter().chain(&certs))));
                let (added, _) = roots.add_parsable_certificates(certs);
                if added == 0 {
                    return Err(bad_ca_file(
                        path,
                        "holds no certificate rustls can use as a CA",
                    ));
                }
                Some((path.to_owned(), added))
            }
            None => None,
        };
        Ok(Self {
            config: Arc::new(client_config(roots)),
            system_roots,
            extra_file,
            pem_bundle,
        })
    }

    /// The system store and the extra file's CAs as PEM, when there is an
    /// extra file (see the field).
    pub(crate) fn pem_bundle(&self) -> Option<&[u8]> {
        self.pem_bundle.as_deref().map(Vec::as_slice)
    }

    /// A rustls client configuration trusting these CAs, for a client of
    /// one's own (reqwest's `tls_backend_preconfigured`, or a TLS connector).
    #[must_use]
    pub fn client_config(&self) -> rustls::ClientConfig {
        (*self.config).clone()
    }
}

impl Default for TlsTrust {
    /// The built-in roots and the system store, no extra file.
    fn default() -> Self {
        // Without a file, loading has nothing that can fail.
        Self::load(None).unwrap_or_else(|_| Self {
            config: Arc::new(client_config(rustls::RootCertStore::empty())),
            system_roots: 0,
            extra_file: None,
            pem_bundle: None,
        })
    }
}

impl std::fmt::Debug for TlsTrust {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TlsTrust")
            .field("system_roots", &self.system_roots)
            .field("extra_file", &self.extra_file)
            .finish_non_exhaustive()
    }
}

/// Certificates as PEM blocks.
fn to_pem<'a>(certs: impl Iterator<Item = &'a CertificateDer<'static>>) -> Vec<u8> {
    use base64::Engine as _;
    let mut out = String::new();
    for cert in certs {
        out.push_str("-----BEGIN CERTIFICATE-----\n");
        let encoded = base64::engine::general_purpose::STANDARD.encode(cert.as_ref());
        for line in encoded.as_bytes().chunks(64) {
            out.push_str(&String::from_utf8_lossy(line));
            out.push('\n');
        }
        out.push_str("-----END CERTIFICATE-----\n");
    }
    out.into_bytes()
}

fn read_ca_file(path: &Path) -> Result<Vec<CertificateDer<'static>>, Error> {
    let bytes =
        std::fs::read(path).map_err(|e| bad_ca_file(path, &format!("cannot be read ({e})")))?;
    let mut certs = Vec::new();
    for item in CertificateDer::pem_slice_iter(&bytes) {
        certs.push(item.map_err(|e| bad_ca_file(path, &format!("is not valid PEM ({e})")))?);
    }
    if certs.is_empty() {
        return Err(bad_ca_file(
            path,
            "holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
        ));
    }
    Ok(certs)
}

fn bad_ca_file(path: &Path, why: &str) -> Error {
    Error::new(
        ErrorKind::InvalidConfig,
        format!("the CA file {} {why}", path.display()),
    )
    .with_suggestion(
        "Point [fetch].ca_file (or SSL_CERT_FILE) at a PEM file with your proxy's CA \
         certificate, or remove the setting.",
    )
}

/// A configuration with the `ring` provider and `roots`.
fn client_config(roots: rustls::RootCertStore) -> rustls::ClientConfig {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let roots = Arc::new(roots);
    rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map(|b| {
            b.with_root_certificates(Arc::clone(&roots))
                .with_no_client_auth()
        })
        // The ring provider supports the default protocol versions; this cannot fail
        // unless rustls itself changes, and then a config without TLS 1.2 is still sane.
        .unwrap_or_else(|_| {
            rustls::ClientConfig::builder_with_protocol_versions(&[&rustls::version::TLS13])
                .with_root_certificates(roots)
                .with_no_client_auth()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_ca_file_is_a_configuration_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.pem");
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "").unwrap();
        let text = dir.path().join("notes.pem");
        std::fs::write(&text, "just some words\n").unwrap();
        for path in [&missing, &empty, &text] {
            let err = TlsTrust::load(Some(path)).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidConfig);
            assert!(
                err.to_string().contains(&path.display().to_string()),
                "{err}"
            );
            assert!(err.suggestion().unwrap().contains("ca_file"));
        }
    }
}
