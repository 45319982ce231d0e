//! What wraps every request: request id, tracing, metrics, security headers, compression, a
//! time limit, panic capture; CORS for the API; and the JSON answers for unknown API paths.

/// The Content-Security-Policy of every HTML page that does not bring a stricter one.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data: https:; font-src 'self' data:; connect-src 'self'; frame-src 'self'; \
frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

use std::{
    sync::{
        Arc, OnceLock,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use axum::{
    Extension, Router,
    body::Body,
    extract::{MatchedPath, Request, State},
    http::{HeaderName, HeaderValue, Method, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tower::ServiceBuilder;
use tower_http::{
    catch_panic::CatchPanicLayer,
    compression::{CompressionBody, CompressionLayer},
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

/// Wraps every route in the middleware every request passes through, innermost last. One
/// `layer` call, because axum boxes each one around every route and clones and drops that box
/// per request; and what is ours is one `from_fn` ([`each_request`]), innermost, because each
/// `from_fn` clones the whole stack beneath it for every request (five of them made a fifth of
/// a session check's instructions clones, drops and copies of the stack).
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
            // A panic in the layers themselves; a handler's is answered by `each_request`.
            .layer(CatchPanicLayer::custom(|_| panicked()))
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
            // The compressed body holds every encoder's state in place (6 KB with brotli's):
            // boxed here, each layer above moves a 128-byte response instead.
            .map_response(|response: Response<CompressionBody<Body>>| response.map(Body::new))
            .layer(CompressionLayer::new())
            .layer(Extension(schema))
            .layer(middleware::from_fn_with_state(state.clone(), each_request)),
    )
}

/// What is ours around every handler: the caller worked out once ([`caller::resolve`]), the
/// handler run to its end on a task of its own ([`run_to_end`]) within [`REQUEST_TIME_LIMIT`],
/// the headers every response gets unless its handler chose otherwise ([`safe_defaults`]),
/// and the request counted and timed ([`RequestMetrics`]).
async fn each_request(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    caller::resolve(&mut request, &state.config.trusted_proxies);
    let metrics = RequestMetrics::start(&request);
    let private = is_private(request.uri().path());
    if let Some(mut refused) = refused_before_reading(&request) {
        safe_defaults(private, &mut refused);
        metrics.record(&refused);
        return refused;
    }
    // The path only for a request with a body, the one kind the 408 below answers.
    let body_watch = watch_body(&mut request).map(|watch| (watch, request.uri().path().to_owned()));
    let mut response = match tokio::time::timeout(REQUEST_TIME_LIMIT, run_to_end(next.run(request))).await {
        Ok(response) => response,
        Err(_) => match body_watch
            .as_ref()
            .filter(|(watch, _)| watch.awaited.load(Ordering::Relaxed))
        {
            Some((watch, path)) => {
                tracing::info!("the request's body did not arrive within {REQUEST_TIME_LIMIT:?}");
                // The handler, still waiting for the body on a task of its own, is told it will
                // not come: it ends, lets go of the body, and with it the connection closes.
                watch.cut();
                closing(super::error::refusal_for(
                    path,
                    axum::http::StatusCode::REQUEST_TIMEOUT,
                    Code::BadUserInput,
                    BODY_LATE,
                ))
            }
            None => {
                tracing::warn!("request took longer than {REQUEST_TIME_LIMIT:?}");
                ErrorResponse::from(crate::error::Error::Unavailable).into_response()
            }
        },
    };
    safe_defaults(private, &mut response);
    metrics.record(&response);
    response
}

/// What a request hears when the time limit passed while its handler waited for the rest of
/// its body: the client's delay (408), not the service's (503).
pub const BODY_LATE: &str = "The request body did not arrive in time";

/// A body refused before any of it is read, in the shape the path's clients read: one declared
/// past the limit (413; else the limit would be met only when as much had arrived, or at the
/// time limit for a body that never does; the provider's browser forms answer theirs with a
/// page, once read), and a compressed one (415: read as it came it is "not valid JSON" or a
/// form of nothing, and the token endpoint blamed the client's authentication).
fn refused_before_reading(request: &Request) -> Option<Response> {
    let path = request.uri().path();
    if declared_length(request).is_some_and(|length| length > crate::rest::BODY_LIMIT as u64)
        && !super::error::is_browser_form(path)
    {
        return Some(closing(super::error::refusal_for(
            path,
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            Code::PayloadTooLarge,
            super::error::BODY_TOO_LARGE,
        )));
    }
    (has_body(request) && super::cross_site::encoded(request.headers())).then(|| {
        super::error::refusal_for(
            path,
            axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Code::UnsupportedMediaType,
            super::cross_site::UNENCODED_ONLY,
        )
    })
}

/// `response` with `Connection: close`: the request's unread body stays on the connection, so
/// the client must not send another on it.
fn closing(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// The body length the request's `Content-Length` declares.
fn declared_length(request: &Request) -> Option<u64> {
    request
        .headers()
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Whether the request declares a body: a length above zero, or chunks.
fn has_body(request: &Request) -> bool {
    declared_length(request).is_some_and(|length| length > 0)
        || request.headers().contains_key(header::TRANSFER_ENCODING)
}

/// What is known of a request's body while its handler reads it.
#[derive(Default)]
struct BodyWatch {
    /// Whether its reader is waiting on the client for more of it now.
    awaited: AtomicBool,
    /// Set once the time limit passed: the reader gets an error instead of more waiting.
    cut: AtomicBool,
    waker: futures_util::task::AtomicWaker,
}

impl BodyWatch {
    fn cut(&self) {
        self.cut.store(true, Ordering::Relaxed);
        self.waker.wake();
    }
}

/// For a request that has a body: it is read through a watch that tells, at any moment,
/// whether its reader is waiting on the client for more of it, and can end that wait. A
/// request without one (every GET of the hot paths) is left as it is.
fn watch_body(request: &mut Request) -> Option<Arc<BodyWatch>> {
    if !has_body(request) {
        return None;
    }
    let watch = Arc::new(BodyWatch::default());
    let body = std::mem::take(request.body_mut());
    *request.body_mut() = Body::from_stream(WatchedBody {
        inner: body.into_data_stream(),
        watch: watch.clone(),
    });
    Some(watch)
}

/// A body's stream, read through its [`BodyWatch`].
struct WatchedBody {
    inner: axum::body::BodyDataStream,
    watch: Arc<BodyWatch>,
}

impl futures_util::Stream for WatchedBody {
    type Item = Result<axum::body::Bytes, axum::Error>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        self.watch.waker.register(cx.waker());
        if self.watch.cut.load(Ordering::Relaxed) {
            self.watch.awaited.store(false, Ordering::Relaxed);
            return std::task::Poll::Ready(Some(Err(axum::Error::new(BODY_LATE))));
        }
        let polled = std::pin::Pin::new(&mut self.inner).poll_next(cx);
        self.watch.awaited.store(polled.is_pending(), Ordering::Relaxed);
        polled
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

/// The answer to a request whose handling panicked.
fn panicked() -> Response {
    ErrorResponse::new(Code::Internal, "Something went wrong").into_response()
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

/// API answers (tokens, personal data) and the dev mailbox (codes) are never stored by a cache.
fn is_private(path: &str) -> bool {
    path.starts_with("/api/") || path == "/api" || path.starts_with("/dev/")
}

/// What every response gets unless its handler chose otherwise: a private one (see
/// [`is_private`]) is never stored by a cache, and every HTML page carries the CSP.
fn safe_defaults(private: bool, response: &mut Response) {
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
            let expected: Arc<str> = Arc::from(token.expose());
            Some(axum::routing::get(move |headers: axum::http::HeaderMap| {
                let expected = Arc::clone(&expected);
                async move {
                    use subtle::ConstantTimeEq;
                    // The scheme in any case, as for every bearer token (RFC 6750, RFC 9110).
                    let given = caller::bearer(&headers).unwrap_or_default();
                    if bool::from(given.as_bytes().ct_eq(expected.as_bytes())) {
                        metrics().await.into_response()
                    } else {
                        let mut refused =
                            ErrorResponse::new(Code::Unauthenticated, "A metrics token is required")
                                .into_response();
                        refused.headers_mut().insert(
                            header::WWW_AUTHENTICATE,
                            HeaderValue::from_static("Bearer realm=\"metrics\""),
                        );
                        refused
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

/// Runs a request to its end on a task of its own, even when its client hangs up first.
/// A handler dropped between PostgreSQL's `BEGIN` and its answer leaves the server inside a
/// transaction that the pool does not know of: the next request given that connection ran
/// its statements in it, holding their locks until some later `COMMIT` (a token benchmark
/// whose clients hung up mid-run saw refused codes and stalls). A finished request cannot
/// leave that behind, and its writes are all or nothing as their transactions say.
async fn run_to_end(handling: impl Future<Output = Response> + Send + 'static) -> Response {
    match tokio::spawn(handling).await {
        Ok(response) => response,
        Err(err) if err.is_panic() => {
            let panic = err.into_panic();
            let message = panic
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("(not a string)");
            tracing::error!(panic = message, "a request's handler panicked");
            panicked()
        }
        // Only when the runtime is shutting down.
        Err(_) => ErrorResponse::from(crate::error::Error::Unavailable).into_response(),
    }
}

/// A request's method and route as its metrics name them, and when it started.
struct RequestMetrics {
    method: &'static str,
    route: String,
    started: Instant,
}

impl RequestMetrics {
    fn start(request: &Request) -> Self {
        prometheus();
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
        Self {
            method,
            route,
            started: Instant::now(),
        }
    }

    fn record(self, response: &Response) {
        let Self {
            method,
            route,
            started,
        } = self;
        let status = response.status().as_u16().to_string();
        metrics::counter!("http_requests_total", "method" => method, "route" => route.clone(), "status" => status)
            .increment(1);
        metrics::histogram!("http_request_duration_seconds", "method" => method, "route" => route)
            .record(started.elapsed().as_secs_f64());
    }
}

pub async fn api_not_found() -> ErrorResponse {
    ErrorResponse::new(Code::NotFound, "There is no API endpoint at this path")
}

pub async fn api_method_not_allowed() -> ErrorResponse {
    ErrorResponse::wrong_method("This method is not allowed on this path")
}

#[cfg(test)]
mod tests {
    use axum::{body::to_bytes, http::StatusCode};

    use super::*;

    #[tokio::test]
    async fn a_handler_that_panics_is_answered_with_the_envelopes_500() {
        let response = run_to_end(async { panic!("a bug in a handler") }).await;
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = to_bytes(response.into_body(), 4096).await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(body["success"], false, "{body}");
        assert_eq!(body["message"], "Something went wrong", "{body}");
    }

    #[tokio::test]
    async fn a_handler_that_answers_is_answered_as_it_says() {
        let response = run_to_end(async { StatusCode::IM_A_TEAPOT.into_response() }).await;
        assert_eq!(response.status(), StatusCode::IM_A_TEAPOT);
    }
}
