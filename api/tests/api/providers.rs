//! LinkedIn, Microsoft and GitHub: the popup flow against stand-in providers (the same code
//! that talks to the real ones), the tickets, joining accounts by a vouched email only, and the
//! connected accounts with their last-way-in rule.

use reqwest::{StatusCode, redirect::Policy};
use serde_json::{Value, json};

use crate::{
    helpers::{Backend, TestApp, exactly_one_won, json_of, reset_token_in, token_after},
    idp::{Identity, Idp},
};

async fn spawn_with_providers(backend: Backend) -> (TestApp, Idp) {
    let idp = Idp::start().await;
    let mut builder = TestApp::builder(backend);
    let tenant_issuer = format!("{}/{{tid}}/v2.0", idp.origin);
    let vars = idp
        .openid_env("LINKEDIN", &idp.origin)
        .into_iter()
        .chain(idp.openid_env("MICROSOFT", &tenant_issuer))
        .chain(idp.github_env());
    for (name, value) in vars {
        builder = builder.env(name, &value);
    }
    (builder.start().await, idp)
}

macro_rules! providers_test {
    (async fn $name:ident($app:ident, $idp:ident) $body:block) => {
        mod $name {
            use super::*;

            async fn run($app: TestApp, $idp: Idp) $body

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_sqlite() {
                let (app, idp) = spawn_with_providers(Backend::Sqlite).await;
                run(app, idp).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_postgres() {
                if TestApp::postgres_configured() {
                    let (app, idp) = spawn_with_providers(Backend::Postgres).await;
                    run(app, idp).await;
                }
            }
        }
    };
}

fn who(sub: &str, email: &str) -> Identity {
    Identity {
        sub: sub.to_owned(),
        email: email.to_owned(),
        name: "Ada Lovelace".to_owned(),
    }
}

/// A tenant's token claims for the stand-in Microsoft.
fn tenant(idp: &Idp, tid: &str, domain_verified: bool) -> Value {
    json!({ "iss": format!("{}/{tid}/v2.0", idp.origin), "tid": tid, "xms_edov": domain_verified })
}

/// How the test spoils a popup on its way back.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Back {
    AsIs,
    ForgedState,
    Denied,
}

/// Start → provider → callback, as the popup does; the message the page posts to the opener.
async fn popup(app: &TestApp, provider: &str, query: &str, back: Back) -> Value {
    let client = reqwest::Client::builder()
        .redirect(Policy::none())
        .build()
        .unwrap();
    let start = client
        .get(app.url(&format!("/api/auth/{provider}/start?{query}")))
        .send()
        .await
        .unwrap();
    assert!(start.status().is_redirection(), "{}", start.status());
    let cookie = start.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains(&format!("Path=/api/auth/{provider}")),
        "{cookie}"
    );
    let authorize = url::Url::parse(start.headers()["location"].to_str().unwrap()).unwrap();
    let params: std::collections::HashMap<_, _> = authorize.query_pairs().into_owned().collect();
    assert_eq!(params["code_challenge_method"], "S256");
    assert_eq!(
        params["redirect_uri"],
        format!("http://main.test/api/auth/{provider}/callback")
    );
    if provider == "github" {
        assert!(params["scope"].contains("user:email"), "{}", params["scope"]);
    } else {
        assert!(params["scope"].contains("openid") && !params["nonce"].is_empty());
    }
    let back_from = client.get(authorize.as_str()).send().await.unwrap();
    let location = url::Url::parse(back_from.headers()["location"].to_str().unwrap()).unwrap();
    // The browser would be on the main site; the test talks to the server directly.
    let mut callback = url::Url::parse(&app.url(location.path())).unwrap();
    let code = location
        .query_pairs()
        .find(|(k, _)| k == "code")
        .unwrap()
        .1
        .into_owned();
    let state = location
        .query_pairs()
        .find(|(k, _)| k == "state")
        .unwrap()
        .1
        .into_owned();
    match back {
        Back::AsIs => callback
            .query_pairs_mut()
            .append_pair("code", &code)
            .append_pair("state", &state),
        Back::ForgedState => callback
            .query_pairs_mut()
            .append_pair("code", &code)
            .append_pair("state", "forged"),
        Back::Denied => callback
            .query_pairs_mut()
            .append_pair("error", "access_denied")
            .append_pair("state", &state),
    };
    let page = client
        .get(callback.as_str())
        .header("cookie", cookie.split(';').next().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.unwrap();
    let start = page.find("id=\"oauth-result\">").expect("the result element") + "id=\"oauth-result\">".len();
    let end = start + page[start..].find("</script>").unwrap();
    let message: Value = serde_json::from_str(&page[start..end]).unwrap();
    assert_eq!(message["provider"], provider);
    message
}

