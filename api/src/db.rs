//! Database connection: SQLite tuned for concurrent writers, or PostgreSQL; migrations.

use std::time::Duration;

use anyhow::Context;
use migration::{Migrator, MigratorTrait};
use sea_orm::{
    ConnectOptions, Database, DatabaseConnection, DbErr, SqliteTransactionMode, TransactionOptions,
    TransactionTrait,
};

pub mod checkpoint;
mod held;
mod no_delay;

pub use held::Held;
use no_delay::no_delay;

/// How long a statement waits for a free connection before it is answered 503.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// A connection idle this long is pinged before its next statement: one that the database, a
/// firewall or a proxy dropped while it was idle is replaced before a request meets it.
const PING_WHEN_IDLE_FOR: Duration = Duration::from_secs(1);

/// Opens the pool. SQLite runs in WAL mode with foreign keys on and waits up to 10 s for
/// another connection's write, so the embedded default survives concurrent writers and a
/// crash; its parent folder is created. No commit copies the log into the database file: a
/// served instance does that on a task of its own ([`checkpoint::run`]).
///
/// # Errors
/// When the database cannot be reached or the SQLite folder cannot be created.
pub async fn connect(url: &str) -> anyhow::Result<DatabaseConnection> {
    let mut options = ConnectOptions::new(url.to_owned());
    options
        .sqlx_logging(false)
        .connect_timeout(Duration::from_secs(5))
        .acquire_timeout(ACQUIRE_TIMEOUT)
        // A connection is pinged before use only once it has been idle a while (a database
        // restart or a dropped idle connection is caught there); pinging on every checkout
        // cost a round trip per statement, a fifth of PostgreSQL's work per sign-in. A hot
        // connection that breaks fails its statement (503) and is replaced.
        .test_before_acquire_if_idle_for(PING_WHEN_IDLE_FOR);
    if url.starts_with("sqlite:") {
        ensure_sqlite_folder(url)?;
        options
            .max_connections(8)
            .min_connections(1)
            .map_sqlx_sqlite_opts(|opts| {
                opts.journal_mode(sea_orm::sqlx::sqlite::SqliteJournalMode::Wal)
                    .synchronous(sea_orm::sqlx::sqlite::SqliteSynchronous::Normal)
                    .foreign_keys(true)
                    // SQLite's temporary tables in memory, not in files: an `UPDATE … RETURNING`
                    // gathers its rows in one, and each grouped write of the token endpoint
                    // created, wrote and deleted a file in /var/tmp for it.
                    .pragma("temp_store", "memory")
                    // No checkpoint inside a commit: a served instance checkpoints on a task of
                    // its own (`checkpoint::run`), so no commit waits for its two `fsync`s.
                    .pragma("wal_autocheckpoint", "0")
            })
            .map_sqlx_sqlite_pool_opts(|pool| {
                pool.after_connect(|conn, _| Box::pin(async move { tune(conn).await }))
                    .after_release(|conn, _| Box::pin(async move { settled(conn).await }))
            });
    } else {
        // A few connections open from the start: opening one takes PostgreSQL tens of
        // milliseconds, which the first requests under load would otherwise wait out.
        options
            .max_connections(20)
            .min_connections(4)
            .map_sqlx_postgres_pool_opts(|pool| {
                pool.after_connect(|conn, _| Box::pin(async move { no_delay(conn).await }))
            });
    }
    Database::connect(options)
        .await
        .context("could not connect to the database")
}

/// The connection for the writes one task makes in turn (the provider's grouped writes of codes
/// and exchanges): on SQLite a pool of one connection of its own, opened on first use with the
/// shared pool's settings; on PostgreSQL the shared pool.
///
/// A SQLite connection keeps the pages it read until another connection commits. Taken from
/// the shared pool, the writer's connection had always seen other connections' commits (the
/// writer's own, made on another connection) and read every page it touched again. Its own
/// connection, which only the writer writes on, keeps them from one group to the next.
pub fn dedicated_writer(db: &DatabaseConnection) -> DatabaseConnection {
    use sea_orm::{DbBackend, SqlxSqliteConnector, sqlx::sqlite::SqlitePoolOptions};
    if db.get_database_backend() != DbBackend::Sqlite {
        return db.clone();
    }
    let shared = db.get_sqlite_connection_pool();
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .min_connections(0)
        .acquire_timeout(ACQUIRE_TIMEOUT)
        // One connection, used only in turn: a file does not drop it as a server would.
        .test_before_acquire(false)
        .after_connect(|conn, _| Box::pin(async move { tune(conn).await }))
        .after_release(|conn, _| Box::pin(async move { settled(conn).await }))
        .connect_lazy_with((*shared.connect_options()).clone());
    SqlxSqliteConnector::from_sqlx_sqlite_pool(pool)
}

