//! Turning providers' raw results into the clean results agents get.

mod date;
mod domain;
mod text;

pub(crate) use date::{parse_date, split_date_prefix};
pub(crate) use domain::{DomainFilter, dedupe_key, dedupe_key_str, registrable_domain};
/// What a `site`/`includeDomains`/`excludeDomains` entry means: the fetch
/// blocklist's rule, owned by `farsight-net`.
pub(crate) use farsight_net::normalize_domain;
pub(crate) use text::{clean_text, cut_at_word, cut_snippet};
