//! Limits kept in the database, so every instance counts the same hits: fixed windows for
//! requests, and a growing delay for failed sign-ins.

use chrono::{DateTime, Duration, Utc};
use sea_orm::{ConnectionTrait, DatabaseBackend, EntityTrait, Statement};

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

/// One of several windows a request counts in: its key, window, most hits and refusal.
pub type Limit<'a> = (&'a str, Duration, i32, &'a str);

/// [`hit`]s each limit in turn, shortest window first; the first to refuse is the answer, and
/// the hits taken before it are given back. A request refused by a longer window sent
/// nothing, so it must leave no mark on a shorter one: a code request refused by the hour's cap
/// must not restart the resend cooldown, or the next one would be told the cooldown's minute
/// instead of the hour's wait.
///
/// # Errors
/// The first refusal (429 with its Retry-After), or a database failure.
pub async fn hit_all(db: &impl ConnectionTrait, limits: &[Limit<'_>]) -> Result<()> {
    for (taken, &(key, window, max, message)) in limits.iter().enumerate() {
        if let Err(refused) = hit(db, key, window, max, message).await {
            for &(earlier, ..) in &limits[..taken] {
                unhit(db, earlier).await?;
            }
            return Err(refused);
        }
    }
    Ok(())
}

/// Takes back one [`hit`] of `key`.
///
/// # Errors
/// On a database failure.
pub async fn unhit(db: &impl ConnectionTrait, key: &str) -> Result<()> {
    let sql = match db.get_database_backend() {
        DatabaseBackend::Postgres => "UPDATE rate_limits SET hits = hits - 1 WHERE key = $1 AND hits > 0",
        _ => "UPDATE rate_limits SET hits = hits - 1 WHERE key = ?1 AND hits > 0",
    };
    db.execute_raw(Statement::from_sql_and_values(
        db.get_database_backend(),
        sql,
        [key.into()],
    ))
    .await?;
    Ok(())
}

/// Opens `key`'s window afresh with no hits, for [`hit_while_open`] to count in.
///
/// # Errors
/// On a database failure.
pub async fn open(db: &impl ConnectionTrait, key: &str) -> Result<()> {
    let sql = match db.get_database_backend() {
        DatabaseBackend::Postgres => {
            "INSERT INTO rate_limits (key, window_started_at, hits) VALUES ($1, $2, 0) \
             ON CONFLICT (key) DO UPDATE SET window_started_at = $2, hits = 0"
        }
        _ => {
            "INSERT INTO rate_limits (key, window_started_at, hits) VALUES (?1, ?2, 0) \
             ON CONFLICT (key) DO UPDATE SET window_started_at = ?2, hits = 0"
        }
    };
    db.execute_raw(Statement::from_sql_and_values(
        db.get_database_backend(),
        sql,
        [key.into(), Utc::now().into()],
    ))
    .await?;
    Ok(())
}

/// Counts one hit against `key` only while a window [`open`]ed less than `window` ago lasts:
/// `Ok(false)` when there is none (nothing is counted), past `max` hits the error `refused`
/// makes (nothing is counted either).
///
/// # Errors
/// `refused()`, or a database failure.
pub async fn hit_while_open(
    db: &impl ConnectionTrait,
    key: &str,
    window: Duration,
    max: i32,
    refused: impl FnOnce() -> Error,
) -> Result<bool> {
    let sql = match db.get_database_backend() {
        DatabaseBackend::Postgres => {
            "UPDATE rate_limits SET hits = hits + 1 \
             WHERE key = $1 AND window_started_at > $2 AND hits < $3 RETURNING hits"
        }
        _ => {
            "UPDATE rate_limits SET hits = hits + 1 \
             WHERE key = ?1 AND window_started_at > ?2 AND hits < ?3 RETURNING hits"
        }
    };
    let backend = db.get_database_backend();
    let opened_after = Utc::now() - window;
    let counted = db
        .query_one_raw(Statement::from_sql_and_values(
            backend,
            sql,
            [key.into(), opened_after.into(), max.into()],
        ))
        .await?;
    if counted.is_some() {
        return Ok(true);
    }
    let open = entity::rate_limits::Entity::find_by_id(key.to_owned())
        .one(db)
        .await?
        .is_some_and(|row| row.window_started_at > opened_after);
    if open { Err(refused()) } else { Ok(false) }
}

/// A growing delay instead of a fixed lock: the first `free` failures cost nothing, then each
/// one blocks the key for twice as long as the one before, from `first` up to `max`. Counts
/// are forgotten after `forget_after` without a failure.
#[derive(Debug, Clone, Copy)]
pub struct Backoff {
    pub free: i32,
    pub first: Duration,
    pub max: Duration,
    pub forget_after: Duration,
}

impl Backoff {
    /// The delay after the `failures`-th failure, if any.
    pub fn delay(&self, failures: i32) -> Option<Duration> {
        let over = failures - self.free;
        if over < 0 {
            return None;
        }
        let doubled = self.first * 2_i32.pow(u32::try_from(over.min(20)).unwrap_or(20));
        Some(doubled.min(self.max))
    }

    /// How many steps the ladder has before it reaches `max`.
    fn steps(&self) -> i32 {
        (0..=20)
            .find(|over| self.delay(self.free + over) == Some(self.max))
            .unwrap_or(20)
            + 1
    }
}

/// An attempt taken against a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Taken {
    /// Failures counted so far, this attempt included.
    pub failures: i32,
}

