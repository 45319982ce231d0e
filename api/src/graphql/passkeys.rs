//! Passkey queries and mutations: the same domain calls as `/auth/passkeys/*` and
//! `/users/passkeys`. Options and credentials travel as WebAuthn Level 3 JSON (`JSON` scalars).

use async_graphql::{Context, ID, InputObject, Json, Object, SimpleObject};
use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{
    OneAuthOperation, accounts, context,
    errors::IntoGql,
    types::{MessagePayload, SessionPayload, rfc3339, rfc3339_opt},
};
use crate::accounts::{
    login,
    passkeys::{self, PasskeyInfo, RegistrationForm, RenameForm, SignInForm},
};

/// A passkey of the signed-in account.
#[derive(SimpleObject, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Passkey {
    pub id: ID,
    pub name: String,
    #[serde(serialize_with = "rfc3339")]
    pub created_at: DateTime<Utc>,
    /// Null until it first signs someone in.
    #[serde(serialize_with = "rfc3339_opt")]
    pub last_used_at: Option<DateTime<Utc>>,
}

impl From<entity::passkeys::Model> for Passkey {
    fn from(row: entity::passkeys::Model) -> Self {
        PasskeyInfo::from(row).into()
    }
}

impl From<PasskeyInfo> for Passkey {
    fn from(info: PasskeyInfo) -> Self {
        Self {
            id: ID(info.id.to_string()),
            name: info.name,
            created_at: info.created_at,
            last_used_at: info.last_used_at,
        }
    }
}

#[derive(SimpleObject)]
pub struct PasskeyPayload {
    pub message: String,
    pub passkey: Passkey,
}

/// The browser's options for `navigator.credentials.create` (parseCreationOptionsFromJSON).
#[derive(SimpleObject)]
pub struct PasskeyRegistrationStart {
    pub options: Json<serde_json::Value>,
}

/// The browser's options for `navigator.credentials.get` (parseRequestOptionsFromJSON), and
/// the challenge to send back with the assertion.
#[derive(SimpleObject)]
pub struct PasskeySignInStart {
    pub options: Json<serde_json::Value>,
    pub challenge: String,
}

#[derive(Debug, Default, InputObject)]
pub struct FinishPasskeyRegistrationInput {
    /// Blank or left out: "Passkey".
    pub name: Option<String>,
    /// The new credential's `toJSON()`.
    pub credential: Option<Json<serde_json::Value>>,
}

impl From<FinishPasskeyRegistrationInput> for RegistrationForm {
    fn from(input: FinishPasskeyRegistrationInput) -> Self {
        Self {
            name: input.name,
            credential: input.credential.map(|json| json.0),
        }
    }
}

#[derive(Debug, Default, InputObject)]
pub struct RenamePasskeyInput {
    pub name: Option<String>,
}

impl From<RenamePasskeyInput> for RenameForm {
    fn from(input: RenamePasskeyInput) -> Self {
        Self { name: input.name }
    }
}

#[derive(Debug, Default, InputObject)]
pub struct FinishPasskeySignInInput {
    /// The challenge `startPasskeySignIn` answered with.
    pub challenge: Option<String>,
    /// The assertion's `toJSON()`.
    pub credential: Option<Json<serde_json::Value>>,
}

impl From<FinishPasskeySignInInput> for SignInForm {
    fn from(input: FinishPasskeySignInInput) -> Self {
        Self {
            challenge: input.challenge,
            credential: input.credential.map(|json| json.0),
        }
    }
}

#[derive(Default)]
pub struct PasskeysQuery;

#[Object]
impl PasskeysQuery {
    /// The signed-in account's passkeys, newest first.
    async fn passkeys(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Passkey>> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        Ok(passkeys::list(state, &viewer)
            .await
            .gql()?
            .into_iter()
            .map(Passkey::from)
            .collect())
    }
}

#[derive(Default)]
pub struct PasskeysMutation;

#[Object]
impl PasskeysMutation {
    /// Begins adding a passkey to the signed-in account.
    async fn start_passkey_registration(
        &self,
        ctx: &Context<'_>,
    ) -> async_graphql::Result<PasskeyRegistrationStart> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let options = passkeys::start_registration(state, &viewer).await.gql()?;
        Ok(PasskeyRegistrationStart {
            options: Json(options),
        })
    }

    /// Finishes adding a passkey with the browser's new credential.
    #[graphql(guard = "OneAuthOperation")]
    async fn finish_passkey_registration(
        &self,
        ctx: &Context<'_>,
        input: FinishPasskeyRegistrationInput,
    ) -> async_graphql::Result<PasskeyPayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let passkey = passkeys::finish_registration(state, &viewer, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(PasskeyPayload {
            message: passkeys::ADDED.to_owned(),
            passkey: passkey.into(),
        })
    }

    /// Renames one of the signed-in account's passkeys.
    async fn rename_passkey(
        &self,
        ctx: &Context<'_>,
        id: ID,
        input: RenamePasskeyInput,
    ) -> async_graphql::Result<PasskeyPayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let passkey = passkeys::rename(state, &viewer, &id, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(PasskeyPayload {
            message: passkeys::RENAMED.to_owned(),
            passkey: passkey.into(),
        })
    }

    /// Removes one of the signed-in account's passkeys.
    async fn remove_passkey(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        passkeys::remove(state, &viewer, &id, &meta.client).await.gql()?;
        Ok(MessagePayload::new(passkeys::REMOVED))
    }

    /// Begins a sign-in with a passkey.
    #[graphql(guard = "OneAuthOperation")]
    async fn start_passkey_sign_in(&self, ctx: &Context<'_>) -> async_graphql::Result<PasskeySignInStart> {
        let (state, _) = context(ctx);
        let start = passkeys::start_sign_in(state).await.gql()?;
        Ok(PasskeySignInStart {
            options: Json(start.options),
            challenge: start.challenge,
        })
    }

    /// Signs in with a passkey: both factors at once, so never a two-factor challenge.
    #[graphql(guard = "OneAuthOperation")]
    async fn finish_passkey_sign_in(
        &self,
        ctx: &Context<'_>,
        input: FinishPasskeySignInInput,
    ) -> async_graphql::Result<SessionPayload> {
        let (state, meta) = context(ctx);
        let done = passkeys::finish_sign_in(state, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(accounts::signed_in(ctx, done, login::SIGNED_IN))
    }
}
