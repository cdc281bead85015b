//! Tool arguments read the way clients send them, and refused in words a
//! model can act on.
//!
//! The request types accept numbers and booleans given as strings (see
//! `farsight_search::lenient`); what still cannot be read is answered with
//! the field's name and what it expects, taken from the tool's own input
//! schema (one owner of what each field takes), never with a deserializer's
//! text such as "invalid type: string, expected u32 at line 1 column 9".

use rmcp::model::JsonObject;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// An argument that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ArgError {
    /// The field as the client named it (`maxResults`), or empty when the
    /// arguments as a whole were wrong.
    pub field: String,
    /// "`maxResults` must be a whole number from 1 to 20; got \"many\"".
    pub message: String,
}

/// Reads `args` into `T`, or says which field is wrong and what it takes.
pub(crate) fn read_args<T: DeserializeOwned>(
    args: &JsonObject,
    schema: &JsonObject,
) -> Result<T, ArgError> {
    let value = Value::Object(args.clone());
    serde_path_to_error::deserialize::<_, T>(&value).map_err(|e| {
        let inner = e.inner().to_string();
        // A missing field is reported at the object that lacks it.
        let field = match inner.strip_prefix("missing field `") {
            Some(rest) => rest.split('`').next().unwrap_or_default().to_owned(),
            None => e
                .path()
                .iter()
                .next()
                .map(|segment| segment.to_string())
                .unwrap_or_default(),
        };
        let message = describe(&field, args.get(&field), schema, &inner);
        ArgError { field, message }
    })
}

/// The refusal for `field`: what it expects, and what came.
fn describe(field: &str, given: Option<&Value>, schema: &JsonObject, fallback: &str) -> String {
    if field.is_empty() {
        return format!(
            "the arguments could not be read: {}",
            first_clause(fallback)
        );
    }
    // An alias (`max_results`) is not listed: look it up by its camelCase name.
    let expects = [field.to_owned(), camel_case(field)]
        .iter()
        .find_map(|name| schema.get("properties").and_then(|p| p.get(name)))
        .map(|p| expectation(p, schema))
        .unwrap_or_else(|| expected_clause(fallback));
    match given {
        None => format!("`{field}` is required: {expects}"),
        Some(v) => format!("`{field}` must be {expects}; got {}", shown(v)),
    }
}

/// What a property's schema accepts, in words.
fn expectation(property: &Value, root: &JsonObject) -> String {
    let property = resolve(property, root);
    if let Some(values) = property.get("enum").and_then(Value::as_array) {
        let names: Vec<String> = values
            .iter()
            .filter(|v| !v.is_null())
            .map(|v| {
                v.as_str()
                    .map_or_else(|| v.to_string(), |s| format!("\"{s}\""))
            })
            .collect();
        return format!("one of {}", names.join(", "));
    }
    for alternatives in ["anyOf", "oneOf"] {
        if let Some(branches) = property.get(alternatives).and_then(Value::as_array) {
            let mut words: Vec<String> = Vec::new();
            let mut consts: Vec<String> = Vec::new();
            for b in branches {
                let b = resolve(b, root);
                if b.get("type").and_then(Value::as_str) == Some("null") {
                    continue;
                }
                if let Some(c) = b.get("const").and_then(Value::as_str) {
                    consts.push(format!("\"{c}\""));
                    continue;
                }
                let w = expectation(b, root);
                if !words.contains(&w) {
                    words.push(w);
                }
            }
            if !consts.is_empty() {
                words.insert(0, format!("one of {}", consts.join(", ")));
            }
            return words.join(" or ");
        }
    }
    let types: Vec<&str> = match property.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let kind = types.into_iter().find(|t| *t != "null").unwrap_or("");
    match kind {
        "integer" | "number" => {
            let min = property.get("minimum").and_then(Value::as_u64);
            let max = property.get("maximum").and_then(Value::as_u64);
            let what = if kind == "integer" {
                "a whole number"
            } else {
                "a number"
            };
            match (min, max) {
                (Some(lo), Some(hi)) => format!("{what} from {lo} to {hi}"),
                (Some(lo), None) if lo > 0 => format!("{what} of at least {lo}"),
                (Some(_), None) => format!("{what} of 0 or more"),
                (None, Some(hi)) => format!("{what} up to {hi}"),
                (None, None) => what.to_owned(),
            }
        }
        "boolean" => "true or false".to_owned(),
        "array" => "a list of strings".to_owned(),
        "object" => "an object".to_owned(),
        _ => "a string".to_owned(),
    }
}

