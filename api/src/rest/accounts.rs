//! `/auth/*` and `/users/*`: each handler reads the domain's form, calls the function the
//! resolver calls, and answers with the same types in the envelope.

use axum::{
    Router,
    extract::{Path, State},
    routing::{delete, get, post, put},
};
use serde::Serialize;

use super::{
    envelope::{Answer, Reply},
    input::Input,
};
use crate::{
    accounts::{
        cookie, deletion,
        email_code::{self, SendCodeForm, VerifyCodeForm},
        login::{self, LoginForm},
        password_change::{self, ChangePasswordForm},
        password_reset::{self, ForgotForm, ResetForm},
        profile::{self, ProfileForm},
        reauthenticate::{self, ReauthenticateForm},
        register::{self, RegisterForm},
        sessions::{self, SignedIn, Viewer},
        two_factor::{self, ChallengeForm, ConfirmForm, DisableForm, SignInStep},
    },
    google::sign_in::{self as google, GoogleLoginForm, GoogleRegisterForm},
    graphql::types::{Session, TwoFactorSetup, User},
    http::caller::Caller,
    state::AppState,
};

/// The routes of accounts: path, method and handler; `openapi.rs` describes each.
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
        .route("/auth/verify", get(me))
        .route("/auth/forgot-password", post(forgot_password))
        .route("/auth/reset-password/{token}", post(reset_password))
        .route("/auth/reauthenticate", post(reauthenticate))
        .route("/users/profile", get(me).put(update_profile))
        .route("/users/password", put(change_password))
        .route(
            "/users/sessions",
            get(list_sessions).delete(revoke_other_sessions),
        )
        .route("/users/sessions/{id}", delete(revoke_session))
        .route("/users/two-factor/setup", post(two_factor_setup))
        .route("/users/two-factor/confirm", post(two_factor_confirm))
        .route("/users/two-factor/disable", post(two_factor_disable))
        .route("/users/{id}", delete(delete_user))
}

#[derive(Serialize)]
struct UserData {
    user: User,
}

#[derive(Serialize)]
struct SessionData {
    token: String,
    user: User,
}

