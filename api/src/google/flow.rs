//! The popup's authorization-code flow: `start` sends the browser to the provider with PKCE,
//! a random state and a nonce kept in a short-lived signed cookie; `finish` checks them,
//! exchanges the code and returns the verified ID token for the page to hand to the site.

use oauth2::{CsrfToken, PkceCodeChallenge, Scope};

use super::Google;
pub use crate::providers::flow::{FLOW_TTL_SECS, FlowError, Pending};
use crate::{
    accounts::tokens::{self, Keys},
    providers::flow::{CodeClient, code_client, exchange, seal},
};

pub const COOKIE: &str = "ts_google_flow";

fn client(google: &Google, main_url: &str) -> Result<CodeClient, FlowError> {
    let config = &google.config;
    let client_id = config.client_id.as_deref().ok_or(FlowError::NotConfigured)?;
    code_client(
        client_id,
        config.client_secret.as_ref(),
        &config.auth_url,
        &config.token_url,
        format!("{main_url}/api/auth/google/callback"),
    )
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
    let pending = Pending::new("google", &state, nonce, &verifier, intent, role);
    Ok((url.to_string(), seal(keys, "google-flow", &pending)))
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
    let client = client(google, main_url)?;
    let (response, pending) = exchange(
        google.http(),
        keys,
        "google-flow",
        "google",
        &client,
        cookie,
        code,
        state,
    )
    .await?;
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
