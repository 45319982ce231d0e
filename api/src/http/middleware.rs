//! What wraps every request: request id, tracing, metrics, CORS, security headers,
//! compression, a timeout, panic capture; and the JSON answers for unknown API paths.

/// The Content-Security-Policy of every HTML page that does not bring a stricter one.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data: https:; font-src 'self' data:; connect-src 'self'; frame-src 'self'; \
frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

use std::{
    sync::{Arc, OnceLock},
    time::{Duration, Instant},
};

use axum::{
    Extension, Router,
    extract::{MatchedPath, Request},
    http::{HeaderName, HeaderValue, Method, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tower::ServiceBuilder;
use tower_http::{
    catch_panic::CatchPanicLayer,
    compression::CompressionLayer,
    cors::{AllowOrigin, CorsLayer},
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    set_header::SetResponseHeaderLayer,
    trace::TraceLayer,
};

use crate::{
    config::Config,
    error::Code,
    graphql::AppSchema,
    http::{caller, error::ErrorResponse},
    state::AppState,
};

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// CORS for the API under `/api`: the four platform sites, with their cookies. The OpenID
/// Provider's endpoints have their own policies (see `http::oidc`), so this is not applied
/// to the whole site.
pub fn api_cors(config: &Config) -> CorsLayer {
    let origins: Arc<[HeaderValue]> = config
        .platforms
        .all()
        .iter()
        .filter_map(|origin| HeaderValue::from_str(origin).ok())
        .collect();
    // A predicate over a shared list rather than `AllowOrigin::list`: the layer is cloned for
    // every request, and a list is a vector of header values to copy each time.
    CorsLayer::new()
        .allow_origin(AllowOrigin::predicate(move |origin, _| origins.contains(origin)))
        .allow_credentials(true)
        .allow_methods([Method::GET, Method::POST, Method::PUT, Method::DELETE])
        .allow_headers([header::CONTENT_TYPE, header::AUTHORIZATION])
        .max_age(Duration::from_secs(600))
}

/// Wraps every route in the middleware every request passes through, innermost last: the
/// caller is worked out once and the GraphQL schema handed on. One `layer` call, because axum
/// boxes each one around every route and clones and drops that box per request.
pub fn apply(router: Router, state: &AppState, schema: AppSchema) -> Router {
    let config = &state.config;
    let trace = TraceLayer::new_for_http().make_span_with(|request: &Request| {
        let id = request.headers().get(REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("-");
        tracing::info_span!("request", method = %request.method(), path = %logged_path(request), request_id = %id)
    });
    let hsts = (!config.env.is_local()).then(|| {
        SetResponseHeaderLayer::if_not_present(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=63072000; includeSubDomains"),
        )
    });
    router.layer(
        ServiceBuilder::new()
            .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
            .layer(trace)
            .layer(PropagateRequestIdLayer::new(REQUEST_ID))
            .layer(middleware::from_fn(record_metrics))
            .layer(CatchPanicLayer::custom(|_| {
                ErrorResponse::new(Code::Internal, "Something went wrong").into_response()
            }))
            .layer(SetResponseHeaderLayer::if_not_present(
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ))
            .layer(SetResponseHeaderLayer::if_not_present(
                header::X_FRAME_OPTIONS,
                HeaderValue::from_static("DENY"),
            ))
            .layer(SetResponseHeaderLayer::if_not_present(
                header::REFERRER_POLICY,
                HeaderValue::from_static("strict-origin-when-cross-origin"),
            ))
            .option_layer(hsts)
            .layer(middleware::from_fn(safe_defaults))
            .layer(CompressionLayer::new())
            .layer(middleware::from_fn(time_limit))
            .layer(middleware::from_fn_with_state(state.clone(), caller::resolve))
            .layer(Extension(schema))
            .layer(middleware::from_fn(run_to_end)),
    )
}

/// The path as the log shows it: the matched route (`/api/auth/reset-password/{token}`), never
/// the values in it. A path no route matched (a page of the site, such as a reset link's
/// `/reset-password/…`) keeps its short segments; one long enough to be a token is replaced.
fn logged_path(request: &Request) -> String {
    if let Some(route) = request.extensions().get::<MatchedPath>() {
        return route.as_str().to_owned();
    }
    redact_long_segments(request.uri().path())
}

fn redact_long_segments(path: &str) -> String {
    path.split('/')
        .map(|segment| {
            if segment.len() >= 20 {
                "{redacted}"
            } else {
                segment
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// What every response gets unless its handler chose otherwise: API answers (tokens, personal
/// data) and the dev mailbox (codes) are never stored by a cache, and every HTML page carries
/// the CSP.
async fn safe_defaults(request: Request, next: Next) -> Response {
    let private = {
        let path = request.uri().path();
        path.starts_with("/api/") || path == "/api" || path.starts_with("/dev/")
    };
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    if private && !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    let html = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if html && !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    }
    response
}

/// How often request timings are folded into their summaries.
const METRICS_UPKEEP: Duration = Duration::from_secs(5);

/// The process-wide Prometheus recorder (one per process, however many apps tests start).
fn prometheus() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new().build_recorder();
        let handle = recorder.handle();
        // Each timing is kept as a sample until it is folded into its summary, which
        // rendering does; a server nobody scrapes (no `/metrics` outside local without a
        // token or METRICS_ADDR) would keep every request's sample for ever. The exporter's
        // own `install` runs this upkeep on a thread too; we build the recorder ourselves.
        let upkeep = handle.clone();
        let _ = std::thread::Builder::new()
            .name("metrics-upkeep".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(METRICS_UPKEEP);
                    upkeep.run_upkeep();
                }
            });
        // Another recorder may already be installed (a test harness); ours still renders.
        let _ = metrics::set_global_recorder(recorder);
        handle
    })
}

/// `/metrics` in Prometheus text. Where it is served is [`metrics_route`]'s choice.
pub async fn metrics() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        prometheus().render(),
    )
}

