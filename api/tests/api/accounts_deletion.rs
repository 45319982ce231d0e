//! `DELETE /users/{id}`.

use reqwest::StatusCode;

use crate::helpers::{PASSWORD, TestApp, json_of};

async fn id_of(app: &TestApp, token: &str) -> String {
    json_of(app.get_as(token, "/api/auth/verify").await, StatusCode::OK).await["data"]["user"]["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

db_test! {
    async fn a_person_deletes_their_own_account_and_everything_of_it_goes(app: TestApp) {
        let token = app.signed_up("u@example.com").await;
        let id = id_of(&app, &token).await;
        let body = json_of(app.delete_as(&token, &format!("/api/users/{id}")).await, StatusCode::OK).await;
        assert_eq!(body["message"], "Account deleted");
        json_of(app.get_as(&token, "/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
        json_of(app.login("u@example.com", PASSWORD).await, StatusCode::UNAUTHORIZED).await;
        // The email is free again.
        json_of(app.register("u@example.com").await, StatusCode::CREATED).await;
    }
}

db_test! {
    async fn nobody_deletes_someone_elses_account(app: TestApp) {
        let mine = app.signed_up("v@example.com").await;
        let theirs = app.signed_up("w@example.com").await;
        let their_id = id_of(&app, &theirs).await;
        let body = json_of(app.delete_as(&mine, &format!("/api/users/{their_id}")).await, StatusCode::FORBIDDEN).await;
        assert_eq!(body["code"], "FORBIDDEN");
        json_of(app.get_as(&theirs, "/api/auth/verify").await, StatusCode::OK).await;
        let response = app.client.delete(app.url(&format!("/api/users/{their_id}"))).send().await.unwrap();
        json_of(response, StatusCode::UNAUTHORIZED).await;
    }
}

db_test! {
    async fn an_admin_deletes_any_account_and_unknown_ids_are_404(app: TestApp) {
        let admin = app.signed_up("admin@example.com").await;
        app.sql("UPDATE users SET role = 'admin' WHERE email = 'admin@example.com'").await;
        let theirs = app.signed_up("x@example.com").await;
        let their_id = id_of(&app, &theirs).await;
        json_of(app.delete_as(&admin, &format!("/api/users/{their_id}")).await, StatusCode::OK).await;
        json_of(app.get_as(&theirs, "/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
        let body = json_of(app.delete_as(&admin, &format!("/api/users/{their_id}")).await, StatusCode::NOT_FOUND).await;
        assert_eq!(body["message"], "User not found");
        json_of(app.delete_as(&admin, "/api/users/not-a-uuid").await, StatusCode::NOT_FOUND).await;
    }
}

/// An account deleted while one of its own requests is under way (a sign-in past its hashing,
/// an organization being created): the request meets the deleted row when it writes, and
/// answers that in the product's words instead of a 500, leaving nothing half-written.
/// PostgreSQL only: it is where the test can hold the deletion open until the request waits
/// on it; SQLite orders the two whole, and the same answer covers its version of the race.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_that_meets_its_accounts_deletion_is_refused_never_a_500() {
    use sea_orm::{ConnectionTrait, TransactionTrait};

    let Some(app) = TestApp::spawn_postgres().await else {
        return;
    };
    for flow in ["sign-in", "organization", "profile"] {
        let email = format!("{flow}@example.com");
        let token = app.signed_up(&email).await;
        app.sql(&format!("UPDATE users SET role = 'hire' WHERE email = '{email}'"))
            .await;
        // The deletion, begun and not yet committed: the request still reads the account.
        let deletion = app.db.begin().await.unwrap();
        deletion
            .execute_unprepared(&format!("DELETE FROM users WHERE email = '{email}'"))
            .await
            .unwrap();
        let mut request: std::pin::Pin<Box<dyn std::future::Future<Output = reqwest::Response> + Send + '_>> =
            match flow {
                "sign-in" => Box::pin(app.login(&email, PASSWORD)),
                // An update that finds its row gone: it was a 500 ("None of the records are
                // updated") before an outside probe raced a deletion with ten of them.
                "profile" => Box::pin(app.put_as(
                    &token,
                    "/api/users/profile",
                    serde_json::json!({ "bio": "still here" }),
                )),
                _ => Box::pin(app.post_as(&token, "/api/orgs", serde_json::json!({ "name": "Acme" }))),
            };
        crate::helpers::until_it_waits_on_a_lock(
            &app,
            std::pin::Pin::new(&mut request),
            &format!("{flow}: it did not wait for the deletion"),
        )
        .await;
        deletion.commit().await.unwrap();
        let body = json_of(request.await, StatusCode::CONFLICT).await;
        assert_eq!(body["code"], "CONFLICT", "{flow}");
        assert_eq!(
            body["message"], "This account or record was deleted while the request ran",
            "{flow}"
        );
        assert_eq!(
            app.count("SELECT COUNT(*) FROM sessions").await,
            0,
            "{flow}: no session"
        );
        assert_eq!(
            app.count("SELECT COUNT(*) FROM organizations").await,
            0,
            "{flow}: no organization"
        );
    }
}
