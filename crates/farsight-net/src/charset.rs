//! Turning body bytes into UTF-8 text: byte order mark first (as WHATWG
//! browsers do), then the `Content-Type` charset, then a `<meta>` prescan for
//! HTML, then statistical detection (chardetng).

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

/// How many bytes the `<meta>` prescan looks at, as in the WHATWG spec.
const PRESCAN_BYTES: usize = 1024;
/// chardetng converges long before this; feeding it megabytes only costs time.
const DETECT_BYTES: usize = 64 * 1024;

/// Decodes `body`, returning the text and the encoding used.
pub(crate) fn decode(
    body: &[u8],
    header_charset: Option<&str>,
    is_html: bool,
) -> (String, &'static Encoding) {
    let (encoding, skip) = choose(body, header_charset, is_html);
    let (text, _had_errors) = encoding.decode_without_bom_handling(&body[skip..]);
    (text.into_owned(), encoding)
}

/// The encoding and the number of BOM bytes to skip.
fn choose(body: &[u8], header_charset: Option<&str>, is_html: bool) -> (&'static Encoding, usize) {
    if let Some((enc, len)) = Encoding::for_bom(body) {
        return (enc, len);
    }
    if let Some(enc) = header_charset.and_then(|l| Encoding::for_label(l.trim().as_bytes())) {
        return (enc, 0);
    }
    let head = &body[..body.len().min(PRESCAN_BYTES)];
    let declared = if is_html {
        prescan(head)
    } else {
        xml_declaration(head)
    };
    if let Some(enc) = declared {
        return (enc, 0);
    }
    let sample = &body[..body.len().min(DETECT_BYTES)];
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(sample, sample.len() == body.len());
    (detector.guess(None, chardetng::Utf8Detection::Allow), 0)
}

/// The WHATWG "prescan a byte stream to determine its encoding", reduced to
/// what matters: comments, `<meta charset>`, `<meta http-equiv=content-type
/// content="...charset=...">`, and skipping other tags' attributes.
pub(crate) fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"<!--") {
            i += 4 + find(&rest[4..], b"-->").map_or(rest.len(), |p| p + 3);
        } else if starts_with_ci(rest, b"<meta")
            && rest.get(5).is_some_and(|&c| is_space(c) || c == b'/')
        {
            i += 5;
            let mut got_pragma = false;
            let mut charset: Option<&'static Encoding> = None;
            let mut content_charset: Option<&'static Encoding> = None;
            while let Some((name, value, next)) = attribute(bytes, i) {
                i = next;
                match name.as_slice() {
                    b"http-equiv" => got_pragma |= value.eq_ignore_ascii_case(b"content-type"),
                    b"charset" if charset.is_none() => charset = Encoding::for_label(trim(&value)),
                    b"content" if content_charset.is_none() => {
                        content_charset =
                            charset_from_content(&value).and_then(Encoding::for_label);
                    }
                    _ => {}
                }
            }
            let found = charset.or(if got_pragma { content_charset } else { None });
            if let Some(enc) = found {
                // A page cannot really be UTF-16 if its ASCII markup was just read.
                return Some(if enc == UTF_16BE || enc == UTF_16LE {
                    UTF_8
                } else if enc == X_USER_DEFINED {
                    WINDOWS_1252
                } else {
                    enc
                });
            }
        } else if rest.len() > 1
            && rest[0] == b'<'
            && (rest[1].is_ascii_alphabetic()
                || (rest[1] == b'/' && rest.get(2).is_some_and(u8::is_ascii_alphabetic)))
        {
            // Another tag: step over its name, then its attributes (whose values
            // may contain a '>' inside quotes).
            i += 1;
            while i < bytes.len() && !is_space(bytes[i]) && bytes[i] != b'>' {
                i += 1;
            }
            while let Some((_, _, next)) = attribute(bytes, i) {
                i = next;
            }
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            i += find(rest, b">").map_or(rest.len(), |p| p + 1);
        } else {
            i += 1;
        }
    }
    None
}

