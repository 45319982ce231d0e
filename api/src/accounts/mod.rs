//! The account system: registration, email codes, sign-in, sessions, password reset,
//! profile and deletion. Plain async functions over the application state.

pub mod admin;
pub mod common_passwords;
pub mod cookie;
pub mod deletion;
pub mod device;
pub mod email_code;
pub mod fields;
pub mod identities;
pub mod login;
pub mod magic_link;
pub mod passkeys;
pub mod password_change;
pub mod password_reset;
pub mod passwords;
pub mod profile;
pub mod reauthenticate;
pub mod register;
pub mod session_lookup;
pub mod sessions;
pub mod throttle;
pub mod tokens;
pub mod two_factor;

use chrono::Utc;
use entity::users::{self, AccountStatus};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QuerySelect, Set};
use uuid::Uuid;

use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    error::Result,
};
use fields::{Email, Role};

/// A new account row with API.md's defaults (email and push notifications on, sms off,
/// theme dark); the caller sets how it signs in (password hash or Google identity).
/// An account whose password was just set (a change or a reset), before and after: the browser
/// that set it keeps its device-cookie entry ([`cookie::for_new_password`]).
pub struct PasswordSet {
    pub before: users::Model,
    pub after: users::Model,
}

pub fn new_account(name: String, email: &Email, role: Role, verified: bool) -> users::ActiveModel {
    let now = Utc::now();
    users::ActiveModel {
        id: Set(Uuid::new_v4()),
        name: Set(name),
        email: Set(email.as_str().to_owned()),
        country_code: Set(String::new()),
        phone: Set(String::new()),
        password_hash: Set(None),
        role: Set(role.into()),
        status: Set(if verified {
            AccountStatus::Active
        } else {
            AccountStatus::Pending
        }),
        email_verified: Set(verified),
        two_factor_enabled: Set(false),
        totp_secret: Set(None),
        totp_last_step: Set(None),
        notify_email: Set(true),
        notify_sms: Set(false),
        notify_push: Set(true),
        theme: Set("dark".to_owned()),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
}

/// # Errors
/// 403 'This account has been suspended': the one rule every way in checks once the person
/// is proven (password, code, Google, a second factor).
pub fn ensure_can_sign_in(user: &users::Model) -> Result<()> {
    if user.status == AccountStatus::Suspended {
        return Err(crate::error::Error::AccountSuspended);
    }
    Ok(())
}

/// The status of an account whose email was just proven: pending becomes active, a
/// suspension stays.
pub fn verified_status(status: AccountStatus) -> AccountStatus {
    match status {
        AccountStatus::Pending => AccountStatus::Active,
        other => other,
    }
}

/// The account behind an email, if any.
///
/// # Errors
/// On a database failure.
pub async fn find_by_email(db: &impl ConnectionTrait, email: &Email) -> Result<Option<users::Model>> {
    Ok(users::Entity::find()
        .filter(users::Column::Email.eq(email.as_str()))
        .one(db)
        .await?)
}

/// The account `id` locked inside `txn` (until it ends) and read as it now stands. A change
/// computed from an earlier read would overwrite whatever committed since: an admin's
/// suspension, undone by a verification that set the status it had read. `SELECT … FOR
/// UPDATE` on PostgreSQL; on SQLite `txn` is a write transaction (`db::begin_write`), whose
/// lock already holds every row.
///
/// # Errors
/// On a database failure.
pub async fn locked(txn: &impl ConnectionTrait, id: Uuid) -> Result<Option<users::Model>> {
    Ok(users::Entity::find_by_id(id).lock_exclusive().one(txn).await?)
}

/// Drops every code and reset link mailed to `user_id` (but the link `keep`, when one is being
/// used), and the mails of them not yet delivered: whatever proved the email before a
/// password, a Google link or new powers must not work after them.
///
/// # Errors
/// On a database failure.
pub async fn forget_mailed_secrets(
    db: &impl ConnectionTrait,
    user_id: Uuid,
    keep: Option<Uuid>,
) -> Result<()> {
    use entity::{email_codes, password_reset_tokens, sign_in_links};
    email_codes::Entity::delete_many()
        .filter(email_codes::Column::UserId.eq(user_id))
        .exec(db)
        .await?;
    sign_in_links::Entity::delete_many()
        .filter(sign_in_links::Column::UserId.eq(user_id))
        .exec(db)
        .await?;
    let mut links = password_reset_tokens::Entity::delete_many()
        .filter(password_reset_tokens::Column::UserId.eq(user_id));
    if let Some(keep) = keep {
        links = links.filter(password_reset_tokens::Column::Id.ne(keep));
    }
    links.exec(db).await?;
    // Nor may the mails that carry them still go out, held back by an outage (the link being
    // used, `keep`, was delivered already).
    crate::mail::withdraw_secrets_about(db, user_id).await?;
    Ok(())
}

/// Drops every identity of an account whose email was never verified, when the email is proven
/// by something other than the registration's own code. Such an identity came with an email
/// its provider did not vouch for (one that vouched would have verified the account), so it
/// may be a stranger's who registered the address first: it must not outlast the owner's
/// proof. `how` names the proof in the audit log.
///
/// # Errors
/// On a database failure.
pub async fn forget_unproven(
    txn: &impl ConnectionTrait,
    user_id: Uuid,
    how: &str,
    client: &ClientInfo,
) -> Result<()> {
    let dropped = entity::identities::Entity::find()
        .filter(entity::identities::Column::UserId.eq(user_id))
        .all(txn)
        .await?;
    if dropped.is_empty() {
        return Ok(());
    }
    entity::identities::Entity::delete_many()
        .filter(entity::identities::Column::UserId.eq(user_id))
        .exec(txn)
        .await?;
    for identity in dropped {
        Event::new(Kind::IdentityDisconnected, Some(user_id), client)
            .detail(format!(
                "{}: not vouched for, dropped when {how} proved the email",
                identity.provider
            ))
            .record(txn)
            .await?;
    }
    Ok(())
}

/// Takes back an account whose email was never verified from whoever may have registered the
/// address first, when its owner proves the address by a provider that vouches for it or by a
/// sign-in link: its sessions end, its mailed codes and links go, and so do its identities
/// ([`forget_unproven`]). The caller drops the password in the update that verifies the
/// account. `how` names the proof in the audit log.
///
/// # Errors
/// On a database failure.
pub async fn take_back_unverified(
    txn: &impl ConnectionTrait,
    user_id: Uuid,
    how: &str,
    client: &ClientInfo,
) -> Result<()> {
    let ended = sessions::end_all(txn, user_id, None).await?;
    if ended > 0 {
        Event::new(Kind::SessionsRevoked, Some(user_id), client)
            .detail(format!(
                "{ended} ended when {how} proved the email of an unverified account"
            ))
            .record(txn)
            .await?;
    }
    forget_mailed_secrets(txn, user_id, None).await?;
    forget_unproven(txn, user_id, how, client).await
}
