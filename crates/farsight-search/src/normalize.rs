//! Turning providers' raw results into the clean results agents get.

mod date;
mod domain;
mod text;

pub(crate) use date::{civil_from_days, parse_date};
pub(crate) use domain::{DomainFilter, dedupe_key, normalize_domain, registrable_domain};
pub(crate) use text::{clean_text, cut_at_word, cut_snippet};