/// The `encoding` of an XML declaration (`<?xml version="1.0" encoding="..."?>`)
/// at the very start. UTF-16 is left to the byte order mark: a declaration
/// readable as ASCII cannot be UTF-16.
fn xml_declaration(head: &[u8]) -> Option<&'static Encoding> {
    let decl = head.strip_prefix(b"<?xml")?;
    let end = find(decl, b"?>")?;
    let decl = &decl[..end];
    let pos = find(decl, b"encoding")?;
    let rest = decl[pos + 8..]
        .trim_ascii_start()
        .strip_prefix(b"=")?
        .trim_ascii_start();
    let (&q, rest) = rest.split_first()?;
    if q != b'"' && q != b'\'' {
        return None;
    }
    let label = &rest[..rest.iter().position(|&c| c == q)?];
    Encoding::for_label(label).filter(|e| *e != UTF_16BE && *e != UTF_16LE)
}

/// Reads one attribute starting at `i`: `(lower-case name, value, next index)`,
/// or `None` at the end of the tag (`i` is then past the `>`).
fn attribute(bytes: &[u8], mut i: usize) -> Option<(Vec<u8>, Vec<u8>, usize)> {
    while i < bytes.len() && (is_space(bytes[i]) || bytes[i] == b'/') {
        i += 1;
    }
    if i >= bytes.len() || bytes[i] == b'>' {
        return None;
    }
    let mut name = Vec::new();
    while i < bytes.len() && !is_space(bytes[i]) && !matches!(bytes[i], b'=' | b'>' | b'/') {
        name.push(bytes[i].to_ascii_lowercase());
        i += 1;
    }
    if name.is_empty() {
        // A stray '=' or similar: consume it so the loop progresses.
        name.push(bytes[i]);
        i += 1;
    }
    while i < bytes.len() && is_space(bytes[i]) {
        i += 1;
    }
    if i >= bytes.len() || bytes[i] != b'=' {
        return Some((name, Vec::new(), i));
    }
    i += 1;
    while i < bytes.len() && is_space(bytes[i]) {
        i += 1;
    }
    let mut value = Vec::new();
    match bytes.get(i) {
        Some(&q @ (b'"' | b'\'')) => {
            i += 1;
            while i < bytes.len() && bytes[i] != q {
                value.push(bytes[i].to_ascii_lowercase());
                i += 1;
            }
            i += 1;
        }
        _ => {
            while i < bytes.len() && !is_space(bytes[i]) && bytes[i] != b'>' {
                value.push(bytes[i].to_ascii_lowercase());
                i += 1;
            }
        }
    }
    Some((name, value, i.min(bytes.len())))
}

