//! A field of a partial update: left out, cleared with `null`, or set.

use std::{fmt, marker::PhantomData};

use serde::{
    Deserialize, Deserializer,
    de::{self, MapAccess, Visitor, value::MapAccessDeserializer},
};

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

/// A whole-number field of a partial update (`#[serde(deserialize_with = "whole")]`), written
/// `3` or `3.0`: JSON Schema's `integer` admits both, so a client built from the OpenAPI
/// document may send either. `null` clears it. A whole number past `i32` is read as the
/// nearest one within it, so the field's own range check names the range.
///
/// # Errors
/// A fraction, or anything but a number or null.
pub fn whole<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Patch<i32>, D::Error> {
    let Some(number) = Option::<serde_json::Number>::deserialize(deserializer)? else {
        return Ok(Patch::Clear);
    };
    let saturated = |n: i64| i32::try_from(n).unwrap_or(if n < 0 { i32::MIN } else { i32::MAX });
    number
        .as_i64()
        .map(saturated)
        .or_else(|| number.as_u64().map(|_| i32::MAX))
        .or_else(|| {
            number
                .as_f64()
                .filter(|f| f.fract() == 0.0)
                // `as` saturates: a float past i32 becomes its nearest end.
                .map(|f| f as i32)
        })
        .map(Patch::Set)
        .ok_or_else(|| de::Error::invalid_value(de::Unexpected::Other("number"), &"a whole number"))
}

/// A nested form's field (`#[serde(deserialize_with = "object_or_null")]`): a JSON object, or
/// null or left out for none. serde alone would also read an array as the fields in their
/// order (`[true, false]`), which no client means.
///
/// # Errors
/// Anything but an object or null.
pub fn object_or_null<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct ObjectOrNull<T>(PhantomData<T>);

    impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectOrNull<T> {
        type Value = Option<T>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object or null")
        }

        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_some<D2: Deserializer<'de>>(self, deserializer: D2) -> Result<Self::Value, D2::Error> {
            deserializer.deserialize_map(self)
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            T::deserialize(MapAccessDeserializer::new(map)).map(Some)
        }
    }

    deserializer.deserialize_option(ObjectOrNull(PhantomData))
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

    #[derive(Deserialize, Default, Debug, PartialEq)]
    #[serde(default)]
    struct Outer {
        #[serde(deserialize_with = "object_or_null")]
        inner: Option<Form2>,
    }

    #[derive(Deserialize, Default, Debug, PartialEq)]
    #[serde(default)]
    struct Form2 {
        on: Option<bool>,
    }

    #[test]
    fn a_nested_form_is_an_object_or_null_never_an_array() {
        let parse = |json: &str| serde_json::from_str::<Outer>(json).map(|o| o.inner);
        assert_eq!(parse("{}").unwrap(), None);
        assert_eq!(parse(r#"{"inner":null}"#).unwrap(), None);
        assert_eq!(
            parse(r#"{"inner":{"on":true}}"#).unwrap(),
            Some(Form2 { on: Some(true) })
        );
        let refused = parse(r#"{"inner":[true]}"#).unwrap_err().to_string();
        assert!(refused.contains("an object or null"), "{refused}");
    }

    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct Seats {
        #[serde(deserialize_with = "whole")]
        limit: Patch<i32>,
    }

    #[test]
    fn a_whole_number_may_be_written_with_a_zero_fraction() {
        let parse = |json: &str| serde_json::from_str::<Seats>(json).map(|s| s.limit);
        assert_eq!(parse("{}").unwrap(), Patch::Unchanged);
        assert_eq!(parse(r#"{"limit":null}"#).unwrap(), Patch::Clear);
        assert_eq!(parse(r#"{"limit":25}"#).unwrap(), Patch::Set(25));
        assert_eq!(parse(r#"{"limit":25.0}"#).unwrap(), Patch::Set(25));
        // Past i32, the nearest end: the field's range check then says what the range is.
        assert_eq!(parse(r#"{"limit":1e10}"#).unwrap(), Patch::Set(i32::MAX));
        assert_eq!(parse(r#"{"limit":2147483648}"#).unwrap(), Patch::Set(i32::MAX));
        assert_eq!(
            parse(r#"{"limit":18446744073709551615}"#).unwrap(),
            Patch::Set(i32::MAX)
        );
        assert_eq!(parse(r#"{"limit":-9999999999}"#).unwrap(), Patch::Set(i32::MIN));
        for refused in [r#"{"limit":2.5}"#, r#"{"limit":"25"}"#, r#"{"limit":true}"#] {
            assert!(parse(refused).is_err(), "{refused}");
        }
    }
}
