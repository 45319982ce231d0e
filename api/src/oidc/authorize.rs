//! The browser side of the provider: `GET /oauth2/authorize` (code flow with PKCE S256),
//! the consent screen for clients that are not first-party, and RP-initiated logout.

use axum::{
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{Html, IntoResponse, Redirect, Response},
};
use chrono::{DateTime, Utc};
use entity::{oauth_codes, oauth_consents, sessions as session_rows};
use openidconnect::{
    IdToken, IssuerUrl, JsonWebKeySet, Nonce, NonceVerifier,
    core::{
        CoreGenderClaim, CoreIdTokenVerifier, CoreJweContentEncryptionAlgorithm, CoreJwsSigningAlgorithm,
    },
};
use sea_orm::{ActiveModelTrait, EntityTrait, Set, sea_query::OnConflict};
use serde::Deserialize;
use url::Url;
use uuid::Uuid;

use super::{CODE_TTL, TalentClaims, backchannel, clients, keys, parse_scope};
use crate::{
    accounts::{cookie, sessions, tokens},
    client::Caller,
    html::escape,
    state::AppState,
};

/// The query of `GET /oauth2/authorize` (and the consent form, which carries it on).
#[derive(Debug, Default, Clone, Deserialize)]
pub struct AuthorizeQuery {
    pub client_id: Option<String>,
    pub redirect_uri: Option<String>,
    pub response_type: Option<String>,
    pub scope: Option<String>,
    pub state: Option<String>,
    pub nonce: Option<String>,
    pub code_challenge: Option<String>,
    pub code_challenge_method: Option<String>,
    pub prompt: Option<String>,
    pub max_age: Option<String>,
    /// Set by the provider itself when it sent the person to sign in again (prompt=login,
    /// max_age): a sign-in older than this does not count. Unix milliseconds and a keyed hash
    /// of them with the request's client, so a link cannot claim a sign-in is fresh.
    pub ts_after: Option<String>,
}

/// `ts_after` for a sign-in asked for at `millis` by `client_id`'s request.
fn signed_after(state: &AppState, millis: i64, client_id: &str) -> String {
    let millis = millis.to_string();
    format!(
        "{millis}.{}",
        state.keys.keyed_hash(&["ts_after", &millis, client_id])
    )
}

/// The moment a `ts_after` names, when the provider itself made it for this client.
fn verified_after(state: &AppState, value: &str, client_id: &str) -> Option<i64> {
    let (millis, mac) = value.split_once('.')?;
    let at: i64 = millis.parse().ok()?;
    tokens::same(mac, &state.keys.keyed_hash(&["ts_after", millis, client_id])).then_some(at)
}

impl AuthorizeQuery {
    fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        let mut push = |name: &'static str, value: &Option<String>| {
            if let Some(value) = value {
                pairs.push((name, value.clone()));
            }
        };
        push("client_id", &self.client_id);
        push("redirect_uri", &self.redirect_uri);
        push("response_type", &self.response_type);
        push("scope", &self.scope);
        push("state", &self.state);
        push("nonce", &self.nonce);
        push("code_challenge", &self.code_challenge);
        push("code_challenge_method", &self.code_challenge_method);
        push("prompt", &self.prompt);
        push("max_age", &self.max_age);
        push("ts_after", &self.ts_after);
        pairs
    }
}

/// A small page of the provider's own (errors, consent, signed out), no script.
fn page(state: &AppState, status: StatusCode, title: &str, body: &str) -> Response {
    page_posting_to(state, status, title, body, None)
}

/// [`page`] whose form may end up at `client_origin` (the consent form redirects there, and
/// browsers hold redirects after a form to its `form-action`).
fn page_posting_to(
    state: &AppState,
    status: StatusCode,
    title: &str,
    body: &str,
    client_origin: Option<&str>,
) -> Response {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{title} | {app}</title><meta name=\"robots\" content=\"noindex\"><style>\
body{{margin:0;font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;display:grid;place-items:center;min-height:100vh}}\
main{{max-width:28rem;margin:1rem;padding:2rem;border-radius:1rem;background:#1e293b}}h1{{margin-top:0;font-size:1.4rem}}\
a{{color:#a5b4fc}}ul{{padding-left:1.2rem}}.row{{display:flex;gap:.75rem;margin-top:1.5rem}}\
button{{font:inherit;font-weight:600;padding:.6rem 1.2rem;border-radius:.5rem;border:1px solid #94a3b8;background:transparent;color:#e2e8f0;cursor:pointer}}\
button.primary{{background:#4338ca;border-color:#4338ca;color:#fff}}</style></head><body><main><h1>{title}</h1>{body}</main></body></html>",
        title = escape(title),
        app = escape(&state.config.app_name),
    );
    let mut response = (status, Html(html)).into_response();
    let form_action = client_origin.map_or_else(|| "'self'".to_owned(), |origin| format!("'self' {origin}"));
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

