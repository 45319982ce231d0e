//! The admin console's calls through the real server: finding people, suspending (refused on
//! the next request, on another instance too), restoring, signing out, changing roles, the
//! audit log and its CSV export, the seats; and every refusal (signed out, members, oneself).

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{PASSWORD, TestApp, json_of, reset_token_in, token_after};

/// An admin's session: signed up, promoted, signed in again (a role change ends sessions).
async fn admin(app: &TestApp, email: &str) -> String {
    app.signed_up(email).await;
    app.sql(&format!(
        "UPDATE users SET role = 'admin' WHERE email = '{email}'"
    ))
    .await;
    let body = json_of(app.login(email, PASSWORD).await, StatusCode::OK).await;
    body["data"]["token"].as_str().unwrap().to_owned()
}

async fn id_of(app: &TestApp, token: &str) -> String {
    let me = json_of(app.get_as(token, "/api/auth/verify").await, StatusCode::OK).await;
    me["data"]["user"]["id"].as_str().unwrap().to_owned()
}

fn emails(page: &Value) -> Vec<String> {
    page["data"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["email"].as_str().unwrap().to_owned())
        .collect()
}

db_test! {
    async fn a_name_that_starts_with_a_letter_beyond_ascii_is_found_in_any_usual_case(app: TestApp) {
        let boss = admin(&app, "boss@example.com").await;
        for (email, name) in [("u@example.com", "Ünsal Öz"), ("e@example.com", "Émile Zola"), ("i@example.com", "Иван Петров"), ("z@example.com", "Zoë Ünicode")] {
            app.signed_up(email).await;
            app.sql(&format!("UPDATE users SET name = '{name}' WHERE email = '{email}'")).await;
        }
        let cases = [
            ("Ünsal", "u@example.com"), ("ünsal", "u@example.com"), ("ÜNSAL ÖZ", "u@example.com"), ("ünsal öz", "u@example.com"), ("Ü", "u@example.com"),
            ("Émile", "e@example.com"), ("émile zola", "e@example.com"),
            ("Иван", "i@example.com"), ("иван", "i@example.com"), ("иван петров", "i@example.com"),
            ("Zoë Ü", "z@example.com"), ("ZOË", "z@example.com"), ("zoë ünicode", "z@example.com"),
        ];
        for (query, email) in cases {
            let response = app.client.get(app.url("/api/admin/users")).query(&[("query", query)]).bearer_auth(&boss).send().await.unwrap();
            let found = json_of(response, StatusCode::OK).await;
            assert_eq!(emails(&found), [email], "{query}");
        }
        let graphql = app.graphql(Some(&boss), "{ adminUsers(query: \"ünsal\") { items { email } } }", json!({})).await;
        assert_eq!(graphql["data"]["adminUsers"]["items"], json!([{ "email": "u@example.com" }]), "{graphql}");
    }
}

db_test! {
    async fn a_parameter_given_twice_is_refused_by_its_own_name(app: TestApp) {
        let boss = admin(&app, "boss@example.com").await;
        let cases = [
            ("/api/admin/users?query=a&query=b", "query"),
            ("/api/admin/audit?kind=sign_in&kind=logout", "kind"),
            ("/api/admin/audit.csv?userId=a&userId=b", "userId"),
            ("/api/admin/orgs?limit=5&limit=6", "limit"),
            ("/api/news?cursor=a&cursor=b", "cursor"),
        ];
        for (path, name) in cases {
            let body = json_of(app.get_as(&boss, path).await, StatusCode::BAD_REQUEST).await;
            assert_eq!(body["errors"], json!({ name: format!("{name} may be given only once") }), "{path}");
        }
        // A limit that is not a number still gets the limit's own text.
        let body = json_of(app.get_as(&boss, "/api/admin/users?limit=x").await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["limit"], "limit must be a whole number from 1 to 100");
    }
}

db_test! {
    async fn the_console_always_keeps_an_admin(app: TestApp) {
        let ada = admin(&app, "ada@example.com").await;
        let bea = admin(&app, "bea@example.com").await;
        let (ada_id, bea_id) = (id_of(&app, &ada).await, id_of(&app, &bea).await);
        // Two admins demoting each other at once: the second waits for the first, and is
        // refused as one who is no longer an admin (403, or 401 once its session has ended).
        let (demote_bea, demote_ada) = (format!("/api/admin/users/{bea_id}/role"), format!("/api/admin/users/{ada_id}/role"));
        let (one, two) = tokio::join!(
            app.put_as(&ada, &demote_bea, json!({ "role": "career" })),
            app.put_as(&bea, &demote_ada, json!({ "role": "career" })),
        );
        let statuses = [one.status(), two.status()];
        assert_eq!(statuses.iter().filter(|s| **s == StatusCode::OK).count(), 1, "{statuses:?}");
        assert!(statuses.iter().all(|s| [StatusCode::OK, StatusCode::FORBIDDEN, StatusCode::UNAUTHORIZED].contains(s)), "{statuses:?}");
        assert_eq!(app.count("SELECT COUNT(*) FROM users WHERE role = 'admin'").await, 1);
        // The one admin left cannot delete their own account either.
        let (last, last_id) = if one.status() == StatusCode::OK { (&ada, &ada_id) } else { (&bea, &bea_id) };
        let refused = json_of(app.delete_as(last, &format!("/api/users/{last_id}")).await, StatusCode::CONFLICT).await;
        assert_eq!(refused["message"], "You are the only admin. Make another account an admin first.");
        assert_eq!(app.count("SELECT COUNT(*) FROM users WHERE role = 'admin'").await, 1);
        // With another admin, they can.
        let cy = admin(&app, "cy@example.com").await;
        assert_eq!(app.delete_as(last, &format!("/api/users/{last_id}")).await.status(), StatusCode::OK);
        assert_eq!(app.count("SELECT COUNT(*) FROM users WHERE role = 'admin'").await, 1);
        assert_eq!(app.get_as(&cy, "/api/admin/users").await.status(), StatusCode::OK);
    }
}

