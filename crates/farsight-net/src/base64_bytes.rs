//! Serde for optional byte bodies as one base64 string: documents are kept
//! in JSON cache entries, where a `Vec<u8>` would be a list of numbers.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Deserializer, Serializer};

pub(crate) fn serialize<S: Serializer>(bytes: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
    match bytes {
        Some(b) => s.serialize_some(&STANDARD.encode(b)),
        None => s.serialize_none(),
    }
}

pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
    let text: Option<String> = Option::deserialize(d)?;
    text.map(|t| STANDARD.decode(t).map_err(serde::de::Error::custom))
        .transpose()
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Holder {
        #[serde(default, with = "super")]
        bytes: Option<Vec<u8>>,
    }

    #[test]
    fn round_trips_and_rejects_bad_text() {
        let h = Holder {
            bytes: Some(vec![0, 1, 2, 255]),
        };
        let json = serde_json::to_string(&h).unwrap();
        assert_eq!(json, r#"{"bytes":"AAEC/w=="}"#);
        assert_eq!(serde_json::from_str::<Holder>(&json).unwrap(), h);
        assert_eq!(
            serde_json::from_str::<Holder>("{}").unwrap(),
            Holder { bytes: None }
        );
        assert!(serde_json::from_str::<Holder>(r#"{"bytes":"!!"}"#).is_err());
    }
}
