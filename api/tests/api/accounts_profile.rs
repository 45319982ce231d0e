//! `GET /users/profile` and `PUT /users/profile`.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::json_of;

db_test! {
    async fn the_profile_needs_a_session(app: TestApp) {
        let body = json_of(app.get("/api/users/profile").await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(body["message"], "Session expired or unauthorized");
        let response = app.client.put(app.url("/api/users/profile")).json(&json!({ "bio": "x" })).send().await.unwrap();
        json_of(response, StatusCode::UNAUTHORIZED).await;
    }
}

db_test! {
    async fn updating_the_profile_saves_every_field_and_returns_the_new_user(app: TestApp) {
        let token = app.signed_up("s@example.com").await;
        let body = json_of(
            app.put_as(&token, "/api/users/profile", json!({
                "name": "Asha V.",
                "bio": "Placement lead",
                "website": "https://asha.example.com",
                "born": "1994-05-17",
                "countryCode": "+44",
                "phone": "7700900123",
                "social": { "github": "asha", "linkedin": "in/asha" },
                "address": { "city": "Pune", "country": "India" },
                "preferences": { "notifications": { "sms": true, "push": false }, "theme": "light" },
                "email": "hijack@example.com",
                "role": "admin",
                "status": "suspended",
            }))
            .await,
            StatusCode::OK,
        )
        .await;
        assert_eq!(body["message"], "Profile updated");
        let user = &body["data"]["user"];
        assert_eq!(user["name"], "Asha V.");
        assert_eq!(user["born"], "1994-05-17");
        assert_eq!(user["phone"], "+447700900123");
        assert_eq!(user["social"]["github"], "asha");
        assert_eq!(user["social"]["twitter"], serde_json::Value::Null);
        assert_eq!(user["address"]["city"], "Pune");
        assert_eq!(user["preferences"], json!({ "notifications": { "email": true, "sms": true, "push": false }, "theme": "light" }));
        assert_eq!(user["email"], "s@example.com");
        assert_eq!(user["role"], "career");
        assert_eq!(user["status"], "active");

        let again = json_of(app.get_as(&token, "/api/users/profile").await, StatusCode::OK).await;
        assert_eq!(&again["data"]["user"], user);

        // null clears an optional field; leaving a field out keeps it.
        let body = json_of(app.put_as(&token, "/api/users/profile", json!({ "bio": null })).await, StatusCode::OK).await;
        assert_eq!(body["data"]["user"]["bio"], serde_json::Value::Null);
        assert_eq!(body["data"]["user"]["website"], "https://asha.example.com");
    }
}

db_test! {
    async fn invalid_profile_fields_are_all_reported_and_nothing_is_saved(app: TestApp) {
        let token = app.signed_up("t@example.com").await;
        let body = json_of(
            app.put_as(&token, "/api/users/profile", json!({
                "name": "Changed",
                "website": "javascript:alert(1)",
                "born": "2999-01-01",
                "bio": "x".repeat(1001),
                "preferences": { "theme": "blue" },
                "social": { "github": "g".repeat(256) },
            }))
            .await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert_eq!(body["errors"]["website"], "Website must be a valid http(s) URL");
        assert_eq!(body["errors"]["born"], "Date of birth must be a date in the past");
        assert_eq!(body["errors"]["bio"], "Bio must be at most 1000 characters");
        assert_eq!(body["errors"]["preferences.theme"], "Theme must be light or dark");
        assert_eq!(body["errors"]["social.github"], "GitHub must be at most 255 characters");
        let me = json_of(app.get_as(&token, "/api/users/profile").await, StatusCode::OK).await;
        assert_eq!(me["data"]["user"]["name"], "Asha Verma", "nothing was half-saved");

        for (born, message) in [
            ("17/05/1994", "Date of birth must be a date in the format YYYY-MM-DD"),
            ("1990-1-2", "Date of birth must be a date in the format YYYY-MM-DD"),
            ("1899-12-31", "Date of birth must be in 1900 or later"),
        ] {
            let body = json_of(app.put_as(&token, "/api/users/profile", json!({ "born": born })).await, StatusCode::BAD_REQUEST).await;
            assert_eq!(body["errors"]["born"], message, "{born}");
        }
        // A wrong country code and a wrong phone are both told at once.
        let body = json_of(app.put_as(&token, "/api/users/profile", json!({ "countryCode": "", "phone": "12" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"], json!({ "countryCode": "Country code is required", "phone": "Enter 6-14 digits" }));
    }
}

db_test! {
    async fn rest_and_graphql_describe_the_account_with_the_very_same_json(app: TestApp) {
        let token = app.signed_up("same@example.com").await;
        let profile = json!({
            "bio": "Hello", "website": "https://same.example", "born": "1990-02-03",
            "social": { "github": "same" }, "address": { "city": "Pune" },
            "preferences": { "theme": "light", "notifications": { "email": false, "sms": true, "push": true } },
        });
        json_of(app.put_as(&token, "/api/users/profile", profile).await, StatusCode::OK).await;
        let query = "{ me { id name email countryCode phone bio website born role status emailVerified twoFactorEnabled social { github linkedin instagram twitter facebook } address { street city state zip country } preferences { notifications { email sms push } theme } createdAt updatedAt } }";
        let graphql = app.graphql(Some(&token), query, json!({})).await;
        for path in ["/api/auth/verify", "/api/users/profile"] {
            let rest = json_of(app.get_as(&token, path).await, StatusCode::OK).await;
            assert_eq!(rest["data"]["user"], graphql["data"]["me"], "{path}");
        }
    }
}

db_test! {
    async fn a_graphql_variable_left_out_leaves_its_field_as_it_is(app: TestApp) {
        let token = app.signed_up("partial@example.com").await;
        let saved = json!({ "bio": "Builds things", "website": "https://partial.example", "social": { "github": "partial" } });
        json_of(app.put_as(&token, "/api/users/profile", saved).await, StatusCode::OK).await;
        // What Apollo and Relay send for the fields a form did not touch: no value at all.
        let document = "mutation($name: String, $bio: String, $website: String, $github: String) {
            updateProfile(input: { name: $name, bio: $bio, website: $website, social: { github: $github } }) { user { name bio website social { github } } }
        }";
        let body = app.graphql(Some(&token), document, json!({ "name": "Partial Person" })).await;
        assert_eq!(
            body["data"]["updateProfile"]["user"],
            json!({ "name": "Partial Person", "bio": "Builds things", "website": "https://partial.example", "social": { "github": "partial" } }),
            "{body}"
        );
        // A named operation, with or without its name given, and one of several sharing a
        // fragment with another, whose variables the chosen one leaves out.
        let named = "mutation Keep($bio: String, $website: String) { updateProfile(input: { bio: $bio, website: $website }) { user { bio website } } }";
        let body = app.graphql(Some(&token), named, json!({ "website": "https://named.example" })).await;
        assert_eq!(body["data"]["updateProfile"]["user"], json!({ "bio": "Builds things", "website": "https://named.example" }), "{body}");
        let shared = "mutation A($bio: String, $website: String) { ...F } mutation B($bio: String, $website: String) { ...F }
            fragment F on Mutation { updateProfile(input: { bio: $bio, website: $website }) { user { bio website } } }";
        let request = json!({ "query": shared, "operationName": "B", "variables": { "website": "https://shared.example" } });
        let response = app.client.post(app.url("/api/graphql")).bearer_auth(&token).json(&request).send().await.unwrap();
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["data"]["updateProfile"]["user"], json!({ "bio": "Builds things", "website": "https://shared.example" }), "{body}");
        // The rewrite leaves validation as it was: what it refuses with the variable given it
        // refuses with it left out (an unknown type, one never used, a fragment never used).
        for (document, said) in [
            ("query($x: NoSuchType) { news { nextCursor } }", "Unknown type \"NoSuchType\""),
            ("query($x: String) { news { nextCursor } }", "Variable \"$x\" is not used"),
            ("query($f: Int) { news(first: $f) { nextCursor } } fragment X on Query { me { id } }", "Fragment \"X\" is never used"),
        ] {
            let body = app.graphql(Some(&token), document, json!({})).await;
            assert!(body["errors"].as_array().unwrap().iter().any(|e| e["message"] == said), "{document}: {body}");
        }
        // A GET names its operation as GraphQL over HTTP does, `operationName`.
        let two = "query A { me { id } } query B { me { email } }";
        let url = format!("/api/graphql?query={}&operationName=B", url::form_urlencoded::byte_serialize(two.as_bytes()).collect::<String>());
        let body = json_of(app.get_as(&token, &url).await, StatusCode::OK).await;
        assert_eq!(body["data"]["me"]["email"], "partial@example.com", "{body}");
        // A null given is a field cleared, as the schema says.
        let body = app.graphql(Some(&token), document, json!({ "bio": null })).await;
        assert_eq!(body["data"]["updateProfile"]["user"]["bio"], Value::Null, "{body}");
        assert_eq!(body["data"]["updateProfile"]["user"]["website"], "https://shared.example", "{body}");
    }
}
