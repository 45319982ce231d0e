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
