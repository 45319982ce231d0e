//! A stand-in Google: JWKS, authorize and token endpoints on a random port, signing ID tokens
//! with a test-only RSA key. The server under test talks to it with its real Google code.

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
};

use axum::{
    Form, Json, Router,
    extract::{Query, State},
    response::{IntoResponse, Redirect},
    routing::{get, post},
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use rsa::{RsaPrivateKey, pkcs8::DecodePrivateKey, traits::PublicKeyParts};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const KEY_PEM: &str = include_str!("fixtures/idp-test-key.pem");
pub const KID: &str = "test-key-1";
pub const CLIENT_ID: &str = "talent-suite-test.apps.example";

#[derive(Default)]
struct Inner {
    /// code → (nonce, PKCE challenge, the identity to sign in)
    codes: HashMap<String, (String, String, Identity)>,
    next_identity: Option<Identity>,
    nonce_override: Option<String>,
    /// Claims every ID token gets on top of the usual ones (a tenant issuer, say).
    extra_claims: Option<Value>,
    /// access token → the identity it was issued for (GitHub's user API).
    access: HashMap<String, Identity>,
    /// What `/user/emails` answers instead of the identity's verified primary address.
    emails: Option<Value>,
    /// Key ids published beside `KID` (the same key, as after a rotation).
    rotated: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Identity {
    pub sub: String,
    pub email: String,
    pub name: String,
}

#[derive(Clone)]
pub struct Idp {
    pub origin: String,
    pub jwks_fetches: Arc<AtomicUsize>,
    inner: Arc<Mutex<Inner>>,
}

impl Idp {
    pub async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let idp = Self {
            origin,
            jwks_fetches: Arc::default(),
            inner: Arc::default(),
        };
        let router = Router::new()
            .route("/jwks", get(jwks))
            .route("/authorize", get(authorize))
            .route("/token", post(token))
            .route("/user", get(github_user))
            .route("/user/emails", get(github_emails))
            .with_state(idp.clone());
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        idp
    }

    /// The server's settings for this provider.
    pub fn env(&self) -> [(&'static str, String); 6] {
        [
            ("GOOGLE_CLIENT_ID", CLIENT_ID.to_owned()),
            ("GOOGLE_CLIENT_SECRET", "test-client-secret".to_owned()),
            ("GOOGLE_ISSUER", self.origin.clone()),
            ("GOOGLE_AUTH_URL", format!("{}/authorize", self.origin)),
            ("GOOGLE_TOKEN_URL", format!("{}/token", self.origin)),
            ("GOOGLE_JWKS_URL", format!("{}/jwks", self.origin)),
        ]
    }

    /// The settings of an OpenID Connect provider (`LINKEDIN`, `MICROSOFT`) served by this
    /// stand-in, with `issuer` as its configured issuer.
    pub fn openid_env(&self, prefix: &str, issuer: &str) -> Vec<(&'static str, String)> {
        let names = match prefix {
            "LINKEDIN" => [
                "LINKEDIN_CLIENT_ID",
                "LINKEDIN_CLIENT_SECRET",
                "LINKEDIN_ISSUER",
                "LINKEDIN_AUTH_URL",
                "LINKEDIN_TOKEN_URL",
                "LINKEDIN_JWKS_URL",
            ],
            "MICROSOFT" => [
                "MICROSOFT_CLIENT_ID",
                "MICROSOFT_CLIENT_SECRET",
                "MICROSOFT_ISSUER",
                "MICROSOFT_AUTH_URL",
                "MICROSOFT_TOKEN_URL",
                "MICROSOFT_JWKS_URL",
            ],
            other => panic!("no stand-in settings for {other}"),
        };
        let values = [
            CLIENT_ID.to_owned(),
            "test-client-secret".to_owned(),
            issuer.to_owned(),
            format!("{}/authorize", self.origin),
            format!("{}/token", self.origin),
            format!("{}/jwks", self.origin),
        ];
        names.into_iter().zip(values).collect()
    }

    /// The settings of GitHub served by this stand-in.
    pub fn github_env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("GITHUB_CLIENT_ID", CLIENT_ID.to_owned()),
            ("GITHUB_CLIENT_SECRET", "test-client-secret".to_owned()),
            ("GITHUB_AUTH_URL", format!("{}/authorize", self.origin)),
            ("GITHUB_TOKEN_URL", format!("{}/token", self.origin)),
            ("GITHUB_API_URL", self.origin.clone()),
        ]
    }

    /// Claims every ID token gets from now on, over the usual ones.
    pub fn with_claims(&self, claims: Value) {
        self.inner.lock().unwrap().extra_claims = Some(claims);
    }

    /// What GitHub's `/user/emails` answers from now on.
    pub fn with_github_emails(&self, emails: Value) {
        self.inner.lock().unwrap().emails = Some(emails);
    }

    /// Who signs in at the next authorize request.
    pub fn sign_in_as(&self, identity: Identity) {
        self.inner.lock().unwrap().next_identity = Some(identity);
    }

    /// Makes the token endpoint put this nonce in ID tokens, whatever was asked for.
    pub fn lie_about_nonce(&self, nonce: &str) {
        self.inner.lock().unwrap().nonce_override = Some(nonce.to_owned());
    }

    /// Publishes the signing key under `kid` too from now on, as a provider does when it rotates.
    pub fn rotate_to(&self, kid: &str) {
        self.inner.lock().unwrap().rotated.push(kid.to_owned());
    }

    /// A signed ID token; `edit` changes the claims before signing.
    pub fn id_token(&self, sub: &str, email: &str, edit: impl FnOnce(&mut Value)) -> String {
        self.id_token_with_kid(KID, sub, email, edit)
    }

    pub fn id_token_with_kid(
        &self,
        kid: &str,
        sub: &str,
        email: &str,
        edit: impl FnOnce(&mut Value),
    ) -> String {
        let now = chrono::Utc::now().timestamp();
        let mut claims = json!({
            "iss": self.origin,
            "aud": CLIENT_ID,
            "sub": sub,
            "email": email,
            "email_verified": true,
            "name": "Grace Hopper",
            "iat": now,
            "exp": now + 3600,
            // As Google's: every token is distinct, even two minted in the same second.
            "jti": uuid::Uuid::new_v4().to_string(),
        });
        edit(&mut claims);
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(kid.to_owned());
        jsonwebtoken::encode(
            &header,
            &claims,
            &EncodingKey::from_rsa_pem(KEY_PEM.as_bytes()).unwrap(),
        )
        .unwrap()
    }
}

