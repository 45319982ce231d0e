//! `/auth/oauth/*` and `/users/identities`: spending a provider's ticket (sign in, register,
//! connect) and the connected accounts.

use axum::extract::State;
use serde::Serialize;
use serde_json::json;

use super::{
    accounts::{SignInData, UserData, first_step},
    envelope::{Answer, Reply},
    input::{Input, Segments},
    openapi::{object, ok, operation, secret, sign_in_data, user_data},
    routes::Routes,
};
use crate::{
    accounts::{identities, sessions::Viewer},
    graphql::providers::Identity,
    http::caller::Caller,
    providers::sign_in::{self, Registration, TicketForm, TicketRegisterForm},
    state::AppState,
};

/// The routes of the connected accounts: path, handler and OpenAPI entry.
pub fn routes() -> Routes {
    let signed_out = ("401", "Session expired or unauthorized");
    let bad_ticket = ("401", "Sign-in could not be completed");
    let ticket = || object(&[("ticket", secret())], &["ticket"]);
    let role = || json!({ "enum": ["career", "campus", "hire"] });
    Routes::new()
        .post("/auth/oauth/login", login, operation("Sign in with a provider's ticket (LinkedIn, Microsoft, GitHub)")
            .body(ticket())
            .answers(("200", ok("Logged in successfully", Some(sign_in_data()))), &[bad_ticket, ("403", "This account has been suspended"), ("404", "No account found for this {Provider} email. Please register first.")]))
        .post("/auth/oauth/register", register, operation("Register with a provider's ticket, or sign in when the identity has an account (200)")
            .body(object(&[("ticket", secret()), ("role", role())], &["ticket", "role"]))
            .answers(("201", ok("Registered successfully (no token when the provider did not vouch for the email: verify it by code)", Some(json!({ "anyOf": [sign_in_data(), user_data()] })))), &[("400", "Bad role"), bad_ticket, ("409", "An account with this email already exists")]))
        .post("/auth/oauth/link", link, operation("Connect a provider's identity to your account")
            .signed_in()
            .body(ticket())
            .answers(("200", ok("{Provider} account connected", None)), &[("401", "Not signed in, or a bad ticket"), ("403", "REAUTHENTICATION_REQUIRED: confirm it's you first (the ticket is not spent)"), ("409", "The identity belongs to another account")]))
        .get("/users/identities", list, operation("The sign-in providers connected to your account")
            .signed_in()
            .answers(("200", ok("The identities", Some(object(&[("items", json!({ "type": "array", "items": { "$ref": "#/components/schemas/Identity" } }))], &["items"])))), &[signed_out]))
        .delete("/users/identities/{provider}", disconnect, operation("Disconnect a provider, unless it is your last way in")
            .signed_in()
            .path_param_of("provider", json!({ "enum": ["google", "linkedin", "microsoft", "github"] }))
            .answers(("200", ok("{Provider} account disconnected", None)), &[signed_out, ("403", "Please confirm it's you to make this change (REAUTHENTICATION_REQUIRED)"), ("404", "No {Provider} account is connected"), ("409", "Add a password or another sign-in method first")]))
}

#[derive(Serialize)]
struct IdentitiesData {
    items: Vec<Identity>,
}

/// A registration's answer: a sign-in, or the pending account alone.
#[derive(Serialize)]
#[serde(untagged)]
enum RegisterData {
    SignIn(SignInData),
    Pending(Box<UserData>),
}

async fn login(
    State(state): State<AppState>,
    caller: Caller,
    Input(form): Input<TicketForm>,
) -> Answer<SignInData> {
    let step = sign_in::login(&state, form, &caller.client).await?;
    Ok(first_step(
        &state,
        &caller,
        step,
        crate::accounts::login::SIGNED_IN,
    ))
}

async fn register(
    State(state): State<AppState>,
    caller: Caller,
    Input(form): Input<TicketRegisterForm>,
) -> Answer<RegisterData> {
    let done = sign_in::register(&state, form, &caller.client).await?;
    let (message, created) = (done.message(), done.created());
    let reply = match done {
        Registration::SignedIn { step, .. } => {
            first_step(&state, &caller, step, message).map(RegisterData::SignIn)
        }
        Registration::Pending(user) => {
            Reply::data(RegisterData::Pending(Box::new(UserData { user: (*user).into() })))
                .with_message(message)
        }
    };
    Ok(if created { reply.created() } else { reply })
}

async fn link(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Input(form): Input<TicketForm>,
) -> Answer {
    let provider = sign_in::link(&state, &viewer, form, &caller.client).await?;
    Ok(Reply::message(identities::connected(provider)))
}

async fn list(State(state): State<AppState>, viewer: Viewer) -> Answer<IdentitiesData> {
    let items = identities::list(&state, &viewer).await?;
    Ok(Reply::data(IdentitiesData {
        items: items.into_iter().map(Identity::from).collect(),
    }))
}

async fn disconnect(
    State(state): State<AppState>,
    Segments(provider): Segments<String>,
    caller: Caller,
    viewer: Viewer,
) -> Answer {
    let provider = identities::disconnect(&state, &viewer, &provider, &caller.client).await?;
    Ok(Reply::message(identities::disconnected(provider)))
}
