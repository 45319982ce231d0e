//! `POST /auth/forgot-password` and `POST /auth/reset-password/{token}`.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{PASSWORD, json_of, reset_token_in};

const SENT: &str = "If an account exists for this email, a reset link has been sent.";

db_test! {
    async fn forgot_then_mail_then_reset_ends_old_sessions_and_the_new_password_works(app: TestApp) {
        let old_session = app.signed_up("n@example.com").await;
        let body = json_of(app.post("/api/auth/forgot-password", json!({ "email": "n@example.com" })).await, StatusCode::OK).await;
        assert_eq!(body, json!({ "success": true, "message": SENT }));

        let mails = app.mail.wait_for("n@example.com", 2).await;
        let reset_mail = mails.iter().find(|m| m.text().contains("/reset-password/")).expect("a reset mail");
        assert!(reset_mail.text().contains("http://main.test/reset-password/"));
        let token = reset_token_in(reset_mail);
        assert!(token.len() >= 43, "{token}");

        let body = json_of(
            app.post(&format!("/api/auth/reset-password/{token}"), json!({ "password": "newpass123" })).await,
            StatusCode::OK,
        )
        .await;
        assert_eq!(body["message"], "Password reset successfully");

        json_of(app.get_as(&old_session, "/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
        json_of(app.login("n@example.com", PASSWORD).await, StatusCode::UNAUTHORIZED).await;
        json_of(app.login("n@example.com", "newpass123").await, StatusCode::OK).await;

        // The link works once.
        let body = json_of(
            app.post(&format!("/api/auth/reset-password/{token}"), json!({ "password": "another123" })).await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert_eq!(body["message"], "Reset link is invalid");
    }
}

db_test! {
    async fn unknown_emails_get_the_same_answer_and_a_note_without_a_link(app: TestApp) {
        let body = json_of(app.post("/api/auth/forgot-password", json!({ "email": "ghost@example.com" })).await, StatusCode::OK).await;
        assert_eq!(body["message"], SENT);
        let note = &app.mail.wait_for("ghost@example.com", 1).await[0];
        assert!(note.text().contains("there is no Talent Suite account"), "{}", note.text());
        assert!(!note.text().contains("/reset-password/"));
        let body = json_of(app.post("/api/auth/forgot-password", json!({ "email": "" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["email"], "Email is required");
    }
}

db_test! {
    async fn a_sixth_request_for_one_email_in_fifteen_minutes_is_refused(app: TestApp) {
        for _ in 0..5 {
            json_of(app.post("/api/auth/forgot-password", json!({ "email": "p@example.com" })).await, StatusCode::OK).await;
        }
        let response = app.post("/api/auth/forgot-password", json!({ "email": "p@example.com" })).await;
        assert!(response.headers().contains_key("retry-after"));
        json_of(response, StatusCode::TOO_MANY_REQUESTS).await;
        json_of(app.post("/api/auth/forgot-password", json!({ "email": "q@example.com" })).await, StatusCode::OK).await;
    }
}

db_test! {
    async fn aliases_of_one_inbox_share_its_five_links_of_either_kind(app: TestApp) {
        // Each alias has no account, so each was mailed a note: thirty aliases once filled the
        // inbox with thirty notes a quarter of an hour, and as many sign-in link notes.
        let mut answers = Vec::new();
        for n in 0..15 {
            answers.push(app.post("/api/auth/forgot-password", json!({ "email": format!("flood+{n}@example.com") })).await.status());
            answers.push(app.post("/api/auth/magic-link", json!({ "email": format!("F.L.O.O.D+m{n}@gmail.com") })).await.status());
        }
        let sent = |inbox: &[StatusCode]| inbox.iter().filter(|s| **s == StatusCode::OK).count();
        let (plain, gmail): (Vec<_>, Vec<_>) = answers.chunks(2).map(|pair| (pair[0], pair[1])).unzip();
        assert_eq!(sent(&plain), 5, "{plain:?}");
        assert_eq!(sent(&gmail), 5, "{gmail:?}");
        assert!(answers.iter().all(|s| [StatusCode::OK, StatusCode::TOO_MANY_REQUESTS].contains(s)), "{answers:?}");
        app.mail_settled().await;
        let flood = app.mail.all().await.into_iter().filter(|m| m.to.iter().any(|to| to.starts_with("flood+") || to.ends_with("@gmail.com"))).count();
        assert_eq!(flood, 10, "five to each inbox");
        // Another inbox is its own.
        json_of(app.post("/api/auth/forgot-password", json!({ "email": "other+1@example.com" })).await, StatusCode::OK).await;
    }
}

db_test! {
    async fn unknown_expired_and_weak_resets_are_refused_with_their_texts(app: TestApp) {
        let body = json_of(app.post("/api/auth/reset-password/nonsense", json!({ "password": "newpass123" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["message"], "Reset link is invalid");

        app.signed_up("r@example.com").await;
        app.post("/api/auth/forgot-password", json!({ "email": "r@example.com" })).await;
        let mails = app.mail.wait_for("r@example.com", 2).await;
        let token = reset_token_in(mails.iter().find(|m| m.text().contains("/reset-password/")).unwrap());

        let body = json_of(app.post(&format!("/api/auth/reset-password/{token}"), json!({ "password": "abcdef" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["password"], "Must contain at least 6 chars, 1 letter & 1 number");
        let body = json_of(app.post(&format!("/api/auth/reset-password/{token}"), json!({})).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["password"], "Password is required");

        app.sql("UPDATE password_reset_tokens SET expires_at = created_at").await;
        let body = json_of(app.post(&format!("/api/auth/reset-password/{token}"), json!({ "password": "newpass123" })).await, StatusCode::GONE).await;
        assert_eq!(body["message"], "Reset link has expired");
        assert_eq!(body["code"], "TOKEN_EXPIRED");
    }
}

/// A sign-in with the old password that was being checked as a reset committed: it read the
/// account's old password, and without a guard it would write its session (or, with two-factor
/// on, its second step) after the reset had ended them all, and outlive the reset that was
/// meant to lock its holder out. Each is written only while the account still has the
/// password that was proven, and on PostgreSQL that read waits for a reset under way.
/// PostgreSQL only: it is where the test can hold the reset open until the sign-in waits on
/// it; SQLite runs the two writes one after the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sign_in_with_the_old_password_that_meets_a_reset_under_way_is_refused() {
    use sea_orm::{ConnectionTrait, TransactionTrait};

    let Some(app) = crate::helpers::TestApp::spawn_postgres().await else {
        return;
    };
    for (email, two_factor) in [("plain@example.com", false), ("second@example.com", true)] {
        app.signed_up(email).await;
        if two_factor {
            app.sql(&format!(
                "UPDATE users SET two_factor_enabled = true WHERE email = '{email}'"
            ))
            .await;
        }
        // The reset as it is written (the account's row, then its sessions), not yet committed.
        let reset = app.db.begin().await.unwrap();
        reset
            .execute_unprepared(&format!(
                "UPDATE users SET password_hash = 'replaced' WHERE email = '{email}'"
            ))
            .await
            .unwrap();
        reset
            .execute_unprepared(&format!(
                "DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = '{email}')"
            ))
            .await
            .unwrap();
        let mut sign_in = Box::pin(app.login(email, PASSWORD));
        crate::helpers::until_it_waits_on_a_lock(
            &app,
            sign_in.as_mut(),
            &format!("{email}: the sign-in did not wait for the reset"),
        )
        .await;
        reset.commit().await.unwrap();
        let refused = json_of(sign_in.await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(refused["message"], "Invalid email or password", "{email}");
        let mine = format!("user_id = (SELECT id FROM users WHERE email = '{email}')");
        assert_eq!(
            app.count(&format!("SELECT COUNT(*) FROM sessions WHERE {mine}"))
                .await,
            0,
            "{email}: no session"
        );
        assert_eq!(
            app.count(&format!(
                "SELECT COUNT(*) FROM two_factor_challenges WHERE {mine}"
            ))
            .await,
            0,
            "{email}: no second step"
        );
    }
}
