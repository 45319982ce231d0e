//! Talent Suite as an OpenID Provider, driven by the `openidconnect` crate as a relying party
//! (discovery, code + PKCE, ID token validation with the nonce against the published JWKS,
//! userinfo, refresh rotation, revocation, logout), and the requests a provider must refuse.

use std::sync::{Arc, Mutex};

use api::oidc::clients::{self, NewClient};
use openidconnect::{
    AuthorizationCode, ClientId, ClientSecret, CsrfToken, IssuerUrl, Nonce, OAuth2TokenResponse,
    PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, RefreshToken, Scope, TokenResponse,
    core::{CoreAuthenticationFlow, CoreClient, CoreProviderMetadata, CoreTokenResponse},
};
use reqwest::{StatusCode, redirect::Policy};
use serde_json::{Value, json};
use url::Url;

use crate::helpers::{Backend, PASSWORD, TestApp, json_of};

const REDIRECT: &str = "https://hire.example/callback";

async fn spawn(backend: Backend) -> TestApp {
    TestApp::builder(backend).own_origin().start().await
}

macro_rules! sso_test {
    (async fn $name:ident($app:ident) $body:block) => {
        mod $name {
            use super::*;

            async fn run($app: TestApp) $body

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_sqlite() {
                run(spawn(Backend::Sqlite).await).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_postgres() {
                if TestApp::postgres_configured() {
                    run(spawn(Backend::Postgres).await).await;
                }
            }
        }
    };
}

/// A person's browser: keeps cookies, does not follow redirects (the test reads them).
fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(Policy::none())
        .build()
        .unwrap()
}

/// The relying party's HTTP client, as the crate asks: no redirects.
fn rp_http() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(Policy::none())
        .build()
        .unwrap()
}

