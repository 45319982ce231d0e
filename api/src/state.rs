//! What every request can reach: the database, the configuration and the shared services.

use std::{ops::Deref, sync::Arc};

use sea_orm::DatabaseConnection;
use tokio::sync::Notify;

use crate::{
    accounts::{passwords::PasswordHasher, session_lookup::SessionLookup, tokens::Keys},
    config::Config,
    google::Google,
    news::public_cache::PublicFeedCache,
    oidc::keys::Vault,
};

/// Cloned into every request (axum's `State`), so a clone is one reference count.
#[derive(Clone)]
pub struct AppState(Arc<Services>);

pub struct Services {
    pub db: DatabaseConnection,
    pub config: Arc<Config>,
    pub passwords: PasswordHasher,
    pub keys: Arc<Keys>,
    /// Session checks, coalesced into one read per moment (never cached).
    pub sessions: Arc<SessionLookup>,
    pub google: Arc<Google>,
    /// Wakes the mail worker when a request has committed a mail to the outbox.
    pub mail_ready: Arc<Notify>,
    /// Wakes the back-channel logout worker when a session with client tokens has ended.
    pub backchannel_ready: Arc<Notify>,
    /// The anonymous feed, rendered, for a second.
    pub public_feed: Arc<PublicFeedCache>,
    /// Opens the OpenID Provider's sealed signing keys.
    pub vault: Arc<Vault>,
}

impl Deref for AppState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.0
    }
}

impl AppState {
    pub fn new(db: DatabaseConnection, config: Config) -> Self {
        let keys = Keys::new(config.jwt_secret.expose());
        let config_keys = config.key_encryption.clone();
        let google = Arc::new(Google::new(config.google.clone()));
        Self(Arc::new(Services {
            sessions: Arc::new(SessionLookup::new(db.clone())),
            db,
            config: Arc::new(config),
            passwords: PasswordHasher::new(),
            keys: Arc::new(keys),
            google,
            mail_ready: Arc::new(Notify::new()),
            backchannel_ready: Arc::new(Notify::new()),
            public_feed: Arc::default(),
            vault: Arc::new(Vault::new(&config_keys)),
        }))
    }
}
