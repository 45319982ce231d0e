//! Google sign-in and registration, against the stand-in identity provider.

use std::sync::atomic::Ordering;

use reqwest::{StatusCode, redirect::Policy};
use serde_json::json;

use crate::{
    helpers::{Backend, PASSWORD, TestApp, json_of},
    idp::{Identity, Idp},
};

async fn spawn_with_google(backend: Backend) -> (TestApp, Idp) {
    let idp = Idp::start().await;
    let mut builder = TestApp::builder(backend);
    for (name, value) in idp.env() {
        builder = builder.env(name, &value);
    }
    (builder.start().await, idp)
}

macro_rules! google_test {
    (async fn $name:ident($app:ident, $idp:ident) $body:block) => {
        mod $name {
            use super::*;

            async fn run($app: TestApp, $idp: Idp) $body

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_sqlite() {
                let (app, idp) = spawn_with_google(Backend::Sqlite).await;
                run(app, idp).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_postgres() {
                if TestApp::postgres_configured() {
                    let (app, idp) = spawn_with_google(Backend::Postgres).await;
                    run(app, idp).await;
                }
            }
        }
    };
}

google_test! {
    async fn google_registration_creates_an_active_account_and_later_signs_in(app, idp) {
        let token = idp.id_token("sub-42", "Grace@Gmail.test", |_| {});
        let body = json_of(app.post("/api/auth/google-register", json!({ "idToken": token, "role": "campus" })).await, StatusCode::CREATED).await;
        assert_eq!(body["message"], "Registered successfully");
        let user = &body["data"]["user"];
        assert_eq!(user["email"], "grace@gmail.test");
        assert_eq!(user["status"], "active");
        assert_eq!(user["emailVerified"], true);
        assert_eq!(user["role"], "campus");
        assert_eq!(user["name"], "Grace Hopper");
        let session = body["data"]["token"].as_str().unwrap();
        json_of(app.get_as(session, "/api/auth/verify").await, StatusCode::OK).await;
        assert!(body["data"].get("created").is_none());

        let token = idp.id_token("sub-42", "Grace@Gmail.test", |_| {});
        let again = json_of(app.post("/api/auth/google-register", json!({ "idToken": token, "role": "hire" })).await, StatusCode::OK).await;
        assert_eq!(again["message"], "Logged in successfully");
        assert_eq!(again["data"]["user"]["role"], "campus", "an existing account keeps its role");

        let token = idp.id_token("sub-42", "Grace@Gmail.test", |_| {});
        let login = app.post("/api/auth/google-login", json!({ "idToken": token })).await;
        assert!(login.headers()["set-cookie"].to_str().unwrap().starts_with("ts_session="));
        let login = json_of(login, StatusCode::OK).await;
        assert_eq!(login["message"], "Logged in successfully");
        assert_eq!(login["data"]["user"]["id"], user["id"]);
    }
}

google_test! {
    async fn google_login_without_an_account_asks_to_register(app, idp) {
        let token = idp.id_token("sub-new", "new@gmail.test", |_| {});
        let body = json_of(app.post("/api/auth/google-login", json!({ "idToken": token })).await, StatusCode::NOT_FOUND).await;
        assert_eq!(body["message"], "No account found for this Google email. Please register first.");
    }
}

google_test! {
    async fn a_verified_password_account_with_the_same_email_is_linked_and_keeps_its_password(app, idp) {
        let session = app.signed_up("linked@gmail.test").await;
        let token = idp.id_token("sub-linked", "linked@gmail.test", |_| {});
        let body = json_of(app.post("/api/auth/google-login", json!({ "idToken": token })).await, StatusCode::OK).await;
        assert_eq!(body["data"]["user"]["status"], "active");
        json_of(app.login("linked@gmail.test", PASSWORD).await, StatusCode::OK).await;
        json_of(app.get_as(&session, "/api/auth/verify").await, StatusCode::OK).await;
        let notice = &app.mail.wait_for("linked@gmail.test", 2).await[1];
        assert!(notice.text().contains("Google sign-in was just linked"), "{}", notice.text());
        assert!(notice.text().contains("unchanged"));
    }
}

google_test! {
    async fn google_takes_an_unverified_squatted_account_back_from_whoever_registered_it(app, idp) {
        // The attacker registers the victim's email with a password of their own, asks for a
        // reset link (which goes to the victim) and waits.
        json_of(app.register("victim@gmail.test").await, StatusCode::CREATED).await;
        json_of(app.post("/api/auth/forgot-password", json!({ "email": "victim@gmail.test" })).await, StatusCode::OK).await;
        let link = crate::helpers::reset_token_in(&app.mail.wait_for("victim@gmail.test", 1).await[0]);
        json_of(app.send_code("victim@gmail.test").await, StatusCode::OK).await;

        let token = idp.id_token("sub-victim", "victim@gmail.test", |_| {});
        let body = json_of(app.post("/api/auth/google-register", json!({ "idToken": token, "role": "career" })).await, StatusCode::OK).await;
        assert_eq!(body["data"]["user"]["emailVerified"], true);

        let body = json_of(app.login("victim@gmail.test", PASSWORD).await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(body["message"], "Invalid email or password", "the squatter's password is gone");
        let body = json_of(app.post(&format!("/api/auth/reset-password/{link}"), json!({ "password": "takeover42" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["message"], "Reset link is invalid");
        assert_eq!(app.count("SELECT COUNT(*) FROM email_codes").await, 0);
        let notice = app.mail.wait_for("victim@gmail.test", 3).await.into_iter().last().unwrap();
        assert!(notice.text().contains("password it was registered with was removed"), "{}", notice.text());
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'google_linked'").await, 1);
    }
}

google_test! {
    async fn an_id_token_signs_in_only_once(app, idp) {
        let token = idp.id_token("sub-once", "once@gmail.test", |_| {});
        json_of(app.post("/api/auth/google-register", json!({ "idToken": token, "role": "career" })).await, StatusCode::CREATED).await;
        for path in ["/api/auth/google-login", "/api/auth/google-register"] {
            let body = json_of(app.post(path, json!({ "idToken": token, "role": "career" })).await, StatusCode::UNAUTHORIZED).await;
            assert_eq!(body["message"], "Invalid Google token", "{path}");
        }
        let fresh = idp.id_token("sub-once", "once@gmail.test", |_| {});
        json_of(app.post("/api/auth/google-login", json!({ "idToken": fresh })).await, StatusCode::OK).await;
    }
}

google_test! {
    async fn tokens_that_are_not_exactly_right_are_refused(app, idp) {
        let bad = [
            idp.id_token("s", "a@gmail.test", |c| c["aud"] = json!("someone-else")),
            idp.id_token("s", "a@gmail.test", |c| c["iss"] = json!("https://evil.example")),
            idp.id_token("s", "a@gmail.test", |c| c["exp"] = json!(chrono::Utc::now().timestamp() - 3600)),
            idp.id_token("s", "a@gmail.test", |c| c["email_verified"] = json!(false)),
            idp.id_token_with_kid("unknown-kid", "s", "a@gmail.test", |_| {}),
            "not-a-jwt".to_owned(),
            String::new(),
        ];
        for token in bad {
            for path in ["/api/auth/google-login", "/api/auth/google-register"] {
                let body = json_of(app.post(path, json!({ "idToken": token, "role": "career" })).await, StatusCode::UNAUTHORIZED).await;
                assert_eq!(body["message"], "Invalid Google token", "{path} {token}");
            }
        }
        let good = idp.id_token("s", "a@gmail.test", |_| {});
        let body = json_of(app.post("/api/auth/google-register", json!({ "idToken": good, "role": "admin" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["role"], "Role must be career, campus or hire");
    }
}

google_test! {
    async fn keys_are_fetched_lazily_and_again_for_an_unknown_kid_at_most_every_five_seconds(app, idp) {
        assert_eq!(idp.jwks_fetches.load(Ordering::SeqCst), 0, "never at start-up");
        // No later than the first fetch.
        let fetched = std::time::Instant::now();
        let token = idp.id_token("sub-k", "k@gmail.test", |_| {});
        app.post("/api/auth/google-register", json!({ "idToken": token, "role": "career" })).await;
        let token = idp.id_token("sub-k", "k@gmail.test", |_| {});
        app.post("/api/auth/google-login", json!({ "idToken": token })).await;
        assert_eq!(idp.jwks_fetches.load(Ordering::SeqCst), 1, "cached");
        // Google rotates: the new key is published, and tokens signed with it arrive.
        idp.rotate_to("rotated");
        let login = || async {
            let rotated = idp.id_token_with_kid("rotated", "sub-k", "k@gmail.test", |_| {});
            app.post("/api/auth/google-login", json!({ "idToken": rotated })).await.status()
        };
        for _ in 0..2 {
            assert_eq!(login().await, StatusCode::UNAUTHORIZED, "not known yet");
        }
        assert_eq!(idp.jwks_fetches.load(Ordering::SeqCst), 1, "not again within five seconds of the last fetch");
        // Tried again as a client would, the unknown key is fetched once five seconds have
        // passed, and then it signs in.
        let deadline = fetched + std::time::Duration::from_secs(20);
        while login().await != StatusCode::OK {
            assert!(std::time::Instant::now() < deadline, "the new key was never fetched");
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        }
        assert!(fetched.elapsed() >= std::time::Duration::from_secs(5), "{:?}", fetched.elapsed());
        assert_eq!(idp.jwks_fetches.load(Ordering::SeqCst), 2, "one fetch for the new key");
    }
}

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(Policy::none())
        .build()
        .unwrap()
}

/// Start → provider → callback, as the popup does; returns the callback page.
async fn popup(app: &TestApp, start_query: &str, tamper_state: bool) -> String {
    let client = no_redirects();
    let start = client
        .get(app.url(&format!("/api/auth/google/start?{start_query}")))
        .send()
        .await
        .unwrap();
    assert!(start.status().is_redirection(), "{}", start.status());
    let cookie = start.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    let authorize = url::Url::parse(start.headers()["location"].to_str().unwrap()).unwrap();
    let params: std::collections::HashMap<_, _> = authorize.query_pairs().into_owned().collect();
    assert_eq!(params["response_type"], "code");
    assert_eq!(params["code_challenge_method"], "S256");
    assert!(params["scope"].contains("openid") && params["scope"].contains("email"));
    assert!(!params["nonce"].is_empty() && !params["state"].is_empty());
    assert_eq!(
        params["redirect_uri"],
        "http://main.test/api/auth/google/callback"
    );

    let back = client.get(authorize.as_str()).send().await.unwrap();
    let mut callback = url::Url::parse(back.headers()["location"].to_str().unwrap()).unwrap();
    // The browser would be on the main site; the test talks to the server directly.
    callback.set_host(Some("127.0.0.1")).unwrap();
    callback
        .set_port(Some(
            app.url("")
                .rsplit(':')
                .next()
                .unwrap()
                .trim_end_matches('/')
                .parse()
                .unwrap(),
        ))
        .unwrap();
    if tamper_state {
        let code = callback
            .query_pairs()
            .find(|(k, _)| k == "code")
            .unwrap()
            .1
            .into_owned();
        callback.set_query(Some(&format!("code={code}&state=forged")));
    }
    let page = client
        .get(callback.as_str())
        .header("cookie", cookie.split(';').next().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(
        page.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("nonce-")
    );
    page.text().await.unwrap()
}

fn id_token_in(page: &str) -> String {
    let start = page.find("\"idToken\":\"").expect("an ID token in the page") + "\"idToken\":\"".len();
    page[start..].split('"').next().unwrap().to_owned()
}

google_test! {
    async fn the_popup_flow_hands_a_verified_token_to_the_main_site_only(app, idp) {
        idp.sign_in_as(Identity { sub: "popup-sub".into(), email: "popup@gmail.test".into(), name: "Pop Up".into() });
        let page = popup(&app, "intent=register&role=hire", false).await;
        assert!(page.contains("\"type\":\"google-id-token\""), "{page}");
        assert!(page.contains("postMessage(m,\"http://main.test\")"), "{page}");
        assert!(!page.contains("'*'") && !page.contains("\"*\""));
        let token = id_token_in(&page);
        let body = json_of(app.post("/api/auth/google-register", json!({ "idToken": token, "role": "hire" })).await, StatusCode::CREATED).await;
        assert_eq!(body["data"]["user"]["email"], "popup@gmail.test");
        assert_eq!(body["data"]["user"]["role"], "hire");
    }
}

google_test! {
    async fn a_forged_state_or_a_wrong_nonce_gives_an_error_and_no_token(app, idp) {
        let page = popup(&app, "intent=login", true).await;
        assert!(page.contains("\"type\":\"google-error\"") && page.contains("state-mismatch"), "{page}");
        assert!(!page.contains("idToken"));

        idp.lie_about_nonce("replayed-nonce");
        let page = popup(&app, "intent=login", false).await;
        assert!(page.contains("\"type\":\"google-error\"") && page.contains("invalid-token"), "{page}");
        assert!(!page.contains("idToken"));

        let body = json_of(app.get("/api/auth/google/start?intent=register&role=admin").await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["role"], "Role must be career, campus or hire");
    }
}

#[tokio::test]
async fn without_google_settings_google_sign_in_is_unavailable_not_broken() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    // A token shaped like Google's cannot be checked: the feature is unavailable.
    let idp = Idp::start().await;
    let token = idp.id_token("sub", "a@gmail.test", |_| {});
    let body = json_of(
        app.post("/api/auth/google-login", json!({ "idToken": token }))
            .await,
        StatusCode::SERVICE_UNAVAILABLE,
    )
    .await;
    assert_eq!(body["code"], "UNAVAILABLE");
    // Something that is not even a JWT is refused as such.
    let body = json_of(
        app.post("/api/auth/google-login", json!({ "idToken": "x.y.z" }))
            .await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_eq!(body["message"], "Invalid Google token");
    // Its popup has nowhere to go, as with any provider not configured here.
    let body = json_of(
        app.get("/api/auth/google/start?intent=login").await,
        StatusCode::NOT_FOUND,
    )
    .await;
    assert_eq!(body["message"], "Sign-in provider not found");
}

google_test! {
    async fn google_sign_in_asks_for_the_code_when_two_factor_is_on(app, idp) {
        use crate::two_factor::app_code;
        let token = idp.id_token("sub-2fa", "guarded@gmail.test", |_| {});
        let body = json_of(app.post("/api/auth/google-register", json!({ "idToken": token, "role": "hire" })).await, StatusCode::CREATED).await;
        let session = body["data"]["token"].as_str().unwrap().to_owned();
        let body = json_of(app.post_as(&session, "/api/users/two-factor/setup", json!({})).await, StatusCode::OK).await;
        let secret = body["data"]["setup"]["secret"].as_str().unwrap().to_owned();
        json_of(app.post_as(&session, "/api/users/two-factor/confirm", json!({ "code": app_code(&secret, 0) })).await, StatusCode::OK).await;

        for (path, body) in [
            ("/api/auth/google-login", json!({ "idToken": idp.id_token("sub-2fa", "guarded@gmail.test", |_| {}) })),
            ("/api/auth/google-register", json!({ "idToken": idp.id_token("sub-2fa", "guarded@gmail.test", |_| {}), "role": "hire" })),
        ] {
            let response = app.post(path, body).await;
            assert!(response.headers().get("set-cookie").is_none(), "{path} set a session cookie");
            let body = json_of(response, StatusCode::OK).await;
            assert_eq!(body["data"]["twoFactorRequired"], true, "{path}: {body}");
            assert!(body["data"]["token"].is_null(), "{path}: {body}");
        }
        let body = json_of(app.post("/api/auth/google-login", json!({ "idToken": idp.id_token("sub-2fa", "guarded@gmail.test", |_| {}) })).await, StatusCode::OK).await;
        let challenge = body["data"]["challenge"].as_str().unwrap();
        let body = json_of(app.post("/api/auth/login/two-factor", json!({ "challenge": challenge, "code": app_code(&secret, 1) })).await, StatusCode::OK).await;
        assert_eq!(body["data"]["user"]["email"], "guarded@gmail.test");
        // A Google account has no password: the code alone turns two-factor off.
        let body = json!({ "code": app_code(&secret, -1) });
        let status = app.post_as(&session, "/api/users/two-factor/disable", body).await.status();
        assert_eq!(status, StatusCode::BAD_REQUEST, "a code older than the last one used is refused");
    }
}

google_test! {
    async fn google_links_made_before_the_identities_table_keep_signing_in(app, idp) {
        use migration::{Migrator, MigratorTrait};
        app.signed_up("legacy@example.com").await;
        // The database as the previous release left it: the link in users.google_sub.
        // (Down past every migration after the identities', then that one.)
        let migrations = Migrator::migrations();
        let identities = migrations.iter().position(|m| m.name().ends_with("_identities")).unwrap();
        let steps = u32::try_from(migrations.len() - identities).unwrap();
        Migrator::down(&app.db, Some(steps)).await.expect("down to the previous release");
        app.sql("UPDATE users SET google_sub = 'legacy-sub' WHERE email = 'legacy@example.com'").await;
        Migrator::up(&app.db, None).await.expect("up again");
        assert_eq!(app.count("SELECT COUNT(*) FROM identities WHERE provider = 'google' AND subject = 'legacy-sub'").await, 1);
        // Found by its subject alone: the token's email is another one.
        let token = idp.id_token("legacy-sub", "renamed@gmail.test", |_| {});
        let body = json_of(app.post("/api/auth/google-login", json!({ "idToken": token })).await, StatusCode::OK).await;
        assert_eq!(body["data"]["user"]["email"], "legacy@example.com");
    }
}