async fn signed_in_browser(app: &TestApp, email: &str) -> reqwest::Client {
    app.signed_up(email).await;
    let browser = browser();
    let response = browser
        .post(app.url("/api/auth/login"))
        .json(&json!({ "email": email, "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    browser
}

struct Rp {
    client_id: String,
    secret: Option<String>,
    metadata: CoreProviderMetadata,
}

impl Rp {
    async fn register(app: &TestApp, new: NewClient) -> Self {
        let (client, secret) = clients::create(&app.db, new).await.unwrap();
        let metadata =
            CoreProviderMetadata::discover_async(IssuerUrl::new(app.address.clone()).unwrap(), &rp_http())
                .await
                .expect("discovery");
        Self {
            client_id: client.client_id,
            secret,
            metadata,
        }
    }

    async fn platform(app: &TestApp) -> Self {
        Self::register(
            app,
            NewClient {
                name: "Hire".to_owned(),
                redirect_uris: vec![REDIRECT.to_owned()],
                post_logout_redirect_uris: vec!["https://hire.example/".to_owned()],
                first_party: true,
                ..NewClient::default()
            },
        )
        .await
    }

    fn client(
        &self,
    ) -> openidconnect::core::CoreClient<
        openidconnect::EndpointSet,
        openidconnect::EndpointNotSet,
        openidconnect::EndpointNotSet,
        openidconnect::EndpointNotSet,
        openidconnect::EndpointMaybeSet,
        openidconnect::EndpointMaybeSet,
    > {
        CoreClient::from_provider_metadata(
            self.metadata.clone(),
            ClientId::new(self.client_id.clone()),
            self.secret.clone().map(ClientSecret::new),
        )
        .set_redirect_uri(RedirectUrl::new(REDIRECT.to_owned()).unwrap())
    }

    /// The authorize URL with a fresh state, nonce and PKCE pair.
    fn authorize_url(&self) -> (Url, CsrfToken, Nonce, PkceCodeVerifier) {
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state, nonce) = self
            .client()
            .authorize_url(
                CoreAuthenticationFlow::AuthorizationCode,
                CsrfToken::new_random,
                Nonce::new_random,
            )
            .add_scope(Scope::new("email".to_owned()))
            .add_scope(Scope::new("profile".to_owned()))
            .set_pkce_challenge(challenge)
            .url();
        (url, state, nonce, verifier)
    }

    async fn exchange(&self, code: &str, verifier: PkceCodeVerifier) -> Result<CoreTokenResponse, String> {
        self.client()
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .unwrap()
            .set_pkce_verifier(verifier)
            .request_async(&rp_http())
            .await
            .map_err(|err| format!("{err:?}"))
    }
}

/// Follows the provider's redirect and returns the query of where it sends the browser.
async fn visit(browser: &reqwest::Client, url: &str) -> (StatusCode, Option<Url>) {
    let response = browser.get(url).send().await.unwrap();
    let status = response.status();
    let location = response
        .headers()
        .get("location")
        .map(|l| Url::parse(l.to_str().unwrap()).unwrap());
    (status, location)
}

fn param(url: &Url, name: &str) -> Option<String> {
    url.query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

async fn userinfo(app: &TestApp, access: &str) -> reqwest::Response {
    app.client
        .get(app.url("/oauth2/userinfo"))
        .bearer_auth(access)
        .send()
        .await
        .unwrap()
}

fn payload(jwt: &str) -> Value {
    use base64::Engine;
    let part = jwt.split('.').nth(1).unwrap();
    serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(part)
            .unwrap(),
    )
    .unwrap()
}

sso_test! {
    async fn a_platform_signs_a_person_in_with_code_and_pkce_and_validates_the_id_token(app) {
        let doc = json_of(app.get("/.well-known/openid-configuration").await, StatusCode::OK).await;
        assert_eq!(doc["issuer"], app.address);
        assert_eq!(doc["code_challenge_methods_supported"], json!(["S256"]));
        assert_eq!(doc["id_token_signing_alg_values_supported"], json!(["RS256", "EdDSA"]));
        assert_eq!(doc["end_session_endpoint"], format!("{}/oauth2/logout", app.address));

        let rp = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "sso@example.com").await;
        let (url, state, nonce, verifier) = rp.authorize_url();
        let (status, location) = visit(&browser, url.as_str()).await;
        assert_eq!(status, StatusCode::SEE_OTHER);
        let location = location.unwrap();
        assert!(location.as_str().starts_with(REDIRECT), "{location}");
        assert_eq!(param(&location, "state").as_deref(), Some(state.secret().as_str()));
        assert_eq!(param(&location, "iss").as_deref(), Some(app.address.as_str()));
        let code = param(&location, "code").unwrap();

        let tokens = rp.exchange(&code, verifier).await.expect("tokens");
        let id_token = tokens.id_token().expect("an ID token");
        let claims = id_token.claims(&rp.client().id_token_verifier(), &nonce).expect("a valid ID token");
        assert_eq!(claims.email().map(|e| e.as_str()), Some("sso@example.com"));
        assert_eq!(claims.email_verified(), Some(true));
        assert_eq!(claims.name().and_then(|n| n.get(None)).map(|n| n.as_str()), Some("Asha Verma"));
        assert!(claims.auth_time().is_some());
        let raw = payload(&id_token.to_string());
        assert_eq!(raw["talent_role"], "career");
        assert_eq!(raw["aud"], json!([rp.client_id]));
        let me = json_of(browser.get(app.url("/api/auth/verify")).send().await.unwrap(), StatusCode::OK).await;
        assert_eq!(claims.subject().as_str(), me["data"]["user"]["id"].as_str().unwrap(), "sub is the user id");

        let info = json_of(userinfo(&app, tokens.access_token().secret()).await, StatusCode::OK).await;
        assert_eq!(info["sub"], claims.subject().as_str());
        assert_eq!(info["email"], "sso@example.com");
        assert_eq!(info["talent_role"], "career");
        assert_eq!(tokens.expires_in().map(|d| d.as_secs()), Some(600));

        // A signed-in browser gets its next code at once: no password again.
        let (url, _, _, _) = rp.authorize_url();
        let (_, location) = visit(&browser, url.as_str()).await;
        assert!(param(&location.unwrap(), "code").is_some());
    }
}

sso_test! {
    async fn refresh_tokens_rotate_and_a_reused_one_revokes_the_grant(app) {
        let rp = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "rotate@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let first = rp.exchange(&code, verifier).await.unwrap();
        let refresh = first.refresh_token().unwrap().clone();
        let refreshed = rp.client().exchange_refresh_token(&refresh).unwrap().request_async(&rp_http()).await.expect("refresh");
        assert_ne!(refreshed.refresh_token().unwrap().secret(), refresh.secret(), "rotated");
        json_of(userinfo(&app, refreshed.access_token().secret()).await, StatusCode::OK).await;

        // The old one again: refused, and everything of the grant is revoked.
        let reuse = rp.client().exchange_refresh_token(&refresh).unwrap().request_async(&rp_http()).await;
        assert!(format!("{reuse:?}").contains("invalid_grant"), "{reuse:?}");
        let newest = refreshed.refresh_token().unwrap().clone();
        assert!(rp.client().exchange_refresh_token(&newest).unwrap().request_async(&rp_http()).await.is_err());
        userinfo(&app, refreshed.access_token().secret()).await.status().eq(&StatusCode::UNAUTHORIZED).then_some(()).expect("access revoked");
        userinfo(&app, first.access_token().secret()).await.status().eq(&StatusCode::UNAUTHORIZED).then_some(()).expect("access revoked");
    }
}

sso_test! {
    async fn revocation_ends_a_token_at_once(app) {
        let rp = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "revoke@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let tokens = rp.exchange(&code, verifier).await.unwrap();
        json_of(userinfo(&app, tokens.access_token().secret()).await, StatusCode::OK).await;
        // RFC 7009 by hand: the crate only revokes over https, and the test server is http.
        let revoke = |token: String| {
            app.client.post(app.url("/oauth2/revoke")).basic_auth(&rp.client_id, rp.secret.as_deref()).form(&[("token", token)]).send()
        };
        assert_eq!(revoke(tokens.access_token().secret().clone()).await.unwrap().status(), StatusCode::OK);
        assert_eq!(userinfo(&app, tokens.access_token().secret()).await.status(), StatusCode::UNAUTHORIZED);
        let refresh = RefreshToken::new(tokens.refresh_token().unwrap().secret().clone());
        assert_eq!(revoke(refresh.secret().clone()).await.unwrap().status(), StatusCode::OK);
        assert_eq!(revoke("never-issued".to_owned()).await.unwrap().status(), StatusCode::OK, "unknown tokens are not an error");
        assert!(rp.client().exchange_refresh_token(&refresh).unwrap().request_async(&rp_http()).await.is_err());
    }
}

sso_test! {
    async fn a_provider_refuses_what_it_must(app) {
        let rp = Rp::platform(&app).await;
        let other = Rp::register(&app, NewClient { name: "Campus".to_owned(), redirect_uris: vec![REDIRECT.to_owned()], first_party: true, ..NewClient::default() }).await;
        let browser = signed_in_browser(&app, "refuse@example.com").await;

        // An unregistered redirect URI: an error page here, never a redirect there.
        let (url, _, _, _) = rp.authorize_url();
        let wrong = url.as_str().replace("hire.example%2Fcallback", "evil.example%2Fcallback");
        let (status, location) = visit(&browser, &wrong).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(location.is_none());

        // No PKCE: back to the client with invalid_request.
        let mut no_pkce = url.clone();
        let kept: Vec<(String, String)> = url.query_pairs().filter(|(k, _)| !k.starts_with("code_challenge")).map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
        no_pkce.query_pairs_mut().clear().extend_pairs(kept);
        let location = visit(&browser, no_pkce.as_str()).await.1.unwrap();
        assert_eq!(param(&location, "error").as_deref(), Some("invalid_request"));

        // A wrong verifier.
        let (url, _, _, _) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let err = rp.exchange(&code, PkceCodeVerifier::new("x".repeat(43))).await.unwrap_err();
        assert!(err.contains("invalid_grant"), "{err}");

        // A reused code: refused, and the tokens of its first use are revoked.
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let verifier_again = PkceCodeVerifier::new(verifier.secret().clone());
        let tokens = rp.exchange(&code, verifier).await.unwrap();
        let err = rp.exchange(&code, verifier_again).await.unwrap_err();
        assert!(err.contains("invalid_grant"), "{err}");
        assert_eq!(userinfo(&app, tokens.access_token().secret()).await.status(), StatusCode::UNAUTHORIZED);

        // The code of another client.
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let err = other.exchange(&code, verifier).await.unwrap_err();
        assert!(err.contains("invalid_grant"), "{err}");

        // An expired code.
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        app.sql("UPDATE oauth_codes SET expires_at = auth_time WHERE used_at IS NULL").await;
        let err = rp.exchange(&code, verifier).await.unwrap_err();
        assert!(err.contains("invalid_grant"), "{err}");

        // prompt=none with nobody signed in.
        let (url, _, _, _) = rp.authorize_url();
        let location = visit(&super::browser(), &format!("{url}&prompt=none")).await.1.unwrap();
        assert_eq!(param(&location, "error").as_deref(), Some("login_required"));

        // A wrong client secret.
        let confidential = Rp::register(&app, NewClient { name: "Partner".to_owned(), redirect_uris: vec![REDIRECT.to_owned()], ..NewClient::default() }).await;
        let response = app.client.post(app.url("/oauth2/token")).basic_auth(&confidential.client_id, Some("wrong"))
            .form(&[("grant_type", "authorization_code"), ("code", "x")]).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(response.json::<Value>().await.unwrap()["error"], "invalid_client");
    }
}

sso_test! {
    async fn a_signed_out_browser_signs_in_first_and_prompt_login_asks_again(app) {
        let rp = Rp::platform(&app).await;
        app.signed_up("later@example.com").await;
        let browser = browser();
        let (url, _, _, _) = rp.authorize_url();
        let location = visit(&browser, url.as_str()).await.1.unwrap();
        assert_eq!(location.path(), "/login");
        let back = param(&location, "redirect").unwrap();
        assert!(back.starts_with(&format!("{}/oauth2/authorize?", app.address)), "{back}");
        browser.post(app.url("/api/auth/login")).json(&json!({ "email": "later@example.com", "password": PASSWORD })).send().await.unwrap();
        let location = visit(&browser, &back).await.1.unwrap();
        assert!(param(&location, "code").is_some(), "{location}");

        // prompt=login: signed in, yet sent to sign in again; only a newer sign-in counts.
        let location = visit(&browser, &format!("{url}&prompt=login")).await.1.unwrap();
        assert_eq!(location.path(), "/login");
        let back = param(&location, "redirect").unwrap();
        assert!(!back.contains("prompt=login"));
        let location = visit(&browser, &back).await.1.unwrap();
        assert_eq!(location.path(), "/login", "the old sign-in does not satisfy prompt=login");
        tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
        browser.post(app.url("/api/auth/login")).json(&json!({ "email": "later@example.com", "password": PASSWORD })).send().await.unwrap();
        let location = visit(&browser, &back).await.1.unwrap();
        assert!(param(&location, "code").is_some(), "{location}");

        // max_age=0: a sign-in now, and the way back (slow as it may be) is not sent round again.
        let location = visit(&browser, &format!("{url}&max_age=0")).await.1.unwrap();
        assert_eq!(location.path(), "/login");
        let back = param(&location, "redirect").unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        browser.post(app.url("/api/auth/login")).json(&json!({ "email": "later@example.com", "password": PASSWORD })).send().await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
        let location = visit(&browser, &back).await.1.unwrap();
        assert!(param(&location, "code").is_some(), "max_age=0 met by the sign-in it asked for: {location}");
    }
}

sso_test! {
    async fn a_partner_asks_for_consent_once(app) {
        let partner = Rp::register(&app, NewClient { name: "Acme Jobs".to_owned(), redirect_uris: vec![REDIRECT.to_owned()], ..NewClient::default() }).await;
        let browser = signed_in_browser(&app, "consent@example.com").await;
        let (url, _, _, _) = partner.authorize_url();
        let response = browser.get(url.as_str()).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let page = response.text().await.unwrap();
        assert!(page.contains("Acme Jobs") && page.contains("See your email address"), "{page}");

        let form: Vec<(String, String)> = url.query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).chain([("decision".to_owned(), "allow".to_owned())]).collect();
        let forged = browser.post(app.url("/oauth2/authorize/consent")).header("origin", "https://evil.example").form(&form).send().await.unwrap();
        assert_eq!(forged.status(), StatusCode::FORBIDDEN);
        let allowed = browser.post(app.url("/oauth2/authorize/consent")).header("origin", &app.address).form(&form).send().await.unwrap();
        let location = Url::parse(allowed.headers()["location"].to_str().unwrap()).unwrap();
        assert!(param(&location, "code").is_some(), "{location}");
        let (url, _, _, _) = partner.authorize_url();
        let location = visit(&browser, url.as_str()).await.1.unwrap();
        assert!(param(&location, "code").is_some(), "remembered");
    }
}

