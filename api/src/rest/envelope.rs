//! The `{success, message, data}` envelope every REST response uses, errors included.

use axum::{
    Json,
    http::{HeaderValue, StatusCode, header::RETRY_AFTER},
    response::{IntoResponse, Response},
};
use serde_json::{Map, Value, json};

use crate::error::{Code, Error};

/// A REST failure: status from the code, the message, and the field errors when there are any.
#[derive(Debug)]
pub struct ErrorResponse {
    pub code: Code,
    pub message: String,
    pub errors: Option<Map<String, Value>>,
    pub retry_after_secs: Option<u64>,
}

impl ErrorResponse {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            errors: None,
            retry_after_secs: None,
        }
    }
}

impl From<Error> for ErrorResponse {
    fn from(err: Error) -> Self {
        if let Error::Internal(cause) = &err {
            tracing::error!(error = ?cause, "internal error");
        }
        let errors = match &err {
            Error::Validation(fields) => Some(
                fields
                    .iter()
                    .map(|(f, m)| (f.to_owned(), Value::from(m)))
                    .collect(),
            ),
            _ => None,
        };
        let retry_after_secs = err.retry_after();
        Self {
            code: err.code(),
            message: err.to_string(),
            errors,
            retry_after_secs,
        }
    }
}

impl IntoResponse for ErrorResponse {
    fn into_response(self) -> Response {
        let mut body = json!({
            "success": false,
            "message": self.message,
            "code": self.code.as_str(),
        });
        if let Some(errors) = self.errors {
            body["errors"] = Value::Object(errors);
        }
        let mut response = (self.code.status(), Json(body)).into_response();
        if let Some(secs) = self.retry_after_secs {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

#[derive(serde::Serialize)]
struct Success<'a, T> {
    success: bool,
    data: &'a T,
}

/// The JSON of a success with `data` and no message, for a caller that keeps it (a cache).
///
/// # Errors
/// When `data` cannot be serialised, which the API's own types always can.
pub fn data_json<T: serde::Serialize>(data: &T) -> serde_json::Result<Vec<u8>> {
    serde_json::to_vec(&Success { success: true, data })
}

/// A REST success with `data` and no message, serialised straight from typed values (the
/// routes that skip GraphQL).
pub fn data<T: serde::Serialize>(data: &T) -> Response {
    Json(Success { success: true, data }).into_response()
}

/// A REST success.
pub fn success(status: StatusCode, message: Option<String>, data: Option<Value>) -> Response {
    let mut body = Map::new();
    body.insert("success".to_owned(), Value::Bool(true));
    if let Some(message) = message {
        body.insert("message".to_owned(), Value::String(message));
    }
    if let Some(data) = data {
        body.insert("data".to_owned(), data);
    }
    (status, Json(Value::Object(body))).into_response()
}
