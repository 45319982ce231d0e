//! What every request can reach: the database, the configuration and the shared services.

use std::sync::Arc;

use sea_orm::DatabaseConnection;
use tokio::sync::Notify;

use crate::{
    accounts::passwords::PasswordHasher, accounts::tokens::Keys, config::Config, google::Google,
    news::public_cache::PublicFeedCache,
};

#[derive(Clone)]
pub struct AppState {
    pub db: DatabaseConnection,
    pub config: Arc<Config>,
    pub passwords: PasswordHasher,
    pub keys: Arc<Keys>,
    pub google: Arc<Google>,
    /// Wakes the mail worker when a request has committed a mail to the outbox.
    pub mail_ready: Arc<Notify>,
    /// Wakes the back-channel logout worker when a session with client tokens has ended.
    pub backchannel_ready: Arc<Notify>,
    /// The anonymous feed, rendered, for a second.
    pub public_feed: Arc<PublicFeedCache>,
}

impl AppState {
    pub fn new(db: DatabaseConnection, config: Config) -> Self {
        let keys = Keys::new(config.jwt_secret.expose());
        let google = Arc::new(Google::new(config.google.clone()));
        Self {
            db,
            config: Arc::new(config),
            passwords: PasswordHasher::new(),
            keys: Arc::new(keys),
            google,
            mail_ready: Arc::new(Notify::new()),
            backchannel_ready: Arc::new(Notify::new()),
            public_feed: Arc::default(),
        }
    }
}