sso_test! {
    async fn rp_initiated_logout_ends_the_session_and_notifies_clients_by_back_channel(app) {
        // A client's back-channel endpoint that records what it receives.
        let received: Arc<Mutex<Vec<String>>> = Arc::default();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let sink = received.clone();
        let router = axum::Router::new().route("/backchannel", axum::routing::post(move |body: String| {
            let sink = sink.clone();
            async move { sink.lock().unwrap().push(body); "ok" }
        }));
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });

        let rp = Rp::register(&app, NewClient {
            name: "Career".to_owned(),
            redirect_uris: vec![REDIRECT.to_owned()],
            post_logout_redirect_uris: vec!["https://hire.example/signed-out".to_owned()],
            backchannel_logout_uri: Some(format!("http://127.0.0.1:{port}/backchannel")),
            first_party: true,
            ..NewClient::default()
        }).await;
        let browser = signed_in_browser(&app, "logout@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let tokens = rp.exchange(&code, verifier).await.unwrap();
        let hint = tokens.id_token().unwrap().to_string();
        let sid = payload(&hint)["sid"].as_str().unwrap().to_owned();

        let logout = format!("{}/oauth2/logout?id_token_hint={hint}&post_logout_redirect_uri={}&state=bye", app.address, urlencode("https://hire.example/signed-out"));
        let (status, location) = visit(&browser, &logout).await;
        assert_eq!(status, StatusCode::SEE_OTHER);
        assert_eq!(location.unwrap().as_str(), "https://hire.example/signed-out?state=bye");
        let me = browser.get(app.url("/api/auth/verify")).send().await.unwrap();
        assert_eq!(me.status(), StatusCode::UNAUTHORIZED, "the Talent Suite session is over");
        assert_eq!(userinfo(&app, tokens.access_token().secret()).await.status(), StatusCode::UNAUTHORIZED);

        let mut body = None;
        for _ in 0..50 {
            if let Some(first) = received.lock().unwrap().first().cloned() { body = Some(first); break; }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let body = body.expect("a back-channel logout within 5 s");
        let token = url::form_urlencoded::parse(body.as_bytes()).find(|(k, _)| k == "logout_token").unwrap().1.into_owned();
        let claims = payload(&token);
        assert_eq!(claims["iss"], app.address);
        assert_eq!(claims["aud"], rp.client_id);
        assert_eq!(claims["sid"], sid);
        assert!(claims["events"]["http://schemas.openid.net/event/backchannel-logout"].is_object());
        // Signed by a key of the published set.
        let jwks = json_of(app.get("/oauth2/jwks").await, StatusCode::OK).await;
        let header: Value = {
            use base64::Engine;
            serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(token.split('.').next().unwrap()).unwrap()).unwrap()
        };
        let key = jwks["keys"].as_array().unwrap().iter().find(|k| k["kid"] == header["kid"]).expect("the signing key is published");
        let decoding = jsonwebtoken::DecodingKey::from_rsa_components(key["n"].as_str().unwrap(), key["e"].as_str().unwrap()).unwrap();
        let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::RS256);
        validation.set_audience(&[rp.client_id.as_str()]);
        jsonwebtoken::decode::<Value>(&token, &decoding, &validation).expect("a valid signature");

        // An unregistered post-logout URI is refused.
        let (status, _) = visit(&browser, &format!("{}/oauth2/logout?client_id={}&post_logout_redirect_uri={}", app.address, rp.client_id, urlencode("https://evil.example/"))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
    }
}

