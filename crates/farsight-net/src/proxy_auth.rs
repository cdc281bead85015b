//! The browser proxy's per-run credentials: random, checked on every
//! request, so that nothing else on the machine can use the proxy (a local
//! program that found the port still gets 407).

use base64::Engine as _;
use subtle::ConstantTimeEq as _;

use crate::error::{Error, ErrorKind};

/// A user name and password for the browser's egress proxy, made fresh for
/// each run. `Debug` never shows them.
#[derive(Clone, PartialEq, Eq)]
pub struct ProxyCredentials {
    username: String,
    password: String,
}

impl std::fmt::Debug for ProxyCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProxyCredentials(..)")
    }
}

impl ProxyCredentials {
    /// Fresh random credentials (128 bits each, from the OS generator).
    ///
    /// # Errors
    ///
    /// `Network` when the system has no random source to give.
    pub fn random() -> Result<Self, Error> {
        Ok(Self {
            username: format!("farsight-{}", random_hex(8)?),
            password: random_hex(16)?,
        })
    }

    /// The user name the browser answers the proxy's challenge with.
    #[must_use]
    pub fn username(&self) -> &str {
        &self.username
    }

    /// The password the browser answers the proxy's challenge with.
    #[must_use]
    pub fn password(&self) -> &str {
        &self.password
    }

    /// Whether a `Proxy-Authorization` header value carries these
    /// credentials (Basic scheme). Compared in constant time.
    pub(crate) fn accepts(&self, header: Option<&[u8]>) -> bool {
        let Some(value) = header else { return false };
        let Some(encoded) = value
            .strip_prefix(b"Basic ")
            .or_else(|| value.strip_prefix(b"basic "))
        else {
            return false;
        };
        let Ok(decoded) = base64::engine::general_purpose::STANDARD.decode(encoded.trim_ascii())
        else {
            return false;
        };
        let expected = format!("{}:{}", self.username, self.password);
        // Without stopping at the first difference (subtle): another local
        // process must not learn the password byte by byte.
        bool::from(decoded.as_slice().ct_eq(expected.as_bytes()))
    }
}

fn random_hex(bytes: usize) -> Result<String, Error> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| {
        Error::new(
            ErrorKind::Network,
            format!("no random numbers for the browser proxy's credentials: {e}"),
        )
    })?;
    Ok(hex::encode(buf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_credentials_pass() {
        let c = ProxyCredentials::random().unwrap();
        let good = base64::engine::general_purpose::STANDARD.encode(format!(
            "{}:{}",
            c.username(),
            c.password()
        ));
        assert!(c.accepts(Some(format!("Basic {good}").as_bytes())));
        assert!(!c.accepts(None));
        assert!(!c.accepts(Some(b"Basic")));
        assert!(!c.accepts(Some(b"Bearer abc")));
        let wrong = base64::engine::general_purpose::STANDARD.encode(format!(
            "{}:{}x",
            c.username(),
            c.password()
        ));
        assert!(!c.accepts(Some(format!("Basic {wrong}").as_bytes())));
        assert_ne!(c, ProxyCredentials::random().unwrap());
        assert_eq!(format!("{c:?}"), "ProxyCredentials(..)");
    }
}
