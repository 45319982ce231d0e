//! `POST /api/graphql` and `GET /api/graphql` (queries only; GraphiQL under local).

use async_graphql::{
    BatchRequest,
    http::GraphiQLSource,
    parser::types::{DocumentOperations, OperationType},
};
use axum::{
    Extension, Json,
    body::Bytes,
    extract::{RawQuery, State, rejection::BytesRejection},
    http::{HeaderMap, StatusCode, header},
    response::{Html, IntoResponse, Response},
};
use serde_json::json;

use crate::{
    accounts::cookie,
    graphql::{AppSchema, RequestMeta},
    state::AppState,
};

fn meta(headers: &HeaderMap) -> RequestMeta {
    RequestMeta::new(
        cookie::token_from_headers(headers),
        headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
    )
}

fn graphql_error(status: StatusCode, code: &str, message: &str) -> Response {
    (
        status,
        Json(json!({ "errors": [{ "message": message, "extensions": { "code": code } }] })),
    )
        .into_response()
}

fn respond(response: async_graphql::BatchResponse) -> Response {
    let headers = response.http_headers();
    let mut http = Json(&response).into_response();
    for (name, value) in &headers {
        http.headers_mut().append(name, value.clone());
    }
    http
}

pub async fn post(
    Extension(schema): Extension<AppSchema>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let bytes = match body {
        Ok(bytes) => bytes,
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return graphql_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "PAYLOAD_TOO_LARGE",
                "The request body is too large (64 KiB at most)",
            );
        }
        Err(_) => {
            return graphql_error(
                StatusCode::BAD_REQUEST,
                "BAD_USER_INPUT",
                "The request body could not be read",
            );
        }
    };
    let batch: BatchRequest = match serde_json::from_slice(&bytes) {
        Ok(batch) => batch,
        Err(_) => {
            return graphql_error(
                StatusCode::BAD_REQUEST,
                "BAD_USER_INPUT",
                "The request body must be a GraphQL request in JSON: {\"query\": \"…\", \"variables\": {…}}",
            );
        }
    };
    let batch = match batch {
        BatchRequest::Single(request) => BatchRequest::Single(request.data(meta(&headers))),
        BatchRequest::Batch(requests) if requests.len() > 10 => {
            return graphql_error(
                StatusCode::BAD_REQUEST,
                "BAD_USER_INPUT",
                "At most 10 operations per batch",
            );
        }
        BatchRequest::Batch(requests) => {
            BatchRequest::Batch(requests.into_iter().map(|r| r.data(meta(&headers))).collect())
        }
    };
    respond(schema.execute_batch(batch).await)
}

pub async fn get(
    State(state): State<AppState>,
    Extension(schema): Extension<AppSchema>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let wants_html = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/html"));
    if query.is_none() && wants_html && state.config.env.is_local() {
        return Html(GraphiQLSource::build().endpoint("/api/graphql").finish()).into_response();
    }
    let request = match async_graphql::http::parse_query_string(query.as_deref().unwrap_or_default()) {
        Ok(request) if !request.query.trim().is_empty() => request,
        _ => {
            return graphql_error(
                StatusCode::BAD_REQUEST,
                "BAD_USER_INPUT",
                "Pass the query as ?query=…",
            );
        }
    };
    // A GET must not change anything: links and prefetches are GETs.
    let is_mutation =
        async_graphql::parser::parse_query(&request.query).is_ok_and(|doc| match &doc.operations {
            DocumentOperations::Single(op) => op.node.ty != OperationType::Query,
            DocumentOperations::Multiple(ops) => ops.values().any(|op| op.node.ty != OperationType::Query),
        });
    if is_mutation {
        return graphql_error(
            StatusCode::METHOD_NOT_ALLOWED,
            "BAD_USER_INPUT",
            "Mutations must be sent with POST",
        );
    }
    respond(schema.execute(request.data(meta(&headers))).await.into())
}