fn error_page(state: &AppState, message: &str) -> Response {
    page(
        state,
        StatusCode::BAD_REQUEST,
        "This sign-in link is not valid",
        &format!(
            "<p>{}</p><p><a href=\"{}\">Go to {}</a></p>",
            escape(message),
            escape(&state.config.platforms.main),
            escape(&state.config.app_name)
        ),
    )
}

/// Back to the client with `params` (and the request's state and our issuer, RFC 9207).
fn back_to_client(
    state: &AppState,
    redirect_uri: &str,
    query: &AuthorizeQuery,
    params: &[(&str, &str)],
) -> Response {
    let Ok(mut url) = Url::parse(redirect_uri) else {
        return error_page(state, "The redirect URI is malformed.");
    };
    {
        let mut pairs = url.query_pairs_mut();
        for (name, value) in params {
            pairs.append_pair(name, value);
        }
        if let Some(client_state) = &query.state {
            pairs.append_pair("state", client_state);
        }
        pairs.append_pair("iss", &state.config.platforms.main);
    }
    Redirect::to(url.as_str()).into_response()
}

fn error_to_client(
    state: &AppState,
    redirect_uri: &str,
    query: &AuthorizeQuery,
    error: &str,
    description: &str,
) -> Response {
    back_to_client(
        state,
        redirect_uri,
        query,
        &[("error", error), ("error_description", description)],
    )
}

/// The site's sign-in screen, coming back to this request afterwards.
fn to_sign_in(state: &AppState, query: &AuthorizeQuery, fresh_after: Option<i64>) -> Response {
    let mut again = query.clone();
    // The provider remembers "sign in again" itself, so the return does not loop.
    if matches!(again.prompt.as_deref(), Some(p) if p.split(' ').any(|p| p == "login")) {
        again.prompt = None;
    }
    if let Some(after) = fresh_after {
        again.ts_after = Some(signed_after(
            state,
            after,
            query.client_id.as_deref().unwrap_or_default(),
        ));
    }
    let main = state.config.platforms.main.trim_end_matches('/');
    let mut back = Url::parse(&format!("{main}/oauth2/authorize")).expect("the main platform URL is a URL");
    back.query_pairs_mut().extend_pairs(again.pairs());
    let mut login = Url::parse(&format!("{main}/login")).expect("the main platform URL is a URL");
    login.query_pairs_mut().append_pair("redirect", back.as_str());
    Redirect::to(login.as_str()).into_response()
}

/// The signed-in session behind the browser's cookie, with when it signed in.
async fn browser_session(
    state: &AppState,
    caller: &Caller,
) -> crate::error::Result<Option<(sessions::Viewer, DateTime<Utc>)>> {
    let Some(viewer) = sessions::optional(state, caller.token.as_deref()).await? else {
        return Ok(None);
    };
    let signed_in_at = session_rows::Entity::find_by_id(viewer.session_id)
        .one(&state.db)
        .await?
        .map(|s| s.created_at);
    Ok(signed_in_at.map(|at| (viewer, at)))
}

/// The request's client and its redirect URI when both are registered; else the error page
/// (never a redirect to an address the client did not register).
async fn registered(
    state: &AppState,
    query: &AuthorizeQuery,
) -> crate::error::Result<Result<(clients::Client, String), Response>> {
    let Some(client) = clients::find(&state.db, query.client_id.as_deref().unwrap_or_default()).await? else {
        return Ok(Err(error_page(
            state,
            "The application that sent you here is not registered.",
        )));
    };
    match query
        .redirect_uri
        .clone()
        .filter(|uri| client.redirect_uris.contains(uri))
    {
        Some(uri) => Ok(Ok((client, uri))),
        None => Ok(Err(error_page(
            state,
            "The application asked to return to an address it has not registered.",
        ))),
    }
}

