//! Housekeeping: rows that can no longer matter are deleted every few minutes, so tables
//! stay small however long the service runs. Safe on many instances at once.

use std::time::Duration;

use chrono::Utc;
use entity::{
    email_codes, login_throttles, mail_outbox, passkey_ceremonies, password_reset_tokens, provider_tickets,
    rate_limits, sessions, two_factor_challenges, used_id_tokens,
};
use sea_orm::{
    ColumnTrait, Condition, DatabaseConnection, EntityTrait, QueryFilter, QuerySelect, sea_query::Expr,
};
use tokio::sync::watch;

const EVERY: Duration = Duration::from_secs(600);

/// Sessions ended in one statement at most; the next pass takes the rest.
const SESSIONS_PER_PASS: u64 = 1_000;

/// Ends sessions past their lifetime or unused for `idle`: the clients signed in through them
/// hear of it (back-channel logout), and their provider tokens go with them.
async fn end_dead_sessions(db: &DatabaseConnection, idle: chrono::Duration) -> Result<u64, sea_orm::DbErr> {
    let now = Utc::now();
    let idle_before = now - idle;
    let dead = Condition::any()
        .add(sessions::Column::ExpiresAt.lt(now))
        .add(sessions::Column::LastSeenAt.lt(idle_before))
        .add(
            Condition::all()
                .add(sessions::Column::LastSeenAt.is_null())
                .add(sessions::Column::CreatedAt.lt(idle_before)),
        );
    let mut ended = 0;
    loop {
        let ids: Vec<uuid::Uuid> = sessions::Entity::find()
            .select_only()
            .column(sessions::Column::Id)
            .filter(dead.clone())
            .limit(SESSIONS_PER_PASS)
            .into_tuple()
            .all(db)
            .await?;
        if ids.is_empty() {
            return Ok(ended);
        }
        let batch = u64::try_from(ids.len()).unwrap_or(u64::MAX);
        // The notices first (the tokens they are read from go with the sessions), then the
        // sessions, each its own statement like every other way a session ends: a read turned
        // into a write inside one SQLite transaction fails when another instance sweeps at the
        // same moment, and two instances sweeping at once at worst send a client a second
        // notice for a session that is over either way.
        crate::oidc::backchannel::sessions_ending(
            db,
            Condition::all().add(entity::oauth_tokens::Column::SessionId.is_in(ids.clone())),
        )
        .await
        .map_err(|err| sea_orm::DbErr::Custom(err.to_string()))?;
        ended += sessions::Entity::delete_many()
            .filter(sessions::Column::Id.is_in(ids))
            .exec(db)
            .await?
            .rows_affected;
        if batch < SESSIONS_PER_PASS {
            return Ok(ended);
        }
    }
}

/// Ends expired and idle sessions (see [`end_dead_sessions`]); deletes expired codes, links and
/// remembered Google tokens, old rate-limit windows and throttles, and delivered mail; clears
/// the bodies of expired code and link mails.
///
/// # Errors
/// On a database failure (the next pass tries again).
pub async fn sweep(db: &DatabaseConnection, session_idle: chrono::Duration) -> Result<u64, sea_orm::DbErr> {
    let now = Utc::now();
    let day_ago = now - chrono::Duration::days(1);
    let mut removed = end_dead_sessions(db, session_idle).await?;
    // Signing keys retired long enough ago that nothing they signed is still valid.
    removed += crate::oidc::keys::prune(db)
        .await
        .map_err(|err| sea_orm::DbErr::Custom(err.to_string()))?;
    removed += email_codes::Entity::delete_many()
        .filter(email_codes::Column::ExpiresAt.lt(day_ago))
        .exec(db)
        .await?
        .rows_affected;
    removed += password_reset_tokens::Entity::delete_many()
        .filter(password_reset_tokens::Column::ExpiresAt.lt(day_ago))
        .exec(db)
        .await?
        .rows_affected;
    removed += rate_limits::Entity::delete_many()
        .filter(rate_limits::Column::WindowStartedAt.lt(day_ago))
        .exec(db)
        .await?
        .rows_affected;
    // Codes and links that expired undelivered: the outbox keeps no secret past its use.
    mail_outbox::Entity::update_many()
        .col_expr(
            mail_outbox::Column::Subject,
            Expr::value(crate::mail::CLEARED_SUBJECT),
        )
        .col_expr(mail_outbox::Column::TextBody, Expr::value(""))
        .col_expr(mail_outbox::Column::HtmlBody, Expr::value(""))
        .filter(mail_outbox::Column::SecretUntil.lt(now))
        .filter(mail_outbox::Column::TextBody.ne(""))
        .exec(db)
        .await?;
    removed += two_factor_challenges::Entity::delete_many()
        .filter(two_factor_challenges::Column::ExpiresAt.lt(now))
        .exec(db)
        .await?
        .rows_affected;
    removed += provider_tickets::Entity::delete_many()
        .filter(provider_tickets::Column::ExpiresAt.lt(now))
        .exec(db)
        .await?
        .rows_affected;
    // Kept a day past their five minutes, as codes and links are: a late finish is told that
    // its request expired (410), not that the passkey is unknown.
    removed += passkey_ceremonies::Entity::delete_many()
        .filter(passkey_ceremonies::Column::ExpiresAt.lt(day_ago))
        .exec(db)
        .await?
        .rows_affected;
    removed += used_id_tokens::Entity::delete_many()
        .filter(used_id_tokens::Column::ExpiresAt.lt(now))
        .exec(db)
        .await?
        .rows_affected;
    removed += login_throttles::Entity::delete_many()
        .filter(login_throttles::Column::UpdatedAt.lt(day_ago))
        .exec(db)
        .await?
        .rows_affected;
    removed += mail_outbox::Entity::delete_many()
        .filter(
            Condition::all()
                .add(mail_outbox::Column::SentAt.is_not_null())
                .add(mail_outbox::Column::SentAt.lt(now - chrono::Duration::days(30))),
        )
        .exec(db)
        .await?
        .rows_affected;
    Ok(removed)
}

/// Sweeps every ten minutes until `shutdown` flips.
pub async fn run(
    db: DatabaseConnection,
    session_idle: chrono::Duration,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        tokio::select! {
            () = tokio::time::sleep(EVERY) => {}
            _ = shutdown.changed() => return,
        }
        match sweep(&db, session_idle).await {
            Ok(0) => {}
            Ok(removed) => tracing::info!(removed, "housekeeping removed stale rows"),
            Err(err) => tracing::warn!(error = %err, "housekeeping failed"),
        }
    }
}
