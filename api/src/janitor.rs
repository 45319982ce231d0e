//! Housekeeping: rows that can no longer matter are deleted every few minutes, so tables
//! stay small however long the service runs. Safe on many instances at once.

use std::time::Duration;

use chrono::Utc;
use entity::{
    email_codes, login_throttles, mail_outbox, password_reset_tokens, rate_limits, sessions,
    two_factor_challenges, used_id_tokens,
};
use sea_orm::{ColumnTrait, Condition, DatabaseConnection, EntityTrait, QueryFilter, sea_query::Expr};
use tokio::sync::watch;

const EVERY: Duration = Duration::from_secs(600);

/// Deletes expired sessions, codes, links and remembered Google tokens, old rate-limit windows
/// and throttles, and delivered mail; clears the bodies of expired code and link mails.
///
/// # Errors
/// On a database failure (the next pass tries again).
pub async fn sweep(db: &DatabaseConnection) -> Result<u64, sea_orm::DbErr> {
    let now = Utc::now();
    let day_ago = now - chrono::Duration::days(1);
    let mut removed = 0;
    removed += sessions::Entity::delete_many()
        .filter(sessions::Column::ExpiresAt.lt(now))
        .exec(db)
        .await?
        .rows_affected;
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
pub async fn run(db: DatabaseConnection, mut shutdown: watch::Receiver<bool>) {
    loop {
        tokio::select! {
            () = tokio::time::sleep(EVERY) => {}
            _ = shutdown.changed() => return,
        }
        match sweep(&db).await {
            Ok(0) => {}
            Ok(removed) => tracing::info!(removed, "housekeeping removed stale rows"),
            Err(err) => tracing::warn!(error = %err, "housekeeping failed"),
        }
    }
}
