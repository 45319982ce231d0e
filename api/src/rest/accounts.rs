//! `/auth/*` and `/users/*`.

use axum::{
    Extension, Router,
    extract::{Path, State},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::{delete, get, post, put},
};
use serde_json::{Value, json};

use super::{
    envelope::{ErrorResponse, data},
    operation::{Body, Operation, Shape, json_object, keep, run},
};
use crate::{
    accounts::sessions,
    client::Caller,
    error::Error,
    graphql::{AppSchema, types::User},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/auth/register", post(register))
        .route("/auth/send-otp-email", post(send_otp_email))
        .route("/auth/verify-otp-email", post(verify_otp_email))
        .route("/auth/login", post(login))
        .route("/auth/login/two-factor", post(login_two_factor))
        .route("/auth/google-login", post(google_login))
        .route("/auth/google-register", post(google_register))
        .route("/auth/logout", post(logout))
        .route("/auth/verify", get(verify))
        .route("/auth/forgot-password", post(forgot_password))
        .route("/auth/reset-password/{token}", post(reset_password))
        .route("/users/profile", get(verify).put(update_profile))
        .route("/users/password", put(change_password))
        .route(
            "/users/sessions",
            get(list_sessions).delete(revoke_other_sessions),
        )
        .route("/users/sessions/{id}", delete(revoke_session))
        .route("/users/two-factor/setup", post(two_factor_setup))
        .route("/users/two-factor/confirm", post(two_factor_confirm))
        .route("/users/two-factor/disable", post(two_factor_disable))
        .route("/auth/reauthenticate", post(reauthenticate))
        .route("/users/{id}", delete(delete_user))
}

macro_rules! operation {
    ($name:ident, $status:expr, $shape:expr, $doc:expr) => {
        const $name: Operation = Operation {
            document: const_format::concatcp!($doc, " ", super::operation::USER_FIELDS),
            shape: $shape,
            status: $status,
        };
    };
}

operation!(
    REGISTER,
    StatusCode::CREATED,
    Shape::Payload,
    "mutation($input: RegisterInput!) { result: register(input: $input) { message user { ...UserFields } } }"
);
operation!(
    VERIFY_OTP,
    StatusCode::OK,
    Shape::Payload,
    "mutation($input: VerifyOtpEmailInput!) { result: verifyOtpEmail(input: $input) { message token user { ...UserFields } } }"
);
operation!(
    LOGIN,
    StatusCode::OK,
    Shape::Payload,
    "mutation($input: LoginInput!) { result: login(input: $input) { message token twoFactorRequired challenge user { ...UserFields } } }"
);
operation!(
    GOOGLE_LOGIN,
    StatusCode::OK,
    Shape::Payload,
    "mutation($input: GoogleLoginInput!) { result: googleLogin(input: $input) { message token twoFactorRequired challenge user { ...UserFields } } }"
);
operation!(
    GOOGLE_REGISTER,
    StatusCode::OK,
    Shape::CreatedOrNot,
    "mutation($input: GoogleRegisterInput!) { result: googleRegister(input: $input) { message token twoFactorRequired challenge created user { ...UserFields } } }"
);
operation!(
    LOGIN_TWO_FACTOR,
    StatusCode::OK,
    Shape::Payload,
    "mutation($input: TwoFactorLoginInput!) { result: completeTwoFactorLogin(input: $input) { message token user { ...UserFields } } }"
);
operation!(
    UPDATE_PROFILE,
    StatusCode::OK,
    Shape::Payload,
    "mutation($input: UpdateProfileInput!) { result: updateProfile(input: $input) { message user { ...UserFields } } }"
);

