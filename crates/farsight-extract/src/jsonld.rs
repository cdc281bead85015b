//! The one reader of JSON-LD's shape: which nodes a block holds and how a
//! value that sites write in several ways (a string, an object with a
//! `name`, an array of either) reads as text. The page's metadata
//! (`metadata.rs`) and its structured data (`structured.rs`) both walk
//! blocks with it.

use serde_json::{Map, Value};

use crate::render::collapse_ws;

/// Arrays, `@graph`s and `mainEntity`s nested deeper than this are not
/// read: real blocks nest two or three levels, and a hostile one could nest
/// until the stack runs out.
const MAX_DEPTH: usize = 6;

/// Whether the walk goes on into a node's `mainEntity`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Descend {
    /// Read the node's `mainEntity` as nodes of the block too.
    MainEntity,
    /// The node is read; what it holds is not walked.
    Stop,
}

/// Calls `visit` on each node of a JSON-LD block: the block itself when it
/// is an object, the items of an array, the nodes of an `@graph` (before
/// the object holding it), and a node's `mainEntity` when `visit` asks.
pub(crate) fn walk(block: &Value, visit: &mut dyn FnMut(&Map<String, Value>) -> Descend) {
    walk_at(block, visit, 0);
}

fn walk_at(v: &Value, visit: &mut dyn FnMut(&Map<String, Value>) -> Descend, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::Array(a) => a.iter().for_each(|x| walk_at(x, visit, depth + 1)),
        Value::Object(o) => {
            if let Some(g) = o.get("@graph") {
                walk_at(g, visit, depth + 1);
            }
            if visit(o) == Descend::MainEntity
                && let Some(m) = o.get("mainEntity")
            {
                walk_at(m, visit, depth + 1);
            }
        }
        _ => {}
    }
}

/// Whether the node's `@type` (a name or a list of names) satisfies `pred`.
pub(crate) fn type_is(o: &Map<String, Value>, pred: impl Fn(&str) -> bool) -> bool {
    match o.get("@type") {
        Some(Value::String(s)) => pred(schema_name(s)),
        Some(Value::Array(a)) => a
            .iter()
            .any(|t| t.as_str().is_some_and(|s| pred(schema_name(s)))),
        _ => false,
    }
}

/// The node's first `@type` that satisfies `pred`, without a schema.org
/// prefix.
pub(crate) fn type_of(o: &Map<String, Value>, pred: impl Fn(&str) -> bool) -> Option<&str> {
    match o.get("@type")? {
        Value::String(s) => Some(schema_name(s)).filter(|t| pred(t)),
        Value::Array(a) => a
            .iter()
            .filter_map(Value::as_str)
            .map(schema_name)
            .find(|t| pred(t)),
        _ => None,
    }
}

/// `https://schema.org/InStock` and `schema:InStock` are `InStock`.
pub(crate) fn schema_name(s: &str) -> &str {
    let s = s.trim();
    for prefix in [
        "https://schema.org/",
        "http://schema.org/",
        "https://www.schema.org/",
        "http://www.schema.org/",
        "schema:",
    ] {
        if let Some(rest) = s.strip_prefix(prefix) {
            return rest;
        }
    }
    s
}

/// A value as one line of text: a string, a number, an object's `name`, or
/// the first of an array that reads as one.
pub(crate) fn str_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(collapse_ws(s)).filter(|s| !s.is_empty()),
        Value::Number(n) => Some(n.to_string()),
        Value::Array(a) => a.iter().find_map(str_of),
        Value::Object(o) => o.get("name").and_then(str_of),
        _ => None,
    }
}

/// The names of people or organisations given as a name, an object (a
/// `name`, or a Person's `givenName` and `familyName`), or a list of them,
/// joined with commas. URLs are not names.
pub(crate) fn names_of(v: &Value) -> Option<String> {
    match v {
        Value::Array(a) => {
            let names: Vec<String> = a.iter().filter_map(names_of).collect();
            (!names.is_empty()).then(|| names.join(", "))
        }
        Value::Object(o) => node_name(o),
        Value::String(s) if !s.starts_with("http") => {
            Some(collapse_ws(s)).filter(|s| !s.is_empty())
        }
        _ => None,
    }
}

/// A node's `name`, or a Person's `givenName` and `familyName`.
pub(crate) fn node_name(o: &Map<String, Value>) -> Option<String> {
    o.get("name").and_then(str_of).or_else(|| {
        let part = |k: &str| o.get(k).and_then(str_of);
        match (part("givenName"), part("familyName")) {
            (Some(g), Some(f)) => Some(format!("{g} {f}")),
            (g, f) => g.or(f),
        }
    })
}

/// A URL given as a string, or as an object's `url` or `@id`.
pub(crate) fn url_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_owned()).filter(|s| !s.is_empty()),
        Value::Array(a) => a.iter().find_map(url_of),
        Value::Object(o) => o.get("url").or(o.get("@id")).and_then(url_of),
        _ => None,
    }
}

/// The `@id`s of an author given by reference: an object or an array of
/// them.
pub(crate) fn ids_of(v: &Value) -> Vec<String> {
    match v {
        Value::Array(a) => a.iter().flat_map(ids_of).collect(),
        Value::Object(o) => o
            .get("@id")
            .and_then(Value::as_str)
            .map(|id| vec![id.to_owned()])
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn types(block: &Value, descend: Descend) -> Vec<String> {
        let mut seen = Vec::new();
        walk(block, &mut |o| {
            seen.push(o.get("@type").and_then(str_of).unwrap_or_default());
            descend
        });
        seen
    }

    #[test]
    fn walks_arrays_graphs_and_main_entities() {
        let block = json!([
            {"@graph": [{"@type": "WebSite"}, {"@type": "ItemPage", "mainEntity": {"@type": "Product"}}]},
            {"@type": "Organization"}
        ]);
        assert_eq!(
            types(&block, Descend::MainEntity),
            ["WebSite", "ItemPage", "Product", "", "Organization"]
        );
        assert_eq!(
            types(&block, Descend::Stop),
            ["WebSite", "ItemPage", "", "Organization"]
        );
    }

    #[test]
    fn deep_nesting_is_not_followed() {
        let mut block = json!({"@type": "Product"});
        for _ in 0..100 {
            block = json!([block]);
        }
        assert!(types(&block, Descend::MainEntity).is_empty());
    }

    #[test]
    fn reads_the_shapes_sites_write() {
        assert_eq!(
            str_of(&json!([{"name": " Acme  Inc "}])).as_deref(),
            Some("Acme Inc")
        );
        assert_eq!(str_of(&json!(19.5)).as_deref(), Some("19.5"));
        assert_eq!(
            names_of(&json!([{"givenName": "Ada", "familyName": "Lovelace"}, "Bob", "https://x"]))
                .as_deref(),
            Some("Ada Lovelace, Bob")
        );
        assert_eq!(
            url_of(&json!({"@id": "https://e.x/a"})).as_deref(),
            Some("https://e.x/a")
        );
        let o = json!({"@type": ["Thing", "https://schema.org/Product"]});
        let o = o.as_object().unwrap();
        assert!(type_is(o, |t| t == "Product"));
        assert_eq!(type_of(o, |t| t == "Product"), Some("Product"));
        assert_eq!(schema_name("http://schema.org/InStock"), "InStock");
    }
}
