//! The HTTP of the provider's browser endpoints (authorize, consent, logout): their
//! [`BrowserAnswer`]s as redirects, pages with a strict CSP, or OAuth errors.

use axum::{
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{Html, IntoResponse, Redirect, Response},
};

use crate::{
    accounts::cookie,
    oidc::{BrowserAnswer, pages::PageStatus},
    state::AppState,
};

pub(super) fn origin(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::ORIGIN).and_then(|o| o.to_str().ok())
}

/// The HTTP of a browser endpoint's answer: a redirect, one of the provider's pages (no
/// script, a strict CSP, never cached), or an OAuth error; with the session cookie cleared
/// after a sign-out.
pub(super) fn respond(state: &AppState, answer: BrowserAnswer) -> Response {
    match answer {
        BrowserAnswer::Redirect(to) => Redirect::to(&to).into_response(),
        BrowserAnswer::Error(err) => err.into_response(),
        BrowserAnswer::SignedOut(answer) => {
            let mut response = respond(state, *answer);
            if let Ok(value) = HeaderValue::from_str(&cookie::clear(&state.config)) {
                response.headers_mut().append(header::SET_COOKIE, value);
            }
            response
        }
        BrowserAnswer::Page(page) => {
            let status = match page.status {
                PageStatus::Shown => StatusCode::OK,
                PageStatus::Invalid => StatusCode::BAD_REQUEST,
                PageStatus::Refused => StatusCode::FORBIDDEN,
            };
            let mut response = (status, Html(page.html)).into_response();
            let form_action = page
                .form_action
                .map_or_else(|| "'self'".to_owned(), |origin| format!("'self' {origin}"));
            let csp = format!(
                "default-src 'none'; style-src 'unsafe-inline'; form-action {form_action}; frame-ancestors 'none'; base-uri 'none'"
            );
            let headers = response.headers_mut();
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            if let Ok(csp) = HeaderValue::from_str(&csp) {
                headers.insert(header::CONTENT_SECURITY_POLICY, csp);
            }
            response
        }
    }
}
