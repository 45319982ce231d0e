//! `/auth/passkeys/*` and `/users/passkeys`: adding, listing, renaming and removing passkeys,
//! and signing in with one.

use axum::extract::State;
use serde::Serialize;
use serde_json::json;

use super::{
    accounts::{SessionData, signed_in},
    envelope::{Answer, Reply},
    input::{Input, Segments},
    openapi::{name, object, ok, operation, optional_name, secret, session_data, string},
    routes::Routes,
};
use crate::{
    accounts::{
        login,
        passkeys::{self, RegistrationForm, RenameForm, SignInForm},
        sessions::Viewer,
    },
    graphql::passkeys::Passkey,
    http::caller::Caller,
    state::AppState,
};

/// The routes of passkeys: path, handler and OpenAPI entry.
pub fn routes() -> Routes {
    let signed_out = ("401", "Session expired or unauthorized");
    let off = (
        "404",
        "Passkeys are not available on this site (its host is an IP address)",
    );
    let options =
        || json!({ "type": "object", "description": "WebAuthn Level 3 JSON options for the browser" });
    let credential = || json!({ "type": "object", "description": "The credential's toJSON()" });
    let passkey = || {
        object(
            &[("passkey", json!({ "$ref": "#/components/schemas/Passkey" }))],
            &["passkey"],
        )
    };
    let expired = ("410", "Passkey request has expired. Please try again.");
    Routes::new()
        .post("/auth/passkeys/register/start", start_registration, operation("Begin adding a passkey: the browser's creation options")
            .signed_in()
            .answers(("200", ok("The creation options", Some(object(&[("options", options())], &["options"])))), &[signed_out, ("403", "REAUTHENTICATION_REQUIRED: confirm it's you first"), off, ("409", "An account can hold at most 50 passkeys")]))
        .post("/auth/passkeys/register/finish", finish_registration, operation("Finish adding a passkey with the browser's new credential")
            .signed_in()
            .body(object(&[("name", optional_name(64)), ("credential", credential())], &["credential"]))
            .answers(("201", ok("Passkey added", Some(passkey()))), &[("400", "Passkey could not be verified, or field errors"), signed_out, off, expired]))
        .get("/users/passkeys", list, operation("The signed-in account's passkeys, newest first")
            .signed_in()
            .answers(("200", ok("The passkeys", Some(object(&[("items", json!({ "type": "array", "items": { "$ref": "#/components/schemas/Passkey" } }))], &["items"])))), &[signed_out]))
        .put("/users/passkeys/{id}", rename, operation("Rename one of your passkeys")
            .signed_in()
            .id_param("id")
            .body(object(&[("name", name(64))], &["name"]))
            .answers(("200", ok("Passkey renamed", Some(passkey()))), &[("400", "Field errors"), signed_out, ("404", "Passkey not found")]))
        .delete("/users/passkeys/{id}", remove, operation("Remove one of your passkeys; it signs no one in from then on")
            .signed_in()
            .id_param("id")
            .answers(("200", ok("Passkey removed", None)), &[signed_out, ("403", "Please confirm it's you to make this change (REAUTHENTICATION_REQUIRED)"), ("404", "Passkey not found"), ("409", "Add a password or another sign-in method first")]))
        .post("/auth/passkeys/login/start", start_sign_in, operation("Begin a sign-in with a passkey: request options for the site's discoverable passkeys")
            .answers(("200", ok("The request options", Some(object(&[("options", options()), ("challenge", string())], &["options", "challenge"])))), &[off]))
        .post("/auth/passkeys/login/finish", finish_sign_in, operation("Sign in with a passkey: both factors, never a two-factor prompt")
            .body(object(&[("challenge", secret()), ("credential", credential())], &["challenge", "credential"]))
            .answers(("200", ok("Logged in successfully", Some(session_data()))), &[("400", "Field errors"), ("401", "Passkey not recognised"), ("403", "This account has been suspended"), off, expired]))
}

#[derive(Serialize)]
struct OptionsData {
    options: serde_json::Value,
}

#[derive(Serialize)]
struct SignInStartData {
    options: serde_json::Value,
    challenge: String,
}

#[derive(Serialize)]
struct PasskeyData {
    passkey: Passkey,
}

#[derive(Serialize)]
struct PasskeysData {
    items: Vec<Passkey>,
}

async fn start_registration(State(state): State<AppState>, viewer: Viewer) -> Answer<OptionsData> {
    let options = passkeys::start_registration(&state, &viewer).await?;
    Ok(Reply::data(OptionsData { options }))
}

async fn finish_registration(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Input(form): Input<RegistrationForm>,
) -> Answer<PasskeyData> {
    let passkey = passkeys::finish_registration(&state, &viewer, form, &caller.client).await?;
    Ok(Reply::data(PasskeyData {
        passkey: passkey.into(),
    })
    .with_message(passkeys::ADDED)
    .created())
}

async fn list(State(state): State<AppState>, viewer: Viewer) -> Answer<PasskeysData> {
    let items = passkeys::list(&state, &viewer).await?;
    Ok(Reply::data(PasskeysData {
        items: items.into_iter().map(Passkey::from).collect(),
    }))
}

async fn rename(
    State(state): State<AppState>,
    Segments(id): Segments<String>,
    caller: Caller,
    viewer: Viewer,
    Input(form): Input<RenameForm>,
) -> Answer<PasskeyData> {
    let passkey = passkeys::rename(&state, &viewer, &id, form, &caller.client).await?;
    Ok(Reply::data(PasskeyData {
        passkey: passkey.into(),
    })
    .with_message(passkeys::RENAMED))
}

async fn remove(
    State(state): State<AppState>,
    Segments(id): Segments<String>,
    caller: Caller,
    viewer: Viewer,
) -> Answer {
    passkeys::remove(&state, &viewer, &id, &caller.client).await?;
    Ok(Reply::message(passkeys::REMOVED))
}

async fn start_sign_in(State(state): State<AppState>) -> Answer<SignInStartData> {
    let start = passkeys::start_sign_in(&state).await?;
    Ok(Reply::data(SignInStartData {
        options: start.options,
        challenge: start.challenge,
    }))
}

async fn finish_sign_in(
    State(state): State<AppState>,
    caller: Caller,
    Input(form): Input<SignInForm>,
) -> Answer<SessionData> {
    let done = passkeys::finish_sign_in(&state, form, &caller.client).await?;
    Ok(signed_in(&state, &caller, done, login::SIGNED_IN))
}