/// A first sign-in step: the session, or the challenge to send with the code.
#[derive(Serialize)]
#[serde(untagged)]
enum SignInData {
    Session(Box<SessionData>),
    #[serde(rename_all = "camelCase")]
    TwoFactor {
        two_factor_required: bool,
        challenge: String,
    },
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RecoveryCodesData {
    recovery_codes: Vec<String>,
}

/// A session begun: its token in the body and the cookies.
fn signed_in(state: &AppState, caller: &Caller, done: SignedIn, message: &'static str) -> Reply<SessionData> {
    let cookies = cookie::for_sign_in(state, &caller.client, &done);
    Reply::data(SessionData {
        token: done.token,
        user: done.user.into(),
    })
    .with_message(message)
    .with_cookies(cookies)
}

fn first_step(
    state: &AppState,
    caller: &Caller,
    step: SignInStep,
    message: &'static str,
) -> Reply<SignInData> {
    match step {
        SignInStep::Done(done) => {
            let cookies = cookie::for_sign_in(state, &caller.client, &done);
            Reply::data(SignInData::Session(Box::new(SessionData {
                token: done.token,
                user: done.user.into(),
            })))
            .with_message(message)
            .with_cookies(cookies)
        }
        SignInStep::TwoFactor { challenge } => Reply::data(SignInData::TwoFactor {
            two_factor_required: true,
            challenge,
        })
        .with_message(two_factor::CODE_REQUIRED_MESSAGE),
    }
}

async fn register(
    State(state): State<AppState>,
    caller: Caller,
    Input(form): Input<RegisterForm>,
) -> Answer<UserData> {
    let user = register::register(&state, form, &caller.client).await?;
    Ok(Reply::data(UserData { user: user.into() })
        .with_message(register::REGISTERED)
        .created())
}

async fn send_otp_email(
    State(state): State<AppState>,
    caller: Caller,
    Input(form): Input<SendCodeForm>,
) -> Answer {
    email_code::send(&state, form, &caller.client).await?;
    Ok(Reply::message(email_code::CODE_SENT))
}

async fn verify_otp_email(
    State(state): State<AppState>,
    caller: Caller,
    Input(form): Input<VerifyCodeForm>,
) -> Answer<SessionData> {
    let done = email_code::verify(&state, form, &caller.client).await?;
    Ok(signed_in(&state, &caller, done, email_code::VERIFIED))
}

async fn login(
    State(state): State<AppState>,
    caller: Caller,
    Input(form): Input<LoginForm>,
) -> Answer<SignInData> {
    let step = login::login(&state, form, &caller.client).await?;
    Ok(first_step(&state, &caller, step, login::SIGNED_IN))
}

async fn login_two_factor(
    State(state): State<AppState>,
    caller: Caller,
    Input(form): Input<ChallengeForm>,
) -> Answer<SessionData> {
    let done = two_factor::complete(&state, form, &caller.client).await?;
    Ok(signed_in(&state, &caller, done, login::SIGNED_IN))
}

async fn google_login(
    State(state): State<AppState>,
    caller: Caller,
    Input(form): Input<GoogleLoginForm>,
) -> Answer<SignInData> {
    let step = google::login(&state, form, &caller.client).await?;
    Ok(first_step(&state, &caller, step, login::SIGNED_IN))
}

async fn google_register(
    State(state): State<AppState>,
    caller: Caller,
    Input(form): Input<GoogleRegisterForm>,
) -> Answer<SignInData> {
    let done = google::register(&state, form, &caller.client).await?;
    let message = done.message();
    let reply = first_step(&state, &caller, done.step, message);
    Ok(if done.created { reply.created() } else { reply })
}

async fn logout(State(state): State<AppState>, caller: Caller) -> Answer {
    sessions::sign_out(&state, caller.token.as_deref(), &caller.client).await?;
    Ok(Reply::message(sessions::SIGNED_OUT).with_cookies([cookie::clear(&state.config)]))
}

/// `GET /auth/verify` and `GET /users/profile`: the signed-in account, the product's hottest call.
async fn me(viewer: Viewer) -> Answer<UserData> {
    Ok(Reply::data(UserData {
        user: viewer.user.into(),
    }))
}

async fn forgot_password(
    State(state): State<AppState>,
    caller: Caller,
    Input(form): Input<ForgotForm>,
) -> Answer {
    password_reset::forgot(&state, form, &caller.client).await?;
    Ok(Reply::message(password_reset::LINK_SENT))
}

async fn reset_password(
    State(state): State<AppState>,
    Path(token): Path<String>,
    caller: Caller,
    Input(form): Input<ResetForm>,
) -> Answer {
    password_reset::reset(&state, &token, form, &caller.client).await?;
    Ok(Reply::message(password_reset::RESET))
}

async fn reauthenticate(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Input(form): Input<ReauthenticateForm>,
) -> Answer {
    reauthenticate::reauthenticate(&state, &viewer, form, &caller.client).await?;
    Ok(Reply::message(reauthenticate::CONFIRMED))
}

async fn update_profile(
    State(state): State<AppState>,
    viewer: Viewer,
    Input(form): Input<ProfileForm>,
) -> Answer<UserData> {
    let user = profile::update(&state.db, viewer, form).await?;
    Ok(Reply::data(UserData { user: user.into() }).with_message(profile::UPDATED))
}

async fn change_password(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Input(form): Input<ChangePasswordForm>,
) -> Answer {
    password_change::change(&state, &viewer, form, &caller.client).await?;
    Ok(Reply::message(password_change::CHANGED))
}

#[derive(Serialize)]
struct SessionsData {
    sessions: Vec<Session>,
}

async fn list_sessions(State(state): State<AppState>, viewer: Viewer) -> Answer<SessionsData> {
    let devices = sessions::list(&state, &viewer).await?;
    Ok(Reply::data(SessionsData {
        sessions: devices.into_iter().map(Session::from).collect(),
    }))
}

async fn revoke_session(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    viewer: Viewer,
) -> Answer {
    sessions::revoke(&state, &viewer, &id, &caller.client).await?;
    Ok(Reply::message(sessions::REVOKED))
}

async fn revoke_other_sessions(State(state): State<AppState>, caller: Caller, viewer: Viewer) -> Answer {
    sessions::revoke_others(&state, &viewer, &caller.client).await?;
    Ok(Reply::message(sessions::OTHERS_REVOKED))
}

#[derive(Serialize)]
struct SetupData {
    setup: TwoFactorSetup,
}

async fn two_factor_setup(State(state): State<AppState>, viewer: Viewer) -> Answer<SetupData> {
    let enrolment = two_factor::start(&state, &viewer).await?;
    Ok(Reply::data(SetupData {
        setup: TwoFactorSetup {
            secret: enrolment.secret,
            otpauth_uri: enrolment.otpauth_uri,
        },
    }))
}

async fn two_factor_confirm(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Input(form): Input<ConfirmForm>,
) -> Answer<RecoveryCodesData> {
    let recovery_codes = two_factor::confirm(&state, &viewer, form, &caller.client).await?;
    Ok(Reply::data(RecoveryCodesData { recovery_codes }).with_message(two_factor::ENABLED))
}

async fn two_factor_disable(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Input(form): Input<DisableForm>,
) -> Answer {
    two_factor::disable(&state, &viewer, form, &caller.client).await?;
    Ok(Reply::message(two_factor::DISABLED))
}

async fn delete_user(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: Caller,
    viewer: Viewer,
) -> Answer {
    deletion::delete(&state, &viewer, &id, &caller.client).await?;
    let reply = Reply::message(deletion::DELETED);
    Ok(if viewer.user.id.to_string() == id {
        reply.with_cookies([cookie::clear(&state.config)])
    } else {
        reply
    })
}
