//! Cross-site rules for every write under `/api`: the body must be JSON, which a cross-site
//! HTML form cannot send (and a cross-site script cannot without a CORS preflight we refuse),
//! and a write authenticated by the session cookie must come from one of the four platform
//! origins or the API's own origin. A write with a bearer token needs neither check: a
//! browser never attaches one by itself.

use axum::{
    extract::{Request, State},
    http::{HeaderMap, Method, header},
    middleware::Next,
    response::Response,
};

use crate::{accounts::cookie, config::Config, error::Code, state::AppState};

pub const JSON_ONLY: &str = "Request bodies must be JSON (Content-Type: application/json)";
pub const CROSS_SITE: &str = "Cross-site request refused";
pub const UTF8_ONLY: &str = "Request bodies must be JSON in UTF-8 (charset=utf-8, or none)";
pub const UNENCODED_ONLY: &str = "Request bodies must be sent uncompressed (no Content-Encoding)";

pub async fn guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(request).await;
    }
    let headers = request.headers();
    let path = request.uri().path();
    if !json_or_empty(headers) {
        return refuse(path, Code::UnsupportedMediaType, JSON_ONLY);
    }
    if !utf8_json(headers) {
        return refuse(path, Code::UnsupportedMediaType, UTF8_ONLY);
    }
    // A write with no body at all is the one a page of another site can still send without a
    // preflight (a `no-cors` fetch): with a mailed sign-in link's token in its path it would
    // sign the victim's browser in to the sender's account, cookie or not.
    let bodiless = !headers.contains_key(header::CONTENT_TYPE);
    if (bodiless || signed_in_by_cookie(headers)) && !from_our_sites(headers, &state.config) {
        tracing::warn!(origin = ?headers.get(header::ORIGIN), "cross-site write refused");
        return refuse(path, Code::Forbidden, CROSS_SITE);
    }
    next.run(request).await
}

/// `application/json` (any parameters), or no body at all (a logout).
fn json_or_empty(headers: &HeaderMap) -> bool {
    match headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) {
        Some(value) => value
            .split(';')
            .next()
            .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json")),
        None => {
            let length = headers
                .get(header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .map(str::trim);
            !headers.contains_key(header::TRANSFER_ENCODING) && matches!(length, None | Some("0"))
        }
    }
}

/// No `charset`, or UTF-8's: JSON is UTF-8 (RFC 8259), and a body read as UTF-8 that was
/// sent in another must not be taken for what it is not.
fn utf8_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    value
        .split(';')
        .skip(1)
        .all(|parameter| match parameter.split_once('=') {
            Some((name, charset)) if name.trim().eq_ignore_ascii_case("charset") => {
                let charset = charset.trim().trim_matches('"');
                charset.eq_ignore_ascii_case("utf-8") || charset.eq_ignore_ascii_case("utf8")
            }
            _ => true,
        })
}

/// A `Content-Encoding` other than `identity`: the body would be read still compressed
/// (refused for every path, before the handler: `middleware::each_request`).
pub(super) fn encoded(headers: &HeaderMap) -> bool {
    headers.get_all(header::CONTENT_ENCODING).iter().any(|value| {
        value.to_str().map_or(true, |value| {
            value
                .split(',')
                .map(str::trim)
                .any(|coding| !coding.is_empty() && !coding.eq_ignore_ascii_case("identity"))
        })
    })
}

fn signed_in_by_cookie(headers: &HeaderMap) -> bool {
    // One reading of the header for both: what authenticates the request decides the check.
    super::caller::bearer(headers).is_none() && super::caller::cookie(headers, cookie::NAME).is_some()
}

/// The request's `Origin` is a platform origin or this server's own; without `Origin`, the
/// browser's `Sec-Fetch-Site` must not say it came from another site. A client that sends
/// neither is not a browser, and no browser can be made to send a write without `Origin`.
fn from_our_sites(headers: &HeaderMap, config: &Config) -> bool {
    if let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
        let origin = origin.trim_end_matches('/');
        return config.platforms.all().contains(&origin) || is_own_origin(origin, headers, config);
    }
    match headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        Some(site) => matches!(site, "same-origin" | "none"),
        None => true,
    }
}

/// The request's own host, in the main site's scheme: a page this server served under another
/// name (`127.0.0.1` for `localhost`). A browser sets `Host` itself and keeps cookies per host,
/// so a page of another site cannot name ours there; the scheme is the main site's, so a page
/// served over plain HTTP (a network attacker's) is not taken for an HTTPS site's own.
fn is_own_origin(origin: &str, headers: &HeaderMap, config: &Config) -> bool {
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let scheme = config
        .platforms
        .main
        .split_once("://")
        .map_or("https", |(scheme, _)| scheme);
    let origin_host = origin
        .strip_prefix(scheme)
        .and_then(|rest| rest.strip_prefix("://"));
    matches!((origin_host, host), (Some(a), Some(b)) if a.eq_ignore_ascii_case(b))
}

/// The envelope for REST, a GraphQL error for GraphQL.
fn refuse(path: &str, code: Code, message: &str) -> Response {
    super::error::refusal_for(path, super::error::status(code), code, message)
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn only_json_or_an_empty_body_passes() {
        assert!(json_or_empty(&headers(&[("content-type", "application/json")])));
        assert!(json_or_empty(&headers(&[(
            "content-type",
            "Application/JSON; charset=utf-8"
        )])));
        assert!(json_or_empty(&headers(&[])));
        assert!(json_or_empty(&headers(&[("content-length", "0")])));
        assert!(!json_or_empty(&headers(&[("content-type", "text/plain")])));
        assert!(!json_or_empty(&headers(&[(
            "content-type",
            "application/x-www-form-urlencoded"
        )])));
        assert!(!json_or_empty(&headers(&[(
            "content-type",
            "multipart/form-data; boundary=x"
        )])));
        assert!(!json_or_empty(&headers(&[("content-length", "12")])));
    }

    #[test]
    fn a_bearer_token_is_not_a_cookie_session() {
        assert!(signed_in_by_cookie(&headers(&[("cookie", "ts_session=abc")])));
        assert!(!signed_in_by_cookie(&headers(&[
            ("cookie", "ts_session=abc"),
            ("authorization", "Bearer abc")
        ])));
        assert!(!signed_in_by_cookie(&headers(&[("cookie", "other=1")])));
    }
}
