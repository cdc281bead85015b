//! `Content-Encoding: deflate`, decoded as browsers do: HTTP says the body
//! is zlib (RFC 1950), but some servers send raw deflate (RFC 1951) under
//! the same name, which reqwest's own decoder (zlib only) fails on (issue
//! #11). The first two bytes tell which: a zlib header names method 8 in its
//! low nibble and is a multiple of 31 read as a big-endian number.

use flate2::{Decompress, FlushDecompress, Status};

/// Output produced per call into the decoder: small enough that the byte
/// cap is checked often, large enough to be cheap.
const STEP: usize = 32 * 1024;

/// Why decoding stopped.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Inflated {
    /// All input so far is decoded; more may come.
    More,
    /// The output reached the cap; the rest is not decoded.
    Full,
    /// The compressed stream ended.
    End,
}

/// A streaming deflate decoder that writes at most a cap of bytes.
pub(crate) struct Inflater {
    /// Chosen once the first two bytes are seen.
    decoder: Option<Decompress>,
    /// The first byte, while the second has not arrived.
    head: Vec<u8>,
    ended: bool,
}

impl Inflater {
    pub(crate) fn new() -> Self {
        Self {
            decoder: None,
            head: Vec::new(),
            ended: false,
        }
    }

    /// Decodes `input` onto `out`, which never grows beyond `cap` bytes.
    pub(crate) fn push(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        cap: usize,
    ) -> Result<Inflated, flate2::DecompressError> {
        if self.ended {
            return Ok(Inflated::End);
        }
        if self.decoder.is_none() {
            self.head.extend_from_slice(input);
            if self.head.len() < 2 {
                return Ok(Inflated::More);
            }
            self.decoder = Some(Decompress::new(is_zlib(&self.head)));
            let head = std::mem::take(&mut self.head);
            return self.decode(&head, out, cap);
        }
        self.decode(input, out, cap)
    }

    /// Decodes what is left at the end of the body (a one-byte body).
    pub(crate) fn finish(
        &mut self,
        out: &mut Vec<u8>,
        cap: usize,
    ) -> Result<Inflated, flate2::DecompressError> {
        if self.decoder.is_none() && !self.head.is_empty() {
            self.decoder = Some(Decompress::new(false));
            let head = std::mem::take(&mut self.head);
            return self.decode(&head, out, cap);
        }
        Ok(Inflated::End)
    }

    fn decode(
        &mut self,
        mut input: &[u8],
        out: &mut Vec<u8>,
        cap: usize,
    ) -> Result<Inflated, flate2::DecompressError> {
        let Some(d) = self.decoder.as_mut() else {
            return Ok(Inflated::More);
        };
        let mut buf = vec![0u8; STEP];
        loop {
            if out.len() >= cap {
                return Ok(Inflated::Full);
            }
            let (in_before, out_before) = (d.total_in(), d.total_out());
            let status = d.decompress(input, &mut buf, FlushDecompress::None)?;
            let used = usize::try_from(d.total_in() - in_before).unwrap_or(input.len());
            let made = usize::try_from(d.total_out() - out_before).unwrap_or(0);
            input = &input[used.min(input.len())..];
            let room = cap - out.len();
            out.extend_from_slice(&buf[..made.min(room)]);
            if made > room {
                return Ok(Inflated::Full);
            }
            if status == Status::StreamEnd {
                self.ended = true;
                return Ok(Inflated::End);
            }
            // Nothing consumed and nothing made: it needs more input.
            if used == 0 && made == 0 {
                return Ok(Inflated::More);
            }
        }
    }
}

/// Whether a body starts with a zlib header (RFC 1950 section 2.2).
fn is_zlib(head: &[u8]) -> bool {
    match head {
        [cmf, flg, ..] => cmf & 0x0F == 8 && ((u16::from(*cmf) << 8) | u16::from(*flg)) % 31 == 0,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use flate2::Compression;
    use flate2::write::{DeflateEncoder, ZlibEncoder};

    use super::*;

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn raw(data: &[u8]) -> Vec<u8> {
        let mut e = DeflateEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// Feeds `body` in chunks of `size` bytes, as a network would.
    fn inflate(body: &[u8], size: usize, cap: usize) -> (Vec<u8>, Inflated) {
        let mut inf = Inflater::new();
        let mut out = Vec::new();
        let mut last = Inflated::More;
        for chunk in body.chunks(size) {
            last = inf.push(chunk, &mut out, cap).unwrap();
            if last == Inflated::Full {
                return (out, last);
            }
        }
        if last == Inflated::More {
            last = inf.finish(&mut out, cap).unwrap();
        }
        (out, last)
    }

    #[test]
    fn zlib_and_raw_deflate_both_decode_whatever_the_chunking() {
        let page = b"<html><body><p>words words words</p></body></html>".repeat(200);
        for body in [zlib(&page), raw(&page)] {
            for size in [1, 2, 3, 7, 1000, body.len()] {
                let (out, end) = inflate(&body, size, usize::MAX);
                assert_eq!(out, page, "chunks of {size}");
                assert_eq!(end, Inflated::End);
            }
        }
    }

    #[test]
    fn the_header_check_tells_them_apart() {
        assert!(is_zlib(&zlib(b"x")));
        assert!(!is_zlib(&raw(b"<html>")));
        assert!(!is_zlib(b"<h"));
    }

    #[test]
    fn a_bomb_stops_at_the_cap() {
        let bomb = raw(&vec![0u8; 50 * 1024 * 1024]);
        let (out, end) = inflate(&bomb, 4096, 1024 * 1024);
        assert_eq!(out.len(), 1024 * 1024);
        assert_eq!(end, Inflated::Full);
    }

    #[test]
    fn damaged_data_is_an_error() {
        let mut inf = Inflater::new();
        let mut out = Vec::new();
        let damaged = [0x78, 0x9c, 0xff, 0xff, 0xff, 0xff, 0xff];
        assert!(inf.push(&damaged, &mut out, usize::MAX).is_err());
    }
}
