//! Sessions as rows: a token is honoured only while its row exists, has been used within the
//! idle timeout and is within its absolute lifetime, on every instance.

use anyhow::Context;
use chrono::{Duration, Utc};
use entity::{sessions, users};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, Set, sea_query::Expr,
};
use uuid::Uuid;

use crate::{
    client::ClientInfo,
    error::{Error, Result},
    state::AppState,
};

/// Last activity is written at most this often, so reading a session rarely writes.
const ACTIVITY_GRANULARITY: Duration = Duration::minutes(1);

/// A person who has just signed in: the token goes to the body and the cookie.
#[derive(Debug)]
pub struct SignedIn {
    pub user: users::Model,
    pub token: String,
}

/// The caller of an authenticated request.
#[derive(Debug, Clone)]
pub struct Viewer {
    pub user: users::Model,
    pub session_id: Uuid,
}

impl Viewer {
    pub fn is_admin(&self) -> bool {
        self.user.role == "admin"
    }
}

/// Opens a session for `user` within `db` (a transaction when the caller has one).
///
/// # Errors
/// On a database failure.
pub async fn start(
    state: &AppState,
    db: &impl ConnectionTrait,
    user: users::Model,
    client: &ClientInfo,
) -> Result<SignedIn> {
    let now = Utc::now();
    let expires_at = now + state.config.session_lifetime;
    let session = sessions::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user.id),
        user_agent: Set(client.user_agent.clone()),
        ip: Set(client.ip_text()),
        created_at: Set(now),
        expires_at: Set(expires_at),
        last_seen_at: Set(Some(now)),
    }
    .insert(db)
    .await?;
    let token = state
        .keys
        .issue(user.id, session.id, &user.role, now, expires_at)
        .context("could not sign the session token")
        .map_err(Error::internal)?;
    Ok(SignedIn { user, token })
}

/// The viewer behind `token`: signed by us, unexpired, with a live session and account.
///
/// # Errors
/// 401 'Session expired or unauthorized' for anything else.
pub async fn authenticate(state: &AppState, token: &str) -> Result<Viewer> {
    let claims = state.keys.decode(token).ok_or_else(Error::session_expired)?;
    let session_id = Uuid::parse_str(&claims.sid).map_err(|_| Error::session_expired())?;
    let user_id = Uuid::parse_str(&claims.sub).map_err(|_| Error::session_expired())?;
    let (session, user) = sessions::Entity::find_by_id(session_id)
        .find_also_related(users::Entity)
        .one(&state.db)
        .await?
        .ok_or_else(Error::session_expired)?;
    let user = user.ok_or_else(Error::session_expired)?;
    let now = Utc::now();
    let last_seen = session.last_seen_at.unwrap_or(session.created_at);
    if user.id != user_id
        || session.expires_at <= now
        || last_seen + state.config.session_idle <= now
        || user.status == "suspended"
    {
        return Err(Error::session_expired());
    }
    if last_seen + ACTIVITY_GRANULARITY <= now {
        sessions::Entity::update_many()
            .col_expr(sessions::Column::LastSeenAt, Expr::value(Some(now)))
            .filter(sessions::Column::Id.eq(session_id))
            .exec(&state.db)
            .await?;
    }
    Ok(Viewer { user, session_id })
}

/// The viewer when `token` belongs to a live session; nobody for a missing or dead one.
///
/// # Errors
/// Only when the session could not be looked up (the database is down).
pub async fn optional(state: &AppState, token: Option<&str>) -> Result<Option<Viewer>> {
    let Some(token) = token else { return Ok(None) };
    match authenticate(state, token).await {
        Ok(viewer) => Ok(Some(viewer)),
        Err(Error::Unauthenticated(_)) => Ok(None),
        Err(err) => Err(err),
    }
}

/// Ends the session behind `token`, if there is one, and says whose it was. Logging out
/// twice is not an error.
///
/// # Errors
/// On a database failure.
pub async fn end(state: &AppState, token: Option<&str>) -> Result<Option<Uuid>> {
    let Some(claims) = token.and_then(|t| state.keys.decode(t)) else {
        return Ok(None);
    };
    let Ok(session_id) = Uuid::parse_str(&claims.sid) else {
        return Ok(None);
    };
    let ended = sessions::Entity::delete_by_id(session_id).exec(&state.db).await?;
    Ok((ended.rows_affected > 0)
        .then(|| Uuid::parse_str(&claims.sub).ok())
        .flatten())
}

/// Ends every session of a user, or every one but `keep`.
///
/// # Errors
/// On a database failure.
pub async fn end_all(db: &impl ConnectionTrait, user_id: Uuid, keep: Option<Uuid>) -> Result<u64> {
    let mut condition = Condition::all().add(sessions::Column::UserId.eq(user_id));
    if let Some(keep) = keep {
        condition = condition.add(sessions::Column::Id.ne(keep));
    }
    Ok(sessions::Entity::delete_many()
        .filter(condition)
        .exec(db)
        .await?
        .rows_affected)
}
