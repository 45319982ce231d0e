//! Single sign-on in GraphQL: admins register and manage OpenID clients (as `api oauth-client`
//! does), and a person sees and revokes the applications they allowed.

use async_graphql::{Context, Enum, ID, InputObject, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{context, errors::IntoGql, types::MessagePayload};
use crate::{
    accounts::sessions::Viewer,
    audit::{Event, Kind},
    error::Error,
    oidc::clients::{self, AuthorizedApp, Client, IdTokenAlg, NewClient},
};

/// How a client's ID tokens are signed (its `id_token_signed_response_alg`).
// `remote` derives the conversions to and from the domain's `IdTokenAlg`.
#[derive(Enum, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[graphql(remote = "IdTokenAlg")]
pub enum IdTokenSigningAlg {
    /// RSA with SHA-256, which every OpenID Connect library verifies.
    #[default]
    #[graphql(name = "RS256")]
    Rs256,
    /// Ed25519: a signature in a fraction of RS256's time, for libraries that verify it.
    #[graphql(name = "EdDSA")]
    EdDsa,
}

/// A registered OpenID Connect client. Its secret is never shown again after creation.
#[derive(SimpleObject, Clone, Debug)]
#[graphql(name = "OAuthClient")]
pub struct OAuthClient {
    pub client_id: ID,
    pub name: String,
    pub redirect_uris: Vec<String>,
    pub post_logout_redirect_uris: Vec<String>,
    pub backchannel_logout_uri: Option<String>,
    /// No secret: PKCE alone.
    pub public: bool,
    /// One of the platforms: no consent screen.
    pub first_party: bool,
    /// How its ID tokens are signed.
    pub id_token_signed_response_alg: IdTokenSigningAlg,
}

impl From<Client> for OAuthClient {
    fn from(client: Client) -> Self {
        Self {
            client_id: ID(client.client_id),
            name: client.name,
            redirect_uris: client.redirect_uris,
            post_logout_redirect_uris: client.post_logout_redirect_uris,
            backchannel_logout_uri: client.backchannel_logout_uri,
            public: client.public,
            first_party: client.first_party,
            id_token_signed_response_alg: client.id_token_alg.into(),
        }
    }
}

/// A client with its secret, shown this once.
#[derive(SimpleObject, Clone, Debug)]
#[graphql(name = "OAuthClientSecretPayload")]
pub struct OAuthClientSecretPayload {
    pub client: OAuthClient,
    /// Null for a public client.
    pub client_secret: Option<String>,
}

#[derive(InputObject, Debug, Default)]
#[graphql(name = "CreateOAuthClientInput")]
pub struct CreateOAuthClientInput {
    pub name: String,
    pub redirect_uris: Vec<String>,
    #[graphql(default)]
    pub post_logout_redirect_uris: Vec<String>,
    pub backchannel_logout_uri: Option<String>,
    #[graphql(default)]
    pub public: bool,
    #[graphql(default)]
    pub first_party: bool,
    /// RS256 unless the application's library verifies EdDSA.
    #[graphql(default)]
    pub id_token_signed_response_alg: IdTokenSigningAlg,
}

/// An application the signed-in person allowed to sign them in.
#[derive(SimpleObject, Clone, Debug)]
pub struct AuthorizedApplication {
    pub client_id: ID,
    pub name: String,
    pub scopes: Vec<String>,
    pub since: DateTime<Utc>,
}

impl From<AuthorizedApp> for AuthorizedApplication {
    fn from(app: AuthorizedApp) -> Self {
        Self {
            client_id: ID(app.client_id),
            name: app.name,
            scopes: app.scopes,
            since: app.since,
        }
    }
}

/// The signed-in admin, or FORBIDDEN.
async fn admin(ctx: &Context<'_>) -> async_graphql::Result<Viewer> {
    let (state, meta) = context(ctx);
    let viewer = meta.viewer(state).await.gql()?;
    viewer.require_admin(clients::ADMINS_ONLY).gql()?;
    Ok(viewer)
}

/// An admin whose sign-in is recent: registering, rotating and deleting clients make or end
/// credentials every platform trusts, so a stale session (an unlocked laptop, a leaked
/// token) must confirm it's them first.
async fn confirmed_admin(ctx: &Context<'_>) -> async_graphql::Result<Viewer> {
    let viewer = admin(ctx).await?;
    viewer.require_recent_sign_in().gql()?;
    Ok(viewer)
}

#[derive(Default)]
pub struct OidcQuery;

#[Object]
impl OidcQuery {
    /// Every registered OpenID client (admins).
    async fn oauth_clients(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<OAuthClient>> {
        let (state, _) = context(ctx);
        admin(ctx).await?;
        Ok(clients::list(&state.db)
            .await
            .gql()?
            .into_iter()
            .map(OAuthClient::from)
            .collect())
    }

    /// The applications you allowed to sign you in (first-party platforms need no consent
    /// and are not listed).
    async fn authorized_applications(
        &self,
        ctx: &Context<'_>,
    ) -> async_graphql::Result<Vec<AuthorizedApplication>> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        Ok(clients::authorized_apps(&state.db, viewer.user.id)
            .await
            .gql()?
            .into_iter()
            .map(AuthorizedApplication::from)
            .collect())
    }
}

#[derive(Default)]
pub struct OidcMutation;

#[Object]
impl OidcMutation {
    /// Registers an OpenID client (admins); the secret is in the answer, once.
    #[graphql(name = "createOAuthClient")]
    async fn create_oauth_client(
        &self,
        ctx: &Context<'_>,
        input: CreateOAuthClientInput,
    ) -> async_graphql::Result<OAuthClientSecretPayload> {
        let (state, meta) = context(ctx);
        let viewer = confirmed_admin(ctx).await?;
        let new = NewClient {
            name: input.name,
            redirect_uris: input.redirect_uris,
            post_logout_redirect_uris: input.post_logout_redirect_uris,
            backchannel_logout_uri: input.backchannel_logout_uri,
            public: input.public,
            first_party: input.first_party,
            id_token_alg: input.id_token_signed_response_alg.into(),
        };
        let (client, secret) = clients::create(&state.db, new, state.config.env.is_local())
            .await
            .gql()?;
        Event::new(Kind::OAuthClientChanged, None, &meta.client)
            .by(viewer.user.id)
            .detail(format!("created {} ({})", client.client_id, client.name))
            .record(&state.db)
            .await
            .gql()?;
        Ok(OAuthClientSecretPayload {
            client: client.into(),
            client_secret: secret,
        })
    }

    /// A new secret for a confidential client (admins); the old one stops working.
    #[graphql(name = "rotateOAuthClientSecret")]
    async fn rotate_oauth_client_secret(
        &self,
        ctx: &Context<'_>,
        client_id: ID,
    ) -> async_graphql::Result<OAuthClientSecretPayload> {
        let (state, meta) = context(ctx);
        let viewer = confirmed_admin(ctx).await?;
        let secret = clients::rotate_secret(&state.db, &client_id).await.gql()?;
        let client = clients::find(&state.db, &client_id)
            .await
            .gql()?
            .ok_or_else(|| Error::NotFound("No client with this id".to_owned()))
            .gql()?;
        Event::new(Kind::OAuthClientChanged, None, &meta.client)
            .by(viewer.user.id)
            .detail(format!("rotated the secret of {}", client.client_id))
            .record(&state.db)
            .await
            .gql()?;
        Ok(OAuthClientSecretPayload {
            client: client.into(),
            client_secret: Some(secret),
        })
    }

    /// Deletes a client with its tokens and consents (admins).
    #[graphql(name = "deleteOAuthClient")]
    async fn delete_oauth_client(
        &self,
        ctx: &Context<'_>,
        client_id: ID,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = confirmed_admin(ctx).await?;
        clients::delete(&state.db, &client_id).await.gql()?;
        Event::new(Kind::OAuthClientChanged, None, &meta.client)
            .by(viewer.user.id)
            .detail(format!("deleted {}", client_id.as_str()))
            .record(&state.db)
            .await
            .gql()?;
        Ok(MessagePayload::new("Application deleted"))
    }

    /// Takes back your consent to an application, and every token it holds for you.
    async fn revoke_application(
        &self,
        ctx: &Context<'_>,
        client_id: ID,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        clients::revoke_access(&state.db, viewer.user.id, &client_id)
            .await
            .gql()?;
        Event::new(Kind::ConsentRevoked, Some(viewer.user.id), &meta.client)
            .detail(format!("client {}", client_id.as_str()))
            .record(&state.db)
            .await
            .gql()?;
        Ok(MessagePayload::new("Access revoked"))
    }
}