/// `GET /oauth2/authorize`.
pub async fn authorize(state: &AppState, caller: &Caller, query: AuthorizeQuery) -> Response {
    match authorize_inner(state, caller, query, false).await {
        Ok(response) => response,
        Err(err) => super::OAuthError::from(err).into_response(),
    }
}

async fn authorize_inner(
    state: &AppState,
    caller: &Caller,
    query: AuthorizeQuery,
    consented: bool,
) -> crate::error::Result<Response> {
    // Until the client and its redirect URI are known good, nothing is sent back to it.
    let (client, redirect_uri) = match registered(state, &query).await? {
        Ok(found) => found,
        Err(page) => return Ok(page),
    };
    let fail = |error: &str, description: &str| {
        Ok(error_to_client(state, &redirect_uri, &query, error, description))
    };
    if query.response_type.as_deref() != Some("code") {
        return fail(
            "unsupported_response_type",
            "Only the code response type is supported",
        );
    }
    let Some(scopes) = parse_scope(query.scope.as_deref()) else {
        return fail("invalid_scope", "The openid scope is required");
    };
    let challenge = query.code_challenge.clone().unwrap_or_default();
    if query.code_challenge_method.as_deref() != Some("S256") || challenge.len() != 43 {
        return fail(
            "invalid_request",
            "PKCE with code_challenge_method=S256 is required",
        );
    }
    if query.nonce.as_ref().is_some_and(|n| n.len() > 512)
        || query.state.as_ref().is_some_and(|s| s.len() > 1024)
    {
        return fail("invalid_request", "nonce or state is too long");
    }
    let prompts: Vec<&str> = query
        .prompt
        .as_deref()
        .unwrap_or_default()
        .split(' ')
        .filter(|p| !p.is_empty())
        .collect();
    let prompt_none = prompts.contains(&"none");
    if prompt_none && prompts.len() > 1 {
        return fail("invalid_request", "prompt=none cannot be combined");
    }
    let max_age = match query.max_age.as_deref() {
        Some(age) => match age.parse::<i64>() {
            Ok(age) if age >= 0 => Some(age),
            _ => return fail("invalid_request", "max_age must be a number of seconds"),
        },
        None => None,
    };

    let now = Utc::now();
    let session = browser_session(state, caller).await?;
    let Some((viewer, signed_in_at)) = session else {
        if prompt_none {
            return fail("login_required", "The user is not signed in");
        }
        return Ok(to_sign_in(state, &query, None));
    };
    // Back from the sign-in this request asked for: that sign-in is the fresh one `max_age`
    // wants, however long the trip took (`max_age=0` would otherwise never be met). Only a
    // mark the provider made counts; a forged or foreign one is ignored, so `max_age=0`
    // always asks again.
    let asked_after = query
        .ts_after
        .as_deref()
        .and_then(|value| verified_after(state, value, &client.client_id));
    let signed_in_since_asked = asked_after.is_some_and(|after| signed_in_at.timestamp_millis() >= after);
    let too_old_for_max_age = !signed_in_since_asked
        && max_age.is_some_and(|age| signed_in_at + chrono::Duration::seconds(age) <= now);
    let before_requested = asked_after.is_some() && !signed_in_since_asked;
    if prompts.contains(&"login") || too_old_for_max_age || before_requested {
        if prompt_none {
            return fail("login_required", "A fresh sign-in is required");
        }
        // Sign in again; only a sign-in from now on counts on the way back.
        return Ok(to_sign_in(state, &query, Some(now.timestamp_millis())));
    }

    let scope = scopes.join(" ");
    // `prompt=consent`: the person is asked, whatever they approved before.
    if prompts.contains(&"consent") && !consented {
        return Ok(consent_page(state, &client.name, &scopes, &query, &redirect_uri));
    }
    if !client.first_party && !consented {
        let remembered = oauth_consents::Entity::find_by_id((viewer.user.id, client.client_id.clone()))
            .one(&state.db)
            .await?
            .is_some_and(|c| scopes.iter().all(|s| c.scope.split(' ').any(|held| held == *s)));
        if !remembered {
            if prompt_none {
                return fail("consent_required", "The user has not approved this application");
            }
            return Ok(consent_page(state, &client.name, &scopes, &query, &redirect_uri));
        }
    }

    let code = tokens::random_token();
    oauth_codes::ActiveModel {
        code_hash: Set(tokens::sha256_hex(&code)),
        grant_id: Set(Uuid::new_v4()),
        client_id: Set(client.client_id.clone()),
        user_id: Set(viewer.user.id),
        session_id: Set(viewer.session_id),
        redirect_uri: Set(redirect_uri.clone()),
        code_challenge: Set(challenge),
        nonce: Set(query.nonce.clone()),
        scope: Set(scope),
        auth_time: Set(signed_in_at),
        expires_at: Set(now + CODE_TTL),
        used_at: Set(None),
    }
    .insert(&state.db)
    .await?;
    Ok(back_to_client(state, &redirect_uri, &query, &[("code", &code)]))
}

