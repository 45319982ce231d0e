//! Sign-in providers' tickets (LinkedIn, Microsoft, GitHub) and the connected accounts: the
//! same domain calls as `/auth/oauth/*` and `/users/identities`.

use async_graphql::{Context, InputObject, Object, SimpleObject};
use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{
    OneAuthOperation, accounts, context,
    errors::IntoGql,
    types::{MessagePayload, SignInPayload, rfc3339},
};
use crate::{
    accounts::identities::{self, IdentityInfo},
    providers::sign_in::{self, Registration, TicketForm, TicketRegisterForm},
};

/// A sign-in provider's account connected to the signed-in account.
#[derive(SimpleObject, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Identity {
    /// google, linkedin, microsoft or github.
    pub provider: String,
    /// The address the provider gave.
    pub email: Option<String>,
    #[serde(serialize_with = "rfc3339")]
    pub linked_at: DateTime<Utc>,
}

impl Identity {
    /// A stored identity as shown, unless its provider is one this server no longer knows.
    pub fn from_row(row: entity::identities::Model) -> Option<Self> {
        Some(Self {
            provider: crate::providers::Provider::parse(&row.provider)?
                .as_str()
                .to_owned(),
            email: row.email,
            linked_at: row.linked_at,
        })
    }
}

impl From<IdentityInfo> for Identity {
    fn from(info: IdentityInfo) -> Self {
        Self {
            provider: info.provider.as_str().to_owned(),
            email: info.email,
            linked_at: info.linked_at,
        }
    }
}

#[derive(Debug, Default, InputObject)]
pub struct TicketInput {
    /// The ticket the provider's popup posted.
    pub ticket: Option<String>,
}

impl From<TicketInput> for TicketForm {
    fn from(input: TicketInput) -> Self {
        Self { ticket: input.ticket }
    }
}

#[derive(Debug, Default, InputObject)]
pub struct TicketRegisterInput {
    pub ticket: Option<String>,
    /// career, campus or hire.
    pub role: Option<String>,
}

impl From<TicketRegisterInput> for TicketRegisterForm {
    fn from(input: TicketRegisterInput) -> Self {
        Self {
            ticket: input.ticket,
            role: input.role,
        }
    }
}

#[derive(Default)]
pub struct ProvidersQuery;

#[Object]
impl ProvidersQuery {
    /// The sign-in providers connected to the signed-in account.
    async fn identities(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Identity>> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        Ok(identities::list(state, &viewer)
            .await
            .gql()?
            .into_iter()
            .map(Identity::from)
            .collect())
    }
}

#[derive(Default)]
pub struct ProvidersMutation;

#[Object]
impl ProvidersMutation {
    /// Signs in with a provider's ticket (or answers with a two-factor challenge).
    #[graphql(guard = "OneAuthOperation")]
    async fn oauth_login(
        &self,
        ctx: &Context<'_>,
        input: TicketInput,
    ) -> async_graphql::Result<SignInPayload> {
        let (state, meta) = context(ctx);
        let step = sign_in::login(state, input.into(), &meta.client).await.gql()?;
        Ok(accounts::first_step(ctx, step, crate::accounts::login::SIGNED_IN))
    }

    /// Registers with a provider's ticket, or signs in when the identity has an account. With
    /// an email the provider did not vouch for, the new account is pending: no token, verify
    /// the email by code.
    #[graphql(guard = "OneAuthOperation")]
    async fn oauth_register(
        &self,
        ctx: &Context<'_>,
        input: TicketRegisterInput,
    ) -> async_graphql::Result<SignInPayload> {
        let (state, meta) = context(ctx);
        let done = sign_in::register(state, input.into(), &meta.client).await.gql()?;
        let message = done.message();
        Ok(match done {
            Registration::SignedIn { step, .. } => accounts::first_step(ctx, step, message),
            Registration::Pending(user) => SignInPayload {
                message: message.to_owned(),
                user: Some((*user).into()),
                token: None,
                two_factor_required: false,
                challenge: None,
            },
        })
    }

    /// Connects a provider's identity to the signed-in account.
    #[graphql(guard = "OneAuthOperation")]
    async fn oauth_link(
        &self,
        ctx: &Context<'_>,
        input: TicketInput,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let provider = sign_in::link(state, &viewer, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(MessagePayload::new(&identities::connected(provider)))
    }

    /// Disconnects a provider from the signed-in account, unless it is the last way in.
    async fn disconnect_identity(
        &self,
        ctx: &Context<'_>,
        provider: String,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let provider = identities::disconnect(state, &viewer, &provider, &meta.client)
            .await
            .gql()?;
        Ok(MessagePayload::new(&identities::disconnected(provider)))
    }
}
