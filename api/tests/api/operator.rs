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
    // The operator is told what else changed: the password, not the name.
    assert!(
        out.contains("with the password given (the old one no longer works)"),
        "{out}"
    );
    assert_eq!(
        app.get_as(&token, "/api/auth/verify").await.status(),
        StatusCode::UNAUTHORIZED,
        "the old session is over"
    );
    assert_eq!(
        app.login("promoted@example.com", crate::helpers::PASSWORD)
            .await
            .status(),
        StatusCode::UNAUTHORIZED,
        "the old password is over too"
    );
    let body = json_of(
        app.login("promoted@example.com", "bossRiver42").await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(body["data"]["user"]["role"], "admin");
    let name = body["data"]["user"]["name"].as_str().unwrap();
    assert_ne!(name, "P", "--name is for a new account");
    assert!(out.contains(&format!("its name stays \"{name}\"")), "{out}");
    assert_eq!(
        app.count("SELECT COUNT(*) FROM audit_events WHERE kind = 'admin_created'")
            .await,
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blank_admin_password_setting_leaves_the_password_to_stdin() {
    use std::io::Write;
    let (app, dir, url) = on_a_file(Backend::Sqlite).await;
    // A deployment template's `ADMIN_PASSWORD=` line, and the password piped in.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_api"))
        .args([
            "create-admin",
            "--email",
            "piped@example.com",
            "--name",
            "Pia Piped",
        ])
        .current_dir(dir.path())
        .env_clear()
        .envs(crate::helpers::LOCAL_ENV)
        .env("DATABASE_URL", &url)
        .env("ADMIN_PASSWORD", "")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"pipedRiver42\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let body = json_of(
        app.login("piped@example.com", "pipedRiver42").await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(body["data"]["user"]["role"], "admin");
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_rotation_with_another_key_encryption_key_is_refused_before_any_sign_in() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/keys.db?mode=rwc", dir.path().display());
    // A new deployment: the server is up, no platform has signed anyone in yet.
    let server = crate::faults::ServerProcess::start(&url, &[]).await;
    let db = sea_orm::Database::connect(&url).await.unwrap();
    let keys = "SELECT COUNT(*) FROM signing_keys";
    assert_eq!(
        crate::helpers::count(&db, keys).await,
        2,
        "the server made its keys as it started"
    );
    // A mistyped KEY_ENCRYPTION_KEY: refused, nothing sealed that the server could not open.
    let other = "11".repeat(32);
    let (ok, out) = operator(
        &url,
        &["signing-key", "rotate"],
        &[("KEY_ENCRYPTION_KEY", &other)],
    );
    assert!(!ok && out.contains("cannot be opened"), "{out}");
    assert_eq!(crate::helpers::count(&db, keys).await, 2);
    let jwks = || async {
        let response = reqwest::get(server.url("/oauth2/jwks")).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        response.json::<serde_json::Value>().await.unwrap()["keys"]
            .as_array()
            .unwrap()
            .len()
    };
    assert_eq!(jwks().await, 2, "single sign-on still works");
    // With the server's own key the rotation goes through; the old keys stay published.
    let (ok, out) = operator(&url, &["signing-key", "rotate"], &[]);
    assert!(ok && out.contains("New signing keys"), "{out}");
    assert_eq!(jwks().await, 4);
}
