//! A REST request body read into the domain's form: the same command a resolver builds from
//! its input object, checked by serde instead of the GraphQL validator; and the path's
//! parameters, whose refusals answer in the envelope too.

use axum::{
    body::Bytes,
    extract::{
        FromRequest, FromRequestParts, MatchedPath, Path, Request, path::ErrorKind, rejection::PathRejection,
    },
    http::request::Parts,
};
use percent_encoding::percent_decode_str;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::error::Code;
use crate::http::error::ErrorResponse;

/// The body as a `T`. Empty means `{}`; keys `T` does not have are ignored (a client may send
/// a confirmation field, or the read-only fields of a user it read).
pub struct Input<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Input<T> {
    type Rejection = ErrorResponse;

    async fn from_request(request: Request, state: &S) -> Result<Self, ErrorResponse> {
        let bytes = Bytes::from_request(request, state).await?;
        parse(&bytes).map(Self)
    }
}

/// The path's parameters as a `T` (a `String`, or a tuple of them), as axum's `Path` reads
/// them. A segment whose percent-encoding is not UTF-8 (`/api/orgs/%ff`) is read with each
/// such byte as U+FFFD: it names nothing, so the handler answers it as it answers any unknown
/// id or token (API.md: "an unknown or malformed id in a path is 404"), in the envelope
/// rather than in axum's plain-text refusal.
pub struct Segments<T>(pub T);

/// The answer when a segment cannot be read even so (a route with no template).
pub const PATH_NOT_UTF8: &str = "The request path holds a character that is not valid UTF-8";

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Segments<T> {
    type Rejection = ErrorResponse;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ErrorResponse> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(value)) => Ok(Self(value)),
            Err(PathRejection::FailedToDeserializePathParams(err))
                if matches!(err.kind(), ErrorKind::InvalidUtf8InPathParam { .. }) =>
            {
                lossy(parts)
                    .map(Self)
                    .ok_or_else(|| ErrorResponse::new(Code::BadUserInput, PATH_NOT_UTF8))
            }
            // Parameters that do not fit `T`: a bug in the route, not the request.
            Err(other) => Err(ErrorResponse::from(crate::error::Error::internal(
                anyhow::anyhow!("path parameters: {other}"),
            ))),
        }
    }
}

/// The parameters read again from the path itself, beside the route's template (the API's
/// routes carry their whole path, no wildcards), each decoded with U+FFFD for what is not UTF-8.
fn lossy<T: DeserializeOwned>(parts: &Parts) -> Option<T> {
    let template = parts.extensions.get::<MatchedPath>()?.as_str();
    let path = parts.uri.path();
    if template.split('/').count() != path.split('/').count() {
        return None;
    }
    let mut values: Vec<Value> = template
        .split('/')
        .zip(path.split('/'))
        .filter(|(name, _)| name.starts_with('{') && name.ends_with('}'))
        .map(|(_, segment)| Value::String(percent_decode_str(segment).decode_utf8_lossy().into_owned()))
        .collect();
    let value = match values.len() {
        1 => values.pop()?,
        _ => Value::Array(values),
    };
    serde_json::from_value(value).ok()
}

/// `bytes` as a `T`, or the error naming what is wrong with it.
fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ErrorResponse> {
    let object = match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        None => return parse(b"{}"),
        Some(b) => *b == b'{',
    };
    if object {
        let mut deserializer = serde_json::Deserializer::from_slice(bytes);
        match serde_path_to_error::deserialize::<_, T>(&mut deserializer) {
            Ok(value) if deserializer.end().is_ok() => return Ok(value),
            Err(err) if err.inner().is_data() => return Err(wrong_type(&err.path().to_string())),
            _ => {}
        }
    }
    if !object && serde_json::from_slice::<Value>(bytes).is_ok() {
        return Err(ErrorResponse::new(
            Code::BadUserInput,
            "The request body must be a JSON object",
        ));
    }
    Err(ErrorResponse::new(
        Code::BadUserInput,
        "The request body is not valid JSON",
    ))
}

/// A field of the wrong type (a number for a string, an object for a flag), named by its path.
fn wrong_type(path: &str) -> ErrorResponse {
    if path.is_empty() || path == "." || path.contains('?') {
        return ErrorResponse::new(
            Code::BadUserInput,
            "The request body does not have the expected shape",
        );
    }
    let message = format!("{path} has the wrong type");
    let mut response = ErrorResponse::new(Code::BadUserInput, message.clone());
    response.errors = Some(Map::from_iter([(path.to_owned(), Value::String(message))]));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Default, Debug, PartialEq)]
    #[serde(default, rename_all = "camelCase")]
    struct Form {
        email: Option<String>,
        notifications: Option<Flags>,
    }

    #[derive(serde::Deserialize, Default, Debug, PartialEq)]
    #[serde(default)]
    struct Flags {
        sms: Option<bool>,
    }

    fn message(body: &str) -> String {
        parse::<Form>(body.as_bytes()).unwrap_err().message
    }

    #[test]
    fn an_empty_body_is_an_empty_form_and_unknown_keys_are_ignored() {
        assert_eq!(parse::<Form>(b"  ").unwrap(), Form::default());
        let form = parse::<Form>(br#"{"email":"a@b.co","confirm":"x"}"#).unwrap();
        assert_eq!(form.email.as_deref(), Some("a@b.co"));
    }

    #[test]
    fn a_field_of_the_wrong_type_is_named_by_its_path() {
        assert_eq!(message(r#"{"email":5}"#), "email has the wrong type");
        assert_eq!(
            message(r#"{"notifications":{"sms":"yes"}}"#),
            "notifications.sms has the wrong type"
        );
    }

    #[test]
    fn a_body_that_is_not_an_object_or_not_json_says_so() {
        assert_eq!(message("[1]"), "The request body must be a JSON object");
        assert_eq!(message("{\"email\":"), "The request body is not valid JSON");
        assert_eq!(message("{} {}"), "The request body is not valid JSON");
        assert_eq!(message("nope"), "The request body is not valid JSON");
    }
}
