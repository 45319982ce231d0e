//! The GraphQL schema: one query and one mutation object per feature, merged. Resolvers are
//! a few lines that call the domain and map its errors to `extensions.code`.

pub mod accounts;
pub mod admin;
pub mod audit;
pub mod documents;
pub mod errors;
pub mod inputs;
pub mod limits;
pub mod news;
pub mod oidc;
pub mod organizations;
pub mod passkeys;
pub mod providers;
pub mod types;

use std::sync::{
    Arc,
    atomic::{AtomicBool, Ordering},
};

use async_graphql::{EmptySubscription, Guard, MergedObject, Schema, SchemaBuilder};
use tokio::sync::OnceCell;

use crate::{
    accounts::sessions::{self, Viewer},
    client::ClientInfo,
    error::{Error, Result},
    state::AppState,
};

#[derive(MergedObject, Default)]
pub struct Query(
    accounts::AccountsQuery,
    news::NewsQuery,
    audit::AuditQuery,
    oidc::OidcQuery,
    organizations::OrganizationsQuery,
    passkeys::PasskeysQuery,
    providers::ProvidersQuery,
    admin::AdminQuery,
);

#[derive(MergedObject, Default)]
pub struct Mutation(
    accounts::AccountsMutation,
    news::NewsMutation,
    oidc::OidcMutation,
    organizations::OrganizationsMutation,
    passkeys::PasskeysMutation,
    providers::ProvidersMutation,
    admin::AdminMutation,
);

pub type AppSchema = Schema<Query, Mutation, EmptySubscription>;

/// The schema without runtime data: enough to print the SDL.
pub fn builder() -> SchemaBuilder<Query, Mutation, EmptySubscription> {
    Schema::build(Query::default(), Mutation::default(), EmptySubscription)
        .limit_depth(limits::MAX_DEPTH)
        .limit_complexity(limits::MAX_COMPLEXITY)
        .limit_recursive_depth(limits::MAX_DEPTH * 2)
        .limit_directives(limits::MAX_DIRECTIVES)
        .extension(limits::ArgumentErrors)
}

pub fn build(state: AppState) -> AppSchema {
    let introspection = state.config.graphql_introspection;
    let builder = builder().data(state);
    if introspection {
        builder.finish()
    } else {
        // Nor "Did you mean …?": suggestions would spell out the schema field by field.
        builder.disable_introspection().disable_suggestions().finish()
    }
}

/// The schema in SDL, as checked in at `schema.graphql`.
pub fn sdl() -> String {
    builder().finish().sdl()
}

/// Who is calling, taken from the HTTP request; the viewer is looked up once, when needed.
pub struct RequestMeta {
    pub token: Option<String>,
    pub client: ClientInfo,
    /// Whether an authentication mutation already ran in this HTTP request; shared by every
    /// operation of a batch. `None` outside HTTP (no limit to keep).
    auth_operation: Option<Arc<AtomicBool>>,
    viewer: OnceCell<Viewer>,
}

pub const ONE_AUTH_OPERATION: &str = "Only one sign-in or account operation is allowed per request";

impl RequestMeta {
    /// The data of one GraphQL operation; `auth_operation` is shared by the operations of
    /// one HTTP request.
    pub fn new(token: Option<String>, client: ClientInfo, auth_operation: Arc<AtomicBool>) -> Self {
        Self {
            token,
            client,
            auth_operation: Some(auth_operation),
            viewer: OnceCell::new(),
        }
    }

    /// Claims this request's one authentication operation.
    fn take_auth_operation(&self) -> bool {
        self.auth_operation
            .as_ref()
            .is_none_or(|taken| !taken.swap(true, Ordering::AcqRel))
    }

    /// The signed-in viewer.
    ///
    /// # Errors
    /// 401 'Session expired or unauthorized' without a live session.
    pub async fn viewer(&self, state: &AppState) -> Result<Viewer> {
        let token = self.token.as_deref().ok_or_else(Error::session_expired)?;
        self.viewer
            .get_or_try_init(|| sessions::authenticate(state, token))
            .await
            .cloned()
    }

    /// The viewer when signed in; anonymous for a missing or dead session.
    ///
    /// # Errors
    /// Only when the session could not be looked up (the database is down).
    pub async fn optional_viewer(&self, state: &AppState) -> Result<Option<Viewer>> {
        if self.token.is_none() {
            return Ok(None);
        }
        match self.viewer(state).await {
            Ok(viewer) => Ok(Some(viewer)),
            Err(Error::Unauthenticated(_)) => Ok(None),
            Err(err) => Err(err),
        }
    }

    /// Whether the caller is a signed-in admin (drafts are theirs to see).
    ///
    /// # Errors
    /// Only when the session could not be looked up.
    pub async fn is_admin(&self, state: &AppState) -> Result<bool> {
        Ok(self.optional_viewer(state).await?.is_some_and(|v| v.is_admin()))
    }
}

/// The state and request data every resolver needs.
pub(crate) fn context<'a>(ctx: &'a async_graphql::Context<'_>) -> (&'a AppState, &'a RequestMeta) {
    let state = ctx.data_unchecked::<AppState>();
    let meta = ctx.data_opt::<RequestMeta>().unwrap_or(&NO_META);
    (state, meta)
}

static NO_META: RequestMeta = RequestMeta {
    token: None,
    client: ClientInfo {
        ip: None,
        user_agent: None,
        device: None,
    },
    auth_operation: None,
    viewer: OnceCell::const_new(),
};

/// Lets through the first authentication mutation of an HTTP request (sign-in, registration,
/// codes, forgot and reset, Google; and invitations) and refuses the rest, however they are
/// aliased or batched: each of them costs a password hash or mail, and the limits count
/// requests.
pub struct OneAuthOperation;

impl Guard for OneAuthOperation {
    async fn check(&self, ctx: &async_graphql::Context<'_>) -> async_graphql::Result<()> {
        let (_, meta) = context(ctx);
        if meta.take_auth_operation() {
            Ok(())
        } else {
            Err(errors::to_gql(Error::BadRequest(ONE_AUTH_OPERATION.to_owned())))
        }
    }
}
