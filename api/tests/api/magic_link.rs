//! Sign-in by a mailed link: the same answer for every well-formed email, one use within 15
//! minutes, the email verified by it, two-factor still asked, and the forgot-password throttle
//! shared.

use reqwest::StatusCode;
use serde_json::json;

use crate::{
    helpers::{PASSWORD, TestApp, json_of, token_after},
    two_factor::{app_code, enrolled},
};

const SENT: &str = "If an account exists for this email, a sign-in link has been sent.";

/// The token of the `nth` sign-in link mailed to `email` (other mails, such as codes and
/// notices, are passed over), waiting up to ten seconds for it.
async fn link_token(app: &TestApp, email: &str, nth: usize) -> String {
    for _ in 0..100 {
        let links: Vec<String> = app
            .mail
            .to(email)
            .await
            .iter()
            .filter_map(|mail| token_after(mail, "/magic-link/"))
            .collect();
        if let Some(token) = links.get(nth - 1) {
            return token.clone();
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no sign-in link number {nth} reached {email}");
}

async fn ask(app: &TestApp, email: &str) -> reqwest::Response {
    app.post("/api/auth/magic-link", json!({ "email": email })).await
}

db_test! {
    async fn another_site_cannot_sign_a_browser_in_with_its_own_link(app: TestApp) {
        // Login CSRF: a page of another site posts the attacker's own link from the victim's
        // browser with a bodiless `no-cors` fetch, which needs no preflight and sends no cookie.
        app.signed_up("attacker@example.com").await;
        json_of(ask(&app, "attacker@example.com").await, StatusCode::OK).await;
        let token = link_token(&app, "attacker@example.com", 1).await;
        let path = format!("/api/auth/magic-link/{token}");
        let attempts = [
            vec![("origin", "https://evil.example"), ("sec-fetch-site", "cross-site")],
            vec![("sec-fetch-site", "cross-site")],
            vec![("origin", "null")],
        ];
        for headers in attempts {
            let mut request = app.client.post(app.url(&path));
            for (name, value) in &headers {
                request = request.header(*name, *value);
            }
            let response = request.send().await.unwrap();
            assert!(response.headers().get("set-cookie").is_none(), "{headers:?}");
            let body = json_of(response, StatusCode::FORBIDDEN).await;
            assert_eq!(body["message"], "Cross-site request refused", "{headers:?}");
        }
        // The link is unused: from the site itself (or a client that is not a browser) it works.
        let signed_in = app.client.post(app.url(&path)).header("sec-fetch-site", "same-origin").send().await.unwrap();
        assert!(signed_in.headers().get("set-cookie").is_some());
        assert_eq!(json_of(signed_in, StatusCode::OK).await["message"], "Logged in successfully");
    }
}

db_test! {
    async fn a_link_signs_in_once_and_an_unknown_email_gets_the_same_answer(app: TestApp) {
        app.signed_up("link@example.com").await;
        let known = json_of(ask(&app, "Link@Example.com").await, StatusCode::OK).await;
        let unknown = json_of(ask(&app, "nobody@example.com").await, StatusCode::OK).await;
        assert_eq!(known, unknown, "the same body either way");
        assert_eq!(known["message"], SENT);
        // The address with no account is told so, with a way to register; no link is stored for it.
        let note = app.mail.wait_for("nobody@example.com", 1).await;
        assert!(!note[0].text().contains("/magic-link/"));
        assert_eq!(note[0].subject(), "Sign-in link requested for Talent Suite", "not a reset's note");
        assert!(note[0].text().contains("asked for a link to sign in to Talent Suite"), "{}", note[0].text());
        assert_eq!(app.count("SELECT COUNT(*) FROM sign_in_links").await, 1);

        let token = link_token(&app, "link@example.com", 1).await;
        assert_eq!(app.count(&format!("SELECT COUNT(*) FROM sign_in_links WHERE token_hash = '{token}'")).await, 0, "stored hashed");
        // The page first shows whose account the link opens, through either skin, and that
        // uses nothing: someone's own link sent to another person is seen for what it is.
        for _ in 0..2 {
            let shown = json_of(app.get(&format!("/api/auth/magic-link/{token}")).await, StatusCode::OK).await;
            assert_eq!(shown["data"]["email"], "link@example.com", "{shown}");
        }
        let gql = app.graphql(None, "query($token: String!) { magicLink(token: $token) { email } }", json!({ "token": token })).await;
        assert_eq!(gql["data"]["magicLink"]["email"], "link@example.com", "{gql}");
        assert_eq!(app.count("SELECT COUNT(*) FROM sign_in_links WHERE used_at IS NULL").await, 1);
        assert_eq!(app.count("SELECT COUNT(*) FROM sessions").await, 1, "the sign-up's only");
        let response = app.post(&format!("/api/auth/magic-link/{token}"), json!({})).await;
        assert!(response.headers().get_all("set-cookie").iter().any(|c| c.to_str().unwrap().starts_with("ts_session=")));
        let signed_in = json_of(response, StatusCode::OK).await;
        assert_eq!(signed_in["message"], "Logged in successfully");
        assert_eq!(signed_in["data"]["user"]["email"], "link@example.com");
        let session = signed_in["data"]["token"].as_str().unwrap();
        assert_eq!(app.get_as(session, "/api/auth/verify").await.status(), StatusCode::OK);

        let again = json_of(app.post(&format!("/api/auth/magic-link/{token}"), json!({})).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(again["message"], "Sign-in link is invalid");
        let forged = json_of(app.post("/api/auth/magic-link/not-a-token", json!({})).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(forged["message"], "Sign-in link is invalid");
        for used_or_forged in [token.as_str(), "not-a-token"] {
            let shown = json_of(app.get(&format!("/api/auth/magic-link/{used_or_forged}")).await, StatusCode::BAD_REQUEST).await;
            assert_eq!(shown["message"], "Sign-in link is invalid");
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'sign_in' AND detail = 'sign_in_link'").await, 1);
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'sign_in_link_requested'").await, 1);

        let bad = json_of(ask(&app, "not an email").await, StatusCode::BAD_REQUEST).await;
        assert_eq!(bad["errors"]["email"], "Invalid email format");
    }
}

db_test! {
    async fn an_expired_link_is_refused_and_a_pending_account_is_verified_by_one(app: TestApp) {
        assert_eq!(app.register("pending@example.com").await.status(), StatusCode::CREATED);
        assert_eq!(ask(&app, "pending@example.com").await.status(), StatusCode::OK);
        let token = link_token(&app, "pending@example.com", 1).await;
        let signed_in = json_of(app.post(&format!("/api/auth/magic-link/{token}"), json!({})).await, StatusCode::OK).await;
        assert_eq!(signed_in["data"]["user"]["status"], "active");
        assert_eq!(signed_in["data"]["user"]["emailVerified"], true);
        // Whoever registered the address may not be who reads it: the password set before the
        // proof no longer opens the account (as when Google vouches for a squatted address).
        let squatter = json_of(app.login("pending@example.com", PASSWORD).await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(squatter["message"], "Invalid email or password");

        assert_eq!(ask(&app, "pending@example.com").await.status(), StatusCode::OK);
        let late = link_token(&app, "pending@example.com", 2).await;
        app.sql("UPDATE sign_in_links SET expires_at = '2020-01-01 00:00:00+00:00' WHERE used_at IS NULL").await;
        let expired = json_of(app.post(&format!("/api/auth/magic-link/{late}"), json!({})).await, StatusCode::GONE).await;
        assert_eq!(expired["message"], "Sign-in link has expired");
        let shown = json_of(app.get(&format!("/api/auth/magic-link/{late}")).await, StatusCode::GONE).await;
        assert_eq!(shown["message"], "Sign-in link has expired");

        // A suspended account gets no link, and one mailed before the suspension opens nothing.
        assert_eq!(ask(&app, "pending@example.com").await.status(), StatusCode::OK);
        let before = link_token(&app, "pending@example.com", 3).await;
        app.sql("UPDATE users SET status = 'suspended' WHERE email = 'pending@example.com'").await;
        assert_eq!(app.post(&format!("/api/auth/magic-link/{before}"), json!({})).await.status(), StatusCode::FORBIDDEN);
        assert_eq!(ask(&app, "pending@example.com").await.status(), StatusCode::OK);
        // The first link went with what was dropped when it verified the account.
        assert_eq!(app.count("SELECT COUNT(*) FROM sign_in_links").await, 2);
    }
}

db_test! {
    async fn a_link_asked_for_from_a_page_of_this_site_brings_the_person_back_to_it(app: TestApp) {
        // "Confirm it's you" sent a person with no password to sign in again from /security.
        app.signed_up("back@example.com").await;
        let asked = app.post("/api/auth/magic-link", json!({ "email": "back@example.com", "redirect": "/security?tab=sessions" })).await;
        assert_eq!(json_of(asked, StatusCode::OK).await["message"], SENT);
        let token = link_token(&app, "back@example.com", 1).await;
        let mail = app.mail.wait_for("back@example.com", 2).await.pop().unwrap();
        assert!(
            mail.text().contains(&format!("/magic-link/{token}?redirect=%2Fsecurity%3Ftab%3Dsessions")),
            "{}",
            mail.text()
        );
        // Never another site, nor anything a browser could read as one; the same answer
        // whether or not the email has an account.
        for bad in ["//evil.example/", "https://evil.example/", "/\\evil.example", "security", "/a b"] {
            for email in ["back@example.com", "nobody@example.com"] {
                let refused = json_of(app.post("/api/auth/magic-link", json!({ "email": email, "redirect": bad })).await, StatusCode::BAD_REQUEST).await;
                assert_eq!(refused["errors"]["redirect"], "Redirect must be a page of this site, such as /security", "{bad}");
            }
        }
        // With a bad email too, both are named at once, in REST and in GraphQL; nothing was
        // counted against the address.
        let both = json_of(app.post("/api/auth/magic-link", json!({ "email": "bad", "redirect": "//evil" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(both["errors"], json!({ "email": "Invalid email format", "redirect": "Redirect must be a page of this site, such as /security" }), "{both}");
        let gql = app.graphql(None, "mutation($input: MagicLinkInput!) { requestMagicLink(input: $input) { message } }", json!({ "input": { "email": "", "redirect": "https://evil.example/" } })).await;
        assert_eq!(gql["errors"][0]["extensions"]["errors"], json!({ "email": "Email is required", "redirect": "Redirect must be a page of this site, such as /security" }), "{gql}");
        assert_eq!(app.count("SELECT COUNT(*) FROM sign_in_links").await, 1);
        // Null is no redirect, as the contract says (the fuzzer sent it).
        let none = app.post("/api/auth/magic-link", json!({ "email": "nobody@example.com", "redirect": null })).await;
        assert_eq!(json_of(none, StatusCode::OK).await["message"], SENT);
        let doc = json_of(app.get("/api/openapi.json").await, StatusCode::OK).await;
        let rule = &doc["paths"]["/auth/magic-link"]["post"]["requestBody"]["content"]["application/json"]["schema"]["properties"]["redirect"];
        assert_eq!(rule["type"], json!(["string", "null"]), "{rule}");
        let pattern = regex::Regex::new(rule["pattern"].as_str().unwrap()).unwrap();
        assert!(pattern.is_match("/security?tab=sessions") && pattern.is_match(""), "{rule}");
        for bad in ["//evil.example/", "/\\evil.example", "security", "/a b"] {
            assert!(!pattern.is_match(bad), "{bad} against {rule}");
        }
        // GraphQL takes it too.
        let gql = app.graphql(None, "mutation($input: MagicLinkInput!) { requestMagicLink(input: $input) { message } }", json!({ "input": { "email": "back@example.com", "redirect": "/security" } })).await;
        assert_eq!(gql["data"]["requestMagicLink"]["message"], SENT, "{gql}");
        let second = link_token(&app, "back@example.com", 2).await;
        let mails = app.mail.wait_for("back@example.com", 3).await;
        assert!(mails[2].text().contains(&format!("/magic-link/{second}?redirect=%2Fsecurity")), "{}", mails[2].text());
    }
}

db_test! {
    async fn two_factor_still_asks_for_its_code_after_a_link(app: TestApp) {
        let (_, secret, _) = enrolled(&app, "guarded@example.com").await;
        assert_eq!(ask(&app, "guarded@example.com").await.status(), StatusCode::OK);
        let token = link_token(&app, "guarded@example.com", 1).await;
        // The link alone opens nothing here, so its page shows the address masked: a link
        // seen by someone else (a log, a forwarded mail) does not tell them whose it is.
        let shown = json_of(app.get(&format!("/api/auth/magic-link/{token}")).await, StatusCode::OK).await;
        assert_eq!(shown["data"]["email"], "g•••@example.com", "{shown}");
        let step = json_of(app.post(&format!("/api/auth/magic-link/{token}"), json!({})).await, StatusCode::OK).await;
        assert_eq!(step["data"]["twoFactorRequired"], true);
        assert!(step["data"].get("token").is_none(), "no session before the code");
        let challenge = step["data"]["challenge"].as_str().unwrap();
        let done = json_of(
            app.post("/api/auth/login/two-factor", json!({ "challenge": challenge, "code": app_code(&secret, 1) })).await,
            StatusCode::OK,
        )
        .await;
        assert!(done["data"]["token"].is_string());
    }
}

db_test! {
    async fn links_and_reset_requests_share_one_throttle_and_a_reset_kills_old_links(app: TestApp) {
        app.signed_up("busy@example.com").await;
        for _ in 0..3 {
            assert_eq!(ask(&app, "busy@example.com").await.status(), StatusCode::OK);
        }
        for _ in 0..2 {
            assert_eq!(app.post("/api/auth/forgot-password", json!({ "email": "busy@example.com" })).await.status(), StatusCode::OK);
        }
        let refused = ask(&app, "busy@example.com").await;
        assert!(refused.headers().contains_key("retry-after"));
        assert_eq!(json_of(refused, StatusCode::TOO_MANY_REQUESTS).await["code"], "RATE_LIMITED");
        // The same for an email with no account.
        for _ in 0..5 {
            assert_eq!(ask(&app, "ghost@example.com").await.status(), StatusCode::OK);
        }
        assert_eq!(ask(&app, "ghost@example.com").await.status(), StatusCode::TOO_MANY_REQUESTS);

        // A password reset ends the links mailed before it.
        let link = link_token(&app, "busy@example.com", 1).await;
        let mails = app.mail.wait_for("busy@example.com", 6).await;
        let reset = crate::helpers::reset_token_in(mails.iter().rev().find(|m| m.text().contains("/reset-password/")).unwrap());
        assert_eq!(app.post(&format!("/api/auth/reset-password/{reset}"), json!({ "password": "brandNewRiver7" })).await.status(), StatusCode::OK);
        assert_eq!(app.post(&format!("/api/auth/magic-link/{link}"), json!({})).await.status(), StatusCode::BAD_REQUEST);
    }
}

db_test! {
    async fn a_cross_site_form_cannot_use_a_link_and_twenty_parallel_uses_sign_in_once(app: TestApp) {
        app.signed_up("target@example.com").await;
        // A form from another site (no JSON) neither asks for links nor spends one.
        for content_type in ["text/plain", "application/x-www-form-urlencoded"] {
            let asked = app.client.post(app.url("/api/auth/magic-link")).header("content-type", content_type)
                .header("origin", "https://evil.example").body("email=target@example.com").send().await.unwrap();
            assert_eq!(asked.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE, "{content_type}");
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM sign_in_links").await, 0);
        assert_eq!(ask(&app, "target@example.com").await.status(), StatusCode::OK);
        let token = link_token(&app, "target@example.com", 1).await;
        let path = format!("/api/auth/magic-link/{token}");
        for content_type in ["text/plain", "application/x-www-form-urlencoded"] {
            let used = app.client.post(app.url(&path)).header("content-type", content_type)
                .header("origin", "https://evil.example").body("x=1").send().await.unwrap();
            assert_eq!(used.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE, "{content_type}");
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM sign_in_links WHERE used_at IS NULL").await, 1, "still unused");

        let answers = futures::future::join_all((0..20).map(|_| app.post(&path, json!({})))).await;
        let statuses: Vec<StatusCode> = answers.iter().map(reqwest::Response::status).collect();
        assert_eq!(statuses.iter().filter(|s| **s == StatusCode::OK).count(), 1, "{statuses:?}");
        assert!(statuses.iter().all(|s| *s == StatusCode::OK || *s == StatusCode::BAD_REQUEST), "{statuses:?}");
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'sign_in' AND detail = 'sign_in_link'").await, 1);
    }
}

db_test! {
    async fn a_deleted_account_leaves_no_link_behind(app: TestApp) {
        let session = app.signed_up("gone@example.com").await;
        assert_eq!(ask(&app, "gone@example.com").await.status(), StatusCode::OK);
        let token = link_token(&app, "gone@example.com", 1).await;
        let me = json_of(app.get_as(&session, "/api/auth/verify").await, StatusCode::OK).await;
        let id = me["data"]["user"]["id"].as_str().unwrap();
        assert_eq!(app.delete_as(&session, &format!("/api/users/{id}")).await.status(), StatusCode::OK);
        assert_eq!(app.count("SELECT COUNT(*) FROM sign_in_links").await, 0);
        assert_eq!(app.post(&format!("/api/auth/magic-link/{token}"), json!({})).await.status(), StatusCode::BAD_REQUEST);
    }
}
