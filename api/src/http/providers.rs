//! `GET /api/auth/{provider}/start` and `GET /api/auth/{provider}/callback` for LinkedIn,
//! Microsoft and GitHub: the popup's trip to the provider. The callback page posts a ticket
//! (or an error code) to the opener, only to the main site's origin, and closes; the site then
//! spends the ticket with `POST /api/auth/oauth/login`, `/register` or `/link`.

use axum::{
    extract::{Query, State, rejection::QueryRejection},
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Redirect, Response},
};
use serde_json::json;

use super::{
    error::ErrorResponse,
    google::{CallbackParams, StartParams, callback_params, flow_cookie, popup_response, start_params},
};
use crate::{
    error::Error,
    providers::{
        Provider,
        flow::{self, FLOW_TTL_SECS, FlowError},
        tickets,
    },
    rest::input::Segments,
    state::AppState,
};

/// A provider's start or callback when that provider is unknown or not configured here.
pub(super) fn not_found() -> ErrorResponse {
    ErrorResponse::from(Error::NotFound("Sign-in provider not found".to_owned()))
}

/// One of the providers this flow serves, configured.
fn served(state: &AppState, name: &str) -> Result<Provider, ErrorResponse> {
    match Provider::parse(name) {
        Some(provider) if provider != Provider::Google && state.providers.is_configured(provider) => {
            Ok(provider)
        }
        _ => Err(not_found()),
    }
}

fn cookie(state: &AppState, provider: Provider, value: &str, max_age: i64) -> String {
    let path = format!("/api/auth/{}", provider.as_str());
    flow_cookie(state, &flow::cookie_name(provider), &path, value, max_age)
}

pub async fn start(
    State(state): State<AppState>,
    Segments(provider): Segments<String>,
    query: Result<Query<StartParams>, QueryRejection>,
) -> Response {
    let params = start_params(query);
    let provider = match served(&state, &provider) {
        Ok(provider) => provider,
        Err(refusal) => return refusal.into_response(),
    };
    let (intent, role) = match params.checked(&["login", "register", "link"]) {
        Ok(checked) => checked,
        Err(refusal) => return refusal.into_response(),
    };
    match flow::start(
        &state.providers,
        &state.keys,
        &state.config.platforms.main,
        provider,
        &intent,
        role,
    ) {
        Ok((url, sealed)) => {
            let mut response = Redirect::to(&url).into_response();
            if let Ok(value) = HeaderValue::from_str(&cookie(&state, provider, &sealed, FLOW_TTL_SECS)) {
                response.headers_mut().insert(header::SET_COOKIE, value);
            }
            response
        }
        Err(_) => ErrorResponse::from(Error::Unavailable).into_response(),
    }
}

pub async fn callback(
    State(state): State<AppState>,
    Segments(provider): Segments<String>,
    headers: HeaderMap,
    query: Result<Query<CallbackParams>, QueryRejection>,
) -> Response {
    let params = callback_params(query);
    let provider = match served(&state, &provider) {
        Ok(provider) => provider,
        Err(refusal) => return refusal.into_response(),
    };
    let sealed = super::caller::cookie(&headers, &flow::cookie_name(provider));
    let result = if params.error.is_some() {
        Err(FlowError::AccessDenied)
    } else {
        flow::finish(
            &state.providers,
            &state.keys,
            &state.config.platforms.main,
            provider,
            sealed.as_deref(),
            params.code.as_deref(),
            params.state.as_deref(),
        )
        .await
    };
    let ticket = match result {
        Ok((identity, _)) => tickets::issue(&state.db, &identity).await.map_err(|err| {
            tracing::error!(error = %err, "could not keep a sign-in ticket");
            FlowError::ExchangeFailed
        }),
        Err(err) => Err(err),
    };
    let message = match ticket {
        Ok(ticket) => json!({ "type": "oauth-result", "provider": provider.as_str(), "ticket": ticket }),
        Err(err) => json!({ "type": "oauth-error", "provider": provider.as_str(), "code": err.code() }),
    };
    popup_response(&state, &message, &cookie(&state, provider, "", 0))
}
