//! Organizations through the real server: who may do what, the outsider's 404s with real ids,
//! invitations by mail, the last owner, and the races that must not break the rules.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, json_of, token_after};

/// A verified account of `role` (hire, campus or career), named after its address's local
/// part, signed in.
async fn person(app: &TestApp, email: &str, role: &str) -> String {
    let token = app.signed_up(email).await;
    named(app, email, role).await;
    token
}

async fn named(app: &TestApp, email: &str, role: &str) {
    let name = email.split('@').next().unwrap();
    app.sql(&format!(
        "UPDATE users SET role = '{role}', name = '{name}' WHERE email = '{email}'"
    ))
    .await;
}

/// Signs up `email` when it already received `mails` mails (invitations): its code is the next.
async fn signed_up_after(app: &TestApp, email: &str, mails: usize) -> String {
    assert_eq!(app.register(email).await.status(), StatusCode::CREATED);
    assert_eq!(app.send_code(email).await.status(), StatusCode::OK);
    let code = app.code_from_mail(email, mails + 1).await;
    let body = json_of(app.verify_code(email, &code).await, StatusCode::OK).await;
    named(app, email, "career").await;
    body["data"]["token"].as_str().unwrap().to_owned()
}

async fn my_id(app: &TestApp, token: &str) -> String {
    let me = json_of(app.get_as(token, "/api/auth/verify").await, StatusCode::OK).await;
    me["data"]["user"]["id"].as_str().unwrap().to_owned()
}

/// Creates an organization as `token` and returns its id.
async fn organization(app: &TestApp, token: &str, name: &str) -> String {
    let body = json_of(
        app.post_as(token, "/api/orgs", json!({ "name": name })).await,
        StatusCode::CREATED,
    )
    .await;
    body["data"]["organization"]["id"].as_str().unwrap().to_owned()
}

/// The token of the invitation link in the `nth` mail to `email`.
async fn invitation_token(app: &TestApp, email: &str, nth: usize) -> String {
    let mails = app.mail.wait_for(email, nth).await;
    token_after(&mails[nth - 1], "/invitations/").expect("an invitation link")
}

/// Invites `emails` to `org` as `token` (as members) and returns the answer's data.
async fn invite(app: &TestApp, token: &str, org: &str, emails: &[&str]) -> Value {
    let body = json_of(
        app.post_as(
            token,
            &format!("/api/orgs/{org}/invitations"),
            json!({ "emails": emails, "role": "member" }),
        )
        .await,
        StatusCode::CREATED,
    )
    .await;
    assert_eq!(body["message"], "Invitations sent");
    body["data"].clone()
}

/// `email` joins `org` through a fresh invitation from `owner`; returns their token.
async fn member_of(app: &TestApp, owner: &str, org: &str, email: &str) -> String {
    let token = person(app, email, "career").await;
    invite(app, owner, org, &[email]).await;
    let link = invitation_token(app, email, 2).await;
    let joined = app
        .post_as(&token, &format!("/api/invitations/{link}/accept"), json!({}))
        .await;
    assert_eq!(joined.status(), StatusCode::OK);
    token
}

