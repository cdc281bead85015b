//! The JSON Schemas a client sees in `tools/list`, derived from the Rust
//! types (the one owner of each shape) and tidied for clients and models.
//!
//! Why not rmcp's `schema_for_output` alone: an output schema must describe
//! EVERY answer a tool gives, errors included, because the official
//! TypeScript SDK validates `structuredContent` against it even when
//! `isError` is true; a schema of the success type alone turns every error
//! into protocol error -32602. And schemars writes formats that are not JSON
//! Schema (`uint`, `uint32`, `int64`, `double`) that clients warn about, and
//! `$schema`, titles and prose that cost tokens on every `tools/list`.
//!
//! Input schemas keep each parameter's own description: it documents the
//! parameter for the model. The prose schemars copies from a parameter's type
//! and enum variants goes (it repeats the parameter's), and so does `null` in
//! optional parameters (a client leaves them out). Output schemas carry no
//! prose at all: the tool description says what the answer means, and each
//! word in `tools/list` is paid for in every session.

use std::sync::Arc;

use rmcp::model::JsonObject;
use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

/// The input schema of a tool whose arguments are `T`: what a client may send
/// (the deserialize contract), descriptions kept.
pub(crate) fn input_schema<T: JsonSchema>() -> Arc<JsonObject> {
    Arc::new(root_object::<T>(Contract::Input))
}

/// The output schema of a tool that answers with `S` on success and `E` on
/// error: the union of their properties, `required` holding only what every
/// answer has, so each answer validates.
pub(crate) fn output_schema<S: JsonSchema, E: JsonSchema>() -> Arc<JsonObject> {
    let success = root_object::<S>(Contract::Output);
    let error = root_object::<E>(Contract::Output);
    Arc::new(merge(success, error))
}

/// The output schema of a tool that answers with one `T` (success, partial
/// or error) or with `M`, which holds several `T`s: `M`'s lists of `T` refer
/// back to the root (`"items": {"$ref": "#"}`), so `T`'s schema is written
/// once and not twice (it is most of the tool's `tools/list` cost), and both
/// answers validate.
pub(crate) fn output_schema_one_or_many<T: JsonSchema, M: JsonSchema>() -> Arc<JsonObject> {
    let one = root_object::<T>(Contract::Output);
    let mut many = root_object::<M>(Contract::Output);
    if let Some(Value::Object(properties)) = many.get_mut("properties") {
        for property in properties.values_mut() {
            let Value::Object(property) = property else {
                continue;
            };
            let lists_one = property.get("type").and_then(Value::as_str) == Some("array")
                && property.get("items").and_then(Value::as_object) == Some(&one);
            if lists_one {
                property.insert("items".to_owned(), serde_json::json!({"$ref": "#"}));
            }
        }
    }
    Arc::new(merge(one, many))
}

/// In an output schema, an enum longer than this is written as its type: the
/// error kinds (twenty names, repeated in a search error's `errorKind`, each
/// attempt's and each result's `contentError`) would cost a fifth of the
/// `tools/list` budget, and a model reads the kind in the answer itself, with
/// its message and suggestion. Short enums (`status`) stay listed.
const OUTPUT_ENUM_MAX_VALUES: usize = 8;

/// Which side of the wire a schema describes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Contract {
    /// Arguments the server reads: serde's defaults and aliases apply.
    Input,
    /// Answers the server writes: a field skipped when empty is not required.
    Output,
}

/// `T`'s schema as a tidied JSON object with `type: "object"` at the root.
fn root_object<T: JsonSchema>(contract: Contract) -> JsonObject {
    let mut settings = SchemaSettings::draft2020_12();
    // Each type is used once or twice in a tool: inline definitions are
    // shorter than `$defs` plus `$ref`, and simpler for clients to read.
    settings.inline_subschemas = true;
    settings.meta_schema = None;
    let settings = match contract {
        Contract::Input => settings.for_deserialize(),
        Contract::Output => settings.for_serialize(),
    };
    let mut value = settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    tidy(&mut value, contract, Place::Other);
    let mut object = match value {
        Value::Object(object) => object,
        // A `true` schema (anything goes) is the empty object schema.
        _ => Map::new(),
    };
    object.insert("type".to_owned(), Value::String("object".to_owned()));
    object
}