/// "Extract a character encoding from a meta element" (`text/html; charset=x`).
fn charset_from_content(content: &[u8]) -> Option<&[u8]> {
    let pos = find(content, b"charset")?;
    let mut rest = &content[pos + 7..];
    while rest.first().is_some_and(|&c| is_space(c)) {
        rest = &rest[1..];
    }
    rest = rest.strip_prefix(b"=")?;
    while rest.first().is_some_and(|&c| is_space(c)) {
        rest = &rest[1..];
    }
    match rest.first() {
        Some(&q @ (b'"' | b'\'')) => {
            let end = rest[1..].iter().position(|&c| c == q)?;
            Some(&rest[1..=end])
        }
        Some(_) => {
            let end = rest
                .iter()
                .position(|&c| is_space(c) || c == b';')
                .unwrap_or(rest.len());
            Some(&rest[..end])
        }
        None => None,
    }
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

fn trim(v: &[u8]) -> &[u8] {
    v.trim_ascii()
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn starts_with_ci(hay: &[u8], prefix: &[u8]) -> bool {
    hay.len() >= prefix.len() && hay[..prefix.len()].eq_ignore_ascii_case(prefix)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn decoding_never_panics(
            bytes in proptest::collection::vec(any::<u8>(), 0..4096),
            label in proptest::option::of("[a-zA-Z0-9_-]{0,12}"),
            html in any::<bool>(),
        ) {
            let _ = decode(&bytes, label.as_deref(), html);
            let _ = prescan(&bytes);
            let _ = xml_declaration(&bytes);
        }

        #[test]
        fn prescan_never_panics_on_markup_like_input(s in "(<meta|<!--|-->|<|>|=|'|\"|charset|http-equiv|content| |/|[a-z0-9;-])*") {
            let _ = prescan(s.as_bytes());
        }
    }

    #[test]
    fn bom_beats_header_and_meta() {
        let mut body = vec![0xEF, 0xBB, 0xBF];
        body.extend_from_slice("<meta charset=shift_jis>é".as_bytes());
        let (text, enc) = decode(&body, Some("iso-8859-1"), true);
        assert_eq!(enc, UTF_8);
        assert_eq!(text, "<meta charset=shift_jis>é");
    }

    #[test]
    fn utf16_with_bom() {
        let mut body = vec![0xFF, 0xFE];
        for u in "Grüße, мир".encode_utf16() {
            body.extend_from_slice(&u.to_le_bytes());
        }
        let (text, enc) = decode(&body, None, false);
        assert_eq!(enc, UTF_16LE);
        assert_eq!(text, "Grüße, мир");
    }

    #[test]
    fn header_charset_is_used() {
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode("Привет, мир");
        let (text, enc) = decode(&bytes, Some("windows-1251"), false);
        assert_eq!(enc.name(), "windows-1251");
        assert_eq!(text, "Привет, мир");
    }

    #[test]
    fn prescan_finds_meta_forms() {
        let cases: [(&[u8], Option<&str>); 8] = [
            (
                b"<html><head><meta charset=\"Shift_JIS\">",
                Some("Shift_JIS"),
            ),
            (b"<meta charset='windows-1251'/>", Some("windows-1251")),
            (
                b"<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=ISO-8859-1\">",
                Some("windows-1252"),
            ),
            // content without http-equiv does not count
            (b"<meta content=\"text/html; charset=koi8-r\">", None),
            (
                b"<!-- <meta charset=koi8-r> --><meta charset=euc-kr>",
                Some("EUC-KR"),
            ),
            (
                b"<div title='<meta charset=koi8-r>'><meta charset=gbk>",
                Some("GBK"),
            ),
            (b"<meta charset=utf-16le>", Some("UTF-8")),
            (b"<metal charset=koi8-r>", None),
        ];
        for (html, want) in cases {
            assert_eq!(
                prescan(html).map(Encoding::name),
                want,
                "{}",
                String::from_utf8_lossy(html)
            );
        }
    }

    #[test]
    fn prescan_survives_truncated_markup() {
        for html in [
            &b"<meta charset="[..],
            b"<meta",
            b"<!--",
            b"<div a='",
            b"<meta http-equiv=x content='charset=",
        ] {
            let _ = prescan(html);
        }
    }

    #[test]
    fn xml_declaration_names_the_encoding() {
        let (bytes, _, _) = encoding_rs::WINDOWS_1251
            .encode("<?xml version=\"1.0\" encoding='windows-1251'?><r>Привет</r>");
        let (text, enc) = decode(&bytes, None, false);
        assert_eq!(enc.name(), "windows-1251");
        assert!(text.ends_with("<r>Привет</r>"));
        assert_eq!(xml_declaration(b"<?xml version=\"1.0\"?>"), None);
        assert_eq!(xml_declaration(b"<?xml encoding=\"utf-16\"?>"), None);
        assert_eq!(xml_declaration(b"<?xml encoding=\"koi8"), None);
    }

    #[test]
    fn detection_when_nothing_is_declared() {
        let (bytes, _, _) = encoding_rs::SHIFT_JIS
            .encode("日本語のテキストです。これは文字コードの判定のための十分な長さの文章です。");
        let (text, enc) = decode(&bytes, None, false);
        assert_eq!(enc.name(), "Shift_JIS");
        assert!(text.starts_with("日本語のテキスト"));
    }
}