sso_test! {
    async fn rotated_keys_stay_published_and_new_tokens_use_the_new_key(app) {
        let rp = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "keys@example.com").await;
        let (url, _, nonce, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let before = rp.exchange(&code, verifier).await.unwrap();
        let old_kid = before.id_token().unwrap().to_string();
        let new_kids = api::oidc::keys::rotate(&app.db).await.unwrap();

        let jwks = json_of(app.get("/oauth2/jwks").await, StatusCode::OK).await;
        let kids: Vec<&str> = jwks["keys"].as_array().unwrap().iter().map(|k| k["kid"].as_str().unwrap()).collect();
        assert_eq!(kids.len(), 4, "two current keys and the two retired ones: {kids:?}");
        // The old token still validates against a freshly discovered key set.
        let fresh = Rp { client_id: rp.client_id.clone(), secret: rp.secret.clone(), metadata: CoreProviderMetadata::discover_async(IssuerUrl::new(app.address.clone()).unwrap(), &rp_http()).await.unwrap() };
        before.id_token().unwrap().claims(&fresh.client().id_token_verifier(), &nonce).expect("old token still valid");

        let (url, _, nonce, verifier) = fresh.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let after = fresh.exchange(&code, verifier).await.unwrap();
        after.id_token().unwrap().claims(&fresh.client().id_token_verifier(), &nonce).expect("new token valid");
        let header_kid = |jwt: &str| {
            use base64::Engine;
            let header: Value = serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(jwt.split('.').next().unwrap()).unwrap()).unwrap();
            header["kid"].as_str().unwrap().to_owned()
        };
        assert!(new_kids.contains(&header_kid(&after.id_token().unwrap().to_string())));
        assert_ne!(header_kid(&old_kid), header_kid(&after.id_token().unwrap().to_string()));
    }
}

