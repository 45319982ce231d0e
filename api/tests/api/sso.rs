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

use crate::helpers::{Backend, Builder, PASSWORD, TestApp, json_of};

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
        let (client, secret) = clients::create(&app.db, new, true).await.unwrap();
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

/// A client's back-channel logout endpoint on `port` (0: any free one) at `/backchannel`,
/// recording every body it receives; its port and what it received.
async fn backchannel_receiver(port: u16) -> (u16, Arc<Mutex<Vec<String>>>) {
    let received: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = received.clone();
    let router = axum::Router::new().route(
        "/backchannel",
        axum::routing::post(move |body: String| {
            let sink = sink.clone();
            async move {
                sink.lock().unwrap().push(body);
                "ok"
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (port, received)
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
    jwt_part(jwt, 1)
}

fn header(jwt: &str) -> Value {
    jwt_part(jwt, 0)
}

fn jwt_part(jwt: &str, index: usize) -> Value {
    use base64::Engine;
    let part = jwt.split('.').nth(index).unwrap();
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
    async fn tokens_issued_before_they_carried_their_time_still_work_once(app) {
        use api::{accounts::tokens::{random_token, sha256_hex}, oidc::grants::key_of};
        let rp = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "earlier@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let issued = rp.exchange(&code, verifier).await.unwrap();
        // Stored under the time it was issued, then the hash: never the token itself.
        let refresh = issued.refresh_token().unwrap().secret().clone();
        assert_eq!(app.count(&format!("SELECT COUNT(*) FROM oauth_tokens WHERE token_hash = '{}{}'", &refresh[..12], sha256_hex(&refresh))).await, 1);
        assert_eq!(app.count(&format!("SELECT COUNT(*) FROM oauth_tokens WHERE token_hash LIKE '%{}%'", &refresh[12..])).await, 0);
        // The same grant as an earlier release stored it: random tokens keyed by their hash alone.
        let (access, earlier) = (random_token(), random_token());
        for (new, old) in [(issued.access_token().secret(), &access), (&refresh, &earlier)] {
            app.sql(&format!("UPDATE oauth_tokens SET token_hash = '{}' WHERE token_hash = '{}'", sha256_hex(old), key_of(new))).await;
        }
        assert_eq!(userinfo(&app, issued.access_token().secret()).await.status(), StatusCode::UNAUTHORIZED);
        json_of(userinfo(&app, &access).await, StatusCode::OK).await;
        let earlier = RefreshToken::new(earlier);
        let rotated = rp.client().exchange_refresh_token(&earlier).unwrap().request_async(&rp_http()).await.expect("an earlier refresh token");
        json_of(userinfo(&app, rotated.access_token().secret()).await, StatusCode::OK).await;
        // Used once, like any other: a second use revokes the grant.
        let reuse = rp.client().exchange_refresh_token(&earlier).unwrap().request_async(&rp_http()).await;
        assert!(format!("{reuse:?}").contains("invalid_grant"), "{reuse:?}");
        assert_eq!(userinfo(&app, rotated.access_token().secret()).await.status(), StatusCode::UNAUTHORIZED);
    }
}

sso_test! {
    async fn a_made_up_token_with_a_plausible_issue_time_is_refused_like_any_unknown_one(app) {
        let rp = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "madeup@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let issued = rp.exchange(&code, verifier).await.unwrap();
        // A real token's time, with other random bits: a key that is nobody's.
        let real = issued.refresh_token().unwrap().secret().clone();
        let made_up = format!("{}{}", &real[..12], api::accounts::tokens::random_token());
        let post = |form: &[(&str, &str)]| {
            app.client.post(app.url("/oauth2/token")).basic_auth(&rp.client_id, rp.secret.as_deref()).form(form).send()
        };
        let verifier = "x".repeat(43);
        let mut answers = Vec::new();
        for token in [made_up.clone(), "none".to_owned()] {
            let refresh = post(&[("grant_type", "refresh_token"), ("refresh_token", &token)]).await.unwrap();
            let exchange = post(&[("grant_type", "authorization_code"), ("code", &token), ("redirect_uri", REDIRECT), ("code_verifier", &verifier)]).await.unwrap();
            answers.push((refresh.status(), refresh.text().await.unwrap(), exchange.status(), exchange.text().await.unwrap()));
            assert_eq!(userinfo(&app, &token).await.status(), StatusCode::UNAUTHORIZED);
        }
        assert_eq!(answers[0], answers[1], "a made-up token and an unknown one are answered alike");
        assert_eq!(answers[0].0, StatusCode::BAD_REQUEST);
        assert!(answers[0].1.contains("invalid_grant"), "{}", answers[0].1);
        // Nothing of the real grant was touched.
        rp.client().exchange_refresh_token(issued.refresh_token().unwrap()).unwrap().request_async(&rp_http()).await.expect("the grant is untouched");
    }
}

sso_test! {
    async fn a_refresh_narrows_the_scope_of_its_own_tokens_only_and_always_keeps_openid(app) {
        let rp = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "narrow@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let issued = rp.exchange(&code, verifier).await.unwrap();
        let mut refresh = issued.refresh_token().unwrap().secret().clone();
        // RFC 6749, section 6: a scope asked for is measured against what the person granted,
        // and none (or an empty one) means all of it, however narrow the last refresh was.
        for (asked, status, said) in [
            (Some("openid email"), StatusCode::OK, "openid email"),
            (None, StatusCode::OK, "openid email profile"),
            (Some("email openid email"), StatusCode::OK, "email openid"),
            (Some(""), StatusCode::OK, "openid email profile"),
            (Some("   "), StatusCode::OK, "openid email profile"),
            (Some("email"), StatusCode::BAD_REQUEST, "The scope must include openid"),
            (Some("openid organizations"), StatusCode::BAD_REQUEST, "The scope exceeds the original grant"),
            (Some("openid"), StatusCode::OK, "openid"),
            (Some("openid email profile"), StatusCode::OK, "openid email profile"),
        ] {
            let mut form = vec![("grant_type", "refresh_token"), ("refresh_token", refresh.as_str())];
            if let Some(asked) = asked {
                form.push(("scope", asked));
            }
            let answer = app.client.post(app.url("/oauth2/token")).basic_auth(&rp.client_id, rp.secret.as_deref()).form(&form).send().await.unwrap();
            let body = json_of(answer, status).await;
            if status == StatusCode::OK {
                assert_eq!(body["scope"], said, "{asked:?}: {body}");
                let info = json_of(userinfo(&app, body["access_token"].as_str().unwrap()).await, StatusCode::OK).await;
                assert_eq!(info["email"].is_string(), said.contains("email"), "{asked:?}: {info}");
                assert_eq!(info["name"].is_string(), said.contains("profile"), "{asked:?}: {info}");
                refresh = body["refresh_token"].as_str().unwrap().to_owned();
            } else {
                assert_eq!(body["error"], "invalid_scope", "{asked:?}: {body}");
                assert_eq!(body["error_description"], said, "{asked:?}: {body}");
            }
        }
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
        // Digits past any integer are a century, as a century is: the sign-in of a moment ago counts.
        let location = visit(&browser, &format!("{url}&max_age=18446744073709551616")).await.1.unwrap();
        assert!(param(&location, "code").is_some(), "{location}");
    }
}

sso_test! {
    async fn userinfo_revocation_and_discovery_answer_as_their_standards_say(app) {
        let rp = Rp::platform(&app).await;
        // No token at all: the Bearer challenge alone, no error code (RFC 6750, section 3.1).
        let bare = app.client.get(app.url("/oauth2/userinfo")).send().await.unwrap();
        assert_eq!(bare.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(bare.headers()["www-authenticate"], "Bearer");
        let wrong = userinfo(&app, "not-a-token").await;
        assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(wrong.headers()["www-authenticate"], "Bearer error=\"invalid_token\"");
        // Revoking what is no token of ours, however long (an ID token, say), succeeds (RFC 7009).
        for token in ["x".repeat(255), "x".repeat(2048)] {
            let revoked = app.client.post(app.url("/oauth2/revoke")).basic_auth(&rp.client_id, rp.secret.as_deref())
                .form(&[("token", token.as_str())]).send().await.unwrap();
            assert_eq!(revoked.status(), StatusCode::OK, "{}", token.len());
        }
        // Neither a request object nor a reference to one is read, and discovery says so (its
        // default for request_uri is true).
        let discovery: Value = app.client.get(app.url("/.well-known/openid-configuration")).send().await.unwrap().json().await.unwrap();
        assert_eq!(discovery["request_uri_parameter_supported"], false);
        assert_eq!(discovery["request_parameter_supported"], false);
    }
}

sso_test! {
    async fn the_id_token_says_when_the_person_signed_in_not_when_the_platform_asked(app) {
        use sea_orm::{EntityTrait, sea_query::Expr};
        let rp = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "when@example.com").await;
        // Signed in three hours ago, and seen since.
        let signed_in = chrono::Utc::now() - chrono::Duration::hours(3);
        entity::sessions::Entity::update_many()
            .col_expr(entity::sessions::Column::CreatedAt, Expr::value(signed_in))
            .exec(&app.db)
            .await
            .unwrap();
        let (url, _, nonce, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let tokens = rp.exchange(&code, verifier).await.expect("tokens");
        let claims = tokens.id_token().unwrap().claims(&rp.client().id_token_verifier(), &nonce).unwrap();
        assert_eq!(claims.auth_time().map(|t| t.timestamp()), Some(signed_in.timestamp()));
        // A platform that wants a sign-in within the hour sends the person to sign in again.
        let (url, ..) = rp.authorize_url();
        let location = visit(&browser, &format!("{url}&max_age=3600")).await.1.unwrap();
        assert_eq!(location.path(), "/login");
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
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'consent_given' AND user_id IS NOT NULL").await, 1);
    }
}

sso_test! {
    async fn rp_initiated_logout_ends_the_session_and_notifies_clients_by_back_channel(app) {
        // A client's back-channel endpoint that records what it receives.
        let (port, received) = backchannel_receiver(0).await;

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
    async fn a_partner_on_another_site_signs_out_with_its_hint_alone_and_only_its_own_client(app) {
        let rp = Rp::platform(&app).await;
        let partner = Rp::register(&app, NewClient {
            name: "Partner".to_owned(),
            redirect_uris: vec![REDIRECT.to_owned()],
            post_logout_redirect_uris: vec!["https://partner.example/".to_owned()],
            first_party: true,
            ..NewClient::default()
        }).await;
        let browser = signed_in_browser(&app, "partner@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let tokens = rp.exchange(&code, verifier).await.unwrap();
        let hint = tokens.id_token().unwrap().to_string();
        // prompt=none with the hint: a code for the person it names; another person signed in
        // in this browser is not taken for them.
        let (url, _, _, _) = rp.authorize_url();
        let same = visit(&browser, &format!("{url}&prompt=none&id_token_hint={hint}")).await.1.unwrap();
        assert!(param(&same, "code").is_some(), "{same}");
        let someone_else = signed_in_browser(&app, "someone@example.com").await;
        let (url, _, _, _) = rp.authorize_url();
        let other = visit(&someone_else, &format!("{url}&prompt=none&id_token_hint={hint}")).await.1.unwrap();
        assert_eq!(param(&other, "error").as_deref(), Some("login_required"), "{other}");
        // Without prompt=none too: no code for another person than the hint names, nor for a
        // hint that is none of ours; the person it names gets one.
        for (who, hint, answer) in [(&someone_else, hint.as_str(), "error"), (&browser, "not.a.token", "error"), (&browser, hint.as_str(), "code")] {
            let (url, _, _, _) = rp.authorize_url();
            let back = visit(who, &format!("{url}&id_token_hint={hint}")).await.1.unwrap();
            assert!(param(&back, answer).is_some(), "{back}");
            if answer == "error" {
                assert_eq!(param(&back, "error").as_deref(), Some("login_required"), "{back}");
            }
        }
        // A hint of one client with another's client_id is refused, and ends nothing.
        let mixed = format!("{}/oauth2/logout?id_token_hint={hint}&client_id={}&post_logout_redirect_uri={}", app.address, partner.client_id, urlencode("https://hire.example/"));
        assert_eq!(visit(&browser, &mixed).await.0, StatusCode::BAD_REQUEST);
        assert_eq!(browser.get(app.url("/api/auth/verify")).send().await.unwrap().status(), StatusCode::OK);
        // The form a site of another domain posts top-level carries no SameSite=Lax cookie:
        // the hint's own session ends all the same.
        let no_cookie = super::browser().post(app.url("/oauth2/logout"))
            .form(&[("id_token_hint", hint.as_str()), ("post_logout_redirect_uri", "https://hire.example/"), ("state", "P")])
            .send().await.unwrap();
        assert_eq!(no_cookie.status(), StatusCode::SEE_OTHER);
        assert_eq!(no_cookie.headers()["location"], "https://hire.example/?state=P");
        assert_eq!(browser.get(app.url("/api/auth/verify")).send().await.unwrap().status(), StatusCode::UNAUTHORIZED);
        assert_eq!(userinfo(&app, tokens.access_token().secret()).await.status(), StatusCode::UNAUTHORIZED);
    }
}

sso_test! {
    async fn a_parameter_given_twice_is_named_as_the_fault(app) {
        let rp = Rp::platform(&app).await;
        let (url, _, _, _) = rp.authorize_url();
        let twice = super::browser().get(format!("{url}&state=again")).send().await.unwrap();
        assert_eq!(twice.status(), StatusCode::BAD_REQUEST);
        let page = twice.text().await.unwrap();
        assert!(page.contains("a parameter is given more than once"), "{page}");
        assert!(!page.contains("not registered"), "{page}");
        let token = app.client.post(app.url("/oauth2/token")).basic_auth(&rp.client_id, rp.secret.as_deref())
            .header("content-type", "application/x-www-form-urlencoded")
            .body("grant_type=refresh_token&grant_type=authorization_code").send().await.unwrap();
        assert_eq!(token.status(), StatusCode::BAD_REQUEST);
        let body: Value = token.json().await.unwrap();
        assert_eq!(body["error"], "invalid_request");
        assert_eq!(body["error_description"], "A parameter is given more than once, or is not text");
        // A compressed form is refused as such, not read as nothing and blamed on the client's
        // authentication.
        for path in ["/oauth2/token", "/oauth2/revoke"] {
            let answer = app.client.post(app.url(path)).basic_auth(&rp.client_id, rp.secret.as_deref())
                .header("content-type", "application/x-www-form-urlencoded").header("content-encoding", "gzip")
                .body(vec![0x1f, 0x8b, 0x08, 0x00]).send().await.unwrap();
            assert_eq!(answer.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE, "{path}");
            let body: Value = answer.json().await.unwrap();
            assert_eq!(body["error"], "invalid_request", "{path}");
            assert_eq!(body["error_description"], "Request bodies must be sent uncompressed (no Content-Encoding)", "{path}");
        }
        // A body past the limit is named as such (413), on the token and revocation endpoints;
        // a code or refresh token longer than any issued is an unknown one, not a missing one.
        let huge = format!("grant_type=refresh_token&refresh_token={}", "a".repeat(70_000));
        for path in ["/oauth2/token", "/oauth2/revoke"] {
            let answer = app.client.post(app.url(path)).basic_auth(&rp.client_id, rp.secret.as_deref())
                .header("content-type", "application/x-www-form-urlencoded").body(huge.clone()).send().await.unwrap();
            assert_eq!(answer.status(), StatusCode::PAYLOAD_TOO_LARGE, "{path}");
            assert_eq!(answer.headers()["cache-control"], "no-store", "{path}");
            let body: Value = answer.json().await.unwrap();
            assert_eq!(body, json!({ "error": "invalid_request", "error_description": "The request body is too large (64 KiB at most)" }), "{path}");
        }
        let long = "a".repeat(60_000);
        for (form, said) in [
            (vec![("grant_type", "refresh_token"), ("refresh_token", long.as_str())], "The refresh token is invalid, expired or revoked"),
            (vec![("grant_type", "authorization_code"), ("code", long.as_str()), ("redirect_uri", REDIRECT)], "The authorization code is invalid, expired or already used"),
        ] {
            let answer = app.client.post(app.url("/oauth2/token")).basic_auth(&rp.client_id, rp.secret.as_deref()).form(&form).send().await.unwrap();
            let body = json_of(answer, StatusCode::BAD_REQUEST).await;
            assert_eq!(body["error"], "invalid_grant", "{body}");
            assert_eq!(body["error_description"], said, "{body}");
        }
        // The sign-out form that does not read is a page, as every other sign-out refusal.
        let logout = super::browser().post(app.url("/oauth2/logout"))
            .header("content-type", "application/x-www-form-urlencoded").body(format!("state={}", "s".repeat(70_000))).send().await.unwrap();
        assert_eq!(logout.status(), StatusCode::BAD_REQUEST);
        assert!(logout.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
        let page = logout.text().await.unwrap();
        assert!(page.contains("The sign-out form could not be read"), "{page}");
        assert!(page.contains("<h1>This sign-out link is not valid</h1>"), "named a sign-out, not a sign-in: {page}");
        // The consent form the person posts by Allow or Deny: a page too, not the OAuth JSON.
        for body in [format!("decision=allow&pad={}", "p".repeat(70_000)), "decision=allow&decision=deny".to_owned()] {
            let consent = super::browser().post(app.url("/oauth2/authorize/consent"))
                .header("content-type", "application/x-www-form-urlencoded").body(body).send().await.unwrap();
            assert_eq!(consent.status(), StatusCode::BAD_REQUEST);
            assert!(consent.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
            let page = consent.text().await.unwrap();
            assert!(page.contains("The consent form could not be read"), "{page}");
        }
        // A wrong method or an endpoint that does not exist: in the OAuth shape too.
        for (method, path, status) in [
            (reqwest::Method::GET, "/oauth2/token", StatusCode::METHOD_NOT_ALLOWED),
            (reqwest::Method::GET, "/oauth2/revoke", StatusCode::METHOD_NOT_ALLOWED),
            (reqwest::Method::DELETE, "/oauth2/userinfo", StatusCode::METHOD_NOT_ALLOWED),
            (reqwest::Method::POST, "/oauth2/jwks", StatusCode::METHOD_NOT_ALLOWED),
            (reqwest::Method::GET, "/oauth2/nope", StatusCode::NOT_FOUND),
        ] {
            let answer = app.client.request(method.clone(), app.url(path)).send().await.unwrap();
            assert_eq!(answer.status(), status, "{method} {path}");
            if status == StatusCode::METHOD_NOT_ALLOWED {
                assert!(answer.headers().contains_key("allow"), "{method} {path}");
            }
            let body: Value = answer.json().await.unwrap();
            assert_eq!(body["error"], "invalid_request", "{method} {path}");
        }
    }
}

sso_test! {
    async fn the_token_endpoint_takes_one_client_authentication_a_request(app) {
        let rp = Rp::platform(&app).await;
        let partner = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "twice@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let verifier = verifier.secret().to_owned();
        let exchange = |extra: Vec<(&'static str, String)>| {
            let mut form = vec![("grant_type", "authorization_code".to_owned()), ("code", code.clone()), ("redirect_uri", REDIRECT.to_owned()), ("code_verifier", verifier.clone())];
            form.extend(extra);
            app.client.post(app.url("/oauth2/token")).basic_auth(&rp.client_id, rp.secret.as_deref()).form(&form).send()
        };
        for extra in [vec![("client_secret", "wrong".to_owned())], vec![("client_id", partner.client_id.clone())]] {
            let refused = exchange(extra.clone()).await.unwrap();
            assert_eq!(refused.status(), StatusCode::BAD_REQUEST, "{extra:?}");
            assert_eq!(refused.json::<Value>().await.unwrap()["error"], "invalid_request", "{extra:?}");
        }
        // The code was not used up: the header alone, with its own client_id, exchanges it.
        let exchanged = exchange(vec![("client_id", rp.client_id.clone())]).await.unwrap();
        assert_eq!(exchanged.status(), StatusCode::OK);
    }
}

sso_test! {
    async fn a_client_registered_for_eddsa_gets_id_tokens_signed_with_the_published_ed25519_key(app) {
        use openidconnect::core::CoreJwsSigningAlgorithm;
        let rp = Rp::register(&app, NewClient {
            name: "Career".to_owned(),
            redirect_uris: vec![REDIRECT.to_owned()],
            first_party: true,
            id_token_alg: clients::IdTokenAlg::EdDsa,
            ..NewClient::default()
        }).await;
        let browser = signed_in_browser(&app, "eddsa@example.com").await;
        let (url, _, nonce, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let tokens = rp.exchange(&code, verifier).await.unwrap();
        let id_token = tokens.id_token().unwrap();
        let signed = header(&id_token.to_string());
        assert_eq!(signed["alg"], "EdDSA");
        let jwks = json_of(app.get("/oauth2/jwks").await, StatusCode::OK).await;
        let key = jwks["keys"].as_array().unwrap().iter().find(|k| k["kid"] == signed["kid"]).expect("the signing key is published");
        assert_eq!((key["kty"].as_str(), key["crv"].as_str()), (Some("OKP"), Some("Ed25519")));
        // A relying party that allows EdDSA validates it, nonce and all, against the JWKS...
        let client = rp.client();
        let eddsa = client.id_token_verifier().set_allowed_algs(vec![CoreJwsSigningAlgorithm::EdDsa]);
        let claims = id_token.claims(&eddsa, &nonce).expect("a valid EdDSA ID token");
        assert_eq!(claims.email().map(|e| e.as_str()), Some("eddsa@example.com"));
        // ...and one that allows RS256 alone refuses it.
        let rs256 = client.id_token_verifier().set_allowed_algs(vec![CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256]);
        assert!(id_token.claims(&rs256, &nonce).is_err());

        // A refreshed ID token keeps the client's algorithm.
        let refreshed = rp.client()
            .exchange_refresh_token(tokens.refresh_token().unwrap()).unwrap()
            .request_async(&rp_http()).await.unwrap();
        let again = header(&refreshed.id_token().expect("an ID token on refresh").to_string());
        assert_eq!((&again["alg"], &again["kid"]), (&signed["alg"], &signed["kid"]));
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
        let new_kids = api::oidc::keys::rotate(&app.db, &crate::helpers::vault()).await.unwrap();

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

sso_test! {
    async fn an_admin_registers_a_client_for_eddsa_in_graphql_and_its_id_tokens_are_eddsa(app) {
        let token = app.signed_up("root@example.com").await;
        app.sql("UPDATE users SET role = 'admin'").await;
        let create = "mutation($input: CreateOAuthClientInput!) { createOAuthClient(input: $input) { clientSecret client { clientId idTokenSignedResponseAlg } } }";
        let input = |name: &str, alg: Value| json!({ "input": { "name": name, "redirectUris": [REDIRECT], "firstParty": true, "idTokenSignedResponseAlg": alg } });
        // Only the two algorithms the discovery document offers are accepted.
        let body = app.graphql(Some(&token), create, input("Weak", json!("HS256"))).await;
        assert!(body["errors"][0]["message"].as_str().is_some_and(|m| m.contains("HS256")), "{body}");
        assert_eq!(app.count("SELECT COUNT(*) FROM oauth_clients").await, 0);
        // A redirect URI is at most 255 characters and carries no credentials.
        let long = format!("https://x.example/{}", "a".repeat(240));
        let uris = |uris: Value| json!({ "input": { "name": "Bad", "redirectUris": uris } });
        for (bad, said) in [
            (json!([long]), "Redirect URI must be at most 255 characters".to_owned()),
            (json!(["https://user:pw@x.example/cb"]), "Redirect URI \"https://user:pw@x.example/cb\" must not carry a user name or password".to_owned()),
        ] {
            let body = app.graphql(Some(&token), create, uris(bad)).await;
            assert_eq!(body["errors"][0]["message"], said.as_str(), "{body}");
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM oauth_clients").await, 0);
        // Left out, it is RS256; a URI given twice is kept once.
        let twice = app.graphql(Some(&token), "mutation { createOAuthClient(input: { name: \"Twice\", redirectUris: [\"https://x.example/cb\", \"https://x.example/cb\"] }) { client { clientId redirectUris } } }", json!({})).await;
        assert_eq!(twice["data"]["createOAuthClient"]["client"]["redirectUris"], json!(["https://x.example/cb"]), "{twice}");
        let deleted = app.graphql(Some(&token), "mutation($id: ID!) { deleteOAuthClient(clientId: $id) { message } }", json!({ "id": twice["data"]["createOAuthClient"]["client"]["clientId"] })).await;
        assert!(deleted["data"]["deleteOAuthClient"]["message"].is_string(), "{deleted}");
        let body = app.graphql(Some(&token), create, json!({ "input": { "name": "Hire", "redirectUris": [REDIRECT] } })).await;
        assert_eq!(body["data"]["createOAuthClient"]["client"]["idTokenSignedResponseAlg"], "RS256", "{body}");

        let body = app.graphql(Some(&token), create, input("Career", json!("EdDSA"))).await;
        let created = &body["data"]["createOAuthClient"];
        assert_eq!(created["client"]["idTokenSignedResponseAlg"], "EdDSA", "{body}");
        let listed = app.graphql(Some(&token), "{ oauthClients { name idTokenSignedResponseAlg } }", json!({})).await;
        assert_eq!(listed["data"]["oauthClients"], json!([{ "name": "Hire", "idTokenSignedResponseAlg": "RS256" }, { "name": "Career", "idTokenSignedResponseAlg": "EdDSA" }]));

        // The choice reaches the signature.
        let rp = Rp {
            client_id: created["client"]["clientId"].as_str().unwrap().to_owned(),
            secret: created["clientSecret"].as_str().map(str::to_owned),
            metadata: CoreProviderMetadata::discover_async(IssuerUrl::new(app.address.clone()).unwrap(), &rp_http()).await.unwrap(),
        };
        let browser = signed_in_browser(&app, "ed@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let tokens = rp.exchange(&code, verifier).await.unwrap();
        assert_eq!(header(&tokens.id_token().unwrap().to_string())["alg"], "EdDSA");
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
        // A code the partner got a moment before the revocation buys nothing after it.
        let (url, _, _, pending_verifier) = partner.authorize_url();
        let pending = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").expect("consented: a code at once");
        let revoke = app.graphql(Some(&person), "mutation($id: ID!) { revokeApplication(clientId: $id) { message } }", json!({ "id": client_id })).await;
        assert_eq!(revoke["data"]["revokeApplication"]["message"], "Access revoked", "{revoke}");
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'consent_revoked'").await, 1);
        assert_eq!(userinfo(&app, tokens.access_token().secret()).await.status(), StatusCode::UNAUTHORIZED);
        assert!(partner.exchange(&pending, pending_verifier).await.is_err(), "the code went with the consent");
        let (url, _, _, _) = partner.authorize_url();
        let again = browser.get(url.as_str()).send().await.unwrap();
        assert_eq!(again.status(), StatusCode::OK);
        let page = again.text().await.unwrap();
        assert!(page.contains("Allow Acme Jobs?") && page.contains("value=\"allow\""), "the consent screen again: {page}");

        let rotate = app.graphql(Some(&token), "mutation($id: ID!) { rotateOAuthClientSecret(clientId: $id) { clientSecret } }", json!({ "id": client_id })).await;
        assert!(rotate["data"]["rotateOAuthClientSecret"]["clientSecret"].is_string(), "{rotate}");
        let delete = app.graphql(Some(&token), "mutation($id: ID!) { deleteOAuthClient(clientId: $id) { message } }", json!({ "id": client_id })).await;
        assert_eq!(delete["data"]["deleteOAuthClient"]["message"], "Application deleted");
        assert_eq!(app.count("SELECT COUNT(*) FROM oauth_consents").await, 0);
    }
}

/// `api oauth-client …` with only `DATABASE_URL` set, in an empty directory: whether it
/// succeeded, its stdout, and its stderr followed by how it ended (an exit code or a signal).
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
        format!("{}({})", String::from_utf8_lossy(&output.stderr), output.status),
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
    assert!(
        client_id.len() == 32 && client_id.bytes().all(|b| b.is_ascii_hexdigit()),
        "an id no command line reads as an option: {client_id}"
    );
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
            "--id-token-alg",
            "EdDSA",
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
            "Odd",
            "--redirect-uri",
            "https://odd.example/cb",
            "--id-token-alg",
            "HS256",
        ],
    );
    assert!(!ok && err.contains("is not RS256 or EdDSA"), "{err}");
    let (ok, out, err) = cli(
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
    assert!(!ok && err.contains("https"), "{err}\nstdout: {out}");

    let (ok, list, err) = cli(&url, &["oauth-client", "list"]);
    assert!(ok, "{err}");
    assert!(
        list.contains(&client_id)
            && list.contains("confidential, first-party\tRS256")
            && list.contains("public\tEdDSA\thttp://localhost:5173/cb")
            && list.contains("https://hire.example/cb2"),
        "{list}"
    );
    assert!(!list.contains("Odd"), "a refused client is not stored: {list}");
    assert!(!list.contains(&secret), "the secret is never shown again");
    let (ok, rotated, _) = cli(&url, &["oauth-client", "rotate-secret", &client_id]);
    assert!(
        ok && !rotated.contains(&secret) && rotated.contains("client_secret: "),
        "{rotated}"
    );
    let (ok, _, err) = cli(&url, &["oauth-client", "delete", &client_id]);
    assert!(ok, "{err}");
    let (ok, _, err) = cli(&url, &["oauth-client", "delete", &client_id]);
    assert!(!ok && err.contains("No client"), "{err}");

    // Ids were base64url before: one in 64 began with `-`, and the commands took it for an
    // option. Such a client is still rotated and deleted by its id.
    let (ok, out, err) = cli(
        &url,
        &[
            "oauth-client",
            "create",
            "--name",
            "Old",
            "--redirect-uri",
            "https://old.example/cb",
        ],
    );
    assert!(ok, "{err}");
    let new_id = out.lines().find_map(|l| l.strip_prefix("client_id: ")).unwrap();
    let legacy_id = "-dEMw4qUn-vnapgMjUyBgA";
    let db = sea_orm::Database::connect(&url).await.unwrap();
    sea_orm::ConnectionTrait::execute_unprepared(
        &db,
        &format!("UPDATE oauth_clients SET client_id = '{legacy_id}' WHERE client_id = '{new_id}'"),
    )
    .await
    .unwrap();
    db.close().await.unwrap();
    let (ok, rotated, err) = cli(&url, &["oauth-client", "rotate-secret", legacy_id]);
    assert!(
        ok && rotated.contains(&format!("client_id: {legacy_id}")),
        "{err}"
    );
    let (ok, _, err) = cli(&url, &["oauth-client", "delete", legacy_id]);
    assert!(ok, "{err}");
    let (_, list, _) = cli(&url, &["oauth-client", "list"]);
    assert!(!list.contains("Old"), "{list}");
    // The signing keys are sealed with the server's KEY_ENCRYPTION_KEY: rotating them needs
    // the server's settings, not the database alone.
    let (ok, _, err) = cli(&url, &["signing-key", "rotate"]);
    assert!(!ok && err.contains("APP_ENV"), "{err}");
}

sso_test! {
    async fn a_client_that_is_down_gets_its_back_channel_logout_when_it_returns(app) {
        // A port with nothing listening yet: the client is down when the person signs out.
        let port = crate::helpers::port_for_a_child();
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
        // The worker tried while the client was down, failed, and kept the notice.
        let tried = "SELECT COUNT(*) FROM backchannel_logouts WHERE attempts > 0 AND last_error IS NOT NULL";
        assert_eq!(app.eventually(tried, 1).await, 1, "tried while the client is down");
        assert_eq!(app.count("SELECT COUNT(*) FROM backchannel_logouts").await, 1, "kept for later");

        // The client comes back: the notice arrives, once, and leaves the queue.
        let (_, received) = backchannel_receiver(port).await;
        for _ in 0..150 {
            if !received.lock().unwrap().is_empty() { break; }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(received.lock().unwrap().len(), 1, "delivered after the client returned");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while app.count("SELECT COUNT(*) FROM backchannel_logouts").await > 0 {
            assert!(std::time::Instant::now() < deadline, "the delivered notice stayed queued");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(received.lock().unwrap().len(), 1, "delivered once");
    }
}

/// Moves the last use of every session `by` into the past.
async fn idle_for(app: &TestApp, by: chrono::Duration) {
    use sea_orm::{EntityTrait, sea_query::Expr};
    let then = chrono::Utc::now() - by;
    entity::sessions::Entity::update_many()
        .col_expr(entity::sessions::Column::LastSeenAt, Expr::value(Some(then)))
        .col_expr(entity::sessions::Column::CreatedAt, Expr::value(then))
        .exec(&app.db)
        .await
        .unwrap();
}

sso_test! {
    async fn provider_tokens_end_with_the_session_they_came_from(app) {
        let rp = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "idle@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let tokens = rp.exchange(&code, verifier).await.unwrap();
        // Nothing issued outlives the session's absolute end.
        use sea_orm::EntityTrait;
        let issued = entity::oauth_tokens::Entity::find().all(&app.db).await.unwrap();
        assert!(issued.len() >= 2, "an access and a refresh token: {issued:?}");
        for token in issued {
            let session = entity::sessions::Entity::find_by_id(token.session_id).one(&app.db).await.unwrap().unwrap();
            assert!(token.expires_at <= session.expires_at, "{} outlives its session", token.kind);
        }
        // A refresh is a use of the session: it keeps it alive.
        let refreshed = rp.client().exchange_refresh_token(tokens.refresh_token().unwrap()).unwrap().request_async(&rp_http()).await.expect("refresh");
        json_of(userinfo(&app, refreshed.access_token().secret()).await, StatusCode::OK).await;
        // Unused past the idle timeout (seven days): the browser, userinfo and refresh all stop.
        idle_for(&app, chrono::Duration::days(8)).await;
        assert_eq!(browser.get(app.url("/api/auth/verify")).send().await.unwrap().status(), StatusCode::UNAUTHORIZED);
        let body = userinfo(&app, refreshed.access_token().secret()).await;
        assert_eq!(body.status(), StatusCode::UNAUTHORIZED);
        let refused = rp.client().exchange_refresh_token(refreshed.refresh_token().unwrap()).unwrap().request_async(&rp_http()).await;
        assert!(format!("{refused:?}").contains("invalid_grant"), "{refused:?}");
    }
}

sso_test! {
    async fn a_code_from_a_session_that_went_idle_or_was_suspended_gets_no_tokens(app) {
        let rp = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "late@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        idle_for(&app, chrono::Duration::days(8)).await;
        let err = rp.exchange(&code, verifier).await.unwrap_err();
        assert!(err.contains("invalid_grant"), "{err}");

        let browser = signed_in_browser(&app, "blocked@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        app.sql("UPDATE users SET status = 'suspended' WHERE email = 'blocked@example.com'").await;
        let err = rp.exchange(&code, verifier).await.unwrap_err();
        assert!(err.contains("invalid_grant"), "{err}");
    }
}

sso_test! {
    async fn twenty_exchanges_of_one_code_at_once_give_tokens_once_and_end_the_grant(app) {
        let rp = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "race@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let verifier = verifier.secret().to_owned();
        let answers = futures::future::join_all(
            (0..20).map(|_| rp.exchange(&code, PkceCodeVerifier::new(verifier.clone()))),
        )
        .await;
        let granted: Vec<_> = answers.iter().filter_map(|answer| answer.as_ref().ok()).collect();
        assert_eq!(granted.len(), 1, "one exchange gets tokens: {answers:?}");
        assert!(answers.iter().filter_map(|answer| answer.as_ref().err()).all(|err| err.contains("invalid_grant")), "{answers:?}");
        // The others were replays: the grant, and the tokens the winner got, are revoked.
        assert_eq!(userinfo(&app, granted[0].access_token().secret()).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.count("SELECT COUNT(*) FROM oauth_tokens").await, 0);
    }
}

sso_test! {
    async fn exchanges_at_once_each_get_tokens_of_their_own(app) {
        let rp = Rp::platform(&app).await;
        let emails = ["one@example.com", "two@example.com"];
        let browsers = [signed_in_browser(&app, emails[0]).await, signed_in_browser(&app, emails[1]).await];
        // Sixteen codes asked for at once, then exchanged at once: the server stores the codes,
        // and then the tokens, in groups, and each keeps what is its own.
        let codes = futures::future::join_all((0..16).map(|n| {
            let (url, _, _, verifier) = rp.authorize_url();
            let browser = &browsers[n % 2];
            async move {
                let code = param(&visit(browser, url.as_str()).await.1.unwrap(), "code").unwrap();
                (emails[n % 2], code, verifier.secret().to_owned())
            }
        }))
        .await;
        let distinct: std::collections::HashSet<_> = codes.iter().map(|(_, code, _)| code).collect();
        assert_eq!(distinct.len(), 16, "a code given twice");
        let answers = futures::future::join_all(
            codes.iter().map(|(_, code, verifier)| rp.exchange(code, PkceCodeVerifier::new(verifier.clone()))),
        )
        .await;
        let mut access = std::collections::HashSet::new();
        for ((email, ..), answer) in codes.iter().zip(&answers) {
            let tokens = answer.as_ref().expect("each exchange gets tokens");
            assert!(access.insert(tokens.access_token().secret().clone()), "an access token given twice");
            let info = json_of(userinfo(&app, tokens.access_token().secret()).await, StatusCode::OK).await;
            assert_eq!(info["email"], *email);
        }
        let refreshed = futures::future::join_all(answers.iter().map(|answer| async {
            let refresh = answer.as_ref().unwrap().refresh_token().unwrap();
            rp.client().exchange_refresh_token(refresh).unwrap().request_async(&rp_http()).await
        }))
        .await;
        assert!(refreshed.iter().all(Result::is_ok), "{refreshed:?}");
        // The 16 first pairs' refresh tokens are spent; each rotation stored a new pair.
        assert_eq!(app.count("SELECT COUNT(*) FROM oauth_tokens WHERE used_at IS NOT NULL").await, 16);
        assert_eq!(app.count("SELECT COUNT(*) FROM oauth_tokens").await, 64);
    }
}

sso_test! {
    async fn the_client_is_proved_before_the_grant_whatever_the_grant(app) {
        let rp = Rp::platform(&app).await;
        let other = Rp::register(&app, NewClient { name: "Campus".to_owned(), redirect_uris: vec![REDIRECT.to_owned()], first_party: true, ..NewClient::default() }).await;
        let browser = signed_in_browser(&app, "proved@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let exchange = [("grant_type", "authorization_code"), ("code", code.as_str()), ("redirect_uri", REDIRECT), ("code_verifier", verifier.secret().as_str())];
        let token = |client_id: &str, secret: &str, form: &[(&str, &str)]| {
            app.client.post(app.url("/oauth2/token")).basic_auth(client_id, Some(secret)).form(form).send()
        };
        let refused = |response: reqwest::Response| async move { json_of(response, StatusCode::UNAUTHORIZED).await["error"].clone() };
        // The code's own client with a wrong secret, in the header or in the form.
        assert_eq!(refused(token(&rp.client_id, "wrong", &exchange).await.unwrap()).await, "invalid_client");
        let in_form: Vec<(&str, &str)> = exchange.iter().copied().chain([("client_id", rp.client_id.as_str()), ("client_secret", "wrong")]).collect();
        let response = app.client.post(app.url("/oauth2/token")).form(&in_form).send().await.unwrap();
        assert_eq!(refused(response).await, "invalid_client");
        // Another client: a wrong secret is refused as such; its right one learns only that
        // the grant is not valid.
        let other_secret = other.secret.clone().unwrap();
        assert_eq!(refused(token(&other.client_id, "wrong", &exchange).await.unwrap()).await, "invalid_client");
        let response = token(&other.client_id, &other_secret, &exchange).await.unwrap();
        assert_eq!(json_of(response, StatusCode::BAD_REQUEST).await["error"], "invalid_grant");
        // Whatever else is wrong with the request, a wrong secret is what it hears first.
        for form in [&[("grant_type", "authorization_code")][..], &[("grant_type", "password")], &[("code", code.as_str())], &[("grant_type", "refresh_token")]] {
            assert_eq!(refused(token(&rp.client_id, "wrong", form).await.unwrap()).await, "invalid_client", "{form:?}");
        }
        // None of it burned the code, nor counted as a replay.
        let tokens = rp.exchange(&code, verifier).await.expect("the code still works");
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'authorization_code_replayed'").await, 0);

        let refresh = tokens.refresh_token().unwrap().secret().clone();
        let rotate = [("grant_type", "refresh_token"), ("refresh_token", refresh.as_str())];
        assert_eq!(refused(token(&rp.client_id, "wrong", &rotate).await.unwrap()).await, "invalid_client");
        assert_eq!(refused(token(&other.client_id, "wrong", &rotate).await.unwrap()).await, "invalid_client");
        let response = token(&other.client_id, &other_secret, &rotate).await.unwrap();
        assert_eq!(json_of(response, StatusCode::BAD_REQUEST).await["error"], "invalid_grant");
        let response = token(&rp.client_id, rp.secret.as_deref().unwrap(), &rotate).await.unwrap();
        assert!(json_of(response, StatusCode::OK).await["id_token"].is_string(), "the refresh token still works");
    }
}

sso_test! {
    async fn a_code_whose_sign_in_was_signed_out_gets_no_tokens(app) {
        let rp = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "gone@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let response = browser.post(app.url("/api/auth/logout")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let err = rp.exchange(&code, verifier).await.unwrap_err();
        assert!(err.contains("invalid_grant"), "{err}");
        assert_eq!(app.count("SELECT COUNT(*) FROM oauth_tokens").await, 0);
    }
}

sso_test! {
    async fn a_sign_out_amid_twenty_authorizations_leaves_no_code_that_works(app) {
        let rp = Rp::platform(&app).await;
        app.signed_up("amid@example.com").await;
        // The session cookie sent by hand, so requests that leave after the sign-out still
        // carry it (a browser's other tabs): the server, not the cookie jar, must refuse them.
        let login = rp_http()
            .post(app.url("/api/auth/login"))
            .json(&json!({ "email": "amid@example.com", "password": PASSWORD }))
            .send()
            .await
            .unwrap();
        assert_eq!(login.status(), StatusCode::OK);
        let cookie = login.headers().get_all("set-cookie").iter()
            .map(|c| c.to_str().unwrap().split(';').next().unwrap().to_owned())
            .collect::<Vec<_>>()
            .join("; ");
        let http = rp_http();
        let authorizations = futures::future::join_all((0..20).map(|_| {
            let (url, _, _, verifier) = rp.authorize_url();
            let request = http.get(url.as_str()).header("cookie", &cookie).send();
            async move { (request.await.unwrap(), verifier) }
        }));
        let sign_out = async {
            tokio::task::yield_now().await;
            http.post(app.url("/api/auth/logout")).header("cookie", &cookie).send().await.unwrap()
        };
        let (answers, signed_out) = futures::join!(authorizations, sign_out);
        assert_eq!(signed_out.status(), StatusCode::OK);
        // Each was answered with a code or sent to sign in, never with an error, and no code
        // given, before or after the sign-out, is worth tokens now. Where the sign-out falls
        // differs run to run (0 to 20 codes got through in trials); a code written after its
        // sign-out ended, answered as an error instead of a new sign-in, failed 4 runs in 6.
        let mut codes = 0;
        for (answer, verifier) in answers {
            assert_eq!(answer.status(), StatusCode::SEE_OTHER, "{:?}", answer.headers());
            let location = Url::parse(answer.headers()["location"].to_str().unwrap()).unwrap();
            match param(&location, "code") {
                Some(code) => {
                    codes += 1;
                    let err = rp.exchange(&code, verifier).await.unwrap_err();
                    assert!(err.contains("invalid_grant"), "{err}");
                }
                None => assert_eq!(location.path(), "/login", "{location}"),
            }
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM oauth_tokens").await, 0);
        assert_eq!(app.count("SELECT COUNT(*) FROM oauth_codes").await, 0, "{codes} codes given, none kept");
    }
}

sso_test! {
    async fn the_housekeeping_ends_idle_sessions_and_tells_their_clients(app) {
        let port = crate::helpers::port_for_a_child();
        let rp = Rp::register(&app, NewClient {
            name: "Campus".to_owned(),
            redirect_uris: vec![REDIRECT.to_owned()],
            backchannel_logout_uri: Some(format!("http://127.0.0.1:{port}/backchannel")),
            first_party: true,
            ..NewClient::default()
        }).await;
        let browser = signed_in_browser(&app, "swept@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let tokens = rp.exchange(&code, verifier).await.unwrap();
        app.signed_up("active@example.com").await;
        idle_for(&app, chrono::Duration::days(8)).await;
        app.sql("UPDATE sessions SET last_seen_at = expires_at WHERE user_id IN (SELECT id FROM users WHERE email = 'active@example.com')").await;
        api::janitor::sweep(&app.db, chrono::Duration::days(7)).await.unwrap();
        assert_eq!(app.count("SELECT COUNT(*) FROM sessions").await, 1, "only the active one stays");
        assert_eq!(app.count("SELECT COUNT(*) FROM oauth_tokens").await, 0);
        assert_eq!(app.count("SELECT COUNT(*) FROM backchannel_logouts").await, 1, "the client hears of it");
        assert_eq!(userinfo(&app, tokens.access_token().secret()).await.status(), StatusCode::UNAUTHORIZED);
    }
}

sso_test! {
    async fn refused_token_requests_do_not_burn_the_code_or_the_refresh_token(app) {
        let rp = Rp::platform(&app).await;
        let other = Rp::register(&app, NewClient { name: "Campus".to_owned(), redirect_uris: vec![REDIRECT.to_owned()], first_party: true, ..NewClient::default() }).await;
        let browser = signed_in_browser(&app, "careful@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        assert!(rp.exchange(&code, PkceCodeVerifier::new("x".repeat(43))).await.unwrap_err().contains("invalid_grant"));
        assert!(other.exchange(&code, PkceCodeVerifier::new(verifier.secret().clone())).await.unwrap_err().contains("invalid_grant"));
        let tokens = rp.exchange(&code, verifier).await.expect("the code still works after refused attempts");
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'authorization_code_replayed'").await, 0);

        let refresh = tokens.refresh_token().unwrap().clone();
        let wider = rp.client().exchange_refresh_token(&refresh).unwrap().add_scope(Scope::new("admin".to_owned())).request_async(&rp_http()).await;
        assert!(format!("{wider:?}").contains("invalid_scope"), "{wider:?}");
        let by_other = other.client().exchange_refresh_token(&refresh).unwrap().request_async(&rp_http()).await;
        assert!(format!("{by_other:?}").contains("invalid_grant"), "{by_other:?}");
        rp.client().exchange_refresh_token(&refresh).unwrap().request_async(&rp_http()).await.expect("still good");
        // Used once: a second use is a theft, revoked and recorded with the person.
        assert!(rp.client().exchange_refresh_token(&refresh).unwrap().request_async(&rp_http()).await.is_err());
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'refresh_token_reused' AND user_id IS NOT NULL").await, 1);
        assert!(rp.exchange(&code, PkceCodeVerifier::new("y".repeat(43))).await.is_err());
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'authorization_code_replayed' AND user_id IS NOT NULL").await, 1);
    }
}

sso_test! {
    async fn a_logout_link_without_this_sessions_id_token_asks_before_signing_out(app) {
        let rp = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "asked@example.com").await;
        // Another session of the same person: its ID token is not this browser's.
        let other_browser = browser_signed_in_again(&app, "asked@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&other_browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let foreign_hint = rp.exchange(&code, verifier).await.unwrap().id_token().unwrap().to_string();
        for link in [
            format!("{}/oauth2/logout", app.address),
            format!("{}/oauth2/logout?client_id={}&post_logout_redirect_uri={}", app.address, rp.client_id, urlencode("https://hire.example/")),
            format!("{}/oauth2/logout?id_token_hint={foreign_hint}", app.address),
        ] {
            let response = browser.get(&link).send().await.unwrap();
            assert_eq!(response.status(), StatusCode::OK, "{link}");
            let page = response.text().await.unwrap();
            assert!(page.contains("Sign out of Talent Suite?") && page.contains("name=\"confirm\" value=\"yes\""), "{page}");
            assert_eq!(browser.get(app.url("/api/auth/verify")).send().await.unwrap().status(), StatusCode::OK, "still signed in");
        }
        // The page's answer counts only from the provider's own page.
        let answer = [("confirm", "yes"), ("client_id", rp.client_id.as_str()), ("post_logout_redirect_uri", "https://hire.example/")];
        let forged = browser.post(app.url("/oauth2/logout")).header("origin", "https://evil.example").form(&answer).send().await.unwrap();
        assert_eq!(forged.status(), StatusCode::FORBIDDEN);
        assert_eq!(browser.get(app.url("/api/auth/verify")).send().await.unwrap().status(), StatusCode::OK);
        let confirmed = browser.post(app.url("/oauth2/logout")).header("origin", &app.address).form(&answer).send().await.unwrap();
        assert_eq!(confirmed.status(), StatusCode::SEE_OTHER);
        assert_eq!(confirmed.headers()["location"], "https://hire.example/");
        assert_eq!(browser.get(app.url("/api/auth/verify")).send().await.unwrap().status(), StatusCode::UNAUTHORIZED);
        assert_eq!(other_browser.get(app.url("/api/auth/verify")).send().await.unwrap().status(), StatusCode::OK, "the other session stays");
    }
}

async fn browser_signed_in_again(app: &TestApp, email: &str) -> reqwest::Client {
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

sso_test! {
    async fn a_forged_sign_in_mark_does_not_satisfy_max_age_and_prompt_consent_asks(app) {
        let rp = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "marked@example.com").await;
        let (url, _, _, _) = rp.authorize_url();
        for forged in ["0", "0.abc", "99999999999999", "1.0000000000000000000000000000000000000000000000000000000000000000"] {
            let location = visit(&browser, &format!("{url}&max_age=0&ts_after={forged}")).await.1.unwrap();
            assert_eq!(location.path(), "/login", "ts_after={forged}");
        }
        // The mark the provider made for another client does not count for this one either.
        let location = visit(&browser, &format!("{url}&max_age=0")).await.1.unwrap();
        let back = param(&location, "redirect").unwrap();
        let mark = param(&Url::parse(&back).unwrap(), "ts_after").unwrap();
        let other = Rp::register(&app, NewClient { name: "Campus".to_owned(), redirect_uris: vec![REDIRECT.to_owned()], first_party: true, ..NewClient::default() }).await;
        let (other_url, _, _, _) = other.authorize_url();
        browser.post(app.url("/api/auth/login")).json(&json!({ "email": "marked@example.com", "password": PASSWORD })).send().await.unwrap();
        let location = visit(&browser, &format!("{other_url}&max_age=0&ts_after={}", urlencode(&mark))).await.1.unwrap();
        assert_eq!(location.path(), "/login");
        // Nor one carried over to another request of the same client (its own PKCE challenge)...
        let (another_url, _, _, _) = rp.authorize_url();
        let location = visit(&browser, &format!("{another_url}&max_age=0&ts_after={}", urlencode(&mark))).await.1.unwrap();
        assert_eq!(location.path(), "/login", "a mark is for the request it was made for");
        // ...while on its own request, after the sign-in it asked for, it is met.
        let location = visit(&browser, &back).await.1.unwrap();
        assert!(param(&location, "code").is_some(), "{location}");

        // A max_age past any account's age asks for nothing: no overflow, no 500.
        let location = visit(&browser, &format!("{url}&max_age=99999999999999999")).await.1.unwrap();
        assert!(param(&location, "code").is_some(), "{location}");

        // prompt=login consent: after signing in again, the consent is still asked for.
        let location = visit(&browser, &format!("{url}&prompt=login%20consent")).await.1.unwrap();
        assert_eq!(location.path(), "/login");
        let back = param(&location, "redirect").unwrap();
        assert_eq!(param(&Url::parse(&back).unwrap(), "prompt").as_deref(), Some("consent"), "{back}");
        browser.post(app.url("/api/auth/login")).json(&json!({ "email": "marked@example.com", "password": PASSWORD })).send().await.unwrap();
        let response = browser.get(&back).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert!(response.text().await.unwrap().contains("Allow"));

        // prompt=consent: a first-party client too gets the consent screen.
        let response = browser.get(format!("{url}&prompt=consent")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert!(response.text().await.unwrap().contains("Allow"));
    }
}

sso_test! {
    async fn token_and_revocation_answer_cors_only_for_registered_origins_without_credentials(app) {
        Rp::platform(&app).await;
        for path in ["/oauth2/token", "/oauth2/revoke"] {
            let preflight = |origin: &'static str| {
                app.client.request(reqwest::Method::OPTIONS, app.url(path))
                    .header("origin", origin)
                    .header("access-control-request-method", "POST")
                    .header("access-control-request-headers", "content-type")
                    .send()
            };
            let allowed = preflight("https://hire.example").await.unwrap();
            assert_eq!(allowed.headers().get("access-control-allow-origin").map(|v| v.to_str().unwrap()), Some("https://hire.example"), "{path}");
            assert!(allowed.headers().get("access-control-allow-credentials").is_none(), "{path}");
            let refused = preflight("https://evil.example").await.unwrap();
            assert!(refused.headers().get("access-control-allow-origin").is_none(), "{path}");
        }
        let discovery = app.client.get(app.url("/.well-known/openid-configuration")).header("origin", "https://anyone.example").send().await.unwrap();
        assert_eq!(discovery.headers()["access-control-allow-origin"], "*");
    }
}

/// A new deployment: no signing keys until the first need of one.
fn without_keys(builder: Builder) -> Builder {
    builder.own_origin().without_signing_keys()
}

db_test! {
    async fn the_signing_keys_are_sealed_at_rest_and_a_new_key_encryption_key_takes_over(app: TestApp) using without_keys; {
        use sea_orm::{EntityTrait, PaginatorTrait};
        assert_eq!(entity::signing_keys::Entity::find().count(&app.db).await.unwrap(), 0);
        // Made on first use: the key set asks for both current keys.
        json_of(app.get("/oauth2/jwks").await, StatusCode::OK).await;
        let rows = entity::signing_keys::Entity::find().all(&app.db).await.unwrap();
        assert_eq!(rows.len(), 2);
        for row in &rows {
            assert!(row.private_pem.starts_with("sealed:v1:") && !row.private_pem.contains("PRIVATE KEY"), "{}", row.kid);
        }
        // An instance with another key cannot open them, and says so (it would sign nothing).
        let wrong = "11".repeat(32);
        let refused = std::panic::AssertUnwindSafe(app.another_instance_builder().env("KEY_ENCRYPTION_KEY", &wrong).start());
        assert!(futures::FutureExt::catch_unwind(refused).await.is_err(), "an instance with the wrong key must not start");
        // Rotation: the new key with the old one as previous reseals every key; the keys stay.
        let rotated = app.another_instance_builder()
            .env("KEY_ENCRYPTION_KEY", &wrong)
            .env("KEY_ENCRYPTION_KEY_PREVIOUS", crate::helpers::TEST_KEY_ENCRYPTION_KEY)
            .start().await;
        let after = entity::signing_keys::Entity::find().all(&app.db).await.unwrap();
        for (old, new) in rows.iter().zip(&after) {
            assert_eq!(old.kid, new.kid);
            assert_ne!(old.private_pem, new.private_pem, "sealed again with the new key");
        }
        let jwks = json_of(rotated.get("/oauth2/jwks").await, StatusCode::OK).await;
        assert_eq!(jwks["keys"].as_array().unwrap().len(), 2);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outside_local_back_channel_logout_goes_only_to_public_addresses() {
    let app = TestApp::builder(Backend::Sqlite)
        .env("APP_ENV", "staging")
        .start()
        .await;
    let with_backchannel = |uri: &str| NewClient {
        name: "Partner".to_owned(),
        redirect_uris: vec![REDIRECT.to_owned()],
        backchannel_logout_uri: Some(uri.to_owned()),
        ..NewClient::default()
    };
    for uri in [
        "https://127.0.0.1/bc",
        "https://localhost/bc",
        "https://10.1.2.3/bc",
        "https://192.168.1.1/bc",
        "https://169.254.169.254/latest/meta-data",
        "https://100.64.0.1/bc",
        "https://[::1]/bc",
        "https://[fd00::1]/bc",
        "https://[fe80::1]/bc",
        "https://[::ffff:127.0.0.1]/bc",
    ] {
        let err = clients::create(&app.db, with_backchannel(uri), false)
            .await
            .unwrap_err();
        assert!(err.to_string().contains("public address"), "{uri}: {err}");
    }
    clients::create(&app.db, with_backchannel("https://platform.example/bc"), false)
        .await
        .expect("a public name");
    // The admins' GraphQL call applies the same rule outside local.
    let token = app.signed_up("root@example.com").await;
    app.sql("UPDATE users SET role = 'admin'").await;
    let create =
        "mutation($input: CreateOAuthClientInput!) { createOAuthClient(input: $input) { clientSecret } }";
    let body = app.graphql(Some(&token), create, json!({ "input": { "name": "Inside", "redirectUris": [REDIRECT], "backchannelLogoutUri": "https://10.0.0.7/bc" } })).await;
    assert!(
        body["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("public address"),
        "{body}"
    );

    // A name that resolves to this machine at send time (registered before it did): refused
    // then too, and nothing reaches the address.
    let (port, received) = backchannel_receiver(0).await;
    let (inside, _) = clients::create(
        &app.db,
        with_backchannel(&format!("http://localhost:{port}/backchannel")),
        true,
    )
    .await
    .unwrap();
    use sea_orm::{ActiveModelTrait, Set};
    let now = chrono::Utc::now();
    entity::backchannel_logouts::ActiveModel {
        id: Set(uuid::Uuid::new_v4()),
        client_id: Set(inside.client_id.clone()),
        user_id: Set(uuid::Uuid::new_v4()),
        session_id: Set(uuid::Uuid::new_v4()),
        attempts: Set(0),
        next_attempt_at: Set(now),
        locked_until: Set(None),
        last_error: Set(None),
        created_at: Set(now),
    }
    .insert(&app.db)
    .await
    .unwrap();
    // Up to 30 s: the first delivery signs with an RSA key made on first use, which takes
    // seconds on a slow host under load. The limit is for an attempt that never comes.
    let mut refused = 0;
    for _ in 0..300 {
        refused = app
            .count(
                "SELECT COUNT(*) FROM backchannel_logouts WHERE attempts > 0 AND last_error LIKE 'refused:%'",
            )
            .await;
        if refused > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(refused, 1, "the delivery was attempted and refused");
    assert!(
        received.lock().unwrap().is_empty(),
        "nothing was sent to a loopback address"
    );
}

sso_test! {
    async fn another_clients_token_is_not_revoked_and_the_caller_is_told(app) {
        let rp = Rp::platform(&app).await;
        let other = Rp::register(&app, NewClient { name: "Campus".to_owned(), redirect_uris: vec![REDIRECT.to_owned()], first_party: true, ..NewClient::default() }).await;
        let browser = signed_in_browser(&app, "mine@example.com").await;
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let tokens = rp.exchange(&code, verifier).await.unwrap();
        for token in [tokens.access_token().secret(), tokens.refresh_token().unwrap().secret()] {
            let response = app.client.post(app.url("/oauth2/revoke")).basic_auth(&other.client_id, other.secret.as_deref())
                .form(&[("token", token.as_str())]).send().await.unwrap();
            let body = json_of(response, StatusCode::BAD_REQUEST).await;
            assert_eq!(body["error"], "unauthorized_client");
        }
        json_of(userinfo(&app, tokens.access_token().secret()).await, StatusCode::OK).await;
        rp.client().exchange_refresh_token(tokens.refresh_token().unwrap()).unwrap().request_async(&rp_http()).await.expect("the grant is untouched");
    }
}

sso_test! {
    async fn a_rotated_secret_replaces_the_old_one_at_once(app) {
        let token = app.signed_up("keeper@example.com").await;
        app.sql("UPDATE users SET role = 'admin'").await;
        let rp = Rp::register(&app, NewClient { name: "Partner".to_owned(), redirect_uris: vec![REDIRECT.to_owned()], ..NewClient::default() }).await;
        let old = rp.secret.clone().unwrap();
        let probe = |secret: String| {
            app.client.post(app.url("/oauth2/token")).basic_auth(&rp.client_id, Some(secret))
                .form(&[("grant_type", "refresh_token"), ("refresh_token", "none")]).send()
        };
        // The old secret authenticates (the grant is what is wrong), then it does not.
        assert_eq!(json_of(probe(old.clone()).await.unwrap(), StatusCode::BAD_REQUEST).await["error"], "invalid_grant");
        let rotate = app.graphql(Some(&token), "mutation($id: ID!) { rotateOAuthClientSecret(clientId: $id) { clientSecret } }", json!({ "id": rp.client_id })).await;
        let new = rotate["data"]["rotateOAuthClientSecret"]["clientSecret"].as_str().unwrap_or_else(|| panic!("{rotate}")).to_owned();
        assert_eq!(json_of(probe(old).await.unwrap(), StatusCode::UNAUTHORIZED).await["error"], "invalid_client");
        assert_eq!(json_of(probe(new).await.unwrap(), StatusCode::BAD_REQUEST).await["error"], "invalid_grant");
    }
}

sso_test! {
    async fn a_denied_consent_and_prompt_none_without_consent_go_back_with_their_errors(app) {
        let partner = Rp::register(&app, NewClient { name: "Acme Jobs".to_owned(), redirect_uris: vec![REDIRECT.to_owned()], ..NewClient::default() }).await;
        let browser = signed_in_browser(&app, "picky@example.com").await;
        let (url, state, _, _) = partner.authorize_url();
        let location = visit(&browser, &format!("{url}&prompt=none")).await.1.unwrap();
        assert_eq!(param(&location, "error").as_deref(), Some("consent_required"));
        assert_eq!(param(&location, "state").as_deref(), Some(state.secret().as_str()));
        let form: Vec<(String, String)> = url.query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).chain([("decision".to_owned(), "deny".to_owned())]).collect();
        let denied = browser.post(app.url("/oauth2/authorize/consent")).header("origin", &app.address).form(&form).send().await.unwrap();
        let location = Url::parse(denied.headers()["location"].to_str().unwrap()).unwrap();
        assert!(location.as_str().starts_with(REDIRECT), "{location}");
        assert_eq!(param(&location, "error").as_deref(), Some("access_denied"));
        assert!(param(&location, "code").is_none());
        assert_eq!(app.count("SELECT COUNT(*) FROM oauth_consents").await, 0);
    }
}

sso_test! {
    async fn a_logout_hint_that_is_not_ours_is_refused_and_signs_nobody_out(app) {
        let browser = signed_in_browser(&app, "hinted@example.com").await;
        // A well-formed token signed with a key that is not the provider's.
        let forged = {
            let key = jsonwebtoken::EncodingKey::from_secret(b"not-our-key");
            let claims = json!({ "iss": app.address, "aud": "anyone", "sub": "x", "iat": 1, "exp": 2 });
            jsonwebtoken::encode(&jsonwebtoken::Header::default(), &claims, &key).unwrap()
        };
        for hint in [forged.as_str(), "garbage", "a.b.c"] {
            let response = browser.get(format!("{}/oauth2/logout?id_token_hint={}", app.address, urlencode(hint))).send().await.unwrap();
            assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{hint}");
            assert!(response.text().await.unwrap().contains("not ours"));
        }
        assert_eq!(browser.get(app.url("/api/auth/verify")).send().await.unwrap().status(), StatusCode::OK);
    }
}

sso_test! {
    async fn the_organizations_scope_tells_a_platform_where_a_person_belongs_and_as_what(app) {
        let doc = json_of(app.get("/.well-known/openid-configuration").await, StatusCode::OK).await;
        assert!(doc["scopes_supported"].as_array().unwrap().contains(&json!("organizations")));
        assert!(doc["claims_supported"].as_array().unwrap().contains(&json!("organizations")));

        let rp = Rp::platform(&app).await;
        let browser = signed_in_browser(&app, "recruiter@acme.example").await;
        app.sql("UPDATE users SET role = 'hire' WHERE email = 'recruiter@acme.example'").await;
        let login = json_of(app.login("recruiter@acme.example", PASSWORD).await, StatusCode::OK).await;
        let token = login["data"]["token"].as_str().unwrap();
        let created = json_of(app.post_as(token, "/api/orgs", json!({ "name": "Acme Hiring" })).await, StatusCode::CREATED).await;
        let org_id = created["data"]["organization"]["id"].clone();

        // Without the scope: no claim.
        let (url, _, _, verifier) = rp.authorize_url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let plain = rp.exchange(&code, verifier).await.expect("tokens");
        assert_eq!(payload(&plain.id_token().unwrap().to_string()).get("organizations"), None);

        // With it: in the ID token and in userinfo.
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, _, nonce) = rp
            .client()
            .authorize_url(CoreAuthenticationFlow::AuthorizationCode, CsrfToken::new_random, Nonce::new_random)
            .add_scope(Scope::new("organizations".to_owned()))
            .set_pkce_challenge(challenge)
            .url();
        let code = param(&visit(&browser, url.as_str()).await.1.unwrap(), "code").unwrap();
        let tokens = rp.exchange(&code, verifier).await.expect("tokens");
        let id_token = tokens.id_token().unwrap();
        id_token.claims(&rp.client().id_token_verifier(), &nonce).expect("a valid ID token");
        let expected = json!([{ "id": org_id, "name": "Acme Hiring", "kind": "hire", "role": "owner" }]);
        assert_eq!(payload(&id_token.to_string())["organizations"], expected);
        let info = json_of(userinfo(&app, tokens.access_token().secret()).await, StatusCode::OK).await;
        assert_eq!(info["organizations"], expected);
    }
}