/// The formats of JSON Schema 2020-12 (§7.3 of the validation vocabulary);
/// any other is dropped.
pub const STANDARD_FORMATS: [&str; 19] = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Keywords whose value is one subschema.
const ONE_SUBSCHEMA: [&str; 10] = [
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// Keywords whose value is a list of subschemas.
const LIST_OF_SUBSCHEMAS: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];

/// Keywords whose value maps names to subschemas (the names are data, not
/// keywords: a property called "description" must stay).
const MAP_OF_SUBSCHEMAS: [&str; 4] = [
    "properties",
    "patternProperties",
    "$defs",
    "dependentSchemas",
];

/// Where a subschema sits: the value of a property, or anywhere else (the
/// root, an array's items, a member of `anyOf`...).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Property,
    Other,
}

/// Tidies one schema and, depth first, every subschema in it.
fn tidy(schema: &mut Value, contract: Contract, place: Place) {
    let Value::Object(object) = schema else {
        return;
    };
    for key in ONE_SUBSCHEMA {
        if let Some(sub) = object.get_mut(key) {
            tidy(sub, contract, Place::Other);
        }
    }
    for key in LIST_OF_SUBSCHEMAS {
        if let Some(Value::Array(subs)) = object.get_mut(key) {
            subs.iter_mut()
                .for_each(|s| tidy(s, contract, Place::Other));
        }
    }
    for key in MAP_OF_SUBSCHEMAS {
        let place = if key == "properties" {
            Place::Property
        } else {
            Place::Other
        };
        if let Some(Value::Object(subs)) = object.get_mut(key) {
            subs.values_mut().for_each(|s| tidy(s, contract, place));
        }
    }
    standard_format(object);
    object.remove("title");
    object.remove("$schema");
    if matches!(
        object.get("default"),
        Some(Value::Null | Value::Bool(false))
    ) || object.get("default").and_then(Value::as_u64) == Some(0)
    {
        // "default: null" on an optional argument says nothing, and false
        // or 0 say what leaving it out means anyway (no images, from the
        // start); each costs tokens on every `tools/list`.
        object.remove("default");
    }
    if object.get("additionalProperties") == Some(&Value::Bool(true)) {
        // What JSON Schema assumes when the keyword is absent.
        object.remove("additionalProperties");
    }
    // A parameter's description is what the model reads about it; the
    // descriptions schemars copies from the parameter's type and its enum
    // variants repeat it in other words. Answers are explained by the tool
    // description, so an output schema carries no prose at all.
    if contract == Contract::Output || place == Place::Other {
        object.remove("description");
    }
    if contract == Contract::Output {
        object.remove("default");
        object.remove("examples");
        // Bounds on what the server writes help no client and cost tokens
        // on every `tools/list`; inputs keep theirs (they guide the model).
        object.remove("minimum");
        object.remove("maximum");
    }
    consts_to_enum(object);
    if contract == Contract::Output
        && object
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|values| values.len() > OUTPUT_ENUM_MAX_VALUES)
    {
        object.remove("enum");
    }
    match contract {
        // A client never needs to send null for an optional argument: it
        // leaves the argument out (null is still accepted).
        Contract::Input => without_null(object),
        // A field that is left out when empty is never null when present.
        Contract::Output => optional_properties_without_null(object),
    }
}

/// The same schema without `null` among its types: `type: [T, "null"]`
/// becomes `type: T`, and `anyOf: [X, {type: "null"}]` becomes `X`.
fn without_null(object: &mut JsonObject) {
    if let Some(Value::Array(types)) = object.get_mut("type") {
        types.retain(|t| t != "null");
        if let [one] = types.as_slice() {
            let one = one.clone();
            object.insert("type".to_owned(), one);
        }
    }
    if let Some(Value::Array(values)) = object.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(members)) = object.get_mut(key) else {
            continue;
        };
        members.retain(|m| m.get("type") != Some(&Value::String("null".to_owned())));
        if members.len() == 1 {
            let Some(Value::Object(member)) = members.pop() else {
                continue;
            };
            object.remove(key);
            // The member's keywords join the property's; the property's own
            // description (what the model reads) wins.
            for (k, v) in member {
                object.entry(k).or_insert(v);
            }
        }
    }
}