/// A ticket from a popup that must succeed.
async fn ticket(app: &TestApp, provider: &str, query: &str) -> String {
    let message = popup(app, provider, query, Back::AsIs).await;
    assert_eq!(message["type"], "oauth-result", "{message}");
    message["ticket"].as_str().unwrap().to_owned()
}

providers_test! {
    async fn github_registers_signs_in_and_is_the_last_way_in(app, idp) {
        idp.sign_in_as(who("4242", "Octo@Example.com"));
        let t = ticket(&app, "github", "intent=register&role=hire").await;
        let body = json_of(app.post("/api/auth/oauth/register", json!({ "ticket": t, "role": "hire" })).await, StatusCode::CREATED).await;
        assert_eq!(body["message"], "Registered successfully");
        let user = &body["data"]["user"];
        assert_eq!(user["email"], "octo@example.com");
        assert_eq!(user["emailVerified"], true);
        assert_eq!(user["role"], "hire");
        let session = body["data"]["token"].as_str().unwrap().to_owned();

        // A ticket is good once.
        let again = json_of(app.post("/api/auth/oauth/login", json!({ "ticket": t })).await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(again["message"], "Sign-in could not be completed");

        idp.sign_in_as(who("4242", "octo@example.com"));
        let t = ticket(&app, "github", "intent=login").await;
        let login = json_of(app.post("/api/auth/oauth/login", json!({ "ticket": t })).await, StatusCode::OK).await;
        assert_eq!(login["message"], "Logged in successfully");
        assert_eq!(login["data"]["user"]["id"], user["id"]);

        let list = json_of(app.get_as(&session, "/api/users/identities").await, StatusCode::OK).await;
        assert_eq!(list["data"]["items"].as_array().unwrap().len(), 1);
        assert_eq!(list["data"]["items"][0]["provider"], "github");
        assert_eq!(list["data"]["items"][0]["email"], "Octo@Example.com");
        // No password, no passkey, no other provider: GitHub is the only way in.
        let last = json_of(app.delete_as(&session, "/api/users/identities/github").await, StatusCode::CONFLICT).await;
        assert_eq!(last["message"], "Add a password or another sign-in method first");
        let none = json_of(app.delete_as(&session, "/api/users/identities/linkedin").await, StatusCode::NOT_FOUND).await;
        assert_eq!(none["message"], "No LinkedIn account is connected");
        assert_eq!(app.delete_as(&session, "/api/users/identities/myspace").await.status(), StatusCode::NOT_FOUND);
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'sign_in' AND detail = 'github'").await, 1);
    }
}

providers_test! {
    async fn a_providers_name_is_cleaned_as_the_form_would_refuse_it(app, idp) {
        // A provider's profile is not typed into our form: what the form refuses (a NUL, a line
        // break, a direction override that shows "gnp.exe" as "exe.png", over 100 characters)
        // is left out rather than stored, and the account is still made.
        let long = "Ada ".repeat(40);
        for (sub, email, given, stored) in [
            ("5001", "nul@example.com", "Ada\u{0}\nLove\u{202e}lace", "Ada Lovelace".to_owned()),
            ("5002", "blank@example.com", "\u{200b}\t\u{0}", "blank".to_owned()),
            ("5003", "long@example.com", long.as_str(), long[..99].to_owned()),
        ] {
            idp.sign_in_as(Identity { sub: sub.to_owned(), email: email.to_owned(), name: given.to_owned() });
            let t = ticket(&app, "github", "intent=register&role=career").await;
            let body = json_of(app.post("/api/auth/oauth/register", json!({ "ticket": t, "role": "career" })).await, StatusCode::CREATED).await;
            assert_eq!(body["data"]["user"]["name"], stored.as_str(), "{given:?}");
            let token = body["data"]["token"].as_str().unwrap();
            let me = app.graphql(Some(token), "{ me { name } }", json!({})).await;
            assert_eq!(me["data"]["me"]["name"], stored.as_str());
        }
        // An address that is none is told in the popup, not later as a ticket that fails.
        for email in ["not-an-email", &format!("{}@example.com", "a".repeat(300))] {
            idp.sign_in_as(Identity { sub: "5004".to_owned(), email: email.to_owned(), name: "Ada".to_owned() });
            let message = popup(&app, "github", "intent=register&role=career", Back::AsIs).await;
            assert_eq!(message, json!({ "type": "oauth-error", "provider": "github", "code": "email-unavailable" }), "{email}");
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM provider_tickets").await, 0, "each used, none left by the refused two");
    }
}

providers_test! {
    async fn linkedin_joins_the_account_of_a_vouched_email_and_tells_its_owner(app, idp) {
        let session = app.signed_up("ada@example.com").await;
        idp.sign_in_as(who("li-1", "ada@example.com"));
        let t = ticket(&app, "linkedin", "intent=login").await;
        let login = json_of(app.post("/api/auth/oauth/login", json!({ "ticket": t })).await, StatusCode::OK).await;
        assert_eq!(login["data"]["user"]["email"], "ada@example.com");
        let mail = app.mail.wait_for("ada@example.com", 2).await;
        assert!(mail.iter().any(|m| m.text().contains("LinkedIn sign-in was just linked")), "the owner is told");
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'identity_connected'").await, 1);

        // With a password the account keeps a way in: LinkedIn may go, once the session has
        // proven itself recently (a stolen one cannot strip the ways in).
        crate::second_factor_limits::stale_sign_in(&app).await;
        let stale = json_of(app.delete_as(&session, "/api/users/identities/linkedin").await, StatusCode::FORBIDDEN).await;
        assert_eq!(stale["code"], "REAUTHENTICATION_REQUIRED", "{stale}");
        json_of(app.post_as(&session, "/api/auth/reauthenticate", json!({ "password": crate::helpers::PASSWORD })).await, StatusCode::OK).await;
        let gone = json_of(app.delete_as(&session, "/api/users/identities/linkedin").await, StatusCode::OK).await;
        assert_eq!(gone["message"], "LinkedIn account disconnected");
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'identity_disconnected'").await, 1);

        // An email LinkedIn does not vouch for joins nothing.
        idp.with_claims(json!({ "email_verified": false }));
        let t = ticket(&app, "linkedin", "intent=login").await;
        let refused = json_of(app.post("/api/auth/oauth/login", json!({ "ticket": t })).await, StatusCode::NOT_FOUND).await;
        assert_eq!(refused["message"], "No account found for this LinkedIn email. Please register first.");
    }
}

providers_test! {
    async fn a_suspended_account_is_joined_to_no_provider_and_mailed_nothing(app, idp) {
        app.signed_up("held@example.com").await;
        app.register("held-pending@example.com").await;
        app.sql("UPDATE users SET status = 'suspended' WHERE email LIKE 'held%'").await;
        app.mail_settled().await;
        let held_mail = || async { app.mail.all().await.into_iter().filter(|m| m.to.iter().any(|to| to.starts_with("held"))).count() };
        let mails_before = held_mail().await;
        for (subject, email) in [("li-held", "held@example.com"), ("li-held-pending", "held-pending@example.com")] {
            idp.sign_in_as(who(subject, email));
            let t = ticket(&app, "linkedin", "intent=login").await;
            let refused = json_of(app.post("/api/auth/oauth/login", json!({ "ticket": t })).await, StatusCode::FORBIDDEN).await;
            assert_eq!(refused["message"], "This account has been suspended", "{email}");
        }
        // Nothing changed: no identity (a way in that would outlast the restore), the pending
        // account neither verified nor stripped of its password, no notice.
        assert_eq!(app.count("SELECT COUNT(*) FROM identities").await, 0);
        assert_eq!(app.count("SELECT COUNT(*) FROM users WHERE email = 'held-pending@example.com' AND email_verified = false AND password_hash IS NOT NULL").await, 1);
        app.mail_settled().await;
        assert_eq!(held_mail().await, mails_before, "the suspended are mailed nothing");
    }
}

providers_test! {
    async fn microsoft_is_trusted_only_from_its_tenant_and_for_a_verified_domain(app, idp) {
        let victim = app.signed_up("victim@contoso.test").await;
        // A tenant whose admins typed the victim's address: the domain is not verified.
        idp.with_claims(tenant(&idp, "tenant-a", false));
        idp.sign_in_as(who("ms-attacker", "victim@contoso.test"));
        let t = ticket(&app, "microsoft", "intent=login").await;
        let refused = json_of(app.post("/api/auth/oauth/login", json!({ "ticket": t })).await, StatusCode::NOT_FOUND).await;
        assert_eq!(refused["message"], "No account found for this Microsoft email. Please register first.");
        let t = ticket(&app, "microsoft", "intent=register&role=career").await;
        let taken = json_of(app.post("/api/auth/oauth/register", json!({ "ticket": t, "role": "career" })).await, StatusCode::CONFLICT).await;
        assert_eq!(taken["message"], "An account with this email already exists");
        let identities = json_of(app.get_as(&victim, "/api/users/identities").await, StatusCode::OK).await;
        assert_eq!(identities["data"]["items"], json!([]), "the victim's account was not joined");

        // A token naming another tenant than its issuer's, or from another issuer: refused.
        idp.with_claims(json!({ "iss": format!("{}/tenant-a/v2.0", idp.origin), "tid": "tenant-b", "xms_edov": true }));
        let message = popup(&app, "microsoft", "intent=login", Back::AsIs).await;
        assert_eq!(message, json!({ "type": "oauth-error", "provider": "microsoft", "code": "invalid-token" }));
        idp.with_claims(json!({ "iss": "https://evil.example/tenant-a/v2.0", "tid": "tenant-a", "xms_edov": true }));
        assert_eq!(popup(&app, "microsoft", "intent=login", Back::AsIs).await["code"], "invalid-token");

        // The domain's owner verified it: the same address now joins.
        idp.with_claims(tenant(&idp, "tenant-a", true));
        idp.sign_in_as(who("ms-victim", "victim@contoso.test"));
        let t = ticket(&app, "microsoft", "intent=login").await;
        json_of(app.post("/api/auth/oauth/login", json!({ "ticket": t })).await, StatusCode::OK).await;
    }
}

providers_test! {
    async fn the_flow_refuses_a_forged_state_a_wrong_nonce_or_audience_and_a_stale_ticket(app, idp) {
        idp.sign_in_as(who("li-2", "grace@example.com"));
        let forged = popup(&app, "linkedin", "intent=login", Back::ForgedState).await;
        assert_eq!(forged["code"], "state-mismatch");
        let denied = popup(&app, "github", "intent=login", Back::Denied).await;
        assert_eq!(denied["code"], "access-denied");
        idp.with_claims(json!({ "aud": "someone-else" }));
        assert_eq!(popup(&app, "linkedin", "intent=login", Back::AsIs).await["code"], "invalid-token");
        idp.with_claims(json!({}));
        idp.lie_about_nonce("not-the-nonce");
        assert_eq!(popup(&app, "linkedin", "intent=login", Back::AsIs).await["code"], "invalid-token");

        // A ticket past its five minutes.
        let t = ticket(&app, "github", "intent=login").await;
        app.sql("UPDATE provider_tickets SET expires_at = '2020-01-01 00:00:00+00:00'").await;
        let late = json_of(app.post("/api/auth/oauth/login", json!({ "ticket": t })).await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(late["message"], "Sign-in could not be completed");
        assert_eq!(app.post("/api/auth/oauth/login", json!({ "ticket": "made-up" })).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.post("/api/auth/oauth/login", json!({})).await.status(), StatusCode::UNAUTHORIZED);

        // Google keeps its own calls; an unknown provider has no flow.
        let client = reqwest::Client::builder().redirect(Policy::none()).build().unwrap();
        let unknown = client.get(app.url("/api/auth/myspace/start")).send().await.unwrap();
        assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
        let bad_intent = client.get(app.url("/api/auth/github/start?intent=steal")).send().await.unwrap();
        assert_eq!(bad_intent.status(), StatusCode::BAD_REQUEST);
    }
}

providers_test! {
    async fn an_identity_connects_to_one_account_only_and_an_unvouched_email_registers_pending(app, idp) {
        let first = app.signed_up("first@example.com").await;
        idp.sign_in_as(who("777", "first@example.com"));
        let t = ticket(&app, "github", "intent=link").await;
        let linked = json_of(app.post_as(&first, "/api/auth/oauth/link", json!({ "ticket": t })).await, StatusCode::OK).await;
        assert_eq!(linked["message"], "GitHub account connected");
        // A connected account outlives a password reset, so the owner hears of it.
        let notice = app.mail.wait_for("first@example.com", 2).await.pop().unwrap();
        assert_eq!(notice.subject(), "GitHub sign-in was added to your Talent Suite account");
        assert!(notice.text().contains("the GitHub account that was connected can sign in"), "{}", notice.text());
        // Signed out, connecting is refused before the ticket is looked at.
        let t = ticket(&app, "github", "intent=link").await;
        assert_eq!(app.post("/api/auth/oauth/link", json!({ "ticket": t })).await.status(), StatusCode::UNAUTHORIZED);

        let second = app.signed_up("second@example.com").await;
        let t = ticket(&app, "github", "intent=link").await;
        let taken = json_of(app.post_as(&second, "/api/auth/oauth/link", json!({ "ticket": t })).await, StatusCode::CONFLICT).await;
        assert_eq!(taken["message"], "This GitHub account is already connected to another account");

        // GitHub with no verified primary address: a new account waits for its code.
        idp.with_github_emails(json!([{ "email": "fresh@example.com", "primary": true, "verified": false }]));
        idp.sign_in_as(who("888", "fresh@example.com"));
        let t = ticket(&app, "github", "intent=register&role=career").await;
        let pending = json_of(app.post("/api/auth/oauth/register", json!({ "ticket": t, "role": "career" })).await, StatusCode::CREATED).await;
        assert_eq!(pending["data"]["user"]["status"], "pending");
        assert!(pending["data"].get("token").is_none(), "{pending}");
        let t = ticket(&app, "github", "intent=login").await;
        let unverified = json_of(app.post("/api/auth/oauth/login", json!({ "ticket": t })).await, StatusCode::FORBIDDEN).await;
        assert_eq!(unverified["message"], "Please verify your email before signing in");

        // Nor does such an address open someone else's account.
        idp.with_github_emails(json!([{ "email": "second@example.com", "primary": true, "verified": false }]));
        idp.sign_in_as(who("999", "second@example.com"));
        let t = ticket(&app, "github", "intent=login").await;
        assert_eq!(app.post("/api/auth/oauth/login", json!({ "ticket": t })).await.status(), StatusCode::NOT_FOUND);

        // The password account may disconnect what it connected.
        let gone = json_of(app.delete_as(&first, "/api/users/identities/github").await, StatusCode::OK).await;
        assert_eq!(gone["message"], "GitHub account disconnected");
    }
}

providers_test! {
    async fn a_squatters_unvouched_identity_goes_when_the_owner_proves_the_email(app, idp) {
        // The squatter registers each address through GitHub, which does not vouch for it, and
        // waits for the owner to prove the address: by a reset link, then by a sign-in link.
        idp.with_github_emails(json!([{ "email": "reset@example.com", "primary": true, "verified": false }]));
        idp.sign_in_as(who("666", "reset@example.com"));
        let t = ticket(&app, "github", "intent=register&role=career").await;
        json_of(app.post("/api/auth/oauth/register", json!({ "ticket": t, "role": "career" })).await, StatusCode::CREATED).await;
        json_of(app.post("/api/auth/forgot-password", json!({ "email": "reset@example.com" })).await, StatusCode::OK).await;
        let reset = reset_token_in(&app.mail.wait_for("reset@example.com", 1).await[0]);
        json_of(app.post(&format!("/api/auth/reset-password/{reset}"), json!({ "password": "ownerpass42" })).await, StatusCode::OK).await;

        idp.with_github_emails(json!([{ "email": "link@example.com", "primary": true, "verified": false }]));
        idp.sign_in_as(who("667", "link@example.com"));
        let t = ticket(&app, "github", "intent=register&role=career").await;
        json_of(app.post("/api/auth/oauth/register", json!({ "ticket": t, "role": "career" })).await, StatusCode::CREATED).await;
        json_of(app.post("/api/auth/magic-link", json!({ "email": "link@example.com" })).await, StatusCode::OK).await;
        let mail = app.mail.wait_for("link@example.com", 1).await;
        let link = token_after(&mail[0], "/magic-link/").unwrap();
        json_of(app.post(&format!("/api/auth/magic-link/{link}"), json!({})).await, StatusCode::OK).await;

        for (subject, email) in [("666", "reset@example.com"), ("667", "link@example.com")] {
            idp.with_github_emails(json!([{ "email": email, "primary": true, "verified": false }]));
            idp.sign_in_as(who(subject, email));
            let t = ticket(&app, "github", "intent=login").await;
            let refused = app.post("/api/auth/oauth/login", json!({ "ticket": t })).await;
            assert_eq!(refused.status(), StatusCode::NOT_FOUND, "{email}: the squatter's GitHub opens nothing");
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM identities").await, 0);
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'identity_disconnected'").await, 2);
        json_of(app.login("reset@example.com", "ownerpass42").await, StatusCode::OK).await;
    }
}

providers_test! {
    async fn the_owners_vouched_provider_account_takes_the_address_back_from_a_squatters_at_that_provider(app, idp) {
        // The squatter registers the owner's address through GitHub, which does not vouch for it.
        idp.with_github_emails(json!([{ "email": "owner@example.com", "primary": true, "verified": false }]));
        idp.sign_in_as(who("666", "owner@example.com"));
        let t = ticket(&app, "github", "intent=register&role=career").await;
        json_of(app.post("/api/auth/oauth/register", json!({ "ticket": t, "role": "career" })).await, StatusCode::CREATED).await;
        // The owner's own GitHub account vouches for the address: it signs in, to the account
        // of that address, and the squatter's identity goes.
        idp.with_github_emails(json!([{ "email": "owner@example.com", "primary": true, "verified": true }]));
        idp.sign_in_as(who("4242", "owner@example.com"));
        let t = ticket(&app, "github", "intent=login").await;
        let owner = json_of(app.post("/api/auth/oauth/login", json!({ "ticket": t })).await, StatusCode::OK).await;
        assert_eq!(owner["data"]["user"]["email"], "owner@example.com");
        assert_eq!(owner["data"]["user"]["emailVerified"], true);
        assert_eq!(app.count("SELECT COUNT(*) FROM identities WHERE subject = '4242'").await, 1);
        assert_eq!(app.count("SELECT COUNT(*) FROM identities WHERE subject = '666'").await, 0);
        // The squatter's GitHub opens nothing now.
        idp.with_github_emails(json!([{ "email": "owner@example.com", "primary": true, "verified": false }]));
        idp.sign_in_as(who("666", "owner@example.com"));
        let t = ticket(&app, "github", "intent=login").await;
        assert_eq!(app.post("/api/auth/oauth/login", json!({ "ticket": t })).await.status(), StatusCode::NOT_FOUND);
    }
}

providers_test! {
    async fn graphql_spends_tickets_and_lists_identities_alike(app, idp) {
        idp.sign_in_as(who("li-9", "gql@example.com"));
        let t = ticket(&app, "linkedin", "intent=register&role=campus").await;
        let registered = app.graphql(
            None,
            "mutation($input: TicketRegisterInput!) { oauthRegister(input: $input) { message token user { email emailVerified } } }",
            json!({ "input": { "ticket": t, "role": "campus" } }),
        ).await;
        assert_eq!(registered["data"]["oauthRegister"]["message"], "Registered successfully", "{registered}");
        assert_eq!(registered["data"]["oauthRegister"]["user"]["emailVerified"], true);
        let token = registered["data"]["oauthRegister"]["token"].as_str().unwrap().to_owned();
        let listed = app.graphql(Some(&token), "{ identities { provider email } }", json!({})).await;
        assert_eq!(listed["data"]["identities"], json!([{ "provider": "linkedin", "email": "gql@example.com" }]));
        let last = app.graphql(Some(&token), "mutation { disconnectIdentity(provider: \"linkedin\") { message } }", json!({})).await;
        assert_eq!(last["errors"][0]["message"], "Add a password or another sign-in method first");
        assert_eq!(last["errors"][0]["extensions"]["code"], "CONFLICT");
        let reused = app.graphql(None, "mutation($input: TicketInput!) { oauthLogin(input: $input) { message } }", json!({ "input": { "ticket": t } })).await;
        assert_eq!(reused["errors"][0]["message"], "Sign-in could not be completed");
    }
}

providers_test! {
    async fn twenty_spends_of_one_ticket_at_once_open_one_session_and_deletion_takes_the_identity(app, idp) {
        idp.sign_in_as(who("777", "race@example.com"));
        let t = ticket(&app, "github", "intent=register&role=career").await;
        let body = json_of(app.post("/api/auth/oauth/register", json!({ "ticket": t, "role": "career" })).await, StatusCode::CREATED).await;
        let session = body["data"]["token"].as_str().unwrap().to_owned();
        let user_id = body["data"]["user"]["id"].as_str().unwrap().to_owned();

        let t = ticket(&app, "github", "intent=login").await;
        let before = app.count("SELECT COUNT(*) FROM sessions").await;
        let answers = futures::future::join_all(
            (0..20).map(|_| app.post("/api/auth/oauth/login", json!({ "ticket": t }))),
        )
        .await;
        exactly_one_won(&answers, StatusCode::UNAUTHORIZED);
        assert_eq!(app.count("SELECT COUNT(*) FROM sessions").await, before + 1);

        // A form on another site cannot spend a ticket: it can only send text/plain.
        let cross_site = app
            .client
            .post(app.url("/api/auth/oauth/login"))
            .header("content-type", "text/plain")
            .header("origin", "https://evil.example")
            .body(format!("{{\"ticket\":\"{t}\"}}"))
            .send()
            .await
            .unwrap();
        assert_eq!(cross_site.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);

        // Deleting the account takes its identity: the same GitHub account registers anew.
        json_of(app.delete_as(&session, &format!("/api/users/{user_id}")).await, StatusCode::OK).await;
        assert_eq!(app.count("SELECT COUNT(*) FROM identities").await, 0);
        idp.sign_in_as(who("777", "race@example.com"));
        let t = ticket(&app, "github", "intent=register&role=career").await;
        let again = json_of(app.post("/api/auth/oauth/register", json!({ "ticket": t, "role": "career" })).await, StatusCode::CREATED).await;
        assert_ne!(again["data"]["user"]["id"], user_id);
    }
}
