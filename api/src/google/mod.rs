//! Google identity: ID-token verification against the provider's JWKS, and the popup's
//! authorization-code flow (PKCE, state and nonce). Every URL is configuration, so tests
//! run the same code against a stand-in provider.

pub mod flow;

use std::time::{Duration, Instant};

use anyhow::Context;
use jsonwebtoken::{Algorithm, DecodingKey, Validation, jwk::JwkSet};
use serde::Deserialize;
use tokio::sync::Mutex;

use crate::{
    config::GoogleConfig,
    error::{Error, Result},
};

pub const INVALID_TOKEN: &str = "Invalid Google token";
pub const NOT_CONFIGURED: &str = "Google sign-in is not available right now";
/// A key set older than this is fetched again on next use.
const JWKS_TTL: Duration = Duration::from_secs(3600);
/// An unknown `kid` triggers a fetch at most this often.
const REFETCH_AT_MOST_EVERY: Duration = Duration::from_secs(5);

/// Who Google says the person is. `sub` is the identity; the email is verified by Google.
#[derive(Debug, Clone)]
pub struct GoogleIdentity {
    pub sub: String,
    pub email: String,
    pub name: Option<String>,
    pub nonce: Option<String>,
}

#[derive(Deserialize)]
struct Claims {
    sub: String,
    email: Option<String>,
    #[serde(default)]
    email_verified: BoolOrString,
    name: Option<String>,
    nonce: Option<String>,
}

/// Google has sent `email_verified` both as a boolean and as a string.
#[derive(Deserialize, Default)]
#[serde(untagged)]
enum BoolOrString {
    Bool(bool),
    Text(String),
    #[default]
    Missing,
}

impl BoolOrString {
    fn is_true(&self) -> bool {
        matches!(self, Self::Bool(true)) || matches!(self, Self::Text(t) if t == "true")
    }
}

#[derive(Default)]
struct KeyCache {
    keys: Option<JwkSet>,
    fetched_at: Option<Instant>,
}

pub struct Google {
    pub config: GoogleConfig,
    http: reqwest::Client,
    cache: Mutex<KeyCache>,
}

impl Google {
    pub fn new(config: GoogleConfig) -> Self {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("an HTTP client with rustls");
        Self {
            config,
            http,
            cache: Mutex::default(),
        }
    }

    pub fn http(&self) -> &reqwest::Client {
        &self.http
    }

    /// Checks an ID token: signed by a key of the JWKS, from the configured issuer, for our
    /// client id, unexpired, with a verified email.
    ///
    /// # Errors
    /// 401 'Invalid Google token'; 503 when Google is not configured or its keys are out of reach.
    pub async fn verify(&self, id_token: &str) -> Result<GoogleIdentity> {
        let client_id = self
            .config
            .client_id
            .as_deref()
            .ok_or_else(|| Error::Unavailable)?;
        let invalid = || Error::Unauthenticated(INVALID_TOKEN.to_owned());
        let header = jsonwebtoken::decode_header(id_token).map_err(|_| invalid())?;
        if header.alg != Algorithm::RS256 {
            return Err(invalid());
        }
        let kid = header.kid.ok_or_else(invalid)?;
        let key = self.key(&kid).await?.ok_or_else(invalid)?;
        let mut validation = Validation::new(Algorithm::RS256);
        validation.set_issuer(&[self.config.issuer.as_str()]);
        validation.set_audience(&[client_id]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 60;
        let claims = jsonwebtoken::decode::<Claims>(id_token, &key, &validation)
            .map_err(|err| {
                tracing::info!(error = %err, "Google ID token refused");
                invalid()
            })?
            .claims;
        let email = claims
            .email
            .filter(|_| claims.email_verified.is_true())
            .ok_or_else(invalid)?;
        Ok(GoogleIdentity {
            sub: claims.sub,
            email,
            name: claims.name,
            nonce: claims.nonce,
        })
    }

    async fn key(&self, kid: &str) -> Result<Option<DecodingKey>> {
        let mut cache = self.cache.lock().await;
        let stale = cache.fetched_at.is_none_or(|at| at.elapsed() > JWKS_TTL);
        let unknown = cache.keys.as_ref().is_none_or(|keys| keys.find(kid).is_none());
        let may_refetch = cache
            .fetched_at
            .is_none_or(|at| at.elapsed() > REFETCH_AT_MOST_EVERY);
        if stale || (unknown && may_refetch) {
            match self.fetch_keys().await {
                Ok(keys) => {
                    cache.keys = Some(keys);
                    cache.fetched_at = Some(Instant::now());
                }
                Err(err) => {
                    tracing::warn!(error = ?err, "could not fetch Google's keys");
                    if cache.keys.is_none() {
                        return Err(Error::Unavailable);
                    }
                }
            }
        }
        Ok(cache
            .keys
            .as_ref()
            .and_then(|keys| keys.find(kid))
            .and_then(|jwk| DecodingKey::from_jwk(jwk).ok()))
    }

    async fn fetch_keys(&self) -> anyhow::Result<JwkSet> {
        self.http
            .get(&self.config.jwks_url)
            .send()
            .await
            .context("JWKS request")?
            .error_for_status()
            .context("JWKS status")?
            .json::<JwkSet>()
            .await
            .context("JWKS body")
    }
}
