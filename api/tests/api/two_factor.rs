//! Two-factor sign-in: enrolment with a first code, the two-step sign-in with an
//! authenticator code or a recovery code, replayed codes, the challenge's limits, and turning
//! it off. Codes are computed here from the secret the server hands out, as an app would.

use reqwest::StatusCode;
use serde_json::{Value, json};
use totp_rs::{Builder, Secret};

use crate::helpers::{PASSWORD, TestApp, json_of};

/// The authenticator code for now plus `steps` 30-second steps.
pub fn app_code(secret: &str, steps: i64) -> String {
    let totp = Builder::new()
        .with_secret(Secret::try_from_base32(secret).expect("base32 secret"))
        .build()
        .expect("a valid TOTP");
    let at = chrono::Utc::now().timestamp() + steps * 30;
    totp.generate(u64::try_from(at).unwrap()).to_string()
}

/// A six-digit code that is none of the codes valid around now.
pub fn wrong_code(secret: &str) -> String {
    let valid: Vec<String> = (-2..=2).map(|s| app_code(secret, s)).collect();
    (0..1_000_000)
        .map(|n| format!("{n:06}"))
        .find(|c| !valid.contains(c))
        .unwrap()
}

/// Signs up `email`, turns two-factor on and returns (session token, secret, recovery codes).
pub async fn enrolled(app: &TestApp, email: &str) -> (String, String, Vec<String>) {
    let (token, secret, codes, _) = enrolled_with(app, email).await;
    (token, secret, codes)
}

