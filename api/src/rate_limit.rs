//! Fixed-window limits kept in the database, so every instance counts the same hits.

use chrono::{DateTime, Duration, Utc};
use sea_orm::{ConnectionTrait, DatabaseBackend, Statement};

use crate::error::{Error, Result};

/// Counts one hit against `key`; past `max` hits in `window` it refuses with 429.
///
/// # Errors
/// [`Error::RateLimited`] with the seconds until the window ends, or a database failure.
pub async fn hit(
    db: &impl ConnectionTrait,
    key: &str,
    window: Duration,
    max: i32,
    message: &str,
) -> Result<()> {
    let now = Utc::now();
    let window_opened_before = now - window;
    // One atomic upsert: a fresh window restarts the count, an open one adds to it.
    let sql = match db.get_database_backend() {
        DatabaseBackend::Postgres => {
            "INSERT INTO rate_limits (key, window_started_at, hits) VALUES ($1, $2, 1) \
             ON CONFLICT (key) DO UPDATE SET \
             hits = CASE WHEN rate_limits.window_started_at <= $3 THEN 1 ELSE rate_limits.hits + 1 END, \
             window_started_at = CASE WHEN rate_limits.window_started_at <= $3 THEN $2 ELSE rate_limits.window_started_at END \
             RETURNING hits, window_started_at"
        }
        _ => {
            "INSERT INTO rate_limits (key, window_started_at, hits) VALUES (?1, ?2, 1) \
             ON CONFLICT (key) DO UPDATE SET \
             hits = CASE WHEN rate_limits.window_started_at <= ?3 THEN 1 ELSE rate_limits.hits + 1 END, \
             window_started_at = CASE WHEN rate_limits.window_started_at <= ?3 THEN ?2 ELSE rate_limits.window_started_at END \
             RETURNING hits, window_started_at"
        }
    };
    let row = db
        .query_one_raw(Statement::from_sql_and_values(
            db.get_database_backend(),
            sql,
            [key.into(), now.into(), window_opened_before.into()],
        ))
        .await?
        .ok_or_else(|| Error::internal(anyhow::anyhow!("rate limit upsert returned nothing")))?;
    let hits: i32 = row.try_get("", "hits")?;
    let started: DateTime<Utc> = row.try_get("", "window_started_at")?;
    if hits > max {
        let retry_after = (started + window - now).num_seconds().max(1);
        return Err(Error::RateLimited {
            message: message.to_owned(),
            retry_after_secs: u64::try_from(retry_after).unwrap_or(1),
        });
    }
    Ok(())
}
