//! A scan of a PDF for nesting before it is parsed. pdf_oxide's object
//! parser recurses once per `[` or `<<` with no bound of its own, so a file of
//! 100,000 `[` overflows the thread's stack (found by `tests/it/hostile.rs`),
//! and a stack overflow aborts the process: no `catch_unwind` catches it.
//! The scan refuses nesting deeper than [`MAX_DEPTH`] in the file's objects
//! and inside its Flate streams (object streams hold objects, content streams
//! hold operand arrays), inflating at most [`MAX_INFLATED`] bytes in all.

use std::io::Read;

/// Real documents nest a handful of levels (a page tree, a font's widths,
/// an annotation's appearance); the PDF specification's own limit is 28.
pub(crate) const MAX_DEPTH: usize = 256;

/// References in one array. pdf_oxide reads a page tree's `/Kids` in time
/// that grows with the square of its length (5,000 references: 2 s; 200,000:
/// minutes, in a debug build): a file of nothing but references would run for
/// hours. Page trees are balanced in practice (pdfTeX puts 6 to 10 kids in a
/// node); 10,000 in one array is past any real writer.
pub(crate) const MAX_ARRAY_REFS: usize = 10_000;

/// Inflated stream bytes scanned per document, a bound on the scan's own
/// time. Streams past it are not scanned; images (most of a large file's
/// bytes) are never inflated.
pub(crate) const MAX_INFLATED: usize = 64 * 1024 * 1024;

/// `Err(why)` when `bytes` nest deeper than [`MAX_DEPTH`] or hold an array
/// of more than [`MAX_ARRAY_REFS`] references.
pub(crate) fn check(bytes: &[u8]) -> Result<(), String> {
    let mut budget = MAX_INFLATED;
    scan(bytes, &mut budget, true).map_err(|e| match e {
        Refusal::Depth(d) => format!("its objects nest {d} levels deep, more than farsight reads"),
        Refusal::Refs => format!(
            "an array holds more than {MAX_ARRAY_REFS} references, more than farsight reads"
        ),
    })
}

enum Refusal {
    Depth(usize),
    Refs,
}

impl From<usize> for Refusal {
    fn from(depth: usize) -> Self {
        Self::Depth(depth)
    }
}

fn scan(bytes: &[u8], budget: &mut usize, top: bool) -> Result<(), Refusal> {
    let mut depth = 0usize;
    // References since the innermost `[` opened or closed.
    let mut refs = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                i = memchr::memchr2(b'\n', b'\r', &bytes[i..]).map_or(bytes.len(), |n| i + n);
            }
            b'(' => i = skip_string(bytes, i),
            b'[' => {
                depth = deeper(depth)?;
                refs = 0;
            }
            b'R' if depth > 0
                && i > 0
                && bytes[i - 1].is_ascii_whitespace()
                && bytes.get(i + 1).is_none_or(|b| !b.is_ascii_alphanumeric()) =>
            {
                refs += 1;
                if refs > MAX_ARRAY_REFS {
                    return Err(Refusal::Refs);
                }
            }
            b'<' if bytes.get(i + 1) == Some(&b'<') => {
                depth = deeper(depth)?;
                i += 1;
            }
            b'<' => {
                // A hex string.
                i = memchr::memchr(b'>', &bytes[i..]).map_or(bytes.len(), |n| i + n);
            }
            b']' => {
                depth = depth.saturating_sub(1);
                refs = 0;
            }
            b'>' if bytes.get(i + 1) == Some(&b'>') => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'e' if bytes[i..].starts_with(b"endobj") => depth = 0,
            b's' if top && bytes[i..].starts_with(b"stream") && !bytes[..i].ends_with(b"end") => {
                i = stream(bytes, i, budget)?;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

fn deeper(depth: usize) -> Result<usize, usize> {
    if depth >= MAX_DEPTH {
        Err(depth + 1)
    } else {
        Ok(depth + 1)
    }
}

/// The index after a literal string starting at `start` (balanced
/// parentheses, backslash escapes).
fn skip_string(bytes: &[u8], start: usize) -> usize {
    let mut level = 0usize;
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'(' => level += 1,
            b')' => {
                level -= 1;
                if level == 0 {
                    return i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// Scans the stream whose keyword is at `at`: its data inflated when its
/// dictionary says Flate and it is no image; returns the index after
/// `endstream`.
fn stream(bytes: &[u8], at: usize, budget: &mut usize) -> Result<usize, Refusal> {
    let data_start = at + b"stream".len();
    let Some(len) = memchr::memmem::find(&bytes[data_start..], b"endstream") else {
        return Ok(bytes.len());
    };
    let data = &bytes[data_start..data_start + len];
    let dict = &bytes[at.saturating_sub(1024)..at];
    let dict = memchr::memmem::rfind(dict, b"obj").map_or(dict, |n| &dict[n..]);
    let is_image = memchr::memmem::find(dict, b"/Image").is_some();
    if memchr::memmem::find(dict, b"/FlateDecode").is_some() && !is_image && *budget > 0 {
        let data = data
            .strip_prefix(b"\r\n")
            .or_else(|| data.strip_prefix(b"\n"))
            .unwrap_or(data);
        let mut inflated = Vec::new();
        let limit = u64::try_from(*budget).unwrap_or(u64::MAX);
        // A stream that does not inflate is the parser's to report.
        let _ = flate2::read::ZlibDecoder::new(data)
            .take(limit)
            .read_to_end(&mut inflated);
        *budget = budget.saturating_sub(inflated.len());
        scan(&inflated, budget, false)?;
    } else if !is_image {
        scan(data, budget, false)?;
    }
    Ok(data_start + len + b"endstream".len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn deep_nesting_is_found_in_objects_and_streams() {
        let deep = format!("1 0 obj {} endobj", "[".repeat(MAX_DEPTH + 1));
        assert!(check(deep.as_bytes()).unwrap_err().contains("257 levels"));
        let kids = format!("<< /Kids [{}] >>", "4 0 R ".repeat(MAX_ARRAY_REFS + 1));
        assert!(check(kids.as_bytes()).unwrap_err().contains("references"));
        let fine = format!("<< /Kids [{}] >>", "4 0 R ".repeat(MAX_ARRAY_REFS));
        assert_eq!(check(fine.as_bytes()), Ok(()));
        let fine = format!("1 0 obj {}{} endobj", "[".repeat(50), "]".repeat(50));
        assert_eq!(check(fine.as_bytes()), Ok(()));
        // Unclosed arrays do not add up across objects.
        let many = "1 0 obj [[[[ endobj\n".repeat(500);
        assert_eq!(check(many.as_bytes()), Ok(()));
        // Brackets in strings, comments and hex strings do not count.
        let quoted = format!("({}) % {}\n <5b5b>", "[".repeat(1000), "[".repeat(1000));
        assert_eq!(check(quoted.as_bytes()), Ok(()));
        let content = format!("<< /Length 5 >>\nstream\n{}\nendstream", "[".repeat(300));
        assert!(check(content.as_bytes()).is_err());
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all("<<".repeat(300).as_bytes()).unwrap();
        let mut packed = b"5 0 obj << /Type /ObjStm /Filter /FlateDecode >>\nstream\n".to_vec();
        packed.extend(z.finish().unwrap());
        packed.extend(b"\nendstream\nendobj");
        assert!(check(&packed).is_err());
        let image = format!(
            "<< /Subtype /Image >>\nstream\n{}\nendstream",
            "[".repeat(300)
        );
        assert_eq!(check(image.as_bytes()), Ok(()));
    }
}
