//! Sessions as rows: a token is honoured only while its row exists, has been used within the
//! idle timeout and is within its absolute lifetime, on every instance.

use anyhow::Context as _;
use chrono::{DateTime, Duration, Utc};
use entity::{sessions, users};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter,
    sea_query::{Expr, Query},
};
use uuid::Uuid;

use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    config::Config,
    context::Context,
    error::{Error, Result},
};

/// Last activity is written at most this often, so reading a session rarely writes; and at
/// most a tenth of the idle timeout apart ([`activity_granularity`]), so a session in use is
/// never taken for an idle one (a timeout under a minute stays one).
const ACTIVITY_GRANULARITY: Duration = Duration::minutes(1);

/// How long a use may go unrecorded: with a use recorded after at most this, a session ends at
/// most this much before `idle` has passed since its last use.
fn activity_granularity(idle: Duration) -> Duration {
    ACTIVITY_GRANULARITY.min(idle / 10)
}

/// A person who has just signed in: the token goes to the body and the cookie.
#[derive(Debug)]
pub struct SignedIn {
    pub user: users::Model,
    pub token: String,
}

/// A sensitive change (deleting an account, two-factor on or off, a first password) needs the
/// person to have proven who they are this recently in the session making it.
pub const RECENT_SIGN_IN: Duration = Duration::minutes(10);

/// The caller of an authenticated request.
#[derive(Debug, Clone)]
pub struct Viewer {
    pub user: users::Model,
    pub session_id: Uuid,
    /// When this session last proved who is behind it (signed in or confirmed).
    pub authenticated_at: DateTime<Utc>,
    /// When this session signed in (the OpenID Provider's `auth_time`).
    pub signed_in_at: DateTime<Utc>,
}

impl Viewer {
    pub fn is_admin(&self) -> bool {
        self.user.role == users::Role::Admin
    }

    /// # Errors
    /// [`Error::AdminsOnly`] with `message` (which names the action) for anyone but an admin.
    pub fn require_admin(&self, message: &'static str) -> Result<()> {
        if self.is_admin() {
            Ok(())
        } else {
            Err(Error::AdminsOnly(message))
        }
    }

    /// # Errors
    /// [`Error::ReauthenticationRequired`] when the session's last proof is older than
    /// [`RECENT_SIGN_IN`]: a stolen session (an unlocked laptop, a leaked token) cannot lock
    /// the owner out or delete the account.
    pub fn require_recent_sign_in(&self) -> Result<()> {
        if self.authenticated_at + RECENT_SIGN_IN < Utc::now() {
            return Err(Error::ReauthenticationRequired);
        }
        Ok(())
    }
}

/// Opens a session for `user` within `db` (a transaction when the caller has one).
///
/// The session is written only while the account is there and not suspended (see
/// [`insert_while_signable`]): a sign-in whose account was read before an admin's suspension
/// or a deletion committed is refused instead of leaving a session that the suspension never
/// ended and a restore would bring back.
///
/// # Errors
/// 403 'This account has been suspended'; 409 when the account was deleted meanwhile; a
/// database failure.
pub async fn start(
    ctx: &Context,
    db: &impl ConnectionTrait,
    user: users::Model,
    client: &ClientInfo,
) -> Result<SignedIn> {
    open(ctx, db, user, client, false).await
}

/// [`start`] for a sign-in proven by the password read with `user`: written only while the
/// account still has that password, so a sign-in with the old password that was being checked
/// as a reset or a change committed does not outlive them.
///
/// # Errors
/// As [`start`], and 401 'Invalid email or password' when the password changed meanwhile.
pub async fn start_after_password(
    ctx: &Context,
    db: &impl ConnectionTrait,
    user: users::Model,
    client: &ClientInfo,
) -> Result<SignedIn> {
    open(ctx, db, user, client, true).await
}

#[tracing::instrument(skip_all)]
async fn open(
    ctx: &Context,
    db: &impl ConnectionTrait,
    user: users::Model,
    client: &ClientInfo,
    by_password: bool,
) -> Result<SignedIn> {
    let now = Utc::now();
    let expires_at = now + ctx.config.session_lifetime;
    let id = Uuid::new_v4();
    let password = by_password.then_some(user.password_hash.as_deref()).flatten();
    insert_while_signable(
        db,
        &user,
        password,
        sessions::Entity,
        vec![
            (sessions::Column::Id, Expr::val(id)),
            (sessions::Column::UserId, Expr::val(user.id)),
            (sessions::Column::UserAgent, Expr::val(client.user_agent.clone())),
            (sessions::Column::Ip, Expr::val(client.ip_text())),
            (sessions::Column::CreatedAt, Expr::val(now)),
            (sessions::Column::ExpiresAt, Expr::val(expires_at)),
            (sessions::Column::LastSeenAt, Expr::val(Some(now))),
            (sessions::Column::AuthenticatedAt, Expr::val(Some(now))),
        ],
    )
    .await?;
    users::Entity::update_many()
        .col_expr(
            users::Column::LastSignInAt,
            sea_orm::sea_query::Expr::value(Some(now)),
        )
        .filter(users::Column::Id.eq(user.id))
        .exec(db)
        .await?;
    let token = ctx
        .keys
        .issue(user.id, id, user.role.as_str(), now, expires_at)
        .context("could not sign the session token")
        .map_err(Error::internal)?;
    Ok(SignedIn { user, token })
}