/// [`enrolled`], and the code that confirmed the enrolment.
async fn enrolled_with(app: &TestApp, email: &str) -> (String, String, Vec<String>, String) {
    let token = app.signed_up(email).await;
    let body = json_of(
        app.post_as(&token, "/api/users/two-factor/setup", json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    let secret = body["data"]["setup"]["secret"].as_str().unwrap().to_owned();
    let first = app_code(&secret, 0);
    let body = json_of(
        app.post_as(&token, "/api/users/two-factor/confirm", json!({ "code": first }))
            .await,
        StatusCode::OK,
    )
    .await;
    let codes = body["data"]["recoveryCodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    (token, secret, codes, first)
}

async fn challenge(app: &TestApp, email: &str) -> String {
    let response = app.login(email, PASSWORD).await;
    assert!(
        response.headers().get("set-cookie").is_none(),
        "no session before the second factor"
    );
    let body = json_of(response, StatusCode::OK).await;
    assert_eq!(body["data"]["twoFactorRequired"], true, "{body}");
    assert!(
        body["data"].get("token").is_none() && body["data"].get("user").is_none(),
        "{body}"
    );
    body["data"]["challenge"].as_str().unwrap().to_owned()
}

async fn second_step(app: &TestApp, challenge: &str, code: &str) -> reqwest::Response {
    app.post(
        "/api/auth/login/two-factor",
        json!({ "challenge": challenge, "code": code }),
    )
    .await
}

db_test! {
    async fn enrolment_needs_a_right_first_code_then_shows_ten_recovery_codes_once(app: TestApp) {
        let email = "enrol@example.com";
        let token = app.signed_up(email).await;
        // Off already: turning it off is a conflict with how the account stands, as turning it
        // on twice is (below).
        let off = json_of(app.post_as(&token, "/api/users/two-factor/disable", json!({ "password": PASSWORD, "code": "123456" })).await, StatusCode::CONFLICT).await;
        assert_eq!(off["message"], "Two-factor sign-in is not on");
        let body = json_of(app.post_as(&token, "/api/users/two-factor/setup", json!({})).await, StatusCode::OK).await;
        let secret = body["data"]["setup"]["secret"].as_str().unwrap().to_owned();
        let uri = body["data"]["setup"]["otpauthUri"].as_str().unwrap();
        assert!(uri.starts_with("otpauth://totp/"), "{uri}");
        assert!(uri.contains(&format!("secret={secret}")) && uri.contains("enrol%40example.com"), "{uri}");

        let body = json_of(app.post_as(&token, "/api/users/two-factor/confirm", json!({ "code": wrong_code(&secret) })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["code"], "Invalid code");
        let me = json_of(app.get_as(&token, "/api/auth/verify").await, StatusCode::OK).await;
        assert_eq!(me["data"]["user"]["twoFactorEnabled"], false);
        // Not on yet: the password alone still signs in.
        let body = json_of(app.login(email, PASSWORD).await, StatusCode::OK).await;
        assert!(body["data"]["token"].is_string());

        let body = json_of(app.post_as(&token, "/api/users/two-factor/confirm", json!({ "code": app_code(&secret, 0) })).await, StatusCode::OK).await;
        assert_eq!(body["message"], "Two-factor sign-in is on");
        let codes = body["data"]["recoveryCodes"].as_array().unwrap();
        assert_eq!(codes.len(), 10);
        let me = json_of(app.get_as(&token, "/api/auth/verify").await, StatusCode::OK).await;
        assert_eq!(me["data"]["user"]["twoFactorEnabled"], true);
        assert_eq!(app.count("SELECT COUNT(*) FROM recovery_codes WHERE used_at IS NULL").await, 10);
        // Stored hashed: every row holds a 64-digit keyed hash, and no code appears, in the
        // form shown or the form typed (its halves are too short to look for: five letters
        // turn up in a hash by chance).
        assert_eq!(app.count("SELECT COUNT(*) FROM recovery_codes WHERE LENGTH(code_hash) = 64 AND code_hash = LOWER(code_hash)").await, 10);
        for code in codes {
            let shown = code.as_str().unwrap().to_lowercase();
            for part in [shown.clone(), shown.replace('-', "")] {
                let found = app.count(&format!("SELECT COUNT(*) FROM recovery_codes WHERE LOWER(code_hash) LIKE '%{part}%'")).await;
                assert_eq!(found, 0, "{part} is in the table");
            }
        }
        let notice = app.mail.wait_for(email, 2).await.into_iter().last().unwrap();
        assert!(notice.subject().contains("Two-factor sign-in was turned on"), "{}", notice.subject());

        let body = json_of(app.post_as(&token, "/api/users/two-factor/setup", json!({})).await, StatusCode::CONFLICT).await;
        assert_eq!(body["message"], "Two-factor sign-in is already on");
        json_of(app.post_as(&token, "/api/users/two-factor/confirm", json!({ "code": app_code(&secret, 0) })).await, StatusCode::CONFLICT).await;
    }
}

db_test! {
    async fn a_right_first_code_sent_twice_at_once_is_no_failed_attempt(app: TestApp) {
        // A double click, or tabs: the same right code confirms the enrolment three times at
        // once (more would meet the throttle's own bound on attempts in flight). One turns
        // two-factor on; the others say it is on already, and none of them counts against the
        // sign-in throttle as a guess would.
        let email = "twice@example.com";
        let token = app.signed_up(email).await;
        let body = json_of(app.post_as(&token, "/api/users/two-factor/setup", json!({})).await, StatusCode::OK).await;
        let secret = body["data"]["setup"]["secret"].as_str().unwrap().to_owned();
        let code = app_code(&secret, 0);
        let confirms = (0..3).map(|_| app.post_as(&token, "/api/users/two-factor/confirm", json!({ "code": code })));
        let answers = futures::future::join_all(confirms).await;
        let statuses: Vec<u16> = answers.iter().map(|a| a.status().as_u16()).collect();
        assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "{statuses:?}");
        assert!(statuses.iter().all(|s| [200, 409].contains(s)), "{statuses:?}");
        assert_eq!(app.count("SELECT CAST(COALESCE(MAX(failures), 0) AS BIGINT) FROM login_throttles").await, 0);
        assert_eq!(app.count("SELECT COUNT(*) FROM recovery_codes").await, 10);
    }
}

db_test! {
    async fn sign_in_takes_a_code_once_and_a_recovery_code_once(app: TestApp) {
        let email = "twostep@example.com";
        let (_, secret, recovery, confirmed_with) = enrolled_with(&app, email).await;

        // The code that confirmed enrolment is used up, even within its window.
        let first = challenge(&app, email).await;
        let body = json_of(second_step(&app, &first, &confirmed_with).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["message"], "Invalid code");
        // A field error, as confirming and turning off answer it: the form shows it under the code.
        assert_eq!(body["errors"]["code"], "Invalid code", "{body}");

        let next = app_code(&secret, 1);
        let response = second_step(&app, &first, &next).await;
        assert!(response.headers().get("set-cookie").is_some_and(|c| c.to_str().unwrap().contains("HttpOnly")));
        let body = json_of(response, StatusCode::OK).await;
        assert_eq!(body["message"], "Logged in successfully");
        let session = body["data"]["token"].as_str().unwrap();
        assert_eq!(body["data"]["user"]["email"], email);
        json_of(app.get_as(session, "/api/auth/verify").await, StatusCode::OK).await;

        // The challenge was single-use, and the code too.
        json_of(second_step(&app, &first, &next).await, StatusCode::GONE).await;
        let again = challenge(&app, email).await;
        json_of(second_step(&app, &again, &next).await, StatusCode::BAD_REQUEST).await;

        // A recovery code, typed loosely, works once.
        let loose = recovery[3].to_uppercase().replace('-', " ");
        let body = json_of(second_step(&app, &again, &loose).await, StatusCode::OK).await;
        assert!(body["data"]["token"].is_string());
        assert_eq!(app.count("SELECT COUNT(*) FROM recovery_codes WHERE used_at IS NULL").await, 9);
        let third = challenge(&app, email).await;
        let body = json_of(second_step(&app, &third, &recovery[3]).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["message"], "Invalid code");
        json_of(second_step(&app, &third, &recovery[4]).await, StatusCode::OK).await;
    }
}

db_test! {
    async fn a_challenge_dies_after_five_wrong_codes_or_five_minutes(app: TestApp) {
        let email = "guesser@example.com";
        let (_, secret, _) = enrolled(&app, email).await;
        let guessed = challenge(&app, email).await;
        let wrong = wrong_code(&secret);
        for _ in 0..5 {
            let body = json_of(second_step(&app, &guessed, &wrong).await, StatusCode::BAD_REQUEST).await;
            assert_eq!(body["message"], "Invalid code");
        }
        let body = json_of(second_step(&app, &guessed, &app_code(&secret, 1)).await, StatusCode::TOO_MANY_REQUESTS).await;
        assert_eq!(body["message"], "Too many wrong codes. Please sign in again.");

        // The wrong codes counted as failed sign-ins: the password is throttled too now.
        let body = json_of(app.login(email, PASSWORD).await, StatusCode::TOO_MANY_REQUESTS).await;
        assert_eq!(body["message"], "Too many failed sign-in attempts. Please try again later.");
        app.sql("DELETE FROM login_throttles").await;

        let aged = challenge(&app, email).await;
        app.sql("UPDATE two_factor_challenges SET expires_at = created_at").await;
        json_of(second_step(&app, &aged, &app_code(&secret, 1)).await, StatusCode::GONE).await;
        json_of(second_step(&app, "made-up", &app_code(&secret, 1)).await, StatusCode::GONE).await;
        let body = json_of(second_step(&app, "", "").await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["challenge"], "Challenge is required");
        assert_eq!(body["errors"]["code"], "Code is required");
    }
}

db_test! {
    async fn codes_the_throttle_refuses_unchecked_leave_the_challenge_its_tries(app: TestApp) {
        let email = "patient@example.com";
        let (_, secret, _) = enrolled(&app, email).await;
        let wrong = wrong_code(&secret);
        let (spent, kept) = (challenge(&app, email).await, challenge(&app, email).await);
        for _ in 0..5 {
            json_of(second_step(&app, &spent, &wrong).await, StatusCode::BAD_REQUEST).await;
        }
        // The account is throttled now: the other challenge's codes are refused unchecked...
        for _ in 0..5 {
            let body = json_of(second_step(&app, &kept, &wrong).await, StatusCode::TOO_MANY_REQUESTS).await;
            assert_eq!(body["message"], "Too many failed sign-in attempts. Please try again later.");
        }
        // ...so once the wait is over, that challenge still takes the right code.
        app.sql("DELETE FROM login_throttles").await;
        let body = json_of(second_step(&app, &kept, &app_code(&secret, 1)).await, StatusCode::OK).await;
        assert_eq!(body["message"], "Logged in successfully");
    }
}

db_test! {
    async fn a_known_password_does_not_reset_the_throttle_that_guards_the_codes(app: TestApp) {
        let email = "stolen@example.com";
        let (_, secret, _) = enrolled(&app, email).await;
        let wrong = wrong_code(&secret);
        // An attacker with the password asks for fresh challenges instead of using one up.
        let mut refused = None;
        for attempt in 0..8 {
            let login = app.login(email, PASSWORD).await;
            if login.status() == StatusCode::TOO_MANY_REQUESTS {
                refused = Some(attempt);
                break;
            }
            let body: Value = login.json().await.unwrap();
            let guessed = body["data"]["challenge"].as_str().unwrap().to_owned();
            let status = second_step(&app, &guessed, &wrong).await.status();
            if status == StatusCode::TOO_MANY_REQUESTS {
                refused = Some(attempt);
                break;
            }
            assert_eq!(status, StatusCode::BAD_REQUEST);
        }
        assert!(refused.is_some_and(|n| n <= 5), "fresh challenges bought more guesses: {refused:?}");
    }
}

db_test! {
    async fn turning_it_off_needs_the_password_and_a_code(app: TestApp) {
        let email = "disable@example.com";
        let (token, secret, recovery) = enrolled(&app, email).await;
        let off = |password: &str, code: &str| app.post_as(&token, "/api/users/two-factor/disable", json!({ "password": password, "code": code }));
        let body = json_of(off("wrong-guess1", &app_code(&secret, 1)).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["password"], "Password is incorrect");
        let body = json_of(off(PASSWORD, &wrong_code(&secret)).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["code"], "Invalid code");
        let body = json_of(off(PASSWORD, &recovery[0]).await, StatusCode::OK).await;
        assert_eq!(body["message"], "Two-factor sign-in is off");
        let me = json_of(app.get_as(&token, "/api/auth/verify").await, StatusCode::OK).await;
        assert_eq!(me["data"]["user"]["twoFactorEnabled"], false);
        assert_eq!(app.count("SELECT COUNT(*) FROM recovery_codes").await, 0);
        let body = json_of(app.login(email, PASSWORD).await, StatusCode::OK).await;
        assert!(body["data"]["token"].is_string() && body["data"].get("twoFactorRequired").is_none(), "{body}");
        let notice = app.mail.wait_for(email, 3).await.into_iter().last().unwrap();
        assert!(notice.subject().contains("turned off"), "{}", notice.subject());
        let again = json_of(off(PASSWORD, &app_code(&secret, 1)).await, StatusCode::CONFLICT).await;
        assert_eq!(again["message"], "Two-factor sign-in is not on");
    }
}

db_test! {
    async fn graphql_gives_the_same_two_steps(app: TestApp) {
        let email = "graph2fa@example.com";
        let (_, secret, _) = enrolled(&app, email).await;
        let login = "mutation($input: LoginInput!) { login(input: $input) { message token twoFactorRequired challenge user { email } } }";
        let body = app.graphql(None, login, json!({ "input": { "email": email, "password": PASSWORD } })).await;
        let step = &body["data"]["login"];
        assert_eq!(step["twoFactorRequired"], true, "{body}");
        assert!(step["token"].is_null() && step["user"].is_null());
        assert_eq!(step["message"], "Enter the code from your authenticator app");
        let complete = "mutation($input: TwoFactorLoginInput!) { completeTwoFactorLogin(input: $input) { message token user { email twoFactorEnabled } } }";
        let body = app.graphql(None, complete, json!({ "input": { "challenge": step["challenge"], "code": app_code(&secret, 1) } })).await;
        assert_eq!(body["data"]["completeTwoFactorLogin"]["user"]["twoFactorEnabled"], true, "{body}");

        // One authentication operation per request: of a batch of guesses on a real challenge,
        // one is checked and the other refused unread.
        let body = app.graphql(None, "mutation($input: LoginInput!) { login(input: $input) { challenge } }", json!({ "input": { "email": email, "password": PASSWORD } })).await;
        let live = body["data"]["login"]["challenge"].as_str().unwrap_or_else(|| panic!("{body}")).to_owned();
        let batch = "mutation($c: String!) { a: completeTwoFactorLogin(input: { challenge: $c, code: \"111111\" }) { message } b: completeTwoFactorLogin(input: { challenge: $c, code: \"222222\" }) { message } }";
        let body = app.graphql(None, batch, json!({ "c": live })).await;
        let messages: Vec<&str> = body["errors"].as_array().unwrap_or_else(|| panic!("{body}")).iter().map(|e| e["message"].as_str().unwrap()).collect();
        assert!(messages.contains(&"Only one sign-in or account operation is allowed per request"), "{body}");
        assert_eq!(app.count("SELECT COUNT(*) FROM two_factor_challenges WHERE failures = 1").await, 1, "one code checked: {body}");
    }
}

db_test! {
    async fn deleting_the_account_takes_its_codes_and_challenges(app: TestApp) {
        let email = "gone2fa@example.com";
        let (token, _, _) = enrolled(&app, email).await;
        challenge(&app, email).await;
        let me = json_of(app.get_as(&token, "/api/auth/verify").await, StatusCode::OK).await;
        let id = me["data"]["user"]["id"].as_str().unwrap().to_owned();
        json_of(app.delete_as(&token, &format!("/api/users/{id}")).await, StatusCode::OK).await;
        assert_eq!(app.count("SELECT COUNT(*) FROM recovery_codes").await, 0);
        assert_eq!(app.count("SELECT COUNT(*) FROM two_factor_challenges").await, 0);
    }
}

/// A second step sent as the account's password is reset: without the account locked through
/// the step, its challenge could be spent before the reset ended the second steps, and its
/// session written after the reset ended the sessions, a way in that outlived the reset. The
/// step now waits for the reset and finds its challenge gone, and the recovery code it
/// presented is not spent. PostgreSQL only: it is where the test can hold the reset open
/// until the step waits on it; SQLite runs the two writes one after the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_step_that_meets_a_reset_under_way_opens_no_session() {
    use sea_orm::{ConnectionTrait, TransactionTrait};

    let Some(app) = TestApp::spawn_postgres().await else {
        return;
    };
    let email = "reset-race@example.com";
    let (_, _, codes) = enrolled(&app, email).await;
    let challenge = challenge(&app, email).await;
    let mine = format!("user_id = (SELECT id FROM users WHERE email = '{email}')");
    // The reset as it is written: the account's row first, then its sessions and second steps.
    let reset = app.db.begin().await.unwrap();
    reset
        .execute_unprepared(&format!(
            "UPDATE users SET password_hash = 'replaced' WHERE email = '{email}'"
        ))
        .await
        .unwrap();
    let mut step = Box::pin(second_step(&app, &challenge, &codes[0]));
    crate::helpers::until_it_waits_on_a_lock(
        &app,
        step.as_mut(),
        "the second step did not wait for the reset",
    )
    .await;
    reset
        .execute_unprepared(&format!("DELETE FROM sessions WHERE {mine}"))
        .await
        .unwrap();
    reset
        .execute_unprepared(&format!("DELETE FROM two_factor_challenges WHERE {mine}"))
        .await
        .unwrap();
    reset.commit().await.unwrap();

    let refused = json_of(step.await, StatusCode::GONE).await;
    assert_eq!(
        refused["message"],
        "This sign-in has expired. Please sign in again."
    );
    assert_eq!(
        app.count(&format!("SELECT COUNT(*) FROM sessions WHERE {mine}"))
            .await,
        0,
        "no session after the reset"
    );
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) FROM recovery_codes WHERE {mine} AND used_at IS NULL"
        ))
        .await,
        10,
        "the recovery code is not spent"
    );
}
