//! SeaORM entities: one module per table, plain data, no business rules.
//!
//! API types live in the `api` crate; these structs never leave the server.

pub mod audit_events;
pub mod backchannel_logouts;
pub mod email_codes;
pub mod identities;
pub mod login_throttles;
pub mod mail_outbox;
pub mod news;
pub mod oauth_clients;
pub mod oauth_codes;
pub mod oauth_consents;
pub mod oauth_tokens;
pub mod organization_invitations;
pub mod organization_members;
pub mod organizations;
pub mod passkey_ceremonies;
pub mod passkeys;
pub mod password_reset_tokens;
pub mod provider_tickets;
pub mod rate_limits;
pub mod recovery_codes;
pub mod sessions;
pub mod sign_in_links;
pub mod signing_keys;
pub mod two_factor_challenges;
pub mod used_id_tokens;
pub mod users;

pub use sea_orm;
