//! `GET /api/auth/google/start` and `GET /api/auth/google/callback`: the popup's trip to the
//! identity provider. The callback page posts the ID token (or an error code) to the opener,
//! only to the main platform's origin, then closes.

use axum::{
    extract::{Query, State},
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Redirect, Response},
};
use serde::Deserialize;

use crate::{
    accounts::fields::Role,
    error::{Code, Error},
    google::flow::{self, COOKIE, FLOW_TTL_SECS, FlowError},
    http::error::ErrorResponse,
    state::AppState,
};

#[derive(Deserialize)]
pub struct StartParams {
    intent: Option<String>,
    role: Option<String>,
}

#[derive(Deserialize)]
pub struct CallbackParams {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

fn flow_cookie(state: &AppState, value: &str, max_age: i64) -> String {
    // Lax (not Strict): the provider's redirect back is a top-level navigation from its site.
    let secure = if state.config.env.is_local() {
        ""
    } else {
        "; Secure"
    };
    format!("{COOKIE}={value}; Path=/api/auth/google; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}")
}

pub async fn start(State(state): State<AppState>, Query(params): Query<StartParams>) -> Response {
    let intent = params.intent.as_deref().unwrap_or("login");
    if intent != "login" && intent != "register" {
        return ErrorResponse::new(Code::BadUserInput, "intent must be login or register").into_response();
    }
    let role = if intent == "register" {
        match Role::parse_selectable(params.role.as_deref()) {
            Ok(role) => Some(role.as_str().to_owned()),
            Err(message) => return ErrorResponse::from(Error::field("role", message)).into_response(),
        }
    } else {
        None
    };
    match flow::start(
        &state.google,
        &state.keys,
        &state.config.platforms.main,
        intent,
        role,
    ) {
        Ok((url, sealed)) => {
            let mut response = Redirect::to(&url).into_response();
            if let Ok(cookie) = HeaderValue::from_str(&flow_cookie(&state, &sealed, FLOW_TTL_SECS)) {
                response.headers_mut().insert(header::SET_COOKIE, cookie);
            }
            response
        }
        Err(_) => ErrorResponse::from(Error::Unavailable).into_response(),
    }
}

pub async fn callback(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(params): Query<CallbackParams>,
) -> Response {
    let cookie = super::caller::cookie(&headers, COOKIE);
    let result = if params.error.is_some() {
        Err(FlowError::AccessDenied)
    } else {
        flow::finish(
            &state.google,
            &state.keys,
            &state.config.platforms.main,
            cookie.as_deref(),
            params.code.as_deref(),
            params.state.as_deref(),
        )
        .await
    };
    let message = match &result {
        Ok((id_token, pending)) => serde_json::json!({
            "type": "google-id-token",
            "idToken": id_token,
            "intent": pending.intent,
            "role": pending.role,
        }),
        Err(err) => serde_json::json!({ "type": "google-error", "code": err.code() }),
    };
    let nonce = crate::accounts::tokens::random_token();
    let page = popup_page(&message.to_string(), &state.config.platforms.main, &nonce);
    let mut response = page.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(csp) = HeaderValue::from_str(&format!(
        "default-src 'none'; script-src 'nonce-{nonce}'; base-uri 'none'"
    )) {
        headers.insert(header::CONTENT_SECURITY_POLICY, csp);
    }
    if let Ok(clear) = HeaderValue::from_str(&flow_cookie(&state, "", 0)) {
        headers.insert(header::SET_COOKIE, clear);
    }
    response
}

fn popup_page(message: &str, target_origin: &str, nonce: &str) -> String {
    // JSON inside a script: `<` escaped so no value can end the element.
    let message = message.replace('<', "\\u003c");
    let origin = serde_json::to_string(target_origin)
        .unwrap_or_default()
        .replace('<', "\\u003c");
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Signing in…</title></head>\
         <body><p>Signing in… you can close this window.</p>\
         <script nonce=\"{nonce}\">(function(){{var m={message};\
         if(window.opener){{window.opener.postMessage(m,{origin});}}window.close();}})();</script></body></html>"
    )
}
