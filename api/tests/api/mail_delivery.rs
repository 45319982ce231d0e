//! The outbox and its worker: nothing lost while the mail server is down, nothing sent twice.

use std::time::Duration;

use reqwest::StatusCode;

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
