//! A ticket: what a provider's popup proved, handed to the site through the opener and used
//! once within five minutes. Only its SHA-256 is stored.

use chrono::{Duration, Utc};
use entity::provider_tickets;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};

use super::{Provider, ProviderIdentity};
use crate::{
    accounts::{fields::cleaned_name, tokens},
    error::{Error, Result},
};

pub const LIFETIME: Duration = Duration::minutes(5);
pub const INVALID: &str = "Sign-in could not be completed";

fn invalid() -> Error {
    Error::Unauthenticated(INVALID.to_owned())
}

/// Stores `identity` and answers the ticket that names it.
///
/// # Errors
/// On a database failure.
pub async fn issue(db: &impl ConnectionTrait, identity: &ProviderIdentity) -> Result<String> {
    let ticket = tokens::random_token();
    provider_tickets::ActiveModel {
        token_hash: Set(tokens::sha256_hex(&ticket)),
        provider: Set(identity.provider.as_str().to_owned()),
        subject: Set(identity.subject.clone()),
        email: Set(identity.email.clone()),
        email_vouched: Set(identity.email_vouched),
        // Cleaned before it is stored: PostgreSQL refuses a NUL in text, which a provider may send.
        name: Set(identity
            .name
            .as_deref()
            .map(cleaned_name)
            .filter(|name| !name.is_empty())),
        expires_at: Set(Utc::now() + LIFETIME),
    }
    .insert(db)
    .await?;
    Ok(ticket)
}

/// The identity a ticket names; the ticket is spent whatever happens next.
///
/// # Errors
/// 401 'Sign-in could not be completed' for a missing, unknown, used or expired ticket.
pub async fn take(db: &impl ConnectionTrait, ticket: Option<&str>) -> Result<ProviderIdentity> {
    let ticket = ticket
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.len() <= 128)
        .ok_or_else(invalid)?;
    let hash = tokens::sha256_hex(ticket);
    let row = provider_tickets::Entity::find_by_id(hash.clone())
        .one(db)
        .await?
        .ok_or_else(invalid)?;
    let taken = provider_tickets::Entity::delete_many()
        .filter(provider_tickets::Column::TokenHash.eq(hash))
        .exec(db)
        .await?;
    if taken.rows_affected == 0 || row.expires_at <= Utc::now() {
        return Err(invalid());
    }
    Ok(ProviderIdentity {
        provider: Provider::parse(&row.provider).ok_or_else(invalid)?,
        subject: row.subject,
        email: row.email,
        email_vouched: row.email_vouched,
        name: row.name,
    })
}
