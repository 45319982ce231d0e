//! Passkeys through the real server, with webauthn-rs's software authenticator playing the
//! browser and its platform authenticator: adding, listing, renaming and removing passkeys,
//! signing in with one, and what an attacker tries (another origin, a replayed assertion, a
//! cloned key's sign count, another account's credential, a late finish, a second instance).

use reqwest::StatusCode;
use serde_json::{Value, json};
use webauthn_authenticator_rs::{WebauthnAuthenticator, softpasskey::SoftPasskey};
use webauthn_rs_proto::{CreationChallengeResponse, RequestChallengeResponse};

use crate::helpers::{Builder, TestApp, exactly_one_won, json_of, reset_token_in};
use crate::two_factor::enrolled;

/// The site the passkeys belong to. WebAuthn needs a host name: `localhost` is the one a
/// browser accepts over plain HTTP.
const SITE: &str = "http://localhost:5173";

fn on_the_site(builder: Builder) -> Builder {
    builder.env("MAIN_PLATFORM_URL", SITE)
}

fn url(origin: &str) -> url::Url {
    url::Url::parse(origin).unwrap()
}

/// A browser with a platform authenticator that keeps its passkeys (discoverable credentials).
/// webauthn-rs's `SoftPasskey` signs; like a real authenticator this one remembers which
/// account each credential was made for, picks one when the site lists none, and answers with
/// that account's user handle.
struct Device {
    authenticator: WebauthnAuthenticator<SoftPasskey>,
    origin: url::Url,
    /// (credential id, user handle), base64url, newest last.
    credentials: Vec<(String, String)>,
}

impl Device {
    fn new() -> Self {
        Self::at(SITE)
    }

    /// A device on a page of `origin` (a phishing site, say).
    fn at(origin: &str) -> Self {
        Self {
            // `true`: it reports user verification (a PIN or a fingerprint) as done.
            authenticator: WebauthnAuthenticator::new(SoftPasskey::new(true)),
            origin: url(origin),
            credentials: Vec::new(),
        }
    }

    /// `navigator.credentials.create` with the server's options; the credential's `toJSON()`.
    fn create(&mut self, options: &Value) -> Value {
        // The server must ask for a discoverable credential with user verification.
        let selection = &options["authenticatorSelection"];
        assert_eq!(selection["residentKey"], "required", "options: {options}");
        assert_eq!(selection["userVerification"], "required", "options: {options}");
        assert_eq!(options["attestation"], "none");
        let mut options = options.clone();
        // The soft key stores nothing itself; this wrapper keeps the credential instead.
        options["authenticatorSelection"]["requireResidentKey"] = json!(false);
        options["authenticatorSelection"]["residentKey"] = json!("discouraged");
        let handle = options["user"]["id"].as_str().expect("a user handle").to_owned();
        let request: CreationChallengeResponse =
            serde_json::from_value(json!({ "publicKey": options })).expect("creation options");
        let credential = self
            .authenticator
            .do_registration(self.origin.clone(), request)
            .expect("the authenticator makes a credential");
        let credential = serde_json::to_value(&credential).unwrap();
        let id = credential["id"].as_str().unwrap().to_owned();
        self.credentials.push((id, handle));
        credential
    }

    /// `navigator.credentials.get` with the server's options, answered with the newest
    /// passkey this device holds; the assertion's `toJSON()`.
    fn get(&mut self, options: &Value) -> Value {
        let (id, handle) = self.credentials.last().expect("a passkey on this device").clone();
        self.get_with(options, &id, &handle)
    }

    /// An assertion by credential `id`, naming `handle` as its account.
    fn get_with(&mut self, options: &Value, id: &str, handle: &str) -> Value {
        assert_eq!(
            options["allowCredentials"],
            json!([]),
            "a discoverable sign-in lists no credentials"
        );
        assert_eq!(options["userVerification"], "required");
        let mut options = options.clone();
        options["allowCredentials"] = json!([{ "type": "public-key", "id": id }]);
        let request: RequestChallengeResponse =
            serde_json::from_value(json!({ "publicKey": options })).expect("request options");
        let assertion = self
            .authenticator
            .do_authentication(self.origin.clone(), request)
            .expect("the authenticator signs");
        let mut assertion = serde_json::to_value(&assertion).unwrap();
        assertion["response"]["userHandle"] = json!(handle);
        assertion
    }
}