fn scope_words(scope: &str) -> &'static str {
    match scope {
        "openid" => "Know who you are on Talent Suite (your account id and role)",
        "email" => "See your email address",
        _ => "See your name",
    }
}

fn consent_page(
    state: &AppState,
    client_name: &str,
    scopes: &[&str],
    query: &AuthorizeQuery,
    redirect_uri: &str,
) -> Response {
    let items: String = scopes
        .iter()
        .map(|s| format!("<li>{}</li>", escape(scope_words(s))))
        .collect();
    let hidden: String = query
        .pairs()
        .iter()
        .map(|(name, value)| {
            format!(
                "<input type=\"hidden\" name=\"{name}\" value=\"{}\">",
                escape(value)
            )
        })
        .collect();
    let body = format!(
        "<p><strong>{client}</strong> wants to use your {app} account to sign you in. It will be able to:</p><ul>{items}</ul>\
<form method=\"post\" action=\"/oauth2/authorize/consent\">{hidden}\
<div class=\"row\"><button class=\"primary\" type=\"submit\" name=\"decision\" value=\"allow\">Allow</button>\
<button type=\"submit\" name=\"decision\" value=\"deny\">Deny</button></div></form>\
<p><small>You can take this back at any time on your Security page.</small></p>",
        client = escape(client_name),
        app = escape(&state.config.app_name),
    );
    let origin = Url::parse(redirect_uri)
        .ok()
        .map(|u| u.origin().ascii_serialization());
    page_posting_to(
        state,
        StatusCode::OK,
        &format!("Allow {client_name}?"),
        &body,
        origin.as_deref(),
    )
}

/// The consent form's body: the authorize request carried on, and the decision.
#[derive(Debug, Default, Deserialize)]
pub struct ConsentForm {
    #[serde(flatten)]
    pub query: AuthorizeQuery,
    pub decision: Option<String>,
}

/// `POST /oauth2/authorize/consent`: only from the provider's own page (its origin, and the
/// SameSite=Lax session cookie, which a cross-site form does not carry).
pub async fn consent(state: &AppState, caller: &Caller, headers: &HeaderMap, form: ConsentForm) -> Response {
    if !from_own_page(state, headers) {
        return refused_form(state);
    }
    let query = form.query;
    let result = async {
        let (client, redirect_uri) = match registered(state, &query).await? {
            Ok(found) => found,
            Err(page) => return Ok(page),
        };
        let Some(viewer) = sessions::optional(state, caller.token.as_deref()).await? else {
            return Ok(to_sign_in(state, &query, None));
        };
        if form.decision.as_deref() != Some("allow") {
            return Ok(error_to_client(
                state,
                &redirect_uri,
                &query,
                "access_denied",
                "The user denied the request",
            ));
        }
        let scope = parse_scope(query.scope.as_deref()).unwrap_or_default().join(" ");
        oauth_consents::Entity::insert(oauth_consents::ActiveModel {
            user_id: Set(viewer.user.id),
            client_id: Set(client.client_id.clone()),
            scope: Set(scope),
            created_at: Set(Utc::now()),
        })
        .on_conflict(
            OnConflict::columns([oauth_consents::Column::UserId, oauth_consents::Column::ClientId])
                .update_columns([oauth_consents::Column::Scope, oauth_consents::Column::CreatedAt])
                .to_owned(),
        )
        .exec(&state.db)
        .await?;
        crate::audit::Event::new(
            crate::audit::Kind::ConsentGiven,
            Some(viewer.user.id),
            &caller.client,
        )
        .detail(format!("client {}", client.client_id))
        .record(&state.db)
        .await?;
        authorize_inner(state, caller, query, true).await
    }
    .await;
    result.unwrap_or_else(|err: crate::error::Error| super::OAuthError::from(err).into_response())
}