/// Inserts one row of `table` (a session, a second step) for `user` only while the account
/// exists, is not suspended and, given `password`, still has that password hash: one
/// `INSERT … SELECT … WHERE EXISTS`, so the check and the write cannot be split. On PostgreSQL
/// the account's row is read `FOR SHARE`: a suspension, reset or password change under way
/// (each writes that row before it ends the sessions) makes the insert wait and then see it,
/// and one that begins later waits for the insert and then ends what it wrote. SQLite runs
/// writes one at a time.
///
/// # Errors
/// 403 'This account has been suspended'; 409 when the account was deleted meanwhile; 401
/// 'Invalid email or password' when the password changed; a database failure.
pub(crate) async fn insert_while_signable<E: EntityTrait>(
    db: &impl ConnectionTrait,
    user: &users::Model,
    password: Option<&str>,
    table: E,
    row: Vec<(E::Column, sea_orm::sea_query::SimpleExpr)>,
) -> Result<()> {
    let mut signable = Query::select();
    signable
        .expr(Expr::val(1))
        .from(users::Entity)
        .and_where(users::Column::Id.eq(user.id))
        .and_where(users::Column::Status.ne(users::AccountStatus::Suspended))
        .lock_shared();
    if let Some(hash) = password {
        signable.and_where(users::Column::PasswordHash.eq(hash));
    }
    let (columns, values): (Vec<_>, Vec<_>) = row.into_iter().unzip();
    let select = Query::select()
        .exprs(values)
        .and_where(Expr::exists(signable.to_owned()))
        .to_owned();
    let insert = Query::insert()
        .into_table(table)
        .columns(columns)
        .select_from(select)
        .context("a conditional insert")
        .map_err(Error::internal)?
        .to_owned();
    if db.execute(&insert).await?.rows_affected() > 0 {
        return Ok(());
    }
    // Why not, as the account stands now: gone, refused by the sign-in rule, or its password
    // changed.
    Err(match users::Entity::find_by_id(user.id).one(db).await? {
        None => Error::DeletedMeanwhile,
        Some(now) => super::ensure_can_sign_in(&now)
            .err()
            .unwrap_or(Error::InvalidCredentials),
    })
}

/// The viewer behind `token`: signed by us, unexpired, with a live session and account.
///
/// # Errors
/// 401 'Session expired or unauthorized' for anything else.
pub async fn authenticate(ctx: &Context, token: &str) -> Result<Viewer> {
    let claims = ctx.keys.decode(token).ok_or_else(Error::session_expired)?;
    let session_id = Uuid::parse_str(&claims.sid).map_err(|_| Error::session_expired())?;
    let user_id = Uuid::parse_str(&claims.sub).map_err(|_| Error::session_expired())?;
    let found = ctx
        .sessions
        .find(session_id)
        .await?
        .ok_or_else(Error::session_expired)?;
    let (session, user) = &*found;
    let now = Utc::now();
    if user.id != user_id || !is_live(&ctx.config, session, user, now) {
        return Err(Error::session_expired());
    }
    touch(&ctx.db, &ctx.config, session, now).await?;
    Ok(Viewer {
        authenticated_at: session.authenticated_at.unwrap_or(session.created_at),
        signed_in_at: session.created_at,
        user: user.clone(),
        session_id,
    })
}

/// Whether a session still counts: within its lifetime, used within the idle timeout, and its
/// account not suspended. The one rule for browser sessions and the provider's tokens alike.
pub fn is_live(config: &Config, session: &sessions::Model, user: &users::Model, now: DateTime<Utc>) -> bool {
    let last_seen = session.last_seen_at.unwrap_or(session.created_at);
    session.expires_at > now
        && last_seen + config.session_idle > now
        && user.status != users::AccountStatus::Suspended
}