fn urlencode(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

sso_test! {
    async fn admins_manage_clients_in_graphql_and_people_revoke_what_they_allowed(app) {
        let token = app.signed_up("boss@example.com").await;
        let list = "{ oauthClients { clientId name firstParty } }";
        let body = app.graphql(Some(&token), list, json!({})).await;
        assert_eq!(body["errors"][0]["extensions"]["code"], "FORBIDDEN", "{body}");
        app.sql("UPDATE users SET role = 'admin' WHERE email = 'boss@example.com'").await;

        let create = "mutation($input: CreateOAuthClientInput!) { createOAuthClient(input: $input) { clientSecret client { clientId name redirectUris publicClient: public } } }";
        let body = app.graphql(Some(&token), create, json!({ "input": { "name": "Acme Jobs", "redirectUris": [REDIRECT] } })).await;
        let created = &body["data"]["createOAuthClient"];
        assert!(created["clientSecret"].as_str().is_some_and(|s| s.len() >= 43), "{body}");
        let client_id = created["client"]["clientId"].as_str().unwrap().to_owned();
        let body = app.graphql(Some(&token), create, json!({ "input": { "name": "Bad", "redirectUris": ["http://evil.example/cb"] } })).await;
        assert!(body["errors"][0]["message"].as_str().unwrap().contains("https"), "{body}");
        let body = app.graphql(Some(&token), list, json!({})).await;
        assert_eq!(body["data"]["oauthClients"][0]["name"], "Acme Jobs");

        // A person allows it, sees it listed, and takes it back.
        let browser = signed_in_browser(&app, "allower@example.com").await;
        let partner = Rp {
            client_id: client_id.clone(),
            secret: created["clientSecret"].as_str().map(str::to_owned),
            metadata: CoreProviderMetadata::discover_async(IssuerUrl::new(app.address.clone()).unwrap(), &rp_http()).await.unwrap(),
        };
        let (url, _, _, verifier) = partner.authorize_url();
        let form: Vec<(String, String)> = url.query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).chain([("decision".to_owned(), "allow".to_owned())]).collect();
        let allowed = browser.post(app.url("/oauth2/authorize/consent")).header("origin", &app.address).form(&form).send().await.unwrap();
        let code = param(&Url::parse(allowed.headers()["location"].to_str().unwrap()).unwrap(), "code").unwrap();
        let tokens = partner.exchange(&code, verifier).await.unwrap();
        let person = json_of(app.login("allower@example.com", PASSWORD).await, StatusCode::OK).await["data"]["token"].as_str().unwrap().to_owned();
        let apps = app.graphql(Some(&person), "{ authorizedApplications { clientId name scopes } }", json!({})).await;
        assert_eq!(apps["data"]["authorizedApplications"][0]["name"], "Acme Jobs", "{apps}");
        assert_eq!(apps["data"]["authorizedApplications"][0]["scopes"], json!(["openid", "email", "profile"]));
        let revoke = app.graphql(Some(&person), "mutation($id: ID!) { revokeApplication(clientId: $id) { message } }", json!({ "id": client_id })).await;
        assert_eq!(revoke["data"]["revokeApplication"]["message"], "Access revoked", "{revoke}");
        assert_eq!(userinfo(&app, tokens.access_token().secret()).await.status(), StatusCode::UNAUTHORIZED);
        let (url, _, _, _) = partner.authorize_url();
        assert_eq!(browser.get(url.as_str()).send().await.unwrap().status(), StatusCode::OK, "the consent screen again");

        let rotate = app.graphql(Some(&token), "mutation($id: ID!) { rotateOAuthClientSecret(clientId: $id) { clientSecret } }", json!({ "id": client_id })).await;
        assert!(rotate["data"]["rotateOAuthClientSecret"]["clientSecret"].is_string(), "{rotate}");
        let delete = app.graphql(Some(&token), "mutation($id: ID!) { deleteOAuthClient(clientId: $id) { message } }", json!({ "id": client_id })).await;
        assert_eq!(delete["data"]["deleteOAuthClient"]["message"], "Application deleted");
        assert_eq!(app.count("SELECT COUNT(*) FROM oauth_consents").await, 0);
    }
}

