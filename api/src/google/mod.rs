//! Google identity: ID-token verification against the provider's JWKS, and the popup's
//! authorization-code flow (PKCE, state and nonce). Every URL is configuration, so tests
//! run the same code against a stand-in provider.

pub mod flow;
pub mod sign_in;

use std::time::Duration;

use chrono::{DateTime, Utc};
use jsonwebtoken::{Algorithm, Validation};
use serde::Deserialize;

use crate::{
    config::GoogleConfig,
    error::{Error, Result},
    providers::{BoolOrString, jwks::Jwks},
};

pub const INVALID_TOKEN: &str = "Invalid Google token";
/// Who Google says the person is. `sub` is the identity; the email is verified by Google.
#[derive(Debug, Clone)]
pub struct GoogleIdentity {
    pub sub: String,
    pub email: String,
    pub name: Option<String>,
    pub nonce: Option<String>,
    /// When the token expires: until then it is remembered, so it is accepted once.
    pub expires_at: DateTime<Utc>,
}

#[derive(Deserialize)]
struct Claims {
    sub: String,
    exp: i64,
    email: Option<String>,
    #[serde(default)]
    email_verified: BoolOrString,
    name: Option<String>,
    nonce: Option<String>,
}

pub struct Google {
    pub config: GoogleConfig,
    http: reqwest::Client,
    keys: Jwks,
}

impl Google {
    pub fn new(config: GoogleConfig) -> Self {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("an HTTP client with rustls");
        let keys = Jwks::new(config.jwks_url.clone(), http.clone());
        Self { config, http, keys }
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
        let invalid = || Error::Unauthenticated(INVALID_TOKEN.to_owned());
        // Something that is not even a JWT is refused as such, configured or not.
        let header = jsonwebtoken::decode_header(id_token).map_err(|_| invalid())?;
        let client_id = self
            .config
            .client_id
            .as_deref()
            .ok_or_else(|| Error::Unavailable)?;
        if header.alg != Algorithm::RS256 {
            return Err(invalid());
        }
        let kid = header.kid.ok_or_else(invalid)?;
        let key = self.keys.key(&kid).await?.ok_or_else(invalid)?;
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
            expires_at: DateTime::from_timestamp(claims.exp, 0).unwrap_or_else(Utc::now),
        })
    }
}