/// Records that the session was used now (at most once a minute, or a tenth of the idle
/// timeout when that is shorter, so reading rarely writes).
///
/// The write's future is boxed: SeaORM's is 1.8 KB, and unboxed it made every session check's
/// future 2 KB (368 bytes now), copied whole at each move through the layers around a
/// handler, for a write made once a minute.
///
/// # Errors
/// On a database failure.
pub async fn touch(
    db: &impl ConnectionTrait,
    config: &Config,
    session: &sessions::Model,
    now: DateTime<Utc>,
) -> Result<()> {
    let last_seen = session.last_seen_at.unwrap_or(session.created_at);
    if last_seen + activity_granularity(config.session_idle) <= now {
        let write = sessions::Entity::update_many()
            .col_expr(sessions::Column::LastSeenAt, Expr::value(Some(now)))
            .filter(sessions::Column::Id.eq(session.id))
            .exec(db);
        Box::pin(write).await?;
    }
    Ok(())
}

/// The session `id` and its account when the session is live ([`is_live`]).
///
/// # Errors
/// On a database failure.
pub async fn find_live(
    db: &impl ConnectionTrait,
    config: &Config,
    id: Uuid,
) -> Result<Option<(sessions::Model, users::Model)>> {
    let found = sessions::Entity::find_by_id(id)
        .find_also_related(users::Entity)
        .one(db)
        .await?;
    Ok(found.and_then(|(session, user)| live(config, Some(session), user, Utc::now())))
}

/// A session and its account as a query read them (either may be missing), when the session
/// is live ([`is_live`]).
pub fn live(
    config: &Config,
    session: Option<sessions::Model>,
    user: Option<users::Model>,
    now: DateTime<Utc>,
) -> Option<(sessions::Model, users::Model)> {
    session
        .zip(user)
        .filter(|(session, user)| is_live(config, session, user, now))
}

/// The viewer when `token` belongs to a live session; nobody for a missing or dead one.
///
/// # Errors
/// Only when the session could not be looked up (the database is down).
pub async fn optional(ctx: &Context, token: Option<&str>) -> Result<Option<Viewer>> {
    let Some(token) = token else { return Ok(None) };
    match authenticate(ctx, token).await {
        Ok(viewer) => Ok(Some(viewer)),
        Err(Error::Unauthenticated(_)) => Ok(None),
        Err(err) => Err(err),
    }
}

pub const SIGNED_OUT: &str = "Logged out successfully";
pub const REVOKED: &str = "Session signed out";
pub const OTHERS_REVOKED: &str = "Other sessions signed out";

/// Ends the session behind `token`, if there is one, and records the sign-out. Logging out
/// twice is not an error.
///
/// # Errors
/// On a database failure.
#[tracing::instrument(skip_all)]
pub async fn sign_out(ctx: &Context, token: Option<&str>, client: &ClientInfo) -> Result<()> {
    let Some(claims) = token.and_then(|t| ctx.keys.decode(t)) else {
        return Ok(());
    };
    let Ok(session_id) = Uuid::parse_str(&claims.sid) else {
        return Ok(());
    };
    crate::oidc::backchannel::sessions_ending(&ctx.db, crate::oidc::backchannel::session(session_id)).await?;
    let ended = sessions::Entity::delete_by_id(session_id).exec(&ctx.db).await?;
    ctx.backchannel_ready.notify_one();
    if ended.rows_affected > 0
        && let Ok(user_id) = Uuid::parse_str(&claims.sub)
    {
        Event::new(Kind::Logout, Some(user_id), client)
            .record(&ctx.db)
            .await?;
    }
    Ok(())
}

/// Signs out every session of the viewer's but this one.
///
/// # Errors
/// On a database failure.
#[tracing::instrument(skip_all)]
pub async fn revoke_others(ctx: &Context, viewer: &Viewer, client: &ClientInfo) -> Result<()> {
    let ended = end_all(&ctx.db, viewer.user.id, Some(viewer.session_id)).await?;
    Event::new(Kind::SessionsRevoked, Some(viewer.user.id), client)
        .detail(format!("{ended} other session(s) signed out"))
        .record(&ctx.db)
        .await
}

