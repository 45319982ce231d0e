//! The REST adapter: the exact paths of SPEC.md section 7 under `/api`. Each handler reads
//! the domain's form, calls the domain function its GraphQL twin calls and answers with the
//! same output types in the envelope; no business rule lives here.

pub mod accounts;
pub mod admin;
pub mod envelope;
pub mod input;
pub mod news;
pub mod openapi;
pub mod organizations;
pub mod passkeys;
pub mod providers;
pub mod routes;

use std::sync::Arc;

use axum::{Json, Router, routing::get};

use serde_json::Value;

use crate::state::AppState;

/// Bodies above this are refused with 413 before they are read whole (the API's limit, set
/// where `http::router` wraps the API's routes).
pub const BODY_LIMIT: usize = 64 * 1024;

/// Where the REST adapter is served: the OpenAPI document's server, before each of its paths.
pub const PREFIX: &str = "/api";

/// Every feature's routes under [`PREFIX`], and `GET /api/openapi.json` describing them.
pub fn router() -> Router<AppState> {
    let (router, paths) = accounts::routes()
        .merge(news::routes())
        .merge(organizations::routes())
        .merge(passkeys::routes())
        .merge(providers::routes())
        .merge(admin::routes())
        .into_parts();
    let document = Arc::new(openapi::document(paths));
    router.route(
        &format!("{PREFIX}/openapi.json"),
        get(move || {
            let document = document.clone();
            async move { Json(Value::clone(&document)) }
        }),
    )
}
