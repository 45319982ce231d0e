//! The identities of an account at sign-in providers (Google, LinkedIn, Microsoft, GitHub),
//! and the one set of rules for joining them to accounts:
//!
//! - An identity is found by (provider, subject), never by email alone.
//! - An existing account is joined by email only when the provider vouches for that email.
//!   An account that was never verified may have been registered by someone else to wait for
//!   its owner (pre-hijacking): its password, sessions, codes, links and identities are dropped
//!   before the join, and the owner is told by mail either way. The same goes for every other
//!   proof of the email that is not the registration's own code: a reset link, a sign-in link,
//!   an operator's promotion (`super::take_back_unverified`, `super::forget_unproven`).
//! - One identity per provider per account; the last way in (no password, no other identity,
//!   no passkey) cannot be disconnected.

use chrono::{DateTime, Utc};
use entity::{identities, passkeys, users};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set,
};
use uuid::Uuid;

use super::{fields::Email, find_by_email, sessions::Viewer};
use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, Result, is_unique_violation},
    mail::{self, NewWayIn},
    providers::{Provider, ProviderIdentity},
};

pub const LAST_WAY_IN: &str = "Add a password or another sign-in method first";
const UNVERIFIED_NOTE: &str = "The account had never been verified, so the password it was \
registered with was removed and every device was signed out. To sign in with a password as \
well, choose one through \"Forgot password\".";
const VERIFIED_NOTE: &str = "Your password and sessions are unchanged.";

/// An identity as its owner sees it.
#[derive(Debug, Clone)]
pub struct IdentityInfo {
    pub provider: Provider,
    pub email: Option<String>,
    pub linked_at: DateTime<Utc>,
}

pub fn connected(provider: Provider) -> String {
    format!("{} account connected", provider.label())
}

pub fn disconnected(provider: Provider) -> String {
    format!("{} account disconnected", provider.label())
}

fn not_connected(provider: Provider) -> Error {
    Error::NotFound(format!("No {} account is connected", provider.label()))
}

fn taken(provider: Provider) -> Error {
    Error::Conflict(format!(
        "This {} account is already connected to another account",
        provider.label()
    ))
}

/// The account `who` is already an identity of.
///
/// # Errors
/// On a database failure.
pub async fn owner(db: &impl ConnectionTrait, who: &ProviderIdentity) -> Result<Option<users::Model>> {
    Ok(
        identities::Entity::find_by_id((who.provider.as_str().to_owned(), who.subject.clone()))
            .find_also_related(users::Entity)
            .one(db)
            .await?
            .and_then(|(_, user)| user),
    )
}

async fn has_provider(db: &impl ConnectionTrait, user_id: Uuid, provider: Provider) -> Result<bool> {
    Ok(identities::Entity::find()
        .filter(identities::Column::UserId.eq(user_id))
        .filter(identities::Column::Provider.eq(provider.as_str()))
        .count(db)
        .await?
        > 0)
}

/// The account of this identity: its own, else the account of its email when the provider
/// vouches for it, which is then joined (see the module's rules).
///
/// # Errors
/// On a database failure.
pub async fn existing(
    ctx: &Context,
    who: &ProviderIdentity,
    client: &ClientInfo,
) -> Result<Option<users::Model>> {
    if let Some(user) = owner(&ctx.db, who).await? {
        return Ok(Some(user));
    }
    if !who.email_vouched {
        return Ok(None);
    }
    let Ok(email) = Email::parse(who.email.as_deref()) else {
        return Ok(None);
    };
    let Some(user) = find_by_email(&ctx.db, &email).await? else {
        return Ok(None);
    };
    // A verified account joined to another identity at this provider keeps it. An unverified
    // one's can only be a squatter's, which the owner's vouched proof drops (see `join`), or
    // the squatter would lock the owner out of this provider.
    if user.email_verified && has_provider(&ctx.db, user.id, who.provider).await? {
        return Ok(None);
    }
    join(ctx, user, who, client).await.map(Some)
}

fn identity_row(user_id: Uuid, who: &ProviderIdentity) -> identities::ActiveModel {
    identities::ActiveModel {
        provider: Set(who.provider.as_str().to_owned()),
        subject: Set(who.subject.clone()),
        user_id: Set(user_id),
        email: Set(who.email.clone()),
        email_vouched: Set(who.email_vouched),
        linked_at: Set(Utc::now()),
    }
}