/// Ends every session of a user, or every one but `keep`.
///
/// # Errors
/// On a database failure.
pub async fn end_all(db: &impl ConnectionTrait, user_id: Uuid, keep: Option<Uuid>) -> Result<u64> {
    // The clients signed in through these sessions hear of it (back-channel logout).
    crate::oidc::backchannel::sessions_ending(db, crate::oidc::backchannel::user_sessions(user_id, keep))
        .await?;
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

/// A signed-in device as its owner sees it.
#[derive(Debug, Clone)]
pub struct Device {
    pub id: Uuid,
    /// "Chrome 120", or "Unknown browser".
    pub browser: String,
    /// "Mac OSX", "Android", or "Unknown system".
    pub os: String,
    pub ip: Option<String>,
    pub signed_in_at: chrono::DateTime<Utc>,
    pub last_active_at: chrono::DateTime<Utc>,
    pub current: bool,
}

/// Reads a user agent with woothee (a maintained parser), in words a person recognises.
fn describe(user_agent: Option<&str>) -> (String, String) {
    let parsed = user_agent.and_then(|ua| woothee::parser::Parser::new().parse(ua));
    let known = |value: &str| !value.is_empty() && value != "UNKNOWN";
    match parsed {
        Some(ua) => {
            let browser = if known(ua.name) {
                if known(ua.version) {
                    format!("{} {}", ua.name, ua.version.split('.').next().unwrap_or(""))
                } else {
                    ua.name.to_owned()
                }
            } else {
                "Unknown browser".to_owned()
            };
            let os = if known(ua.os) {
                ua.os.to_owned()
            } else {
                "Unknown system".to_owned()
            };
            (browser, os)
        }
        None => ("Unknown browser".to_owned(), "Unknown system".to_owned()),
    }
}

/// The viewer's live sessions, the current one first, then the most recently active.
///
/// # Errors
/// On a database failure.
pub async fn list(ctx: &Context, viewer: &Viewer) -> Result<Vec<Device>> {
    devices_of(ctx, viewer.user.id, Some(viewer.session_id)).await
}

/// The live sessions of `user_id`, `current` first, then the most recently active.
///
/// # Errors
/// On a database failure.
pub async fn devices_of(ctx: &Context, user_id: Uuid, current: Option<Uuid>) -> Result<Vec<Device>> {
    use sea_orm::QueryOrder;
    let now = Utc::now();
    let rows = sessions::Entity::find()
        .filter(sessions::Column::UserId.eq(user_id))
        .filter(sessions::Column::ExpiresAt.gt(now))
        .order_by_desc(sessions::Column::CreatedAt)
        .all(&ctx.db)
        .await?;
    let mut devices: Vec<Device> = rows
        .into_iter()
        .map(|row| {
            let last_active_at = row.last_seen_at.unwrap_or(row.created_at);
            (row, last_active_at)
        })
        .filter(|(_, last)| *last + ctx.config.session_idle > now)
        .map(|(row, last_active_at)| {
            let (browser, os) = describe(row.user_agent.as_deref());
            Device {
                current: Some(row.id) == current,
                id: row.id,
                browser,
                os,
                ip: row.ip,
                signed_in_at: row.created_at,
                last_active_at,
            }
        })
        .collect();
    devices.sort_by(|a, b| {
        b.current
            .cmp(&a.current)
            .then(b.last_active_at.cmp(&a.last_active_at))
    });
    Ok(devices)
}

pub const SESSION_NOT_FOUND: &str = "Session not found";

/// Signs out one of the viewer's sessions (another device, or this one). True when it was
/// this one: a logout, after which the skins clear the cookie as logout does.
///
/// # Errors
/// 404 for an id that is not one of the viewer's sessions.
#[tracing::instrument(skip_all)]
pub async fn revoke(ctx: &Context, viewer: &Viewer, id: &str, client: &ClientInfo) -> Result<bool> {
    end_one(ctx, viewer.user.id, id).await?;
    Event::new(Kind::SessionRevoked, Some(viewer.user.id), client)
        .record(&ctx.db)
        .await?;
    // `end_one` found the id, so it parses.
    Ok(Uuid::parse_str(id).is_ok_and(|id| id == viewer.session_id))
}

/// Ends the session `id` of `user_id`; the clients signed in through it hear of it.
///
/// # Errors
/// 404 for an id that is not one of that account's sessions.
pub async fn end_one(ctx: &Context, user_id: Uuid, id: &str) -> Result<()> {
    let not_found = || Error::NotFound(SESSION_NOT_FOUND.to_owned());
    let id = Uuid::parse_str(id).map_err(|_| not_found())?;
    let owned = crate::oidc::backchannel::session(id).add(entity::oauth_tokens::Column::UserId.eq(user_id));
    crate::oidc::backchannel::sessions_ending(&ctx.db, owned).await?;
    ctx.backchannel_ready.notify_one();
    let ended = sessions::Entity::delete_many()
        .filter(sessions::Column::Id.eq(id))
        .filter(sessions::Column::UserId.eq(user_id))
        .exec(&ctx.db)
        .await?;
    if ended.rows_affected == 0 {
        return Err(not_found());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::describe;

    #[test]
    fn user_agents_read_as_browser_and_system() {
        let chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
        assert_eq!(
            describe(Some(chrome)),
            ("Chrome 120".to_owned(), "Windows 10".to_owned())
        );
        assert_eq!(
            describe(Some("curl/8.5.0")).1,
            "Unknown system",
            "a tool has no system"
        );
        assert_eq!(
            describe(None),
            ("Unknown browser".to_owned(), "Unknown system".to_owned())
        );
    }
}
