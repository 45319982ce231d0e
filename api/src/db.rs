//! Database connection: SQLite tuned for concurrent writers, or PostgreSQL; migrations.

use std::time::Duration;

use anyhow::Context;
use migration::{Migrator, MigratorTrait};
use sea_orm::{ConnectOptions, Database, DatabaseConnection};

/// Opens the pool. SQLite runs in WAL mode with foreign keys on and a busy timeout, so the
/// embedded default survives concurrent writers and a crash; its parent folder is created.
///
/// # Errors
/// When the database cannot be reached or the SQLite folder cannot be created.
pub async fn connect(url: &str) -> anyhow::Result<DatabaseConnection> {
    let mut options = ConnectOptions::new(url.to_owned());
    options
        .sqlx_logging(false)
        .connect_timeout(Duration::from_secs(5))
        .acquire_timeout(Duration::from_secs(5))
        // A connection is pinged before use only once it has been idle a while (a database
        // restart or a dropped idle connection is caught there); pinging on every checkout
        // cost a round trip per statement, a fifth of PostgreSQL's work per sign-in. A hot
        // connection that breaks fails its statement (503) and is replaced.
        .test_before_acquire_if_idle_for(Duration::from_secs(1));
    if url.starts_with("sqlite:") {
        ensure_sqlite_folder(url)?;
        options
            .max_connections(8)
            .min_connections(1)
            .map_sqlx_sqlite_opts(|opts| {
                opts.journal_mode(sea_orm::sqlx::sqlite::SqliteJournalMode::Wal)
                    .synchronous(sea_orm::sqlx::sqlite::SqliteSynchronous::Normal)
                    .foreign_keys(true)
                    .busy_timeout(Duration::from_secs(10))
            })
            .map_sqlx_sqlite_pool_opts(|pool| {
                pool.after_connect(|conn, _| Box::pin(async move { stable_plans(conn).await }))
            });
    } else {
        // A few connections open from the start: opening one takes PostgreSQL tens of
        // milliseconds, which the first requests under load would otherwise wait out.
        options.max_connections(20).min_connections(4);
    }
    Database::connect(options)
        .await
        .context("could not connect to the database")
}

/// Brings the schema up to date.
///
/// # Errors
/// When a migration fails.
pub async fn migrate(db: &DatabaseConnection) -> anyhow::Result<()> {
    Migrator::up(db, None).await.context("database migration failed")
}

/// Turns on SQLite's query planner stability guarantee for a new connection.
///
/// Without it SQLite plans `LIMIT ?` with the value bound at the time, and marks the
/// statement stale whenever that parameter is bound again: every `.one()` (which binds its
/// `LIMIT 1`) was compiled afresh on each run instead of once per connection, a tenth of the
/// token endpoint's CPU. With it, a plan depends on the SQL alone. Nothing here depends on a
/// bound value's plan: no statement filters with `LIKE ?` or `GLOB ?`, and no statistics are
/// gathered (`ANALYZE`).
async fn stable_plans(conn: &mut sea_orm::sqlx::SqliteConnection) -> Result<(), sea_orm::sqlx::Error> {
    let mut handle = conn.lock_handle().await?;
    match planner_stability(&mut handle, Some(true)) {
        Ok(true) => Ok(()),
        Ok(false) => Err(sea_orm::sqlx::Error::Protocol(
            "SQLite kept the query planner stability guarantee off".to_owned(),
        )),
        Err(rc) => Err(sea_orm::sqlx::Error::Protocol(format!(
            "SQLite refused the query planner stability guarantee (code {rc})"
        ))),
    }
}

/// Sets the query planner stability guarantee of one connection (`None` leaves it), and
/// answers whether it is on afterwards, or SQLite's error code.
fn planner_stability(
    handle: &mut sea_orm::sqlx::sqlite::LockedSqliteHandle<'_>,
    turn_on: Option<bool>,
) -> Result<bool, std::ffi::c_int> {
    let set: std::ffi::c_int = match turn_on {
        Some(on) => on.into(),
        None => -1,
    };
    let mut now: std::ffi::c_int = -1;
    // SAFETY: the handle is this connection's open database, held exclusively through its
    // lock for the length of the call, and the arguments are the documented ones of this
    // option: an int (1 on, 0 off, negative to leave it) and where to write the setting back.
    let rc = unsafe {
        libsqlite3_sys::sqlite3_db_config(
            handle.as_raw_handle().as_ptr(),
            libsqlite3_sys::SQLITE_DBCONFIG_ENABLE_QPSG,
            set,
            &raw mut now,
        )
    };
    if rc == libsqlite3_sys::SQLITE_OK {
        Ok(now == 1)
    } else {
        Err(rc)
    }
}

fn ensure_sqlite_folder(url: &str) -> anyhow::Result<()> {
    let path = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:")
        .split('?')
        .next()
        .unwrap_or_default();
    if path.is_empty() || path == ":memory:" {
        return Ok(());
    }
    if let Some(parent) = std::path::Path::new(path)
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
    {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("could not create the database folder {}", parent.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether a connection runs with the query planner stability guarantee.
    async fn plans_are_stable(conn: &mut sea_orm::sqlx::SqliteConnection) -> bool {
        let mut handle = conn.lock_handle().await.unwrap();
        planner_stability(&mut handle, None).unwrap()
    }

    #[tokio::test]
    async fn every_sqlite_connection_plans_from_the_sql_alone() {
        let dir = tempfile::tempdir().unwrap();
        let db = connect(&format!("sqlite://{}/plans.db?mode=rwc", dir.path().display()))
            .await
            .unwrap();
        let pool = db.get_sqlite_connection_pool();
        // Two at once: the pool's first connection and one it opens on demand.
        let mut first = pool.acquire().await.unwrap();
        let mut second = pool.acquire().await.unwrap();
        assert!(plans_are_stable(&mut first).await);
        assert!(plans_are_stable(&mut second).await);
    }
}
