//! The account center's calls: change the password, see the signed-in devices, sign one out
//! or every other one.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{PASSWORD, json_of};

const CHROME: &str = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

db_test! {
    async fn changing_the_password_keeps_this_session_ends_the_others_and_mails_a_notice(app: TestApp) {
        let email = "change@example.com";
        let here = app.signed_up(email).await;
        let elsewhere = json_of(app.login(email, PASSWORD).await, StatusCode::OK).await["data"]["token"].as_str().unwrap().to_owned();
        let other = app.another_instance().await;

        let change = |current: &'static str, password: &'static str, confirm: &'static str| {
            app.put_as(&here, "/api/users/password", json!({ "currentPassword": current, "password": password, "confirmPassword": confirm }))
        };
        let body = json_of(change("wrong-guess", "brandNew42", "brandNew42").await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["currentPassword"], "Current password is incorrect");
        let body = json_of(change(PASSWORD, "short", "short").await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["password"], "Must contain at least 6 chars, 1 letter & 1 number");
        let body = json_of(change(PASSWORD, "brandNew42", "brandNew43").await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["confirmPassword"], "Passwords do not match");
        let body = json_of(change(PASSWORD, "Password1", "Password1").await, StatusCode::BAD_REQUEST).await;
        assert!(body["errors"]["password"].as_str().unwrap().contains("most common"));

        let body = json_of(change(PASSWORD, "brandNew42", "brandNew42").await, StatusCode::OK).await;
        assert_eq!(body["message"], "Password changed");
        json_of(app.get_as(&here, "/api/auth/verify").await, StatusCode::OK).await;
        json_of(other.get_as(&elsewhere, "/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
        json_of(app.login(email, PASSWORD).await, StatusCode::UNAUTHORIZED).await;
        json_of(app.login(email, "brandNew42").await, StatusCode::OK).await;
        let notice = app.mail.wait_for(email, 2).await.into_iter().last().unwrap();
        assert!(notice.text().contains("was just changed"), "{}", notice.text());
    }
}

db_test! {
    async fn wrong_current_passwords_meet_the_sign_in_throttle(app: TestApp) {
        let token = app.signed_up("guessing@example.com").await;
        for _ in 0..5 {
            let body = json!({ "currentPassword": "wrong-guess", "password": "brandNew42", "confirmPassword": "brandNew42" });
            json_of(app.put_as(&token, "/api/users/password", body).await, StatusCode::BAD_REQUEST).await;
        }
        let body = json!({ "currentPassword": PASSWORD, "password": "brandNew42", "confirmPassword": "brandNew42" });
        json_of(app.put_as(&token, "/api/users/password", body).await, StatusCode::TOO_MANY_REQUESTS).await;
    }
}

db_test! {
    async fn sessions_are_listed_with_their_device_and_one_or_all_others_can_be_signed_out(app: TestApp) {
        let email = "devices@example.com";
        let here = app.signed_up(email).await;
        let sign_in = || async {
            let response = app.client.post(app.url("/api/auth/login")).header("user-agent", CHROME)
                .json(&json!({ "email": email, "password": PASSWORD })).send().await.unwrap();
            json_of(response, StatusCode::OK).await["data"]["token"].as_str().unwrap().to_owned()
        };
        let laptop = sign_in().await;
        let tablet = sign_in().await;

        let body = json_of(app.get_as(&here, "/api/users/sessions").await, StatusCode::OK).await;
        let sessions = body["data"]["sessions"].as_array().unwrap().clone();
        assert_eq!(sessions.len(), 3);
        assert_eq!(sessions[0]["current"], true, "this one first");
        assert!(sessions[1..].iter().all(|s| s["current"] == false));
        let chrome = sessions.iter().find(|s| s["browser"] == "Chrome 120").expect("a Chrome session");
        assert_eq!(chrome["os"], "Mac OSX");
        assert_eq!(chrome["ip"], "127.0.0.1");

        // Sign out the laptop: its token is refused at once, the others stay.
        let laptop_id = {
            let mine = json_of(app.get_as(&laptop, "/api/users/sessions").await, StatusCode::OK).await;
            mine["data"]["sessions"][0]["id"].as_str().unwrap().to_owned()
        };
        let other = app.delete_as(&here, &format!("/api/users/sessions/{laptop_id}")).await;
        assert!(other.headers().get("set-cookie").is_none(), "another session's end leaves this browser's cookie");
        json_of(other, StatusCode::OK).await;
        json_of(app.get_as(&laptop, "/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
        json_of(app.get_as(&tablet, "/api/auth/verify").await, StatusCode::OK).await;

        // Someone else's session is not found, and neither is garbage.
        let stranger = app.signed_up("stranger@example.com").await;
        json_of(app.delete_as(&stranger, &format!("/api/users/sessions/{laptop_id}")).await, StatusCode::NOT_FOUND).await;
        let tablet_id = json_of(app.get_as(&tablet, "/api/users/sessions").await, StatusCode::OK).await["data"]["sessions"][0]["id"].as_str().unwrap().to_owned();
        json_of(app.delete_as(&stranger, &format!("/api/users/sessions/{tablet_id}")).await, StatusCode::NOT_FOUND).await;
        json_of(app.delete_as(&here, "/api/users/sessions/not-a-uuid").await, StatusCode::NOT_FOUND).await;
        json_of(app.get_as(&tablet, "/api/auth/verify").await, StatusCode::OK).await;

        // Every other one.
        let body = json_of(app.delete_as(&here, "/api/users/sessions").await, StatusCode::OK).await;
        assert_eq!(body["message"], "Other sessions signed out");
        json_of(app.get_as(&tablet, "/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
        json_of(app.get_as(&here, "/api/auth/verify").await, StatusCode::OK).await;
        let left = json_of(app.get_as(&here, "/api/users/sessions").await, StatusCode::OK).await;
        assert_eq!(left["data"]["sessions"].as_array().unwrap().len(), 1);

        // This very session, by its id: a logout, so the browser forgets the cookie too.
        let here_id = left["data"]["sessions"][0]["id"].as_str().unwrap().to_owned();
        let own = app.delete_as(&here, &format!("/api/users/sessions/{here_id}")).await;
        let cleared = own.headers().get("set-cookie").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
        assert!(cleared.contains("Max-Age=0"), "{cleared}");
        json_of(own, StatusCode::OK).await;
        json_of(app.get_as(&here, "/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
    }
}
