//! The GraphQL schema: one query and one mutation object per feature, merged. Resolvers are
//! a few lines that call the domain and map its errors to `extensions.code`.

pub mod accounts;
pub mod errors;
pub mod news;
pub mod types;

use async_graphql::{EmptySubscription, MergedObject, Schema, SchemaBuilder};
use tokio::sync::OnceCell;

use crate::{
    accounts::sessions::{self, Viewer},
    error::{Error, Result},
    state::AppState,
};

#[derive(MergedObject, Default)]
pub struct Query(accounts::AccountsQuery, news::NewsQuery);

#[derive(MergedObject, Default)]
pub struct Mutation(accounts::AccountsMutation, news::NewsMutation);

pub type AppSchema = Schema<Query, Mutation, EmptySubscription>;

/// The schema without runtime data: enough to print the SDL.
pub fn builder() -> SchemaBuilder<Query, Mutation, EmptySubscription> {
    Schema::build(Query::default(), Mutation::default(), EmptySubscription)
        .limit_depth(12)
        .limit_complexity(1_000)
}

pub fn build(state: AppState) -> AppSchema {
    builder().data(state).finish()
}

/// The schema in SDL, as checked in at `schema.graphql`.
pub fn sdl() -> String {
    builder().finish().sdl()
}

/// Who is calling, taken from the HTTP request; the viewer is looked up once, when needed.
pub struct RequestMeta {
    pub token: Option<String>,
    pub user_agent: Option<String>,
    viewer: OnceCell<Viewer>,
}

impl RequestMeta {
    pub fn new(token: Option<String>, user_agent: Option<String>) -> Self {
        Self {
            token,
            user_agent,
            viewer: OnceCell::new(),
        }
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
    user_agent: None,
    viewer: OnceCell::const_new(),
};