const SEND_OTP: Operation = Operation {
    document: "mutation($input: SendOtpEmailInput!) { result: sendOtpEmail(input: $input) { message } }",
    shape: Shape::Payload,
    status: StatusCode::OK,
};
const LOGOUT: Operation = Operation {
    document: "mutation { result: logout { message } }",
    shape: Shape::Payload,
    status: StatusCode::OK,
};
const FORGOT: Operation = Operation {
    document: "mutation($input: ForgotPasswordInput!) { result: forgotPassword(input: $input) { message } }",
    shape: Shape::Payload,
    status: StatusCode::OK,
};
const RESET: Operation = Operation {
    document: "mutation($token: String!, $input: ResetPasswordInput!) { result: resetPassword(token: $token, input: $input) { message } }",
    shape: Shape::Payload,
    status: StatusCode::OK,
};
const CHANGE_PASSWORD: Operation = Operation {
    document: "mutation($input: ChangePasswordInput!) { result: changePassword(input: $input) { message } }",
    shape: Shape::Payload,
    status: StatusCode::OK,
};
const SESSIONS: Operation = Operation {
    document: "query { result: sessions { id browser os ip signedInAt lastActiveAt current } }",
    shape: Shape::Wrap("sessions"),
    status: StatusCode::OK,
};
const REVOKE_SESSION: Operation = Operation {
    document: "mutation($id: ID!) { result: revokeSession(id: $id) { message } }",
    shape: Shape::Payload,
    status: StatusCode::OK,
};
const REVOKE_OTHER_SESSIONS: Operation = Operation {
    document: "mutation { result: revokeOtherSessions { message } }",
    shape: Shape::Payload,
    status: StatusCode::OK,
};
const TWO_FACTOR_SETUP: Operation = Operation {
    document: "mutation { result: startTwoFactorSetup { secret otpauthUri } }",
    shape: Shape::Wrap("setup"),
    status: StatusCode::OK,
};
const TWO_FACTOR_CONFIRM: Operation = Operation {
    document: "mutation($input: ConfirmTwoFactorInput!) { result: confirmTwoFactor(input: $input) { message recoveryCodes } }",
    shape: Shape::Payload,
    status: StatusCode::OK,
};
const TWO_FACTOR_DISABLE: Operation = Operation {
    document: "mutation($input: DisableTwoFactorInput!) { result: disableTwoFactor(input: $input) { message } }",
    shape: Shape::Payload,
    status: StatusCode::OK,
};
const REAUTHENTICATE: Operation = Operation {
    document: "mutation($input: ReauthenticateInput!) { result: reauthenticate(input: $input) { message } }",
    shape: Shape::Payload,
    status: StatusCode::OK,
};
const DELETE_USER: Operation = Operation {
    document: "mutation($id: ID!) { result: deleteUser(id: $id) { message } }",
    shape: Shape::Payload,
    status: StatusCode::OK,
};

/// Runs `op` with the body (reduced to `fields`) as `$input`.
async fn with_input(
    schema: &AppSchema,
    caller: &Caller,
    op: &Operation,
    body: Body,
    fields: &[(&str, Option<&[&str]>)],
) -> Response {
    match json_object(body) {
        Ok(mut input) => {
            keep(&mut input, fields);
            run(schema, caller, op, json!({ "input": input })).await
        }
        Err(err) => err.into_response(),
    }
}

async fn register(Extension(schema): Extension<AppSchema>, caller: Caller, body: Body) -> Response {
    let fields = [
        ("name", None),
        ("email", None),
        ("countryCode", None),
        ("phone", None),
        ("password", None),
        ("role", None),
    ];
    with_input(&schema, &caller, &REGISTER, body, &fields).await
}

async fn send_otp_email(Extension(schema): Extension<AppSchema>, caller: Caller, body: Body) -> Response {
    with_input(&schema, &caller, &SEND_OTP, body, &[("email", None)]).await
}

async fn verify_otp_email(Extension(schema): Extension<AppSchema>, caller: Caller, body: Body) -> Response {
    with_input(
        &schema,
        &caller,
        &VERIFY_OTP,
        body,
        &[("email", None), ("otp", None)],
    )
    .await
}

async fn login(Extension(schema): Extension<AppSchema>, caller: Caller, body: Body) -> Response {
    with_input(
        &schema,
        &caller,
        &LOGIN,
        body,
        &[("email", None), ("password", None)],
    )
    .await
}

async fn login_two_factor(Extension(schema): Extension<AppSchema>, caller: Caller, body: Body) -> Response {
    with_input(
        &schema,
        &caller,
        &LOGIN_TWO_FACTOR,
        body,
        &[("challenge", None), ("code", None)],
    )
    .await
}

async fn google_login(Extension(schema): Extension<AppSchema>, caller: Caller, body: Body) -> Response {
    with_input(&schema, &caller, &GOOGLE_LOGIN, body, &[("idToken", None)]).await
}

async fn google_register(Extension(schema): Extension<AppSchema>, caller: Caller, body: Body) -> Response {
    with_input(
        &schema,
        &caller,
        &GOOGLE_REGISTER,
        body,
        &[("idToken", None), ("role", None)],
    )
    .await
}

