//! `/auth/*` and `/users/*`: each handler reads the domain's form, calls the function the
//! resolver calls, and answers with the same types in the envelope.

use axum::extract::State;
use serde::Serialize;
use serde_json::json;

use super::{
    envelope::{Answer, Reply},
    input::{Input, Segments},
    openapi::{
        email, name, new_password, object, ok, operation, or_null, password, reset_rule_password, secret,
        session_data, sign_in_data, string, user_data,
    },
    routes::Routes,
};
use crate::{
    accounts::{
        cookie, deletion,
        email_code::{self, SendCodeForm, VerifyCodeForm},
        login::{self, LoginForm},
        magic_link::{self, MagicLinkForm},
        password_change::{self, ChangePasswordForm},
        password_reset::{self, ForgotForm, ResetForm},
        profile::{self, ProfileForm},
        reauthenticate::{self, ReauthenticateForm},
        register::{self, RegisterForm},
        sessions::{self, SignedIn, Viewer},
        two_factor::{self, ChallengeForm, ConfirmForm, DisableForm, SignInStep},
    },
    google::sign_in::{self as google, GoogleLoginForm, GoogleRegisterForm},
    graphql::types::{MagicLinkDetails, Session, TwoFactorSetup, User},
    http::caller::Caller,
    state::AppState,
};

