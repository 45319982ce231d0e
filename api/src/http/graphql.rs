//! `POST /api/graphql` and `GET /api/graphql` (queries only; GraphiQL under local).

use std::sync::{Arc, atomic::AtomicBool};

use async_graphql::{
    BatchRequest, BatchResponse,
    http::GraphiQLSource,
    parser::types::{DocumentOperations, OperationType},
};
use axum::{
    Extension, Json,
    body::Bytes,
    extract::{RawQuery, State, rejection::BytesRejection},
    http::{HeaderMap, header},
    response::{Html, IntoResponse, Response},
};

use crate::{
    error::Code,
    graphql::{AppSchema, RequestMeta, documents, limits::MAX_BATCH},
    http::{
        caller::Caller,
        error::{ErrorResponse, GraphqlRefusal},
    },
    state::AppState,
};

fn refuse(refusal: ErrorResponse) -> Response {
    GraphqlRefusal(refusal).into_response()
}

fn bad_request(message: impl Into<String>) -> Response {
    refuse(ErrorResponse::new(Code::BadUserInput, message))
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
    caller: Caller,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let bytes = match body {
        Ok(bytes) => bytes,
        Err(rejection) => return refuse(rejection.into()),
    };
    let batch: BatchRequest = match serde_json::from_slice(&bytes) {
        Ok(batch) => batch,
        Err(_) => {
            return bad_request(
                "The request body must be a GraphQL request in JSON: {\"query\": \"…\", \"variables\": {…}}",
            );
        }
    };
    // One authentication operation per HTTP request, across the whole batch.
    let auth_operation = Arc::new(AtomicBool::new(false));
    let meta = || {
        RequestMeta::new(
            caller.token.clone(),
            caller.client.clone(),
            auth_operation.clone(),
        )
    };
    let execute = |request: async_graphql::Request| documents::execute(&schema, request.data(meta()));
    let response = match batch {
        BatchRequest::Single(request) => BatchResponse::Single(execute(request).await),
        BatchRequest::Batch(requests) if requests.len() > MAX_BATCH => {
            return bad_request(format!("At most {MAX_BATCH} operations per batch"));
        }
        BatchRequest::Batch(requests) => {
            // One after another, as the schema's own batch execution does.
            let mut responses = Vec::with_capacity(requests.len());
            for request in requests {
                responses.push(execute(request).await);
            }
            BatchResponse::Batch(responses)
        }
    };
    respond(response)
}

pub async fn get(
    State(state): State<AppState>,
    Extension(schema): Extension<AppSchema>,
    caller: Caller,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let wants_html = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/html"));
    if query.is_none() && wants_html && state.config.env.is_local() {
        // GraphiQL (local only) runs inline scripts from its CDN: it gets its own, looser policy.
        let mut page = Html(GraphiQLSource::build().endpoint("/api/graphql").finish()).into_response();
        page.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            axum::http::HeaderValue::from_static(
                "default-src 'self' https://unpkg.com; script-src 'self' 'unsafe-inline' 'unsafe-eval' https://unpkg.com; \
                 style-src 'self' 'unsafe-inline' https://unpkg.com; img-src 'self' data: https:; \
                 font-src 'self' data: https://unpkg.com; connect-src 'self'; frame-ancestors 'none'",
            ),
        );
        return page;
    }
    let mut request = match async_graphql::http::parse_query_string(query.as_deref().unwrap_or_default()) {
        Ok(request) if !request.query.trim().is_empty() => request,
        // A query with `variables` or `extensions` that are not JSON objects.
        Err(_) if query.as_deref().is_some_and(has_query_field) => {
            return bad_request("variables and extensions must be JSON objects (URL-encoded)");
        }
        _ => {
            return bad_request("Pass the query as ?query=…");
        }
    };
    // GraphQL over HTTP names it `operationName`; async-graphql reads only `operation_name`.
    if request.operation_name.is_none() {
        request.operation_name = url::form_urlencoded::parse(query.as_deref().unwrap_or_default().as_bytes())
            .find(|(key, _)| key == "operationName")
            .map(|(_, name)| name.into_owned());
    }
    let mut request = match documents::prepare(request) {
        Ok(request) => request,
        Err(refused) => return respond((*refused).into()),
    };
    // A GET must not change anything: links and prefetches are GETs.
    let is_mutation = request.parsed_query().is_ok_and(|doc| match &doc.operations {
        DocumentOperations::Single(op) => op.node.ty != OperationType::Query,
        DocumentOperations::Multiple(ops) => ops.values().any(|op| op.node.ty != OperationType::Query),
    });
    if is_mutation {
        return refuse(ErrorResponse::wrong_method("Mutations must be sent with POST"));
    }
    let meta = RequestMeta::new(
        caller.token.clone(),
        caller.client.clone(),
        Arc::new(AtomicBool::new(false)),
    );
    respond(schema.execute(request.data(meta)).await.into())
}

/// Whether a GET's query string names a non-empty `query`.
fn has_query_field(query_string: &str) -> bool {
    url::form_urlencoded::parse(query_string.as_bytes())
        .any(|(key, value)| key == "query" && !value.trim().is_empty())
}
