//! Every REST call beside its GraphQL twin: the two skins call one domain, so for the same
//! request they must say the same thing: the status of the code, the message, the field errors
//! and the data. Values that differ by nature between two calls (ids, tokens, times, secrets)
//! are masked; everything else is compared whole.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    helpers::{Backend, PASSWORD, TestApp, token_after},
    two_factor::app_code,
};

const USER: &str = "user { id name email countryCode phone bio website born role status emailVerified twoFactorEnabled social { github linkedin instagram twitter facebook } address { street city state zip country } preferences { notifications { email sms push } theme } createdAt updatedAt }";
const ITEM: &str =
    "item { id title summary body imageUrl published publishedAt author { id name } createdAt updatedAt }";

/// Keys whose values differ between two calls that did the same thing.
const VOLATILE: &[&str] = &[
    "id",
    "token",
    "email",
    "createdAt",
    "updatedAt",
    "publishedAt",
    "signedInAt",
    "lastActiveAt",
    "secret",
    "otpauthUri",
    "recoveryCodes",
    "challenge",
    // A second organization of one name gets a suffixed slug.
    "slug",
    "joinedAt",
    "expiresAt",
];

fn masked(value: &Value) -> Value {
    match value {
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(key, value)| {
                    let value = if VOLATILE.contains(&key.as_str()) && !value.is_null() {
                        json!("…")
                    } else {
                        masked(value)
                    };
                    (key.clone(), value)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(masked).collect()),
        other => other.clone(),
    }
}

fn status_of(code: &str) -> StatusCode {
    match code {
        "BAD_USER_INPUT" => StatusCode::BAD_REQUEST,
        "UNAUTHENTICATED" => StatusCode::UNAUTHORIZED,
        "FORBIDDEN" | "EMAIL_NOT_VERIFIED" | "REAUTHENTICATION_REQUIRED" => StatusCode::FORBIDDEN,
        "NOT_FOUND" => StatusCode::NOT_FOUND,
        "CONFLICT" => StatusCode::CONFLICT,
        "TOKEN_EXPIRED" => StatusCode::GONE,
        "RATE_LIMITED" => StatusCode::TOO_MANY_REQUESTS,
        other => panic!("no status for {other}"),
    }
}

/// How the REST `data` sits in the GraphQL result.
#[derive(Clone, Copy)]
enum Data {
    /// The root field is a payload: its `message` is the envelope's, its other fields `data`.
    Payload,
    /// The root field's value is `data` under this key.
    Under(&'static str),
}

struct Call<'a> {
    method: Method,
    path: &'a str,
    body: Value,
    token: Option<&'a str>,
}

impl<'a> Call<'a> {
    fn new(method: Method, path: &'a str, body: Value) -> Self {
        Self {
            method,
            path,
            body,
            token: None,
        }
    }

    fn signed_in(mut self, token: &'a str) -> Self {
        self.token = Some(token);
        self
    }
}

async fn rest(app: &TestApp, call: Call<'_>) -> (StatusCode, Value) {
    let mut request = app.client.request(call.method.clone(), app.url(call.path));
    if call.method != Method::GET && call.method != Method::DELETE {
        request = request.json(&call.body);
    }
    if let Some(token) = call.token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("request");
    let status = response.status();
    (status, response.json().await.expect("a JSON envelope"))
}

/// Asserts that the REST answer and the GraphQL one say the same.
fn assert_twins((status, rest): &(StatusCode, Value), graphql: &Value, field: &str, data: Data) {
    if let Some(error) = graphql["errors"].get(0) {
        let code = error["extensions"]["code"].as_str().expect("a code");
        assert_eq!(*status, status_of(code), "REST {rest} beside GraphQL {graphql}");
        assert_eq!(rest["success"], false);
        assert_eq!(rest["code"], code, "REST {rest} beside GraphQL {graphql}");
        assert_eq!(
            rest["message"], error["message"],
            "REST {rest} beside GraphQL {graphql}"
        );
        let field_errors = &error["extensions"]["errors"];
        assert_eq!(rest.get("errors").unwrap_or(&Value::Null), field_errors);
        return;
    }
    assert!(
        status.is_success(),
        "REST {status} {rest} beside GraphQL {graphql}"
    );
    assert_eq!(rest["success"], true);
    let result = &graphql["data"][field];
    assert!(!result.is_null(), "{graphql}");
    match data {
        Data::Payload => {
            assert_eq!(
                rest["message"], result["message"],
                "REST {rest} beside GraphQL {graphql}"
            );
            let fields = result.as_object().unwrap();
            let rest_data = rest.get("data").cloned().unwrap_or(json!({}));
            for (key, value) in rest_data.as_object().unwrap() {
                assert_eq!(
                    masked(&json!({ key: value })),
                    masked(&json!({ key: fields[key] })),
                    "{key}: REST {rest} beside GraphQL {graphql}"
                );
            }
            for (key, value) in fields {
                if key != "message" && !rest_data.as_object().unwrap().contains_key(key) {
                    // What REST leaves out is the other half of a sign-in step, or a flag it
                    // says with its status (201 for `created`).
                    assert!(
                        value.is_null() || *value == json!(false) || key == "created",
                        "REST lacks {key}: {rest} beside {graphql}"
                    );
                }
            }
        }
        Data::Under(key) => {
            assert_eq!(rest.get("message"), None);
            assert_eq!(
                masked(&rest["data"][key]),
                masked(result),
                "REST {rest} beside GraphQL {graphql}"
            );
        }
    }
}

