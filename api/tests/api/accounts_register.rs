//! `POST /auth/register`.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{PASSWORD, json_of};

db_test! {
    async fn registering_creates_a_pending_account_and_mails_nothing(app: TestApp) {
        let body = json_of(app.register("Asha@Example.com").await, StatusCode::CREATED).await;
        assert_eq!(body["success"], true);
        assert_eq!(body["message"], "Registered successfully");
        let user = &body["data"]["user"];
        assert_eq!(user["email"], "asha@example.com");
        assert_eq!(user["status"], "pending");
        assert_eq!(user["emailVerified"], false);
        assert_eq!(user["role"], "career");
        assert_eq!(user["phone"], "+919876543210");
        assert_eq!(user["countryCode"], "+91");
        assert_eq!(user["preferences"], json!({ "notifications": { "email": true, "sms": false, "push": true }, "theme": "dark" }));
        assert!(uuid::Uuid::parse_str(user["id"].as_str().unwrap()).is_ok());
        assert!(user.get("password").is_none() && user.get("passwordHash").is_none());
        assert!(body["data"].get("token").is_none());
        assert_eq!(app.count("SELECT COUNT(*) FROM mail_outbox").await, 0, "registering queues no mail");
        app.mail_settled().await;
        assert_eq!(app.mail.all().await.len(), 1, "only the marker arrived");
    }
}

db_test! {
    async fn every_invalid_field_is_reported_at_once_with_the_spec_texts(app: TestApp) {
        let body = json_of(
            app.post("/api/auth/register", json!({ "role": "hire", "countryCode": "91", "phone": "123", "email": "x@y", "password": "12345" })).await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert_eq!(body["code"], "BAD_USER_INPUT");
        assert_eq!(body["message"], "Organization Name is required");
        assert_eq!(body["errors"], json!({
            "name": "Organization Name is required",
            "email": "Invalid email format",
            "countryCode": "Invalid code (e.g., +91)",
            "phone": "Enter 6-14 digits",
            "password": "Minimum 6 characters",
        }));

        let body = json_of(app.post("/api/auth/register", json!({})).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"], json!({
            "name": "Full Name is required",
            "email": "Email is required",
            "countryCode": "Country code is required",
            "phone": "Phone number is required",
            "password": "Password is required",
            "role": "Role is required",
        }));

        let body = json_of(
            app.post("/api/auth/register", json!({ "name": "", "role": "campus" })).await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert_eq!(body["errors"]["name"], "Institute Name is required");

        // Addresses mail cannot carry: no account is made for them.
        let before = app.count("SELECT COUNT(*) FROM users").await;
        let (name, label) = ("a".repeat(65), "b".repeat(64));
        for email in [format!("{name}@example.com"), format!("asha@{label}.com"), "asha@1.2.3.4".to_owned()] {
            let body = json_of(
                app.post("/api/auth/register", json!({ "name": "Asha", "email": email, "countryCode": "+91", "phone": "9876543210", "password": PASSWORD, "role": "career" })).await,
                StatusCode::BAD_REQUEST,
            )
            .await;
            assert_eq!(body["errors"], json!({ "email": "Invalid email format" }), "{email}");
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM users").await, before);
    }
}

db_test! {
    async fn nobody_can_register_as_an_admin(app: TestApp) {
        let body = json_of(
            app.post("/api/auth/register", json!({
                "name": "Mallory", "email": "m@example.com", "countryCode": "+1",
                "phone": "5551234567", "password": PASSWORD, "role": "admin",
            }))
            .await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert_eq!(body["errors"]["role"], "Role must be career, campus or hire");
    }
}

db_test! {
    async fn registering_an_email_twice_is_a_conflict_whatever_its_case(app: TestApp) {
        json_of(app.register("dup@example.com").await, StatusCode::CREATED).await;
        let body = json_of(app.register("DUP@example.com").await, StatusCode::CONFLICT).await;
        assert_eq!(body["message"], "An account with this email already exists");
        assert_eq!(body["code"], "CONFLICT");
    }
}

db_test! {
    async fn simultaneous_registrations_of_one_email_give_one_account_and_conflicts(app: TestApp) {
        let attempts = (0..6).map(|_| app.register("race@example.com"));
        let statuses: Vec<StatusCode> = futures::future::join_all(attempts).await.into_iter().map(|r| r.status()).collect();
        assert_eq!(statuses.iter().filter(|s| **s == StatusCode::CREATED).count(), 1, "{statuses:?}");
        assert_eq!(statuses.iter().filter(|s| **s == StatusCode::CONFLICT).count(), 5, "{statuses:?}");
    }
}

db_test! {
    async fn extra_fields_in_the_body_are_ignored(app: TestApp) {
        let body = json_of(
            app.post("/api/auth/register", json!({
                "name": "Asha", "email": "extra@example.com", "countryCode": "+91",
                "phone": "9876543210", "password": PASSWORD, "role": "hire",
                "confirmPassword": PASSWORD, "status": "active",
            }))
            .await,
            StatusCode::CREATED,
        )
        .await;
        assert_eq!(body["data"]["user"]["status"], "pending");
        assert_eq!(body["data"]["user"]["role"], "hire");
    }
}
