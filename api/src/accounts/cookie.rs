//! The session cookie: HttpOnly, SameSite=Lax, Secure outside local, optionally shared by
//! the four platform sites through `COOKIE_DOMAIN`.

use crate::config::Config;

pub const NAME: &str = "ts_session";

/// `Set-Cookie` value carrying `token` for as long as the session lasts.
pub fn set(config: &Config, token: &str) -> String {
    build(config, token, config.session_lifetime.num_seconds())
}

/// `Set-Cookie` value that removes the cookie.
pub fn clear(config: &Config) -> String {
    build(config, "", 0)
}

fn build(config: &Config, value: &str, max_age: i64) -> String {
    let mut cookie = format!("{NAME}={value}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax");
    if !config.env.is_local() {
        cookie.push_str("; Secure");
    }
    if let Some(domain) = &config.cookie_domain {
        cookie.push_str("; Domain=");
        cookie.push_str(domain);
    }
    cookie
}

/// The session token of a request: the bearer header first, then the cookie.
pub fn token_from_headers(headers: &axum::http::HeaderMap) -> Option<String> {
    bearer(headers).or_else(|| read(headers, NAME))
}

/// The token of an `Authorization: Bearer …` header (RFC 6750; the scheme in any case).
pub fn bearer(headers: &axum::http::HeaderMap) -> Option<String> {
    headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
}

/// The value of the non-empty cookie `name` in a request, if any.
pub fn read(headers: &axum::http::HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, value)| *key == name && !value.is_empty())
        .map(|(_, value)| value.to_owned())
}
