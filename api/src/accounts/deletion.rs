//! Account deletion: by the person themself or by an admin.

use entity::users;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use uuid::Uuid;

use super::sessions::Viewer;
use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, Result},
};

pub const USER_NOT_FOUND: &str = "User not found";
pub const DELETED: &str = "Account deleted";
pub const LAST_ADMIN: &str = "You are the only admin. Make another account an admin first.";

/// Deletes the account `id`. Its sessions, codes, reset tokens and mail go with it (the
/// database cascades); its news stays, with no author; the audit log keeps the event.
///
/// # Errors
/// 404 for an unknown or malformed id; 403 when the viewer is neither the owner nor an admin.
#[tracing::instrument(skip_all)]
pub async fn delete(ctx: &Context, viewer: &Viewer, id: &str, client: &ClientInfo) -> Result<()> {
    let not_found = || Error::NotFound(USER_NOT_FOUND.to_owned());
    let id = Uuid::parse_str(id).map_err(|_| not_found())?;
    if viewer.user.id != id && !viewer.is_admin() {
        return Err(Error::NotYourAccount);
    }
    viewer.require_recent_sign_in()?;
    crate::oidc::backchannel::sessions_ending(&ctx.db, crate::oidc::backchannel::user_sessions(id, None))
        .await?;
    // An organization it alone owns passes to its longest-standing admin or member; the
    // events of that, and the deletion's own, commit with it.
    let txn = crate::db::begin_write(&ctx.db).await?;
    let handed = crate::organizations::members::hand_over(&txn, id, viewer.user.id, client).await?;
    if viewer.user.id != id {
        // An admin deleting another: still an admin, with both rows locked (two admins
        // deleting each other at once would leave none).
        crate::admin::users::still_admin(&txn, viewer, id).await?;
    } else if viewer.is_admin() {
        last_admin_stays(&txn, id).await?;
    }
    let deleted = users::Entity::delete_by_id(id).exec(&txn).await?;
    if deleted.rows_affected == 0 {
        return Err(not_found());
    }
    let mut event = Event::new(Kind::AccountDeleted, Some(id), client);
    if viewer.user.id != id {
        event = event.by(viewer.user.id);
    }
    let note = handed.note();
    if !note.is_empty() {
        event = event.detail(note);
    }
    event.record(&txn).await?;
    txn.commit().await?;
    ctx.backchannel_ready.notify_one();
    Ok(())
}

/// Refuses to delete the account `id` of the last active admin: nobody would be left to run
/// the console. Every admin's row is locked, so two admins deleting themselves at once cannot
/// each count the other.
///
/// # Errors
/// 409 [`LAST_ADMIN`].
async fn last_admin_stays(txn: &impl ConnectionTrait, id: Uuid) -> Result<()> {
    let admins = users::Entity::find()
        .filter(users::Column::Role.eq(users::Role::Admin))
        .order_by_asc(users::Column::Id)
        .lock_exclusive()
        .all(txn)
        .await?;
    let others = admins
        .iter()
        .filter(|admin| admin.id != id && admin.status != users::AccountStatus::Suspended)
        .count();
    if others == 0 {
        Err(Error::Conflict(LAST_ADMIN.to_owned()))
    } else {
        Ok(())
    }
}