/// `api oauth-client …` with only `DATABASE_URL` set, in an empty directory.
fn cli(database_url: &str, args: &[&str]) -> (bool, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_api"))
        .args(args)
        .current_dir(dir.path())
        .env_clear()
        .env("DATABASE_URL", database_url)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_oauth_client_commands_need_only_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/cli.db?mode=rwc", dir.path().display());
    let (ok, out, err) = cli(
        &url,
        &[
            "oauth-client",
            "create",
            "--name",
            "Hire",
            "--redirect-uri",
            "https://hire.example/cb",
            "--redirect-uri",
            "https://hire.example/cb2",
            "--first-party",
        ],
    );
    assert!(ok, "{err}");
    let client_id = out
        .lines()
        .find_map(|l| l.strip_prefix("client_id: "))
        .unwrap()
        .to_owned();
    let secret = out
        .lines()
        .find_map(|l| l.strip_prefix("client_secret: "))
        .unwrap()
        .to_owned();
    assert!(secret.len() >= 43);
    let (ok, out, _) = cli(
        &url,
        &[
            "oauth-client",
            "create",
            "--name",
            "Spa",
            "--redirect-uri",
            "http://localhost:5173/cb",
            "--public",
        ],
    );
    assert!(
        ok && !out.contains("client_secret"),
        "a public client has no secret: {out}"
    );
    let (ok, _, err) = cli(
        &url,
        &[
            "oauth-client",
            "create",
            "--name",
            "Bad",
            "--redirect-uri",
            "http://evil.example/cb",
        ],
    );
    assert!(!ok && err.contains("https"), "{err}");

    let (_, list, _) = cli(&url, &["oauth-client", "list"]);
    assert!(
        list.contains(&client_id)
            && list.contains("confidential, first-party")
            && list.contains("https://hire.example/cb2"),
        "{list}"
    );
    assert!(!list.contains(&secret), "the secret is never shown again");
    let (ok, rotated, _) = cli(&url, &["oauth-client", "rotate-secret", &client_id]);
    assert!(
        ok && !rotated.contains(&secret) && rotated.contains("client_secret: "),
        "{rotated}"
    );
    let (ok, _, _) = cli(&url, &["oauth-client", "delete", &client_id]);
    assert!(ok);
    let (ok, _, err) = cli(&url, &["oauth-client", "delete", &client_id]);
    assert!(!ok && err.contains("No client"), "{err}");
    let (ok, out, _) = cli(&url, &["signing-key", "rotate"]);
    assert!(ok && out.contains("New signing keys"), "{out}");
}

