//! What an operator does from the command line on a live database: promote an account to
//! admin, and turn two-factor off for an owner who lost every factor. Each ends the account's
//! sessions and is audited.

use reqwest::StatusCode;

use crate::{
    helpers::{Backend, TestApp, json_of},
    two_factor::enrolled,
};

/// Runs the server binary's `args` against `database_url` with a local configuration.
fn operator(database_url: &str, args: &[&str], extra: &[(&str, &str)]) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_api"))
        .args(args)
        .current_dir(dir.path())
        .env_clear()
        .envs(crate::helpers::LOCAL_ENV)
        .env("DATABASE_URL", database_url)
        .envs(extra.iter().copied())
        .output()
        .unwrap();
    (
        output.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

async fn on_a_file(backend: Backend) -> (TestApp, tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/operator.db?mode=rwc", dir.path().display());
    let app = TestApp::builder(backend).env("DATABASE_URL", &url).start().await;
    (app, dir, url)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn promoting_an_existing_account_ends_its_sessions_and_is_audited() {
    let (app, _dir, url) = on_a_file(Backend::Sqlite).await;
    let token = app.signed_up("promoted@example.com").await;
    let (ok, out) = operator(
        &url,
        &["create-admin", "--email", "promoted@example.com", "--name", "P"],
        &[("ADMIN_PASSWORD", "bossRiver42")],
    );
    assert!(ok, "{out}");
    assert!(out.contains("1 signed-in sessions were ended"), "{out}");
    assert_eq!(
        app.get_as(&token, "/api/auth/verify").await.status(),
        StatusCode::UNAUTHORIZED,
        "the old session is over"
    );
    let body = json_of(
        app.login("promoted@example.com", "bossRiver42").await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(body["data"]["user"]["role"], "admin");
    assert_eq!(
        app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'admin_created'")
            .await,
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_turns_two_factor_off_for_an_owner_who_lost_every_factor() {
    let (app, _dir, url) = on_a_file(Backend::Sqlite).await;
    let (token, _, _) = enrolled(&app, "lost@example.com").await;
    let (ok, out) = operator(
        &url,
        &[
            "disable-two-factor",
            "--email",
            "lost@example.com",
            "--reason",
            " ",
        ],
        &[],
    );
    assert!(!ok && out.contains("--reason"), "a reason is required: {out}");
    let (ok, out) = operator(
        &url,
        &[
            "disable-two-factor",
            "--email",
            "lost@example.com",
            "--reason",
            "ticket 4711, passport checked",
        ],
        &[],
    );
    assert!(ok, "{out}");
    assert_eq!(
        app.get_as(&token, "/api/auth/verify").await.status(),
        StatusCode::UNAUTHORIZED
    );
    let body = json_of(
        app.login("lost@example.com", crate::helpers::PASSWORD).await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(body["data"]["user"]["twoFactorEnabled"], false);
    assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'two_factor_disabled' AND detail LIKE '%ticket 4711%'").await, 1);
    assert_eq!(app.count("SELECT COUNT(*) FROM recovery_codes").await, 0);
    let (ok, out) = operator(
        &url,
        &[
            "disable-two-factor",
            "--email",
            "lost@example.com",
            "--reason",
            "again",
        ],
        &[],
    );
    assert!(!ok && out.contains("not on"), "{out}");
}
