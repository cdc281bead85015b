//! The cache's middle level: entries in Redis, shared by every farsight
//! instance that uses it (issue 15).
//!
//! Key: `farsight:v{FORMAT}:{namespace}:{sha256(key)}`, so keys have one
//! length and no caller text. Value: [`MAGIC`], the format version (u16,
//! big-endian), then the bytes. Two farsight versions can share one Redis
//! during a rolling upgrade: the version is in the key and checked again in
//! the value, and a value without the header (corrupt, or written by
//! something else) is a miss. Entries expire in Redis (`SET ... PX ttl`);
//! a hit tells the memory level how long the entry has left (`PTTL`).

use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::redis_link::RedisLink;

/// The layout of keys and values. Bump it when either changes: instances of
/// the old version then neither read nor overwrite the new entries.
pub(crate) const FORMAT: u16 = 1;
/// The first bytes of every value farsight writes to Redis.
const MAGIC: &[u8; 4] = b"FSC\x00";
/// Larger values are not written to Redis (a page is capped well below; a
/// value this large would slow every instance that reads it).
pub(crate) const MAX_VALUE: usize = 8 * 1024 * 1024;

/// The Redis key of `namespace`/`key`.
pub(crate) fn key(namespace: &str, key: &str) -> String {
    let digest = Sha256::digest(key.as_bytes());
    format!("farsight:v{FORMAT}:{namespace}:{}", hex::encode(digest))
}

/// The value as stored: header, then the bytes.
fn encode(value: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(MAGIC.len() + 2 + value.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT.to_be_bytes());
    out.extend_from_slice(value);
    out
}

/// The bytes of a stored value, or `None` when its header is not ours.
fn decode(mut stored: Vec<u8>) -> Option<Vec<u8>> {
    let header = MAGIC.len() + 2;
    if stored.len() < header || &stored[..MAGIC.len()] != MAGIC {
        return None;
    }
    let version = u16::from_be_bytes([stored[MAGIC.len()], stored[MAGIC.len() + 1]]);
    if version != FORMAT {
        return None;
    }
    stored.drain(..header);
    Some(stored)
}

/// The value under `namespace`/`key` and the time it has left; `None` on a
/// miss, a foreign value, or Redis unavailable.
pub(crate) async fn get(
    link: &RedisLink,
    namespace: &str,
    key_text: &str,
) -> Option<(Vec<u8>, Duration)> {
    let k = key(namespace, key_text);
    let mut pipe = redis::pipe();
    pipe.cmd("GET").arg(&k).cmd("PTTL").arg(&k);
    let (stored, pttl): (Option<Vec<u8>>, i64) = link.query_pipe(&pipe).await?;
    let value = decode(stored?)?;
    // PTTL is -1 for a key without expiry (not written by farsight), -2
    // when it expired between the two commands.
    let left = u64::try_from(pttl).ok().filter(|ms| *ms > 0)?;
    Some((value, Duration::from_millis(left)))
}

/// Stores `value` for `ttl`, unless it is larger than [`MAX_VALUE`]. Failures
/// are the link's to record; the caller carries on.
pub(crate) async fn put(
    link: &RedisLink,
    namespace: &str,
    key_text: &str,
    value: &[u8],
    ttl: Duration,
) {
    let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
    if value.len() > MAX_VALUE || ttl_ms == 0 {
        return;
    }
    let mut cmd = redis::cmd("SET");
    cmd.arg(key(namespace, key_text))
        .arg(encode(value))
        .arg("PX")
        .arg(ttl_ms);
    let _: Option<()> = link.query(&cmd).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_foreign_ones_are_refused() {
        assert_eq!(decode(encode(b"page")).as_deref(), Some(&b"page"[..]));
        assert_eq!(decode(encode(b"")).as_deref(), Some(&b""[..]));
        assert_eq!(decode(b"page".to_vec()), None);
        let mut other_version = encode(b"page");
        other_version[MAGIC.len() + 1] ^= 0xff;
        assert_eq!(decode(other_version), None);
    }

    #[test]
    fn keys_are_versioned_hashed_and_namespaced() {
        let k = key("page", "https://example.com/");
        assert!(k.starts_with("farsight:v1:page:"), "{k}");
        assert_eq!(k.len(), "farsight:v1:page:".len() + 64);
        assert_ne!(k, key("document", "https://example.com/"));
    }
}
