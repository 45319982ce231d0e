//! A connection kept by the one task that sends its statements (a coalesced read's reader), instead
//! of one taken from the pool and given back for each statement.
//!
//! sqlx tests every connection given back to its pool with a round trip: on SQLite a hop to the
//! connection's worker thread and back, on PostgreSQL a message to the server and its answer. A
//! reader under load sends one statement after another, so that test doubled its round trips, and
//! each read went to whichever connection the pool handed out. With one connection kept,
//! PostgreSQL spends 35-45 % less on each session check (BENCHMARKS.md).

use std::{sync::Arc, time::Instant};

use sea_orm::{
    ConnectionTrait, DatabaseConnection, DbBackend, DbErr, ExecResult, QueryResult, RuntimeErr, Statement,
    sqlx::{self, AssertSqlSafe, Executor, PgConnection, SqliteConnection, pool::PoolConnection},
};
use sea_query_sqlx::SqlxValues;
use tokio::sync::Mutex;

use super::PING_WHEN_IDLE_FOR;

/// The longest one statement on a kept connection may take: its reads answer in
/// milliseconds. Past it the connection is dropped and the next statement opens another.
const STATEMENT_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

/// A connection taken from `pool` when first needed and kept, with the pool's settings (sqlx's
/// hooks on a new connection run as for any other). It leaves the pool, so the pool's own
/// connections are not fewer for it.
///
/// A statement that fails takes the connection with it (a dropped connection, a restarted
/// database, a crashed worker thread), and the next statement opens another. So does a statement
/// whose caller stops waiting for it, or that takes longer than [`STATEMENT_LIMIT`]: a
/// connection is kept only once its statement has ended well. As the pool does, a connection
/// idle for a while is pinged before its next statement, and replaced if that fails.
pub struct Held {
    pool: DatabaseConnection,
    kept: Mutex<Option<Kept>>,
}

struct Kept {
    conn: Conn,
    /// When its last statement ended.
    used_at: Instant,
}

enum Conn {
    Sqlite(SqliteConnection),
    Postgres(PgConnection),
}

/// What a statement is asked to do.
enum Op<'a> {
    Execute(Statement),
    Unprepared(&'a str),
    Rows(Statement),
}

/// What it did.
enum Done {
    Executed(ExecResult),
    Rows(Vec<QueryResult>),
}

impl Held {
    /// Statements on a connection of `pool`'s, opened on the first one.
    pub fn new(pool: &DatabaseConnection) -> Self {
        Self {
            pool: pool.clone(),
            kept: Mutex::new(None),
        }
    }

    async fn open(&self) -> Result<Conn, sqlx::Error> {
        Ok(match self.pool.get_database_backend() {
            DbBackend::Sqlite => Conn::Sqlite(
                self.pool
                    .get_sqlite_connection_pool()
                    .acquire()
                    .await
                    .map(PoolConnection::detach)?,
            ),
            _ => Conn::Postgres(
                self.pool
                    .get_postgres_connection_pool()
                    .acquire()
                    .await
                    .map(PoolConnection::detach)?,
            ),
        })
    }

    /// The kept connection when it is fresh, or answers a ping; else a new one.
    async fn live(&self, kept: Option<Kept>) -> Result<Conn, DbErr> {
        match kept {
            Some(Kept { conn, used_at }) if used_at.elapsed() < PING_WHEN_IDLE_FOR => return Ok(conn),
            Some(Kept { mut conn, .. }) => {
                let pinged = match &mut conn {
                    Conn::Sqlite(conn) => sqlx::Connection::ping(conn).await,
                    Conn::Postgres(conn) => sqlx::Connection::ping(conn).await,
                };
                if pinged.is_ok() {
                    return Ok(conn);
                }
            }
            None => {}
        }
        self.open()
            .await
            .map_err(|err| DbErr::Conn(RuntimeErr::SqlxError(Arc::new(err))))
    }