fn is_identity_taken(err: &sea_orm::DbErr) -> bool {
    is_unique_violation(err, "identities_pkey", "identities.provider")
        || is_unique_violation(err, "identities_user_id_provider_key", "identities.user_id")
}

/// Adds `who` to the account `user_id` within the caller's transaction (rolled back with it on
/// an error).
///
/// # Errors
/// 409 when the identity, or another at its provider, was connected meanwhile.
async fn add(txn: &impl ConnectionTrait, user_id: Uuid, who: &ProviderIdentity) -> Result<()> {
    identity_row(user_id, who).insert(txn).await.map_err(|err| {
        if is_identity_taken(&err) {
            taken(who.provider)
        } else {
            err.into()
        }
    })?;
    Ok(())
}

/// Joins `who` to the account of its vouched email, dropping what a stranger may have left on
/// an account that was never verified ([`super::take_back_unverified`]); the owner is mailed.
async fn join(
    ctx: &Context,
    user: users::Model,
    who: &ProviderIdentity,
    client: &ClientInfo,
) -> Result<users::Model> {
    let txn = crate::db::begin_write(&ctx.db).await?;
    let user = super::locked(&txn, user.id)
        .await?
        .ok_or_else(Error::session_expired)?;
    // A suspended account gains no way in (one that would outlast its restore), its email is
    // not marked verified nor its password taken, and its address is mailed nothing.
    super::ensure_can_sign_in(&user)?;
    let was_verified = user.email_verified;
    if !was_verified {
        super::take_back_unverified(&txn, user.id, who.provider.label(), client).await?;
    }
    let status = super::verified_status(user.status);
    let mut joined: users::ActiveModel = user.into();
    joined.email_verified = Set(true);
    joined.status = Set(status);
    joined.updated_at = Set(Utc::now());
    if !was_verified {
        joined.password_hash = Set(None);
    }
    let user = joined.update(&txn).await?;
    add(&txn, user.id, who).await?;
    let note = if was_verified {
        VERIFIED_NOTE
    } else {
        UNVERIFIED_NOTE
    };
    let forgot = format!("{}/forgot-password", ctx.config.platforms.main);
    let notice = mail::identity_linked(
        &ctx.config.app_name,
        &user.email,
        &user.name,
        who.provider.label(),
        note,
        &forgot,
    );
    mail::enqueue(&txn, notice.about(user.id)).await?;
    let kind = if who.provider == Provider::Google {
        Kind::GoogleLinked
    } else {
        Kind::IdentityConnected
    };
    Event::new(kind, Some(user.id), client)
        .detail(format!(
            "{} {}",
            who.provider.as_str(),
            if was_verified {
                "linked to a verified account"
            } else {
                "linked to an unverified account: password, sessions, codes and links dropped"
            }
        ))
        .record(&txn)
        .await?;
    txn.commit().await?;
    ctx.mail_ready.notify_one();
    Ok(user)
}

/// A new account for `who`, with its identity: verified when the provider vouches for the
/// email, pending (to be verified by code) otherwise. `None` when the identity or the email
/// was taken meanwhile (the same person registering twice at once).
///
/// # Errors
/// On a database failure.
pub async fn create_account(
    ctx: &Context,
    who: &ProviderIdentity,
    email: &Email,
    name: String,
    role: super::fields::Role,
) -> Result<Option<users::Model>> {
    let txn = crate::db::begin_write(&ctx.db).await?;
    let user = match super::new_account(name, email, role, who.email_vouched)
        .insert(&txn)
        .await
    {
        Ok(user) => user,
        Err(err) if is_unique_violation(&err, "users_email_key", "users.email") => {
            txn.rollback().await?;
            return Ok(None);
        }
        Err(err) => return Err(err.into()),
    };
    match identity_row(user.id, who).insert(&txn).await {
        Ok(_) => {}
        Err(err) if is_identity_taken(&err) => {
            txn.rollback().await?;
            return Ok(None);
        }
        Err(err) => return Err(err.into()),
    }
    txn.commit().await?;
    Ok(Some(user))
}

