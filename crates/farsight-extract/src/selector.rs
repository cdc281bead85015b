//! CSS selectors given by the caller: parsed once, and when they cannot be,
//! a reason a person can act on instead of the parser's debug output
//! (`ParseError { kind: Custom(DanglingCombinator) }`).

use std::fmt;

use cssparser::{BasicParseErrorKind, ParseErrorKind};
use dom_query::Matcher;
use selectors::parser::SelectorParseErrorKind;

/// A CSS selector that cannot be parsed: the selector and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidSelector {
    selector: String,
    reason: &'static str,
}

impl InvalidSelector {
    /// The selector as it was given.
    #[must_use]
    pub fn selector(&self) -> &str {
        &self.selector
    }

    /// Why it cannot be parsed, in a few words ("a combinator has nothing after it").
    #[must_use]
    pub fn reason(&self) -> &str {
        self.reason
    }
}

impl fmt::Display for InvalidSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a valid CSS selector: {}",
            self.selector, self.reason
        )
    }
}

impl std::error::Error for InvalidSelector {}

/// Checks that `selector` parses, before any page is fetched.
///
/// # Errors
///
/// [`InvalidSelector`] naming the selector and what is wrong with it.
pub fn check_selector(selector: &str) -> Result<(), InvalidSelector> {
    matcher(selector).map(|_| ())
}

/// The longest selector accepted, in bytes.
pub const MAX_SELECTOR_BYTES: usize = 1_024;

/// The matcher for `selector`, or why there is none.
pub(crate) fn matcher(selector: &str) -> Result<Matcher, InvalidSelector> {
    if selector.len() > MAX_SELECTOR_BYTES {
        // A selector is a few dozen characters; a huge one is an attack on
        // the matcher's cost (it runs against every element of the page).
        let shown: String = selector.chars().take(60).collect();
        return Err(InvalidSelector {
            selector: format!("{shown}…"),
            reason: "it is longer than the 1,024 characters a selector may have",
        });
    }
    Matcher::new(selector).map_err(|e| InvalidSelector {
        selector: selector.to_owned(),
        reason: reason(&e.kind, selector.trim().is_empty()),
    })
}

fn reason(kind: &ParseErrorKind<SelectorParseErrorKind>, blank: bool) -> &'static str {
    use SelectorParseErrorKind as S;
    match kind {
        ParseErrorKind::Basic(BasicParseErrorKind::EndOfInput) => {
            "it ends too early (an unclosed bracket, parenthesis or quote, or a \".\", \"#\" or \":\" with no name after it?)"
        }
        ParseErrorKind::Basic(_) => "it contains a character or token that cannot appear there",
        ParseErrorKind::Custom(custom) => match custom {
            S::EmptySelector if blank => "it is empty",
            S::EmptySelector => {
                "it does not start with a tag, class, id, attribute or pseudo-class"
            }
            S::DanglingCombinator => "a combinator (>, +, ~) has nothing after it",
            S::ClassNeedsIdent => "a class name must follow \".\"",
            S::NoIdentForPseudo | S::PseudoElementExpectedIdent | S::PseudoElementExpectedColon => {
                "a pseudo-class or pseudo-element name must follow \":\""
            }
            S::UnsupportedPseudoClassOrElement => {
                "it uses an unsupported pseudo-class or pseudo-element"
            }
            S::NoQualifiedNameInAttributeSelector
            | S::UnexpectedTokenInAttributeSelector
            | S::ExpectedBarInAttr
            | S::BadValueInAttr
            | S::InvalidQualNameInAttr => "an attribute selector [...] is malformed",
            S::ExpectedNamespace | S::ExplicitNamespaceUnexpectedToken => {
                "it uses a namespace prefix, which is not supported"
            }
            _ => "its syntax is not supported",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_selectors_pass() {
        for s in [
            ".infobox",
            "#main > p",
            "table.prices td:first-child",
            "a[href^=\"http\"]",
        ] {
            assert_eq!(check_selector(s), Ok(()), "{s}");
        }
    }

    #[test]
    fn a_huge_selector_is_refused_before_parsing_and_not_echoed_whole() {
        let huge = ".a ".repeat(MAX_SELECTOR_BYTES);
        let e = check_selector(&huge).expect_err("too long");
        let text = e.to_string();
        assert!(text.contains("longer than"), "{text}");
        assert!(text.len() < 300, "{text}");
    }

    #[test]
    fn invalid_selectors_say_why_without_a_debug_dump() {
        for (s, why) in [
            ("div[", "ends too early"),
            ("div >", "combinator"),
            ("", "empty"),
            (" ", "empty"),
            (".", "ends too early"),
            ("p:nonsense-pseudo", "unsupported pseudo"),
            ("%%%", "does not start with"),
        ] {
            let e = check_selector(s).expect_err(s);
            let text = e.to_string();
            assert!(
                text.starts_with(&format!("{s:?} is not a valid CSS selector: ")),
                "{text}"
            );
            assert!(e.reason().contains(why), "{s}: {text}");
            assert!(
                !text.contains("ParseError") && !text.contains("Custom("),
                "{text}"
            );
        }
    }
}