/// The query of `GET /oauth2/logout` (RP-initiated logout 1.0), or its form.
#[derive(Debug, Default, Deserialize)]
pub struct LogoutQuery {
    pub id_token_hint: Option<String>,
    pub client_id: Option<String>,
    pub post_logout_redirect_uri: Option<String>,
    pub state: Option<String>,
    /// `yes` from the provider's own confirmation page.
    pub confirm: Option<String>,
}

struct AnyNonce;

impl NonceVerifier for AnyNonce {
    fn verify(self, _nonce: Option<&Nonce>) -> Result<(), String> {
        Ok(())
    }
}

type HintToken =
    IdToken<TalentClaims, CoreGenderClaim, CoreJweContentEncryptionAlgorithm, CoreJwsSigningAlgorithm>;

/// What a valid `id_token_hint` says: the client it was issued to, whom, and which session.
struct Hint {
    client_id: String,
    sub: String,
    sid: Option<String>,
}

/// The claims of an `id_token_hint`, when it is one of ours (an expired one counts).
async fn read_hint(state: &AppState, hint: &str) -> Option<Hint> {
    let token: HintToken = hint.parse().ok()?;
    let payload = hint.split('.').nth(1)?;
    let claims: serde_json::Value = serde_json::from_slice(
        &base64::Engine::decode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, payload).ok()?,
    )
    .ok()?;
    let audience = match &claims["aud"] {
        serde_json::Value::String(a) => a.clone(),
        serde_json::Value::Array(list) => list.first()?.as_str()?.to_owned(),
        _ => return None,
    };
    let jwks: JsonWebKeySet<_> = keys::published(&state.db, &state.vault).await.ok()?;
    let issuer = IssuerUrl::new(state.config.platforms.main.clone()).ok()?;
    let issued_at = claims["iat"].as_i64()?;
    let verifier =
        CoreIdTokenVerifier::new_public_client(openidconnect::ClientId::new(audience.clone()), issuer, jwks)
            .set_allowed_algs(vec![
                CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256,
                CoreJwsSigningAlgorithm::EdDsa,
            ])
            // A hint may have expired: the signature and issuer are what matter.
            .set_time_fn(move || DateTime::from_timestamp(issued_at, 0).unwrap_or_default());
    let verified = token.claims(&verifier, AnyNonce).ok()?;
    Some(Hint {
        client_id: audience,
        sub: verified.subject().to_string(),
        sid: verified.additional_claims().sid.clone(),
    })
}

/// `GET|POST /oauth2/logout`: ends the Talent Suite session of this browser (its clients hear
/// of it through back-channel logout) and returns to a registered post-logout URI.
///
/// Signing out at once needs an `id_token_hint` issued for this very session: any other
/// request (no hint, or a hint for another session) gets a confirmation page first, so a link
/// or an image on another site cannot sign a person out. `confirmed` is that page's answer.
pub async fn logout(state: &AppState, caller: &Caller, query: LogoutQuery, confirmed: bool) -> Response {
    let hint = match query.id_token_hint.as_deref() {
        Some(hint) => match read_hint(state, hint).await {
            Some(hint) => Some(hint),
            None => return error_page(state, "The sign-out link carries a token that is not ours."),
        },
        None => None,
    };
    let client_id = hint
        .as_ref()
        .map(|h| h.client_id.clone())
        .or(query.client_id.clone());
    let client = match client_id.as_deref() {
        Some(id) => clients::find(&state.db, id).await.ok().flatten(),
        None => None,
    };
    let destination = match (&query.post_logout_redirect_uri, &client) {
        (Some(uri), Some(client)) if client.post_logout_redirect_uris.contains(uri) => Some(uri.clone()),
        (Some(_), _) => {
            return error_page(
                state,
                "The application asked to return to an address it has not registered.",
            );
        }
        _ => None,
    };

    let viewer = match sessions::optional(state, caller.token.as_deref()).await {
        Ok(viewer) => viewer,
        Err(err) => return super::OAuthError::from(err).into_response(),
    };
    if let Some(viewer) = &viewer {
        let hinted_this_session = hint.as_ref().is_some_and(|hint| {
            hint.sub == viewer.user.id.to_string()
                && hint
                    .sid
                    .as_deref()
                    .is_none_or(|sid| sid == viewer.session_id.to_string())
        });
        if !hinted_this_session && !confirmed {
            let name = client.as_ref().map(|c| c.name.clone());
            return logout_confirmation(state, &query, client_id.as_deref(), name.as_deref());
        }
        if let Err(err) = end_browser_session(state, caller, viewer).await {
            return super::OAuthError::from(err).into_response();
        }
    }
    let mut response = match destination {
        Some(uri) => {
            let mut url = Url::parse(&uri).expect("registered URIs are URLs");
            if let Some(client_state) = &query.state {
                url.query_pairs_mut().append_pair("state", client_state);
            }
            Redirect::to(url.as_str()).into_response()
        }
        None => page(
            state,
            StatusCode::OK,
            "You are signed out",
            &format!(
                "<p>You have been signed out of {app}.</p><p><a href=\"{home}\">Go to {app}</a></p>",
                app = escape(&state.config.app_name),
                home = escape(&state.config.platforms.main)
            ),
        ),
    };
    if let Ok(value) = HeaderValue::from_str(&cookie::clear(&state.config)) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    response
}

