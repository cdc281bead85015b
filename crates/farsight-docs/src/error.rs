//! The one error type of this crate: a kind, a message for a person or a
//! model, and what to do about it (the shape of `farsight-net`'s `Error`).

use std::fmt;

/// What went wrong reading a document.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The document is encrypted (password-protected or with an owner
    /// password farsight does not decrypt).
    Encrypted,
    /// The bytes are not a readable document of the format: damaged,
    /// truncated, or not that format at all.
    Malformed,
    /// The bytes are of no format this crate reads (a zip of another kind).
    Unsupported,
    /// The document is larger than [`crate::Limits::max_bytes`].
    TooLarge,
    /// Reading passed the deadline before any page was read.
    Timeout,
}

impl ErrorKind {
    /// A camelCase name, e.g. `"encrypted"`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Encrypted => "encrypted",
            Self::Malformed => "malformed",
            Self::Unsupported => "unsupported",
            Self::TooLarge => "tooLarge",
            Self::Timeout => "timeout",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A document that could not be read. `Display` shows the message.
#[derive(Clone)]
pub struct Error {
    // Boxed so that `Result<Reading, Error>` stays small.
    inner: Box<Inner>,
}

#[derive(Clone)]
struct Inner {
    kind: ErrorKind,
    message: String,
    suggestion: String,
}

impl Error {
    pub(crate) fn new(
        kind: ErrorKind,
        message: impl Into<String>,
        suggestion: impl Into<String>,
    ) -> Self {
        Self {
            inner: Box::new(Inner {
                kind,
                message: message.into(),
                suggestion: suggestion.into(),
            }),
        }
    }

    /// What kind of failure this is.
    #[must_use]
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// What happened, for a person or a model.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// What to do about it.
    #[must_use]
    pub fn suggestion(&self) -> &str {
        &self.inner.suggestion
    }

    pub(crate) fn encrypted(kind: &str) -> Self {
        Self::new(
            ErrorKind::Encrypted,
            format!("the {kind} is encrypted and farsight does not decrypt documents"),
            "Look for an unencrypted copy of the document (an HTML version, the publisher's \
             page, a preprint).",
        )
    }

    pub(crate) fn malformed(kind: &str, why: impl fmt::Display) -> Self {
        Self::new(
            ErrorKind::Malformed,
            format!("the {kind} cannot be read: {why}"),
            "The file is damaged or not what its type says; try another copy of the document.",
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.inner.message)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.inner.kind)
            .field("message", &self.inner.message)
            .finish_non_exhaustive()
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pointer_wide() {
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
        let e = Error::encrypted("PDF");
        assert_eq!(e.kind(), ErrorKind::Encrypted);
        assert!(e.to_string().contains("encrypted"));
        assert!(!e.suggestion().is_empty());
    }
}
