//! Local inputs read up to a limit: `farsight extract FILE|-` and the
//! configuration file. `/dev/zero` or an endless pipe must end in a clear
//! error, not in gigabytes of memory.

use std::io::Read;

/// The most HTML `farsight extract` reads: far above any real page, and what
/// the extractor handles in well under a second per 10 MB. A document read
/// this way has its own, lower bound (`[fetch].max_document_bytes`' default).
pub(crate) const MAX_EXTRACT_INPUT_BYTES: u64 = 32 * 1024 * 1024;

/// The most a configuration file may hold; real ones are a few KB.
pub(crate) const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// All of `reader` if it holds at most `limit` bytes; otherwise an error
/// saying what was too long, read no further than one byte past the limit.
pub(crate) fn read_limited(reader: impl Read, limit: u64, what: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {what}: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{what} is larger than {} MiB, the most farsight reads from it",
            limit / (1024 * 1024)
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_input_stops_at_the_limit() {
        let endless = std::io::repeat(0);
        let e = read_limited(endless, 1024 * 1024, "standard input").unwrap_err();
        assert!(e.contains("larger than 1 MiB"), "{e}");
        let small = read_limited(&b"<p>hi</p>"[..], 1024, "x").unwrap();
        assert_eq!(small, b"<p>hi</p>");
        // Exactly the limit is fine.
        assert_eq!(read_limited(&[7u8; 16][..], 16, "x").unwrap().len(), 16);
    }
}
