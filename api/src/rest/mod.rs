//! The REST adapter: the exact paths of SPEC.md section 7 under `/api`. Each handler reads
//! the domain's form, calls the domain function its GraphQL twin calls and answers with the
//! same output types in the envelope; no business rule lives here.

pub mod accounts;
pub mod envelope;
pub mod input;
pub mod news;
pub mod openapi;

use axum::{Router, extract::DefaultBodyLimit, routing::get};

use crate::state::AppState;

/// Bodies above this are refused with 413 before they are read whole.
pub const BODY_LIMIT: usize = 64 * 1024;

pub fn router() -> Router<AppState> {
    Router::new()
        .merge(accounts::router())
        .merge(news::router())
        .route("/openapi.json", get(openapi::serve))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
}