    async fn run(&self, op: Op<'_>) -> Result<Done, DbErr> {
        let mut slot = self.kept.lock().await;
        // Out of the slot while the statement runs: dropped with this future, it is not kept.
        let mut conn = self.live(slot.take()).await?;
        let running = async {
            match &mut conn {
                Conn::Sqlite(conn) => run_on::<sqlx::Sqlite>(conn, op).await,
                Conn::Postgres(conn) => run_on::<sqlx::Postgres>(conn, op).await,
            }
        };
        // A connection that went silent (a firewall or failover that dropped it without a
        // reset) would hold this statement, and every check queued behind its reader, for ever.
        let Ok(done) = tokio::time::timeout(STATEMENT_LIMIT, running).await else {
            tracing::error!(
                limit = ?STATEMENT_LIMIT,
                "a kept connection did not answer its statement in time; it is dropped"
            );
            return Err(DbErr::Conn(RuntimeErr::Internal(
                "the database did not answer in time".to_owned(),
            )));
        };
        match done {
            Ok(done) => {
                *slot = Some(Kept {
                    conn,
                    used_at: Instant::now(),
                });
                Ok(done)
            }
            // Any failure: on PostgreSQL even a refusal may be the server ending the connection
            // (FATAL), and a statement refused for itself is a defect, rare enough to reconnect.
            Err(err) => Err(DbErr::Query(RuntimeErr::SqlxError(Arc::new(err)))),
        }
    }
}

/// `op` on one connection of database `DB`.
async fn run_on<DB>(conn: &mut DB::Connection, op: Op<'_>) -> Result<Done, sqlx::Error>
where
    DB: sqlx::Database,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    SqlxValues: sqlx::IntoArguments<DB>,
    QueryResult: From<DB::Row>,
    ExecResult: From<DB::QueryResult>,
{
    // The statement is moved in: a read's text and values are not copied.
    let query = |statement: Statement| {
        let values = statement.values.unwrap_or(sea_orm::Values(Vec::new()));
        sqlx::query_with(AssertSqlSafe(statement.sql), SqlxValues(values))
    };
    Ok(match op {
        Op::Execute(statement) => Done::Executed(query(statement).execute(&mut *conn).await?.into()),
        Op::Unprepared(sql) => Done::Executed(conn.execute(AssertSqlSafe(sql.to_owned())).await?.into()),
        Op::Rows(statement) => Done::Rows(
            query(statement)
                .fetch_all(&mut *conn)
                .await?
                .into_iter()
                .map(QueryResult::from)
                .collect(),
        ),
    })
}

#[async_trait::async_trait]
impl ConnectionTrait for Held {
    fn get_database_backend(&self) -> DbBackend {
        self.pool.get_database_backend()
    }

    async fn execute_raw(&self, statement: Statement) -> Result<ExecResult, DbErr> {
        match self.run(Op::Execute(statement)).await? {
            Done::Executed(result) => Ok(result),
            Done::Rows(_) => unreachable!("an execution answers with its result"),
        }
    }

    async fn execute_unprepared(&self, sql: &str) -> Result<ExecResult, DbErr> {
        match self.run(Op::Unprepared(sql)).await? {
            Done::Executed(result) => Ok(result),
            Done::Rows(_) => unreachable!("an execution answers with its result"),
        }
    }

    async fn query_one_raw(&self, statement: Statement) -> Result<Option<QueryResult>, DbErr> {
        Ok(self.query_all_raw(statement).await?.into_iter().next())
    }

    async fn query_all_raw(&self, statement: Statement) -> Result<Vec<QueryResult>, DbErr> {
        match self.run(Op::Rows(statement)).await? {
            Done::Rows(rows) => Ok(rows),
            Done::Executed(_) => unreachable!("a query answers with its rows"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn count(db: &Held, sql: &str) -> Result<i64, DbErr> {
        let row = db
            .query_one_raw(Statement::from_string(db.get_database_backend(), sql))
            .await?
            .expect("a row");
        Ok(row.try_get_by_index::<i64>(0).unwrap())
    }

    #[tokio::test]
    async fn statements_share_one_connection_until_one_fails() {
        let (_dir, pool) = crate::test_support::database().await;
        let held = Held::new(&pool);
        // A temporary table is its connection's alone.
        held.execute_unprepared("CREATE TEMP TABLE mine (n INTEGER)")
            .await
            .unwrap();
        held.execute_raw(Statement::from_sql_and_values(
            DbBackend::Sqlite,
            "INSERT INTO mine VALUES (?), (?)",
            [1.into(), 2.into()],
        ))
        .await
        .unwrap();
        assert_eq!(count(&held, "SELECT COUNT(*) FROM mine").await.unwrap(), 2);
        let pooled = pool
            .query_one_raw(Statement::from_string(
                DbBackend::Sqlite,
                "SELECT COUNT(*) FROM mine",
            ))
            .await;
        assert!(pooled.is_err(), "the pool's connection saw the held one's table");

        assert!(count(&held, "SELECT COUNT(*) FROM nowhere").await.is_err());
        // The next statement runs, on a new connection: the table went with the old one.
        assert_eq!(count(&held, "SELECT 7").await.unwrap(), 7);
        assert!(count(&held, "SELECT COUNT(*) FROM mine").await.is_err());
    }
}
