//! Where the browser is: the configured path, else the usual Chromium and
//! Chrome names on `PATH`.

use std::path::{Path, PathBuf};

use crate::error::RenderError;

/// Tried in this order on `PATH` (Debian names its package `chromium`).
const NAMES: [&str; 4] = [
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
];

/// The browser executable, or `Unavailable` saying how to get one.
pub(crate) fn find_browser(configured: Option<&Path>) -> Result<PathBuf, RenderError> {
    if let Some(path) = configured {
        if is_executable(path) {
            return Ok(path.to_path_buf());
        }
        return Err(RenderError::unavailable(format!(
            "the configured browser {} is not an executable file",
            path.display()
        )));
    }
    let dirs = std::env::var_os("PATH").unwrap_or_default();
    for name in NAMES {
        for dir in std::env::split_paths(&dirs) {
            let candidate = dir.join(name);
            if is_executable(&candidate) {
                return Ok(candidate);
            }
        }
    }
    Err(RenderError::unavailable(format!(
        "no Chromium or Chrome found on PATH (looked for {})",
        NAMES.join(", ")
    )))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RenderErrorKind;

    #[test]
    fn a_configured_path_that_is_not_a_browser_is_unavailable_with_advice() {
        let err = find_browser(Some(Path::new("/nonexistent/chromium"))).unwrap_err();
        assert_eq!(err.kind, RenderErrorKind::Unavailable);
        let advice = err.suggestion.unwrap_or_default();
        assert!(advice.contains("apt-get install chromium"), "{advice}");
        assert!(advice.contains("browser_path"), "{advice}");
    }

    #[test]
    fn a_configured_executable_is_taken_as_is() {
        // /bin/sh stands in for a browser: discovery only checks it can run.
        assert_eq!(
            find_browser(Some(Path::new("/bin/sh"))).unwrap(),
            PathBuf::from("/bin/sh")
        );
    }
}
