//! `POST /auth/login`, `POST /auth/logout`, `GET /auth/verify`.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{PASSWORD, json_of};

db_test! {
    async fn login_returns_the_user_a_token_and_a_session_cookie(app: TestApp) {
        app.signed_up("g@example.com").await;
        let response = app.login("G@Example.com", PASSWORD).await;
        let cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
        let body = json_of(response, StatusCode::OK).await;
        assert_eq!(body["message"], "Logged in successfully");
        assert_eq!(body["data"]["user"]["email"], "g@example.com");
        assert_eq!(body["data"]["token"].as_str().unwrap().split('.').count(), 3);
    }
}

db_test! {
    async fn unknown_email_and_wrong_password_look_the_same(app: TestApp) {
        app.signed_up("h@example.com").await;
        let wrong = json_of(app.login("h@example.com", "not-my-password").await, StatusCode::UNAUTHORIZED).await;
        let unknown = json_of(app.login("nobody@example.com", PASSWORD).await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(wrong, unknown);
        assert_eq!(wrong["message"], "Invalid email or password");
    }
}

db_test! {
    async fn an_unverified_account_is_told_to_verify_only_with_the_right_password(app: TestApp) {
        app.register("i@example.com").await;
        let body = json_of(app.login("i@example.com", PASSWORD).await, StatusCode::FORBIDDEN).await;
        assert_eq!(body["code"], "EMAIL_NOT_VERIFIED");
        assert_eq!(body["message"], "Please verify your email before signing in");
        let body = json_of(app.login("i@example.com", "wrong-password").await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(body["message"], "Invalid email or password");
    }
}

db_test! {
    async fn login_input_is_validated_with_the_login_texts(app: TestApp) {
        let body = json_of(app.post("/api/auth/login", json!({})).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"], json!({ "email": "Email is required", "password": "Password is required" }));
        assert_eq!(body["message"], "Email is required");
        let body = json_of(app.login("bad-email", "x").await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["email"], "Invalid email format");
    }
}

db_test! {
    async fn five_wrong_passwords_from_one_address_make_it_wait_even_with_the_right_one(app: TestApp) {
        app.signed_up("j@example.com").await;
        for _ in 0..5 {
            json_of(app.login("j@example.com", "wrong-password").await, StatusCode::UNAUTHORIZED).await;
        }
        let response = app.login("j@example.com", PASSWORD).await;
        let wait: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
        assert!((1..=15).contains(&wait), "{wait}");
        let body = json_of(response, StatusCode::TOO_MANY_REQUESTS).await;
        assert_eq!(body["code"], "RATE_LIMITED");
        assert_eq!(body["message"], "Too many failed sign-in attempts. Please try again later.");
        // Once the delay has run out, the right password works and the count starts again.
        app.sql("UPDATE login_throttles SET blocked_until = NULL").await;
        json_of(app.login("j@example.com", PASSWORD).await, StatusCode::OK).await;
        for _ in 0..5 {
            json_of(app.login("j@example.com", "wrong-password").await, StatusCode::UNAUTHORIZED).await;
        }
        json_of(app.login("j@example.com", "wrong-password").await, StatusCode::TOO_MANY_REQUESTS).await;
    }
}

db_test! {
    async fn logout_revokes_the_token_at_once_and_only_that_session(app: TestApp) {
        let first = app.signed_up("k@example.com").await;
        let second = json_of(app.login("k@example.com", PASSWORD).await, StatusCode::OK).await["data"]["token"]
            .as_str()
            .unwrap()
            .to_owned();
        let response = app.post_as(&first, "/api/auth/logout", json!({})).await;
        let cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
        assert!(cookie.contains("Max-Age=0"), "{cookie}");
        let body = json_of(response, StatusCode::OK).await;
        assert_eq!(body["message"], "Logged out successfully");

        let body = json_of(app.get_as(&first, "/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(body["message"], "Session expired or unauthorized");
        json_of(app.get_as(&second, "/api/auth/verify").await, StatusCode::OK).await;
        // Logging out again, or with no session at all, is fine.
        json_of(app.post_as(&first, "/api/auth/logout", json!({})).await, StatusCode::OK).await;
        json_of(app.client.post(app.url("/api/auth/logout")).send().await.unwrap(), StatusCode::OK).await;
    }
}

db_test! {
    async fn a_cookie_session_logs_out_and_the_cookie_is_cleared(app: TestApp) {
        app.signed_up("l@example.com").await;
        let browser = app.browser();
        let response = browser.post(app.url("/api/auth/login")).json(&json!({ "email": "l@example.com", "password": PASSWORD })).send().await.unwrap();
        json_of(response, StatusCode::OK).await;
        json_of(browser.get(app.url("/api/users/profile")).send().await.unwrap(), StatusCode::OK).await;
        json_of(browser.post(app.url("/api/auth/logout")).send().await.unwrap(), StatusCode::OK).await;
        json_of(browser.get(app.url("/api/users/profile")).send().await.unwrap(), StatusCode::UNAUTHORIZED).await;
    }
}

db_test! {
    async fn tampered_missing_and_foreign_tokens_are_refused(app: TestApp) {
        let token = app.signed_up("m@example.com").await;
        let body = json_of(app.get("/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(body["code"], "UNAUTHENTICATED");
        let mut tampered = token.clone();
        tampered.replace_range(tampered.len() - 3.., "AAA");
        json_of(app.get_as(&tampered, "/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
        json_of(app.get_as("not.a.jwt", "/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
        // The very claims of the live session, signed with another secret: only the signature
        // can refuse it (the same claims under the server's own secret pass).
        use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
        let payload = token.split('.').nth(1).unwrap();
        let claims: serde_json::Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
        let (user, session) = (claims["sub"].as_str().unwrap().parse().unwrap(), claims["sid"].as_str().unwrap().parse().unwrap());
        let now = chrono::Utc::now();
        let sign = |secret: &str| {
            api::accounts::tokens::Keys::new(secret)
                .issue(user, session, claims["role"].as_str().unwrap(), now, now + chrono::Duration::hours(1))
                .unwrap()
        };
        json_of(app.get_as(&sign("test-secret-test-secret-test-secret"), "/api/auth/verify").await, StatusCode::OK).await;
        json_of(app.get_as(&sign("another-secret"), "/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
    }
}

db_test! {
    async fn right_passwords_sent_together_are_all_signed_in(app: TestApp) {
        // A throttle takes each attempt before the password is checked; attempts that prove
        // right give it back, and the block the ones in flight had set goes with them.
        app.signed_up("together@example.com").await;
        let answers = futures::future::join_all((0..8).map(|_| app.login("together@example.com", PASSWORD))).await;
        let statuses: Vec<StatusCode> = answers.iter().map(reqwest::Response::status).collect();
        assert!(statuses.iter().all(|status| *status == StatusCode::OK), "{statuses:?}");
        // And after them, a wrong one is counted as usual, then the right one still signs in.
        assert_eq!(app.login("together@example.com", "not-it-at-all").await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.login("together@example.com", PASSWORD).await.status(), StatusCode::OK);
    }
}
