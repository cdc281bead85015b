//! GitHub pages read from their raw files (issue 13).
//!
//! A file's page on github.com (`/OWNER/REPO/blob/REF/PATH`) wraps the file
//! in several hundred kilobytes of application shell; the same file is at
//! `raw.githubusercontent.com/OWNER/REPO/REF/PATH` as it is, which the text
//! readers then format (Markdown sanitised, source code fenced). A
//! repository's front page is mostly its README, read the same way. This
//! module only maps URLs; `markdown_source.rs` fetches them.

use url::Url;

/// First path segments of github.com that are GitHub's own pages, not an
/// owner's repositories (GitHub reserves these names): `github.com/features/
/// copilot` has the shape of a repository and no README to look for.
const NOT_OWNERS: [&str; 30] = [
    "about",
    "apps",
    "codespaces",
    "collections",
    "contact",
    "customer-stories",
    "dashboard",
    "enterprise",
    "events",
    "explore",
    "features",
    "issues",
    "join",
    "login",
    "logout",
    "marketplace",
    "new",
    "notifications",
    "organizations",
    "orgs",
    "pricing",
    "pulls",
    "readme",
    "resources",
    "search",
    "security",
    "settings",
    "solutions",
    "sponsors",
    "topics",
];

/// The README names tried for a repository, in order: the common spellings
/// first. A short, fixed list: each miss is one request, and a repository
/// whose README is named otherwise falls back to its page.
const README_NAMES: [&str; 4] = ["README.md", "readme.md", "README.rst", "README"];

/// The raw files to read instead of the GitHub page `url`, in the order to
/// try them, under `raw_base` (`https://raw.githubusercontent.com`); empty
/// when `url` is not a file's page or a repository's front page (issues,
/// pull requests, folders, users and everything else are read as pages).
/// The query (`?plain=1`, `?tab=readme-ov-file`) and the fragment (`#L10`)
/// name views of the same file, so they are dropped.
pub(super) fn raw_candidates(url: &str, raw_base: &str) -> Vec<String> {
    let Some(segments) = repository_path(url) else {
        return Vec::new();
    };
    let base = raw_base.trim_end_matches('/');
    let readmes = |owner: &str, repo: &str, reference: &str| {
        README_NAMES
            .iter()
            .map(|name| format!("{base}/{owner}/{repo}/{reference}/{name}"))
            .collect()
    };
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    match segments.as_slice() {
        // The front page shows the default branch, which `HEAD` names.
        [owner, repo] => readmes(owner, repo, "HEAD"),
        [owner, repo, "tree", reference] => readmes(owner, repo, reference),
        // REF may hold slashes (`feature/x`); raw.githubusercontent.com
        // reads the joined path the same way github.com does.
        [owner, repo, "blob", rest @ ..] if rest.len() >= 2 => {
            vec![format!("{base}/{owner}/{repo}/{}", rest.join("/"))]
        }
        _ => Vec::new(),
    }
}

/// The path segments (percent-encoded, as `Url` keeps them) of a github.com
/// URL whose first segment may be an owner; `None` for any other URL.
fn repository_path(url: &str) -> Option<Vec<String>> {
    let parsed = Url::parse(url.trim()).ok()?;
    if !matches!(parsed.scheme(), "http" | "https")
        || parsed.port().is_some()
        || !matches!(parsed.host_str()?, "github.com" | "www.github.com")
    {
        return None;
    }
    let path = parsed.path().strip_prefix('/')?;
    let path = path.strip_suffix('/').unwrap_or(path);
    let segments: Vec<String> = path.split('/').map(str::to_owned).collect();
    let owner = segments.first()?;
    if segments.iter().any(String::is_empty)
        || NOT_OWNERS.iter().any(|n| n.eq_ignore_ascii_case(owner))
    {
        return None;
    }
    Some(segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RAW: &str = "https://raw.githubusercontent.com";

    fn map(url: &str) -> Vec<String> {
        raw_candidates(url, RAW)
    }

    #[test]
    fn a_files_page_reads_the_raw_file() {
        assert_eq!(
            map("https://github.com/rust-lang/rust/blob/master/src/lib.rs"),
            ["https://raw.githubusercontent.com/rust-lang/rust/master/src/lib.rs"]
        );
        // A branch with a slash, a file in a folder, an encoded name.
        assert_eq!(
            map("https://github.com/o/r/blob/feature/x/docs/My%20Notes.md"),
            ["https://raw.githubusercontent.com/o/r/feature/x/docs/My%20Notes.md"]
        );
    }

    #[test]
    fn query_and_fragment_are_dropped_and_www_is_github() {
        assert_eq!(
            map("https://www.github.com/o/r/blob/v1.0/README.md?plain=1#L10-L20"),
            ["https://raw.githubusercontent.com/o/r/v1.0/README.md"]
        );
        assert_eq!(
            map("http://GitHub.com/o/r/blob/main/a.py"),
            ["https://raw.githubusercontent.com/o/r/main/a.py"]
        );
    }

    #[test]
    fn a_front_page_reads_its_readme_from_head() {
        let expected: Vec<String> = ["README.md", "readme.md", "README.rst", "README"]
            .iter()
            .map(|n| format!("{RAW}/o/r/HEAD/{n}"))
            .collect();
        assert_eq!(map("https://github.com/o/r"), expected);
        assert_eq!(map("https://github.com/o/r/"), expected);
        assert_eq!(
            map("https://github.com/o/r?tab=readme-ov-file#usage"),
            expected
        );
    }

    #[test]
    fn a_tree_root_reads_the_readme_at_its_ref() {
        assert_eq!(
            map("https://github.com/o/r/tree/v2")[0],
            "https://raw.githubusercontent.com/o/r/v2/README.md"
        );
        // A folder is a listing, not rewritten.
        assert!(map("https://github.com/o/r/tree/main/docs").is_empty());
    }

    #[test]
    fn other_pages_are_not_rewritten() {
        for url in [
            "https://github.com/o/r/issues/13",
            "https://github.com/o/r/pull/7",
            "https://github.com/o/r/pulls",
            "https://github.com/o/r/blob/main",
            "https://github.com/o/r/commits/main",
            "https://github.com/o",
            "https://github.com/",
            "https://github.com/features/copilot",
            "https://github.com/orgs/rust-lang",
            "https://gist.github.com/o/abc123",
            "https://github.com:8443/o/r",
            "https://gitlab.com/o/r/blob/main/a.rs",
            "https://github.com.evil.example/o/r",
            "ftp://github.com/o/r",
            "https://github.com/o//r",
            "not a url",
        ] {
            assert!(map(url).is_empty(), "{url}");
        }
    }

    #[test]
    fn the_raw_base_is_the_callers() {
        assert_eq!(
            raw_candidates(
                "https://github.com/o/r/blob/main/a.md",
                "http://127.0.0.1:9/"
            ),
            ["http://127.0.0.1:9/o/r/main/a.md"]
        );
    }
}
