//! The outbox and its worker: nothing lost while the mail server is down, nothing sent twice.

use std::{
    collections::HashSet,
    time::{Duration, Instant},
};

use futures::future::join_all;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{Backend, TestApp, json_of};
use crate::smtp::SmtpCatcher;

async fn spawn_with_smtp_down(backend: Backend) -> (TestApp, SmtpCatcher) {
    let smtp = SmtpCatcher::down();
    let app = TestApp::builder(backend).mail_server(smtp.clone()).start().await;
    (app, smtp)
}

async fn smtp_down_then_up_delivers_every_queued_mail_once(backend: Backend) {
    let (app, smtp) = spawn_with_smtp_down(backend).await;
    let people = ["one@example.com", "two@example.com", "three@example.com"];
    for email in people {
        json_of(app.register(email).await, StatusCode::CREATED).await;
        // The request does not wait for the mail server.
        json_of(app.send_code(email).await, StatusCode::OK).await;
    }
    // The worker has tried each one and failed (it ran), and nothing reached anybody.
    let tried = app
        .eventually(
            "SELECT COUNT(*) FROM mail_outbox WHERE attempts > 0 AND sent_at IS NULL",
            3,
        )
        .await;
    assert_eq!(tried, 3, "each mail was tried while the server was down");
    assert!(smtp.all().await.is_empty());

    smtp.listen();
    let mut ids = HashSet::new();
    for email in people {
        let mails = smtp.wait_for(email, 1).await;
        assert_eq!(crate::helpers::code_in(&mails[0]).len(), 6);
        // Each mail names itself by its outbox row, so a copy sent again is known as one.
        let id = mails[0]
            .data
            .lines()
            .find_map(|line| line.strip_prefix("Message-ID: "))
            .unwrap_or_else(|| panic!("a Message-ID header: {}", mails[0].data));
        let row = id.trim_start_matches('<').split('@').next().unwrap();
        assert!(uuid::Uuid::parse_str(row).is_ok(), "{id}");
        assert!(id.ends_with("@talent.test>"), "{id}");
        assert!(ids.insert(id.to_owned()), "one id for each mail: {id}");
    }
    app.mail_settled().await;
    assert_eq!(
        smtp.all().await.len(),
        people.len() + 1,
        "each mail exactly once, and the marker"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smtp_down_then_up_delivers_every_queued_mail_once_on_sqlite() {
    smtp_down_then_up_delivers_every_queued_mail_once(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smtp_down_then_up_delivers_every_queued_mail_once_on_postgres() {
    if TestApp::postgres_configured() {
        smtp_down_then_up_delivers_every_queued_mail_once(Backend::Postgres).await;
    }
}

db_test! {
    async fn a_mail_is_delivered_within_two_seconds_of_the_commit(app: TestApp) {
        app.register("fast@example.com").await;
        app.send_code("fast@example.com").await;
        app.mail.wait_for("fast@example.com", 1).await;
        // API.md's promise, read from the server's own record of the mail: written to the
        // outbox with the commit, marked sent by the worker it woke.
        use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
        let mut row = None;
        for _ in 0..50 {
            row = entity::mail_outbox::Entity::find()
                .filter(entity::mail_outbox::Column::Recipient.eq("fast@example.com"))
                .one(&app.db)
                .await
                .unwrap()
                .filter(|r| r.sent_at.is_some());
            if row.is_some() { break; }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let row = row.expect("the outbox row is marked sent");
        let took = row.sent_at.unwrap() - row.created_at;
        assert!(took < chrono::Duration::seconds(2), "sent {took} after the commit");
    }
}

/// The same outage with a few hundred mails: forgot-password for 300 addresses (with no
/// account, each gets its note), sent thirty at a time.
async fn smtp_outage_under_load(backend: Backend) {
    let (app, smtp) = spawn_with_smtp_down(backend).await;
    let emails: Vec<String> = (0..300).map(|i| format!("outage{i}@example.com")).collect();
    for chunk in emails.chunks(30) {
        let requests = chunk
            .iter()
            .map(|email| app.post("/api/auth/forgot-password", json!({ "email": email })));
        for response in join_all(requests).await {
            assert_eq!(response.status(), StatusCode::OK);
        }
    }
    let tried = app
        .eventually("SELECT COUNT(*) FROM mail_outbox WHERE attempts > 0", 1)
        .await;
    assert!(tried >= 1, "the worker tried while the server was down");
    assert!(smtp.all().await.is_empty(), "the mail server is down");
    smtp.listen();
    let deadline = Instant::now() + Duration::from_secs(90);
    while smtp.all().await.len() < emails.len() {
        assert!(
            Instant::now() < deadline,
            "only {} of {} delivered",
            smtp.all().await.len(),
            emails.len()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    app.mail_settled().await;
    let delivered = smtp.all().await;
    assert_eq!(
        delivered.len(),
        emails.len() + 1,
        "each mail exactly once, and the marker"
    );
    let recipients: HashSet<String> = delivered.iter().flat_map(|m| m.to.clone()).collect();
    assert_eq!(recipients.len(), emails.len() + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_hundred_mails_queued_while_smtp_is_down_arrive_once_when_it_returns_on_sqlite() {
    smtp_outage_under_load(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_hundred_mails_queued_while_smtp_is_down_arrive_once_when_it_returns_on_postgres() {
    if TestApp::postgres_configured() {
        smtp_outage_under_load(Backend::Postgres).await;
    }
}

/// A mail server that takes the connection and then never says a word.
async fn silent_mail_server() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    port
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mail_server_that_never_answers_holds_a_delivery_for_seconds_not_for_ever() {
    let port = silent_mail_server().await;
    let app = TestApp::builder(Backend::Sqlite)
        .env("SMTP_URL", &format!("smtp://127.0.0.1:{port}"))
        .start()
        .await;
    json_of(app.register("quiet@example.com").await, StatusCode::CREATED).await;
    json_of(app.send_code("quiet@example.com").await, StatusCode::OK).await;
    // The worker gives up on the silent server and records why, instead of waiting on it for
    // ever with every later mail behind it; the mail stays queued for its next try.
    let gave_up = "SELECT COUNT(*) FROM mail_outbox WHERE attempts = 1 AND sent_at IS NULL \
                   AND last_error LIKE '%did not answer%'";
    assert_eq!(
        app.eventually_within(gave_up, 1, Duration::from_secs(50)).await,
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mail_whose_code_expires_soonest_goes_first() {
    let (app, smtp) = spawn_with_smtp_down(Backend::Sqlite).await;
    // A reset link (30 minutes to live) queued first, then a sign-up code (10 minutes).
    let early = "early@example.com";
    json_of(app.register(early).await, StatusCode::CREATED).await;
    app.post("/api/auth/forgot-password", json!({ "email": early }))
        .await;
    let late = "late@example.com";
    json_of(app.register(late).await, StatusCode::CREATED).await;
    json_of(app.send_code(late).await, StatusCode::OK).await;
    let tried = "SELECT COUNT(*) FROM mail_outbox WHERE attempts > 0 AND sent_at IS NULL";
    assert_eq!(app.eventually(tried, 2).await, 2);
    // Both held back while the server comes up, then due at the same moment: the worker
    // chooses between them.
    app.sql("UPDATE mail_outbox SET next_attempt_at = '2999-01-01 00:00:00+00:00'")
        .await;
    smtp.listen();
    app.sql("UPDATE mail_outbox SET next_attempt_at = created_at")
        .await;
    smtp.wait_for(early, 1).await;
    let order: Vec<String> = smtp.all().await.iter().map(|mail| mail.to[0].clone()).collect();
    assert_eq!(
        order,
        [late, early],
        "the code first, though queued after the link"
    );
}

/// Mails held back by an outage whose secret died meanwhile (a revoked invitation, the links
/// a new password ends) are taken back: they arrived once the server returned, with links that
/// no longer worked, and the person invited by mistake was mailed all the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mails_whose_links_died_while_the_mail_server_was_down_never_go() {
    let (app, smtp) = spawn_with_smtp_down(Backend::Sqlite).await;
    let owner = "owner@example.com";
    json_of(app.register(owner).await, StatusCode::CREATED).await;
    app.sql("UPDATE users SET email_verified = true, status = 'active', role = 'hire'")
        .await;
    let signed_in = json_of(app.login(owner, crate::helpers::PASSWORD).await, StatusCode::OK).await;
    let token = signed_in["data"]["token"].as_str().unwrap().to_owned();
    let org = json_of(
        app.post_as(&token, "/api/orgs", json!({ "name": "Held Mail" }))
            .await,
        StatusCode::CREATED,
    )
    .await;
    let org = org["data"]["organization"]["id"].as_str().unwrap().to_owned();
    let invitations = format!("/api/orgs/{org}/invitations");
    let invite = |email: &'static str| app.post_as(&token, &invitations, json!({ "emails": [email] }));
    let sent = json_of(invite("mistake@example.com").await, StatusCode::CREATED).await;
    let mistake = sent["data"]["invitations"][0]["id"].as_str().unwrap().to_owned();
    json_of(invite("keeper@example.com").await, StatusCode::CREATED).await;
    json_of(
        app.delete_as(&token, &format!("/api/orgs/{org}/invitations/{mistake}"))
            .await,
        StatusCode::OK,
    )
    .await;
    json_of(
        app.post("/api/auth/forgot-password", json!({ "email": owner }))
            .await,
        StatusCode::OK,
    )
    .await;
    let change = json!({ "currentPassword": crate::helpers::PASSWORD, "password": "brandNew42x", "confirmPassword": "brandNew42x" });
    json_of(
        app.put_as(&token, "/api/users/password", change).await,
        StatusCode::OK,
    )
    .await;

    // Invitations revoked together, by the suspension of the one who sent them, likewise.
    for (email, role) in [("sender@example.com", "hire"), ("boss@example.com", "admin")] {
        json_of(app.register(email).await, StatusCode::CREATED).await;
        app.sql(&format!("UPDATE users SET email_verified = true, status = 'active', role = '{role}' WHERE email = '{email}'")).await;
    }
    let token_of = |body: serde_json::Value| body["data"]["token"].as_str().unwrap().to_owned();
    let sender = token_of(
        json_of(
            app.login("sender@example.com", crate::helpers::PASSWORD).await,
            StatusCode::OK,
        )
        .await,
    );
    let boss = token_of(
        json_of(
            app.login("boss@example.com", crate::helpers::PASSWORD).await,
            StatusCode::OK,
        )
        .await,
    );
    let theirs = json_of(
        app.post_as(&sender, "/api/orgs", json!({ "name": "Soon Gone" }))
            .await,
        StatusCode::CREATED,
    )
    .await;
    let theirs = theirs["data"]["organization"]["id"].as_str().unwrap().to_owned();
    json_of(
        app.post_as(
            &sender,
            &format!("/api/orgs/{theirs}/invitations"),
            json!({ "emails": ["bulk@example.com"] }),
        )
        .await,
        StatusCode::CREATED,
    )
    .await;
    let me = json_of(app.get_as(&sender, "/api/auth/verify").await, StatusCode::OK).await;
    let sender_id = me["data"]["user"]["id"].as_str().unwrap().to_owned();
    json_of(
        app.post_as(
            &boss,
            &format!("/api/admin/users/{sender_id}/suspend"),
            json!({ "reason": "spam" }),
        )
        .await,
        StatusCode::OK,
    )
    .await;

    smtp.listen();
    smtp.wait_for("keeper@example.com", 1).await;
    app.mail_settled().await;
    assert!(
        smtp.to("mistake@example.com").await.is_empty(),
        "the revoked invitation is not mailed"
    );
    assert!(
        smtp.to("bulk@example.com").await.is_empty(),
        "nor one revoked with its sender's suspension"
    );
    let to_owner = smtp.to(owner).await;
    assert!(
        !to_owner
            .iter()
            .any(|mail| mail.text().contains("/reset-password/")),
        "the dead reset link is not mailed"
    );
    assert!(
        to_owner.iter().any(|mail| mail.subject().contains("password")),
        "the notice of the new password is"
    );
}
