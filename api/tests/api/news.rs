//! The news feed: public reading, admin writing, drafts, cursors.

use std::collections::HashSet;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, json_of};

/// A signed-in admin's token.
async fn admin(app: &TestApp) -> String {
    let token = app.signed_up("editor@example.com").await;
    app.sql("UPDATE users SET role = 'admin' WHERE email = 'editor@example.com'")
        .await;
    token
}

async fn publish(app: &TestApp, token: &str, title: &str, published: bool) -> Value {
    let body = json_of(
        app.post_as(
            token,
            "/api/news",
            json!({
                "title": title,
                "summary": format!("{title} in one line"),
                "body": format!("The whole story of {title}."),
                "imageUrl": "https://cdn.example.com/news.png",
                "published": published,
            }),
        )
        .await,
        StatusCode::CREATED,
    )
    .await;
    body["data"]["item"].clone()
}

fn ids(items: &Value) -> Vec<String> {
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_owned())
        .collect()
}

db_test! {
    async fn writing_news_needs_a_session_and_the_admin_role(app: TestApp) {
        let item = json!({ "title": "t", "summary": "s", "body": "b" });
        let body = json_of(app.post("/api/news", item.clone()).await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(body["code"], "UNAUTHENTICATED");
        let member = app.signed_up("member@example.com").await;
        let body = json_of(app.post_as(&member, "/api/news", item.clone()).await, StatusCode::FORBIDDEN).await;
        assert_eq!(body["message"], "Only admins can manage news");

        let admin = admin(&app).await;
        let created = publish(&app, &admin, "Launch", true).await;
        let id = created["id"].as_str().unwrap();
        json_of(app.put_as(&member, &format!("/api/news/{id}"), json!({ "title": "x" })).await, StatusCode::FORBIDDEN).await;
        json_of(app.delete_as(&member, &format!("/api/news/{id}")).await, StatusCode::FORBIDDEN).await;
        let response = app.client.delete(app.url(&format!("/api/news/{id}"))).send().await.unwrap();
        json_of(response, StatusCode::UNAUTHORIZED).await;
    }
}

db_test! {
    async fn an_admin_creates_reads_updates_and_deletes_an_item(app: TestApp) {
        let admin = admin(&app).await;
        let created = json_of(
            app.post_as(&admin, "/api/news", json!({ "title": "  Campus drive  ", "summary": "Fifty firms", "body": "Details" })).await,
            StatusCode::CREATED,
        )
        .await;
        assert_eq!(created["message"], "News item created");
        let item = &created["data"]["item"];
        assert_eq!(item["title"], "Campus drive");
        assert_eq!(item["published"], false);
        assert_eq!(item["publishedAt"], Value::Null);
        assert_eq!(item["imageUrl"], Value::Null);
        assert_eq!(item["author"]["name"], "Asha Verma");
        let id = item["id"].as_str().unwrap();

        let fetched = json_of(app.get_as(&admin, &format!("/api/news/{id}")).await, StatusCode::OK).await;
        assert_eq!(&fetched["data"]["item"], item);

        let updated = json_of(
            app.put_as(&admin, &format!("/api/news/{id}"), json!({ "published": true, "summary": "Sixty firms" })).await,
            StatusCode::OK,
        )
        .await;
        assert_eq!(updated["message"], "News item updated");
        assert_eq!(updated["data"]["item"]["published"], true);
        assert_eq!(updated["data"]["item"]["summary"], "Sixty firms");
        assert_eq!(updated["data"]["item"]["title"], "Campus drive");
        assert!(updated["data"]["item"]["publishedAt"].is_string());

        let public = json_of(app.get(&format!("/api/news/{id}")).await, StatusCode::OK).await;
        assert_eq!(public["data"]["item"]["summary"], "Sixty firms");

        let deleted = json_of(app.delete_as(&admin, &format!("/api/news/{id}")).await, StatusCode::OK).await;
        assert_eq!(deleted["success"], true);
        json_of(app.get(&format!("/api/news/{id}")).await, StatusCode::NOT_FOUND).await;
        json_of(app.delete_as(&admin, &format!("/api/news/{id}")).await, StatusCode::NOT_FOUND).await;
        json_of(app.put_as(&admin, "/api/news/not-a-uuid", json!({ "title": "x" })).await, StatusCode::NOT_FOUND).await;
    }
}

db_test! {
    async fn drafts_are_visible_to_admins_only(app: TestApp) {
        let admin = admin(&app).await;
        let public = publish(&app, &admin, "Public", true).await;
        let draft = publish(&app, &admin, "Draft", false).await;
        let listed = json_of(app.get("/api/news").await, StatusCode::OK).await;
        assert_eq!(ids(&listed["data"]["items"]), vec![public["id"].as_str().unwrap().to_owned()]);
        let draft_id = draft["id"].as_str().unwrap();
        let body = json_of(app.get(&format!("/api/news/{draft_id}")).await, StatusCode::NOT_FOUND).await;
        assert_eq!(body["message"], "News item not found");
        let member = app.signed_up("reader@example.com").await;
        json_of(app.get_as(&member, &format!("/api/news/{draft_id}")).await, StatusCode::NOT_FOUND).await;

        let as_admin = json_of(app.get_as(&admin, "/api/news").await, StatusCode::OK).await;
        assert_eq!(ids(&as_admin["data"]["items"]).len(), 2);
        json_of(app.get_as(&admin, &format!("/api/news/{draft_id}")).await, StatusCode::OK).await;
    }
}

db_test! {
    async fn bad_news_input_gets_field_errors(app: TestApp) {
        let admin = admin(&app).await;
        let body = json_of(
            app.post_as(&admin, "/api/news", json!({ "title": " ", "summary": "s".repeat(501), "body": "b".repeat(20_001), "imageUrl": "ftp://x.io/a.png" })).await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert_eq!(body["errors"], json!({
            "title": "Title is required",
            "summary": "Summary must be at most 500 characters",
            "body": "Body must be at most 20000 characters",
            "imageUrl": "Image URL must be a valid http(s) URL",
        }));
        for query in ["limit=0", "limit=51", "limit=abc"] {
            let body = json_of(app.get(&format!("/api/news?{query}")).await, StatusCode::BAD_REQUEST).await;
            assert_eq!(body["errors"]["limit"], "limit must be a whole number from 1 to 50", "{query}");
        }
        let body = json_of(app.get("/api/news?cursor=garbage").await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["cursor"], "Invalid cursor");
        // GraphQL's errors name its own arguments.
        let gql = app.graphql(None, "{ news(first: 0, after: \"garbage\") { nextCursor } }", json!({})).await;
        assert_eq!(gql["errors"][0]["message"], "first must be a whole number from 1 to 50", "{gql}");
        assert_eq!(gql["errors"][0]["extensions"]["errors"], json!({ "first": "first must be a whole number from 1 to 50", "after": "Invalid cursor" }));

        // An update is held to the same rules, field by field, and changes nothing when refused.
        let item = publish(&app, &admin, "Kept as it was", true).await;
        let id = item["id"].as_str().unwrap();
        let body = json_of(
            app.put_as(&admin, &format!("/api/news/{id}"), json!({ "title": "", "summary": "s".repeat(501), "imageUrl": "javascript:alert(1)" })).await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert_eq!(body["errors"], json!({
            "title": "Title is required",
            "summary": "Summary must be at most 500 characters",
            "imageUrl": "Image URL must be a valid http(s) URL",
        }));
        let body = json_of(app.put_as(&admin, &format!("/api/news/{id}"), json!({ "body": "" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["body"], "Body is required");
        // A well-formed address that is too long is told its length, not that it is no URL.
        let long = format!("https://cdn.example.com/{}.png", "a".repeat(240));
        let body = json_of(app.put_as(&admin, &format!("/api/news/{id}"), json!({ "imageUrl": long })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["imageUrl"], "Image URL must be at most 255 characters");
        // A required field sent as null is refused, not taken as left out.
        let body = json_of(app.put_as(&admin, &format!("/api/news/{id}"), json!({ "title": null, "summary": null })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"], json!({ "title": "Title is required", "summary": "Summary is required" }));
        let stored = json_of(app.get(&format!("/api/news/{id}")).await, StatusCode::OK).await;
        assert_eq!(stored["data"]["item"]["title"], "Kept as it was");
        let body = json_of(app.client.put(app.url(&format!("/api/news/{id}"))).json(&json!({ "title": "x" })).send().await.unwrap(), StatusCode::UNAUTHORIZED).await;
        assert_eq!(body["code"], "UNAUTHENTICATED");
    }
}

db_test! {
    async fn paging_through_the_feed_while_items_are_added_misses_and_repeats_nothing(app: TestApp) {
        let admin = admin(&app).await;
        let mut originals = Vec::new();
        for n in 0..7 {
            originals.push(publish(&app, &admin, &format!("Item {n}"), true).await["id"].as_str().unwrap().to_owned());
        }
        let mut seen = Vec::new();
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        loop {
            let path = match &cursor {
                Some(c) => format!("/api/news?limit=3&cursor={c}"),
                None => "/api/news?limit=3".to_owned(),
            };
            let page = json_of(app.get(&path).await, StatusCode::OK).await;
            seen.extend(ids(&page["data"]["items"]));
            pages += 1;
            // Someone publishes while the reader pages.
            publish(&app, &admin, &format!("Breaking {pages}"), true).await;
            match page["data"]["nextCursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => break,
            }
        }
        assert_eq!(pages, 3);
        let unique: HashSet<_> = seen.iter().collect();
        assert_eq!(unique.len(), seen.len(), "no duplicates: {seen:?}");
        originals.reverse();
        assert_eq!(seen, originals, "every original item, newest first");
    }
}

db_test! {
    async fn a_deleted_author_leaves_the_news_with_no_author(app: TestApp) {
        let admin = admin(&app).await;
        let item = publish(&app, &admin, "Orphan", true).await;
        let me = json_of(app.get_as(&admin, "/api/auth/verify").await, StatusCode::OK).await;
        let admin_id = me["data"]["user"]["id"].as_str().unwrap();
        // Another admin stays to run the console (the only one may not leave).
        app.signed_up("keeper@example.com").await;
        app.sql("UPDATE users SET role = 'admin' WHERE email = 'keeper@example.com'").await;
        json_of(app.delete_as(&admin, &format!("/api/users/{admin_id}")).await, StatusCode::OK).await;
        let fetched = json_of(app.get(&format!("/api/news/{}", item["id"].as_str().unwrap())).await, StatusCode::OK).await;
        assert_eq!(fetched["data"]["item"]["author"], Value::Null);
        assert_eq!(fetched["data"]["item"]["title"], "Orphan");
    }
}

db_test! {
    async fn graphql_and_rest_show_the_same_feed(app: TestApp) {
        let admin = admin(&app).await;
        for n in 0..3 {
            publish(&app, &admin, &format!("Story {n}"), true).await;
        }
        let rest = json_of(app.get("/api/news?limit=2").await, StatusCode::OK).await;
        let graphql = app
            .graphql(
                None,
                "{ news(first: 2) { edges { cursor node { id title summary body imageUrl published publishedAt author { id name } createdAt updatedAt } } pageInfo { hasNextPage endCursor } nextCursor } }",
                json!({}),
            )
            .await;
        let connection = &graphql["data"]["news"];
        let nodes: Vec<Value> = connection["edges"].as_array().unwrap().iter().map(|e| e["node"].clone()).collect();
        assert_eq!(Value::Array(nodes), rest["data"]["items"]);
        assert_eq!(connection["nextCursor"], rest["data"]["nextCursor"]);
        assert_eq!(connection["pageInfo"]["hasNextPage"], true);
        assert_eq!(connection["pageInfo"]["endCursor"], rest["data"]["nextCursor"]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_made_by_the_cli_can_sign_in_and_publish() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/cli.db?mode=rwc", dir.path().display());
    let app = TestApp::builder(Backend::Sqlite)
        .env("DATABASE_URL", &url)
        .start()
        .await;
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_api"))
        .args([
            "create-admin",
            "--email",
            "Boss@Example.com",
            "--name",
            "The Boss",
        ])
        .current_dir(dir.path())
        .env_clear()
        .envs([
            ("APP_ENV", "local"),
            ("APP_NAME", "Talent Suite"),
            ("JWT_SECRET", "cli-secret"),
            ("MAIN_PLATFORM_URL", "http://main.test"),
            ("HIRE_PLATFORM_URL", "http://hire.test"),
            ("CAMPUS_PLATFORM_URL", "http://campus.test"),
            ("CAREER_PLATFORM_URL", "http://career.test"),
            ("DATABASE_URL", url.as_str()),
            ("ADMIN_PASSWORD", "boss1234"),
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let body = json_of(app.login("boss@example.com", "boss1234").await, StatusCode::OK).await;
    assert_eq!(body["data"]["user"]["role"], "admin");
    let token = body["data"]["token"].as_str().unwrap();
    publish(&app, token, "From the boss", true).await;
}