/// Begins a transaction that writes. On SQLite it is `BEGIN IMMEDIATE`, which takes the write
/// lock at once (waiting for it as any write does): a transaction begun plainly reads from a
/// snapshot, and when it then comes to write after another connection has committed, SQLite
/// refuses it outright (`SQLITE_BUSY_SNAPSHOT`, which no waiting cures): a 500 for the
/// request. On PostgreSQL it is a plain `BEGIN`.
///
/// # Errors
/// When the database cannot be reached, or the lock was not free within the busy wait.
pub async fn begin_write<C: TransactionTrait>(db: &C) -> Result<C::Transaction, DbErr> {
    db.begin_with_options(TransactionOptions {
        sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
        ..TransactionOptions::default()
    })
    .await
}

/// Brings the schema up to date.
///
/// # Errors
/// When a migration fails.
pub async fn migrate(db: &DatabaseConnection) -> anyhow::Result<()> {
    if db.get_database_backend() != sea_orm::DbBackend::Postgres {
        // One process's file: SQLite's own write lock orders two migrations of it.
        return Migrator::up(db, None).await.context("database migration failed");
    }
    // Instances started together on one new database would each create the same tables, and
    // all but one fail on PostgreSQL's catalog; one at a time, the later ones find the work
    // done. The lock is the session's: it goes with the connection if this process dies.
    use sea_orm::sqlx;
    let mut lock = db
        .get_postgres_connection_pool()
        .acquire()
        .await
        .context("could not connect to the database")?;
    sqlx::query("SELECT pg_advisory_lock($1)")
        .bind(MIGRATION_LOCK)
        .execute(&mut *lock)
        .await
        .context("could not take the migration lock")?;
    let migrated = Migrator::up(db, None).await.context("database migration failed");
    let unlocked = sqlx::query("SELECT pg_advisory_unlock($1)")
        .bind(MIGRATION_LOCK)
        .execute(&mut *lock)
        .await;
    if unlocked.is_err() {
        // Closing the session lets the lock go.
        lock.detach();
    }
    migrated
}

/// The PostgreSQL advisory lock that migrations hold ("TalentS1" read as a number).
const MIGRATION_LOCK: i64 = 0x5461_6c65_6e74_5331;

/// What a new SQLite connection needs that sqlx has no option for: plans that depend on the
/// SQL alone, and a short wait for another connection's write.
async fn tune(conn: &mut sea_orm::sqlx::SqliteConnection) -> Result<(), sea_orm::sqlx::Error> {
    let mut handle = conn.lock_handle().await?;
    stable_plans(&mut handle)?;
    wait_briefly_when_busy(&mut handle)
}

/// Whether a connection given back to its pool is outside every transaction, as it must be
/// between two uses; the pool closes it otherwise (which rolls back what it holds).
///
/// A `COMMIT` that fails (`SQLITE_FULL`: the disk is full) keeps sqlx's count of the
/// transaction, and the rollback queued when it is dropped may fail too (a statement still in
/// progress; a transaction SQLite already ended). The next request given the connection would
/// then start a savepoint instead of a transaction: inside the open one, its "commit" releases
/// the savepoint and commits nothing, a write answered 201 and lost (an outside probe filling
/// the disk lost a quarter of the registrations it was told were made); outside it, its write
/// goes without the `BEGIN IMMEDIATE` every write takes.
async fn settled(conn: &mut sea_orm::sqlx::SqliteConnection) -> Result<bool, sea_orm::sqlx::Error> {
    use sea_orm::sqlx::Connection;
    // sqlx counts no transaction: none was begun through it, and none is left (a `COMMIT`
    // that fails keeps its count). The check costs nothing then.
    if !conn.is_in_transaction() {
        return Ok(true);
    }
    // A transaction was dropped, and the rollback it queued may not have run yet. The lock
    // goes through the connection's worker after it, so both counts below are read once it
    // has: a rollback that itself failed leaves them showing.
    let mut handle = conn.lock_handle().await?;
    // SAFETY: the handle is this connection's open database, held exclusively through its
    // lock for the length of the call, which only reads the connection's state.
    let autocommit = unsafe { libsqlite3_sys::sqlite3_get_autocommit(handle.as_raw_handle().as_ptr()) } != 0;
    drop(handle);
    let counted_open = conn.is_in_transaction();
    if autocommit && !counted_open {
        Ok(true)
    } else {
        tracing::warn!(
            autocommit,
            counted_open,
            "a SQLite connection came back inside a transaction (a failed commit); it is closed"
        );
        Ok(false)
    }
}

