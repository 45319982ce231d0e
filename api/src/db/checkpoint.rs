//! SQLite's write-ahead log is copied into the database file by a task of its own ([`run`]),
//! not inside whichever commit took the log past a thousand pages.
//!
//! With `synchronous = NORMAL` a commit only appends to the log. The checkpoint that copies the
//! log into the database file is what waits for the disk: a sync of the log, then one of the
//! file, 15-20 ms together on a virtual disk as `fsync`s (SQLite now uses `fdatasync`, see
//! `.cargo/config.toml`). SQLite runs it inside the commit that finds the log at 1,000 pages
//! or more. Under load that was the token endpoint's grouped writer, about twice a second, and
//! every exchange queued for the next group waited behind it (BENCHMARKS.md). Every connection
//! now has the automatic checkpoint off ([`super::connect`]), and a served instance checkpoints
//! every [`EVERY`] on a connection of its own, in SQLite's PASSIVE mode: it copies what no
//! reader still needs, waits for no other connection and makes none wait.
//!
//! A process that does not serve (the commands of `api`) checkpoints when it closes its last
//! connection, as SQLite always does.

use std::time::Duration;

use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend};
use tokio::{sync::watch, time::MissedTickBehavior};

use super::Held;

/// How often the log is copied into the database file. The token endpoint under load grows it
/// by about 2,000 pages a second on this machine, so a checkpoint copies some 500 of them,
/// where SQLite's own waited for 1,000.
const EVERY: Duration = Duration::from_millis(250);

/// Checkpoints `db`'s log every [`EVERY`] until `shutdown` changes; on PostgreSQL, nothing.
/// A checkpoint that fails is tried again at the next tick on a new connection. The first
/// failure is logged as a warning and the recovery as news, not each of four tries a second.
pub async fn run(db: DatabaseConnection, mut shutdown: watch::Receiver<bool>) {
    if db.get_database_backend() != DbBackend::Sqlite {
        return;
    }
    let conn = Held::new(&db);
    let mut every = tokio::time::interval(EVERY);
    every.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut failing = false;
    loop {
        tokio::select! {
            _ = every.tick() => {}
            _ = shutdown.changed() => return,
        }
        // Another instance's checkpoint running at the same moment is no error: this one
        // answers "busy" and the next tick copies what is left.
        match conn.execute_unprepared("PRAGMA wal_checkpoint(PASSIVE)").await {
            Err(err) if !failing => {
                failing = true;
                tracing::warn!(error = %err, "SQLite checkpoints are failing; retrying every {EVERY:?}");
            }
            Ok(_) if failing => {
                failing = false;
                tracing::info!("SQLite checkpoints succeed again");
            }
            _ => {}
        }
    }
}
