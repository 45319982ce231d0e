//! Making an admin: the one way an account gets admin powers (the command line today, the
//! admin console next), audited like every change of powers.

use chrono::Utc;
use entity::users;
use sea_orm::{ActiveModelTrait, DatabaseConnection, Set};

use super::{
    fields::{Email, Name, Role},
    find_by_email, new_account, sessions,
};
use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    error::Result,
};

/// What [`make_admin`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum MadeAdmin {
    /// A new, active admin account.
    Created,
    /// An existing account promoted; its sessions, links and codes ended. It keeps its own
    /// `name` (the one given is for a new account).
    Promoted { sessions_ended: u64, name: String },
}

/// Makes `email` an admin with the password `hash`: a new active account, or the existing one
/// promoted (active, verified, the new password, its own name). A promoted account's sessions,
/// reset links and codes end: whoever held them must not keep them with new powers; so do the
/// identities of an account that was never verified. `by` is who acted.
///
/// # Errors
/// On a database failure; nothing is written then.
#[tracing::instrument(skip_all)]
pub async fn make_admin(
    db: &DatabaseConnection,
    email: &Email,
    name: Name,
    hash: String,
    by: &ClientInfo,
    how: &str,
) -> Result<MadeAdmin> {
    let txn = crate::db::begin_write(db).await?;
    let made = if let Some(existing) = find_by_email(&txn, email).await? {
        let was_verified = existing.email_verified;
        let mut user: users::ActiveModel = existing.into();
        user.role = Set(users::Role::Admin);
        user.status = Set(users::AccountStatus::Active);
        user.email_verified = Set(true);
        user.password_hash = Set(Some(hash));
        user.updated_at = Set(Utc::now());
        let user = user.update(&txn).await?;
        let sessions_ended = sessions::end_all(&txn, user.id, None).await?;
        super::forget_mailed_secrets(&txn, user.id, None).await?;
        if !was_verified {
            super::forget_unproven(&txn, user.id, "an operator", by).await?;
        }
        Event::new(Kind::AdminCreated, Some(user.id), by)
            .detail(format!("promoted by {how}; {sessions_ended} sessions ended"))
            .record(&txn)
            .await?;
        MadeAdmin::Promoted {
            sessions_ended,
            name: user.name,
        }
    } else {
        let mut admin = new_account(name.into_inner(), email, Role::Admin, true);
        admin.password_hash = Set(Some(hash));
        let admin = admin.insert(&txn).await?;
        Event::new(Kind::AdminCreated, Some(admin.id), by)
            .detail(format!("created by {how}"))
            .record(&txn)
            .await?;
        MadeAdmin::Created
    };
    txn.commit().await?;
    Ok(made)
}
