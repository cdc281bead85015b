//! Search answers as text for a model's context: the compact and full formats
//! of the search specification, and the `→ search` directive with its own
//! return format.

mod directive;
mod render;
mod tool;

pub use directive::{DirectiveError, looks_like_directive, parse_directive};
pub use render::{render_compact, render_directive_answer, render_full, render_sources};
pub use tool::{WEB_SEARCH_DESCRIPTION, render_search_error, render_search_text};
