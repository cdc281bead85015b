//! The corpus layout of `shared/bench/dev` and `shared/bench/wcxb-dev`: each
//! page is `<id>.html` or `<id>.html.gz` beside `<id>.json` (`url`,
//! `articleBody`, ...). farsight-bench reads the same layout; this reader
//! mirrors it so both tools see the same pages in the same order.

use std::io::Read;
use std::path::Path;

/// Every page id in `dir`, sorted, each once (a page may exist both plain and
/// gzipped; it is one page).
pub fn page_ids(dir: &Path) -> Result<Vec<String>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut ids: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            name.strip_suffix(".html")
                .or_else(|| name.strip_suffix(".html.gz"))
                .map(str::to_string)
        })
        .collect();
    ids.sort();
    ids.dedup();
    Ok(ids)
}

/// The page's bytes: `<id>.html` if present, else `<id>.html.gz` unpacked.
pub fn page_bytes(dir: &Path, id: &str) -> Result<Vec<u8>, String> {
    let plain = dir.join(format!("{id}.html"));
    if plain.exists() {
        return std::fs::read(&plain).map_err(|e| format!("{}: {e}", plain.display()));
    }
    let gz = dir.join(format!("{id}.html.gz"));
    let file = std::fs::File::open(&gz).map_err(|e| format!("{}: {e}", gz.display()))?;
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(file)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", gz.display()))?;
    Ok(bytes)
}

/// The page's URL from `<id>.json`, if the file exists, parses and has one.
/// A page without it is still extracted, only without the URL hint.
pub fn page_url(dir: &Path, id: &str) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(format!("{id}.json"))).ok()?;
    let meta: serde_json::Value = serde_json::from_str(&text).ok()?;
    meta.get("url")?.as_str().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A fresh directory under the system temp dir, unique to this test.
    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "rs-trafilatura-bench-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        dir
    }

    #[test]
    fn reads_plain_and_gzipped_pages_and_their_urls() {
        let dir = scratch("layout");
        std::fs::write(dir.join("b.html"), "<p>plain</p>").expect("write");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(b"<p>packed</p>").expect("gzip");
        std::fs::write(dir.join("a.html.gz"), gz.finish().expect("gzip")).expect("write");
        std::fs::write(dir.join("a.json"), r#"{"url": "https://example.org/a"}"#).expect("write");
        std::fs::write(dir.join("notes.txt"), "not a page").expect("write");

        assert_eq!(page_ids(&dir).expect("ids"), ["a", "b"]);
        assert_eq!(page_bytes(&dir, "a").expect("a"), b"<p>packed</p>");
        assert_eq!(page_bytes(&dir, "b").expect("b"), b"<p>plain</p>");
        assert_eq!(
            page_url(&dir, "a").as_deref(),
            Some("https://example.org/a")
        );
        assert_eq!(page_url(&dir, "b"), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_page_listed_plain_and_gzipped_counts_once() {
        let dir = scratch("dedup");
        std::fs::write(dir.join("x.html"), "<p>one</p>").expect("write");
        std::fs::write(dir.join("x.html.gz"), b"").expect("write");
        assert_eq!(page_ids(&dir).expect("ids"), ["x"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_broken_gzip_is_an_error_not_a_panic() {
        let dir = scratch("broken");
        std::fs::write(dir.join("y.html.gz"), b"not gzip").expect("write");
        assert!(page_bytes(&dir, "y").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