/// `/metrics` on the main address: behind `METRICS_TOKEN` when one is set, open under local,
/// and absent otherwise (or when `METRICS_ADDR` serves it elsewhere): counters by route are
/// reconnaissance for an attacker.
pub fn metrics_route(config: &Config) -> Option<axum::routing::MethodRouter<crate::state::AppState>> {
    if config.metrics_addr.is_some() {
        return None;
    }
    match &config.metrics_token {
        Some(token) => {
            let expected = format!("Bearer {}", token.expose());
            Some(axum::routing::get(move |headers: axum::http::HeaderMap| {
                let expected = expected.clone();
                async move {
                    use subtle::ConstantTimeEq;
                    let given = headers
                        .get(header::AUTHORIZATION)
                        .map_or(&[][..], axum::http::HeaderValue::as_bytes);
                    if bool::from(given.ct_eq(expected.as_bytes())) {
                        metrics().await.into_response()
                    } else {
                        ErrorResponse::new(Code::Unauthenticated, "A metrics token is required")
                            .into_response()
                    }
                }
            }))
        }
        None if config.env.is_local() => Some(axum::routing::get(metrics)),
        None => None,
    }
}

/// No request may hold a connection longer than this; past it the caller gets the envelope's
/// 503 instead of waiting on a stuck dependency.
const REQUEST_TIME_LIMIT: Duration = Duration::from_secs(30);

async fn time_limit(request: Request, next: Next) -> Response {
    match tokio::time::timeout(REQUEST_TIME_LIMIT, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            tracing::warn!("request took longer than {REQUEST_TIME_LIMIT:?}");
            ErrorResponse::from(crate::error::Error::Unavailable).into_response()
        }
    }
}

/// Runs each request to its end on a task of its own, even when its client hangs up first.
/// A handler dropped between PostgreSQL's `BEGIN` and its answer leaves the server inside a
/// transaction that the pool does not know of: the next request given that connection ran
/// its statements in it, holding their locks until some later `COMMIT` (a token benchmark
/// whose clients hung up mid-run saw refused codes and stalls). A finished request cannot
/// leave that behind, and its writes are all or nothing as their transactions say.
async fn run_to_end(request: Request, next: Next) -> Response {
    match tokio::spawn(next.run(request)).await {
        Ok(response) => response,
        // The panic goes on to `CatchPanicLayer`, as if it had happened here.
        Err(err) if err.is_panic() => std::panic::resume_unwind(err.into_panic()),
        // Only when the runtime is shutting down.
        Err(_) => ErrorResponse::from(crate::error::Error::Unavailable).into_response(),
    }
}

async fn record_metrics(request: Request, next: Next) -> Response {
    prometheus();
    let started = Instant::now();
    // A fixed set: random methods from a scanner must not create new series.
    let method = match *request.method() {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "OTHER",
    };
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned());
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::counter!("http_requests_total", "method" => method, "route" => route.clone(), "status" => status)
        .increment(1);
    metrics::histogram!("http_request_duration_seconds", "method" => method, "route" => route)
        .record(started.elapsed().as_secs_f64());
    response
}

pub async fn api_not_found() -> ErrorResponse {
    ErrorResponse::new(Code::NotFound, "There is no API endpoint at this path")
}

pub async fn api_method_not_allowed() -> ErrorResponse {
    ErrorResponse::wrong_method("This method is not allowed on this path")
}