/// Adds a passkey from `device` to the account of `token`: the finish call's answer.
async fn add(app: &TestApp, token: &str, device: &mut Device, name: &str) -> reqwest::Response {
    let start = json_of(
        app.post_as(token, "/api/auth/passkeys/register/start", json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    let credential = device.create(&start["data"]["options"]);
    app.post_as(
        token,
        "/api/auth/passkeys/register/finish",
        json!({ "name": name, "credential": credential }),
    )
    .await
}

/// Starts a sign-in: (request options, challenge).
async fn start_sign_in(app: &TestApp) -> (Value, String) {
    let start = json_of(
        app.post("/api/auth/passkeys/login/start", json!({})).await,
        StatusCode::OK,
    )
    .await;
    let challenge = start["data"]["challenge"]
        .as_str()
        .expect("a challenge")
        .to_owned();
    (start["data"]["options"].clone(), challenge)
}

async fn finish(app: &TestApp, challenge: &str, credential: &Value) -> reqwest::Response {
    app.post(
        "/api/auth/passkeys/login/finish",
        json!({ "challenge": challenge, "credential": credential }),
    )
    .await
}

/// A whole sign-in with the device's newest passkey.
async fn sign_in(app: &TestApp, device: &mut Device) -> reqwest::Response {
    let (options, challenge) = start_sign_in(app).await;
    let assertion = device.get(&options);
    finish(app, &challenge, &assertion).await
}

db_test! {
    async fn a_passkey_is_added_listed_renamed_used_to_sign_in_and_removed(app: TestApp) using on_the_site; {
        let token = app.signed_up("kim@example.com").await;
        let mut laptop = Device::new();
        let added = json_of(add(&app, &token, &mut laptop, "Chrome on Linux").await, StatusCode::CREATED).await;
        assert_eq!(added["message"], "Passkey added");
        let passkey = &added["data"]["passkey"];
        assert_eq!(passkey["name"], "Chrome on Linux");
        assert_eq!(passkey["lastUsedAt"], Value::Null);
        let id = passkey["id"].as_str().unwrap().to_owned();
        // A passkey outlives a password reset, so its owner hears of it: the session that
        // added it may not be theirs.
        let notice = app.mail.wait_for("kim@example.com", 2).await.pop().unwrap();
        assert_eq!(notice.subject(), "A passkey was added to your Talent Suite account");
        let text = notice.text();
        assert!(text.contains("Reset your password, which signs out every device"), "{text}");
        assert!(text.contains(&format!("{SITE}/forgot-password")) && text.contains(&format!("{SITE}/security")), "{text}");
        assert!(!text.contains("Chrome on Linux"), "the name typed by whoever added it is not repeated: {text}");

        // A second one, unnamed: it is called "Passkey".
        let mut phone = Device::new();
        let unnamed = json_of(add(&app, &token, &mut phone, "  ").await, StatusCode::CREATED).await;
        assert_eq!(unnamed["data"]["passkey"]["name"], "Passkey");
        let list = json_of(app.get_as(&token, "/api/users/passkeys").await, StatusCode::OK).await;
        let names: Vec<&str> = list["data"]["items"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(names.len(), 2);
        assert!(names.contains(&"Chrome on Linux") && names.contains(&"Passkey"), "{names:?}");

        let renamed = json_of(app.put_as(&token, &format!("/api/users/passkeys/{id}"), json!({ "name": "Work laptop" })).await, StatusCode::OK).await;
        assert_eq!(renamed["message"], "Passkey renamed");
        assert_eq!(renamed["data"]["passkey"]["name"], "Work laptop");
        let blank = json_of(app.put_as(&token, &format!("/api/users/passkeys/{id}"), json!({ "name": "" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(blank["errors"]["name"], "Passkey name is required");
        let long = json_of(app.put_as(&token, &format!("/api/users/passkeys/{id}"), json!({ "name": "x".repeat(65) })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(long["errors"]["name"], "Passkey name must be at most 64 characters");
        // A C1 control character (U+0087) too, and the OpenAPI document says so: the contract
        // fuzzer sent this name as one the document allowed.
        let control = json_of(app.put_as(&token, &format!("/api/users/passkeys/{id}"), json!({ "name": "Key\u{87}" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(control["errors"]["name"], "Passkey name cannot contain control characters");
        let doc = json_of(app.get("/api/openapi.json").await, StatusCode::OK).await;
        let rule = &doc["paths"]["/users/passkeys/{id}"]["put"]["requestBody"]["content"]["application/json"]["schema"]["properties"]["name"];
        let pattern = regex::Regex::new(rule["pattern"].as_str().unwrap()).unwrap();
        assert!(!pattern.is_match("Key\u{87}") && !pattern.is_match("\u{87}") && !pattern.is_match(" "), "{rule}");
        assert!(pattern.is_match("Work laptop") && pattern.is_match("Clé de Zoë"), "{rule}");

        // Signing in with it: no email, no password; the answer is a session.
        let signed_in = json_of(sign_in(&app, &mut laptop).await, StatusCode::OK).await;
        assert_eq!(signed_in["message"], "Logged in successfully");
        assert_eq!(signed_in["data"]["user"]["email"], "kim@example.com");
        let session = signed_in["data"]["token"].as_str().unwrap().to_owned();
        json_of(app.get_as(&session, "/api/auth/verify").await, StatusCode::OK).await;
        let list = json_of(app.get_as(&session, "/api/users/passkeys").await, StatusCode::OK).await;
        let used = list["data"]["items"].as_array().unwrap().iter().find(|p| p["id"] == id.as_str()).unwrap();
        assert!(used["lastUsedAt"].is_string(), "last used is set: {used}");

        let removed = json_of(app.delete_as(&token, &format!("/api/users/passkeys/{id}")).await, StatusCode::OK).await;
        assert_eq!(removed["message"], "Passkey removed");
        let again = json_of(app.delete_as(&token, &format!("/api/users/passkeys/{id}")).await, StatusCode::NOT_FOUND).await;
        assert_eq!(again["message"], "Passkey not found");
        // The removed passkey signs no one in; the other still does.
        let refused = json_of(sign_in(&app, &mut laptop).await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(refused["message"], "Passkey not recognised");
        json_of(sign_in(&app, &mut phone).await, StatusCode::OK).await;

        for kind in ["passkey_added", "passkey_renamed", "passkey_removed"] {
            assert!(app.count(&format!("SELECT COUNT(*) FROM audit_events WHERE kind = '{kind}'")).await >= 1, "{kind} audited");
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'sign_in' AND detail = 'passkey'").await, 2);
    }
}

db_test! {
    async fn signed_out_callers_and_other_people_get_nothing(app: TestApp) using on_the_site; {
        assert_eq!(app.post("/api/auth/passkeys/register/start", json!({})).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.post("/api/auth/passkeys/register/finish", json!({ "credential": {} })).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.client.get(app.url("/api/users/passkeys")).send().await.unwrap().status(), StatusCode::UNAUTHORIZED);

        let owner = app.signed_up("owner@example.com").await;
        let mut device = Device::new();
        let added = json_of(add(&app, &owner, &mut device, "Mine").await, StatusCode::CREATED).await;
        let id = added["data"]["passkey"]["id"].as_str().unwrap().to_owned();

        // Another person's passkey answers like one that does not exist, and stays as it was.
        let other = app.signed_up("other@example.com").await;
        let list = json_of(app.get_as(&other, "/api/users/passkeys").await, StatusCode::OK).await;
        assert_eq!(list["data"]["items"], json!([]));
        let rename = json_of(app.put_as(&other, &format!("/api/users/passkeys/{id}"), json!({ "name": "Stolen" })).await, StatusCode::NOT_FOUND).await;
        assert_eq!(rename["message"], "Passkey not found");
        assert_eq!(app.delete_as(&other, &format!("/api/users/passkeys/{id}")).await.status(), StatusCode::NOT_FOUND);
        assert_eq!(app.delete_as(&other, "/api/users/passkeys/not-an-id").await.status(), StatusCode::NOT_FOUND);
        assert_eq!(app.count("SELECT COUNT(*) FROM passkeys WHERE name = 'Mine'").await, 1);

        // The owner's registration answer, replayed into another account's finish: refused,
        // though that account has a registration of its own under way (the answer carries the
        // owner's challenge, not this account's).
        json_of(app.post_as(&other, "/api/auth/passkeys/register/start", json!({})).await, StatusCode::OK).await;
        let owner_start = json_of(app.post_as(&owner, "/api/auth/passkeys/register/start", json!({})).await, StatusCode::OK).await;
        let credential = device.create(&owner_start["data"]["options"]);
        let stolen = json_of(app.post_as(&other, "/api/auth/passkeys/register/finish", json!({ "name": "x", "credential": credential.clone() })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(stolen["message"], "Passkey could not be verified");
        // The owner may still finish it: a refused attempt spent nothing of theirs.
        json_of(app.post_as(&owner, "/api/auth/passkeys/register/finish", json!({ "name": "Second", "credential": credential.clone() })).await, StatusCode::CREATED).await;
        // The same answer twice: the ceremony is spent.
        let twice = json_of(app.post_as(&owner, "/api/auth/passkeys/register/finish", json!({ "name": "Third", "credential": credential })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(twice["message"], "Passkey could not be verified");

        // Junk where a credential goes.
        for junk in [json!({}), json!("text"), json!({ "id": "x", "rawId": "x", "type": "public-key", "response": {} })] {
            let refused = json_of(app.post_as(&owner, "/api/auth/passkeys/register/finish", json!({ "credential": junk })).await, StatusCode::BAD_REQUEST).await;
            assert_eq!(refused["message"], "Passkey could not be verified");
            let refused = json_of(app.post("/api/auth/passkeys/login/finish", json!({ "challenge": "abc", "credential": junk })).await, StatusCode::UNAUTHORIZED).await;
            assert_eq!(refused["message"], "Passkey not recognised");
        }
        let missing = json_of(app.post("/api/auth/passkeys/login/finish", json!({})).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(missing["errors"]["challenge"], "Challenge is required");
        assert_eq!(missing["errors"]["credential"], "Credential is required");
    }
}

db_test! {
    async fn an_assertion_from_another_origin_or_replayed_or_for_another_account_signs_no_one_in(app: TestApp) using on_the_site; {
        let victim = app.signed_up("victim@example.com").await;
        let mut device = Device::new();
        json_of(add(&app, &victim, &mut device, "Laptop").await, StatusCode::CREATED).await;

        // A registration made on another origin (a look-alike site relaying the options).
        let mut phished = Device::at("http://localhost:6666");
        let refused = json_of(add(&app, &victim, &mut phished, "Evil").await, StatusCode::BAD_REQUEST).await;
        assert_eq!(refused["message"], "Passkey could not be verified");

        // A sign-in relayed through another origin: the victim's authenticator signs for the
        // look-alike's origin, and the server refuses it.
        let (options, challenge) = start_sign_in(&app).await;
        let (id, handle) = device.credentials[0].clone();
        let mut relayed = Device::at("http://localhost:6666");
        relayed.authenticator = std::mem::replace(&mut device.authenticator, WebauthnAuthenticator::new(SoftPasskey::new(true)));
        let assertion = relayed.get_with(&options, &id, &handle);
        let refused = json_of(finish(&app, &challenge, &assertion).await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(refused["message"], "Passkey not recognised");
        device.authenticator = relayed.authenticator;

        // A good assertion works once; replayed, it is refused.
        let (options, challenge) = start_sign_in(&app).await;
        let assertion = device.get(&options);
        json_of(finish(&app, &challenge, &assertion).await, StatusCode::OK).await;
        let replayed = json_of(finish(&app, &challenge, &assertion).await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(replayed["message"], "Passkey not recognised");
        // Nor does it answer a fresh challenge: the signature covers the old one.
        let (_, fresh) = start_sign_in(&app).await;
        assert_eq!(finish(&app, &fresh, &assertion).await.status(), StatusCode::UNAUTHORIZED);

        // The victim's credential presented as another account's (its user handle swapped).
        let attacker = app.signed_up("attacker@example.com").await;
        let mut own = Device::new();
        json_of(add(&app, &attacker, &mut own, "Mine").await, StatusCode::CREATED).await;
        let attacker_handle = own.credentials[0].1.clone();
        let (options, challenge) = start_sign_in(&app).await;
        let swapped = device.get_with(&options, &id, &attacker_handle);
        assert_eq!(finish(&app, &challenge, &swapped).await.status(), StatusCode::UNAUTHORIZED);
        // And the attacker's own key claiming to be the victim's account.
        let victim_handle = handle.clone();
        let (options, challenge) = start_sign_in(&app).await;
        let (attacker_id, _) = own.credentials[0].clone();
        let claimed = own.get_with(&options, &attacker_id, &victim_handle);
        assert_eq!(finish(&app, &challenge, &claimed).await.status(), StatusCode::UNAUTHORIZED);
    }
}

db_test! {
    async fn a_sign_count_that_goes_backwards_is_refused_and_audited(app: TestApp) using on_the_site; {
        let token = app.signed_up("cloned@example.com").await;
        let mut device = Device::new();
        json_of(add(&app, &token, &mut device, "Key").await, StatusCode::CREATED).await;
        // Two assertions signed in order (counts 1 and 2); the later one is used first, as a
        // clone of the key would after the original moved on.
        let (first_options, first) = start_sign_in(&app).await;
        let earlier = device.get(&first_options);
        let (second_options, second) = start_sign_in(&app).await;
        let later = device.get(&second_options);
        json_of(finish(&app, &second, &later).await, StatusCode::OK).await;
        let refused = json_of(finish(&app, &first, &earlier).await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(refused["message"], "Passkey not recognised");
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'passkey_counter_regressed'").await, 1);
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'sign_in' AND detail = 'passkey'").await, 1);
    }
}

db_test! {
    async fn sign_ins_with_one_key_at_once_never_set_its_count_back(app: TestApp) using on_the_site; {
        // Ten assertions signed in order (counts 1 to 10). The even ones finish at once; then
        // the odd ones, in order: each odd count below the highest accepted even one is a step
        // back, refused, however the racing writes fell.
        let token = app.signed_up("racing@example.com").await;
        let mut device = Device::new();
        json_of(add(&app, &token, &mut device, "Key").await, StatusCode::CREATED).await;
        let mut signed = Vec::new();
        for _ in 0..10 {
            let (options, challenge) = start_sign_in(&app).await;
            signed.push((challenge, device.get(&options)));
        }
        let evens: Vec<_> = signed.iter().skip(1).step_by(2).collect();
        let answers = futures::future::join_all(evens.iter().map(|(challenge, assertion)| finish(&app, challenge, assertion))).await;
        let highest = answers
            .iter()
            .zip([2, 4, 6, 8, 10])
            .filter(|(answer, _)| answer.status() == StatusCode::OK)
            .map(|(_, count)| count)
            .max()
            .expect("one of them signs in");
        for (count, (challenge, assertion)) in signed.iter().enumerate().map(|(n, s)| (n + 1, s)).step_by(2) {
            let status = finish(&app, challenge, assertion).await.status();
            if count < highest {
                assert_eq!(status, StatusCode::UNAUTHORIZED, "count {count} after {highest}");
            }
        }
    }
}

db_test! {
    async fn a_late_finish_is_refused_with_410_and_any_instance_finishes_what_another_started(app: TestApp) using on_the_site; {
        let token = app.signed_up("late@example.com").await;
        let mut device = Device::new();
        let start = json_of(app.post_as(&token, "/api/auth/passkeys/register/start", json!({})).await, StatusCode::OK).await;
        let credential = device.create(&start["data"]["options"]);
        // A finish six minutes after its start, with the housekeeping pass run in between: it
        // still hears that the request expired, not that the passkey is unknown.
        let a_minute_ago = (chrono::Utc::now() - chrono::Duration::minutes(1)).format("%Y-%m-%d %H:%M:%S+00:00");
        app.sql(&format!("UPDATE passkey_ceremonies SET expires_at = '{a_minute_ago}'")).await;
        api::janitor::sweep(&app.db, chrono::Duration::days(7)).await.unwrap();
        let late = json_of(app.post_as(&token, "/api/auth/passkeys/register/finish", json!({ "credential": credential })).await, StatusCode::GONE).await;
        assert_eq!(late["message"], "Passkey request has expired. Please try again.");
        assert_eq!(late["code"], "TOKEN_EXPIRED");
        assert_eq!(app.count("SELECT COUNT(*) FROM passkeys").await, 0);
        // A day past its expiry, housekeeping takes it.
        app.sql("UPDATE passkey_ceremonies SET expires_at = '2020-01-01 00:00:00+00:00'").await;
        api::janitor::sweep(&app.db, chrono::Duration::days(7)).await.unwrap();
        assert_eq!(app.count("SELECT COUNT(*) FROM passkey_ceremonies").await, 0);

        // Started on one instance, finished on the other, both ways.
        let other = on_the_site(app.another_instance_builder()).start().await;
        let start = json_of(app.post_as(&token, "/api/auth/passkeys/register/start", json!({})).await, StatusCode::OK).await;
        let credential = device.create(&start["data"]["options"]);
        json_of(other.post_as(&token, "/api/auth/passkeys/register/finish", json!({ "name": "Shared", "credential": credential })).await, StatusCode::CREATED).await;
        let (options, challenge) = start_sign_in(&other).await;
        let assertion = device.get(&options);
        json_of(finish(&app, &challenge, &assertion).await, StatusCode::OK).await;

        let (options, challenge) = start_sign_in(&app).await;
        let assertion = device.get(&options);
        app.sql("UPDATE passkey_ceremonies SET expires_at = '2020-01-01 00:00:00+00:00'").await;
        let late = json_of(finish(&other, &challenge, &assertion).await, StatusCode::GONE).await;
        assert_eq!(late["message"], "Passkey request has expired. Please try again.");
    }
}

db_test! {
    async fn a_passkey_is_both_factors_survives_a_reset_and_goes_with_the_account(app: TestApp) using on_the_site; {
        // Two-factor on: a passkey still signs in at once, with no code asked.
        let (token, _, _) = enrolled(&app, "guarded@example.com").await;
        let mut device = Device::new();
        json_of(add(&app, &token, &mut device, "Key").await, StatusCode::CREATED).await;
        let signed_in = json_of(sign_in(&app, &mut device).await, StatusCode::OK).await;
        assert!(signed_in["data"]["token"].is_string(), "{signed_in}");
        assert!(signed_in["data"].get("twoFactorRequired").is_none());

        // A password reset ends the sessions and keeps the passkeys.
        app.mail_settled().await;
        let before = app.mail.to("guarded@example.com").await.len();
        assert_eq!(app.post("/api/auth/forgot-password", json!({ "email": "guarded@example.com" })).await.status(), StatusCode::OK);
        let mail = app.mail.wait_for("guarded@example.com", before + 1).await;
        let reset = reset_token_in(mail.last().unwrap());
        json_of(app.post(&format!("/api/auth/reset-password/{reset}"), json!({ "password": "anotherRiver77" })).await, StatusCode::OK).await;
        let after_reset = json_of(sign_in(&app, &mut device).await, StatusCode::OK).await;
        let session = after_reset["data"]["token"].as_str().unwrap().to_owned();

        // Suspended: the passkey is recognised, the account is refused.
        app.sql("UPDATE users SET status = 'suspended' WHERE email = 'guarded@example.com'").await;
        let suspended = json_of(sign_in(&app, &mut device).await, StatusCode::FORBIDDEN).await;
        assert_eq!(suspended["message"], "This account has been suspended");
        app.sql("UPDATE users SET status = 'active' WHERE email = 'guarded@example.com'").await;

        // Deleting the account deletes its passkeys; the key then signs no one in.
        let user = json_of(app.get_as(&session, "/api/auth/verify").await, StatusCode::OK).await;
        let id = user["data"]["user"]["id"].as_str().unwrap().to_owned();
        json_of(app.delete_as(&session, &format!("/api/users/{id}")).await, StatusCode::OK).await;
        assert_eq!(app.count("SELECT COUNT(*) FROM passkeys").await, 0);
        let gone = json_of(sign_in(&app, &mut device).await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(gone["message"], "Passkey not recognised");
    }
}

db_test! {
    async fn adding_a_passkey_needs_a_recent_sign_in(app: TestApp) using on_the_site; {
        // A passkey outlives a password reset: a stolen session must not be able to add one.
        let token = app.signed_up("stale@example.com").await;
        crate::second_factor_limits::stale_sign_in(&app).await;
        let refused = json_of(app.post_as(&token, "/api/auth/passkeys/register/start", json!({})).await, StatusCode::FORBIDDEN).await;
        assert_eq!(refused["code"], "REAUTHENTICATION_REQUIRED", "{refused}");
        let gql = app.graphql(Some(&token), "mutation { startPasskeyRegistration { options } }", json!({})).await;
        assert_eq!(gql["errors"][0]["extensions"]["code"], "REAUTHENTICATION_REQUIRED", "{gql}");
        assert_eq!(app.count("SELECT COUNT(*) FROM passkey_ceremonies").await, 0, "no ceremony begun");

        json_of(app.post_as(&token, "/api/auth/reauthenticate", json!({ "password": crate::helpers::PASSWORD })).await, StatusCode::OK).await;
        let mut device = Device::new();
        json_of(add(&app, &token, &mut device, "Laptop").await, StatusCode::CREATED).await;
    }
}

/// `credential` (a registration's `toJSON()`) as if its authenticator had named the credential
/// `id`: the same key, in an attestation of format `none` (which carries no signature over the
/// id, and which the server accepts as it asks for no attestation).
fn with_credential_id(credential: &Value, id: &[u8]) -> Value {
    use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
    let object = URL_SAFE_NO_PAD
        .decode(credential["response"]["attestationObject"].as_str().unwrap())
        .unwrap();
    // The attestation object's `authData`, a CBOR byte string after its key.
    let key = b"\x68authData";
    let at = object.windows(key.len()).position(|w| w == key).unwrap() + key.len();
    let (len, start) = match object[at] {
        0x58 => (usize::from(object[at + 1]), at + 2),
        0x59 => (
            usize::from(u16::from_be_bytes([object[at + 1], object[at + 2]])),
            at + 3,
        ),
        other => panic!("authData of an unexpected size (CBOR {other:#x})"),
    };
    let data = &object[start..start + len];
    // rpIdHash (32), flags, sign count (4), AAGUID (16), the id's length (2), the id, the key.
    let old_len = usize::from(u16::from_be_bytes([data[53], data[54]]));
    let mut forged = data[..53].to_vec();
    forged.extend_from_slice(&u16::try_from(id.len()).unwrap().to_be_bytes());
    forged.extend_from_slice(id);
    forged.extend_from_slice(&data[55 + old_len..]);
    let mut none = vec![0xa3, 0x63];
    none.extend_from_slice(b"fmt");
    none.push(0x64);
    none.extend_from_slice(b"none");
    none.push(0x67);
    none.extend_from_slice(b"attStmt");
    none.push(0xa0);
    none.push(0x68);
    none.extend_from_slice(b"authData");
    none.push(0x59);
    none.extend_from_slice(&u16::try_from(forged.len()).unwrap().to_be_bytes());
    none.extend_from_slice(&forged);
    let mut credential = credential.clone();
    credential["id"] = json!(URL_SAFE_NO_PAD.encode(id));
    credential["rawId"] = json!(URL_SAFE_NO_PAD.encode(id));
    credential["response"]["attestationObject"] = json!(URL_SAFE_NO_PAD.encode(none));
    credential
}

db_test! {
    async fn a_credential_id_too_long_or_too_short_for_webauthn_is_refused(app: TestApp) using on_the_site; {
        // An id of 1024 bytes (WebAuthn's limit is 1023) would ride in every later
        // `excludeCredentials`; an empty one, unique across accounts, would keep it from others.
        let token = app.signed_up("ids@example.com").await;
        let mut device = Device::new();
        for (bytes, status) in [(1024, StatusCode::BAD_REQUEST), (0, StatusCode::BAD_REQUEST), (15, StatusCode::BAD_REQUEST), (1023, StatusCode::CREATED), (16, StatusCode::CREATED)] {
            let start = json_of(app.post_as(&token, "/api/auth/passkeys/register/start", json!({})).await, StatusCode::OK).await;
            let credential = with_credential_id(&device.create(&start["data"]["options"]), &vec![7u8.wrapping_add(u8::try_from(bytes % 200).unwrap()); bytes]);
            let answer = app.post_as(&token, "/api/auth/passkeys/register/finish", json!({ "name": "Forged", "credential": credential })).await;
            let body = json_of(answer, status).await;
            if status == StatusCode::BAD_REQUEST {
                assert_eq!(body["message"], "Passkey could not be verified", "{bytes} bytes: {body}");
            }
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM passkeys").await, 2);
    }
}

db_test! {
    async fn removing_a_passkey_needs_a_recent_sign_in_and_never_takes_the_last_way_in(app: TestApp) using on_the_site; {
        // An account with no password, whose two passkeys are its only ways in.
        let token = app.signed_up("keys@example.com").await;
        let (mut laptop, mut phone) = (Device::new(), Device::new());
        let first = json_of(add(&app, &token, &mut laptop, "Laptop").await, StatusCode::CREATED).await;
        let first = first["data"]["passkey"]["id"].as_str().unwrap().to_owned();
        let second = json_of(add(&app, &token, &mut phone, "Phone").await, StatusCode::CREATED).await;
        let second = second["data"]["passkey"]["id"].as_str().unwrap().to_owned();
        app.sql("UPDATE users SET password_hash = NULL WHERE email = 'keys@example.com'").await;

        // A stolen session cannot strip them: removing one asks for a recent sign-in.
        crate::second_factor_limits::stale_sign_in(&app).await;
        let refused = json_of(app.delete_as(&token, &format!("/api/users/passkeys/{first}")).await, StatusCode::FORBIDDEN).await;
        assert_eq!(refused["code"], "REAUTHENTICATION_REQUIRED", "{refused}");
        let gql = app.graphql(Some(&token), "mutation($id: ID!) { removePasskey(id: $id) { message } }", json!({ "id": first })).await;
        assert_eq!(gql["errors"][0]["extensions"]["code"], "REAUTHENTICATION_REQUIRED", "{gql}");
        assert_eq!(app.count("SELECT COUNT(*) FROM passkeys").await, 2);

        // Signed in afresh with the phone's passkey: one goes, the last stays.
        let fresh = json_of(sign_in(&app, &mut phone).await, StatusCode::OK).await;
        let fresh = fresh["data"]["token"].as_str().unwrap().to_owned();
        json_of(app.delete_as(&fresh, &format!("/api/users/passkeys/{first}")).await, StatusCode::OK).await;
        // Gone is gone, whatever is left: 404, not the last-way-in refusal.
        let again = json_of(app.delete_as(&fresh, &format!("/api/users/passkeys/{first}")).await, StatusCode::NOT_FOUND).await;
        assert_eq!(again["message"], "Passkey not found");
        let last = json_of(app.delete_as(&fresh, &format!("/api/users/passkeys/{second}")).await, StatusCode::CONFLICT).await;
        assert_eq!(last["message"], "Add a password or another sign-in method first");
        assert_eq!(app.count("SELECT COUNT(*) FROM passkeys").await, 1);
        json_of(sign_in(&app, &mut phone).await, StatusCode::OK).await;
    }
}

db_test! {
    async fn graphql_carries_the_same_operations(app: TestApp) using on_the_site; {
        let token = app.signed_up("graph@example.com").await;
        let mut device = Device::new();
        let start = app.graphql(Some(&token), "mutation { startPasskeyRegistration { options } }", json!({})).await;
        let options = start["data"]["startPasskeyRegistration"]["options"].clone();
        let credential = device.create(&options);
        let added = app.graphql(
            Some(&token),
            "mutation($input: FinishPasskeyRegistrationInput!) { finishPasskeyRegistration(input: $input) { message passkey { id name lastUsedAt } } }",
            json!({ "input": { "name": "Graph key", "credential": credential } }),
        ).await;
        assert_eq!(added["data"]["finishPasskeyRegistration"]["message"], "Passkey added", "{added}");
        let id = added["data"]["finishPasskeyRegistration"]["passkey"]["id"].as_str().unwrap().to_owned();

        let listed = app.graphql(Some(&token), "{ passkeys { id name } }", json!({})).await;
        assert_eq!(listed["data"]["passkeys"], json!([{ "id": id, "name": "Graph key" }]));

        let started = app.graphql(None, "mutation { startPasskeySignIn { options challenge } }", json!({})).await;
        let options = started["data"]["startPasskeySignIn"]["options"].clone();
        let challenge = started["data"]["startPasskeySignIn"]["challenge"].clone();
        let assertion = device.get(&options);
        let finish = "mutation($input: FinishPasskeySignInInput!) { finishPasskeySignIn(input: $input) { message token user { email } } }";
        let signed_in = app.graphql(None, finish, json!({ "input": { "challenge": challenge, "credential": assertion } })).await;
        assert_eq!(signed_in["data"]["finishPasskeySignIn"]["message"], "Logged in successfully", "{signed_in}");
        assert_eq!(signed_in["data"]["finishPasskeySignIn"]["user"]["email"], "graph@example.com");
        let replayed = app.graphql(None, finish, json!({ "input": { "challenge": challenge, "credential": assertion } })).await;
        assert_eq!(replayed["errors"][0]["message"], "Passkey not recognised");
        assert_eq!(replayed["errors"][0]["extensions"]["code"], "UNAUTHENTICATED");

        let renamed = app.graphql(Some(&token), "mutation($id: ID!) { renamePasskey(id: $id, input: { name: \"Renamed\" }) { message passkey { name } } }", json!({ "id": id })).await;
        assert_eq!(renamed["data"]["renamePasskey"]["message"], "Passkey renamed");
        let removed = app.graphql(Some(&token), "mutation($id: ID!) { removePasskey(id: $id) { message } }", json!({ "id": id })).await;
        assert_eq!(removed["data"]["removePasskey"]["message"], "Passkey removed");
        let again = app.graphql(Some(&token), "mutation($id: ID!) { removePasskey(id: $id) { message } }", json!({ "id": id })).await;
        assert_eq!(again["errors"][0]["extensions"]["code"], "NOT_FOUND");
    }
}

db_test! {
    async fn on_an_ip_address_passkeys_are_off_and_say_so(app: TestApp) {
        // The default test site is http://main.test; an IP address cannot be an RP id.
        let ip = app.another_instance_builder().env("MAIN_PLATFORM_URL", "http://127.0.0.1:8080").start().await;
        let off = json_of(ip.post("/api/auth/passkeys/login/start", json!({})).await, StatusCode::NOT_FOUND).await;
        assert_eq!(off["message"], "Passkeys are not available on this site");
        // On a host name they work.
        json_of(app.post("/api/auth/passkeys/login/start", json!({})).await, StatusCode::OK).await;
    }
}

db_test! {
    async fn twenty_finishes_of_one_sign_in_at_once_open_one_session(app: TestApp) using on_the_site; {
        let token = app.signed_up("race@example.com").await;
        let mut device = Device::new();
        json_of(add(&app, &token, &mut device, "Laptop").await, StatusCode::CREATED).await;
        let before = app.count("SELECT COUNT(*) FROM sessions").await;

        // One assertion, sent twenty times at once: the ceremony is taken before any check,
        // so one request signs in and the other nineteen find nothing to finish.
        let (options, challenge) = start_sign_in(&app).await;
        let assertion = device.get(&options);
        let answers = futures::future::join_all((0..20).map(|_| finish(&app, &challenge, &assertion))).await;
        exactly_one_won(&answers, StatusCode::UNAUTHORIZED);
        assert_eq!(app.count("SELECT COUNT(*) FROM sessions").await, before + 1);
    }
}
