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

/// The query string as a `T`, or `None` when it does not read as one (a limit that is not a
/// number, say: the handler then lets the domain answer with the field's own text). A
/// parameter given twice is refused here, by its name: read as a bad form, it would be blamed
/// on another field.
pub struct Params<T>(pub Option<T>);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ErrorResponse;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ErrorResponse> {
        match axum::extract::Query::<T>::try_from_uri(&parts.uri) {
            Ok(axum::extract::Query(params)) => Ok(Self(Some(params))),
            Err(_) => match repeated(parts.uri.query().unwrap_or_default()) {
                Some(name) => {
                    Err(crate::error::Error::field(&name, format!("{name} may be given only once")).into())
                }
                None => Ok(Self(None)),
            },
        }
    }
}

/// The first parameter a query string gives twice.
fn repeated(query: &str) -> Option<String> {
    let mut seen = std::collections::HashSet::new();
    url::form_urlencoded::parse(query.as_bytes())
        .map(|(name, _)| name.into_owned())
        .find(|name| !seen.insert(name.clone()))
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
            Err(err) if err.inner().is_data() => {
                return Err(match duplicated(&err) {
                    Some(field) => {
                        crate::error::Error::field(&field, format!("{field} may be given only once")).into()
                    }
                    None => wrong_types::<T>(bytes, err.path().to_string()),
                });
            }
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

/// The field a body gives twice (`{"email": …, "email": …}`), by its path: read either way it
/// would be blamed on nothing, or taken for what it is not.
fn duplicated(err: &serde_path_to_error::Error<serde_json::Error>) -> Option<String> {
    let message = err.inner().to_string();
    let name = message.strip_prefix("duplicate field `")?.split('`').next()?;
    let path = err.path().to_string();
    Some(if path.is_empty() || path == "." {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    })
}

/// The most fields of the wrong type one answer names.
const MAX_WRONG_TYPES: usize = 32;

/// Every field of the wrong type (a number for a string, an object for a flag), named by its
/// path, `first` the one serde met first: like the other field errors, all at once. Each is
/// found by reading the body again without the ones found so far (every form's fields may be
/// left out).
fn wrong_types<T: DeserializeOwned>(bytes: &[u8], first: String) -> ErrorResponse {
    let shapeless = |path: &str| path.is_empty() || path == "." || path.contains('?');
    if shapeless(&first) {
        return ErrorResponse::new(
            Code::BadUserInput,
            "The request body does not have the expected shape",
        );
    }
    let mut paths = vec![first];
    if let Ok(mut body) = serde_json::from_slice::<Value>(bytes) {
        while paths.len() < MAX_WRONG_TYPES && paths.last().is_some_and(|path| remove(&mut body, path)) {
            match serde_path_to_error::deserialize::<_, T>(body.clone()) {
                Err(err) if err.inner().is_data() && !shapeless(&err.path().to_string()) => {
                    let path = err.path().to_string();
                    if paths.contains(&path) {
                        break;
                    }
                    paths.push(path);
                }
                _ => break,
            }
        }
    }
    let errors: Map<String, Value> = paths
        .iter()
        .map(|path| (path.clone(), Value::String(format!("{path} has the wrong type"))))
        .collect();
    let mut response = ErrorResponse::new(Code::BadUserInput, format!("{} has the wrong type", paths[0]));
    response.errors = Some(errors);
    response
}

/// Takes the field at a dotted `path` (object keys only) out of `body`; false when there is none.
fn remove(body: &mut Value, path: &str) -> bool {
    let mut keys: Vec<&str> = path.split('.').collect();
    let Some(last) = keys.pop() else {
        return false;
    };
    let mut at = body;
    for key in keys {
        match at.get_mut(key) {
            Some(next) => at = next,
            None => return false,
        }
    }
    at.as_object_mut()
        .is_some_and(|object| object.remove(last).is_some())
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
    fn a_field_given_twice_is_named_by_its_path() {
        assert_eq!(
            message(r#"{"email":"a@b.co","email":"c@d.co"}"#),
            "email may be given only once"
        );
        let err = parse::<Form>(br#"{"notifications":{"sms":true,"sms":false}}"#).unwrap_err();
        assert_eq!(err.message, "notifications.sms may be given only once");
        assert!(
            err.errors
                .is_some_and(|errors| errors.contains_key("notifications.sms"))
        );
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
    fn every_field_of_the_wrong_type_is_named_at_once() {
        let refused = parse::<Form>(br#"{"email":5,"notifications":{"sms":"yes"}}"#).unwrap_err();
        assert_eq!(refused.message, "email has the wrong type");
        let errors = refused.errors.unwrap();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!(
            errors["notifications.sms"],
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