/// The routes of accounts: path, handler and OpenAPI entry.
pub fn routes() -> Routes {
    let role = || json!({ "enum": ["career", "campus", "hire"] });
    let email_only = || object(&[("email", email())], &["email"]);
    // magic_link::is_return_path: one leading '/', not '//', printable ASCII but '\'.
    let return_path = || json!({ "type": "string", "maxLength": magic_link::MAX_REDIRECT, "pattern": "^(?:/(?:[!-.0-\\[\\]-~][!-\\[\\]-~]*)?)?$", "description": "A page of this site to open once signed in (empty: the home page)" });
    let country_code = || json!({ "type": "string", "pattern": "^\\+[0-9]{1,3}$" });
    let phone = || json!({ "type": "string", "pattern": "^[0-9]{6,14}$", "description": "The digits after the country code" });
    let id_token = || json!({ "type": "string", "minLength": 1, "pattern": "\\S" });
    let signed_out = ("401", "Session expired or unauthorized");
    let confirm_first = ("403", "REAUTHENTICATION_REQUIRED: confirm it's you first");
    let too_many_failures = ("429", "Too many failed sign-in attempts");
    Routes::new()
        .post("/auth/register", register, operation("Register an account (pending until its email is verified)")
            .body(object(&[("name", name(100)), ("email", email()), ("countryCode", country_code()), ("phone", phone()), ("password", new_password()), ("role", role())], &["name", "email", "countryCode", "phone", "password", "role"]))
            .answers(("201", ok("Registered successfully", Some(user_data()))), &[("400", "Field errors"), ("409", "An account with this email already exists")]))
        .post("/auth/send-otp-email", send_otp_email, operation("Mail a verification code")
            .body(email_only())
            .answers(("200", ok("OTP sent to your email", None)), &[("400", "Field errors"), ("429", "Within the 60 s cooldown (Retry-After)")]))
        .post("/auth/verify-otp-email", verify_otp_email, operation("Verify the email with its code and sign in")
            .body(object(&[("email", email()), ("otp", json!({ "type": "string", "pattern": "^[0-9]{4,32}$" }))], &["email", "otp"]))
            .answers(("200", ok("Email verified successfully!", Some(session_data()))), &[("400", "Invalid OTP"), ("410", "OTP expired. Please request a new one."), ("429", "Too many wrong codes")]))
        .post("/auth/login", login, operation("Sign in with email and password")
            .body(object(&[("email", email()), ("password", password())], &["email", "password"]))
            .answers(("200", ok("Logged in successfully", Some(sign_in_data()))), &[("400", "Field errors"), ("401", "Invalid email or password"), ("403", "Please verify your email before signing in"), too_many_failures]))
        .post("/auth/login/two-factor", login_two_factor, operation("Complete a sign-in that asked for two-factor, with an authenticator code or an unused recovery code")
            .body(object(&[("challenge", secret()), ("code", secret())], &["challenge", "code"]))
            .answers(("200", ok("Logged in successfully", Some(session_data()))), &[("400", "Invalid code, or field errors"), ("410", "The challenge is unknown, used or expired"), ("429", "Too many wrong codes, or too many failed sign-in attempts")]))
        .post("/auth/google-login", google_login, operation("Sign in with a Google ID token")
            .body(object(&[("idToken", id_token())], &["idToken"]))
            .answers(("200", ok("Logged in successfully", Some(sign_in_data()))), &[("401", "Invalid Google token"), ("404", "No account found for this Google email. Please register first.")]))
        .post("/auth/google-register", google_register, operation("Register with a Google ID token (or sign in when the account exists: 200)")
            .body(object(&[("idToken", id_token()), ("role", role())], &["idToken", "role"]))
            .answers(("201", ok("Registered successfully", Some(sign_in_data()))), &[("400", "Bad role"), ("401", "Invalid Google token")]))
        .post("/auth/logout", logout, operation("End this session and clear the cookie (idempotent)")
            .answers(("200", ok("Logged out successfully", None)), &[]))
        .get("/auth/verify", me, operation("The signed-in account")
            .signed_in()
            .answers(("200", ok("Signed in", Some(user_data()))), &[signed_out]))
        .post("/auth/forgot-password", forgot_password, operation("Mail a reset link when the account exists (same answer either way)")
            .body(email_only())
            .answers(("200", ok("If an account exists for this email, a reset link has been sent.", None)), &[("400", "Field errors"), ("429", "Too many requests for this email")]))
        .post("/auth/magic-link", request_magic_link, operation("Mail a sign-in link when the account exists (same answer either way)")
            .body(object(&[("email", email()), ("redirect", or_null(return_path()))], &["email"]))
            .answers(("200", ok("If an account exists for this email, a sign-in link has been sent.", None)), &[("400", "Field errors"), ("429", "Too many requests for this email")]))
        .get("/auth/magic-link/{token}", show_magic_link, operation("The email a sign-in link signs in to, without using it (the page shows it with Continue; masked when two-factor is on)")
            .token_param("token")
            .answers(("200", ok("The link's account", Some(object(&[("email", email())], &["email"])))), &[("400", "Sign-in link is invalid"), ("403", "This account has been suspended"), ("410", "Sign-in link has expired")]))
        .post("/auth/magic-link/{token}", sign_in_with_magic_link, operation("Sign in with a sign-in link's token, once; it verifies the email")
            .token_param("token")
            .answers(("200", ok("Logged in successfully", Some(sign_in_data()))), &[("400", "Sign-in link is invalid"), ("403", "This account has been suspended"), ("410", "Sign-in link has expired")]))
        .post("/auth/reset-password/{token}", reset_password, operation("Set a new password with a reset link's token; every session ends")
            .token_param("token")
            .body(object(&[("password", reset_rule_password())], &["password"]))
            .answers(("200", ok("Password reset successfully", None)), &[("400", "Reset link is invalid, or the password rule"), ("410", "Reset link has expired")]))
        .post("/auth/reauthenticate", reauthenticate, operation("Confirm it's you (password or second-factor code) before a sensitive change")
            .signed_in()
            .body(json!({ "type": "object", "properties": { "password": password(), "code": secret() }, "anyOf": [{ "required": ["password"] }, { "required": ["code"] }] }))
            .answers(("200", ok("Thanks, it's you", None)), &[("400", "Field errors"), signed_out, ("429", "Too many failed attempts")]))
        .get("/users/profile", me, operation("The signed-in account's profile")
            .signed_in()
            .answers(("200", ok("The profile", Some(user_data()))), &[signed_out]))
        .put("/users/profile", update_profile, operation("Change the profile (not email, role or status); fields left out stay")
            .signed_in()
            .optional_body(json!({ "$ref": "#/components/schemas/ProfileUpdate" }))
            .answers(("200", ok("Profile updated", Some(user_data()))), &[("400", "Field errors"), signed_out]))
        .put("/users/password", change_password, operation("Change the password (the reset rule); every other session ends, this one stays")
            .signed_in()
            .body(object(&[("currentPassword", password()), ("password", reset_rule_password()), ("confirmPassword", reset_rule_password())], &["password", "confirmPassword"]))
            .answers(("200", ok("Password changed", None)), &[("400", "Field errors, or Current password is incorrect"), signed_out, ("403", "REAUTHENTICATION_REQUIRED: a first password needs a recent sign-in"), too_many_failures]))
        .get("/users/sessions", list_sessions, operation("The signed-in account's live sessions, this one first")
            .signed_in()
            .answers(("200", ok("The sessions", Some(object(&[("sessions", json!({ "type": "array", "items": { "$ref": "#/components/schemas/Session" } }))], &["sessions"])))), &[signed_out]))
        .delete("/users/sessions", revoke_other_sessions, operation("Sign out every session but this one")
            .signed_in()
            .answers(("200", ok("Other sessions signed out", None)), &[signed_out]))
        .delete("/users/sessions/{id}", revoke_session, operation("Sign out one session; its token is refused at once")
            .signed_in()
            .path_param("id")
            .answers(("200", ok("Session signed out", None)), &[signed_out, ("404", "Session not found")]))
        .post("/users/two-factor/setup", two_factor_setup, operation("Start two-factor enrolment: a new secret for the authenticator app")
            .signed_in()
            .answers(("200", ok("The secret", Some(object(&[("setup", object(&[("secret", string()), ("otpauthUri", string())], &["secret", "otpauthUri"]))], &["setup"])))), &[signed_out, confirm_first, ("409", "Two-factor sign-in is already on")]))
        .post("/users/two-factor/confirm", two_factor_confirm, operation("Turn two-factor on with a first code; answers with ten recovery codes, shown once")
            .signed_in()
            .body(object(&[("code", secret())], &["code"]))
            .answers(("200", ok("Two-factor sign-in is on", Some(object(&[("recoveryCodes", json!({ "type": "array", "items": string() }))], &["recoveryCodes"])))), &[("400", "Invalid code, or setup not started"), signed_out, ("409", "Two-factor sign-in is already on"), too_many_failures]))
        .post("/users/two-factor/disable", two_factor_disable, operation("Turn two-factor off with the password and a code")
            .signed_in()
            .body(object(&[("password", password()), ("code", secret())], &["code"]))
            .answers(("200", ok("Two-factor sign-in is off", None)), &[("400", "Field errors"), signed_out, confirm_first, ("409", "Two-factor sign-in is not on"), too_many_failures]))
        .delete("/users/{id}", delete_user, operation("Delete an account: your own, or any as an admin")
            .signed_in()
            .id_param("id")
            .answers(("200", ok("Account deleted", None)), &[("401", "Not signed in"), ("403", "Not yours, or REAUTHENTICATION_REQUIRED: confirm it's you first"), ("404", "User not found")]))
}