sso_test! {
    async fn a_client_that_is_down_gets_its_back_channel_logout_when_it_returns(app) {
        // A port with nothing listening yet: the client is down when the person signs out.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let rp = Rp::register(&app, NewClient {
            name: "Campus".to_owned(),
            redirect_uris: vec![REDIRECT.to_owned()],
            backchannel_logout_uri: Some(format!("http://127.0.0.1:{port}/backchannel")),
            first_party: true,
            ..NewClient::default()
        }).await;
        let browser = signed_in_browser(&app, "down@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        rp.exchange(&code, verifier).await.unwrap();
        let response = browser.post(app.url("/api/auth/logout")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert_eq!(app.count("SELECT COUNT(*) FROM backchannel_logouts").await, 1, "queued while the client is down");

        // The client comes back: the notice arrives, once, and leaves the queue.
        let received: Arc<Mutex<Vec<String>>> = Arc::default();
        let sink = received.clone();
        let router = axum::Router::new().route("/backchannel", axum::routing::post(move |body: String| {
            let sink = sink.clone();
            async move { sink.lock().unwrap().push(body); "ok" }
        }));
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.unwrap();
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        for _ in 0..150 {
            if !received.lock().unwrap().is_empty() { break; }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(received.lock().unwrap().len(), 1, "delivered after the client returned");
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert_eq!(app.count("SELECT COUNT(*) FROM backchannel_logouts").await, 0);
    }
}