/// In an answer's object, the properties that may be left out lose `null`:
/// an `Option` field skipped when `None` is never written as null. A field
/// always written (required) keeps it.
fn optional_properties_without_null(object: &mut JsonObject) {
    let required: Vec<String> = match object.get("required") {
        Some(Value::Array(r)) => r
            .iter()
            .filter_map(|n| n.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    let Some(Value::Object(properties)) = object.get_mut("properties") else {
        return;
    };
    for (name, schema) in properties.iter_mut() {
        if !required.contains(name)
            && let Value::Object(property) = schema
        {
            without_null(property);
        }
    }
}

/// Drops a non-standard `format`; an unsigned integer keeps its meaning as
/// `minimum: 0`, the standard way to say it.
fn standard_format(object: &mut JsonObject) {
    let Some(Value::String(format)) = object.get("format") else {
        return;
    };
    if STANDARD_FORMATS.contains(&format.as_str()) {
        return;
    }
    let unsigned = format.starts_with("uint");
    object.remove("format");
    if unsigned && !object.contains_key("minimum") && !object.contains_key("exclusiveMinimum") {
        object.insert("minimum".to_owned(), Value::from(0));
    }
}

/// `oneOf: [{const: "a", description: ...}, {const: "b"}]`, what schemars
/// writes for an enum with documented variants, becomes `enum: ["a", "b"]`:
/// a third of the size, and the field's own description names the values.
/// In an output schema the descriptions are already gone; in an input schema
/// the variants' descriptions go with this (the field's description is what
/// the model reads).
fn consts_to_enum(object: &mut JsonObject) {
    for key in ["oneOf", "anyOf"] {
        let Some(Value::Array(variants)) = object.get(key) else {
            continue;
        };
        let mut values = Vec::with_capacity(variants.len());
        let mut types: Vec<Value> = Vec::new();
        for variant in variants {
            let Some(v) = variant.as_object() else {
                return;
            };
            let Some(value) = v.get("const") else {
                return;
            };
            if v.keys()
                .any(|k| !matches!(k.as_str(), "const" | "type" | "description"))
            {
                return;
            }
            if let Some(t) = v.get("type")
                && !types.contains(t)
            {
                types.push(t.clone());
            }
            values.push(value.clone());
        }
        if values.is_empty() {
            return;
        }
        object.remove(key);
        if let [one] = types.as_slice() {
            object.insert("type".to_owned(), one.clone());
        }
        object.insert("enum".to_owned(), Value::Array(values));
        return;
    }
}

/// One object schema that accepts what `a` accepts and what `b` accepts:
/// every property of either (a property both have with different schemas
/// takes either), required only when both require it.
fn merge(mut a: JsonObject, mut b: JsonObject) -> JsonObject {
    let mut properties = match a.remove("properties") {
        Some(Value::Object(p)) => p,
        _ => Map::new(),
    };
    if let Some(Value::Object(more)) = b.remove("properties") {
        for (name, schema) in more {
            match properties.get_mut(&name) {
                None => {
                    properties.insert(name, schema);
                }
                Some(existing) if *existing == schema => {}
                Some(existing) => {
                    let mine = existing.take();
                    *existing = serde_json::json!({ "anyOf": [mine, schema] });
                }
            }
        }
    }
    let names = |o: &JsonObject| -> Vec<Value> {
        match o.get("required") {
            Some(Value::Array(r)) => r.clone(),
            _ => Vec::new(),
        }
    };
    let theirs = names(&b);
    let required: Vec<Value> = names(&a)
        .into_iter()
        .filter(|n| theirs.contains(n))
        .collect();
    a.remove("required");
    a.insert("properties".to_owned(), Value::Object(properties));
    if !required.is_empty() {
        a.insert("required".to_owned(), Value::Array(required));
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    /// Fields of the kinds schemars gives non-standard formats.
    #[derive(Serialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Found {
        /// The query.
        query: String,
        /// How many.
        total: u64,
        /// Seconds.
        time: f64,
        #[serde(skip_serializing_if = "Option::is_none")]
        small: Option<u32>,
        /// Which kind.
        kind: Kind,
        /// A property whose NAME is a keyword.
        description: Option<String>,
    }

    /// A documented enum, which schemars writes as `oneOf` of consts.
    #[derive(Serialize, JsonSchema)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code)]
    enum Kind {
        /// First.
        First,
        /// Second.
        Second,
    }

    #[derive(Serialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Failed {
        /// The query.
        query: String,
        error_kind: String,
        retryable: bool,
        /// Same name as a success field, another type, not always written.
        #[serde(skip_serializing_if = "Option::is_none")]
        total: Option<String>,
    }

    fn formats(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(o) => {
                if let Some(Value::String(f)) = o.get("format") {
                    out.push(f.clone());
                }
                o.values().for_each(|x| formats(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| formats(x, out)),
            _ => {}
        }
    }

    #[test]
    fn output_schemas_merge_and_keep_only_standard_keywords() {
        let schema = Value::Object(output_schema::<Found, Failed>().as_ref().clone());
        let mut found = Vec::new();
        formats(&schema, &mut found);
        assert!(found.is_empty(), "{found:?} in {schema}");
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], serde_json::json!(["query"]), "{schema}");
        let p = &schema["properties"];
        // No bounds on what the server writes: they cost tokens, help no client.
        assert_eq!(
            p["total"]["anyOf"][0],
            serde_json::json!({"type": "integer"})
        );
        assert_eq!(
            p["total"]["anyOf"][1]["type"], "string",
            "skipped when None"
        );
        assert_eq!(p["small"]["type"], "integer", "skipped when None: {schema}");
        let always = serde_json::json!(["string", "null"]);
        assert_eq!(
            p["description"]["type"], always,
            "always written, may be null"
        );
        assert_eq!(p["kind"]["enum"], serde_json::json!(["first", "second"]));
        assert!(
            p["description"].is_object(),
            "a property named description stays"
        );
        assert!(p["query"].get("description").is_none(), "{schema}");
        assert!(p["errorKind"].is_object() && p["time"].is_object());
        assert!(schema.get("$schema").is_none() && schema.get("title").is_none());
    }

    #[derive(Serialize, JsonSchema)]
    #[allow(dead_code)]
    struct Several {
        kind: Kind,
        results: Vec<Found>,
    }

    #[test]
    fn one_or_many_lists_the_one_by_reference() {
        let schema = Value::Object(
            output_schema_one_or_many::<Found, Several>()
                .as_ref()
                .clone(),
        );
        let p = &schema["properties"];
        assert_eq!(
            p["results"],
            serde_json::json!({"type": "array", "items": {"$ref": "#"}}),
            "{schema}"
        );
        assert_eq!(
            p["query"]["type"], "string",
            "the one's own properties stay"
        );
        assert_eq!(schema["required"], serde_json::json!(["kind"]), "{schema}");
        let validator = jsonschema::draft202012::new(&schema).unwrap();
        let one = serde_json::json!({"query": "q", "total": 1, "time": 0.5, "kind": "first", "description": null});
        assert!(validator.is_valid(&one));
        let several = serde_json::json!({"kind": "second", "results": [one]});
        assert!(validator.is_valid(&several), "{schema}");
        let bad = serde_json::json!({"kind": "second", "results": [{"kind": "third"}]});
        assert!(
            !validator.is_valid(&bad),
            "each result is checked against the one"
        );
    }

    fn hundred() -> u32 {
        100
    }

    /// Arguments with defaults, and an open object.
    #[derive(serde::Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct WithDefaults {
        #[serde(default)]
        flag: bool,
        #[serde(default)]
        start: u32,
        #[serde(default = "hundred")]
        window: u32,
        #[serde(default)]
        extra: serde_json::Map<String, Value>,
    }

    #[test]
    fn defaults_that_say_nothing_go() {
        let schema = input_schema::<WithDefaults>();
        let p = &schema["properties"];
        assert!(p["flag"].get("default").is_none(), "false goes: {schema:?}");
        assert!(p["start"].get("default").is_none(), "0 goes: {schema:?}");
        assert_eq!(p["window"]["default"], 100, "{schema:?}");
        assert_eq!(p["extra"]["type"], "object", "{schema:?}");
        assert!(
            p["extra"].get("additionalProperties").is_none(),
            "{schema:?}"
        );
    }

    #[test]
    fn input_schemas_keep_descriptions() {
        let schema = input_schema::<Found>();
        let p = &schema["properties"];
        assert_eq!(p["query"]["description"], "The query.");
        assert!(schema.get("$schema").is_none() && schema.get("$defs").is_none());
        assert!(
            schema.get("description").is_none(),
            "the tool describes itself"
        );
        assert_eq!(
            p["small"]["type"], "integer",
            "an argument is left out, not null"
        );
        assert_eq!(p["kind"]["enum"], serde_json::json!(["first", "second"]));
        assert_eq!(p["kind"]["description"], "Which kind.", "{schema:?}");
    }
}
