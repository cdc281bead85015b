//! Tool arguments as clients really send them: numbers and booleans also as
//! strings (`"2"`, `"false"`: the MCP Inspector sends every argument typed
//! into its form as a string), lists also as one comma-separated string.
//!
//! Each function is a serde `deserialize_with` for one field type; a value
//! that cannot be read is refused with what was expected, and the caller
//! names the field (see the MCP layer's argument reader).

use serde::Deserialize;
use serde::de::{self, Deserializer, Unexpected};

/// A JSON value in the shapes a client may send for a scalar.
#[derive(Deserialize)]
#[serde(untagged)]
enum Scalar {
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Text(String),
}

fn unsigned<E: de::Error>(value: Scalar, max: u64) -> Result<u64, E> {
    let expected = &"a whole number";
    let n = match value {
        Scalar::Unsigned(n) => n,
        Scalar::Signed(n) => return Err(E::invalid_value(Unexpected::Signed(n), expected)),
        Scalar::Float(f) if f.fract() == 0.0 && f >= 0.0 && f <= max as f64 => f as u64,
        Scalar::Float(f) => return Err(E::invalid_value(Unexpected::Float(f), expected)),
        Scalar::Bool(b) => return Err(E::invalid_type(Unexpected::Bool(b), expected)),
        Scalar::Text(s) => s
            .trim()
            .parse::<u64>()
            .map_err(|_| E::invalid_value(Unexpected::Str(&s), expected))?,
    };
    if n > max {
        return Err(E::invalid_value(Unexpected::Unsigned(n), expected));
    }
    Ok(n)
}

fn boolean<E: de::Error>(value: Scalar) -> Result<bool, E> {
    let expected = &"true or false";
    match value {
        Scalar::Bool(b) => Ok(b),
        Scalar::Unsigned(0) => Ok(false),
        Scalar::Unsigned(1) => Ok(true),
        Scalar::Text(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" => Ok(true),
            "false" | "0" | "no" | "off" => Ok(false),
            _ => Err(E::invalid_value(Unexpected::Str(&s), expected)),
        },
        Scalar::Unsigned(n) => Err(E::invalid_value(Unexpected::Unsigned(n), expected)),
        Scalar::Signed(n) => Err(E::invalid_value(Unexpected::Signed(n), expected)),
        Scalar::Float(f) => Err(E::invalid_value(Unexpected::Float(f), expected)),
    }
}

/// An optional scalar: `null` (or an empty string) is `None`.
fn optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Scalar>, D::Error> {
    Ok(match Option::<Scalar>::deserialize(d)? {
        Some(Scalar::Text(s)) if s.trim().is_empty() => None,
        other => other,
    })
}

/// A whole number, or a string holding one.
pub fn usize<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let n = unsigned(Scalar::deserialize(d)?, usize::MAX as u64)?;
    Ok(n as usize)
}

/// A whole number of at least 1, or a string holding one (`maxLength: 0`
/// asks for nothing and is refused, as the CLI refuses it).
pub fn positive_usize<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    match usize(d)? {
        0 => Err(de::Error::invalid_value(
            Unexpected::Unsigned(0),
            &"a whole number of at least 1",
        )),
        n => Ok(n),
    }
}

/// An optional whole number, or a string holding one.
pub fn opt_usize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    optional(d)?
        .map(|v| unsigned(v, usize::MAX as u64).map(|n| n as usize))
        .transpose()
}

/// An optional whole number up to `u32::MAX`, or a string holding one.
pub fn opt_u32<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    optional(d)?
        .map(|v| unsigned(v, u64::from(u32::MAX)).map(|n| n as u32))
        .transpose()
}

/// `true`/`false`, or a string or 0/1 saying so.
pub fn bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    boolean(Scalar::deserialize(d)?)
}

/// An optional boolean, or a string saying so.
pub fn opt_bool<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    optional(d)?.map(boolean).transpose()
}

/// A list of strings, or one string of comma-separated entries (a JSON
/// array written as a string is read as the array).
pub fn string_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let entries = list(d, |one| one.split(',').map(str::to_owned).collect())?;
    Ok(entries
        .into_iter()
        .map(|e| e.trim().to_owned())
        .filter(|e| !e.is_empty())
        .collect())
}

/// A list of URLs as clients send it: a list, a JSON list written as a
/// string (the Inspector sends every argument as a string), or one URL.
/// Never split on commas, unlike [`string_list`]: URLs hold commas
/// (`https://en.wikipedia.org/wiki/Washington,_D.C.`).
pub fn url_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    list(d, |one| {
        if one.is_empty() {
            Vec::new()
        } else {
            vec![one.to_owned()]
        }
    })
}

/// A list, or one string: a JSON array written as a string is the array,
/// any other string (trimmed) is read by `one`.
fn list<'de, D: Deserializer<'de>>(
    d: D,
    one: impl FnOnce(&str) -> Vec<String>,
) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum List {
        Many(Vec<String>),
        One(String),
    }
    Ok(match Option::<List>::deserialize(d)? {
        None => Vec::new(),
        Some(List::Many(v)) => v,
        Some(List::One(s)) => {
            let trimmed = s.trim();
            match serde_json::from_str::<Vec<String>>(trimmed) {
                Ok(v) if trimmed.starts_with('[') => v,
                _ => one(trimmed),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    struct Args {
        #[serde(default, deserialize_with = "super::opt_u32")]
        n: Option<u32>,
        #[serde(default, deserialize_with = "super::bool")]
        b: bool,
        #[serde(default, deserialize_with = "super::string_list")]
        l: Vec<String>,
    }

    fn read(v: serde_json::Value) -> Result<Args, String> {
        serde_json::from_value(v).map_err(|e| e.to_string())
    }

    #[test]
    fn strings_are_read_as_what_they_say() {
        let a = read(serde_json::json!({"n": "7", "b": "FALSE", "l": "[\"a\", \"b\"]"})).unwrap();
        assert_eq!(
            (a.n, a.b, a.l),
            (Some(7), false, vec!["a".into(), "b".into()])
        );
        let a = read(serde_json::json!({"n": 3.0, "b": 1, "l": ["x", " "]})).unwrap();
        assert_eq!((a.n, a.b, a.l), (Some(3), true, vec!["x".into()]));
        let a = read(serde_json::json!({"n": null, "b": "yes"})).unwrap();
        assert_eq!((a.n, a.b), (None, true));
        assert_eq!(read(serde_json::json!({"n": ""})).unwrap().n, None);
    }

    #[test]
    fn unreadable_values_say_what_was_expected() {
        for bad in [
            serde_json::json!({"n": "many"}),
            serde_json::json!({"n": -2}),
            serde_json::json!({"n": 2.5}),
            serde_json::json!({"n": true}),
            serde_json::json!({"n": 5_000_000_000u64}),
        ] {
            let e = read(bad.clone()).unwrap_err();
            assert!(e.contains("a whole number"), "{bad}: {e}");
        }
        #[derive(Deserialize, Debug)]
        struct Window {
            #[serde(deserialize_with = "super::positive_usize")]
            _n: usize,
        }
        for zero in [serde_json::json!({"_n": 0}), serde_json::json!({"_n": "0"})] {
            let e = serde_json::from_value::<Window>(zero)
                .unwrap_err()
                .to_string();
            assert!(e.contains("at least 1"), "{e}");
        }
        let e = read(serde_json::json!({"b": "maybe"})).unwrap_err();
        assert!(e.contains("true or false"), "{e}");
    }
}
