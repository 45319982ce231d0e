//! `GET /api/auth/google/start` and `GET /api/auth/google/callback`: the popup's trip to the
//! identity provider. The callback page posts the ID token (or an error code) to the opener,
//! only to the main platform's origin, then closes.

use axum::{
    extract::{Query, State, rejection::QueryRejection},
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

#[derive(Deserialize, Default)]
pub struct StartParams {
    pub intent: Option<String>,
    pub role: Option<String>,
}

#[derive(Deserialize, Default)]
pub struct CallbackParams {
    pub code: Option<String>,
    pub state: Option<String>,
    pub error: Option<String>,
}

/// A start's query string that does not parse (a field given twice): an intent that is none
/// of the allowed ones, so the answer names what the start takes, in the envelope.
pub(super) fn start_params(query: Result<Query<StartParams>, QueryRejection>) -> StartParams {
    query.map_or_else(
        |_| StartParams {
            intent: Some(String::new()),
            role: None,
        },
        |Query(params)| params,
    )
}

/// A callback's query string that does not parse: no code and no state, which the flow refuses
/// on the popup's page like any other callback it cannot finish.
pub(super) fn callback_params(query: Result<Query<CallbackParams>, QueryRejection>) -> CallbackParams {
    query.map_or_else(|_| CallbackParams::default(), |Query(params)| params)
}

impl StartParams {
    /// The intent (login when left out), one of `allowed`, and the role a registration needs.
    pub(super) fn checked(&self, allowed: &[&str]) -> Result<(String, Option<String>), ErrorResponse> {
        let intent = self.intent.as_deref().unwrap_or("login");
        if !allowed.contains(&intent) {
            let message = format!("intent must be {}", allowed.join(" or "));
            return Err(ErrorResponse::new(Code::BadUserInput, message));
        }
        let role = if intent == "register" {
            match Role::parse_selectable(self.role.as_deref()) {
                Ok(role) => Some(role.as_str().to_owned()),
                Err(message) => {
                    return Err(ErrorResponse::from(Error::field("role", message)));
                }
            }
        } else {
            None
        };
        Ok((intent.to_owned(), role))
    }
}

/// The cookie that carries a pending popup flow, on the provider's own routes only.
pub(super) fn flow_cookie(state: &AppState, name: &str, path: &str, value: &str, max_age: i64) -> String {
    // Lax (not Strict): the provider's redirect back is a top-level navigation from its site.
    let secure = if state.config.env.is_local() {
        ""
    } else {
        "; Secure"
    };
    format!("{name}={value}; Path={path}; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}")
}

fn google_cookie(state: &AppState, value: &str, max_age: i64) -> String {
    flow_cookie(state, COOKIE, "/api/auth/google", value, max_age)
}

pub async fn start(
    State(state): State<AppState>,
    query: Result<Query<StartParams>, QueryRejection>,
) -> Response {
    let (intent, role) = match start_params(query).checked(&["login", "register"]) {
        Ok(checked) => checked,
        Err(refusal) => return refusal.into_response(),
    };
    match flow::start(
        &state.google,
        &state.keys,
        &state.config.platforms.main,
        &intent,
        role,
    ) {
        Ok((url, sealed)) => {
            let mut response = Redirect::to(&url).into_response();
            if let Ok(cookie) = HeaderValue::from_str(&google_cookie(&state, &sealed, FLOW_TTL_SECS)) {
                response.headers_mut().insert(header::SET_COOKIE, cookie);
            }
            response
        }
        // Not configured (the one way starting fails): as for the other providers.
        Err(_) => super::providers::not_found().into_response(),
    }
}

pub async fn callback(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<CallbackParams>, QueryRejection>,
) -> Response {
    let params = callback_params(query);
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
    popup_response(&state, &message, &google_cookie(&state, "", 0))
}

/// The popup's last page: posts `message` to the opener (the main site's origin only), keeps
/// it readable as `<script type="application/json" id="oauth-result">`, clears the flow cookie
/// and closes.
pub(super) fn popup_response(state: &AppState, message: &serde_json::Value, clear_cookie: &str) -> Response {
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
    if let Ok(clear) = HeaderValue::from_str(clear_cookie) {
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
         <script type=\"application/json\" id=\"oauth-result\">{message}</script>\
         <script nonce=\"{nonce}\">(function(){{var m={message};\
         if(window.opener){{window.opener.postMessage(m,{origin});}}window.close();}})();</script></body></html>"
    )
}
