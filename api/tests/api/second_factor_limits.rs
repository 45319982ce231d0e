//! What a person who knows the password still cannot do: guess second-factor codes from many
//! addresses or in parallel, pass the email's throttle from a fresh address, or use a
//! leftover email code to skip the second factor; and what a stolen session cannot change.

use futures::future::join_all;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::{
    helpers::{PASSWORD, TestApp, json_of},
    two_factor::{app_code, enrolled, wrong_code},
};

/// A password sign-in from `address` (any of 127.0.0.0/8): the challenge it earned.
async fn challenge_from(app: &TestApp, address: &str, email: &str) -> String {
    let response = app
        .client_at(address)
        .post(app.url("/api/auth/login"))
        .json(&json!({ "email": email, "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    let body = json_of(response, StatusCode::OK).await;
    body["data"]["challenge"]
        .as_str()
        .expect("a challenge")
        .to_owned()
}

async fn code_from(app: &TestApp, address: &str, challenge: &str, code: &str) -> reqwest::Response {
    app.client_at(address)
        .post(app.url("/api/auth/login/two-factor"))
        .json(&json!({ "challenge": challenge, "code": code }))
        .send()
        .await
        .unwrap()
}

db_test! {
    async fn wrong_codes_from_many_addresses_close_the_second_step_for_the_account_and_tell_the_owner(app: TestApp) {
        let email = "guarded@example.com";
        let (_, secret, _) = enrolled(&app, email).await;
        // Ten addresses, a fresh challenge each, one wrong code each: every one is checked.
        for n in 0..10 {
            let address = format!("127.0.1.{}", n + 1);
            let challenge = challenge_from(&app, &address, email).await;
            let body = json_of(code_from(&app, &address, &challenge, &wrong_code(&secret)).await, StatusCode::BAD_REQUEST).await;
            assert_eq!(body["message"], "Invalid code", "attempt {n}");
        }
        // The eleventh address has the password and even the right code: the step is closed.
        let challenge = challenge_from(&app, "127.0.1.99", email).await;
        let response = code_from(&app, "127.0.1.99", &challenge, &app_code(&secret, 0)).await;
        assert!(response.headers().contains_key("retry-after"));
        let body = json_of(response, StatusCode::TOO_MANY_REQUESTS).await;
        assert_eq!(body["code"], "RATE_LIMITED");
        assert!(body["message"].as_str().unwrap().contains("try again in an hour"), "{body}");
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'two_factor_locked'").await, 1);
        let mails = app.mail.wait_for(email, 3).await;
        let warning = mails.iter().find(|m| m.subject().contains("Someone has your")).expect("the owner is warned");
        assert!(warning.text().contains("10 wrong two-factor codes"), "{}", warning.text());
        // The owner is locked out of the second step for the hour too: the mail's way to act
        // now is a new password, which needs no sign-in.
        assert!(warning.text().contains("/forgot-password"), "{}", warning.text());
        // Eleven checks were asked for, ten were made.
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE detail = 'wrong two-factor code'").await, 10);
    }
}

db_test! {
    async fn parallel_wrong_codes_on_one_challenge_check_at_most_five(app: TestApp) {
        let email = "parallel@example.com";
        let (_, secret, _) = enrolled(&app, email).await;
        let challenge = challenge_from(&app, "127.0.2.1", email).await;
        let wrong = wrong_code(&secret);
        let answers = join_all((0..20).map(|n| {
            let (app, challenge, wrong) = (&app, challenge.clone(), wrong.clone());
            async move { code_from(app, &format!("127.0.2.{}", n + 10), &challenge, &wrong).await.status() }
        }))
        .await;
        let checked = answers.iter().filter(|s| **s == StatusCode::BAD_REQUEST).count();
        assert_eq!(checked, 5, "{answers:?}");
        assert!(answers.iter().all(|s| *s == StatusCode::BAD_REQUEST || *s == StatusCode::TOO_MANY_REQUESTS), "{answers:?}");
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE detail = 'wrong two-factor code'").await, 5);
    }
}

db_test! {
    async fn the_right_code_sent_many_times_at_once_signs_in_once_and_counts_no_wrong_code(app: TestApp) {
        let email = "eager@example.com";
        let (_, secret, _) = enrolled(&app, email).await;
        let challenge = challenge_from(&app, "127.0.3.1", email).await;
        let right = app_code(&secret, 1); // the step after the one that confirmed the enrolment
        let answers = join_all((0..12).map(|_| {
            let (app, challenge, right) = (&app, challenge.clone(), right.clone());
            async move { code_from(app, "127.0.3.1", &challenge, &right).await.status() }
        }))
        .await;
        assert_eq!(answers.iter().filter(|s| **s == StatusCode::OK).count(), 1, "{answers:?}");
        // The others found the step spent, as a second click after a sign-in does, or met
        // the five tries the challenge lets be in flight at once; none was a wrong code.
        assert!(
            answers.iter().all(|s| [StatusCode::OK, StatusCode::GONE, StatusCode::TOO_MANY_REQUESTS].contains(s)),
            "{answers:?}"
        );
        assert!(answers.contains(&StatusCode::GONE), "{answers:?}");
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE detail = 'wrong two-factor code'").await, 0);
    }
}

db_test! {
    async fn only_a_browser_that_signed_in_before_passes_the_email_delay_from_a_new_address(app: TestApp) {
        let email = "owner@example.com";
        app.signed_up(email).await;
        // The owner's own browser signs in once, on an address that will never fail.
        let owner = reqwest::Client::builder()
            .cookie_store(true)
            .local_address("127.0.3.9".parse::<std::net::IpAddr>().unwrap())
            .build()
            .unwrap();
        let login = |client: &reqwest::Client, password: &str| {
            client.post(app.url("/api/auth/login")).json(&json!({ "email": email, "password": password })).send()
        };
        let response = login(&owner, PASSWORD).await.unwrap();
        let cookies: Vec<String> = response.headers().get_all("set-cookie").iter().map(|v| v.to_str().unwrap().to_owned()).collect();
        assert!(cookies.iter().any(|c| c.starts_with("ts_device=") && c.contains("HttpOnly") && c.contains("Path=/api")), "{cookies:?}");
        json_of(response, StatusCode::OK).await;
        // Twenty failures from four addresses: under each address's own limit, at the email's.
        for address in ["127.0.3.2", "127.0.3.3", "127.0.3.4", "127.0.3.5"] {
            let guesser = app.client_at(address);
            for _ in 0..5 {
                assert_eq!(login(&guesser, "wrong").await.unwrap().status(), StatusCode::UNAUTHORIZED);
            }
        }
        // A new address without the device cookie meets the email's delay, right password or not.
        assert_eq!(login(&app.client_at("127.0.3.6"), "wrong").await.unwrap().status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(login(&app.client_at("127.0.3.7"), PASSWORD).await.unwrap().status(), StatusCode::TOO_MANY_REQUESTS);
        // A forged device cookie is no better.
        let forged = app.client_at("127.0.3.8").post(app.url("/api/auth/login"))
            .header("cookie", "ts_device=AAAAAAAAAAAAAAAAAAAAAA.0000000000000000000000000000000000000000000000000000000000000000")
            .json(&json!({ "email": email, "password": PASSWORD })).send().await.unwrap();
        assert_eq!(forged.status(), StatusCode::TOO_MANY_REQUESTS);
        // The owner's browser still gets in.
        json_of(login(&owner, PASSWORD).await.unwrap(), StatusCode::OK).await;
    }
}

db_test! {
    async fn a_copied_device_cookie_buys_five_guesses_past_the_email_delay_not_one_per_address(app: TestApp) {
        // Someone copies the owner's device cookie (a shared campus machine), then guesses from
        // a fresh address each time, so no address ever fails twice for the email.
        let email = "shared@example.com";
        app.signed_up(email).await;
        let signed_in = app.client_at("127.0.4.1").post(app.url("/api/auth/login")).json(&json!({ "email": email, "password": PASSWORD })).send().await.unwrap();
        let device = signed_in.headers().get_all("set-cookie").iter()
            .map(|v| v.to_str().unwrap().to_owned())
            .find(|c| c.starts_with("ts_device="))
            .expect("a device cookie")
            .split(';').next().unwrap().to_owned();
        json_of(signed_in, StatusCode::OK).await;
        let login = |address: String, password: &'static str| {
            let client = app.client_at(&address);
            let request = client.post(app.url("/api/auth/login")).header("cookie", device.clone()).json(&json!({ "email": email, "password": password }));
            async move { request.send().await.unwrap().status() }
        };
        // The owner's own typos on the way in are forgiven once the password is right.
        for n in 0..4 {
            assert_eq!(login(format!("127.0.6.{n}"), "wrong").await, StatusCode::UNAUTHORIZED, "typo {n}");
        }
        assert_eq!(login("127.0.6.9".to_owned(), PASSWORD).await, StatusCode::OK);
        // Sixteen more failures without the cookie (twenty with the typos) put the email behind
        // its delay.
        for address in ["127.0.4.2", "127.0.4.3", "127.0.4.4", "127.0.4.5"] {
            let guesser = app.client_at(address);
            for _ in 0..4 {
                let status = guesser.post(app.url("/api/auth/login")).json(&json!({ "email": email, "password": "wrong" })).send().await.unwrap().status();
                assert_eq!(status, StatusCode::UNAUTHORIZED);
            }
        }
        // With the cookie, five guesses get through, one from each new address...
        for n in 0..5 {
            assert_eq!(login(format!("127.0.5.{n}"), "wrong").await, StatusCode::UNAUTHORIZED, "guess {n}");
        }
        // ...and then the cookie is no better than none, right password or not.
        assert_eq!(login("127.0.5.9".to_owned(), "wrong").await, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(login("127.0.5.10".to_owned(), PASSWORD).await, StatusCode::TOO_MANY_REQUESTS);
    }
}

db_test! {
    async fn a_device_cookie_copied_before_a_reset_is_no_better_than_none_after_it(app: TestApp) {
        // Someone copied the owner's device cookie; the owner resets the password. The copy
        // then meets the email's delay like any browser, while the owner's browser, which
        // changed the password and then reset it, keeps its place each time.
        let email = "reset-device@example.com";
        app.signed_up(email).await;
        let device_of = |response: &reqwest::Response| {
            response.headers().get_all("set-cookie").iter()
                .map(|v| v.to_str().unwrap().to_owned())
                .find(|c| c.starts_with("ts_device="))
                .map(|c| c.split(';').next().unwrap().to_owned())
        };
        let login = |address: &str, device: Option<&str>, password: &str| {
            let mut request = app.client_at(address).post(app.url("/api/auth/login"));
            if let Some(device) = device {
                request = request.header("cookie", device.to_owned());
            }
            request.json(&json!({ "email": email, "password": password })).send()
        };
        let signed_in = login("127.0.8.1", None, PASSWORD).await.unwrap();
        let copied = device_of(&signed_in).expect("a device cookie");
        let token = json_of(signed_in, StatusCode::OK).await["data"]["token"].as_str().unwrap().to_owned();

        // The owner changes the password on that browser: its device cookie is made anew.
        let changed = app.browser().put(app.url("/api/users/password"))
            .bearer_auth(&token)
            .header("cookie", copied.clone())
            .json(&json!({ "currentPassword": PASSWORD, "password": "secondRiver42", "confirmPassword": "secondRiver42" }))
            .send().await.unwrap();
        let renewed = device_of(&changed).expect("the device cookie, renewed");
        json_of(changed, StatusCode::OK).await;

        // Then a reset by mail, which the copier cannot follow, on the owner's browser: it
        // proved the mailbox, so it gets an entry for the new password in place of its old one.
        json_of(app.post("/api/auth/forgot-password", json!({ "email": email })).await, StatusCode::OK).await;
        let mails = app.mail.wait_for(email, 3).await;
        let reset = crate::helpers::reset_token_in(mails.iter().find(|m| m.text().contains("/reset-password/")).unwrap());
        let answer = app.client.post(app.url(&format!("/api/auth/reset-password/{reset}")))
            .header("cookie", renewed.clone())
            .json(&json!({ "password": "thirdRiver42" }))
            .send().await.unwrap();
        let owners = device_of(&answer).expect("a device cookie for the new password");
        assert_eq!(owners.split('~').count(), 1, "the dead entry is dropped: {owners}");
        json_of(answer, StatusCode::OK).await;

        // Twenty failures from four addresses put the email behind its delay.
        for address in ["127.0.8.2", "127.0.8.3", "127.0.8.4", "127.0.8.5"] {
            for _ in 0..5 {
                assert_eq!(login(address, None, "wrong").await.unwrap().status(), StatusCode::UNAUTHORIZED);
            }
        }
        // Neither the copy nor the entry renewed before the reset gets past it now.
        assert_eq!(login("127.0.8.6", Some(&copied), "thirdRiver42").await.unwrap().status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(login("127.0.8.7", Some(&renewed), "thirdRiver42").await.unwrap().status(), StatusCode::TOO_MANY_REQUESTS);
        // The owner's browser, whose reset made its entry anew, is let through.
        json_of(login("127.0.8.8", Some(&owners), "thirdRiver42").await.unwrap(), StatusCode::OK).await;
    }
}

db_test! {
    async fn a_password_change_keeps_the_changing_browser_past_the_email_delay(app: TestApp) {
        let email = "change-device@example.com";
        let token = app.signed_up(email).await;
        let device_of = |response: &reqwest::Response| {
            let device = response.headers().get_all("set-cookie").iter()
                .map(|v| v.to_str().unwrap().to_owned())
                .find(|c| c.starts_with("ts_device="))
                .expect("a device cookie for the new password");
            assert!(device.contains("HttpOnly") && device.contains("Path=/api"), "{device}");
            device.split(';').next().unwrap().to_owned()
        };
        let changed = app.browser().put(app.url("/api/users/password"))
            .bearer_auth(&token)
            .json(&json!({ "currentPassword": PASSWORD, "password": "firstRiver42", "confirmPassword": "firstRiver42" }))
            .send().await.unwrap();
        let before = device_of(&changed);
        json_of(changed, StatusCode::OK).await;
        // The same through GraphQL, whose answer carries the cookie too.
        let changed = app.browser().post(app.url("/api/graphql"))
            .bearer_auth(&token)
            .json(&json!({
                "query": "mutation($input: ChangePasswordInput!) { changePassword(input: $input) { message } }",
                "variables": { "input": { "currentPassword": "firstRiver42", "password": "secondRiver42", "confirmPassword": "secondRiver42" } },
            }))
            .send().await.unwrap();
        let device = device_of(&changed);
        let body = json_of(changed, StatusCode::OK).await;
        assert!(body["data"]["changePassword"]["message"].is_string(), "{body}");
        for address in ["127.0.9.2", "127.0.9.3", "127.0.9.4", "127.0.9.5"] {
            for _ in 0..5 {
                let status = app.client_at(address).post(app.url("/api/auth/login"))
                    .json(&json!({ "email": email, "password": "wrong" })).send().await.unwrap().status();
                assert_eq!(status, StatusCode::UNAUTHORIZED);
            }
        }
        let login = |device: Option<&str>| {
            let mut request = app.client_at("127.0.9.6").post(app.url("/api/auth/login"));
            if let Some(device) = device {
                request = request.header("cookie", device.to_owned());
            }
            request.json(&json!({ "email": email, "password": "secondRiver42" })).send()
        };
        assert_eq!(login(None).await.unwrap().status(), StatusCode::TOO_MANY_REQUESTS, "any other browser waits");
        assert_eq!(login(Some(&before)).await.unwrap().status(), StatusCode::TOO_MANY_REQUESTS, "made for the first password");
        json_of(login(Some(&device)).await.unwrap(), StatusCode::OK).await;
    }
}

db_test! {
    async fn a_new_password_ends_the_links_and_second_steps_begun_before_it(app: TestApp) {
        let email = "renewed@example.com";
        let (token, secret, _) = crate::two_factor::enrolled(&app, email).await;
        // Someone who read the mailbox once kept a reset link; someone with the old password
        // stands at the second step.
        json_of(app.post("/api/auth/forgot-password", json!({ "email": email })).await, StatusCode::OK).await;
        let mails = app.mail.wait_for(email, 3).await;
        let reset = crate::helpers::reset_token_in(mails.iter().find(|m| m.text().contains("/reset-password/")).unwrap());
        let step = json_of(app.login(email, PASSWORD).await, StatusCode::OK).await;
        let challenge = step["data"]["challenge"].as_str().unwrap().to_owned();
        // The owner changes the password: neither finishes after it.
        let body = json!({ "currentPassword": PASSWORD, "password": "secondRiver42", "confirmPassword": "secondRiver42" });
        json_of(app.put_as(&token, "/api/users/password", body).await, StatusCode::OK).await;
        let stale = json_of(app.post(&format!("/api/auth/reset-password/{reset}"), json!({ "password": "takenRiver42" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(stale["message"], "Reset link is invalid");
        let late = app.post("/api/auth/login/two-factor", json!({ "challenge": challenge, "code": crate::two_factor::app_code(&secret, 1) })).await;
        assert_eq!(late.status(), StatusCode::GONE);
        json_of(app.login(email, "secondRiver42").await, StatusCode::OK).await;
    }
}

db_test! {
    async fn a_code_that_confirms_it_is_you_waits_out_the_emails_delay_like_a_sign_in(app: TestApp) {
        // A stolen session of an account with two-factor on guesses codes to confirm it's
        // them: the email's sign-in throttle counts them too, not only the hourly cap.
        let email = "confirm@example.com";
        let (token, secret, _) = crate::two_factor::enrolled(&app, email).await;
        for address in ["127.0.10.2", "127.0.10.3", "127.0.10.4", "127.0.10.5"] {
            for _ in 0..5 {
                let status = app.client_at(address).post(app.url("/api/auth/login"))
                    .json(&json!({ "email": email, "password": "wrong" })).send().await.unwrap().status();
                assert_eq!(status, StatusCode::UNAUTHORIZED);
            }
        }
        let confirm = app.client_at("127.0.10.6").post(app.url("/api/auth/reauthenticate"))
            .bearer_auth(&token)
            .json(&json!({ "code": crate::two_factor::app_code(&secret, 1) }))
            .send().await.unwrap();
        assert_eq!(confirm.status(), StatusCode::TOO_MANY_REQUESTS);
    }
}

/// An admin suspends an account while its owner is resetting the password or verifying the
/// email with a code: the suspension stands, however the two interleave (each re-reads the
/// account under its lock instead of writing back the status it read first). PostgreSQL only:
/// SQLite runs them one after the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_suspension_committed_during_a_reset_or_a_verification_stands() {
    use sea_orm::{ConnectionTrait, TransactionTrait};

    let Some(app) = crate::helpers::TestApp::spawn_postgres().await else {
        return;
    };
    // A verified account resetting its password, and a pending one verifying by code.
    app.signed_up("reset@example.com").await;
    json_of(
        app.post(
            "/api/auth/forgot-password",
            json!({ "email": "reset@example.com" }),
        )
        .await,
        StatusCode::OK,
    )
    .await;
    let mails = app.mail.wait_for("reset@example.com", 2).await;
    let reset = crate::helpers::reset_token_in(
        mails
            .iter()
            .find(|m| m.text().contains("/reset-password/"))
            .unwrap(),
    );
    assert_eq!(
        app.register("pending@example.com").await.status(),
        StatusCode::CREATED
    );
    assert_eq!(
        app.send_code("pending@example.com").await.status(),
        StatusCode::OK
    );
    let code = app.code_from_mail("pending@example.com", 1).await;

    let reset_path = format!("/api/auth/reset-password/{reset}");
    for email in ["reset@example.com", "pending@example.com"] {
        // The suspension, begun and not yet committed.
        let suspension = app.db.begin().await.unwrap();
        suspension
            .execute_unprepared(&format!(
                "UPDATE users SET status = 'suspended' WHERE email = '{email}'"
            ))
            .await
            .unwrap();
        let mut request: std::pin::Pin<Box<dyn std::future::Future<Output = reqwest::Response> + Send + '_>> =
            if email == "reset@example.com" {
                Box::pin(app.post(&reset_path, json!({ "password": "newRiver42x" })))
            } else {
                Box::pin(app.verify_code(email, &code))
            };
        crate::helpers::until_it_waits_on_a_lock(
            &app,
            std::pin::Pin::new(&mut request),
            "it did not wait for the suspension",
        )
        .await;
        suspension.commit().await.unwrap();
        let answer = request.await;
        assert_ne!(answer.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let status = app
            .count(&format!(
                "SELECT COUNT(*) FROM users WHERE email = '{email}' AND status = 'suspended'"
            ))
            .await;
        assert_eq!(status, 1, "{email}: the suspension stands");
        assert_eq!(
            app.count(&format!(
                "SELECT COUNT(*) FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = '{email}'"
            ))
            .await,
            0,
            "{email}: no session"
        );
    }
}

db_test! {
    async fn an_email_code_left_from_before_a_reset_does_not_skip_two_factor(app: TestApp) {
        let email = "leftover@example.com";
        assert_eq!(app.register(email).await.status(), StatusCode::CREATED);
        assert_eq!(app.send_code(email).await.status(), StatusCode::OK);
        let code = app.code_from_mail(email, 1).await;
        // The reset link verifies the account instead of the code.
        json_of(app.post("/api/auth/forgot-password", json!({ "email": email })).await, StatusCode::OK).await;
        let mails = app.mail.wait_for(email, 2).await;
        let token = crate::helpers::reset_token_in(&mails[1]);
        json_of(app.post(&format!("/api/auth/reset-password/{token}"), json!({ "password": "newRiver42x" })).await, StatusCode::OK).await;
        assert_eq!(app.count("SELECT COUNT(*) FROM email_codes").await, 0, "the reset removed the code");
        let body = json_of(app.verify_code(email, &code).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["message"], "Invalid OTP");
        assert!(body["data"].is_null());
    }
}

db_test! {
    async fn an_account_verified_another_way_gets_no_session_from_its_email_code(app: TestApp) {
        let email = "verified@example.com";
        assert_eq!(app.register(email).await.status(), StatusCode::CREATED);
        assert_eq!(app.send_code(email).await.status(), StatusCode::OK);
        let code = app.code_from_mail(email, 1).await;
        // Verified meanwhile by another door (a Google link, say), the code still stored.
        app.sql("UPDATE users SET email_verified = true, status = 'active'").await;
        let body = json_of(app.verify_code(email, &code).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["message"], "Invalid OTP");
        assert_eq!(app.count("SELECT COUNT(*) FROM sessions").await, 0);
    }
}

/// Ages the sessions' last proof of identity past the ten minutes.
pub async fn stale_sign_in(app: &TestApp) {
    use sea_orm::{EntityTrait, sea_query::Expr};
    let eleven_minutes_ago = chrono::Utc::now() - chrono::Duration::minutes(11);
    entity::sessions::Entity::update_many()
        .col_expr(
            entity::sessions::Column::AuthenticatedAt,
            Expr::value(Some(eleven_minutes_ago)),
        )
        .exec(&app.db)
        .await
        .unwrap();
}

async fn reauthenticate(app: &TestApp, token: &str, body: Value) -> reqwest::Response {
    app.post_as(token, "/api/auth/reauthenticate", body).await
}

db_test! {
    async fn sensitive_changes_need_a_recent_sign_in_and_confirming_it_is_you_gives_one(app: TestApp) {
        let email = "fresh@example.com";
        let (token, secret, _) = enrolled(&app, email).await;
        stale_sign_in(&app).await;
        // Two-factor off and account deletion: refused with the code the site turns into a prompt.
        for response in [
            app.post_as(&token, "/api/users/two-factor/disable", json!({ "password": PASSWORD, "code": app_code(&secret, 0) })).await,
            app.delete_as(&token, &format!("/api/users/{}", json_of(app.get_as(&token, "/api/auth/verify").await, StatusCode::OK).await["data"]["user"]["id"].as_str().unwrap())).await,
            // Connecting a provider's account: a new way in, refused before its ticket is read.
            app.post_as(&token, "/api/auth/oauth/link", json!({ "ticket": "not-read" })).await,
        ] {
            let body = json_of(response, StatusCode::FORBIDDEN).await;
            assert_eq!(body["code"], "REAUTHENTICATION_REQUIRED", "{body}");
        }
        let gql = app.graphql(Some(&token), "mutation { startTwoFactorSetup { secret } }", json!({})).await;
        assert_eq!(gql["errors"][0]["extensions"]["code"], "REAUTHENTICATION_REQUIRED", "{gql}");
        // A wrong password does not confirm; the right one does.
        let body = json_of(reauthenticate(&app, &token, json!({ "password": "notMine42x" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["password"], "Password is incorrect");
        let body = json_of(reauthenticate(&app, &token, json!({ "password": PASSWORD })).await, StatusCode::OK).await;
        assert_eq!(body["message"], "Thanks, it's you");
        // The enrolment used this step's code: the next step's is the one still unused.
        let body = json_of(app.post_as(&token, "/api/users/two-factor/disable", json!({ "password": PASSWORD, "code": app_code(&secret, 1) })).await, StatusCode::OK).await;
        assert_eq!(body["message"], "Two-factor sign-in is off");
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'reauthenticated'").await, 1);
    }
}

db_test! {
    async fn a_second_factor_code_confirms_it_is_you_once(app: TestApp) {
        let (token, secret, recovery) = enrolled(&app, "coded@example.com").await;
        stale_sign_in(&app).await;
        let body = json_of(reauthenticate(&app, &token, json!({})).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["code"], "BAD_USER_INPUT");
        let body = json_of(reauthenticate(&app, &token, json!({ "code": wrong_code(&secret) })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["code"], "Invalid code");
        json_of(reauthenticate(&app, &token, json!({ "code": recovery[0] })).await, StatusCode::OK).await;
        // The recovery code is spent.
        stale_sign_in(&app).await;
        json_of(reauthenticate(&app, &token, json!({ "code": recovery[0] })).await, StatusCode::BAD_REQUEST).await;
        // A password reset keeps two-factor on.
        json_of(app.post("/api/auth/forgot-password", json!({ "email": "coded@example.com" })).await, StatusCode::OK).await;
        let mails = app.mail.wait_for("coded@example.com", 3).await;
        let reset = mails.iter().rev().find(|m| m.text().contains("/reset-password/")).unwrap();
        let link = crate::helpers::reset_token_in(reset);
        json_of(app.post(&format!("/api/auth/reset-password/{link}"), json!({ "password": "newRiver42x" })).await, StatusCode::OK).await;
        let body = json_of(app.login("coded@example.com", "newRiver42x").await, StatusCode::OK).await;
        assert_eq!(body["data"]["twoFactorRequired"], true);
    }
}
