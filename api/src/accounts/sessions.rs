//! Sessions as rows: a token is honoured only while its row exists, on every instance.

use anyhow::Context;
use chrono::{Duration, Utc};
use entity::{sessions, users};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use uuid::Uuid;

use crate::{
    error::{Error, Result},
    state::AppState,
};

/// How long a sign-in lasts.
pub const SESSION_TTL: Duration = Duration::days(7);

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
    user_agent: Option<&str>,
) -> Result<SignedIn> {
    let now = Utc::now();
    let expires_at = now + SESSION_TTL;
    let session = sessions::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user.id),
        user_agent: Set(user_agent.map(|ua| ua.chars().take(255).collect())),
        created_at: Set(now),
        expires_at: Set(expires_at),
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
    if user.id != user_id || session.expires_at <= Utc::now() || user.status == "suspended" {
        return Err(Error::session_expired());
    }
    Ok(Viewer { user, session_id })
}

/// Ends the session behind `token`, if there is one. Logging out twice is not an error.
///
/// # Errors
/// On a database failure.
pub async fn end(state: &AppState, token: Option<&str>) -> Result<()> {
    let Some(claims) = token.and_then(|t| state.keys.decode(t)) else {
        return Ok(());
    };
    if let Ok(session_id) = Uuid::parse_str(&claims.sid) {
        sessions::Entity::delete_by_id(session_id).exec(&state.db).await?;
    }
    Ok(())
}

/// Ends every session of a user: after a password reset, nobody stays signed in.
///
/// # Errors
/// On a database failure.
pub async fn end_all(db: &impl ConnectionTrait, user_id: Uuid) -> Result<()> {
    sessions::Entity::delete_many()
        .filter(sessions::Column::UserId.eq(user_id))
        .exec(db)
        .await?;
    Ok(())
}
