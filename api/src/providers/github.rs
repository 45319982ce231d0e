//! GitHub's user API, after its OAuth exchange: the numeric id is the identity, the primary
//! address is the email, vouched for when GitHub marks it verified.

use serde::Deserialize;

use super::{Provider, ProviderIdentity, config::GitHubConfig, flow::FlowError};

#[derive(Deserialize)]
struct User {
    id: u64,
    login: Option<String>,
    name: Option<String>,
}

#[derive(Deserialize)]
struct Email {
    email: String,
    #[serde(default)]
    primary: bool,
    #[serde(default)]
    verified: bool,
}

async fn get<T: serde::de::DeserializeOwned>(
    http: &reqwest::Client,
    url: String,
    access_token: &str,
) -> Result<T, FlowError> {
    http.get(url)
        .bearer_auth(access_token)
        // GitHub refuses requests without a user agent.
        .header(reqwest::header::USER_AGENT, "Talent Suite")
        .header(reqwest::header::ACCEPT, "application/vnd.github+json")
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
        .map_err(|err| {
            tracing::warn!(error = %err, "GitHub's user API failed");
            FlowError::ExchangeFailed
        })?
        .json()
        .await
        .map_err(|_| FlowError::ExchangeFailed)
}

/// Who the access token belongs to.
///
/// # Errors
/// `ExchangeFailed` when the API answers with an error or something unreadable.
pub async fn identity(
    http: &reqwest::Client,
    config: &GitHubConfig,
    access_token: &str,
) -> Result<ProviderIdentity, FlowError> {
    let api = config.api_url.trim_end_matches('/');
    let user: User = get(http, format!("{api}/user"), access_token).await?;
    let emails: Vec<Email> = get(http, format!("{api}/user/emails"), access_token).await?;
    let primary = emails.into_iter().find(|e| e.primary);
    Ok(ProviderIdentity {
        provider: Provider::GitHub,
        subject: user.id.to_string(),
        email_vouched: primary.as_ref().is_some_and(|e| e.verified),
        email: primary.map(|e| e.email),
        name: user.name.or(user.login),
    })
}