/// Turns on SQLite's query planner stability guarantee for a new connection.
///
/// Without it SQLite plans `LIMIT ?` with the value bound at the time, and marks the
/// statement stale whenever that parameter is bound again: every `.one()` (which binds its
/// `LIMIT 1`) was compiled afresh on each run instead of once per connection, a tenth of the
/// token endpoint's CPU. With it, a plan depends on the SQL alone. Nothing here depends on a
/// bound value's plan: no statement filters with `LIKE ?` or `GLOB ?`, and no statistics are
/// gathered (`ANALYZE`).
fn stable_plans(
    handle: &mut sea_orm::sqlx::sqlite::LockedSqliteHandle<'_>,
) -> Result<(), sea_orm::sqlx::Error> {
    match planner_stability(handle, Some(true)) {
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

/// How many times a statement tries again while another connection writes: with
/// [`busy_wait`]'s steps, 10 seconds before it fails with "database is locked".
const BUSY_TRIES: std::ffi::c_int = 10_000;

/// Waits out another connection's write in steps of at most a millisecond, for up to 10 s.
///
/// SQLite's own busy timeout sleeps 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50 and then 100 ms
/// between tries. Under many writers the lock goes to whichever connection tries at the moment
/// it is free, so one that lost a few times slept tens of milliseconds while the lock was
/// free: the token endpoint's p99 on SQLite was 200-330 ms against a p50 of 9, and is 31-47 ms
/// with this handler (BENCHMARKS.md). Polling costs the waiting threads about 0.1 ms of CPU
/// per exchange.
fn wait_briefly_when_busy(
    handle: &mut sea_orm::sqlx::sqlite::LockedSqliteHandle<'_>,
) -> Result<(), sea_orm::sqlx::Error> {
    // SAFETY: the handle is this connection's open database, held exclusively through its
    // lock for the length of the call; the handler keeps no state, so its argument is null.
    let rc = unsafe {
        libsqlite3_sys::sqlite3_busy_handler(
            handle.as_raw_handle().as_ptr(),
            Some(busy_wait),
            std::ptr::null_mut(),
        )
    };
    if rc == libsqlite3_sys::SQLITE_OK {
        Ok(())
    } else {
        Err(sea_orm::sqlx::Error::Protocol(format!(
            "SQLite refused the busy handler (code {rc})"
        )))
    }
}

/// SQLite's busy handler: called on the connection's own thread with the number of tries so
/// far; sleeps 0.1, 0.2, … 1 ms, then 1 ms a try, and answers 0 (give up) after
/// [`BUSY_TRIES`].
extern "C" fn busy_wait(_: *mut std::ffi::c_void, tries: std::ffi::c_int) -> std::ffi::c_int {
    if tries >= BUSY_TRIES {
        return 0;
    }
    let step = u64::try_from(tries).unwrap_or(0).saturating_add(1).min(10);
    std::thread::sleep(Duration::from_micros(100 * step));
    1
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
    async fn a_connection_given_back_inside_a_transaction_is_closed_not_lent_again() {
        use sea_orm::{ConnectionTrait, sqlx};
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}/settled.db?mode=rwc", dir.path().display());
        let db = connect(&url).await.unwrap();
        db.execute_unprepared("CREATE TABLE t (x INTEGER)").await.unwrap();
        {
            let mut conn = db.get_sqlite_connection_pool().acquire().await.unwrap();
            // What a COMMIT that failed, and then the rollback after it (a statement still in
            // progress), leave: a transaction open and counted, holding a write nobody will
            // commit.
            let mut txn = sqlx::Connection::begin(&mut *conn).await.unwrap();
            sqlx::query("INSERT INTO t VALUES (1)")
                .execute(&mut *txn)
                .await
                .unwrap();
            std::mem::forget(txn);
        }
        // Every later write commits, whichever connection the pool lends it.
        for _ in 0..8 {
            let txn = begin_write(&db).await.unwrap();
            txn.execute_unprepared("INSERT INTO t VALUES (2)").await.unwrap();
            txn.commit().await.unwrap();
        }
        let count = |sql: &'static str| {
            let url = url.clone();
            async move {
                let other = connect(&url).await.unwrap();
                let row = other
                    .query_one_raw(sea_orm::Statement::from_string(other.get_database_backend(), sql))
                    .await
                    .unwrap()
                    .unwrap();
                row.try_get_by_index::<i64>(0).unwrap()
            }
        };
        assert_eq!(
            count("SELECT COUNT(*) FROM t WHERE x = 2").await,
            8,
            "all committed"
        );
        assert_eq!(
            count("SELECT COUNT(*) FROM t WHERE x = 1").await,
            0,
            "rolled back"
        );
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

    #[tokio::test]
    async fn every_sqlite_connection_keeps_temporary_tables_in_memory() {
        use sea_orm::{ConnectionTrait, Statement};
        let (_dir, db) = crate::test_support::database().await;
        for conn in [db.clone(), dedicated_writer(&db)] {
            let row = conn
                .query_one_raw(Statement::from_string(
                    conn.get_database_backend(),
                    "PRAGMA temp_store",
                ))
                .await
                .unwrap()
                .unwrap();
            // 2 is MEMORY; the default, 0, lets SQLite use files.
            assert_eq!(row.try_get_by_index::<i32>(0).unwrap(), 2);
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_transaction_that_reads_then_writes_is_not_refused_for_a_write_in_between() {
        use sea_orm::ConnectionTrait;
        let dir = tempfile::tempdir().unwrap();
        let db = connect(&format!("sqlite://{}/snapshot.db?mode=rwc", dir.path().display()))
            .await
            .unwrap();
        db.execute_unprepared("CREATE TABLE t (n INTEGER)").await.unwrap();
        let txn = begin_write(&db).await.unwrap();
        txn.execute_unprepared("SELECT COUNT(*) FROM t").await.unwrap();
        // Another connection writes meanwhile: it waits for this transaction (with a plain
        // BEGIN it would commit at once, and this transaction's write below be refused).
        let mut other = tokio::spawn({
            let db = db.clone();
            async move {
                db.execute_unprepared("INSERT INTO t VALUES (1)")
                    .await
                    .map(|_| ())
            }
        });
        let waited = tokio::time::timeout(Duration::from_millis(200), &mut other).await;
        assert!(waited.is_err(), "the other write went ahead: {waited:?}");
        txn.execute_unprepared("INSERT INTO t VALUES (2)")
            .await
            .expect("this transaction's write");
        txn.commit().await.unwrap();
        other
            .await
            .unwrap()
            .expect("the other write, once the lock was free");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_write_waits_for_another_connections_transaction_instead_of_failing() {
        let dir = tempfile::tempdir().unwrap();
        let db = connect(&format!("sqlite://{}/busy.db?mode=rwc", dir.path().display()))
            .await
            .unwrap();
        let pool = db.get_sqlite_connection_pool().clone();
        sea_orm::sqlx::query("CREATE TABLE t (n INTEGER)")
            .execute(&pool)
            .await
            .unwrap();
        let mut holder = pool.acquire().await.unwrap();
        sea_orm::sqlx::query("BEGIN IMMEDIATE")
            .execute(&mut *holder)
            .await
            .unwrap();
        sea_orm::sqlx::query("INSERT INTO t VALUES (1)")
            .execute(&mut *holder)
            .await
            .unwrap();
        let waiter = tokio::spawn({
            let pool = pool.clone();
            async move {
                sea_orm::sqlx::query("INSERT INTO t VALUES (2)")
                    .execute(&pool)
                    .await
            }
        });
        // The other write is stuck behind the open transaction, not refused.
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(
            !waiter.is_finished(),
            "the second write ended while the first held the lock"
        );
        sea_orm::sqlx::query("COMMIT")
            .execute(&mut *holder)
            .await
            .unwrap();
        waiter
            .await
            .unwrap()
            .expect("the second write goes through once the first commits");
        let rows: i64 = sea_orm::sqlx::query_scalar("SELECT COUNT(*) FROM t")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(rows, 2);
    }
}