/// Takes an attempt against `key` before the work it guards, atomically: while the key is
/// blocked the attempt is refused; otherwise it counts as a failure at once (a success gives
/// it back with [`refund`] or [`clear`]), and when the count reaches the ladder the block is
/// set in the same statement, so parallel attempts can never pass it. With `force` the block
/// is ignored (the attempt is still counted).
///
/// # Errors
/// [`Error::RateLimited`] with the seconds left while blocked, or a database failure.
pub async fn take(
    db: &impl ConnectionTrait,
    key: &str,
    backoff: Backoff,
    force: bool,
    message: &str,
) -> Result<Taken> {
    let backend = db.get_database_backend();
    let now = Utc::now();
    let p = |n: usize| match backend {
        DatabaseBackend::Postgres => format!("${n}"),
        _ => format!("?{n}"),
    };
    // $1 key, $2 now, $3 forget-before, $4 force, $5.. the block of each step of the ladder.
    let mut values: Vec<sea_orm::Value> = vec![
        key.into(),
        now.into(),
        (now - backoff.forget_after).into(),
        force.into(),
    ];
    let steps = backoff.steps();
    let first_step = values.len() + 1;
    for step in 0..steps {
        let delay = backoff.delay(backoff.free + step).unwrap_or(backoff.max);
        values.push((now + delay).into());
    }
    let block = |count: &str| {
        let mut sql = format!("CASE WHEN {count} < {} THEN NULL", backoff.free);
        for step in 0..steps {
            let param = p(first_step + usize::try_from(step).unwrap_or(0));
            if step + 1 == steps {
                sql.push_str(&format!(" ELSE {param} END"));
            } else {
                sql.push_str(&format!(" WHEN {count} = {} THEN {param}", backoff.free + step));
            }
        }
        sql
    };
    let (k, now_p, forget, force_p) = (p(1), p(2), p(3), p(4));
    let fresh = "login_throttles.updated_at <= ".to_owned() + &forget;
    let sql = format!(
        "INSERT INTO login_throttles (key, failures, blocked_until, updated_at) VALUES ({k}, 1, {block1}, {now_p}) \
         ON CONFLICT (key) DO UPDATE SET \
         failures = CASE WHEN {fresh} THEN 1 ELSE login_throttles.failures + 1 END, \
         blocked_until = CASE WHEN {fresh} THEN {block1} ELSE {block_next} END, \
         updated_at = {now_p} \
         WHERE {force_p} OR login_throttles.blocked_until IS NULL OR login_throttles.blocked_until <= {now_p} \
         RETURNING failures",
        block1 = block("1"),
        block_next = block("(login_throttles.failures + 1)"),
    );
    let row = db
        .query_one_raw(Statement::from_sql_and_values(backend, sql, values))
        .await?;
    if let Some(row) = row {
        return Ok(Taken {
            failures: row.try_get("", "failures")?,
        });
    }
    // No row: the update's condition refused it, so the key is blocked.
    let blocked = entity::login_throttles::Entity::find_by_id(key.to_owned())
        .one(db)
        .await?
        .and_then(|row| row.blocked_until)
        .unwrap_or(now);
    Err(Error::RateLimited {
        message: message.to_owned(),
        retry_after_secs: u64::try_from((blocked - now).num_seconds().max(1)).unwrap_or(1),
    })
}

