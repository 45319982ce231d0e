//! The popup's authorization-code flow for LinkedIn, Microsoft and GitHub: `start` sends the
//! browser to the provider with PKCE, a random state and (OpenID Connect) a nonce, kept in a
//! short-lived signed cookie; `finish` checks them, exchanges the code and learns who the
//! person is: from the ID token (OpenID Connect) or from GitHub's user API.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::Utc;
use oauth2::{
    AuthUrl, AuthorizationCode, Client, ClientId, ClientSecret, CsrfToken, EndpointNotSet, EndpointSet,
    ExtraTokenFields, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope, StandardRevocableToken,
    StandardTokenResponse, TokenResponse as _, TokenUrl,
    basic::{
        BasicErrorResponse, BasicRevocationErrorResponse, BasicTokenIntrospectionResponse, BasicTokenType,
    },
};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use super::{Provider, ProviderIdentity, Providers, github, openid};
use crate::{
    accounts::{
        fields::Email,
        tokens::{self, Keys},
    },
    config::Secret,
};

/// How long the person has to finish at the provider.
pub const FLOW_TTL_SECS: i64 = 600;

/// Why the popup failed, as the code posted to the opener.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlowError {
    NotConfigured,
    StateMismatch,
    AccessDenied,
    ExchangeFailed,
    InvalidToken,
    /// The provider gave no email address, or one that is not an address.
    EmailUnavailable,
}

impl FlowError {
    pub fn code(self) -> &'static str {
        match self {
            Self::NotConfigured => "not-configured",
            Self::StateMismatch => "state-mismatch",
            Self::AccessDenied => "access-denied",
            Self::ExchangeFailed => "exchange-failed",
            Self::InvalidToken => "invalid-token",
            Self::EmailUnavailable => "email-unavailable",
        }
    }
}

/// The ID token beside the access token, when the provider speaks OpenID Connect.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct IdTokenField {
    pub id_token: Option<String>,
}

impl ExtraTokenFields for IdTokenField {}

pub type CodeTokenResponse = StandardTokenResponse<IdTokenField, BasicTokenType>;
pub type CodeClient = Client<
    BasicErrorResponse,
    CodeTokenResponse,
    BasicTokenIntrospectionResponse,
    StandardRevocableToken,
    BasicRevocationErrorResponse,
    EndpointSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointSet,
>;

/// An authorization-code client for `redirect`.
///
/// # Errors
/// `NotConfigured` for URLs that do not parse.
pub fn code_client(
    client_id: &str,
    secret: Option<&Secret>,
    auth_url: &str,
    token_url: &str,
    redirect: String,
) -> Result<CodeClient, FlowError> {
    let mut client = Client::new(ClientId::new(client_id.to_owned()))
        .set_auth_uri(AuthUrl::new(auth_url.to_owned()).map_err(|_| FlowError::NotConfigured)?)
        .set_token_uri(TokenUrl::new(token_url.to_owned()).map_err(|_| FlowError::NotConfigured)?)
        .set_redirect_uri(RedirectUrl::new(redirect).map_err(|_| FlowError::NotConfigured)?);
    if let Some(secret) = secret {
        client = client.set_client_secret(ClientSecret::new(secret.expose().to_owned()));
    }
    Ok(client)
}

/// What the cookie remembers between start and callback.
#[derive(Debug, Serialize, Deserialize)]
pub struct Pending {
    pub provider: String,
    pub state: String,
    pub nonce: String,
    pub verifier: String,
    pub intent: String,
    pub role: Option<String>,
    pub expires: i64,
}

impl Pending {
    /// What a flow started now for `provider` keeps until its callback.
    pub fn new(
        provider: &str,
        state: &CsrfToken,
        nonce: String,
        verifier: &PkceCodeVerifier,
        intent: &str,
        role: Option<String>,
    ) -> Self {
        Self {
            provider: provider.to_owned(),
            state: state.secret().clone(),
            nonce,
            verifier: verifier.secret().clone(),
            intent: intent.to_owned(),
            role,
            expires: Utc::now().timestamp() + FLOW_TTL_SECS,
        }
    }
}

/// Checks the callback's state against the flow's cookie (sealed under `label`, for
/// `provider`, unexpired) and exchanges the code with PKCE: the provider's token response and
/// what the cookie kept.
///
/// # Errors
/// `StateMismatch`, `AccessDenied` (no code), `ExchangeFailed`.
#[allow(clippy::too_many_arguments)]
pub async fn exchange(
    http: &reqwest::Client,
    keys: &Keys,
    label: &str,
    provider: &str,
    client: &CodeClient,
    cookie: Option<&str>,
    code: Option<&str>,
    state: Option<&str>,
) -> Result<(CodeTokenResponse, Pending), FlowError> {
    let pending: Pending = cookie
        .and_then(|c| open(keys, label, c))
        .ok_or(FlowError::StateMismatch)?;
    if pending.provider != provider
        || pending.expires < Utc::now().timestamp()
        || !state.is_some_and(|s| tokens::same(s, &pending.state))
    {
        return Err(FlowError::StateMismatch);
    }
    let code = code.ok_or(FlowError::AccessDenied)?;
    let response = client
        .exchange_code(AuthorizationCode::new(code.to_owned()))
        .set_pkce_verifier(PkceCodeVerifier::new(pending.verifier.clone()))
        .request_async(http)
        .await
        .map_err(|err| {
            tracing::warn!(error = %err, provider, "code exchange failed");
            FlowError::ExchangeFailed
        })?;
    Ok((response, pending))
}