/// The schema a `$ref` points to inside `root` (`#/$defs/Name`), or the
/// value itself.
fn resolve<'a>(value: &'a Value, root: &'a JsonObject) -> &'a Value {
    let Some(target) = value.get("$ref").and_then(Value::as_str) else {
        return value;
    };
    let mut node: Option<&Value> = None;
    for (i, part) in target.trim_start_matches("#/").split('/').enumerate() {
        node = if i == 0 {
            root.get(part)
        } else {
            node.and_then(|n| n.get(part))
        };
    }
    node.unwrap_or(value)
}

/// A value as the refusal quotes it: short, and never the whole of a long
/// string.
fn shown(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() <= 60 {
        return text;
    }
    let cut: String = text.chars().take(57).collect();
    format!("{cut}...")
}

/// `max_results` → `maxResults`.
fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// What a deserializer's message says was expected ("... expected a whole
/// number"), for a field the schema does not list.
fn expected_clause(message: &str) -> String {
    let message = first_clause(message);
    match message.rsplit_once("expected ") {
        Some((_, what)) => what.trim_end_matches('.').to_owned(),
        None => "a valid value".to_owned(),
    }
}

/// A deserializer's message up to its position suffix.
fn first_clause(message: &str) -> String {
    message
        .split(" at line ")
        .next()
        .unwrap_or(message)
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use farsight_search::SearchRequest;
    use serde_json::json;

    fn schema() -> JsonObject {
        let v = json!({
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "maxResults": {"type": ["integer", "null"], "minimum": 1, "maximum": 20},
                "dateRange": {"anyOf": [{"$ref": "#/$defs/DateRange"}, {"type": "null"}]},
                "safeSearch": {"type": ["boolean", "null"]},
                "includeDomains": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["query"],
            "$defs": {"DateRange": {"type": "string", "enum": ["day", "week", "month", "year"]}}
        });
        match v {
            Value::Object(o) => o,
            _ => unreachable!(),
        }
    }

    fn read(args: Value) -> Result<SearchRequest, ArgError> {
        let Value::Object(args) = args else {
            unreachable!()
        };
        read_args(&args, &schema())
    }

    #[test]
    fn strings_for_numbers_and_booleans_are_read() {
        let r = read(json!({"query": "rust", "maxResults": "2", "safeSearch": "false"})).unwrap();
        assert_eq!(r.max_results, Some(2));
        assert_eq!(r.safe_search, Some(false));
    }

    #[test]
    fn a_bad_value_names_its_field_and_what_it_takes() {
        let e = read(json!({"query": "rust", "maxResults": "many"})).unwrap_err();
        assert_eq!(e.field, "maxResults");
        assert_eq!(
            e.message,
            "`maxResults` must be a whole number from 1 to 20; got \"many\""
        );
        let e = read(json!({"query": "rust", "dateRange": "fortnight"})).unwrap_err();
        assert_eq!(
            e.message,
            "`dateRange` must be one of \"day\", \"week\", \"month\", \"year\"; got \"fortnight\""
        );
        let e = read(json!({"query": "rust", "safeSearch": "perhaps"})).unwrap_err();
        assert_eq!(
            e.message,
            "`safeSearch` must be true or false; got \"perhaps\""
        );
        let e = read(json!({"query": 42})).unwrap_err();
        assert_eq!(e.message, "`query` must be a string; got 42");
    }

    #[test]
    fn an_alias_is_described_by_its_listed_field() {
        let e = read(json!({"query": "rust", "max_results": "many"})).unwrap_err();
        assert_eq!(
            e.message,
            "`max_results` must be a whole number from 1 to 20; got \"many\""
        );
        let e = read(json!({"query": "rust", "num": "many"})).unwrap_err();
        assert_eq!(e.message, "`num` must be a whole number; got \"many\"");
    }

    #[test]
    fn a_missing_field_is_named() {
        let e = read(json!({"maxResults": 3})).unwrap_err();
        assert_eq!(e.field, "query");
        assert_eq!(e.message, "`query` is required: a string");
    }

    #[test]
    fn no_deserializer_text_reaches_the_model() {
        for bad in [
            json!({"query": "rust", "maxResults": [1]}),
            json!({"query": "rust", "includeDomains": 7}),
            json!({"query": {"a": 1}}),
        ] {
            let e = read(bad.clone()).unwrap_err();
            for leak in ["invalid type", "expected u32", "line 1", "untagged"] {
                assert!(!e.message.contains(leak), "{bad}: {}", e.message);
            }
        }
    }
}