/// Gives back one attempt taken with [`take`] (the attempt succeeded), and lifts the key's
/// block. [`take`] sets the block that the next failure would earn before the attempt is
/// proven, so attempts in flight together (right passwords from one campus address, a right
/// code sent twice) and an owner signing in after someone else's failures each left a block
/// on a key whose attempt proved good: the owner's next sign-in, or every browser's, was
/// refused. The failures before it stay counted, so the next wrong attempt is blocked again.
///
/// # Errors
/// On a database failure.
pub async fn refund(db: &impl ConnectionTrait, key: &str) -> Result<()> {
    use entity::login_throttles::{Column, Entity};
    use sea_orm::{
        ColumnTrait, QueryFilter,
        sea_query::{Expr, ExprTrait},
    };
    Entity::update_many()
        .col_expr(Column::Failures, Expr::col(Column::Failures).sub(1))
        .col_expr(
            Column::BlockedUntil,
            Expr::value(Option::<chrono::DateTime<Utc>>::None),
        )
        .filter(Column::Key.eq(key))
        .filter(Column::Failures.gt(0))
        .exec(db)
        .await?;
    Ok(())
}

/// Settles the attempts of a sign-in that succeeded, in one statement: `clear`'s key forgets
/// its failures and its block, and each key of `refund` gets its attempt back and its block
/// lifted, as [`refund`] does.
///
/// # Errors
/// On a database failure.
pub async fn give_back(db: &impl ConnectionTrait, clear: Option<&str>, refund: &[&str]) -> Result<()> {
    let backend = db.get_database_backend();
    let p = |n: usize| match backend {
        DatabaseBackend::Postgres => format!("${n}"),
        _ => format!("?{n}"),
    };
    let keys: Vec<&str> = clear.into_iter().chain(refund.iter().copied()).collect();
    if keys.is_empty() {
        return Ok(());
    }
    let listed = (1..=keys.len()).map(p).collect::<Vec<_>>().join(", ");
    let sql = if clear.is_some() {
        let c = p(1);
        format!(
            "UPDATE login_throttles SET \
             failures = CASE WHEN key = {c} THEN 0 ELSE failures - 1 END, blocked_until = NULL \
             WHERE key IN ({listed}) AND (key = {c} OR failures > 0)"
        )
    } else {
        format!(
            "UPDATE login_throttles SET failures = failures - 1, blocked_until = NULL \
             WHERE key IN ({listed}) AND failures > 0"
        )
    };
    db.execute_raw(Statement::from_sql_and_values(
        backend,
        sql,
        keys.into_iter().map(sea_orm::Value::from),
    ))
    .await?;
    Ok(())
}

/// Forgets a key: its failures and its block.
///
/// # Errors
/// On a database failure.
pub async fn clear(db: &impl ConnectionTrait, key: &str) -> Result<()> {
    entity::login_throttles::Entity::delete_by_id(key.to_owned())
        .exec(db)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delay_doubles_after_the_free_failures_up_to_the_cap() {
        let backoff = Backoff {
            free: 5,
            first: Duration::seconds(15),
            max: Duration::minutes(15),
            forget_after: Duration::days(1),
        };
        assert_eq!(backoff.delay(4), None);
        assert_eq!(backoff.delay(5), Some(Duration::seconds(15)));
        assert_eq!(backoff.delay(6), Some(Duration::seconds(30)));
        assert_eq!(backoff.delay(9), Some(Duration::seconds(240)));
        assert_eq!(backoff.delay(11), Some(Duration::minutes(15)));
        assert_eq!(backoff.delay(500), Some(Duration::minutes(15)));
        // 15 s, 30 s, 1, 2, 4, 8 min, then the 15 min cap.
        assert_eq!(backoff.steps(), 7);
    }
}