/// Connects `who` to the viewer's account (the "Connect" of the security page); the owner is
/// mailed, as a connected identity outlives a password reset.
///
/// # Errors
/// 409 when the identity belongs to another account, or the viewer has another identity at
/// this provider.
pub async fn connect(
    ctx: &Context,
    viewer: &Viewer,
    who: &ProviderIdentity,
    client: &ClientInfo,
) -> Result<()> {
    if let Some(owner) = owner(&ctx.db, who).await? {
        return if owner.id == viewer.user.id {
            Ok(())
        } else {
            Err(taken(who.provider))
        };
    }
    if has_provider(&ctx.db, viewer.user.id, who.provider).await? {
        return Err(Error::Conflict(format!(
            "Another {} account is connected. Disconnect it first.",
            who.provider.label()
        )));
    }
    let user = &viewer.user;
    let txn = crate::db::begin_write(&ctx.db).await?;
    add(&txn, user.id, who).await?;
    let notice = mail::sign_in_added(
        &ctx.config.app_name,
        &user.email,
        &user.name,
        NewWayIn::Provider(who.provider.label()),
        &ctx.config.platforms.main,
    );
    mail::enqueue(&txn, notice.about(user.id)).await?;
    Event::new(Kind::IdentityConnected, Some(user.id), client)
        .detail(who.provider.as_str())
        .record(&txn)
        .await?;
    txn.commit().await?;
    ctx.mail_ready.notify_one();
    Ok(())
}

/// The viewer's identities, in the order they were connected.
///
/// # Errors
/// On a database failure.
pub async fn list(ctx: &Context, viewer: &Viewer) -> Result<Vec<IdentityInfo>> {
    Ok(identities::Entity::find()
        .filter(identities::Column::UserId.eq(viewer.user.id))
        .order_by_asc(identities::Column::LinkedAt)
        .all(&ctx.db)
        .await?
        .into_iter()
        .filter_map(|row| {
            Some(IdentityInfo {
                provider: Provider::parse(&row.provider)?,
                email: row.email,
                linked_at: row.linked_at,
            })
        })
        .collect())
}

/// The ways into an account that do not go through its mailbox: its password, its providers'
/// accounts and its passkeys.
pub(crate) struct WaysIn {
    pub identities: Vec<identities::Model>,
    has_password: bool,
    passkeys: u64,
}

impl WaysIn {
    /// Reads them under a lock on the account's row, held until `txn` ends: two removals at once
    /// (a passkey and a provider's account, say) cannot both see the other as the one left.
    ///
    /// # Errors
    /// 401 when the account is gone; a database failure.
    pub(crate) async fn locked(txn: &impl ConnectionTrait, user_id: Uuid) -> Result<Self> {
        let user = super::locked(txn, user_id)
            .await?
            .ok_or_else(Error::session_expired)?;
        let identities = identities::Entity::find()
            .filter(identities::Column::UserId.eq(user_id))
            .all(txn)
            .await?;
        let passkeys = passkeys::Entity::find()
            .filter(passkeys::Column::UserId.eq(user_id))
            .count(txn)
            .await?;
        Ok(Self {
            identities,
            has_password: user.password_hash.is_some(),
            passkeys,
        })
    }

    /// Whether there is one way in only: removing it would leave the mailbox alone.
    pub(crate) fn is_last(&self) -> bool {
        u64::from(self.has_password) + self.identities.len() as u64 + self.passkeys <= 1
    }
}

/// Disconnects the viewer's identity at `provider`, unless it is their last way in. A way in
/// goes only with a recent sign-in, as one comes, so a stolen session cannot strip them.
///
/// # Errors
/// 404 for an unknown provider or none connected; 403 `REAUTHENTICATION_REQUIRED`; 409 'Add a
/// password or another sign-in method first'.
pub async fn disconnect(
    ctx: &Context,
    viewer: &Viewer,
    provider: &str,
    client: &ClientInfo,
) -> Result<Provider> {
    let provider =
        Provider::parse(provider).ok_or_else(|| Error::NotFound("Provider not found".to_owned()))?;
    viewer.require_recent_sign_in()?;
    let user_id = viewer.user.id;
    let txn = crate::db::begin_write(&ctx.db).await?;
    let ways_in = WaysIn::locked(&txn, user_id).await?;
    let Some(identity) = ways_in
        .identities
        .iter()
        .find(|i| i.provider == provider.as_str())
    else {
        txn.rollback().await?;
        return Err(not_connected(provider));
    };
    if ways_in.is_last() {
        txn.rollback().await?;
        return Err(Error::Conflict(LAST_WAY_IN.to_owned()));
    }
    identities::Entity::delete_many()
        .filter(identities::Column::Provider.eq(identity.provider.clone()))
        .filter(identities::Column::Subject.eq(identity.subject.clone()))
        .exec(&txn)
        .await?;
    Event::new(Kind::IdentityDisconnected, Some(user_id), client)
        .detail(provider.as_str())
        .record(&txn)
        .await?;
    txn.commit().await?;
    Ok(provider)
}