#[derive(Serialize)]
pub(super) struct UserData {
    pub(super) user: User,
}

#[derive(Serialize)]
pub(super) struct SessionData {
    token: String,
    user: User,
}

/// A first sign-in step: the session, or the challenge to send with the code.
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum SignInData {
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
pub(super) fn signed_in(
    state: &AppState,
    caller: &Caller,
    done: SignedIn,
    message: &'static str,
) -> Reply<SessionData> {
    let cookies = cookie::for_sign_in(state, &caller.client, &done);
    Reply::data(SessionData {
        token: done.token,
        user: done.user.into(),
    })
    .with_message(message)
    .with_cookies(cookies)
}

pub(super) fn first_step(
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

async fn request_magic_link(
    State(state): State<AppState>,
    caller: Caller,
    Input(form): Input<MagicLinkForm>,
) -> Answer {
    magic_link::request(&state, form, &caller.client).await?;
    Ok(Reply::message(magic_link::LINK_SENT))
}

async fn show_magic_link(
    State(state): State<AppState>,
    Segments(token): Segments<String>,
) -> Answer<MagicLinkDetails> {
    let email = magic_link::shown(&state, &token).await?;
    Ok(Reply::data(MagicLinkDetails { email }))
}

async fn sign_in_with_magic_link(
    State(state): State<AppState>,
    caller: Caller,
    Segments(token): Segments<String>,
) -> Answer<SignInData> {
    let step = magic_link::sign_in(&state, &token, &caller.client).await?;
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
    Segments(token): Segments<String>,
    caller: Caller,
    Input(form): Input<ResetForm>,
) -> Answer {
    let set = password_reset::reset(&state, &token, form, &caller.client).await?;
    let device = cookie::for_new_password(&state, &caller.client, &set);
    Ok(Reply::message(password_reset::RESET).with_cookies([device]))
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
    let set = password_change::change(&state, &viewer, form, &caller.client).await?;
    let device = cookie::for_new_password(&state, &caller.client, &set);
    Ok(Reply::message(password_change::CHANGED).with_cookies([device]))
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
    Segments(id): Segments<String>,
    caller: Caller,
    viewer: Viewer,
) -> Answer {
    let this_one = sessions::revoke(&state, &viewer, &id, &caller.client).await?;
    let reply = Reply::message(sessions::REVOKED);
    Ok(if this_one {
        reply.with_cookies([cookie::clear(&state.config)])
    } else {
        reply
    })
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
    Segments(id): Segments<String>,
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
