//! The `{success, message, data}` envelope of every REST success; failures are
//! [`crate::http::error::ErrorResponse`].

use axum::{
    body::Body,
    http::{
        HeaderValue,
        header::{CONTENT_TYPE, SET_COOKIE},
    },
    response::{IntoResponse, Response},
};
use std::borrow::Cow;

use crate::{
    error::Error,
    http::error::{ErrorResponse, success_status},
};

#[derive(serde::Serialize)]
struct Success<'a, T> {
    success: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<&'a T>,
}

/// The JSON of a success with `data` and no message, for a caller that keeps it (a cache).
///
/// # Errors
/// When `data` cannot be serialised, which the API's own types always can.
pub fn data_json<T: serde::Serialize>(data: &T) -> serde_json::Result<Vec<u8>> {
    serde_json::to_vec(&Success {
        success: true,
        message: None,
        data: Some(data),
    })
}

/// The buffer a reply's JSON starts in.
const BODY_CAPACITY: usize = 1024;

/// What a REST handler answers: a success, or the error the one mapping turns into HTTP.
pub type Answer<T = ()> = Result<Reply<T>, ErrorResponse>;

/// A REST success: whether it made something (201), the message, the typed `data`, and the
/// cookies it sets.
#[must_use]
pub struct Reply<T = ()> {
    created: bool,
    message: Option<Cow<'static, str>>,
    data: Option<T>,
    cookies: Vec<String>,
}

impl Reply {
    /// A success whose only content is its message.
    pub fn message(message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            created: false,
            message: Some(message.into()),
            data: None,
            cookies: Vec::new(),
        }
    }
}

impl<T: serde::Serialize> Reply<T> {
    /// A success carrying `data`.
    pub fn data(data: T) -> Self {
        Self {
            created: false,
            message: None,
            data: Some(data),
            cookies: Vec::new(),
        }
    }

    pub fn with_message(mut self, message: impl Into<Cow<'static, str>>) -> Self {
        self.message = Some(message.into());
        self
    }

    pub fn created(mut self) -> Self {
        self.created = true;
        self
    }

    pub fn with_cookies(mut self, cookies: impl IntoIterator<Item = String>) -> Self {
        self.cookies.extend(cookies);
        self
    }

    /// The same reply around other data (one shape of a union, say).
    pub fn map<U: serde::Serialize>(self, wrap: impl FnOnce(T) -> U) -> Reply<U> {
        Reply {
            created: self.created,
            message: self.message,
            data: self.data.map(wrap),
            cookies: self.cookies,
        }
    }
}

impl<T: serde::Serialize> IntoResponse for Reply<T> {
    fn into_response(self) -> Response {
        let body = Success {
            success: true,
            message: self.message.as_deref(),
            data: self.data.as_ref(),
        };
        // Sized for the usual answer (an account is about 650 bytes): `Json` starts at 128 bytes
        // and grows three times on the way, copying what it wrote each time.
        let mut json = Vec::with_capacity(BODY_CAPACITY);
        if let Err(err) = serde_json::to_writer(&mut json, &body) {
            // Logged as an internal error by the conversion.
            return ErrorResponse::from(Error::internal(err)).into_response();
        }
        let mut response = (
            success_status(self.created),
            [(CONTENT_TYPE, HeaderValue::from_static("application/json"))],
            Body::from(json),
        )
            .into_response();
        for cookie in self.cookies {
            match HeaderValue::from_str(&cookie) {
                Ok(value) => {
                    response.headers_mut().append(SET_COOKIE, value);
                }
                Err(err) => tracing::error!(error = %err, "a cookie is not a header value"),
            }
        }
        response
    }
}
