//! A field of a partial update: left out, cleared with `null`, or set.

use serde::{Deserialize, Deserializer};

/// What a partial update does to one optional field. Deserialised with `#[serde(default)]`
/// on the field's struct, a missing key is [`Patch::Unchanged`] and `null` is [`Patch::Clear`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Patch<T> {
    #[default]
    Unchanged,
    Clear,
    Set(T),
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Patch<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Option::<T>::deserialize(deserializer)?.map_or(Self::Clear, Self::Set))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct Form {
        bio: Patch<String>,
    }

    #[test]
    fn a_missing_key_leaves_the_field_null_clears_it_a_value_sets_it() {
        let parse = |json: &str| serde_json::from_str::<Form>(json).unwrap().bio;
        assert_eq!(parse("{}"), Patch::Unchanged);
        assert_eq!(parse(r#"{"bio":null}"#), Patch::Clear);
        assert_eq!(parse(r#"{"bio":"hi"}"#), Patch::Set("hi".to_owned()));
    }
}
