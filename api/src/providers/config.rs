//! The providers' settings: a provider is offered when its client id is set; every endpoint
//! defaults to the provider's real one.

use crate::config::{ConfigError, Secret};

/// An OpenID Connect provider (LinkedIn, Microsoft).
#[derive(Clone, Debug)]
pub struct OpenIdConfig {
    pub client_id: String,
    pub client_secret: Secret,
    /// The `iss` its ID tokens carry; Microsoft's multi-tenant one has `{tid}` for the tenant.
    pub issuer: String,
    pub auth_url: String,
    pub token_url: String,
    pub jwks_url: String,
}

#[derive(Clone, Debug)]
pub struct GitHubConfig {
    pub client_id: String,
    pub client_secret: Secret,
    pub auth_url: String,
    pub token_url: String,
    /// `{api}/user` and `{api}/user/emails`.
    pub api_url: String,
}

#[derive(Clone, Debug, Default)]
pub struct ProvidersConfig {
    pub linkedin: Option<OpenIdConfig>,
    pub microsoft: Option<OpenIdConfig>,
    pub github: Option<GitHubConfig>,
}

/// The client id, and the secret it needs, when the provider is configured.
fn client(
    get: &impl Fn(&str) -> Option<String>,
    id_name: &'static str,
    secret_name: &'static str,
) -> Result<Option<(String, Secret)>, ConfigError> {
    let Some(id) = get(id_name) else {
        return Ok(None);
    };
    let secret = get(secret_name).ok_or(ConfigError::Invalid {
        name: secret_name,
        reason: format!("{id_name} is set, so its secret is needed too"),
    })?;
    Ok(Some((id, Secret::new(secret))))
}

fn openid(
    get: &impl Fn(&str) -> Option<String>,
    names: [&'static str; 6],
    defaults: [&str; 4],
) -> Result<Option<OpenIdConfig>, ConfigError> {
    let [id, secret, issuer, auth, token, jwks] = names;
    let Some((client_id, client_secret)) = client(get, id, secret)? else {
        return Ok(None);
    };
    let or = |name: &str, default: &str| get(name).unwrap_or_else(|| default.to_owned());
    Ok(Some(OpenIdConfig {
        client_id,
        client_secret,
        issuer: or(issuer, defaults[0]),
        auth_url: or(auth, defaults[1]),
        token_url: or(token, defaults[2]),
        jwks_url: or(jwks, defaults[3]),
    }))
}

/// # Errors
/// A client id without its secret.
pub fn load(get: &impl Fn(&str) -> Option<String>) -> Result<ProvidersConfig, ConfigError> {
    let linkedin = openid(
        get,
        [
            "LINKEDIN_CLIENT_ID",
            "LINKEDIN_CLIENT_SECRET",
            "LINKEDIN_ISSUER",
            "LINKEDIN_AUTH_URL",
            "LINKEDIN_TOKEN_URL",
            "LINKEDIN_JWKS_URL",
        ],
        [
            "https://www.linkedin.com/oauth",
            "https://www.linkedin.com/oauth/v2/authorization",
            "https://www.linkedin.com/oauth/v2/accessToken",
            "https://www.linkedin.com/oauth/openid/jwks",
        ],
    )?;
    let microsoft = openid(
        get,
        [
            "MICROSOFT_CLIENT_ID",
            "MICROSOFT_CLIENT_SECRET",
            "MICROSOFT_ISSUER",
            "MICROSOFT_AUTH_URL",
            "MICROSOFT_TOKEN_URL",
            "MICROSOFT_JWKS_URL",
        ],
        [
            "https://login.microsoftonline.com/{tid}/v2.0",
            "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
            "https://login.microsoftonline.com/common/oauth2/v2.0/token",
            "https://login.microsoftonline.com/common/discovery/v2.0/keys",
        ],
    )?;
    let github =
        client(get, "GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET")?.map(|(client_id, client_secret)| {
            let or = |name: &str, default: &str| get(name).unwrap_or_else(|| default.to_owned());
            GitHubConfig {
                client_id,
                client_secret,
                auth_url: or("GITHUB_AUTH_URL", "https://github.com/login/oauth/authorize"),
                token_url: or("GITHUB_TOKEN_URL", "https://github.com/login/oauth/access_token"),
                api_url: or("GITHUB_API_URL", "https://api.github.com"),
            }
        });
    Ok(ProvidersConfig {
        linkedin,
        microsoft,
        github,
    })
}