/// "Sign out of Talent Suite?", posting the request back to itself with `confirm=yes`.
fn logout_confirmation(
    state: &AppState,
    query: &LogoutQuery,
    client_id: Option<&str>,
    client_name: Option<&str>,
) -> Response {
    let mut fields = vec![("confirm", "yes".to_owned())];
    if let Some(id) = client_id {
        fields.push(("client_id", id.to_owned()));
    }
    if let Some(uri) = &query.post_logout_redirect_uri {
        fields.push(("post_logout_redirect_uri", uri.clone()));
    }
    if let Some(client_state) = &query.state {
        fields.push(("state", client_state.clone()));
    }
    let hidden: String = fields
        .iter()
        .map(|(name, value)| {
            format!(
                "<input type=\"hidden\" name=\"{name}\" value=\"{}\">",
                escape(value)
            )
        })
        .collect();
    let asked_by = client_name.map_or_else(String::new, |name| {
        format!("<p><strong>{}</strong> asked to sign you out.</p>", escape(name))
    });
    let body = format!(
        "{asked_by}<p>Do you want to sign out of {app} on this browser?</p>\
<form method=\"post\" action=\"/oauth2/logout\">{hidden}\
<div class=\"row\"><button class=\"primary\" type=\"submit\">Sign out</button>\
<a href=\"{home}\">Stay signed in</a></div></form>",
        app = escape(&state.config.app_name),
        home = escape(&state.config.platforms.main),
    );
    let origin = query
        .post_logout_redirect_uri
        .as_deref()
        .and_then(|uri| Url::parse(uri).ok())
        .map(|u| u.origin().ascii_serialization());
    page_posting_to(
        state,
        StatusCode::OK,
        &format!("Sign out of {}?", state.config.app_name),
        &body,
        origin.as_deref(),
    )
}

/// Whether a form came from the provider's own pages (its `Origin` is the main platform's).
pub fn from_own_page(state: &AppState, headers: &HeaderMap) -> bool {
    let main = Url::parse(&state.config.platforms.main).map(|u| u.origin().ascii_serialization());
    let origin = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok());
    origin.is_some() && main.as_deref().ok() == origin
}

/// The page a form from elsewhere gets.
pub fn refused_form(state: &AppState) -> Response {
    page(
        state,
        StatusCode::FORBIDDEN,
        "Request refused",
        "<p>This form can only be sent from its own page.</p>",
    )
}

async fn end_browser_session(
    state: &AppState,
    caller: &Caller,
    viewer: &sessions::Viewer,
) -> crate::error::Result<()> {
    backchannel::sessions_ending(&state.db, backchannel::session(viewer.session_id)).await?;
    session_rows::Entity::delete_by_id(viewer.session_id)
        .exec(&state.db)
        .await?;
    state.backchannel_ready.notify_one();
    crate::audit::Event::new(crate::audit::Kind::Logout, Some(viewer.user.id), &caller.client)
        .detail("RP-initiated")
        .record(&state.db)
        .await?;
    Ok(())
}
