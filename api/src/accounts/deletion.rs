//! Account deletion: by the person themself or by an admin.

use entity::users;
use sea_orm::EntityTrait;
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
