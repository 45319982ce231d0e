//! Sign-in providers as one family: LinkedIn and Microsoft (OpenID Connect) and GitHub (OAuth
//! 2.0 and its user API) share one popup flow, one ticket and one identity table; Google keeps
//! its own calls (SPEC.md) and shares the identities and the rules for joining an account.
//! Every URL is configuration, so tests run this code against stand-in providers.

pub mod config;
pub mod flow;
pub mod github;
pub mod jwks;
pub mod openid;
pub mod sign_in;
pub mod tickets;

use std::{fmt, time::Duration};

use serde::Deserialize;

use self::{config::ProvidersConfig, jwks::Jwks};

/// The providers a person may sign in with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Provider {
    Google,
    LinkedIn,
    Microsoft,
    GitHub,
}

impl Provider {
    pub const ALL: [Self; 4] = [Self::Google, Self::LinkedIn, Self::Microsoft, Self::GitHub];

    /// The name in paths, tables and the site's configuration.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Google => "google",
            Self::LinkedIn => "linkedin",
            Self::Microsoft => "microsoft",
            Self::GitHub => "github",
        }
    }

    /// The name people read.
    pub fn label(self) -> &'static str {
        match self {
            Self::Google => "Google",
            Self::LinkedIn => "LinkedIn",
            Self::Microsoft => "Microsoft",
            Self::GitHub => "GitHub",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == name)
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Who a provider says the person is, checked: `subject` is the identity; `email` is joined to
/// an existing account only when `email_vouched`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderIdentity {
    pub provider: Provider,
    pub subject: String,
    pub email: Option<String>,
    pub email_vouched: bool,
    pub name: Option<String>,
}

/// Providers have sent `email_verified` both as a boolean and as a string.
#[derive(Deserialize, Default, Debug)]
#[serde(untagged)]
pub enum BoolOrString {
    Bool(bool),
    Text(String),
    #[default]
    Missing,
}

impl BoolOrString {
    pub fn is_true(&self) -> bool {
        matches!(self, Self::Bool(true)) || matches!(self, Self::Text(t) if t == "true")
    }
}

/// The configured providers (beyond Google) with their HTTP client and key sets.
pub struct Providers {
    pub config: ProvidersConfig,
    http: reqwest::Client,
    linkedin_keys: Option<Jwks>,
    microsoft_keys: Option<Jwks>,
}

impl Providers {
    pub fn new(config: ProvidersConfig) -> Self {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("an HTTP client with rustls");
        let keys = |c: &Option<config::OpenIdConfig>| {
            c.as_ref().map(|c| Jwks::new(c.jwks_url.clone(), http.clone()))
        };
        Self {
            linkedin_keys: keys(&config.linkedin),
            microsoft_keys: keys(&config.microsoft),
            config,
            http,
        }
    }

    pub fn http(&self) -> &reqwest::Client {
        &self.http
    }

    /// The OpenID Connect settings and key set of `provider`, when configured.
    pub fn openid(&self, provider: Provider) -> Option<(&config::OpenIdConfig, &Jwks)> {
        match provider {
            Provider::LinkedIn => self.config.linkedin.as_ref().zip(self.linkedin_keys.as_ref()),
            Provider::Microsoft => self.config.microsoft.as_ref().zip(self.microsoft_keys.as_ref()),
            Provider::Google | Provider::GitHub => None,
        }
    }

    pub fn is_configured(&self, provider: Provider) -> bool {
        configured(&self.config).contains(&provider)
    }
}

/// The providers of the shared popup flow that are configured, in the site's order.
pub fn configured(config: &ProvidersConfig) -> Vec<Provider> {
    let mut providers = Vec::new();
    if config.linkedin.is_some() {
        providers.push(Provider::LinkedIn);
    }
    if config.microsoft.is_some() {
        providers.push(Provider::Microsoft);
    }
    if config.github.is_some() {
        providers.push(Provider::GitHub);
    }
    providers
}
