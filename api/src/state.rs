//! The composition root: builds the domain's [`Context`] once and shares it with every request
//! (axum's `State`).

use std::{ops::Deref, sync::Arc};

use sea_orm::DatabaseConnection;
use tokio::sync::Notify;

use crate::{
    accounts::{
        passwords::PasswordHasher,
        session_lookup::{SessionLookup, SessionReads},
        tokens::Keys,
    },
    config::Config,
    context::Context,
    google::Google,
    oidc::{grants::Grants, issuance::Issuance, keys::Vault},
};

/// Cloned into every request (axum's `State`), so a clone is one reference count.
#[derive(Clone)]
pub struct AppState(Arc<Context>);

impl Deref for AppState {
    type Target = Context;

    fn deref(&self) -> &Context {
        &self.0
    }
}

impl AppState {
    pub fn new(db: DatabaseConnection, config: Config) -> Self {
        let keys = Keys::new(config.jwt_secret.expose());
        let config_keys = config.key_encryption.clone();
        let google = Arc::new(Google::new(config.google.clone()));
        let providers = Arc::new(crate::providers::Providers::new(config.providers.clone()));
        let webauthn = crate::accounts::passkeys::relying_party(&config).map(Arc::new);
        Self(Arc::new(Context {
            sessions: Arc::new(SessionLookup::new(SessionReads::new(&db))),
            grants: Grants::new(&db),
            issuance: Arc::new(Issuance::new(&db)),
            db,
            config: Arc::new(config),
            passwords: PasswordHasher::new(),
            keys: Arc::new(keys),
            google,
            providers,
            mail_ready: Arc::new(Notify::new()),
            backchannel_ready: Arc::new(Notify::new()),
            public_feed: Arc::default(),
            vault: Arc::new(Vault::new(&config_keys)),
            webauthn,
        }))
    }
}
