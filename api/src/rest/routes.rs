//! The table each REST feature writes its routes in: path, method, handler and the route's
//! OpenAPI entry on one line each, so the router and `/api/openapi.json` cannot disagree.

use axum::{
    Router,
    handler::Handler,
    routing::{MethodFilter, on},
};
use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::openapi::Operation;
use crate::state::AppState;

/// Routes and their OpenAPI operations, built side by side.
#[must_use]
#[derive(Default)]
pub struct Routes {
    router: Router<AppState>,
    /// Path → method → operation.
    paths: BTreeMap<String, Map<String, Value>>,
}

impl Routes {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn get<H, T>(self, path: &str, handler: H, operation: Operation) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(MethodFilter::GET, "get", path, handler, operation)
    }

    pub fn post<H, T>(self, path: &str, handler: H, operation: Operation) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(MethodFilter::POST, "post", path, handler, operation)
    }

    pub fn put<H, T>(self, path: &str, handler: H, operation: Operation) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(MethodFilter::PUT, "put", path, handler, operation)
    }

    pub fn delete<H, T>(self, path: &str, handler: H, operation: Operation) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(MethodFilter::DELETE, "delete", path, handler, operation)
    }

    /// Another feature's table, after this one's.
    pub fn merge(mut self, other: Self) -> Self {
        self.router = self.router.merge(other.router);
        for (path, methods) in other.paths {
            self.paths.entry(path).or_default().extend(methods);
        }
        self
    }

    /// The router, and the `paths` object of the OpenAPI document.
    pub fn into_parts(self) -> (Router<AppState>, Map<String, Value>) {
        let paths = self
            .paths
            .into_iter()
            .map(|(path, methods)| (path, Value::Object(methods)))
            .collect();
        (self.router, paths)
    }

    fn add<H, T>(
        mut self,
        filter: MethodFilter,
        method: &str,
        path: &str,
        handler: H,
        operation: Operation,
    ) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        // A second method on a path joins the first (axum merges the method routers). The
        // router serves the path under `/api`; the document lists it as its server's.
        self.router = self
            .router
            .route(&format!("{}{path}", super::PREFIX), on(filter, handler));
        self.paths
            .entry(path.to_owned())
            .or_default()
            .insert(method.to_owned(), operation.into_value());
        self
    }
}
