//! Behind a reverse proxy: `X-Forwarded-For` is believed only from `TRUSTED_PROXIES`, and then
//! the client is the right-most hop that is not a proxy. Limits and the audit log use it.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{Backend, TestApp, json_of};

async fn audited_ip(app: &TestApp, ip: &str) -> String {
    let rows = app
        .count(&format!(
            "SELECT COUNT(*) FROM audit_events WHERE kind = 'sign_in_failed' AND ip = '{ip}'"
        ))
        .await;
    rows.to_string()
}

async fn fail_login_from(app: &TestApp, forwarded: &str) {
    let response = app
        .client
        .post(app.url("/api/auth/login"))
        .header("x-forwarded-for", forwarded)
        .json(&json!({ "email": "p@example.com", "password": "wrong-guess" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_spoofed_header_from_an_untrusted_peer_changes_nothing() {
    let app = TestApp::builder(Backend::Sqlite)
        .env("RATE_LIMIT_PER_IP", "3")
        .start()
        .await;
    fail_login_from(&app, "203.0.113.9").await;
    assert_eq!(audited_ip(&app, "127.0.0.1").await, "1");
    assert_eq!(audited_ip(&app, "203.0.113.9").await, "0");
    // Rotating the header does not buy a fresh per-address budget.
    fail_login_from(&app, "203.0.113.10").await;
    fail_login_from(&app, "203.0.113.11").await;
    let response = app
        .client
        .post(app.url("/api/auth/login"))
        .header("x-forwarded-for", "203.0.113.12")
        .json(&json!({ "email": "p@example.com", "password": "x" }))
        .send()
        .await
        .unwrap();
    json_of(response, StatusCode::TOO_MANY_REQUESTS).await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_right_most_untrusted_hop_is_the_client() {
    let app = TestApp::builder(Backend::Sqlite)
        .env("TRUSTED_PROXIES", "127.0.0.1, 10.0.0.0/8")
        .env("RATE_LIMIT_PER_IP", "3")
        .start()
        .await;
    // The client put "6.6.6.6" in the header itself; the proxies appended the rest.
    fail_login_from(&app, "6.6.6.6, 198.51.100.4, 10.1.2.3").await;
    assert_eq!(audited_ip(&app, "198.51.100.4").await, "1");
    assert_eq!(audited_ip(&app, "6.6.6.6").await, "0");
    // Each real client has its own per-address budget.
    for client in ["198.51.100.5", "198.51.100.6", "198.51.100.7", "198.51.100.8"] {
        fail_login_from(&app, client).await;
    }
}

#[tokio::test]
async fn ipv6_clients_share_a_budget_across_their_64() {
    let app = TestApp::builder(Backend::Sqlite)
        .env("TRUSTED_PROXIES", "127.0.0.1")
        .env("RATE_LIMIT_PER_IP", "3")
        .start()
        .await;
    for address in ["2001:db8:5:6::1", "2001:db8:5:6::2", "2001:db8:5:6:ffff::3"] {
        fail_login_from(&app, address).await;
    }
    let response = app
        .client
        .post(app.url("/api/auth/login"))
        .header("x-forwarded-for", "2001:db8:5:6:abcd::4")
        .json(&json!({ "email": "p@example.com", "password": "x" }))
        .send()
        .await
        .unwrap();
    json_of(response, StatusCode::TOO_MANY_REQUESTS).await;
    // Another /64 is another budget; the audit log keeps the whole address.
    fail_login_from(&app, "2001:db8:5:7::1").await;
    assert_eq!(audited_ip(&app, "2001:db8:5:6::2").await, "1");
}
