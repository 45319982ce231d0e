//! Runs one fixed GraphQL operation for a REST route and reshapes its result into the
//! envelope, with the HTTP status of its error code.

use std::sync::{Arc, atomic::AtomicBool};

use async_graphql::Variables;
use axum::{
    body::Bytes,
    extract::rejection::BytesRejection,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde_json::{Map, Value};

use super::envelope::{ErrorResponse, success};
use crate::{
    client::Caller,
    error::Code,
    graphql::{AppSchema, RequestMeta, documents},
};

/// How a route's result becomes the envelope's `data`.
pub enum Shape {
    /// The root field is a payload: its `message` becomes the envelope's, the rest is `data`.
    Payload,
    /// The root field is one object, put in `data` under this key.
    Wrap(&'static str),
    /// A payload whose `created` flag picks 201 over the operation's status.
    CreatedOrNot,
}

/// A REST route's fixed GraphQL operation. Its root field is aliased `result`.
pub struct Operation {
    pub document: &'static str,
    pub shape: Shape,
    pub status: StatusCode,
}

pub const USER_FIELDS: &str = "fragment UserFields on User { id name email countryCode phone bio website born role status emailVerified twoFactorEnabled social { github linkedin instagram twitter facebook } address { street city state zip country } preferences { notifications { email sms push } theme } createdAt updatedAt }";

/// A request body, or why axum could not read it.
pub type Body = Result<Bytes, BytesRejection>;

/// Runs `op` with `variables` as `caller`.
pub async fn run(schema: &AppSchema, caller: &Caller, op: &Operation, variables: Value) -> Response {
    let meta = RequestMeta::for_caller(caller, &Arc::new(AtomicBool::new(false)));
    let request = async_graphql::Request::new(op.document)
        .variables(Variables::from_json(variables))
        .data(meta);
    let response = documents::execute(schema, request).await;

    let mut http = if let Some(error) = response.errors.first() {
        error_response(error).into_response()
    } else {
        match response.data.into_json() {
            Ok(mut data) => reshape(op, data["result"].take()),
            Err(err) => {
                tracing::error!(error = %err, "GraphQL result is not JSON");
                ErrorResponse::new(Code::Internal, "Something went wrong").into_response()
            }
        }
    };
    for (name, value) in &response.http_headers {
        http.headers_mut().append(name, value.clone());
    }
    http
}

fn reshape(op: &Operation, result: Value) -> Response {
    match (&op.shape, result) {
        (Shape::Payload, Value::Object(mut fields)) => {
            sign_in_step(&mut fields);
            let message = match fields.remove("message") {
                Some(Value::String(m)) => Some(m),
                _ => None,
            };
            let data = (!fields.is_empty()).then_some(Value::Object(fields));
            success(op.status, message, data)
        }
        (Shape::Wrap(key), value) => {
            let mut data = Map::new();
            data.insert((*key).to_owned(), value);
            success(op.status, None, Some(Value::Object(data)))
        }
        (Shape::CreatedOrNot, Value::Object(mut fields)) => {
            let created = fields.remove("created") == Some(Value::Bool(true));
            let status = if created { StatusCode::CREATED } else { op.status };
            let op = Operation {
                document: op.document,
                shape: Shape::Payload,
                status,
            };
            reshape(&op, Value::Object(fields))
        }
        (_, other) => success(op.status, None, Some(other)),
    }
}

/// A sign-in's first step answers either with a session or with the two-factor challenge;
/// `data` carries only the half that applies.
fn sign_in_step(fields: &mut Map<String, Value>) {
    match fields.get("twoFactorRequired") {
        Some(Value::Bool(true)) => {
            fields.remove("token");
            fields.remove("user");
        }
        Some(_) => {
            fields.remove("twoFactorRequired");
            fields.remove("challenge");
        }
        None => {}
    }
}

fn error_response(error: &async_graphql::ServerError) -> ErrorResponse {
    let ext = error.extensions.as_ref();
    let code = ext.and_then(|e| e.get("code")).and_then(|v| match v {
        async_graphql::Value::String(s) => Code::parse(s),
        _ => None,
    });
    let Some(code) = code else {
        // No code: the request did not fit the operation's input types (a wrong type, say).
        return invalid_input(&error.message);
    };
    let mut response = ErrorResponse::new(code, error.message.clone());
    if let Some(async_graphql::Value::Object(fields)) = ext.and_then(|e| e.get("errors")) {
        response.errors = Some(
            fields
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone().into_json().unwrap_or(Value::Null)))
                .collect(),
        );
    }
    if let Some(async_graphql::Value::Number(n)) = ext.and_then(|e| e.get("retryAfter")) {
        response.retry_after_secs = n.as_u64();
    }
    response
}

/// A body of the wrong shape, named by the field GraphQL complained about when it can be found.
fn invalid_input(graphql_message: &str) -> ErrorResponse {
    tracing::debug!(graphql_message, "REST body did not fit the operation");
    let field = graphql_message
        .split('"')
        .nth(1)
        .map(|path| path.trim_start_matches("input.").to_owned())
        .filter(|f| !f.is_empty() && f != "input" && !f.contains(' '));
    match field {
        Some(field) => {
            let message = format!("{field} has the wrong type");
            let mut response = ErrorResponse::new(Code::BadUserInput, message.clone());
            response.errors = Some(Map::from_iter([(field, Value::String(message))]));
            response
        }
        None => ErrorResponse::new(
            Code::BadUserInput,
            "The request body does not have the expected shape",
        ),
    }
}

/// The request body as a JSON object: empty means `{}`.
///
/// # Errors
/// 413 over the size limit; 400 when it is not a JSON object.
pub fn json_object(body: Result<Bytes, BytesRejection>) -> Result<Map<String, Value>, ErrorResponse> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ErrorResponse::new(
                Code::PayloadTooLarge,
                "The request body is too large (64 KiB at most)",
            )
        } else {
            ErrorResponse::new(Code::BadUserInput, "The request body could not be read")
        }
    })?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ErrorResponse::new(
            Code::BadUserInput,
            "The request body must be a JSON object",
        )),
        Err(_) => Err(ErrorResponse::new(
            Code::BadUserInput,
            "The request body is not valid JSON",
        )),
    }
}

/// Keeps only the keys an operation's input has: a client may send more (a confirmation
/// field, read-only fields of a user it read), and they must not fail the call.
pub fn keep(map: &mut Map<String, Value>, fields: &[(&str, Option<&[&str]>)]) {
    map.retain(|key, value| match fields.iter().find(|(name, _)| name == key) {
        None => false,
        Some((_, None)) => true,
        Some((_, Some(nested))) => {
            if let Value::Object(inner) = value {
                inner.retain(|k, _| nested.contains(&k.as_str()));
            }
            true
        }
    });
}