async fn graphql(app: &TestApp, token: Option<&str>, document: &str, variables: Value) -> Value {
    app.graphql(token, document, variables).await
}

/// Sends `call` over REST and `document` with `variables` over GraphQL (as `token`), asserts
/// that they answer alike, and hands both answers back.
#[allow(clippy::too_many_arguments)]
async fn alike(
    app: &TestApp,
    call: Call<'_>,
    token: Option<&str>,
    document: &str,
    variables: Value,
    field: &str,
    data: Data,
) -> ((StatusCode, Value), Value) {
    let rest = rest(app, call).await;
    let graphql = graphql(app, token, document, variables).await;
    assert_twins(&rest, &graphql, field, data);
    (rest, graphql)
}

fn register_input(email: &str) -> Value {
    json!({
        "name": "Asha Verma",
        "email": email,
        "countryCode": "+91",
        "phone": "+919876543210",
        "password": PASSWORD,
        "role": "career",
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sign_up_and_sign_in_calls_answer_alike() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let register =
        format!("mutation($input: RegisterInput!) {{ register(input: $input) {{ message {USER} }} }}");
    let send = "mutation($input: SendOtpEmailInput!) { sendOtpEmail(input: $input) { message } }";
    let verify = format!(
        "mutation($input: VerifyOtpEmailInput!) {{ verifyOtpEmail(input: $input) {{ message token {USER} }} }}"
    );
    let login = format!(
        "mutation($input: LoginInput!) {{ login(input: $input) {{ message token twoFactorRequired challenge {USER} }} }}"
    );
    let forgot = "mutation($input: ForgotPasswordInput!) { forgotPassword(input: $input) { message } }";
    let reset = "mutation($token: String!, $input: ResetPasswordInput!) { resetPassword(token: $token, input: $input) { message } }";
    let logout = "mutation { logout { message } }";

    // Each pair: the same bad input to both, then the same good input for two people.
    for (field, document, path, bad) in [
        (
            "register",
            register.as_str(),
            "/api/auth/register",
            json!({ "email": "not-an-email", "countryCode": "91", "password": "short" }),
        ),
        (
            "sendOtpEmail",
            send,
            "/api/auth/send-otp-email",
            json!({ "email": "not-an-email" }),
        ),
        (
            "verifyOtpEmail",
            verify.as_str(),
            "/api/auth/verify-otp-email",
            json!({ "email": "not-an-email", "otp": "12" }),
        ),
        (
            "login",
            login.as_str(),
            "/api/auth/login",
            json!({ "email": "not-an-email" }),
        ),
        (
            "forgotPassword",
            forgot,
            "/api/auth/forgot-password",
            json!({ "email": "" }),
        ),
    ] {
        alike(
            &app,
            Call::new(Method::POST, path, bad.clone()),
            None,
            document,
            json!({ "input": bad }),
            field,
            Data::Payload,
        )
        .await;
        // A field of the wrong type is refused by both, naming the field.
        let r = rest(&app, Call::new(Method::POST, path, json!({ "email": 5 }))).await;
        assert_eq!(r.0, StatusCode::BAD_REQUEST, "{path}: {}", r.1);
        assert_eq!(r.1["errors"]["email"], "email has the wrong type", "{path}");
    }

    let r = rest(
        &app,
        Call::new(
            Method::POST,
            "/api/auth/register",
            register_input("rest@example.com"),
        ),
    )
    .await;
    assert_eq!(r.0, StatusCode::CREATED);
    let g = graphql(
        &app,
        None,
        &register,
        json!({ "input": register_input("graph@example.com") }),
    )
    .await;
    assert_twins(&r, &g, "register", Data::Payload);
    // Registering an address again: the same conflict.
    alike(
        &app,
        Call::new(
            Method::POST,
            "/api/auth/register",
            register_input("rest@example.com"),
        ),
        None,
        &register,
        json!({ "input": register_input("graph@example.com") }),
        "register",
        Data::Payload,
    )
    .await;

    // Signing in before the email is verified.
    alike(
        &app,
        Call::new(
            Method::POST,
            "/api/auth/login",
            json!({ "email": "rest@example.com", "password": PASSWORD }),
        ),
        None,
        &login,
        json!({ "input": { "email": "graph@example.com", "password": PASSWORD } }),
        "login",
        Data::Payload,
    )
    .await;

    alike(
        &app,
        Call::new(
            Method::POST,
            "/api/auth/send-otp-email",
            json!({ "email": "rest@example.com" }),
        ),
        None,
        send,
        json!({ "input": { "email": "graph@example.com" } }),
        "sendOtpEmail",
        Data::Payload,
    )
    .await;
    let rest_code = app.code_from_mail("rest@example.com", 1).await;
    let graph_code = app.code_from_mail("graph@example.com", 1).await;
    let wrong = if rest_code == "000000" { "111111" } else { "000000" };
    let r = rest(
        &app,
        Call::new(
            Method::POST,
            "/api/auth/verify-otp-email",
            json!({ "email": "rest@example.com", "otp": wrong }),
        ),
    )
    .await;
    let wrong = if graph_code == "000000" {
        "111111"
    } else {
        "000000"
    };
    let g = graphql(
        &app,
        None,
        &verify,
        json!({ "input": { "email": "graph@example.com", "otp": wrong } }),
    )
    .await;
    assert_twins(&r, &g, "verifyOtpEmail", Data::Payload);
    alike(
        &app,
        Call::new(
            Method::POST,
            "/api/auth/verify-otp-email",
            json!({ "email": "rest@example.com", "otp": rest_code }),
        ),
        None,
        &verify,
        json!({ "input": { "email": "graph@example.com", "otp": graph_code } }),
        "verifyOtpEmail",
        Data::Payload,
    )
    .await;

    alike(
        &app,
        Call::new(
            Method::POST,
            "/api/auth/login",
            json!({ "email": "rest@example.com", "password": "wrongPassword9" }),
        ),
        None,
        &login,
        json!({ "input": { "email": "graph@example.com", "password": "wrongPassword9" } }),
        "login",
        Data::Payload,
    )
    .await;
    let (r, g) = alike(
        &app,
        Call::new(
            Method::POST,
            "/api/auth/login",
            json!({ "email": "rest@example.com", "password": PASSWORD }),
        ),
        None,
        &login,
        json!({ "input": { "email": "graph@example.com", "password": PASSWORD } }),
        "login",
        Data::Payload,
    )
    .await;
    let rest_token = r.1["data"]["token"].as_str().unwrap().to_owned();
    let graph_token = g["data"]["login"]["token"].as_str().unwrap().to_owned();

    alike(
        &app,
        Call::new(
            Method::POST,
            "/api/auth/forgot-password",
            json!({ "email": "rest@example.com" }),
        ),
        None,
        forgot,
        json!({ "input": { "email": "nobody@example.com" } }),
        "forgotPassword",
        Data::Payload,
    )
    .await;
    alike(
        &app,
        Call::new(
            Method::POST,
            "/api/auth/reset-password/not-a-token",
            json!({ "password": "aFreshPassword7" }),
        ),
        None,
        reset,
        json!({ "token": "not-a-token", "input": { "password": "aFreshPassword7" } }),
        "resetPassword",
        Data::Payload,
    )
    .await;
    alike(
        &app,
        Call::new(
            Method::POST,
            "/api/auth/reset-password/not-a-token",
            json!({ "password": "x" }),
        ),
        None,
        reset,
        json!({ "token": "not-a-token", "input": { "password": "x" } }),
        "resetPassword",
        Data::Payload,
    )
    .await;

    alike(
        &app,
        Call::new(Method::POST, "/api/auth/logout", json!({})).signed_in(&rest_token),
        Some(&graph_token),
        logout,
        json!({}),
        "logout",
        Data::Payload,
    )
    .await;
    // Both sessions are over.
    let (r, _) = alike(
        &app,
        Call::new(Method::GET, "/api/auth/verify", json!({})).signed_in(&rest_token),
        Some(&graph_token),
        &format!("{{ me {{ {} }} }}", &USER[7..USER.len() - 2]),
        json!({}),
        "me",
        Data::Under("user"),
    )
    .await;
    assert_eq!(r.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_account_calls_answer_alike() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let token = app.signed_up("asha@example.com").await;
    let other = app.signed_up("ravi@example.com").await;
    let me = format!("{{ me {{ {} }} }}", &USER[7..USER.len() - 2]);

    for path in ["/api/auth/verify", "/api/users/profile"] {
        let (r, g) = alike(
            &app,
            Call::new(Method::GET, path, json!({})).signed_in(&token),
            Some(&token),
            &me,
            json!({}),
            "me",
            Data::Under("user"),
        )
        .await;
        assert_eq!(
            r.1["data"]["user"], g["data"]["me"],
            "the very same account, unmasked"
        );
    }

    let update = format!(
        "mutation($input: UpdateProfileInput!) {{ updateProfile(input: $input) {{ message {USER} }} }}"
    );
    for input in [
        json!({ "phone": "12", "website": "not a url" }),
        json!({ "bio": "Builds things", "social": { "github": "https://github.com/asha" }, "preferences": { "notifications": { "sms": true }, "theme": "dark" } }),
        json!({ "bio": null, "born": "1990-02-03" }),
    ] {
        alike(
            &app,
            Call::new(Method::PUT, "/api/users/profile", input.clone()).signed_in(&token),
            Some(&token),
            &update,
            json!({ "input": input }),
            "updateProfile",
            Data::Payload,
        )
        .await;
    }

    let change = "mutation($input: ChangePasswordInput!) { changePassword(input: $input) { message } }";
    let input =
        json!({ "currentPassword": PASSWORD, "password": "anotherRiver7", "confirmPassword": "different7A" });
    alike(
        &app,
        Call::new(Method::PUT, "/api/users/password", input.clone()).signed_in(&token),
        Some(&token),
        change,
        json!({ "input": input }),
        "changePassword",
        Data::Payload,
    )
    .await;

    let reauth = "mutation($input: ReauthenticateInput!) { reauthenticate(input: $input) { message } }";
    for input in [
        json!({ "password": "wrongPassword9" }),
        json!({ "password": PASSWORD }),
    ] {
        alike(
            &app,
            Call::new(Method::POST, "/api/auth/reauthenticate", input.clone()).signed_in(&token),
            Some(&token),
            reauth,
            json!({ "input": input }),
            "reauthenticate",
            Data::Payload,
        )
        .await;
    }

    let sessions = "{ sessions { id browser os ip signedInAt lastActiveAt current } }";
    alike(
        &app,
        Call::new(Method::GET, "/api/users/sessions", json!({})).signed_in(&token),
        Some(&token),
        sessions,
        json!({}),
        "sessions",
        Data::Under("sessions"),
    )
    .await;
    let revoke = "mutation($id: ID!) { revokeSession(id: $id) { message } }";
    let unknown = "00000000-0000-4000-8000-000000000000";
    alike(
        &app,
        Call::new(
            Method::DELETE,
            &format!("/api/users/sessions/{unknown}"),
            json!({}),
        )
        .signed_in(&token),
        Some(&token),
        revoke,
        json!({ "id": unknown }),
        "revokeSession",
        Data::Payload,
    )
    .await;
    let others = "mutation { revokeOtherSessions { message } }";
    alike(
        &app,
        Call::new(Method::DELETE, "/api/users/sessions", json!({})).signed_in(&token),
        Some(&other),
        others,
        json!({}),
        "revokeOtherSessions",
        Data::Payload,
    )
    .await;

    // Deleting someone else's account, then one's own.
    let delete = "mutation($id: ID!) { deleteUser(id: $id) { message } }";
    let asha_id = json_id(&app, &token).await;
    let ravi_id = json_id(&app, &other).await;
    alike(
        &app,
        Call::new(Method::DELETE, &format!("/api/users/{ravi_id}"), json!({})).signed_in(&token),
        Some(&other),
        delete,
        json!({ "id": asha_id }),
        "deleteUser",
        Data::Payload,
    )
    .await;
    let (r, _) = alike(
        &app,
        Call::new(Method::DELETE, &format!("/api/users/{asha_id}"), json!({})).signed_in(&token),
        Some(&other),
        delete,
        json!({ "id": ravi_id }),
        "deleteUser",
        Data::Payload,
    )
    .await;
    assert_eq!(r.0, StatusCode::OK);
}

async fn json_id(app: &TestApp, token: &str) -> String {
    let (_, body) = rest(
        app,
        Call::new(Method::GET, "/api/auth/verify", json!({})).signed_in(token),
    )
    .await;
    body["data"]["user"]["id"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_two_factor_calls_answer_alike() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let rest_token = app.signed_up("rest@example.com").await;
    let graph_token = app.signed_up("graph@example.com").await;

    let setup = "mutation { startTwoFactorSetup { secret otpauthUri } }";
    let (r, g) = alike(
        &app,
        Call::new(Method::POST, "/api/users/two-factor/setup", json!({})).signed_in(&rest_token),
        Some(&graph_token),
        setup,
        json!({}),
        "startTwoFactorSetup",
        Data::Under("setup"),
    )
    .await;
    let rest_secret = r.1["data"]["setup"]["secret"].as_str().unwrap().to_owned();
    let graph_secret = g["data"]["startTwoFactorSetup"]["secret"]
        .as_str()
        .unwrap()
        .to_owned();

    let confirm = "mutation($input: ConfirmTwoFactorInput!) { confirmTwoFactor(input: $input) { message recoveryCodes } }";
    for (rest_code, graph_code) in [
        ("12".to_owned(), "12".to_owned()),
        (app_code(&rest_secret, 0), app_code(&graph_secret, 0)),
    ] {
        alike(
            &app,
            Call::new(
                Method::POST,
                "/api/users/two-factor/confirm",
                json!({ "code": rest_code }),
            )
            .signed_in(&rest_token),
            Some(&graph_token),
            confirm,
            json!({ "input": { "code": graph_code } }),
            "confirmTwoFactor",
            Data::Payload,
        )
        .await;
    }

    // Signing in now asks for the second step, on both skins alike.
    let login = format!(
        "mutation($input: LoginInput!) {{ login(input: $input) {{ message token twoFactorRequired challenge {USER} }} }}"
    );
    let (r, g) = alike(
        &app,
        Call::new(
            Method::POST,
            "/api/auth/login",
            json!({ "email": "rest@example.com", "password": PASSWORD }),
        ),
        None,
        &login,
        json!({ "input": { "email": "graph@example.com", "password": PASSWORD } }),
        "login",
        Data::Payload,
    )
    .await;
    assert_eq!(r.1["data"]["twoFactorRequired"], true, "{}", r.1);
    let rest_challenge = r.1["data"]["challenge"].as_str().unwrap().to_owned();
    let graph_challenge = g["data"]["login"]["challenge"].as_str().unwrap().to_owned();

    let complete = format!(
        "mutation($input: TwoFactorLoginInput!) {{ completeTwoFactorLogin(input: $input) {{ message token {USER} }} }}"
    );
    for (r_input, g_input) in [
        (json!({ "challenge": "forged" }), json!({ "challenge": "forged" })),
        (
            json!({ "challenge": rest_challenge, "code": app_code(&rest_secret, 1) }),
            json!({ "challenge": graph_challenge, "code": app_code(&graph_secret, 1) }),
        ),
    ] {
        alike(
            &app,
            Call::new(Method::POST, "/api/auth/login/two-factor", r_input),
            None,
            &complete,
            json!({ "input": g_input }),
            "completeTwoFactorLogin",
            Data::Payload,
        )
        .await;
    }

    let disable = "mutation($input: DisableTwoFactorInput!) { disableTwoFactor(input: $input) { message } }";
    for (r_input, g_input) in [
        (json!({ "password": PASSWORD }), json!({ "password": PASSWORD })),
        (
            json!({ "password": PASSWORD, "code": app_code(&rest_secret, -1) }),
            json!({ "password": PASSWORD, "code": app_code(&graph_secret, -1) }),
        ),
    ] {
        alike(
            &app,
            Call::new(Method::POST, "/api/users/two-factor/disable", r_input).signed_in(&rest_token),
            Some(&graph_token),
            disable,
            json!({ "input": g_input }),
            "disableTwoFactor",
            Data::Payload,
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_google_calls_answer_alike_without_a_provider() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let google_login = format!(
        "mutation($input: GoogleLoginInput!) {{ googleLogin(input: $input) {{ message token twoFactorRequired challenge {USER} }} }}"
    );
    let google_register = format!(
        "mutation($input: GoogleRegisterInput!) {{ googleRegister(input: $input) {{ message token twoFactorRequired challenge created {USER} }} }}"
    );
    for input in [json!({}), json!({ "idToken": "not.a.token" })] {
        alike(
            &app,
            Call::new(Method::POST, "/api/auth/google-login", input.clone()),
            None,
            &google_login,
            json!({ "input": input }),
            "googleLogin",
            Data::Payload,
        )
        .await;
    }
    for input in [
        json!({}),
        json!({ "idToken": "not.a.token" }),
        json!({ "idToken": "not.a.token", "role": "pilot" }),
    ] {
        alike(
            &app,
            Call::new(Method::POST, "/api/auth/google-register", input.clone()),
            None,
            &google_register,
            json!({ "input": input }),
            "googleRegister",
            Data::Payload,
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_news_calls_answer_alike() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let reader = app.signed_up("reader@example.com").await;
    let admin = app.signed_up("editor@example.com").await;
    app.sql("UPDATE users SET role = 'admin' WHERE email = 'editor@example.com'")
        .await;

    let create =
        format!("mutation($input: CreateNewsInput!) {{ createNews(input: $input) {{ message {ITEM} }} }}");
    let story = json!({ "title": "Campus week", "summary": "Five days", "body": "The whole story.", "published": true });
    for (token, input) in [
        (&reader, story.clone()),
        (&admin, json!({ "title": "", "imageUrl": "ftp://nope" })),
        (&admin, story.clone()),
    ] {
        alike(
            &app,
            Call::new(Method::POST, "/api/news", input.clone()).signed_in(token),
            Some(token),
            &create,
            json!({ "input": input }),
            "createNews",
            Data::Payload,
        )
        .await;
    }
    let (_, created) = rest(
        &app,
        Call::new(Method::POST, "/api/news", story.clone()).signed_in(&admin),
    )
    .await;
    let id = created["data"]["item"]["id"].as_str().unwrap().to_owned();

    let item = format!(
        "query($id: ID!) {{ newsItem(id: $id) {{ {} }} }}",
        &ITEM[7..ITEM.len() - 2]
    );
    let path = format!("/api/news/{id}");
    for token in [None, Some(admin.as_str())] {
        let call = Call::new(Method::GET, &path, json!({}));
        let call = match token {
            Some(token) => call.signed_in(token),
            None => call,
        };
        let (r, g) = alike(
            &app,
            call,
            token,
            &item,
            json!({ "id": id }),
            "newsItem",
            Data::Under("item"),
        )
        .await;
        assert_eq!(
            r.1["data"]["item"], g["data"]["newsItem"],
            "the very same item, unmasked"
        );
    }

    let update = format!(
        "mutation($id: ID!, $input: UpdateNewsInput!) {{ updateNews(id: $id, input: $input) {{ message {ITEM} }} }}"
    );
    for input in [
        json!({ "summary": "" }),
        json!({ "summary": "Six days", "imageUrl": null }),
        json!({ "published": false }),
    ] {
        alike(
            &app,
            Call::new(Method::PUT, &format!("/api/news/{id}"), input.clone()).signed_in(&admin),
            Some(&admin),
            &update,
            json!({ "id": id, "input": input }),
            "updateNews",
            Data::Payload,
        )
        .await;
    }

    let delete = "mutation($id: ID!) { deleteNews(id: $id) { message } }";
    let (_, second) = rest(
        &app,
        Call::new(Method::POST, "/api/news", story).signed_in(&admin),
    )
    .await;
    let second = second["data"]["item"]["id"].as_str().unwrap().to_owned();
    for (token, rest_id, graph_id) in [
        (&reader, id.as_str(), second.as_str()),
        (&admin, "not-an-id", "not-an-id"),
        (&admin, id.as_str(), second.as_str()),
    ] {
        alike(
            &app,
            Call::new(Method::DELETE, &format!("/api/news/{rest_id}"), json!({})).signed_in(token),
            Some(token),
            delete,
            json!({ "id": graph_id }),
            "deleteNews",
            Data::Payload,
        )
        .await;
    }
}

const ORGANIZATION_FIELDS: &str = "id name slug kind seatLimit memberCount myRole createdAt";
const INVITATION: &str = "id email role status expiresAt invitedBy { id name } createdAt";

/// The token of the invitation link in the `nth` mail to `email`.
async fn invitation_link(app: &TestApp, email: &str, nth: usize) -> String {
    let mails = app.mail.wait_for(email, nth).await;
    token_after(&mails[nth - 1], "/invitations/").expect("an invitation link")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_organization_calls_answer_alike() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let owner = app.signed_up("owner@acme.example").await;
    let career = app.signed_up("student@uni.example").await;
    app.sql("UPDATE users SET role = 'hire' WHERE email = 'owner@acme.example'")
        .await;
    let id_of = |token: String| {
        let app = &app;
        async move {
            let (_, me) = rest(
                app,
                Call::new(Method::GET, "/api/auth/verify", json!({})).signed_in(&token),
            )
            .await;
            me["data"]["user"]["id"].as_str().unwrap().to_owned()
        }
    };
    let owner_id = id_of(owner.clone()).await;
    // The invitees have accounts already: their first mail is the code, the second the invitation.
    let a = app.signed_up("a@acme.example").await;
    let b = app.signed_up("b@acme.example").await;

    let create = format!(
        "mutation($input: CreateOrganizationInput!) {{ createOrganization(input: $input) {{ message organization {{ {ORGANIZATION_FIELDS} }} }} }}"
    );
    for (token, input) in [
        (&career, json!({ "name": "Mine" })),
        (&owner, json!({ "name": " ", "slug": "No Way" })),
        (&owner, json!({ "name": "Twin Co" })),
        (&owner, json!({ "name": "Other", "slug": "twin-co" })),
    ] {
        alike(
            &app,
            Call::new(Method::POST, "/api/orgs", input.clone()).signed_in(token),
            Some(token),
            &create,
            json!({ "input": input }),
            "createOrganization",
            Data::Payload,
        )
        .await;
    }
    let (_, created) = rest(
        &app,
        Call::new(Method::POST, "/api/orgs", json!({ "name": "Acme" })).signed_in(&owner),
    )
    .await;
    let id = created["data"]["organization"]["id"].as_str().unwrap().to_owned();
    let path = format!("/api/orgs/{id}");

    let list = format!("{{ organizations {{ {ORGANIZATION_FIELDS} }} }}");
    alike(
        &app,
        Call::new(Method::GET, "/api/orgs", json!({})).signed_in(&owner),
        Some(&owner),
        &list,
        json!({}),
        "organizations",
        Data::Under("organizations"),
    )
    .await;
    let one = format!("query($id: ID!) {{ organization(id: $id) {{ {ORGANIZATION_FIELDS} }} }}");
    for token in [&owner, &career] {
        alike(
            &app,
            Call::new(Method::GET, &path, json!({})).signed_in(token),
            Some(token),
            &one,
            json!({ "id": id }),
            "organization",
            Data::Under("organization"),
        )
        .await;
    }
    let update = format!(
        "mutation($id: ID!, $input: UpdateOrganizationInput!) {{ updateOrganization(id: $id, input: $input) {{ message organization {{ {ORGANIZATION_FIELDS} }} }} }}"
    );
    for input in [
        json!({ "seatLimit": 5 }),
        json!({ "slug": "A" }),
        json!({ "name": "Acme Talent" }),
    ] {
        alike(
            &app,
            Call::new(Method::PUT, &path, input.clone()).signed_in(&owner),
            Some(&owner),
            &update,
            json!({ "id": id, "input": input }),
            "updateOrganization",
            Data::Payload,
        )
        .await;
    }

    // Invitations: refusals alike; a success to each skin with its own address (addresses masked).
    let invite = format!(
        "mutation($id: ID!, $input: InviteInput!) {{ inviteMembers(organizationId: $id, input: $input) {{ message invitations {{ {INVITATION} }} skipped {{ email reason }} }} }}"
    );
    let invitations_path = format!("{path}/invitations");
    for (token, input) in [
        (&owner, json!({ "emails": [] })),
        (&owner, json!({ "emails": ["x@acme.example"], "role": "king" })),
        (&career, json!({ "emails": ["x@acme.example"] })),
    ] {
        alike(
            &app,
            Call::new(Method::POST, &invitations_path, input.clone()).signed_in(token),
            Some(token),
            &invite,
            json!({ "id": id, "input": input }),
            "inviteMembers",
            Data::Payload,
        )
        .await;
    }
    let by_rest = rest(
        &app,
        Call::new(
            Method::POST,
            &invitations_path,
            json!({ "emails": ["a@acme.example", "nope", "owner@acme.example"], "role": "admin" }),
        )
        .signed_in(&owner),
    )
    .await;
    let by_graphql = graphql(&app, Some(&owner), &invite, json!({ "id": id, "input": { "emails": ["b@acme.example", "nope", "owner@acme.example"], "role": "admin" } })).await;
    assert_twins(&by_rest, &by_graphql, "inviteMembers", Data::Payload);
    let pending = format!("query($id: ID!) {{ invitations(organizationId: $id) {{ {INVITATION} }} }}");
    alike(
        &app,
        Call::new(Method::GET, &invitations_path, json!({})).signed_in(&owner),
        Some(&owner),
        &pending,
        json!({ "id": id }),
        "invitations",
        Data::Under("items"),
    )
    .await;

    // The links: shown alike; accepted by each skin's own invitee.
    let (link_a, link_b) = (
        invitation_link(&app, "a@acme.example", 2).await,
        invitation_link(&app, "b@acme.example", 2).await,
    );
    let show = format!(
        "query($token: String!) {{ invitation(token: $token) {{ {INVITATION} organization {{ name kind }} }} }}"
    );
    for link in [link_a.as_str(), "unknown"] {
        alike(
            &app,
            Call::new(Method::GET, &format!("/api/invitations/{link}"), json!({})),
            None,
            &show,
            json!({ "token": link }),
            "invitation",
            Data::Under("invitation"),
        )
        .await;
    }
    let accept = format!(
        "mutation($token: String!) {{ acceptInvitation(token: $token) {{ message organization {{ {ORGANIZATION_FIELDS} }} }} }}"
    );
    alike(
        &app,
        Call::new(
            Method::POST,
            &format!("/api/invitations/{link_a}/accept"),
            json!({}),
        )
        .signed_in(&career),
        Some(&career),
        &accept,
        json!({ "token": link_a }),
        "acceptInvitation",
        Data::Payload,
    )
    .await;
    let by_rest = rest(
        &app,
        Call::new(
            Method::POST,
            &format!("/api/invitations/{link_a}/accept"),
            json!({}),
        )
        .signed_in(&a),
    )
    .await;
    let by_graphql = graphql(&app, Some(&b), &accept, json!({ "token": link_b })).await;
    assert_eq!(by_rest.1["message"], "You joined Acme Talent");
    assert_eq!(
        by_graphql["data"]["acceptInvitation"]["message"],
        "You joined Acme Talent"
    );
    assert_eq!(
        by_rest.1["data"]["organization"]["myRole"],
        by_graphql["data"]["acceptInvitation"]["organization"]["myRole"]
    );
    alike(
        &app,
        Call::new(
            Method::POST,
            &format!("/api/invitations/{link_a}/accept"),
            json!({}),
        )
        .signed_in(&a),
        Some(&a),
        &accept,
        json!({ "token": link_a }),
        "acceptInvitation",
        Data::Payload,
    )
    .await;

    let members = "query($id: ID!, $first: Int) { members(organizationId: $id, first: $first) { items { user { id name email } role joinedAt } nextCursor } }";
    alike(
        &app,
        Call::new(Method::GET, &format!("{path}/members?limit=2"), json!({})).signed_in(&owner),
        Some(&owner),
        members,
        json!({ "id": id, "first": 2 }),
        "members",
        Data::Payload,
    )
    .await;
    // A page size out of range: the same refusal, under the name each caller sent.
    let (status, refused) = rest(
        &app,
        Call::new(Method::GET, &format!("{path}/members?limit=0"), json!({})).signed_in(&owner),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        refused["errors"],
        json!({ "limit": "limit must be a whole number from 1 to 100" })
    );
    let refused = app
        .graphql(Some(&owner), members, json!({ "id": id, "first": 0 }))
        .await;
    assert_eq!(refused["errors"][0]["extensions"]["code"], "BAD_USER_INPUT");
    assert_eq!(
        refused["errors"][0]["extensions"]["errors"],
        json!({ "first": "first must be a whole number from 1 to 100" })
    );
    let a_id = id_of(a.clone()).await;
    let change = "mutation($id: ID!, $user: ID!, $role: String!) { changeMemberRole(organizationId: $id, userId: $user, role: $role) { message member { user { id name email } role joinedAt } } }";
    for (who, user, role) in [
        (&a, &owner_id, "member"),
        (&owner, &a_id, "boss"),
        (&owner, &owner_id, "admin"),
        (&owner, &a_id, "member"),
    ] {
        alike(
            &app,
            Call::new(
                Method::PUT,
                &format!("{path}/members/{user}"),
                json!({ "role": role }),
            )
            .signed_in(who),
            Some(who),
            change,
            json!({ "id": id, "user": user, "role": role }),
            "changeMemberRole",
            Data::Payload,
        )
        .await;
    }
    let remove =
        "mutation($id: ID!, $user: ID!) { removeMember(organizationId: $id, userId: $user) { message } }";
    for (who, user) in [(&owner, &owner_id), (&a, &owner_id)] {
        alike(
            &app,
            Call::new(Method::DELETE, &format!("{path}/members/{user}"), json!({})).signed_in(who),
            Some(who),
            remove,
            json!({ "id": id, "user": user }),
            "removeMember",
            Data::Payload,
        )
        .await;
    }
    // Writes that happen once: each skin does its own.
    let b_id = id_of(b.clone()).await;
    let by_rest = rest(
        &app,
        Call::new(Method::DELETE, &format!("{path}/members/{a_id}"), json!({})).signed_in(&owner),
    )
    .await;
    let by_graphql = graphql(&app, Some(&owner), remove, json!({ "id": id, "user": b_id })).await;
    assert_twins(&by_rest, &by_graphql, "removeMember", Data::Payload);
    let (_, sent) = rest(
        &app,
        Call::new(
            Method::POST,
            &invitations_path,
            json!({ "emails": ["c@acme.example", "d@acme.example"] }),
        )
        .signed_in(&owner),
    )
    .await;
    let revoke = "mutation($id: ID!, $invitation: ID!) { revokeInvitation(organizationId: $id, invitationId: $invitation) { message } }";
    let (first, second) = (
        sent["data"]["invitations"][0]["id"].as_str().unwrap(),
        sent["data"]["invitations"][1]["id"].as_str().unwrap(),
    );
    let by_rest = rest(
        &app,
        Call::new(Method::DELETE, &format!("{invitations_path}/{first}"), json!({})).signed_in(&owner),
    )
    .await;
    let by_graphql = graphql(
        &app,
        Some(&owner),
        revoke,
        json!({ "id": id, "invitation": second }),
    )
    .await;
    assert_twins(&by_rest, &by_graphql, "revokeInvitation", Data::Payload);
    alike(
        &app,
        Call::new(Method::DELETE, &format!("{invitations_path}/{first}"), json!({})).signed_in(&owner),
        Some(&owner),
        revoke,
        json!({ "id": id, "invitation": first }),
        "revokeInvitation",
        Data::Payload,
    )
    .await;
    let delete = "mutation($id: ID!) { deleteOrganization(id: $id) { message } }";
    alike(
        &app,
        Call::new(Method::DELETE, &path, json!({})).signed_in(&career),
        Some(&career),
        delete,
        json!({ "id": id }),
        "deleteOrganization",
        Data::Payload,
    )
    .await;
    let (_, other) = rest(
        &app,
        Call::new(Method::POST, "/api/orgs", json!({ "name": "Second" })).signed_in(&owner),
    )
    .await;
    let by_rest = rest(
        &app,
        Call::new(Method::DELETE, &path, json!({})).signed_in(&owner),
    )
    .await;
    let by_graphql = graphql(
        &app,
        Some(&owner),
        delete,
        json!({ "id": other["data"]["organization"]["id"] }),
    )
    .await;
    assert_twins(&by_rest, &by_graphql, "deleteOrganization", Data::Payload);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sign_in_link_calls_answer_alike() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.signed_up("link@example.com").await;
    let request = "mutation($input: MagicLinkInput!) { requestMagicLink(input: $input) { message } }";
    for input in [
        json!({ "email": "link@example.com" }),
        json!({ "email": "nobody@example.com" }),
        json!({ "email": "nope" }),
    ] {
        alike(
            &app,
            Call::new(Method::POST, "/api/auth/magic-link", input.clone()),
            None,
            request,
            json!({ "input": input }),
            "requestMagicLink",
            Data::Payload,
        )
        .await;
    }
    let sign_in = format!(
        "mutation($token: String!) {{ signInWithMagicLink(token: $token) {{ message token twoFactorRequired challenge {USER} }} }}"
    );
    alike(
        &app,
        Call::new(Method::POST, "/api/auth/magic-link/unknown", json!({})),
        None,
        &sign_in,
        json!({ "token": "unknown" }),
        "signInWithMagicLink",
        Data::Payload,
    )
    .await;
    // Each skin uses its own link (a link works once); the answers match but for the token.
    let mails = app.mail.wait_for("link@example.com", 3).await;
    let tokens: Vec<String> = mails[1..]
        .iter()
        .map(|mail| token_after(mail, "/magic-link/").expect("a sign-in link"))
        .collect();
    let by_rest = rest(
        &app,
        Call::new(
            Method::POST,
            &format!("/api/auth/magic-link/{}", tokens[0]),
            json!({}),
        ),
    )
    .await;
    let by_graphql = graphql(&app, None, &sign_in, json!({ "token": tokens[1] })).await;
    assert_twins(&by_rest, &by_graphql, "signInWithMagicLink", Data::Payload);
}
