//! Two server processes on one database, as behind a load balancer: nothing one instance
//! knows may be missing on the other.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use futures::future::join_all;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{PASSWORD, json_of, reset_token_in};

db_test! {
    async fn a_session_from_one_instance_works_on_the_other_and_logout_ends_it_on_both(app: TestApp) {
        let other = app.another_instance().await;
        let token = app.signed_up("two@example.com").await;
        json_of(other.get_as(&token, "/api/auth/verify").await, StatusCode::OK).await;
        json_of(other.post_as(&token, "/api/auth/logout", json!({})).await, StatusCode::OK).await;
        json_of(app.get_as(&token, "/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
        json_of(other.get_as(&token, "/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
    }
}

db_test! {
    async fn a_code_sent_through_one_instance_verifies_through_the_other(app: TestApp) {
        let other = app.another_instance().await;
        json_of(app.register("code@example.com").await, StatusCode::CREATED).await;
        json_of(app.send_code("code@example.com").await, StatusCode::OK).await;
        // The cooldown is shared too.
        json_of(other.send_code("code@example.com").await, StatusCode::TOO_MANY_REQUESTS).await;
        let code = app.code_from_mail("code@example.com", 1).await;
        json_of(other.verify_code("code@example.com", &code).await, StatusCode::OK).await;
    }
}

db_test! {
    async fn a_reset_link_from_one_instance_works_on_the_other(app: TestApp) {
        let other = app.another_instance().await;
        let token = app.signed_up("reset@example.com").await;
        json_of(app.post("/api/auth/forgot-password", json!({ "email": "reset@example.com" })).await, StatusCode::OK).await;
        let link = reset_token_in(&app.mail.wait_for("reset@example.com", 2).await[1]);
        json_of(other.post(&format!("/api/auth/reset-password/{link}"), json!({ "password": "twoPlaces42" })).await, StatusCode::OK).await;
        json_of(app.get_as(&token, "/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
        json_of(app.login("reset@example.com", "twoPlaces42").await, StatusCode::OK).await;
    }
}

db_test! {
    async fn sign_in_throttles_count_across_instances(app: TestApp) {
        let other = app.another_instance().await;
        app.signed_up("count@example.com").await;
        for i in 0..5 {
            let server = if i % 2 == 0 { &app } else { &other };
            json_of(server.login("count@example.com", "wrong-guess").await, StatusCode::UNAUTHORIZED).await;
        }
        json_of(other.login("count@example.com", PASSWORD).await, StatusCode::TOO_MANY_REQUESTS).await;
        json_of(app.login("count@example.com", PASSWORD).await, StatusCode::TOO_MANY_REQUESTS).await;
    }
}

db_test! {
    async fn each_mail_is_sent_once_and_housekeeping_runs_on_both_without_conflict(app: TestApp) {
        let other = app.another_instance().await;
        let emails: Vec<String> = (0..30).map(|i| format!("once{i}@example.com")).collect();
        let requests = emails.iter().enumerate().map(|(i, email)| {
            let server = if i % 2 == 0 { &app } else { &other };
            server.post("/api/auth/forgot-password", json!({ "email": email }))
        });
        for response in join_all(requests).await {
            assert_eq!(response.status(), StatusCode::OK);
        }
        for email in &emails {
            app.mail.wait_for(email, 1).await;
        }
        // Every row is marked delivered (both workers have finished with the outbox), and a
        // last mail sent after them arrives: whatever was left to send twice would be there.
        let mut left = 1;
        for _ in 0..100 {
            left = app.count("SELECT COUNT(*) FROM mail_outbox WHERE sent_at IS NULL").await;
            if left == 0 { break; }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(left, 0, "the outbox drained");
        other.post("/api/auth/forgot-password", json!({ "email": "last@example.com" })).await;
        app.mail.wait_for("last@example.com", 1).await;
        assert_eq!(app.mail.all().await.len(), emails.len() + 1, "nothing came twice");

        // Housekeeping on both instances at once: every expired session goes, no conflict.
        app.signed_up("sweep@example.com").await;
        json_of(other.login("sweep@example.com", PASSWORD).await, StatusCode::OK).await;
        app.sql("UPDATE sessions SET expires_at = created_at").await;
        let (a, b) = tokio::join!(api::janitor::sweep(&app.db, chrono::Duration::days(7)), api::janitor::sweep(&other.db, chrono::Duration::days(7)));
        let removed = a.expect("sweep on A") + b.expect("sweep on B");
        assert!(removed >= 2, "{removed}");
        assert_eq!(app.count("SELECT COUNT(*) FROM sessions").await, 0);
    }
}

db_test! {
    async fn a_logout_on_one_instance_is_refused_at_once_by_the_other_under_load(app: TestApp) {
        // Session checks on an instance are coalesced into shared reads; none of them may
        // answer from a read that began before the logout was committed.
        // Its per-address limit off: the load comes from one address.
        let other = Arc::new(app.another_instance_builder().env("RATE_LIMIT_PER_IP", "0").start().await);
        let token = app.signed_up("busy@example.com").await;
        let stop = Arc::new(AtomicBool::new(false));
        let checks: Vec<_> = (0..16)
            .map(|_| {
                let (other, token, stop) = (other.clone(), token.clone(), stop.clone());
                tokio::spawn(async move {
                    let mut seen = Vec::new();
                    while !stop.load(Ordering::Relaxed) {
                        let sent = Instant::now();
                        let status = other.get_as(&token, "/api/auth/verify").await.status();
                        seen.push((sent, status));
                    }
                    seen
                })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(300)).await;
        json_of(app.post_as(&token, "/api/auth/logout", json!({})).await, StatusCode::OK).await;
        let logged_out = Instant::now();
        tokio::time::sleep(Duration::from_millis(300)).await;
        stop.store(true, Ordering::Relaxed);
        let (mut let_in_before, mut checked_after) = (0, 0);
        for check in checks {
            for (sent, status) in check.await.unwrap() {
                if sent > logged_out {
                    checked_after += 1;
                    assert_eq!(status, StatusCode::UNAUTHORIZED, "a check sent after the logout answered was let in");
                } else if status == StatusCode::OK {
                    let_in_before += 1;
                }
            }
        }
        assert!(
            let_in_before > 0 && checked_after > 0,
            "the load did not straddle the logout: {let_in_before} let in before, {checked_after} checked after"
        );
    }
}