db_test! {
    async fn a_stale_admin_session_confirms_it_is_them_before_granting_locking_out_or_minting(app: TestApp) {
        // An unlocked laptop with the console open, or a leaked token: eleven minutes after
        // the sign-in it may still read, but not make anyone an admin, lock anyone out, or
        // register, re-key or delete an application.
        let boss = admin(&app, "boss@example.com").await;
        let member = app.signed_up("member@example.com").await;
        let member_id = id_of(&app, &member).await;
        crate::second_factor_limits::stale_sign_in(&app).await;
        assert_eq!(app.get_as(&boss, "/api/admin/users").await.status(), StatusCode::OK, "reading needs no confirmation");
        let role = json_of(app.put_as(&boss, &format!("/api/admin/users/{member_id}/role"), json!({ "role": "admin" })).await, StatusCode::FORBIDDEN).await;
        assert_eq!((role["code"].as_str(), role["message"].as_str()), (Some("REAUTHENTICATION_REQUIRED"), Some("Please confirm it's you to make this change")));
        let suspend = json_of(app.post_as(&boss, &format!("/api/admin/users/{member_id}/suspend"), json!({ "reason": "spam" })).await, StatusCode::FORBIDDEN).await;
        assert_eq!(suspend["code"], "REAUTHENTICATION_REQUIRED");
        let graphql = app.graphql(Some(&boss), &format!("mutation {{ setUserRole(id: \"{member_id}\", role: \"admin\") {{ message }} }}"), json!({})).await;
        assert_eq!(graphql["errors"][0]["extensions"]["code"], "REAUTHENTICATION_REQUIRED", "{graphql}");
        for mutation in [
            "mutation { createOAuthClient(input: { name: \"X\", redirectUris: [\"https://x.example/cb\"] }) { clientSecret } }",
            "mutation { rotateOAuthClientSecret(clientId: \"x\") { clientSecret } }",
            "mutation { deleteOAuthClient(clientId: \"x\") { message } }",
        ] {
            let body = app.graphql(Some(&boss), mutation, json!({})).await;
            assert_eq!(body["errors"][0]["extensions"]["code"], "REAUTHENTICATION_REQUIRED", "{mutation}: {body}");
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM users WHERE role = 'admin'").await, 1, "nobody was made an admin");
        assert_eq!(app.count("SELECT COUNT(*) FROM users WHERE status = 'suspended'").await, 0);
        assert_eq!(app.count("SELECT COUNT(*) FROM oauth_clients").await, 0);

        // Confirmed with the password, the same session may.
        json_of(app.post_as(&boss, "/api/auth/reauthenticate", json!({ "password": PASSWORD })).await, StatusCode::OK).await;
        json_of(app.put_as(&boss, &format!("/api/admin/users/{member_id}/role"), json!({ "role": "hire" })).await, StatusCode::OK).await;
        let created = app.graphql(Some(&boss), "mutation { createOAuthClient(input: { name: \"X\", redirectUris: [\"https://x.example/cb\"] }) { clientSecret } }", json!({})).await;
        assert!(created["data"]["createOAuthClient"]["clientSecret"].is_string(), "{created}");
        // An application is shared content, as news is: the admin is the actor, no account the subject.
        let logged = json_of(app.get_as(&boss, "/api/admin/audit?kind=oauth_client_changed").await, StatusCode::OK).await;
        let event = &logged["data"]["items"][0];
        assert_eq!((event["userId"].clone(), event["actorId"].as_str()), (Value::Null, Some(id_of(&app, &boss).await.as_str())), "{logged}");
    }
}

db_test! {
    async fn a_reason_or_a_post_with_a_control_character_is_refused_on_both_databases(app: TestApp) {
        let boss = admin(&app, "boss@example.com").await;
        app.signed_up("member@example.com").await;
        let page = json_of(app.get_as(&boss, "/api/admin/users?query=member%40").await, StatusCode::OK).await;
        let member = page["data"]["items"][0]["id"].as_str().unwrap().to_owned();
        let suspended = json_of(app.post_as(&boss, &format!("/api/admin/users/{member}/suspend"), json!({ "reason": "a\u{0}b" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(suspended["errors"]["reason"], "Reason cannot contain control characters");
        let post = json!({ "title": "a\u{0}b", "summary": "s\u{1b}", "body": "line one\nline two\ttabbed" });
        let refused = json_of(app.post_as(&boss, "/api/news", post).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(refused["errors"], json!({ "title": "Title cannot contain control characters", "summary": "Summary cannot contain control characters" }));
        // Line breaks and tabs are prose.
        let fine = json!({ "title": "Title", "summary": "Summary", "body": "line one\r\nline two\ttabbed" });
        assert_eq!(app.post_as(&boss, "/api/news", fine).await.status(), StatusCode::CREATED);
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'account_suspended'").await, 0);
    }
}

db_test! {
    async fn a_suspended_account_is_mailed_no_link_and_no_false_note(app: TestApp) {
        let boss = admin(&app, "boss@example.com").await;
        app.signed_up("member@example.com").await;
        let page = json_of(app.get_as(&boss, "/api/admin/users?query=member%40").await, StatusCode::OK).await;
        let member = page["data"]["items"][0]["id"].as_str().unwrap().to_owned();
        // A reset link mailed before the suspension...
        json_of(app.post("/api/auth/forgot-password", json!({ "email": "member@example.com" })).await, StatusCode::OK).await;
        let mails = app.mail.wait_for("member@example.com", 2).await;
        let reset = reset_token_in(mails.iter().find(|m| m.text().contains("/reset-password/")).unwrap());
        let mails_before = app.count("SELECT COUNT(*) FROM mail_outbox WHERE recipient = 'member@example.com' AND subject <> ''").await;
        assert_eq!(app.post_as(&boss, &format!("/api/admin/users/{member}/suspend"), json!({ "reason": "Spam" })).await.status(), StatusCode::OK);
        // ...changes no password after it, and mails no "password changed" note.
        let refused = json_of(app.post(&format!("/api/auth/reset-password/{reset}"), json!({ "password": "newpass123" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(refused["message"], "Reset link is invalid");
        // The same answers as for anyone, and nothing in the mailbox: neither a link nor the
        // note that there is no account (there is one, and registering again would be refused).
        let forgot = json_of(app.post("/api/auth/forgot-password", json!({ "email": "member@example.com" })).await, StatusCode::OK).await;
        let unknown = json_of(app.post("/api/auth/forgot-password", json!({ "email": "nobody@example.com" })).await, StatusCode::OK).await;
        assert_eq!(forgot, unknown);
        json_of(app.post("/api/auth/magic-link", json!({ "email": "member@example.com" })).await, StatusCode::OK).await;
        app.mail.wait_for("nobody@example.com", 1).await;
        assert_eq!(
            app.count("SELECT COUNT(*) FROM mail_outbox WHERE recipient = 'member@example.com' AND subject <> ''").await,
            mails_before
        );
        assert!(app.mail.to("member@example.com").await.iter().all(|mail| !mail.text().contains("no Talent Suite account")));
    }
}

db_test! {
    async fn only_admins_reach_the_console(app: TestApp) {
        let member = app.signed_up("member@example.com").await;
        let calls = [
            ("GET", "/api/admin/users"),
            ("GET", "/api/admin/audit"),
            ("GET", "/api/admin/audit.csv"),
            ("GET", "/api/admin/orgs"),
        ];
        for (_, path) in calls {
            assert_eq!(app.client.get(app.url(path)).send().await.unwrap().status(), StatusCode::UNAUTHORIZED, "{path}");
            let refused = json_of(app.get_as(&member, path).await, StatusCode::FORBIDDEN).await;
            assert_eq!(refused["message"], "Only admins can use the admin console", "{path}");
        }
        let target = id_of(&app, &member).await;
        for path in ["suspend", "restore", "sign-out", "resend-verification"] {
            let path = format!("/api/admin/users/{target}/{path}");
            assert_eq!(app.post_as(&member, &path, json!({ "reason": "x" })).await.status(), StatusCode::FORBIDDEN, "{path}");
        }
        assert_eq!(app.put_as(&member, &format!("/api/admin/users/{target}/role"), json!({ "role": "admin" })).await.status(), StatusCode::FORBIDDEN);
        assert_eq!(app.count("SELECT COUNT(*) FROM users WHERE role = 'admin'").await, 0);
    }
}

db_test! {
    async fn people_are_found_by_a_prefix_of_name_or_email_a_page_at_a_time(app: TestApp) {
        let boss = admin(&app, "boss@example.com").await;
        for (name, email) in [("Ada Lovelace", "ada@example.com"), ("Adam Smith", "smith@example.com"), ("Grace Hopper", "grace@navy.test"), ("alan turing", "alan@example.com")] {
            assert_eq!(app.register(email).await.status(), StatusCode::CREATED);
            app.sql(&format!("UPDATE users SET name = '{name}' WHERE email = '{email}'")).await;
        }
        let found = json_of(app.get_as(&boss, "/api/admin/users?query=AD").await, StatusCode::OK).await;
        assert_eq!(emails(&found), ["ada@example.com", "smith@example.com"], "name prefix, case-insensitive, in name order");
        let by_email = json_of(app.get_as(&boss, "/api/admin/users?query=grace%40nav").await, StatusCode::OK).await;
        assert_eq!(emails(&by_email), ["grace@navy.test"]);
        // Without an @ a query is the start of a name: an address's start finds no one.
        let not_a_name = json_of(app.get_as(&boss, "/api/admin/users?query=smith").await, StatusCode::OK).await;
        assert_eq!(not_a_name["data"]["items"], json!([]));
        let item = &by_email["data"]["items"][0];
        assert_eq!(item["status"], "pending");
        assert_eq!(item["organizations"], 0);
        assert!(item.get("lastSignInAt").is_some());
        let me = json_of(app.get_as(&boss, "/api/admin/users?query=boss%40").await, StatusCode::OK).await;
        assert!(me["data"]["items"][0]["lastSignInAt"].is_string(), "an admin who signed in has a last sign-in");

        // Every account, two at a time, in name order; the cursors walk it once.
        let mut seen = Vec::new();
        let mut cursor = String::new();
        loop {
            let page = json_of(app.get_as(&boss, &format!("/api/admin/users?limit=2&cursor={cursor}")).await, StatusCode::OK).await;
            seen.extend(emails(&page));
            match page["data"]["nextCursor"].as_str() {
                Some(next) => cursor = next.to_owned(),
                None => break,
            }
        }
        assert_eq!(seen, ["ada@example.com", "smith@example.com", "alan@example.com", "boss@example.com", "grace@navy.test"]);

        let admins = json_of(app.get_as(&boss, "/api/admin/users?role=admin").await, StatusCode::OK).await;
        assert_eq!(emails(&admins), ["boss@example.com"]);
        let pending = json_of(app.get_as(&boss, "/api/admin/users?status=pending&query=a").await, StatusCode::OK).await;
        assert_eq!(emails(&pending), ["ada@example.com", "smith@example.com", "alan@example.com"]);
        let bad = json_of(app.get_as(&boss, "/api/admin/users?role=king&status=zombie&limit=500&cursor=%C2%AC").await, StatusCode::BAD_REQUEST).await;
        for field in ["role", "status", "limit", "cursor"] {
            assert!(bad["errors"][field].is_string(), "{field}: {bad}");
        }
        // A query's refusal says what is wrong with it, for people and organizations alike.
        let long = "a".repeat(101);
        for (query, message) in [("%00", "query cannot contain control characters"), ("a%09da", "query cannot contain control characters"), (long.as_str(), "query must be at most 100 characters")] {
            for list in ["users", "orgs"] {
                let refused = json_of(app.get_as(&boss, &format!("/api/admin/{list}?query={query}")).await, StatusCode::BAD_REQUEST).await;
                assert_eq!(refused["errors"]["query"], message, "{list} {query}");
            }
        }
        // An Int past 32 bits is bad input in GraphQL too, with its code.
        let huge = app.graphql(Some(&boss), "{ adminUsers(limit: 16271350425757) { nextCursor } }", json!({})).await;
        assert_eq!(huge["errors"][0]["extensions"]["code"], "BAD_USER_INPUT", "{huge}");

        // GraphQL lists the same fields under the same names: the account's own, then two more.
        let listed = app.graphql(Some(&boss), r#"{ adminUsers(query: "grace@nav") { items { email status lastSignInAt organizations } } }"#, json!({})).await;
        assert_eq!(listed["data"]["adminUsers"]["items"], json!([{ "email": "grace@navy.test", "status": "pending", "lastSignInAt": null, "organizations": 0 }]), "{listed}");
        let grace = json_of(app.get_as(&boss, "/api/admin/users?query=grace%40nav").await, StatusCode::OK).await["data"]["items"][0]["id"].clone();
        let promoted = app.graphql(Some(&boss), r#"mutation($id: ID!) { setUserRole(id: $id, role: "hire") { message user { email role } } }"#, json!({ "id": grace })).await;
        assert_eq!(promoted["data"]["setUserRole"], json!({ "message": "Role updated", "user": { "email": "grace@navy.test", "role": "hire" } }), "{promoted}");
    }
}

db_test! {
    async fn a_suspension_ends_every_session_at_once_even_on_another_instance(app: TestApp) {
        let boss = admin(&app, "boss@example.com").await;
        let member = app.signed_up("member@example.com").await;
        let other = app.another_instance().await;
        json_of(other.get_as(&member, "/api/auth/verify").await, StatusCode::OK).await;
        let target = id_of(&app, &member).await;

        let missing = json_of(app.post_as(&boss, &format!("/api/admin/users/{target}/suspend"), json!({ "reason": "  " })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(missing["errors"]["reason"], "Reason is required");
        let done = json_of(app.post_as(&boss, &format!("/api/admin/users/{target}/suspend"), json!({ "reason": "Spam invitations" })).await, StatusCode::OK).await;
        assert_eq!(done["message"], "Account suspended");
        // The member's next request, on either instance, is refused.
        assert_eq!(other.get_as(&member, "/api/auth/verify").await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.get_as(&member, "/api/auth/verify").await.status(), StatusCode::UNAUTHORIZED);
        let refused = json_of(app.login("member@example.com", PASSWORD).await, StatusCode::FORBIDDEN).await;
        assert_eq!(refused["message"], "This account has been suspended");
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'account_suspended' AND detail = 'Spam invitations' AND actor_id IS NOT NULL").await, 1);
        // Suspending it again changes nothing, and records nothing.
        json_of(app.post_as(&boss, &format!("/api/admin/users/{target}/suspend"), json!({ "reason": "Twice" })).await, StatusCode::OK).await;
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'account_suspended'").await, 1);

        let restored = json_of(app.post_as(&boss, &format!("/api/admin/users/{target}/restore"), json!({})).await, StatusCode::OK).await;
        assert_eq!(restored["message"], "Account restored");
        // Restoring it again changes nothing, and records nothing.
        json_of(app.post_as(&boss, &format!("/api/admin/users/{target}/restore"), json!({})).await, StatusCode::OK).await;
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'account_restored'").await, 1);
        let again = json_of(app.login("member@example.com", PASSWORD).await, StatusCode::OK).await;
        let member = again["data"]["token"].as_str().unwrap().to_owned();

        let out = json_of(app.post_as(&boss, &format!("/api/admin/users/{target}/sign-out"), json!({})).await, StatusCode::OK).await;
        assert_eq!(out["message"], "Signed out everywhere");
        assert_eq!(app.get_as(&member, "/api/auth/verify").await.status(), StatusCode::UNAUTHORIZED);

        // An admin can neither suspend nor demote themself.
        let me = id_of(&app, &boss).await;
        let own = json_of(app.post_as(&boss, &format!("/api/admin/users/{me}/suspend"), json!({ "reason": "oops" })).await, StatusCode::FORBIDDEN).await;
        assert_eq!(own["message"], "You cannot suspend your own account");
        // With no reason too: it is the who that is refused, not the form.
        let own = json_of(app.post_as(&boss, &format!("/api/admin/users/{me}/suspend"), json!({ "reason": " " })).await, StatusCode::FORBIDDEN).await;
        assert_eq!(own["message"], "You cannot suspend your own account");
        let own = json_of(app.put_as(&boss, &format!("/api/admin/users/{me}/role"), json!({ "role": "career" })).await, StatusCode::FORBIDDEN).await;
        assert_eq!(own["message"], "You cannot change your own role");
        let unknown = json_of(app.post_as(&boss, &format!("/api/admin/users/{}/restore", uuid::Uuid::new_v4()), json!({})).await, StatusCode::NOT_FOUND).await;
        assert_eq!(unknown["message"], "User not found");
    }
}

db_test! {
    async fn a_role_change_takes_effect_from_the_next_sign_in_and_a_suspended_admin_loses_the_console(app: TestApp) {
        let boss = admin(&app, "boss@example.com").await;
        let deputy = app.signed_up("deputy@example.com").await;
        let target = id_of(&app, &deputy).await;
        let bad = json_of(app.put_as(&boss, &format!("/api/admin/users/{target}/role"), json!({ "role": "king" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(bad["errors"]["role"], "Role must be career, campus, hire or admin");
        // Left out, as in an organization's role change: required, not wrong.
        let missing = json_of(app.put_as(&boss, &format!("/api/admin/users/{target}/role"), json!({})).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(missing["errors"]["role"], "Role is required");
        let updated = json_of(app.put_as(&boss, &format!("/api/admin/users/{target}/role"), json!({ "role": "admin" })).await, StatusCode::OK).await;
        assert_eq!(updated["message"], "Role updated");
        assert_eq!(updated["data"]["user"]["role"], "admin");
        assert_eq!(app.get_as(&deputy, "/api/auth/verify").await.status(), StatusCode::UNAUTHORIZED, "the old session is over");
        let deputy = json_of(app.login("deputy@example.com", PASSWORD).await, StatusCode::OK).await["data"]["token"].as_str().unwrap().to_owned();
        json_of(app.get_as(&deputy, "/api/admin/users").await, StatusCode::OK).await;
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'role_changed' AND detail = 'career to admin'").await, 1);

        // The deputy suspends nobody else's admin powers away silently: the boss suspends the
        // deputy, whose console closes at once.
        json_of(app.post_as(&boss, &format!("/api/admin/users/{target}/suspend"), json!({ "reason": "Left the company" })).await, StatusCode::OK).await;
        assert_eq!(app.get_as(&deputy, "/api/admin/users").await.status(), StatusCode::UNAUTHORIZED);
    }
}

db_test! {
    async fn a_promotion_ends_the_links_mailed_before_it(app: TestApp) {
        // A reset link and a sign-in link mailed before the promotion, read by whoever shares
        // the inbox, must not open the new admin's account.
        let boss = admin(&app, "boss@example.com").await;
        let deputy = app.signed_up("deputy@example.com").await;
        let target = id_of(&app, &deputy).await;
        json_of(app.post("/api/auth/forgot-password", json!({ "email": "deputy@example.com" })).await, StatusCode::OK).await;
        json_of(app.post("/api/auth/magic-link", json!({ "email": "deputy@example.com" })).await, StatusCode::OK).await;
        let mails = app.mail.wait_for("deputy@example.com", 3).await;
        let reset = reset_token_in(mails.iter().find(|m| m.text().contains("/reset-password/")).unwrap());
        let link = mails.iter().find_map(|m| token_after(m, "/magic-link/")).unwrap();

        json_of(app.put_as(&boss, &format!("/api/admin/users/{target}/role"), json!({ "role": "admin" })).await, StatusCode::OK).await;
        let reset = json_of(app.post(&format!("/api/auth/reset-password/{reset}"), json!({ "password": "newpass123" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(reset["message"], "Reset link is invalid");
        let link = app.post(&format!("/api/auth/magic-link/{link}"), json!({})).await;
        assert_eq!(link.status(), StatusCode::BAD_REQUEST, "the sign-in link opens nothing");
        json_of(app.login("deputy@example.com", PASSWORD).await, StatusCode::OK).await;
    }
}

db_test! {
    async fn a_persons_picture_and_resending_their_verification(app: TestApp) {
        let boss = admin(&app, "boss@example.com").await;
        let member = app.signed_up("member@example.com").await;
        let target = id_of(&app, &member).await;
        let picture = json_of(app.get_as(&boss, &format!("/api/admin/users/{target}")).await, StatusCode::OK).await;
        let data = &picture["data"];
        assert_eq!(data["user"]["email"], "member@example.com");
        // The OpenAPI document describes every part of the page, not the account alone.
        let doc = json_of(app.get("/api/openapi.json").await, StatusCode::OK).await;
        let described = &doc["paths"]["/admin/users/{id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["properties"]["data"];
        let mut parts: Vec<&str> = data.as_object().unwrap().keys().map(String::as_str).collect();
        let mut required: Vec<&str> = described["required"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect();
        parts.sort_unstable();
        required.sort_unstable();
        assert_eq!(parts, required, "{described}");
        assert_eq!(data["sessions"].as_array().unwrap().len(), 1);
        assert_eq!(data["sessions"][0]["current"], false, "another person's session is not this request's");
        // The admin's own page marks the session of this request.
        let boss_id = id_of(&app, &boss).await;
        let own = json_of(app.get_as(&boss, &format!("/api/admin/users/{boss_id}")).await, StatusCode::OK).await;
        assert_eq!(own["data"]["sessions"][0]["current"], true, "{own}");
        assert_eq!(data["identities"], json!([]));
        assert_eq!(data["passkeys"], json!([]));
        assert!(data["audit"].as_array().unwrap().iter().any(|e| e["kind"] == "registered"), "{data}");
        let session = data["sessions"][0]["id"].as_str().unwrap().to_owned();
        let ended = json_of(app.delete_as(&boss, &format!("/api/admin/users/{target}/sessions/{session}")).await, StatusCode::OK).await;
        assert_eq!(ended["message"], "Session signed out");
        assert_eq!(app.get_as(&member, "/api/auth/verify").await.status(), StatusCode::UNAUTHORIZED);

        let verified = json_of(app.post_as(&boss, &format!("/api/admin/users/{target}/resend-verification"), json!({})).await, StatusCode::CONFLICT).await;
        assert_eq!(verified["message"], "Email is already verified");
        app.register("waiting@example.com").await;
        let page = json_of(app.get_as(&boss, "/api/admin/users?query=waiting%40").await, StatusCode::OK).await;
        let waiting = page["data"]["items"][0]["id"].as_str().unwrap().to_owned();
        let sent = json_of(app.post_as(&boss, &format!("/api/admin/users/{waiting}/resend-verification"), json!({})).await, StatusCode::OK).await;
        assert_eq!(sent["message"], "Verification email sent");
        app.mail.wait_for("waiting@example.com", 1).await;
        // The code the admin sent is audited with the admin, unlike one the person asks for.
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'code_sent' AND actor_id IS NOT NULL").await, 1);
        // A suspended account is mailed nothing, and the admin is told so, not "sent".
        app.sql("UPDATE users SET status = 'suspended' WHERE email = 'waiting@example.com'").await;
        app.sql("DELETE FROM rate_limits").await;
        let held = json_of(app.post_as(&boss, &format!("/api/admin/users/{waiting}/resend-verification"), json!({})).await, StatusCode::CONFLICT).await;
        assert_eq!(held["message"], "The account is suspended: it is mailed nothing until it is restored");
        app.mail_settled().await;
        assert_eq!(app.mail.to("waiting@example.com").await.len(), 1);
    }
}

db_test! {
    async fn the_audit_log_filters_pages_and_exports_csv_without_secrets(app: TestApp) {
        let boss = admin(&app, "boss@example.com").await;
        app.signed_up("member@example.com").await;
        for _ in 0..2 {
            app.login("member@example.com", "wrong-password-1").await;
        }
        // A browser's name is anyone's to choose: one made to split into a formula in a
        // spreadsheet that separates by semicolons.
        let forged = "x;=2+5";
        app.client.post(app.url("/api/auth/login")).header("user-agent", forged).json(&json!({ "email": "member@example.com", "password": "wrong-password-1" })).send().await.unwrap();
        let failed = json_of(app.get_as(&boss, "/api/admin/audit?kind=sign_in_failed&limit=2").await, StatusCode::OK).await;
        assert_eq!(failed["data"]["items"].as_array().unwrap().len(), 2);
        assert!(failed["data"]["items"].as_array().unwrap().iter().all(|e| e["kind"] == "sign_in_failed"));
        let cursor = failed["data"]["nextCursor"].as_str().unwrap().to_owned();
        let rest = json_of(app.get_as(&boss, &format!("/api/admin/audit?kind=sign_in_failed&limit=2&cursor={cursor}")).await, StatusCode::OK).await;
        assert_eq!(rest["data"]["items"].as_array().unwrap().len(), 1);
        assert_eq!(rest["data"]["nextCursor"], Value::Null);
        let future = json_of(app.get_as(&boss, "/api/admin/audit?from=2999-01-01T00:00:00Z").await, StatusCode::OK).await;
        assert_eq!(future["data"]["items"], json!([]));
        let bad = json_of(app.get_as(&boss, "/api/admin/audit?from=yesterday&userId=nobody&kind=DROP%20TABLE").await, StatusCode::BAD_REQUEST).await;
        for field in ["from", "userId", "kind"] {
            assert!(bad["errors"][field].is_string(), "{field}: {bad}");
        }
        // A page request that is wrong too is told in the same answer, not after the filters.
        let both = json_of(app.get_as(&boss, "/api/admin/audit?kind=DROP%20TABLE&limit=500&cursor=zz").await, StatusCode::BAD_REQUEST).await;
        assert_eq!(both["errors"], json!({ "kind": "Invalid kind", "limit": "limit must be a whole number from 1 to 100", "cursor": "Invalid cursor" }));
        let shouted = json_of(app.get_as(&boss, "/api/admin/audit?kind=SIGN_IN_FAILED").await, StatusCode::OK).await;
        assert_eq!(shouted["data"]["items"].as_array().unwrap().len(), 3, "a kind is found whatever its case");
        let orgs = json_of(app.get_as(&boss, &format!("/api/admin/orgs?query={}&limit=0", "a".repeat(101))).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(orgs["errors"], json!({ "query": "query must be at most 100 characters", "limit": "limit must be a whole number from 1 to 100" }));

        let csv = app.client.get(app.url("/api/admin/audit.csv?kind=sign_in_failed")).bearer_auth(&boss).send().await.unwrap();
        assert_eq!(csv.status(), StatusCode::OK);
        assert!(csv.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
        assert!(csv.headers()["content-disposition"].to_str().unwrap().contains("attachment"));
        let text = csv.text().await.unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "at,kind,userId,actorId,ip,userAgent,detail");
        assert_eq!(lines.len(), 4, "{text}");
        // The export has no pages: a limit, even one that is not a number, changes nothing.
        let paged = app.client.get(app.url("/api/admin/audit.csv?kind=sign_in_failed&limit=abc")).bearer_auth(&boss).send().await.unwrap();
        assert_eq!(paged.status(), StatusCode::OK);
        assert_eq!(paged.text().await.unwrap().lines().count(), 4);
        let wrong = json_of(app.get_as(&boss, "/api/admin/audit.csv?from=yesterday&limit=abc").await, StatusCode::BAD_REQUEST).await;
        assert_eq!(wrong["errors"], json!({ "from": "from must be a date and time (RFC 3339)" }));
        assert!(!text.contains("wrong-password-1"), "no secret in the file");
        assert!(text.contains(",\"x;=2+5\","), "quoted whole, one cell: {text}");
        // A browser asks for it compressed: the stream ends, compressed, all the same.
        let zipped = app.client.get(app.url("/api/admin/audit.csv")).bearer_auth(&boss).header("accept-encoding", "gzip").send().await.unwrap();
        assert_eq!(zipped.headers()["content-encoding"], "gzip");
        assert!(!zipped.bytes().await.expect("the whole compressed file").is_empty());
    }
}

db_test! {
    async fn organizations_are_listed_and_their_seats_set(app: TestApp) {
        let boss = admin(&app, "boss@example.com").await;
        let owner = app.signed_up("owner@example.com").await;
        app.sql("UPDATE users SET role = 'hire' WHERE email = 'owner@example.com'").await;
        for name in ["Beta Labs", "Acme Hiring", "acme campus"] {
            json_of(app.post_as(&owner, "/api/orgs", json!({ "name": name, "kind": "hire" })).await, StatusCode::CREATED).await;
        }
        let found = json_of(app.get_as(&boss, "/api/admin/orgs?query=acme").await, StatusCode::OK).await;
        let names: Vec<&str> = found["data"]["items"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["acme campus", "Acme Hiring"]);
        assert_eq!(found["data"]["items"][0]["memberCount"], 1);
        let id = found["data"]["items"][0]["id"].as_str().unwrap().to_owned();
        let set = json_of(app.put_as(&boss, &format!("/api/admin/orgs/{id}"), json!({ "seatLimit": 25 })).await, StatusCode::OK).await;
        assert_eq!(set["message"], "Organization updated");
        assert_eq!(set["data"]["organization"]["seatLimit"], 25);
        // 30.0 is the whole number 30 (JSON Schema's `integer` admits it); 2.5 is no seat limit.
        let written = json_of(app.put_as(&boss, &format!("/api/admin/orgs/{id}"), json!({ "seatLimit": 30.0 })).await, StatusCode::OK).await;
        assert_eq!(written["data"]["organization"]["seatLimit"], 30);
        let fraction = json_of(app.put_as(&boss, &format!("/api/admin/orgs/{id}"), json!({ "seatLimit": 2.5 })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(fraction["errors"]["seatLimit"], "seatLimit has the wrong type");
        for huge in [json!(2_147_483_648_i64), json!(1e12), json!(-5_000_000_000_i64)] {
            let past = json_of(app.put_as(&boss, &format!("/api/admin/orgs/{id}"), json!({ "seatLimit": huge })).await, StatusCode::BAD_REQUEST).await;
            assert_eq!(past["errors"]["seatLimit"], "Seat limit must be a whole number from 1 to 1000000", "{huge}");
        }
        let doc = json_of(app.get("/api/openapi.json").await, StatusCode::OK).await;
        let rule = &doc["paths"]["/admin/orgs/{id}"]["put"]["requestBody"]["content"]["application/json"]["schema"]["properties"]["seatLimit"];
        assert_eq!((rule["minimum"].as_i64(), rule["maximum"].as_i64()), (Some(1), Some(1_000_000)), "{rule}");
        assert_eq!(app.put_as(&owner, &format!("/api/admin/orgs/{id}"), json!({ "seatLimit": 1000 })).await.status(), StatusCode::FORBIDDEN);

        // GraphQL: the same message and the same refusal of a seat limit left out (as a
        // variable or at all); null lifts it.
        let seats = "mutation($id: ID!, $seats: Int) { setSeatLimit(id: $id, seatLimit: $seats) { message organization { seatLimit } } }";
        let set = app.graphql(Some(&boss), seats, json!({ "id": id, "seats": 40 })).await;
        assert_eq!(set["data"]["setSeatLimit"], json!({ "message": "Organization updated", "organization": { "seatLimit": 40 } }), "{set}");
        let events = || app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'organization_updated'");
        let before = events().await;
        for document in ["mutation($id: ID!) { setSeatLimit(id: $id) { organization { seatLimit } } }", seats] {
            let refused = app.graphql(Some(&boss), document, json!({ "id": id })).await;
            assert_eq!(refused["errors"][0]["message"], "Seat limit is required", "{refused}");
            assert_eq!(refused["errors"][0]["extensions"]["errors"], json!({ "seatLimit": "Seat limit is required" }), "{refused}");
        }
        let kept = json_of(app.get_as(&boss, "/api/admin/orgs?query=acme").await, StatusCode::OK).await;
        assert_eq!(kept["data"]["items"][0]["seatLimit"], 40, "a variable left out cleared nothing");
        // Nothing changed (no seat limit given, or the one it has): nothing written, no event.
        let nothing = json_of(app.put_as(&boss, &format!("/api/admin/orgs/{id}"), json!({})).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(nothing["errors"], json!({ "seatLimit": "Seat limit is required" }), "the document calls it required");
        json_of(app.put_as(&boss, &format!("/api/admin/orgs/{id}"), json!({ "seatLimit": 40 })).await, StatusCode::OK).await;
        assert_eq!(events().await, before, "no event for a change that changed nothing");
        // An event says what changed, from what to what.
        let noted = app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'organization_updated' AND detail LIKE '%: seat limit 30 → 40'").await;
        assert_eq!(noted, 1);
        let lifted = app.graphql(Some(&boss), seats, json!({ "id": id, "seats": null })).await;
        assert_eq!(lifted["data"]["setSeatLimit"]["organization"]["seatLimit"], Value::Null, "{lifted}");
    }
}

/// A password sign-in whose account is suspended while its password is being checked: it read
/// the account as active, so without a guard it would open a session after the suspension had
/// ended them all, dead while suspended and alive again on restore. The session is written only
/// while the account is not suspended, and on PostgreSQL that read waits for a suspension under
/// way. PostgreSQL only: it is where the test can hold the suspension open until the sign-in
/// waits on it; SQLite runs the two writes one after the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sign_in_that_meets_a_suspension_under_way_opens_no_session() {
    use sea_orm::{ConnectionTrait, TransactionTrait};

    let Some(app) = TestApp::spawn_postgres().await else {
        return;
    };
    app.signed_up("member@example.com").await;
    // The suspension as the console writes it, begun and not yet committed.
    let suspension = app.db.begin().await.unwrap();
    suspension
        .execute_unprepared("UPDATE users SET status = 'suspended' WHERE email = 'member@example.com'")
        .await
        .unwrap();
    suspension
        .execute_unprepared(
            "DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = 'member@example.com')",
        )
        .await
        .unwrap();
    let mut sign_in = Box::pin(app.login("member@example.com", PASSWORD));
    crate::helpers::until_it_waits_on_a_lock(
        &app,
        sign_in.as_mut(),
        "the sign-in did not wait for the suspension",
    )
    .await;
    suspension.commit().await.unwrap();
    let refused = json_of(sign_in.await, StatusCode::FORBIDDEN).await;
    assert_eq!(refused["message"], "This account has been suspended");
    assert_eq!(
        app.count("SELECT COUNT(*) FROM sessions").await,
        0,
        "no session for the suspended account"
    );

    // Restored, the account signs in again, with a session of its own.
    app.sql("UPDATE users SET status = 'active' WHERE email = 'member@example.com'")
        .await;
    let again = json_of(app.login("member@example.com", PASSWORD).await, StatusCode::OK).await;
    let token = again["data"]["token"].as_str().unwrap();
    json_of(app.get_as(token, "/api/auth/verify").await, StatusCode::OK).await;
    assert_eq!(app.count("SELECT COUNT(*) FROM sessions").await, 1);
}
