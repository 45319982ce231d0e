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
    // A free port with nothing listening yet: the mail server is down.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let app = TestApp::builder(backend).smtp_port(port).start().await;
    let catcher = app.mail.clone();
    (app, catcher)
}

async fn smtp_down_then_up_delivers_every_queued_mail_once(backend: Backend) {
    let (app, smtp) = spawn_with_smtp_down(backend).await;
    let people = ["one@example.com", "two@example.com", "three@example.com"];
    for email in people {
        json_of(app.register(email).await, StatusCode::CREATED).await;
        // The request does not wait for the mail server.
        json_of(app.send_code(email).await, StatusCode::OK).await;
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(smtp.all().await.is_empty());

    smtp.listen().await;
    for email in people {
        let mails = smtp.wait_for(email, 1).await;
        assert_eq!(crate::helpers::code_in(&mails[0]).len(), 6);
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(smtp.all().await.len(), people.len(), "each mail exactly once");
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
        let started = std::time::Instant::now();
        app.send_code("fast@example.com").await;
        app.mail.wait_for("fast@example.com", 1).await;
        // A generous bound: the worker is woken on insert, so this is milliseconds in practice.
        assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
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
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert!(smtp.all().await.is_empty(), "the mail server is down");
    smtp.listen().await;
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
    tokio::time::sleep(Duration::from_secs(3)).await;
    let delivered = smtp.all().await;
    assert_eq!(delivered.len(), emails.len(), "each mail exactly once");
    let recipients: HashSet<String> = delivered.iter().flat_map(|m| m.to.clone()).collect();
    assert_eq!(recipients.len(), emails.len());
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
