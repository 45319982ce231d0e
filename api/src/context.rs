//! What the domain works with: the database, the settings and the shared services (hasher,
//! keys, session checks, provider clients, caches, wake-ups). Domain functions take a
//! `&Context`; `state` builds one and hands it to the skins.

use std::sync::Arc;

use sea_orm::DatabaseConnection;
use tokio::sync::Notify;

use crate::{
    accounts::{passwords::PasswordHasher, session_lookup::SessionLookup, tokens::Keys},
    config::Config,
    google::Google,
    news::public_cache::PublicFeedCache,
    oidc::{grants::Grants, issuance::Issuance, keys::Vault},
};

pub struct Context {
    pub db: DatabaseConnection,
    pub config: Arc<Config>,
    pub passwords: PasswordHasher,
    pub keys: Arc<Keys>,
    /// Session checks, coalesced into one read per moment (never cached).
    pub sessions: Arc<SessionLookup>,
    pub google: Arc<Google>,
    /// LinkedIn, Microsoft and GitHub, as configured.
    pub providers: Arc<crate::providers::Providers>,
    /// Wakes the mail worker when a request has committed a mail to the outbox.
    pub mail_ready: Arc<Notify>,
    /// Wakes the back-channel logout worker when a session with client tokens has ended.
    pub backchannel_ready: Arc<Notify>,
    /// The anonymous feed, rendered, for a second.
    pub public_feed: Arc<PublicFeedCache>,
    /// The token endpoint's reads, coalesced into one query per moment (never cached).
    pub grants: Grants,
    /// The provider's writes (new codes, token exchanges), grouped into one transaction per
    /// moment.
    pub issuance: Arc<Issuance>,
    /// Opens the OpenID Provider's sealed signing keys.
    pub vault: Arc<Vault>,
    /// The passkeys' relying party (the main site); `None` where its host is an IP address.
    pub webauthn: Option<Arc<webauthn_rs::Webauthn>>,
}
