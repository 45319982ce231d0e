//! The one mapping of domain errors to HTTP: each code's status, and the REST error envelope
//! `{success: false, message, code, errors}` with `Retry-After` when the caller should wait;
//! and the OAuth endpoints' RFC 6749 errors, which keep their own format.

use axum::{
    Json,
    extract::rejection::BytesRejection,
    http::{
        HeaderValue, StatusCode,
        header::{self, RETRY_AFTER},
    },
    response::{IntoResponse, Response},
};
use serde_json::{Map, Value, json};

use crate::{
    error::{Code, Error},
    oidc::OAuthError,
};

/// The HTTP status of each code: the one table both skins answer by (REST in its status line,
/// GraphQL over HTTP only in `extensions.code`).
pub fn status(code: Code) -> StatusCode {
    match code {
        Code::BadUserInput => StatusCode::BAD_REQUEST,
        Code::Unauthenticated => StatusCode::UNAUTHORIZED,
        Code::EmailNotVerified | Code::Forbidden | Code::ReauthenticationRequired => StatusCode::FORBIDDEN,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::Conflict => StatusCode::CONFLICT,
        Code::TokenExpired => StatusCode::GONE,
        Code::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Code::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        Code::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        Code::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
    }
}

/// The status of a REST success: 201 when it made something, 200 otherwise.
pub fn success_status(created: bool) -> StatusCode {
    if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    }
}

/// The OpenID Provider's endpoints a browser posts its forms to, which answer with pages.
pub fn is_browser_form(path: &str) -> bool {
    matches!(
        path,
        "/oauth2/authorize" | "/oauth2/authorize/consent" | "/oauth2/logout"
    )
}

/// A refusal made before any handler ran, in the shape the path's clients read: GraphQL's
/// `errors` under `/api/graphql`, OAuth's `error` under `/oauth2/` (plain text for the forms a
/// browser posts there), else the envelope; the status is `status` whatever the code's own is.
pub fn refusal_for(path: &str, status: StatusCode, code: Code, message: &str) -> Response {
    let mut response = if is_browser_form(path) {
        (
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("{message}\n"),
        )
            .into_response()
    } else if path.starts_with("/api/graphql") {
        Json(json!({ "errors": [{ "message": message, "extensions": { "code": code.as_str() } }] }))
            .into_response()
    } else if path.starts_with("/oauth2/") {
        OAuthError::invalid_request(message).into_response()
    } else {
        ErrorResponse::new(code, message).into_response()
    };
    *response.status_mut() = status;
    response
}

/// What a body past the limit ([`crate::rest::BODY_LIMIT`]) hears, from the API and the provider.
pub const BODY_TOO_LARGE: &str = "The request body is too large (64 KiB at most)";

/// A body axum could not read: over the size limit (413), or cut off.
impl From<BytesRejection> for ErrorResponse {
    fn from(rejection: BytesRejection) -> Self {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            Self::new(Code::PayloadTooLarge, BODY_TOO_LARGE)
        } else {
            Self::new(Code::BadUserInput, "The request body could not be read")
        }
    }
}

/// A REST failure: status from the code, the message, and the field errors when there are any.
#[derive(Debug)]
pub struct ErrorResponse {
    pub code: Code,
    pub message: String,
    pub errors: Option<Map<String, Value>>,
    pub retry_after_secs: Option<u64>,
    /// A method the path does not take: 405 whatever the code says.
    wrong_method: bool,
}

impl ErrorResponse {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            errors: None,
            retry_after_secs: None,
            wrong_method: false,
        }
    }

    /// A request whose method the path does not take (405).
    pub fn wrong_method(message: impl Into<String>) -> Self {
        Self {
            wrong_method: true,
            ..Self::new(Code::BadUserInput, message)
        }
    }

    fn status(&self) -> StatusCode {
        if self.wrong_method {
            StatusCode::METHOD_NOT_ALLOWED
        } else {
            status(self.code)
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
            wrong_method: false,
        }
    }
}

impl IntoResponse for ErrorResponse {
    fn into_response(self) -> Response {
        let status = self.status();
        let mut body = json!({
            "success": false,
            "message": self.message,
            "code": self.code.as_str(),
        });
        if let Some(errors) = self.errors {
            body["errors"] = Value::Object(errors);
        }
        let mut response = (status, Json(body)).into_response();
        if let Some(secs) = self.retry_after_secs {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

/// A refusal of `/api/graphql` before any operation runs (an unreadable body, a GET
/// mutation), in GraphQL over HTTP's `{errors: [{message, extensions: {code}}]}`.
pub struct GraphqlRefusal(pub ErrorResponse);

impl IntoResponse for GraphqlRefusal {
    fn into_response(self) -> Response {
        let Self(refusal) = self;
        let body = json!({
            "errors": [{ "message": refusal.message, "extensions": { "code": refusal.code.as_str() } }],
        });
        (refusal.status(), Json(body)).into_response()
    }
}

/// The status of an OAuth error code (RFC 6749 section 5.2, RFC 6750 section 3.1).
fn oauth_status(error: &str) -> StatusCode {
    match error {
        "invalid_client" | "invalid_token" => StatusCode::UNAUTHORIZED,
        "server_error" => StatusCode::INTERNAL_SERVER_ERROR,
        "temporarily_unavailable" => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::BAD_REQUEST,
    }
}

impl IntoResponse for OAuthError {
    fn into_response(self) -> Response {
        let status = oauth_status(self.error);
        let mut response = (
            status,
            Json(json!({ "error": self.error, "error_description": self.description })),
        )
            .into_response();
        let headers = response.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if status == StatusCode::UNAUTHORIZED {
            let challenge = if self.error == "invalid_token" {
                "Bearer error=\"invalid_token\""
            } else {
                "Basic realm=\"oauth2\""
            };
            headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static(challenge));
        }
        response
    }
}