db_test! {
    async fn hire_and_campus_accounts_create_organizations_and_career_ones_cannot(app: TestApp) {
        let hire = person(&app, "lead@acme.example", "hire").await;
        let body = json_of(
            app.post_as(&hire, "/api/orgs", json!({ "name": "Acme Hiring, Inc." })).await,
            StatusCode::CREATED,
        )
        .await;
        assert_eq!(body["message"], "Organization created");
        let org = &body["data"]["organization"];
        assert_eq!(org["slug"], "acme-hiring-inc");
        assert_eq!(org["kind"], "hire");
        assert_eq!(org["myRole"], "owner");
        assert_eq!(org["memberCount"], 1);
        assert_eq!(org["seatLimit"], Value::Null);

        // The same name again gets a suffixed slug (an empty slug is one left out); a chosen
        // slug that is taken is a conflict.
        let again = json_of(app.post_as(&hire, "/api/orgs", json!({ "name": "Acme Hiring Inc", "slug": "" })).await, StatusCode::CREATED).await;
        let slug = again["data"]["organization"]["slug"].as_str().unwrap();
        assert!(slug.starts_with("acme-hiring-inc-") && slug.len() == "acme-hiring-inc-".len() + 4, "{slug}");
        // The contract says so: an empty or null slug is one left out.
        let doc = json_of(app.get("/api/openapi.json").await, StatusCode::OK).await;
        let slug_rule = &doc["paths"]["/orgs"]["post"]["requestBody"]["content"]["application/json"]["schema"]["properties"]["slug"];
        assert_eq!(slug_rule["type"], json!(["string", "null"]), "{slug_rule}");
        assert!(regex::Regex::new(slug_rule["pattern"].as_str().unwrap()).unwrap().is_match(""), "{slug_rule}");
        let taken = json_of(
            app.post_as(&hire, "/api/orgs", json!({ "name": "Other", "slug": "acme-hiring-inc" })).await,
            StatusCode::CONFLICT,
        )
        .await;
        assert_eq!(taken["message"], "An organization with this slug already exists");

        // A slug is taken as written, as the contract's pattern says: spaces around it are not trimmed away.
        let padded = json_of(app.post_as(&hire, "/api/orgs", json!({ "name": "Padded", "slug": " padded-slug " })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(padded["errors"]["slug"], "Slug may use lowercase letters, digits and hyphens (3-40)");
        let bad = json_of(app.post_as(&hire, "/api/orgs", json!({ "name": " ", "slug": "No Way" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(bad["errors"]["name"], "Organization name is required");
        assert_eq!(bad["errors"]["slug"], "Slug may use lowercase letters, digits and hyphens (3-40)");

        let campus = person(&app, "dean@uni.example", "campus").await;
        let institute = json_of(app.post_as(&campus, "/api/orgs", json!({ "name": "City University" })).await, StatusCode::CREATED).await;
        assert_eq!(institute["data"]["organization"]["kind"], "campus");

        let career = person(&app, "student@uni.example", "career").await;
        let refused = json_of(app.post_as(&career, "/api/orgs", json!({ "name": "Mine" })).await, StatusCode::FORBIDDEN).await;
        assert_eq!(refused["message"], "Only Hire and Campus accounts can create organizations");
        assert_eq!(app.post("/api/orgs", json!({ "name": "Anon" })).await.status(), StatusCode::UNAUTHORIZED);

        let mine = json_of(app.get_as(&hire, "/api/orgs").await, StatusCode::OK).await;
        let names: Vec<&str> = mine["data"]["organizations"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["Acme Hiring Inc", "Acme Hiring, Inc."]);
        let none = json_of(app.get_as(&career, "/api/orgs").await, StatusCode::OK).await;
        assert_eq!(none["data"]["organizations"], json!([]));
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'organization_created'").await, 3);
    }
}

db_test! {
    async fn an_outsider_gets_404_for_everything_of_an_organization_even_with_real_ids(app: TestApp) {
        let owner = person(&app, "owner@acme.example", "hire").await;
        let org = organization(&app, &owner, "Acme").await;
        let owner_id = my_id(&app, &owner).await;
        invite(&app, &owner, &org, &["pending@acme.example"]).await;
        let items = json_of(app.get_as(&owner, &format!("/api/orgs/{org}/invitations")).await, StatusCode::OK).await;
        let invitation = items["data"]["items"][0]["id"].as_str().unwrap().to_owned();

        let outsider = person(&app, "spy@rival.example", "hire").await;
        let calls = [
            ("GET", format!("/api/orgs/{org}")),
            ("PUT", format!("/api/orgs/{org}")),
            ("DELETE", format!("/api/orgs/{org}")),
            ("GET", format!("/api/orgs/{org}/members")),
            ("PUT", format!("/api/orgs/{org}/members/{owner_id}")),
            ("DELETE", format!("/api/orgs/{org}/members/{owner_id}")),
            ("POST", format!("/api/orgs/{org}/invitations")),
            ("GET", format!("/api/orgs/{org}/invitations")),
            ("DELETE", format!("/api/orgs/{org}/invitations/{invitation}")),
        ];
        for (method, path) in &calls {
            let body = json!({ "name": "Mine now", "role": "owner", "emails": ["spy@rival.example"] });
            let response = match *method {
                "GET" => app.get_as(&outsider, path).await,
                "PUT" => app.put_as(&outsider, path, body).await,
                "POST" => app.post_as(&outsider, path, body).await,
                _ => app.delete_as(&outsider, path).await,
            };
            let answer = json_of(response, StatusCode::NOT_FOUND).await;
            assert_eq!(answer["message"], "Organization not found", "{method} {path}");
        }
        // An unknown id and a malformed one answer the same.
        for id in [uuid::Uuid::new_v4().to_string(), "not-an-id".to_owned()] {
            let answer = json_of(app.get_as(&outsider, &format!("/api/orgs/{id}")).await, StatusCode::NOT_FOUND).await;
            assert_eq!(answer["message"], "Organization not found");
        }
        // Nothing changed.
        let still = json_of(app.get_as(&owner, &format!("/api/orgs/{org}")).await, StatusCode::OK).await;
        assert_eq!(still["data"]["organization"]["name"], "Acme");
        assert_eq!(app.count("SELECT COUNT(*) FROM organization_invitations WHERE status = 'pending'").await, 1);

        // GraphQL says the same.
        let answer = app.graphql(Some(&outsider), "query($id: ID!) { organization(id: $id) { name } }", json!({ "id": org })).await;
        assert_eq!(answer["errors"][0]["extensions"]["code"], "NOT_FOUND");
    }
}

db_test! {
    async fn roles_decide_who_invites_renames_promotes_and_removes(app: TestApp) {
        let owner = person(&app, "owner@acme.example", "hire").await;
        let org = organization(&app, &owner, "Acme").await;
        let ann = member_of(&app, &owner, &org, "ann@acme.example").await;
        let bo = member_of(&app, &owner, &org, "bo@acme.example").await;
        let (ann_id, bo_id, owner_id) = (my_id(&app, &ann).await, my_id(&app, &bo).await, my_id(&app, &owner).await);

        // A member reads, but cannot invite, rename or see invitations.
        let read = json_of(app.get_as(&ann, &format!("/api/orgs/{org}")).await, StatusCode::OK).await;
        assert_eq!(read["data"]["organization"]["myRole"], "member");
        assert_eq!(read["data"]["organization"]["memberCount"], 3);
        let refused = json_of(app.post_as(&ann, &format!("/api/orgs/{org}/invitations"), json!({ "emails": ["x@y.example"] })).await, StatusCode::FORBIDDEN).await;
        assert_eq!(refused["message"], "Only owners and admins of this organization can do this");
        assert_eq!(app.put_as(&ann, &format!("/api/orgs/{org}"), json!({ "name": "Ann's" })).await.status(), StatusCode::FORBIDDEN);
        assert_eq!(app.get_as(&ann, &format!("/api/orgs/{org}/invitations")).await.status(), StatusCode::FORBIDDEN);
        assert_eq!(app.delete_as(&ann, &format!("/api/orgs/{org}/members/{bo_id}")).await.status(), StatusCode::FORBIDDEN);
        // Deleting is the owners' alone, and the refusal says so (not "owners and admins").
        let not_hers = json_of(app.delete_as(&ann, &format!("/api/orgs/{org}")).await, StatusCode::FORBIDDEN).await;
        assert_eq!(not_hers["message"], "Only owners of this organization can do this");

        // The owner makes Ann an admin; Ann may now rename, promote Bo to admin, but not make owners.
        let promoted = json_of(app.put_as(&owner, &format!("/api/orgs/{org}/members/{ann_id}"), json!({ "role": "admin" })).await, StatusCode::OK).await;
        assert_eq!(promoted["message"], "Member updated");
        assert_eq!(promoted["data"]["member"]["role"], "admin");
        let renamed = json_of(app.put_as(&ann, &format!("/api/orgs/{org}"), json!({ "name": "Acme Talent" })).await, StatusCode::OK).await;
        assert_eq!(renamed["message"], "Organization updated");
        assert_eq!(renamed["data"]["organization"]["name"], "Acme Talent");
        assert_eq!(app.put_as(&ann, &format!("/api/orgs/{org}/members/{bo_id}"), json!({ "role": "admin" })).await.status(), StatusCode::OK);
        let no_owner = json_of(app.put_as(&ann, &format!("/api/orgs/{org}/members/{bo_id}"), json!({ "role": "owner" })).await, StatusCode::FORBIDDEN).await;
        assert_eq!(no_owner["message"], "Only owners of this organization can do this");
        assert_eq!(app.put_as(&ann, &format!("/api/orgs/{org}/members/{owner_id}"), json!({ "role": "member" })).await.status(), StatusCode::FORBIDDEN);
        assert_eq!(app.delete_as(&ann, &format!("/api/orgs/{org}/members/{owner_id}")).await.status(), StatusCode::FORBIDDEN);
        assert_eq!(app.delete_as(&ann, &format!("/api/orgs/{org}")).await.status(), StatusCode::FORBIDDEN);
        let bad = json_of(app.put_as(&owner, &format!("/api/orgs/{org}/members/{bo_id}"), json!({ "role": "boss" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(bad["errors"]["role"], "Role must be owner, admin or member");
        // Only a site admin sets the seat limit.
        let seats = json_of(app.put_as(&owner, &format!("/api/orgs/{org}"), json!({ "seatLimit": 10 })).await, StatusCode::FORBIDDEN).await;
        assert_eq!(seats["message"], "Only admins can set the seat limit");

        // The members list: owners first, then by name, whatever the role: Ann, a member for
        // a moment, before Bo, an admin.
        let members = format!("/api/orgs/{org}/members");
        let as_member = json!({ "role": "member" });
        assert_eq!(app.put_as(&owner, &format!("{members}/{ann_id}"), as_member).await.status(), StatusCode::OK);
        let list = json_of(app.get_as(&bo, &members).await, StatusCode::OK).await;
        let roles: Vec<(&str, &str)> = list["data"]["items"].as_array().unwrap().iter().map(|m| (m["user"]["email"].as_str().unwrap(), m["role"].as_str().unwrap())).collect();
        assert_eq!(roles, [("owner@acme.example", "owner"), ("ann@acme.example", "member"), ("bo@acme.example", "admin")]);
        // A role is read in any case, as an account's is.
        assert_eq!(app.put_as(&owner, &format!("{members}/{ann_id}"), json!({ "role": "Admin" })).await.status(), StatusCode::OK);

        // Ann removes Bo; Bo is out at once.
        let removed = json_of(app.delete_as(&ann, &format!("/api/orgs/{org}/members/{bo_id}")).await, StatusCode::OK).await;
        assert_eq!(removed["message"], "Member removed");
        assert_eq!(app.get_as(&bo, &format!("/api/orgs/{org}")).await.status(), StatusCode::NOT_FOUND);

        // The last owner can neither leave nor be demoted; with a second owner, they can.
        let alone = json_of(app.delete_as(&owner, &format!("/api/orgs/{org}/members/{owner_id}")).await, StatusCode::CONFLICT).await;
        assert_eq!(alone["message"], "An organization needs at least one owner");
        let demoted = json_of(app.put_as(&owner, &format!("/api/orgs/{org}/members/{owner_id}"), json!({ "role": "admin" })).await, StatusCode::CONFLICT).await;
        assert_eq!(demoted["message"], "An organization needs at least one owner");
        assert_eq!(app.put_as(&owner, &format!("/api/orgs/{org}/members/{ann_id}"), json!({ "role": "owner" })).await.status(), StatusCode::OK);
        assert_eq!(app.delete_as(&owner, &format!("/api/orgs/{org}/members/{owner_id}")).await.status(), StatusCode::OK);
        let after = json_of(app.get_as(&ann, &format!("/api/orgs/{org}")).await, StatusCode::OK).await;
        assert_eq!(after["data"]["organization"]["memberCount"], 1);

        // Ann, now the owner, deletes it: the memberships and invitations go with it.
        let deleted = json_of(app.delete_as(&ann, &format!("/api/orgs/{org}")).await, StatusCode::OK).await;
        assert_eq!(deleted["message"], "Organization deleted");
        assert_eq!(app.count("SELECT COUNT(*) FROM organization_members").await, 0);
        assert_eq!(app.count("SELECT COUNT(*) FROM organization_invitations").await, 0);
        for kind in ["organization_member_changed", "organization_member_removed", "organization_left", "organization_deleted", "organization_updated"] {
            assert!(app.count(&format!("SELECT COUNT(*) FROM audit_events WHERE kind = '{kind}' AND actor_id IS NOT NULL")).await >= 1, "{kind}");
        }
    }
}

db_test! {
    async fn invitations_last_only_while_their_sender_may_still_send_them(app: TestApp) {
        // A rogue admin invites addresses they hold; the owner demotes, then removes them. No
        // invitation they sent may bring them back with more than they can now grant.
        let owner = person(&app, "owner@acme.example", "hire").await;
        let org = organization(&app, &owner, "Acme").await;
        let rogue = member_of(&app, &owner, &org, "rogue@acme.example").await;
        let rogue_id = my_id(&app, &rogue).await;
        json_of(app.put_as(&owner, &format!("/api/orgs/{org}/members/{rogue_id}"), json!({ "role": "admin" })).await, StatusCode::OK).await;
        for (email, role) in [("alt1@elsewhere.example", "admin"), ("alt2@elsewhere.example", "member")] {
            let sent = app.post_as(&rogue, &format!("/api/orgs/{org}/invitations"), json!({ "emails": [email], "role": role })).await;
            assert_eq!(sent.status(), StatusCode::CREATED, "{email}");
        }
        let alt1_link = invitation_token(&app, "alt1@elsewhere.example", 1).await;
        let alt1 = signed_up_after(&app, "alt1@elsewhere.example", 1).await;
        // The owner's own invitation is not the rogue's to lose.
        invite(&app, &owner, &org, &["friend@elsewhere.example"]).await;

        // Made a member, the rogue can send nothing: both invitations go.
        json_of(app.put_as(&owner, &format!("/api/orgs/{org}/members/{rogue_id}"), json!({ "role": "member" })).await, StatusCode::OK).await;
        let refused = json_of(app.post_as(&alt1, &format!("/api/invitations/{alt1_link}/accept"), json!({})).await, StatusCode::GONE).await;
        assert_eq!(refused["message"], "This invitation has expired");
        let left = json_of(app.get_as(&owner, &format!("/api/orgs/{org}/invitations")).await, StatusCode::OK).await;
        let emails: Vec<&str> = left["data"]["items"].as_array().unwrap().iter().map(|i| i["email"].as_str().unwrap()).collect();
        assert_eq!(emails, ["friend@elsewhere.example"], "{left}");

        // An admin again, the rogue invites once more; removed, they lose that invitation too.
        json_of(app.put_as(&owner, &format!("/api/orgs/{org}/members/{rogue_id}"), json!({ "role": "admin" })).await, StatusCode::OK).await;
        let sent = app.post_as(&rogue, &format!("/api/orgs/{org}/invitations"), json!({ "emails": ["alt3@elsewhere.example"], "role": "admin" })).await;
        assert_eq!(sent.status(), StatusCode::CREATED);
        json_of(app.delete_as(&owner, &format!("/api/orgs/{org}/members/{rogue_id}")).await, StatusCode::OK).await;
        assert_eq!(app.count("SELECT COUNT(*) FROM organization_invitations WHERE status = 'pending'").await, 1);
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'organization_member_removed' AND detail LIKE '%1 pending invitation they sent revoked'").await, 1);
    }
}

db_test! {
    async fn a_site_admins_invitations_go_when_they_stop_being_one_and_a_suspended_senders_go_too(app: TestApp) {
        let owner = person(&app, "owner@acme.example", "hire").await;
        let org = organization(&app, &owner, "Acme").await;
        let boss = person(&app, "boss@site.example", "career").await;
        let chief = person(&app, "chief@site.example", "career").await;
        app.sql("UPDATE users SET role = 'admin' WHERE email IN ('boss@site.example', 'chief@site.example')").await;
        // A site admin, never a member, invites an owner; the organization's own admin invites
        // a member; the owner invites a friend.
        let sent = app.post_as(&boss, &format!("/api/orgs/{org}/invitations"), json!({ "emails": ["heir@elsewhere.example"], "role": "owner" })).await;
        assert_eq!(sent.status(), StatusCode::CREATED);
        let deputy = member_of(&app, &owner, &org, "deputy@acme.example").await;
        let deputy_id = my_id(&app, &deputy).await;
        json_of(app.put_as(&owner, &format!("/api/orgs/{org}/members/{deputy_id}"), json!({ "role": "admin" })).await, StatusCode::OK).await;
        let sent = app.post_as(&deputy, &format!("/api/orgs/{org}/invitations"), json!({ "emails": ["pal@elsewhere.example"], "role": "member" })).await;
        assert_eq!(sent.status(), StatusCode::CREATED);
        invite(&app, &owner, &org, &["friend@elsewhere.example"]).await;

        // No longer a site admin: nothing backs the owner invitation, so it goes.
        let boss_id = my_id(&app, &boss).await;
        json_of(app.put_as(&chief, &format!("/api/admin/users/{boss_id}/role"), json!({ "role": "career" })).await, StatusCode::OK).await;
        // Suspended: nobody joins on the deputy's word any more.
        json_of(app.post_as(&chief, &format!("/api/admin/users/{deputy_id}/suspend"), json!({ "reason": "abuse" })).await, StatusCode::OK).await;
        let left = json_of(app.get_as(&owner, &format!("/api/orgs/{org}/invitations")).await, StatusCode::OK).await;
        let emails: Vec<&str> = left["data"]["items"].as_array().unwrap().iter().map(|i| i["email"].as_str().unwrap()).collect();
        assert_eq!(emails, ["friend@elsewhere.example"], "{left}");
        for kind in ["role_changed", "account_suspended"] {
            let noted = app.count(&format!("SELECT COUNT(*) FROM audit_events WHERE kind = '{kind}' AND detail LIKE '%1 pending invitation they sent revoked'")).await;
            assert_eq!(noted, 1, "{kind}");
        }
    }
}

/// A site admin's invitation in flight while their demotion commits: the invitation waits for
/// the demotion and is then refused, rather than going out on the power just taken away (after
/// the demotion has swept their invitations). Only PostgreSQL lets a demotion and an invitation
/// run at once; SQLite's one write lock orders them whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invitation_in_flight_when_its_sender_stops_being_a_site_admin_is_refused() {
    use sea_orm::{ConnectionTrait, TransactionTrait};

    let Some(app) = TestApp::spawn_postgres().await else {
        return;
    };
    let owner = person(&app, "owner@acme.example", "hire").await;
    let org = organization(&app, &owner, "Acme").await;
    let boss = person(&app, "boss@site.example", "admin").await;
    // The demotion, begun and not yet committed.
    let demotion = app.db.begin().await.unwrap();
    demotion
        .execute_unprepared("UPDATE users SET role = 'career' WHERE email = 'boss@site.example'")
        .await
        .unwrap();
    let path = format!("/api/orgs/{org}/invitations");
    let invitation = app.post_as(
        &boss,
        &path,
        json!({ "emails": ["heir@elsewhere.example"], "role": "owner" }),
    );
    tokio::pin!(invitation);
    crate::helpers::until_it_waits_on_a_lock(
        &app,
        invitation.as_mut(),
        "the invitation did not wait for the demotion",
    )
    .await;
    demotion.commit().await.unwrap();
    json_of(invitation.await, StatusCode::NOT_FOUND).await;
    assert_eq!(
        app.count("SELECT COUNT(*) FROM organization_invitations").await,
        0
    );
}

/// A site admin's invitation in flight while their account is deleted: the deletion waits for
/// it and then revokes it with the rest, rather than leaving a pending invitation whose sender
/// is gone (and which would still be accepted).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invitation_in_flight_when_its_senders_account_is_deleted_goes_with_it() {
    use sea_orm::{ConnectionTrait, TransactionTrait};

    let Some(app) = TestApp::spawn_postgres().await else {
        return;
    };
    let owner = person(&app, "owner@acme.example", "hire").await;
    let org = organization(&app, &owner, "Acme").await;
    let boss = person(&app, "boss@site.example", "admin").await;
    // Another admin stays to run the console (the only one may not leave).
    person(&app, "keeper@site.example", "admin").await;
    let boss_id = my_id(&app, &boss).await;
    // The invitation as `locked_access` leaves it until it commits: the sender's row
    // share-locked, the invitation written.
    let invitation = app.db.begin().await.unwrap();
    invitation
        .execute_unprepared(&format!("SELECT id FROM users WHERE id = '{boss_id}' FOR SHARE"))
        .await
        .unwrap();
    invitation
        .execute_unprepared(&format!(
            "INSERT INTO organization_invitations (id, organization_id, email, role, token_hash, status, invited_by, expires_at, created_at) \
             VALUES ('{}', '{org}', 'heir@elsewhere.example', 'owner', 'in-flight', 'pending', '{boss_id}', NOW() + INTERVAL '7 days', NOW())",
            uuid::Uuid::new_v4()
        ))
        .await
        .unwrap();
    let path = format!("/api/users/{boss_id}");
    let deletion = app.delete_as(&boss, &path);
    tokio::pin!(deletion);
    crate::helpers::until_it_waits_on_a_lock(
        &app,
        deletion.as_mut(),
        "the deletion did not wait for the invitation",
    )
    .await;
    invitation.commit().await.unwrap();
    json_of(deletion.await, StatusCode::OK).await;
    assert_eq!(
        app.count("SELECT COUNT(*) FROM organization_invitations WHERE status = 'pending'")
            .await,
        0
    );
}

/// An organization founded in the instant its founder's account is deleted: the deletion read
/// the account's memberships before the founding committed, and takes the account's lock
/// after. It reads them again under that lock, so the organization, left with nobody, goes with
/// the account instead of staying behind with no member to manage it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_organization_founded_as_its_founders_account_is_deleted_goes_with_it() {
    use sea_orm::{ConnectionTrait, TransactionTrait};

    let Some(app) = TestApp::spawn_postgres().await else {
        return;
    };
    let founder = person(&app, "founder@acme.example", "hire").await;
    let founder_id = my_id(&app, &founder).await;
    // The founding as `organizations::create` leaves it until it commits: the organization and
    // its owner written, the account's row key-share-locked by the membership's reference.
    let founding = app.db.begin().await.unwrap();
    let org = uuid::Uuid::new_v4();
    founding
        .execute_unprepared(&format!(
            "INSERT INTO organizations (id, name, slug, kind, created_at, updated_at) \
             VALUES ('{org}', 'Acme', 'acme', 'hire', NOW(), NOW())"
        ))
        .await
        .unwrap();
    founding
        .execute_unprepared(&format!(
            "INSERT INTO organization_members (organization_id, user_id, role, rank, name_key, joined_at) \
             VALUES ('{org}', '{founder_id}', 'owner', 0, 'founder', NOW())"
        ))
        .await
        .unwrap();
    let path = format!("/api/users/{founder_id}");
    let deletion = app.delete_as(&founder, &path);
    tokio::pin!(deletion);
    crate::helpers::until_it_waits_on_a_lock(
        &app,
        deletion.as_mut(),
        "the deletion did not wait for the founding",
    )
    .await;
    founding.commit().await.unwrap();
    json_of(deletion.await, StatusCode::OK).await;
    assert_eq!(app.count("SELECT COUNT(*) FROM users").await, 0);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM organizations").await,
        0,
        "no organization is left with nobody in it"
    );
}

/// Two transactions that each wait on the other's lock: PostgreSQL ends the cycle by refusing
/// one, which wrote nothing and goes through when sent again. A request refused so answers 503
/// with `Retry-After`, never a 500. Here the test's transaction holds the account's row and then
/// asks for its organization's, while the account's deletion holds the organization's row and
/// waits for the account's; the deletion, waiting longer, is the one refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_refused_to_end_a_deadlock_answers_503_and_can_be_sent_again() {
    use sea_orm::{ConnectionTrait, TransactionTrait};

    let Some(app) = TestApp::spawn_postgres().await else {
        return;
    };
    let owner = person(&app, "owner@acme.example", "hire").await;
    let owner_id = my_id(&app, &owner).await;
    let org = organization(&app, &owner, "Acme").await;
    let other = app.db.begin().await.unwrap();
    // This side never looks for the cycle first: the deletion's check finds it.
    other
        .execute_unprepared("SET LOCAL deadlock_timeout = '60s'")
        .await
        .unwrap();
    other
        .execute_unprepared(&format!("SELECT id FROM users WHERE id = '{owner_id}' FOR SHARE"))
        .await
        .unwrap();
    let path = format!("/api/users/{owner_id}");
    let deletion = app.delete_as(&owner, &path);
    tokio::pin!(deletion);
    crate::helpers::until_it_waits_on_a_lock(
        &app,
        deletion.as_mut(),
        "the deletion did not wait for the account's row",
    )
    .await;
    let cycle = format!("UPDATE organizations SET name = name WHERE id = '{org}'");
    let (locked, answer) = tokio::join!(other.execute_unprepared(&cycle), deletion);
    locked.expect("the test's side of the cycle goes on");
    other.rollback().await.unwrap();
    assert_eq!(answer.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(answer.headers()["retry-after"], "1");
    let body = json_of(answer, StatusCode::SERVICE_UNAVAILABLE).await;
    assert_eq!(body["code"], "UNAVAILABLE");
    assert_eq!(
        body["message"],
        "The service is busy. Please try again in a moment."
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM organizations").await,
        1,
        "nothing was written"
    );
    // Sent again, it goes through.
    json_of(app.delete_as(&owner, &path).await, StatusCode::OK).await;
    assert_eq!(app.count("SELECT COUNT(*) FROM organizations").await, 0);
}

db_test! {
    async fn invitations_are_mailed_skipped_with_reasons_and_accepted_once_by_the_invited_address(app: TestApp) {
        let owner = person(&app, "owner@acme.example", "hire").await;
        let org = organization(&app, &owner, "<b>Acme</b>").await;
        let data = invite(&app, &owner, &org, &["New.Hire@Acme.example", "new.hire@acme.example", "not an email", "owner@acme.example"]).await;
        assert_eq!(data["invitations"].as_array().unwrap().len(), 1);
        assert_eq!(data["invitations"][0]["email"], "new.hire@acme.example");
        assert_eq!(data["invitations"][0]["status"], "pending");
        assert_eq!(data["invitations"][0]["invitedBy"]["name"], "owner");
        assert_eq!(
            data["skipped"],
            json!([
                { "email": "new.hire@acme.example", "reason": "invited" },
                { "email": "not an email", "reason": "invalid" },
                { "email": "owner@acme.example", "reason": "member" },
            ])
        );
        // Inviting the same address again: skipped, no second mail.
        let again = invite(&app, &owner, &org, &["new.hire@acme.example"]).await;
        assert_eq!(again["skipped"], json!([{ "email": "new.hire@acme.example", "reason": "invited" }]));

        let mails = app.mail.wait_for("new.hire@acme.example", 1).await;
        let mail = mails[0].text();
        assert!(mail.contains("Join &lt;b&gt;Acme&lt;/b&gt;</h1>") && !mail.contains("Join <b>Acme</b></h1>"), "{mail}");
        let token = invitation_token(&app, "new.hire@acme.example", 1).await;
        // Only the token's hash is kept.
        assert_eq!(app.count(&format!("SELECT COUNT(*) FROM organization_invitations WHERE token_hash = '{token}'")).await, 0);
        assert_eq!(app.count("SELECT COUNT(*) FROM organization_invitations WHERE length(token_hash) = 64").await, 1);

        // The link shows who invites whom where, to anyone holding it.
        let shown = json_of(app.get(&format!("/api/invitations/{token}")).await, StatusCode::OK).await;
        assert_eq!(shown["data"]["invitation"]["organization"], json!({ "name": "<b>Acme</b>", "kind": "hire" }));
        assert_eq!(shown["data"]["invitation"]["email"], "new.hire@acme.example");
        assert_eq!(app.get("/api/invitations/nope").await.status(), StatusCode::NOT_FOUND);

        // Someone else's account cannot use it; an unverified one cannot either.
        let other = person(&app, "other@acme.example", "career").await;
        let wrong = json_of(app.post_as(&other, &format!("/api/invitations/{token}/accept"), json!({})).await, StatusCode::FORBIDDEN).await;
        assert_eq!(wrong["message"], "This invitation is for another email address");
        assert_eq!(app.post(&format!("/api/invitations/{token}/accept"), json!({})).await.status(), StatusCode::UNAUTHORIZED);

        // The invited person registers with that address and joins.
        let invited = signed_up_after(&app, "new.hire@acme.example", 1).await;
        let joined = json_of(app.post_as(&invited, &format!("/api/invitations/{token}/accept"), json!({})).await, StatusCode::OK).await;
        assert_eq!(joined["message"], "You joined <b>Acme</b>");
        assert_eq!(joined["data"]["organization"]["myRole"], "member");
        assert_eq!(joined["data"]["organization"]["memberCount"], 2);
        // Once.
        let used = json_of(app.post_as(&invited, &format!("/api/invitations/{token}/accept"), json!({})).await, StatusCode::GONE).await;
        assert_eq!(used["message"], "This invitation has expired");
        assert_eq!(app.get(&format!("/api/invitations/{token}")).await.status(), StatusCode::GONE);

        // A revoked invitation's link is dead at once; an expired one likewise.
        let data = invite(&app, &owner, &org, &["later@acme.example", "late@acme.example"]).await;
        let later = data["invitations"].as_array().unwrap().iter().find(|i| i["email"] == "later@acme.example").unwrap()["id"].as_str().unwrap().to_owned();
        let link = invitation_token(&app, "later@acme.example", 1).await;
        let revoked = json_of(app.delete_as(&owner, &format!("/api/orgs/{org}/invitations/{later}")).await, StatusCode::OK).await;
        assert_eq!(revoked["message"], "Invitation revoked");
        assert_eq!(app.get(&format!("/api/invitations/{link}")).await.status(), StatusCode::GONE);
        assert_eq!(app.delete_as(&owner, &format!("/api/orgs/{org}/invitations/{later}")).await.status(), StatusCode::NOT_FOUND);
        app.sql("UPDATE organization_invitations SET expires_at = '2020-01-01 00:00:00+00:00' WHERE email = 'late@acme.example'").await;
        let late = invitation_token(&app, "late@acme.example", 1).await;
        let expired = json_of(app.get(&format!("/api/invitations/{late}")).await, StatusCode::GONE).await;
        assert_eq!(expired["message"], "This invitation has expired");
        let pending = json_of(app.get_as(&owner, &format!("/api/orgs/{org}/invitations")).await, StatusCode::OK).await;
        assert_eq!(pending["data"]["items"], json!([]));

        // Bad calls: no addresses, over 500, a bad role.
        let path = format!("/api/orgs/{org}/invitations");
        let empty = json_of(app.post_as(&owner, &path, json!({ "emails": [] })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(empty["errors"]["emails"], "Add at least one email address");
        let many: Vec<String> = (0..501).map(|i| format!("p{i}@uni.example")).collect();
        let over = json_of(app.post_as(&owner, &path, json!({ "emails": many })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(over["errors"]["emails"], "At most 500 email addresses per invitation");
        assert_eq!(app.post_as(&owner, &path, json!({ "emails": ["a@b.example"], "role": "king" })).await.status(), StatusCode::BAD_REQUEST);
        assert_eq!(app.count("SELECT COUNT(*) FROM organization_invitations WHERE email LIKE 'p%@uni.example'").await, 0);
    }
}

db_test! {
    async fn a_seat_limit_lowered_below_the_members_keeps_everyone_out_until_it_is_raised(app: TestApp) {
        let owner = person(&app, "owner@uni.example", "campus").await;
        let org = organization(&app, &owner, "City University").await;
        let admin = person(&app, "root@talent.example", "admin").await;
        let student = person(&app, "s1@uni.example", "career").await;
        invite(&app, &owner, &org, &["s1@uni.example"]).await;
        let link = invitation_token(&app, "s1@uni.example", 2).await;
        // One member, one invitation pending: a limit of 1 may be set (nobody is removed)...
        let lowered = json_of(app.put_as(&admin, &format!("/api/orgs/{org}"), json!({ "seatLimit": 1 })).await, StatusCode::OK).await;
        assert_eq!(lowered["data"]["organization"]["seatLimit"], 1);
        // ...and then no one joins past it, and the invitation is kept for when seats free up.
        let accept = format!("/api/invitations/{link}/accept");
        let full = json_of(app.post_as(&student, &accept, json!({})).await, StatusCode::CONFLICT).await;
        assert_eq!(full["message"], "Seat limit reached");
        // Inviting someone already invited (or a member) sends nothing and takes no seat: the
        // skip is the answer, not the full organization.
        let again = invite(&app, &owner, &org, &["s1@uni.example", "owner@uni.example"]).await;
        assert_eq!(again["invitations"], json!([]));
        assert_eq!(again["skipped"], json!([{ "email": "s1@uni.example", "reason": "invited" }, { "email": "owner@uni.example", "reason": "member" }]));
        let kept = json_of(app.get(&format!("/api/invitations/{link}")).await, StatusCode::OK).await;
        assert_eq!(kept["data"]["invitation"]["status"], "pending");
        assert_eq!(app.get_as(&student, &format!("/api/orgs/{org}")).await.status(), StatusCode::NOT_FOUND);

        json_of(app.put_as(&admin, &format!("/api/orgs/{org}"), json!({ "seatLimit": 2 })).await, StatusCode::OK).await;
        let joined = json_of(app.post_as(&student, &accept, json!({})).await, StatusCode::OK).await;
        assert_eq!(joined["message"], "You joined City University");
        assert_eq!(joined["data"]["organization"]["memberCount"], 2);
    }
}

db_test! {
    async fn an_invitee_declines_without_an_account_and_the_seat_is_free_at_once(app: TestApp) {
        let owner = person(&app, "owner@uni.example", "campus").await;
        let org = organization(&app, &owner, "City University").await;
        let admin = person(&app, "root@talent.example", "admin").await;
        json_of(app.put_as(&admin, &format!("/api/orgs/{org}"), json!({ "seatLimit": 2 })).await, StatusCode::OK).await;
        invite(&app, &owner, &org, &["nobody-yet@uni.example"]).await;
        let link = invitation_token(&app, "nobody-yet@uni.example", 1).await;
        // The owner and one pending invitation fill both seats.
        let full = json_of(app.post_as(&owner, &format!("/api/orgs/{org}/invitations"), json!({ "emails": ["next@uni.example"], "role": "member" })).await, StatusCode::CONFLICT).await;
        assert_eq!(full["message"], "Seat limit reached");

        // No account and no sign-in needed to say no: the link is the secret.
        let declined = json_of(app.post(&format!("/api/invitations/{link}/decline"), json!({})).await, StatusCode::OK).await;
        assert_eq!(declined["message"], "Invitation declined");
        let gone = json_of(app.get(&format!("/api/invitations/{link}")).await, StatusCode::GONE).await;
        assert_eq!(gone["message"], "This invitation has expired");
        let again = json_of(app.post(&format!("/api/invitations/{link}/decline"), json!({})).await, StatusCode::GONE).await;
        assert_eq!(again["message"], "This invitation has expired");
        let unknown = app.post("/api/invitations/no-such-link/decline", json!({})).await;
        assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
        let pending = json_of(app.get_as(&owner, &format!("/api/orgs/{org}/invitations")).await, StatusCode::OK).await;
        assert_eq!(pending["data"]["items"], json!([]));
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'organization_invitation_declined' AND user_id IS NULL").await, 1);
        // Its seat is free at once.
        invite(&app, &owner, &org, &["next@uni.example"]).await;

        // GraphQL says the same, for the same token states.
        let link = invitation_token(&app, "next@uni.example", 1).await;
        let decline = "mutation($token: String!) { declineInvitation(token: $token) { message } }";
        let done = app.graphql(None, decline, json!({ "token": link })).await;
        assert_eq!(done["data"]["declineInvitation"]["message"], "Invitation declined", "{done}");
        let twice = app.graphql(None, decline, json!({ "token": link })).await;
        assert_eq!(twice["errors"][0]["message"], "This invitation has expired", "{twice}");
    }
}

db_test! {
    async fn two_invitations_accepted_at_once_for_the_last_seat_let_one_in(app: TestApp) {
        let owner = person(&app, "owner@uni.example", "campus").await;
        let org = organization(&app, &owner, "City University").await;
        let admin = person(&app, "root@talent.example", "admin").await;
        let (ann, bo) = (person(&app, "ann@uni.example", "career").await, person(&app, "bo@uni.example", "career").await);
        invite(&app, &owner, &org, &["ann@uni.example", "bo@uni.example"]).await;
        let (ann_link, bo_link) = (invitation_token(&app, "ann@uni.example", 2).await, invitation_token(&app, "bo@uni.example", 2).await);
        // The owner and one seat left, two invitations out.
        json_of(app.put_as(&admin, &format!("/api/orgs/{org}"), json!({ "seatLimit": 2 })).await, StatusCode::OK).await;
        let (ann_accept, bo_accept) = (format!("/api/invitations/{ann_link}/accept"), format!("/api/invitations/{bo_link}/accept"));
        let (a, b) = tokio::join!(app.post_as(&ann, &ann_accept, json!({})), app.post_as(&bo, &bo_accept, json!({})));
        let mut statuses = [a.status(), b.status()];
        statuses.sort();
        assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT]);
        let read = json_of(app.get_as(&owner, &format!("/api/orgs/{org}")).await, StatusCode::OK).await;
        assert_eq!(read["data"]["organization"]["memberCount"], 2);
    }
}

db_test! {
    async fn the_seat_limit_fails_the_whole_call_and_only_a_site_admin_sets_it(app: TestApp) {
        let owner = person(&app, "owner@uni.example", "campus").await;
        let org = organization(&app, &owner, "City University").await;
        let admin = person(&app, "root@talent.example", "admin").await;
        // A site admin who is not a member sees it (myRole null) and sets the limit.
        let set = json_of(app.put_as(&admin, &format!("/api/orgs/{org}"), json!({ "seatLimit": 3 })).await, StatusCode::OK).await;
        assert_eq!(set["data"]["organization"]["seatLimit"], 3);
        assert_eq!(set["data"]["organization"]["myRole"], Value::Null);

        invite(&app, &owner, &org, &["s1@uni.example"]).await;
        // 1 member + 1 pending + 2 new = 4 > 3: nothing is sent.
        let full = json_of(
            app.post_as(&owner, &format!("/api/orgs/{org}/invitations"), json!({ "emails": ["s2@uni.example", "s3@uni.example"] })).await,
            StatusCode::CONFLICT,
        )
        .await;
        assert_eq!(full["message"], "Seat limit reached");
        assert_eq!(app.count("SELECT COUNT(*) FROM organization_invitations").await, 1);
        assert_eq!(app.count("SELECT COUNT(*) FROM mail_outbox WHERE recipient IN ('s2@uni.example', 's3@uni.example')").await, 0);
        invite(&app, &owner, &org, &["s2@uni.example"]).await;

        // The day's cap: 1,000 invitations per organization.
        // (SQLite keeps ids as blobs: rows are found by name here.)
        app.sql("UPDATE organizations SET seat_limit = NULL WHERE name = 'City University'").await;
        let batch = |from: usize| (from..from + 500).map(|i| format!("bulk{i}@uni.example")).collect::<Vec<_>>();
        for from in [0, 500] {
            let emails = batch(from);
            let response = app.post_as(&owner, &format!("/api/orgs/{org}/invitations"), json!({ "emails": emails })).await;
            if from == 0 {
                let data = json_of(response, StatusCode::CREATED).await;
                assert_eq!(data["data"]["invitations"].as_array().unwrap().len(), 500);
            } else {
                // Until the day's first invitation, minutes old, is a day old.
                let wait: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
                assert!((86_000..=86_400).contains(&wait), "{wait}");
                let refused = json_of(response, StatusCode::TOO_MANY_REQUESTS).await;
                assert_eq!(refused["code"], "RATE_LIMITED");
            }
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM organization_invitations").await, 502);
    }
}

db_test! {
    async fn twenty_parallel_accepts_make_one_membership(app: TestApp) {
        let owner = person(&app, "owner@acme.example", "hire").await;
        let org = organization(&app, &owner, "Acme").await;
        let invited = person(&app, "race@acme.example", "career").await;
        invite(&app, &owner, &org, &["race@acme.example"]).await;
        let token = invitation_token(&app, "race@acme.example", 2).await;
        let path = format!("/api/invitations/{token}/accept");
        let answers = futures::future::join_all((0..20).map(|_| app.post_as(&invited, &path, json!({})))).await;
        let statuses: Vec<StatusCode> = answers.iter().map(reqwest::Response::status).collect();
        assert_eq!(statuses.iter().filter(|s| **s == StatusCode::OK).count(), 1, "{statuses:?}");
        assert!(statuses.iter().all(|s| *s == StatusCode::OK || *s == StatusCode::GONE), "{statuses:?}");
        assert_eq!(app.count("SELECT COUNT(*) FROM organization_members").await, 2);
        assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'organization_joined'").await, 1);
    }
}

db_test! {
    async fn twenty_parallel_declines_and_accepts_settle_the_invitation_once(app: TestApp) {
        let owner = person(&app, "owner@acme.example", "hire").await;
        let org = organization(&app, &owner, "Acme").await;
        let invited = person(&app, "race@acme.example", "career").await;
        invite(&app, &owner, &org, &["race@acme.example"]).await;
        let token = invitation_token(&app, "race@acme.example", 2).await;
        let (accept, decline) = (format!("/api/invitations/{token}/accept"), format!("/api/invitations/{token}/decline"));
        let answers = futures::future::join_all((0..20).map(|i| {
            // Accepts by the invitee, declines by anyone holding the link.
            let request = if i % 2 == 0 { app.client.post(app.url(&accept)).bearer_auth(&invited) } else { app.client.post(app.url(&decline)) };
            request.json(&json!({})).send()
        }))
        .await;
        let statuses: Vec<StatusCode> = answers.into_iter().map(|answer| answer.unwrap().status()).collect();
        assert_eq!(statuses.iter().filter(|s| **s == StatusCode::OK).count(), 1, "{statuses:?}");
        assert!(statuses.iter().all(|s| *s == StatusCode::OK || *s == StatusCode::GONE), "{statuses:?}");
        let joined = app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'organization_joined'").await;
        let declined = app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'organization_invitation_declined'").await;
        assert_eq!(joined + declined, 1, "one outcome, recorded once");
        assert_eq!(app.count("SELECT COUNT(*) FROM organization_members").await, 1 + joined);
    }
}

db_test! {
    async fn two_owners_demoting_each_other_at_once_leave_one_owner(app: TestApp) {
        let first = person(&app, "first@acme.example", "hire").await;
        let first_id = my_id(&app, &first).await;
        for round in 0..5 {
            let org = organization(&app, &first, &format!("Acme {round}")).await;
            let second = if round == 0 {
                member_of(&app, &first, &org, "second@acme.example").await
            } else {
                let token = json_of(app.login("second@acme.example", crate::helpers::PASSWORD).await, StatusCode::OK).await;
                let token = token["data"]["token"].as_str().unwrap().to_owned();
                invite(&app, &first, &org, &["second@acme.example"]).await;
                let link = invitation_token(&app, "second@acme.example", round + 2).await;
                assert_eq!(app.post_as(&token, &format!("/api/invitations/{link}/accept"), json!({})).await.status(), StatusCode::OK);
                token
            };
            let second_id = my_id(&app, &second).await;
            let promote = app.put_as(&first, &format!("/api/orgs/{org}/members/{second_id}"), json!({ "role": "owner" })).await;
            assert_eq!(promote.status(), StatusCode::OK);
            let (demote_second, demote_first) = (
                format!("/api/orgs/{org}/members/{second_id}"),
                format!("/api/orgs/{org}/members/{first_id}"),
            );
            let (a, b) = tokio::join!(
                app.put_as(&first, &demote_second, json!({ "role": "member" })),
                app.put_as(&second, &demote_first, json!({ "role": "member" })),
            );
            // One wins; the other finds itself no owner any more (403) or the last one (409).
            let mut statuses = [a.status(), b.status()];
            statuses.sort();
            assert_eq!(statuses[0], StatusCode::OK, "{statuses:?}");
            assert!(matches!(statuses[1], StatusCode::FORBIDDEN | StatusCode::CONFLICT), "{statuses:?}");
            let owners = app.count(&format!("SELECT COUNT(*) FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE o.name = 'Acme {round}' AND m.role = 'owner'")).await;
            assert_eq!(owners, 1, "round {round}: {statuses:?}");
        }
    }
}

db_test! {
    async fn members_page_by_cursor_and_follow_renames(app: TestApp) {
        let owner = person(&app, "owner@acme.example", "hire").await;
        let org = organization(&app, &owner, "Acme").await;
        for i in 0..7 {
            member_of(&app, &owner, &org, &format!("p{i}@acme.example")).await;
        }
        let mut seen = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let path = match &cursor {
                Some(c) => format!("/api/orgs/{org}/members?limit=3&cursor={c}"),
                None => format!("/api/orgs/{org}/members?limit=3"),
            };
            let page = json_of(app.get_as(&owner, &path).await, StatusCode::OK).await;
            for item in page["data"]["items"].as_array().unwrap() {
                seen.push(item["user"]["name"].as_str().unwrap().to_owned());
            }
            match page["data"]["nextCursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => break,
            }
        }
        let expected: Vec<String> = std::iter::once("owner".to_owned()).chain((0..7).map(|i| format!("p{i}"))).collect();
        assert_eq!(seen, expected);
        for bad in ["limit=0", "limit=101", "limit=x", "cursor=garbage"] {
            assert_eq!(app.get_as(&owner, &format!("/api/orgs/{org}/members?{bad}")).await.status(), StatusCode::BAD_REQUEST, "{bad}");
        }
        // The owner renames themself "Zed": owners still come first, and the key follows.
        assert_eq!(app.put_as(&owner, "/api/users/profile", json!({ "name": "Zed" })).await.status(), StatusCode::OK);
        assert_eq!(app.count("SELECT COUNT(*) FROM organization_members WHERE name_key = 'zed'").await, 1);
        let first = json_of(app.get_as(&owner, &format!("/api/orgs/{org}/members?limit=1")).await, StatusCode::OK).await;
        assert_eq!(first["data"]["items"][0]["user"]["name"], "Zed");
    }
}

db_test! {
    async fn a_deleted_owner_hands_the_organization_over_and_an_empty_one_goes(app: TestApp) {
        let owner = person(&app, "owner@acme.example", "hire").await;
        let team = organization(&app, &owner, "Team").await;
        let solo = organization(&app, &owner, "Solo").await;
        let ann = member_of(&app, &owner, &team, "ann@acme.example").await;
        // Bo joined after Ann, but as an admin: the organization passes to an admin first.
        let bo = member_of(&app, &owner, &team, "bo@acme.example").await;
        let bo_id = my_id(&app, &bo).await;
        let promoted = app.put_as(&owner, &format!("/api/orgs/{team}/members/{bo_id}"), json!({ "role": "admin" })).await;
        assert_eq!(promoted.status(), StatusCode::OK);
        let owner_id = my_id(&app, &owner).await;
        assert_eq!(app.delete_as(&owner, &format!("/api/users/{owner_id}")).await.status(), StatusCode::OK);
        let team_now = json_of(app.get_as(&bo, &format!("/api/orgs/{team}")).await, StatusCode::OK).await;
        assert_eq!(team_now["data"]["organization"]["myRole"], "owner");
        assert_eq!(team_now["data"]["organization"]["memberCount"], 2);
        let for_ann = json_of(app.get_as(&ann, &format!("/api/orgs/{team}")).await, StatusCode::OK).await;
        assert_eq!(for_ann["data"]["organization"]["myRole"], "member");
        assert_eq!(app.count("SELECT COUNT(*) FROM organizations WHERE name = 'Solo'").await, 0);
        assert_eq!(app.get_as(&ann, &format!("/api/orgs/{solo}")).await.status(), StatusCode::NOT_FOUND);
        // The invitations Ann and Bo accepted keep no inviter.
        assert_eq!(app.count("SELECT COUNT(*) FROM organization_invitations WHERE invited_by IS NULL").await, 2);
        // The audit log tells each change, by the one who deleted the account.
        let bo_changed = format!(
            "SELECT COUNT(*) FROM audit_events WHERE kind = 'organization_member_changed' \
             AND detail = 'organization {team}: owner, its only owner''s account deleted'"
        );
        assert_eq!(app.count(&bo_changed).await, 1);
        assert_eq!(
            app.count(&format!(
                "SELECT COUNT(*) FROM audit_events WHERE kind = 'organization_deleted' \
                 AND detail LIKE 'organization {solo} (solo%): nobody left once its owner''s account was deleted'"
            ))
            .await,
            1
        );
        assert_eq!(
            app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'account_deleted' AND detail = 'left 2 organizations'")
                .await,
            1
        );
    }
}

db_test! {
    async fn an_address_gets_at_most_ten_invitations_a_day_however_they_are_sent(app: TestApp) {
        let owner = person(&app, "owner@acme.example", "hire").await;
        let first = organization(&app, &owner, "First").await;
        // Invited and revoked eight times over by one organization...
        for _ in 0..8 {
            let sent = invite(&app, &owner, &first, &["victim@elsewhere.example"]).await;
            let id = sent["invitations"][0]["id"].as_str().expect("an invitation").to_owned();
            let revoked = app.delete_as(&owner, &format!("/api/orgs/{first}/invitations/{id}")).await;
            assert_eq!(revoked.status(), StatusCode::OK);
        }
        // ...then by two more, and a deleted one's invitations still count.
        let second = organization(&app, &owner, "Second").await;
        assert_eq!(invite(&app, &owner, &second, &["victim@elsewhere.example"]).await["invitations"].as_array().unwrap().len(), 1);
        assert_eq!(app.delete_as(&owner, &format!("/api/orgs/{second}")).await.status(), StatusCode::OK);
        let third = organization(&app, &owner, "Third").await;
        assert_eq!(invite(&app, &owner, &third, &["victim@elsewhere.example"]).await["invitations"].as_array().unwrap().len(), 1);
        // The eleventh is skipped, from any organization and under a +alias of the same
        // inbox; another address still goes.
        let fourth = organization(&app, &owner, "Fourth").await;
        let sent = invite(&app, &owner, &fourth, &["victim@elsewhere.example", "victim+again@elsewhere.example", "friend@elsewhere.example"]).await;
        assert_eq!(
            sent["skipped"],
            json!([{ "email": "victim@elsewhere.example", "reason": "invited" }, { "email": "victim+again@elsewhere.example", "reason": "invited" }])
        );
        assert_eq!(sent["invitations"][0]["email"], "friend@elsewhere.example");
        assert_eq!(app.count("SELECT COUNT(*) FROM mail_outbox WHERE recipient = 'victim@elsewhere.example'").await, 10);
        // A call refused for its seats counts nothing against the address: after nine, the
        // tenth still goes.
        for _ in 0..9 {
            let sent = invite(&app, &owner, &fourth, &["other@elsewhere.example"]).await;
            let id = sent["invitations"][0]["id"].as_str().expect("an invitation").to_owned();
            assert_eq!(app.delete_as(&owner, &format!("/api/orgs/{fourth}/invitations/{id}")).await.status(), StatusCode::OK);
        }
        app.sql("UPDATE organizations SET seat_limit = 1 WHERE name = 'Fourth'").await;
        let refused = app
            .post_as(&owner, &format!("/api/orgs/{fourth}/invitations"), json!({ "emails": ["other@elsewhere.example"] }))
            .await;
        assert_eq!(refused.status(), StatusCode::CONFLICT);
        app.sql("UPDATE organizations SET seat_limit = NULL WHERE name = 'Fourth'").await;
        assert_eq!(invite(&app, &owner, &fourth, &["other@elsewhere.example"]).await["skipped"], json!([]));
    }
}

db_test! {
    async fn my_organizations_come_by_name_whatever_its_case(app: TestApp) {
        let owner = person(&app, "owner@acme.example", "campus").await;
        for name in ["Zeta Corp", "alpha corp", "Beta corp"] {
            organization(&app, &owner, name).await;
        }
        let rest = json_of(app.get_as(&owner, "/api/orgs").await, StatusCode::OK).await;
        let names: Vec<&str> = rest["data"]["organizations"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["alpha corp", "Beta corp", "Zeta Corp"]);
        let graphql = app.graphql(Some(&owner), "{ organizations { name } }", json!({})).await;
        assert_eq!(graphql["data"]["organizations"], json!([{ "name": "alpha corp" }, { "name": "Beta corp" }, { "name": "Zeta Corp" }]));
    }
}

db_test! {
    async fn names_cannot_hide_or_turn_around_what_they_show(app: TestApp) {
        let owner = person(&app, "owner@acme.example", "hire").await;
        // A direction override shows "Acme\u{202e}exe.moc" as "Acmecom.exe"; a zero-width
        // space or a byte-order mark is there unseen.
        // So are a grapheme joiner, Hangul and Khmer fillers, an annotation mark and tag letters
        // (an outside probe wrote "evil.\u{34f}com" into an invitation mail with them).
        for name in [
            "Acme\u{202e}exe.moc", "Acme\u{2066}Corp\u{2069}", "pay\u{200b}pal", "\u{feff}Acme",
            "evil.\u{34f}com", "Acme\u{3164}", "Acme\u{115f}", "Acme\u{17b4}", "Acme\u{fff9}", "Acme\u{e0041}",
        ] {
            let created = json_of(app.post_as(&owner, "/api/orgs", json!({ "name": name })).await, StatusCode::BAD_REQUEST).await;
            assert_eq!(
                created["errors"]["name"],
                "Organization name must be at most 100 characters, without control characters",
                "{name:?}"
            );
            let renamed = json_of(app.put_as(&owner, "/api/users/profile", json!({ "name": name })).await, StatusCode::BAD_REQUEST).await;
            assert_eq!(renamed["errors"]["name"], "Name cannot contain control characters", "{name:?}");
        }
        // The joiner an emoji or a script needs to be written right stays.
        let joined = "Ada \u{1f469}\u{200d}\u{1f4bb} \u{645}\u{200c}\u{627}";
        assert_eq!(app.put_as(&owner, "/api/users/profile", json!({ "name": joined })).await.status(), StatusCode::OK);
        organization(&app, &owner, joined).await;
        assert_eq!(app.count("SELECT COUNT(*) FROM organizations").await, 1);
        // A variation selector an emoji needs may stand in a name, but not hide an address
        // in a mail: the invitation names neither the inviter nor the organization then.
        let disguised = "Support at evil.\u{fe0f}com";
        assert_eq!(app.put_as(&owner, "/api/users/profile", json!({ "name": disguised })).await.status(), StatusCode::OK);
        let id = organization(&app, &owner, "Go to evil.\u{fe0f}com now").await;
        json_of(app.post_as(&owner, &format!("/api/orgs/{id}/invitations"), json!({ "emails": ["lured@example.com"], "role": "member" })).await, StatusCode::CREATED).await;
        let mail = app.mail.wait_for("lured@example.com", 1).await.remove(0);
        assert!(!mail.text().contains("evil"), "{}", mail.text());
        assert!(!mail.subject().contains("evil"), "{}", mail.subject());
        // A name is never read again for the mail's placeholders: "evil.{{organization}}"
        // beside an organization "com" once read "Refunds at evil.com invited you", and an
        // organization "{{link}}" put the invitation's link in the subject.
        let templated = "Refunds at evil.{{organization}}";
        assert_eq!(app.put_as(&owner, "/api/users/profile", json!({ "name": templated })).await.status(), StatusCode::OK);
        for (name, to) in [("com", "lured2@example.com"), ("{{link}}", "lured3@example.com")] {
            let id = organization(&app, &owner, name).await;
            json_of(app.post_as(&owner, &format!("/api/orgs/{id}/invitations"), json!({ "emails": [to], "role": "member" })).await, StatusCode::CREATED).await;
            let mail = app.mail.wait_for(to, 1).await.remove(0);
            assert!(!mail.text().contains("evil.com"), "{}", mail.text());
            assert!(!mail.subject().contains("/invitations/"), "{}", mail.subject());
            assert!(mail.text().contains(&format!("join {name} on")), "{}", mail.text());
        }
    }
}

db_test! {
    async fn the_graphql_twins_answer_like_rest(app: TestApp) {
        let owner = person(&app, "owner@acme.example", "hire").await;
        let created = app.graphql(Some(&owner), "mutation { createOrganization(input: { name: \"Graph Co\" }) { message organization { id name slug kind myRole memberCount seatLimit } } }", json!({})).await;
        let payload = &created["data"]["createOrganization"];
        assert_eq!(payload["message"], "Organization created");
        assert_eq!(payload["organization"]["slug"], "graph-co");
        let id = payload["organization"]["id"].as_str().unwrap().to_owned();
        let rest = json_of(app.get_as(&owner, &format!("/api/orgs/{id}")).await, StatusCode::OK).await;
        for key in ["id", "name", "slug", "kind", "myRole", "memberCount", "seatLimit"] {
            assert_eq!(rest["data"]["organization"][key], payload["organization"][key], "{key}");
        }
        let invited = app.graphql(Some(&owner), "mutation($id: ID!) { inviteMembers(organizationId: $id, input: { emails: [\"g@acme.example\", \"bad\"] }) { message invitations { email role status } skipped { email reason } } }", json!({ "id": id })).await;
        assert_eq!(invited["data"]["inviteMembers"]["message"], "Invitations sent");
        assert_eq!(invited["data"]["inviteMembers"]["invitations"], json!([{ "email": "g@acme.example", "role": "member", "status": "pending" }]));
        assert_eq!(invited["data"]["inviteMembers"]["skipped"], json!([{ "email": "bad", "reason": "invalid" }]));
        let members = app.graphql(Some(&owner), "query($id: ID!) { members(organizationId: $id) { items { role user { email } } nextCursor } }", json!({ "id": id })).await;
        assert_eq!(members["data"]["members"], json!({ "items": [{ "role": "owner", "user": { "email": "owner@acme.example" } }], "nextCursor": null }));
        let owner_id = my_id(&app, &owner).await;
        let last = app.graphql(Some(&owner), "mutation($id: ID!, $user: ID!) { removeMember(organizationId: $id, userId: $user) { message } }", json!({ "id": id, "user": owner_id })).await;
        assert_eq!(last["errors"][0]["message"], "An organization needs at least one owner");
        assert_eq!(last["errors"][0]["extensions"]["code"], "CONFLICT");
    }
}

db_test! {
    async fn a_cross_site_form_with_the_cookie_cannot_accept_invite_or_leave(app: TestApp) {
        let owner = person(&app, "owner@acme.example", "hire").await;
        let org = organization(&app, &owner, "Acme").await;
        let invited = person(&app, "victim@acme.example", "career").await;
        invite(&app, &owner, &org, &["victim@acme.example"]).await;
        let link = invitation_token(&app, "victim@acme.example", 2).await;
        let owner_cookie = format!("ts_session={owner}");
        let victim_cookie = format!("ts_session={invited}");
        let attacks = [
            (format!("/api/invitations/{link}/accept"), victim_cookie.clone(), "text/plain", String::new()),
            (format!("/api/invitations/{link}/accept"), victim_cookie.clone(), "application/json", "{}".to_owned()),
            // A decline needs no cookie, but a forged form must not throw the invitation away.
            (format!("/api/invitations/{link}/decline"), victim_cookie.clone(), "text/plain", String::new()),
            (format!("/api/invitations/{link}/decline"), victim_cookie, "application/x-www-form-urlencoded", "a=b".to_owned()),
            (format!("/api/orgs/{org}/invitations"), owner_cookie.clone(), "text/plain", r#"{"emails":["spam@evil.example"]}"#.to_owned()),
            (format!("/api/orgs/{org}/invitations"), owner_cookie, "application/json", r#"{"emails":["spam@evil.example"]}"#.to_owned()),
        ];
        for (path, cookie, content_type, body) in attacks {
            let response = app.client.post(app.url(&path)).header("cookie", cookie).header("origin", "https://evil.example")
                .header("sec-fetch-site", "cross-site").header("content-type", content_type).body(body).send().await.unwrap();
            assert!(
                matches!(response.status(), StatusCode::FORBIDDEN | StatusCode::UNSUPPORTED_MEDIA_TYPE),
                "{path} {content_type}: {}",
                response.status()
            );
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM organization_members").await, 1, "nobody joined");
        assert_eq!(app.count("SELECT COUNT(*) FROM organization_invitations").await, 1, "nothing sent");
        assert_eq!(app.count("SELECT COUNT(*) FROM organization_invitations WHERE status = 'pending'").await, 1);
        // From the site itself, with the same cookie, the accept works.
        let response = app.client.post(app.url(&format!("/api/invitations/{link}/accept")))
            .header("cookie", format!("ts_session={invited}")).header("origin", app.address.as_str()).json(&json!({})).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
    }
}

db_test! {
    async fn an_owner_removed_in_the_same_instant_deletes_nothing(app: TestApp) {
        let owner = person(&app, "first@acme.example", "hire").await;
        for round in 0..6 {
            let org = organization(&app, &owner, &format!("Race {round}")).await;
            let second = member_of(&app, &owner, &org, &format!("second{round}@acme.example")).await;
            let verified = json_of(app.get_as(&second, "/api/auth/verify").await, StatusCode::OK).await;
            let second_id = verified["data"]["user"]["id"].as_str().unwrap().to_owned();
            let member = format!("/api/orgs/{org}/members/{second_id}");
            let path = format!("/api/orgs/{org}");
            assert_eq!(app.put_as(&owner, &member, json!({ "role": "owner" })).await.status(), StatusCode::OK);
            // The first owner removes the second while the second deletes the organization:
            // one of the two happens, never both.
            let (removed, acted) = tokio::join!(app.delete_as(&owner, &member), app.delete_as(&second, &path));
            let (removed, acted) = (removed.status(), acted.status());
            assert!(
                (removed == StatusCode::OK) != (acted == StatusCode::OK),
                "round {round}: removal {removed}, the removed owner's deletion {acted}"
            );
        }
        // Deletions sent together: one deletes and is recorded, the others find nothing.
        let org = organization(&app, &owner, "Once").await;
        let path = format!("/api/orgs/{org}");
        let answers = futures::future::join_all((0..10).map(|_| app.delete_as(&owner, &path))).await;
        let deleted = answers.iter().filter(|answer| answer.status() == StatusCode::OK).count();
        assert_eq!(deleted, 1, "{:?}", answers.iter().map(reqwest::Response::status).collect::<Vec<_>>());
        assert!(answers.iter().all(|answer| matches!(answer.status(), StatusCode::OK | StatusCode::NOT_FOUND)));
        assert_eq!(
            app.count(&format!("SELECT COUNT(*) FROM audit_events WHERE kind = 'organization_deleted' AND detail LIKE '%{org}%'")).await,
            1
        );
    }
}
