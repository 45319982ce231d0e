//! The axum router: the API under `/api`, health, metrics, the dev mailbox and the site,
//! wrapped in the middleware every request passes through.

pub mod caller;
pub mod cross_site;
pub mod error;
pub mod extract;
pub mod google;
pub mod graphql;
pub mod health;
pub mod ip_limit;
pub mod mailbox;
pub mod middleware;
pub mod oidc;
pub mod oidc_browser;
pub mod providers;
pub mod serve;
pub mod site;

use axum::{
    Router,
    extract::DefaultBodyLimit,
    middleware::from_fn_with_state,
    routing::{any, get},
};

use tower::ServiceBuilder;

use crate::{graphql::AppSchema, rest, state::AppState};

/// The separate `/metrics` listener's router, for `METRICS_ADDR`.
pub fn metrics_router() -> Router {
    Router::new().route("/metrics", get(middleware::metrics))
}

pub fn router(state: AppState, schema: AppSchema) -> Router {
    // The API's routes carry their `/api` prefix rather than being nested under it: a nested
    // router rewrites each request's URI and adds a layer to clone and drop per request, a
    // tenth of the session check's cost.
    let api = Router::new()
        .route("/api/graphql", get(graphql::get).post(graphql::post))
        .route("/api/auth/google/start", get(google::start))
        .route("/api/auth/google/callback", get(google::callback))
        .route("/api/auth/{provider}/start", get(providers::start))
        .route("/api/auth/{provider}/callback", get(providers::callback))
        .merge(rest::router())
        .method_not_allowed_fallback(middleware::api_method_not_allowed)
        .route("/api", any(middleware::api_not_found))
        .route("/api/", any(middleware::api_not_found))
        .route("/api/{*rest}", any(middleware::api_not_found));
    // One layer call for all three: axum boxes each `layer` call around every route, and
    // clones, drops and polls through that box per request.
    let api = ip_limit::apply(api, state.config.rate_limit_per_ip).layer(
        ServiceBuilder::new()
            .layer(DefaultBodyLimit::max(rest::BODY_LIMIT))
            .layer(middleware::api_cors(&state.config))
            .layer(from_fn_with_state(state.clone(), cross_site::guard)),
    );
    let mut app = Router::new()
        .merge(api)
        .route("/healthz", get(health::live))
        .route("/readyz", get(health::ready))
        .route("/robots.txt", get(site::robots))
        .route("/sitemap.xml", get(site::sitemap))
        .merge(oidc::router(&state));
    app = app.route(
        "/metrics",
        middleware::metrics_route(&state.config).unwrap_or_else(|| get(middleware::api_not_found)),
    );
    if state.config.env.is_local() {
        app = app.route("/dev/mailbox", get(mailbox::page));
    }
    let site = site::Site::load(&state.config);
    let app = app.fallback_service(site.service()).with_state(state.clone());
    middleware::apply(app, &state, schema)
}