/// The cookie that carries a provider's pending flow (its path is the provider's routes).
pub fn cookie_name(provider: Provider) -> String {
    format!("ts_{}_flow", provider.as_str())
}

fn client(providers: &Providers, provider: Provider, main_url: &str) -> Result<CodeClient, FlowError> {
    let redirect = format!("{main_url}/api/auth/{}/callback", provider.as_str());
    if let Some((config, _)) = providers.openid(provider) {
        return code_client(
            &config.client_id,
            Some(&config.client_secret),
            &config.auth_url,
            &config.token_url,
            redirect,
        );
    }
    match (provider, &providers.config.github) {
        (Provider::GitHub, Some(config)) => code_client(
            &config.client_id,
            Some(&config.client_secret),
            &config.auth_url,
            &config.token_url,
            redirect,
        ),
        _ => Err(FlowError::NotConfigured),
    }
}

/// The provider URL to send the popup to, and the signed cookie value to set.
///
/// # Errors
/// `NotConfigured` when the provider is not.
pub fn start(
    providers: &Providers,
    keys: &Keys,
    main_url: &str,
    provider: Provider,
    intent: &str,
    role: Option<String>,
) -> Result<(String, String), FlowError> {
    let client = client(providers, provider, main_url)?;
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let nonce = tokens::random_token();
    let mut request = client
        .authorize_url(CsrfToken::new_random)
        .set_pkce_challenge(challenge);
    request = if provider == Provider::GitHub {
        request
            .add_scope(Scope::new("read:user".to_owned()))
            .add_scope(Scope::new("user:email".to_owned()))
    } else {
        request
            .add_scope(Scope::new("openid".to_owned()))
            .add_scope(Scope::new("profile".to_owned()))
            .add_scope(Scope::new("email".to_owned()))
            .add_extra_param("nonce", nonce.clone())
    };
    let (url, state) = request.url();
    let pending = Pending::new(provider.as_str(), &state, nonce, &verifier, intent, role);
    Ok((url.to_string(), seal(keys, "provider-flow", &pending)))
}

/// Checks the state against the cookie, exchanges the code and learns who signed in.
///
/// # Errors
/// The reason, as a code for the opener.
pub async fn finish(
    providers: &Providers,
    keys: &Keys,
    main_url: &str,
    provider: Provider,
    cookie: Option<&str>,
    code: Option<&str>,
    state: Option<&str>,
) -> Result<(ProviderIdentity, Pending), FlowError> {
    let client = client(providers, provider, main_url)?;
    let (response, pending) = exchange(
        providers.http(),
        keys,
        "provider-flow",
        provider.as_str(),
        &client,
        cookie,
        code,
        state,
    )
    .await?;
    let identity = if provider == Provider::GitHub {
        let config = providers.config.github.as_ref().ok_or(FlowError::NotConfigured)?;
        github::identity(providers.http(), config, response.access_token().secret()).await?
    } else {
        let id_token = response
            .extra_fields()
            .id_token
            .as_deref()
            .ok_or(FlowError::ExchangeFailed)?;
        openid::verify(providers, provider, id_token, &pending.nonce).await?
    };
    // An address that is none (a 300-character one, "not-an-email") is told here, where the
    // popup can say so, rather than later as a ticket that signs no one in.
    if Email::parse(identity.email.as_deref()).is_err() {
        return Err(FlowError::EmailUnavailable);
    }
    Ok((identity, pending))
}

/// `value` as JSON, base64url, with a MAC under `label`: what a flow cookie holds.
pub fn seal(keys: &Keys, label: &str, value: &impl Serialize) -> String {
    let body = URL_SAFE_NO_PAD.encode(serde_json::to_vec(value).expect("serialisable"));
    let mac = keys.keyed_hash(&[label, &body]);
    format!("{body}.{mac}")
}

/// The value [`seal`] sealed under `label`, if the MAC checks out.
pub fn open<T: DeserializeOwned>(keys: &Keys, label: &str, sealed: &str) -> Option<T> {
    let (body, mac) = sealed.split_once('.')?;
    if !tokens::same(mac, &keys.keyed_hash(&[label, body])) {
        return None;
    }
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(body).ok()?).ok()
}
