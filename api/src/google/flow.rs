//! The popup's authorization-code flow: `start` sends the browser to the provider with PKCE,
//! a random state and a nonce kept in a short-lived signed cookie; `finish` checks them,
//! exchanges the code and returns the verified ID token for the page to hand to the site.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::Utc;
use oauth2::{
    AuthUrl, AuthorizationCode, Client, ClientId, ClientSecret, CsrfToken, EndpointNotSet, EndpointSet,
    ExtraTokenFields, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope, StandardRevocableToken,
    StandardTokenResponse, TokenUrl,
    basic::{
        BasicErrorResponse, BasicRevocationErrorResponse, BasicTokenIntrospectionResponse, BasicTokenType,
    },
};
use serde::{Deserialize, Serialize};

use super::Google;
use crate::accounts::tokens::{self, Keys};

pub const COOKIE: &str = "ts_google_flow";
/// How long the person has to finish at the provider.
pub const FLOW_TTL_SECS: i64 = 600;

#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct IdTokenField {
    pub id_token: Option<String>,
}

impl ExtraTokenFields for IdTokenField {}

type TokenResponse = StandardTokenResponse<IdTokenField, BasicTokenType>;
type OidcClient = Client<
    BasicErrorResponse,
    TokenResponse,
    BasicTokenIntrospectionResponse,
    StandardRevocableToken,
    BasicRevocationErrorResponse,
    EndpointSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointSet,
>;

/// What the cookie remembers between start and callback.
#[derive(Debug, Serialize, Deserialize)]
pub struct Pending {
    pub state: String,
    pub nonce: String,
    pub verifier: String,
    pub intent: String,
    pub role: Option<String>,
    pub expires: i64,
}

/// Why the popup failed, as the code posted to the opener.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlowError {
    NotConfigured,
    StateMismatch,
    AccessDenied,
    ExchangeFailed,
    InvalidToken,
}

impl FlowError {
    pub fn code(self) -> &'static str {
        match self {
            Self::NotConfigured => "not-configured",
            Self::StateMismatch => "state-mismatch",
            Self::AccessDenied => "access-denied",
            Self::ExchangeFailed => "exchange-failed",
            Self::InvalidToken => "invalid-token",
        }
    }
}

fn client(google: &Google, main_url: &str) -> Result<OidcClient, FlowError> {
    let config = &google.config;
    let client_id = config.client_id.clone().ok_or(FlowError::NotConfigured)?;
    let mut client = Client::new(ClientId::new(client_id))
        .set_auth_uri(AuthUrl::new(config.auth_url.clone()).map_err(|_| FlowError::NotConfigured)?)
        .set_token_uri(TokenUrl::new(config.token_url.clone()).map_err(|_| FlowError::NotConfigured)?)
        .set_redirect_uri(
            RedirectUrl::new(format!("{main_url}/api/auth/google/callback"))
                .map_err(|_| FlowError::NotConfigured)?,
        );
    if let Some(secret) = &config.client_secret {
        client = client.set_client_secret(ClientSecret::new(secret.expose().to_owned()));
    }
    Ok(client)
}

/// The provider URL to send the popup to, and the signed cookie value to set.
///
/// # Errors
/// When Google is not configured.
pub fn start(
    google: &Google,
    keys: &Keys,
    main_url: &str,
    intent: &str,
    role: Option<String>,
) -> Result<(String, String), FlowError> {
    let client = client(google, main_url)?;
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let nonce = tokens::random_token();
    let (url, state) = client
        .authorize_url(CsrfToken::new_random)
        .add_scope(Scope::new("openid".to_owned()))
        .add_scope(Scope::new("email".to_owned()))
        .add_extra_param("nonce", nonce.clone())
        .add_extra_param("prompt", "select_account")
        .set_pkce_challenge(challenge)
        .url();
    let pending = Pending {
        state: state.secret().clone(),
        nonce,
        verifier: verifier.secret().clone(),
        intent: intent.to_owned(),
        role,
        expires: Utc::now().timestamp() + FLOW_TTL_SECS,
    };
    Ok((url.to_string(), seal(keys, &pending)))
}

/// Checks the state against the cookie, exchanges the code and verifies the ID token,
/// including its nonce.
///
/// # Errors
/// The reason, as a code for the opener.
pub async fn finish(
    google: &Google,
    keys: &Keys,
    main_url: &str,
    cookie: Option<&str>,
    code: Option<&str>,
    state: Option<&str>,
) -> Result<(String, Pending), FlowError> {
    let pending = cookie
        .and_then(|c| open(keys, c))
        .ok_or(FlowError::StateMismatch)?;
    if pending.expires < Utc::now().timestamp() || !state.is_some_and(|s| tokens::same(s, &pending.state)) {
        return Err(FlowError::StateMismatch);
    }
    let code = code.ok_or(FlowError::AccessDenied)?;
    let client = client(google, main_url)?;
    let response = client
        .exchange_code(AuthorizationCode::new(code.to_owned()))
        .set_pkce_verifier(PkceCodeVerifier::new(pending.verifier.clone()))
        .request_async(google.http())
        .await
        .map_err(|err| {
            tracing::warn!(error = %err, "Google code exchange failed");
            FlowError::ExchangeFailed
        })?;
    let id_token = response
        .extra_fields()
        .id_token
        .clone()
        .ok_or(FlowError::ExchangeFailed)?;
    let identity = google
        .verify(&id_token)
        .await
        .map_err(|_| FlowError::InvalidToken)?;
    if !identity
        .nonce
        .as_deref()
        .is_some_and(|n| tokens::same(n, &pending.nonce))
    {
        return Err(FlowError::InvalidToken);
    }
    Ok((id_token, pending))
}

fn seal(keys: &Keys, pending: &Pending) -> String {
    let body = URL_SAFE_NO_PAD.encode(serde_json::to_vec(pending).expect("serialisable"));
    let mac = keys.keyed_hash(&["google-flow", &body]);
    format!("{body}.{mac}")
}

fn open(keys: &Keys, sealed: &str) -> Option<Pending> {
    let (body, mac) = sealed.split_once('.')?;
    if !tokens::same(mac, &keys.keyed_hash(&["google-flow", body])) {
        return None;
    }
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(body).ok()?).ok()
}