async fn logout(Extension(schema): Extension<AppSchema>, caller: Caller) -> Response {
    run(&schema, &caller, &LOGOUT, Value::Null).await
}

/// `GET /auth/verify` and `GET /users/profile`: both answer with the signed-in account. The
/// product's hottest call, so it skips GraphQL and calls what `me` calls; the answer is the
/// same JSON (the tests compare them).
async fn verify(State(state): State<AppState>, caller: Caller) -> Response {
    let viewer = match caller.token.as_deref() {
        Some(token) => sessions::authenticate(&state, token).await,
        None => Err(Error::session_expired()),
    };
    match viewer {
        Ok(viewer) => data(&UserData {
            user: User::from(viewer.user),
        }),
        Err(err) => ErrorResponse::from(err).into_response(),
    }
}

#[derive(serde::Serialize)]
struct UserData {
    user: User,
}

async fn forgot_password(Extension(schema): Extension<AppSchema>, caller: Caller, body: Body) -> Response {
    with_input(&schema, &caller, &FORGOT, body, &[("email", None)]).await
}

async fn reset_password(
    Extension(schema): Extension<AppSchema>,
    Path(token): Path<String>,
    caller: Caller,
    body: Body,
) -> Response {
    match json_object(body) {
        Ok(mut input) => {
            keep(&mut input, &[("password", None)]);
            run(
                &schema,
                &caller,
                &RESET,
                json!({ "token": token, "input": input }),
            )
            .await
        }
        Err(err) => err.into_response(),
    }
}

async fn update_profile(Extension(schema): Extension<AppSchema>, caller: Caller, body: Body) -> Response {
    const SOCIAL: &[&str] = &["github", "linkedin", "instagram", "twitter", "facebook"];
    const ADDRESS: &[&str] = &["street", "city", "state", "zip", "country"];
    const PREFERENCES: &[&str] = &["notifications", "theme"];
    let fields = [
        ("name", None),
        ("countryCode", None),
        ("phone", None),
        ("bio", None),
        ("website", None),
        ("born", None),
        ("social", Some(SOCIAL)),
        ("address", Some(ADDRESS)),
        ("preferences", Some(PREFERENCES)),
    ];
    with_input(&schema, &caller, &UPDATE_PROFILE, body, &fields).await
}

async fn delete_user(
    Extension(schema): Extension<AppSchema>,
    Path(id): Path<String>,
    caller: Caller,
) -> Response {
    run(&schema, &caller, &DELETE_USER, json!({ "id": id })).await
}

async fn change_password(Extension(schema): Extension<AppSchema>, caller: Caller, body: Body) -> Response {
    let fields = [
        ("currentPassword", None),
        ("password", None),
        ("confirmPassword", None),
    ];
    with_input(&schema, &caller, &CHANGE_PASSWORD, body, &fields).await
}

async fn list_sessions(Extension(schema): Extension<AppSchema>, caller: Caller) -> Response {
    run(&schema, &caller, &SESSIONS, Value::Null).await
}

async fn revoke_session(
    Extension(schema): Extension<AppSchema>,
    Path(id): Path<String>,
    caller: Caller,
) -> Response {
    run(&schema, &caller, &REVOKE_SESSION, json!({ "id": id })).await
}

async fn revoke_other_sessions(Extension(schema): Extension<AppSchema>, caller: Caller) -> Response {
    run(&schema, &caller, &REVOKE_OTHER_SESSIONS, Value::Null).await
}

async fn two_factor_setup(Extension(schema): Extension<AppSchema>, caller: Caller) -> Response {
    run(&schema, &caller, &TWO_FACTOR_SETUP, Value::Null).await
}

async fn two_factor_confirm(Extension(schema): Extension<AppSchema>, caller: Caller, body: Body) -> Response {
    with_input(&schema, &caller, &TWO_FACTOR_CONFIRM, body, &[("code", None)]).await
}

async fn reauthenticate(Extension(schema): Extension<AppSchema>, caller: Caller, body: Body) -> Response {
    with_input(
        &schema,
        &caller,
        &REAUTHENTICATE,
        body,
        &[("password", None), ("code", None)],
    )
    .await
}

async fn two_factor_disable(Extension(schema): Extension<AppSchema>, caller: Caller, body: Body) -> Response {
    with_input(
        &schema,
        &caller,
        &TWO_FACTOR_DISABLE,
        body,
        &[("password", None), ("code", None)],
    )
    .await
}
