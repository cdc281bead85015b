//! Reading a corpus in the layout of `shared/bench/dev` and WCXB: per page
//! `<id>.html` (or `<id>.html.gz`, as WCXB ships it) and `<id>.json` with
//! `url`, `articleBody` and, where the corpus has several, the page's kind.
//! The benchmark command and the regression gate (`tests/gate.rs`) both read
//! pages here, so both see a page the same way.

use std::path::Path;

use farsight_extract::{Engine, ExtractOptions, Format};

/// One page of a corpus and the main text a person marked on it.
pub struct Page {
    pub id: String,
    /// The page as fetched, decoded lossily as UTF-8 (the corpora are UTF-8).
    pub html: String,
    /// The address the page was fetched from, which resolves its links.
    pub url: Option<String>,
    /// `kind`, `page_type` or WCXB's `_internal.page_type.primary`.
    pub kind: Option<String>,
    /// The ground truth: `articleBody`, empty when the JSON has none.
    pub truth: String,
}

impl Page {
    /// The options the benchmark extracts this page with: the page's own
    /// URL as base, as a fetch would have given it.
    pub fn options(&self, format: Format, engine: Engine) -> ExtractOptions {
        let opts = ExtractOptions::new(format).engine(engine);
        match &self.url {
            Some(u) => opts.base_url(u),
            None => opts,
        }
    }
}

/// The ids of a corpus's pages, sorted: every `<id>.html` or `<id>.html.gz`.
pub fn page_ids(corpus: &Path) -> Result<Vec<String>, String> {
    let mut ids: Vec<String> = std::fs::read_dir(corpus)
        .map_err(|e| format!("{}: {e}", corpus.display()))?
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

/// Reads page `id` of `corpus`. A missing or unreadable JSON gives a page
/// without URL, kind or truth (the benchmark then scores it against
/// nothing), as `score.py` treats a page without ground truth.
pub fn read(corpus: &Path, id: &str) -> Result<Page, String> {
    let html = read_html(corpus, id)?;
    let meta: serde_json::Value = std::fs::read_to_string(corpus.join(format!("{id}.json")))
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or_default();
    let text = |key: &str| meta.get(key).and_then(|v| v.as_str()).map(str::to_string);
    Ok(Page {
        id: id.to_owned(),
        html: String::from_utf8_lossy(&html).into_owned(),
        url: text("url"),
        kind: text("kind").or_else(|| text("page_type")).or_else(|| {
            meta.pointer("/_internal/page_type/primary")
                .and_then(|v| v.as_str())
                .map(str::to_string)
        }),
        truth: text("articleBody").unwrap_or_default(),
    })
}

/// A page's HTML: `<id>.html`, or `<id>.html.gz` unpacked in memory.
fn read_html(corpus: &Path, id: &str) -> Result<Vec<u8>, String> {
    let plain = corpus.join(format!("{id}.html"));
    if plain.exists() {
        return std::fs::read(&plain).map_err(|e| format!("{id}.html: {e}"));
    }
    let gz = std::fs::File::open(corpus.join(format!("{id}.html.gz")))
        .map_err(|e| format!("{id}.html.gz: {e}"))?;
    let mut html = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(gz), &mut html)
        .map_err(|e| format!("{id}.html.gz: {e}"))?;
    Ok(html)
}
