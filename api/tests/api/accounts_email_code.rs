//! `POST /auth/send-otp-email` and `POST /auth/verify-otp-email`.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{code_in, json_of};

db_test! {
    async fn register_then_code_then_verify_signs_the_person_in(app: TestApp) {
        json_of(app.register("asha@example.com").await, StatusCode::CREATED).await;
        let body = json_of(app.send_code("asha@example.com").await, StatusCode::OK).await;
        assert_eq!(body, json!({ "success": true, "message": "OTP sent to your email" }));

        let mails = app.mail.wait_for("asha@example.com", 1).await;
        assert!(mails[0].subject().contains("Talent Suite"), "{}", mails[0].subject());
        let code = code_in(&mails[0]);
        assert_eq!(code.len(), 6);

        let browser = app.browser();
        let response = browser
            .post(app.url("/api/auth/verify-otp-email"))
            .json(&json!({ "email": "asha@example.com", "otp": code }))
            .send()
            .await
            .unwrap();
        let cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
        assert!(cookie.starts_with("ts_session=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "{cookie}");
        let body = json_of(response, StatusCode::OK).await;
        assert_eq!(body["message"], "Email verified successfully!");
        assert_eq!(body["data"]["user"]["status"], "active");
        assert_eq!(body["data"]["user"]["emailVerified"], true);
        let token = body["data"]["token"].as_str().unwrap();

        // Signed in by the bearer token and, separately, by the cookie alone.
        let me = json_of(app.get_as(token, "/api/auth/verify").await, StatusCode::OK).await;
        assert_eq!(me["data"]["user"]["email"], "asha@example.com");
        let me = json_of(browser.get(app.url("/api/auth/verify")).send().await.unwrap(), StatusCode::OK).await;
        assert_eq!(me["data"]["user"]["email"], "asha@example.com");

        // And the password works now.
        json_of(app.login("asha@example.com", crate::helpers::PASSWORD).await, StatusCode::OK).await;
    }
}

db_test! {
    async fn a_wrong_code_is_invalid_and_a_used_code_cannot_be_reused(app: TestApp) {
        app.register("b@example.com").await;
        app.send_code("b@example.com").await;
        let code = app.code_from_mail("b@example.com", 1).await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        let body = json_of(app.verify_code("b@example.com", wrong).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["message"], "Invalid OTP");
        assert_eq!(body["errors"]["otp"], "Invalid OTP");
        json_of(app.verify_code("b@example.com", &code).await, StatusCode::OK).await;
        let body = json_of(app.verify_code("b@example.com", &code).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["message"], "Invalid OTP");
    }
}

db_test! {
    async fn code_input_is_validated_with_the_spec_texts(app: TestApp) {
        let body = json_of(app.post("/api/auth/verify-otp-email", json!({ "email": "b@example.com" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["otp"], "OTP is required");
        let body = json_of(app.verify_code("b@example.com", "123").await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["otp"], "OTP must be at least 4 digits");
        let body = json_of(app.send_code("not-an-email").await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["email"], "Invalid email format");
    }
}

db_test! {
    async fn five_wrong_codes_kill_the_code_even_for_the_right_one(app: TestApp) {
        app.register("c@example.com").await;
        app.send_code("c@example.com").await;
        let code = app.code_from_mail("c@example.com", 1).await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        for _ in 0..5 {
            json_of(app.verify_code("c@example.com", wrong).await, StatusCode::BAD_REQUEST).await;
        }
        let response = app.verify_code("c@example.com", &code).await;
        assert!(response.headers().contains_key("retry-after"));
        let body = json_of(response, StatusCode::TOO_MANY_REQUESTS).await;
        assert_eq!(body["code"], "RATE_LIMITED");
    }
}

db_test! {
    async fn a_second_code_within_sixty_seconds_is_refused_with_retry_after(app: TestApp) {
        app.register("d@example.com").await;
        json_of(app.send_code("d@example.com").await, StatusCode::OK).await;
        let response = app.send_code("d@example.com").await;
        let retry: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
        assert!((1..=60).contains(&retry), "{retry}");
        json_of(response, StatusCode::TOO_MANY_REQUESTS).await;
        // Unknown emails are limited the same way, so the limit tells nothing.
        json_of(app.send_code("ghost@example.com").await, StatusCode::OK).await;
        json_of(app.send_code("ghost@example.com").await, StatusCode::TOO_MANY_REQUESTS).await;
    }
}

db_test! {
    async fn a_new_code_replaces_the_old_one(app: TestApp) {
        app.register("e@example.com").await;
        app.send_code("e@example.com").await;
        let first = app.code_from_mail("e@example.com", 1).await;
        app.sql("DELETE FROM rate_limits").await; // the cooldown has passed
        json_of(app.send_code("e@example.com").await, StatusCode::OK).await;
        let second = app.code_from_mail("e@example.com", 2).await;
        // One time in a million the new code is the old one; then the old one is the new one.
        let expected = if first == second { StatusCode::OK } else { StatusCode::BAD_REQUEST };
        let response = app.verify_code("e@example.com", &first).await;
        assert_eq!(response.status(), expected);
        if first != second {
            json_of(app.verify_code("e@example.com", &second).await, StatusCode::OK).await;
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM email_codes").await, 0, "the verification used up the code");
    }
}

db_test! {
    async fn an_expired_code_gets_410(app: TestApp) {
        app.register("f@example.com").await;
        app.send_code("f@example.com").await;
        let code = app.code_from_mail("f@example.com", 1).await;
        app.sql("UPDATE email_codes SET expires_at = created_at").await;
        // A guess is wrong, as for an email with no account: only the code sent is told it
        // expired, so a 410 no longer tells a pending account from no account.
        let guess = if code == "123456" { "654321" } else { "123456" };
        let wrong = json_of(app.verify_code("f@example.com", guess).await, StatusCode::BAD_REQUEST).await;
        let unknown = json_of(app.verify_code("nobody-here@example.com", guess).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(wrong, unknown);
        assert_eq!(wrong["message"], "Invalid OTP");
        let body = json_of(app.verify_code("f@example.com", &code).await, StatusCode::GONE).await;
        assert_eq!(body["message"], "OTP expired. Please request a new one.");
        assert_eq!(body["code"], "TOKEN_EXPIRED");
    }
}

db_test! {
    async fn unknown_and_verified_emails_get_the_same_answer_and_no_mail(app: TestApp) {
        let token = app.signed_up("done@example.com").await;
        assert!(!token.is_empty());
        app.sql("DELETE FROM rate_limits").await;
        let known = json_of(app.send_code("done@example.com").await, StatusCode::OK).await;
        let unknown = json_of(app.send_code("nobody@example.com").await, StatusCode::OK).await;
        assert_eq!(known, unknown);
        app.mail_settled().await;
        assert_eq!(app.mail.to("done@example.com").await.len(), 1, "only the first code");
        assert!(app.mail.to("nobody@example.com").await.is_empty());
    }
}

db_test! {
    async fn a_code_runs_out_of_tries_alike_for_a_pending_account_and_for_no_account(app: TestApp) {
        app.register("waiting@example.com").await;
        json_of(app.send_code("waiting@example.com").await, StatusCode::OK).await;
        json_of(app.send_code("no-account@example.com").await, StatusCode::OK).await;
        let code = app.code_from_mail("waiting@example.com", 1).await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        for _ in 0..5 {
            let pending = json_of(app.verify_code("waiting@example.com", wrong).await, StatusCode::BAD_REQUEST).await;
            let unknown = json_of(app.verify_code("no-account@example.com", wrong).await, StatusCode::BAD_REQUEST).await;
            assert_eq!(pending, unknown);
        }
        // The sixth guess once told them apart: 429 for the account's dead code, 400 for none.
        let (pending, unknown) = (
            app.verify_code("waiting@example.com", wrong).await,
            app.verify_code("no-account@example.com", wrong).await,
        );
        assert_eq!(pending.headers()["retry-after"], unknown.headers()["retry-after"]);
        let pending = json_of(pending, StatusCode::TOO_MANY_REQUESTS).await;
        let unknown = json_of(unknown, StatusCode::TOO_MANY_REQUESTS).await;
        assert_eq!(pending, unknown);
        assert_eq!(unknown["message"], "Too many wrong codes. Please request a new one.");

        // A new code brings five new tries to both.
        app.sql("DELETE FROM rate_limits WHERE key LIKE 'otp-send:%'").await; // the cooldown has passed
        json_of(app.send_code("waiting@example.com").await, StatusCode::OK).await;
        json_of(app.send_code("no-account@example.com").await, StatusCode::OK).await;
        let pending = json_of(app.verify_code("waiting@example.com", wrong).await, StatusCode::BAD_REQUEST).await;
        let unknown = json_of(app.verify_code("no-account@example.com", wrong).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(pending, unknown);
        // An email that was sent nothing has no code to run out of: its guesses stay wrong
        // until the email-wide cap.
        for _ in 0..6 {
            json_of(app.verify_code("never-sent@example.com", wrong).await, StatusCode::BAD_REQUEST).await;
        }
    }
}