async fn jwks(State(idp): State<Idp>) -> Json<Value> {
    idp.jwks_fetches.fetch_add(1, Ordering::SeqCst);
    let key = RsaPrivateKey::from_pkcs8_pem(KEY_PEM).unwrap().to_public_key();
    let rotated = idp.inner.lock().unwrap().rotated.clone();
    let keys: Vec<Value> = std::iter::once(KID.to_owned())
        .chain(rotated)
        .map(|kid| {
            json!({
                "kty": "RSA",
                "kid": kid,
                "use": "sig",
                "alg": "RS256",
                "n": URL_SAFE_NO_PAD.encode(key.n().to_bytes_be()),
                "e": URL_SAFE_NO_PAD.encode(key.e().to_bytes_be()),
            })
        })
        .collect();
    Json(json!({ "keys": keys }))
}

async fn authorize(
    State(idp): State<Idp>,
    Query(params): Query<HashMap<String, String>>,
) -> impl IntoResponse {
    let code = format!("code-{}", uuid::Uuid::new_v4().simple());
    let identity = idp
        .inner
        .lock()
        .unwrap()
        .next_identity
        .clone()
        .unwrap_or(Identity {
            sub: "google-sub-1".to_owned(),
            email: "grace@gmail.test".to_owned(),
            name: "Grace Hopper".to_owned(),
        });
    idp.inner.lock().unwrap().codes.insert(
        code.clone(),
        (
            params.get("nonce").cloned().unwrap_or_default(),
            params.get("code_challenge").cloned().unwrap_or_default(),
            identity,
        ),
    );
    let redirect = format!(
        "{}?code={code}&state={}",
        params["redirect_uri"],
        url::form_urlencoded::byte_serialize(params["state"].as_bytes()).collect::<String>()
    );
    Redirect::to(&redirect)
}

async fn token(State(idp): State<Idp>, Form(form): Form<HashMap<String, String>>) -> impl IntoResponse {
    let Some((nonce, challenge, who)) = form
        .get("code")
        .and_then(|c| idp.inner.lock().unwrap().codes.remove(c))
    else {
        return (
            axum::http::StatusCode::BAD_REQUEST,
            Json(json!({ "error": "invalid_grant" })),
        )
            .into_response();
    };
    let verifier = form.get("code_verifier").cloned().unwrap_or_default();
    if URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())) != challenge {
        return (
            axum::http::StatusCode::BAD_REQUEST,
            Json(json!({ "error": "invalid_grant" })),
        )
            .into_response();
    }
    let (nonce, extra) = {
        let inner = idp.inner.lock().unwrap();
        (
            inner.nonce_override.clone().unwrap_or(nonce),
            inner.extra_claims.clone(),
        )
    };
    let id_token = idp.id_token(&who.sub, &who.email, |claims| {
        claims["nonce"] = json!(nonce);
        claims["name"] = json!(who.name);
        if let Some(Value::Object(extra)) = extra {
            for (key, value) in extra {
                claims[key] = value;
            }
        }
    });
    let access_token = format!("at-{}", uuid::Uuid::new_v4().simple());
    idp.inner.lock().unwrap().access.insert(access_token.clone(), who);
    Json(json!({ "access_token": access_token, "token_type": "Bearer", "expires_in": 3600, "id_token": id_token }))
        .into_response()
}

/// The identity behind the request's bearer token, as GitHub's API knows it.
fn github_caller(idp: &Idp, headers: &axum::http::HeaderMap) -> Option<Identity> {
    let token = headers
        .get("authorization")?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")?;
    // GitHub refuses a request without a user agent.
    headers.get("user-agent")?;
    idp.inner.lock().unwrap().access.get(token).cloned()
}

async fn github_user(State(idp): State<Idp>, headers: axum::http::HeaderMap) -> impl IntoResponse {
    match github_caller(&idp, &headers) {
        Some(who) => {
            Json(json!({ "id": who.sub.parse::<u64>().unwrap_or(0), "login": "octo", "name": who.name }))
                .into_response()
        }
        None => axum::http::StatusCode::UNAUTHORIZED.into_response(),
    }
}

async fn github_emails(State(idp): State<Idp>, headers: axum::http::HeaderMap) -> impl IntoResponse {
    let Some(who) = github_caller(&idp, &headers) else {
        return axum::http::StatusCode::UNAUTHORIZED.into_response();
    };
    let emails = idp.inner.lock().unwrap().emails.clone().unwrap_or_else(|| {
        json!([
            { "email": "secondary@example.com", "primary": false, "verified": true },
            { "email": who.email, "primary": true, "verified": true },
        ])
    });
    Json(emails).into_response()
}
