//! Session lookups, coalesced: lookups that arrive while a read is at the database wait for
//! the next read, and that read fetches every session waiting on it in one query.
//!
//! This is not a cache. Every lookup is answered by a read that *started after the lookup
//! arrived*, so it sees every logout, password change, suspension and deletion committed
//! before it, on any instance: a revoked session is refused everywhere at once. What
//! coalescing saves is the per-query cost (a round trip to PostgreSQL, a hop to SQLite's
//! worker thread, a statement), which under load is most of a session check.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, PoisonError},
};

use entity::{sessions, users};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, DbBackend, DbErr, EntityTrait, FromQueryResult,
    IdenStatic, Iterable, QueryFilter, QuerySelect, QueryTrait, RelationTrait, Statement, Value,
    sea_query::JoinType,
};
use tokio::sync::watch;
use uuid::Uuid;

use crate::{
    batch::{Drain, padded_chunks},
    error::{Error, Result},
};

/// How many ids a query asks for: a batch is padded up to the next of these (repeating an
/// id), so the database sees five statements, each prepared once per connection, instead of
/// one per batch size (a prepared statement per size and connection held 30 MiB under load).
const QUERY_SIZES: [usize; 5] = [1, 4, 16, 64, 256];

/// A session and the account it belongs to, as one read found them.
pub type SessionRow = (sessions::Model, users::Model);

/// What one read found, shared by every lookup that waited on it; each row is shared too, so a
/// lookup copies only what it keeps (the account), not the session's strings.
type Found = std::result::Result<HashMap<Uuid, Arc<SessionRow>>, ReadFailed>;

/// Why a read failed, kept so each waiting lookup can answer with its own error (the cause
/// is logged once, by the read).
#[derive(Debug, Clone, Copy)]
enum ReadFailed {
    Unavailable,
    Internal,
}

impl From<ReadFailed> for Error {
    fn from(failed: ReadFailed) -> Self {
        match failed {
            ReadFailed::Unavailable => Self::Unavailable,
            ReadFailed::Internal => Self::internal(anyhow::anyhow!("the session lookup failed")),
        }
    }
}

/// The lookups waiting for the next read.
struct Batch {
    ids: Vec<Uuid>,
    found: watch::Sender<Option<Arc<Found>>>,
}

impl Batch {
    fn new() -> Self {
        Self {
            ids: Vec::new(),
            found: watch::Sender::new(None),
        }
    }
}

#[derive(Default)]
struct Queue {
    /// Filled by arriving lookups; taken whole by the reader.
    next: Option<Batch>,
    /// Whether a reader task is running (it runs until no lookup waits).
    reading: bool,
}

pub struct SessionLookup {
    db: DatabaseConnection,
    /// The read of each of [`QUERY_SIZES`], built once (see [`read_sql`]).
    statements: [String; QUERY_SIZES.len()],
    queue: Mutex<Queue>,
}

/// Where a read's row names the session's columns: `s_id`, `s_user_id`, …
const SESSION_COLUMNS: &str = "s_";

/// The read of `size` sessions by id with their accounts: the account's columns under their
/// own names, the session's after [`SESSION_COLUMNS`]. It is built once per size, not per read:
/// SeaORM's builder (every column quoted, every alias formatted) cost as much as running it.
/// And it is not SeaORM's `find_also_related`, which names both models' columns with a
/// prefix that decoding a row formats again for each column: a third of a row's cost.
fn read_sql(backend: DbBackend, size: usize) -> String {
    let select = sessions::Column::iter().fold(
        users::Entity::find()
            .join(JoinType::InnerJoin, users::Relation::Sessions.def())
            .filter(sessions::Column::Id.is_in(vec![Uuid::nil(); size])),
        |select, column| select.column_as(column, format!("{SESSION_COLUMNS}{}", column.as_str())),
    );
    select.build(backend).sql
}

impl SessionLookup {
    pub fn new(db: DatabaseConnection) -> Self {
        let backend = db.get_database_backend();
        Self {
            statements: QUERY_SIZES.map(|size| read_sql(backend, size)),
            db,
            queue: Mutex::default(),
        }
    }

    /// The session `id` and its account, as a read that started after this call found them;
    /// `None` when there is no such session.
    ///
    /// # Errors
    /// When the database could not be read (503 when it is unreachable).
    pub async fn find(self: &Arc<Self>, id: Uuid) -> Result<Option<Arc<SessionRow>>> {
        let (mut found, start_reader) = {
            let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
            let batch = queue.next.get_or_insert_with(Batch::new);
            batch.ids.push(id);
            let found = batch.found.subscribe();
            let start_reader = !queue.reading;
            queue.reading = true;
            (found, start_reader)
        };
        if start_reader {
            tokio::spawn(Arc::clone(self).read_until_idle());
        }
        // The sender goes away without a value only if the reader died: answer 503.
        let outcome = found
            .wait_for(Option::is_some)
            .await
            .map_err(|_| Error::Unavailable)?
            .clone()
            .ok_or(Error::Unavailable)?;
        match &*outcome {
            Ok(rows) => Ok(rows.get(&id).cloned()),
            Err(failed) => Err((*failed).into()),
        }
    }

    /// Reads batch after batch until a read ends with nobody waiting.
    async fn read_until_idle(self: Arc<Self>) {
        // Should this task die (a panic), the next lookup starts a new reader, and lookups
        // already queued are answered (503) instead of left waiting: their sender is dropped.
        let mut drain = Drain::new(&self.queue, |queue: &mut Queue| {
            queue.reading = false;
            queue.next = None;
        });
        loop {
            let batch = {
                let mut queue = drain.lock();
                match queue.next.take() {
                    Some(batch) => batch,
                    None => {
                        // In the same critical section as finding the queue empty: a lookup
                        // arriving next sees no reader and starts one.
                        queue.reading = false;
                        drop(queue);
                        drain.done();
                        return;
                    }
                }
            };
            let found = self.read(batch.ids).await;
            batch.found.send_replace(Some(Arc::new(found)));
            // The pool takes a connection back on a task of its own, spawned as the read
            // ended: letting it run first means the next read finds that connection idle
            // instead of making the pool open another one (tens of milliseconds on
            // PostgreSQL, which every waiting lookup would wait out).
            tokio::task::yield_now().await;
        }
    }

    async fn read(&self, mut ids: Vec<Uuid>) -> Found {
        ids.sort_unstable();
        ids.dedup();
        let mut rows = HashMap::with_capacity(ids.len());
        for padded in padded_chunks(&ids, &QUERY_SIZES) {
            let values: Vec<Value> = padded.map(Value::from).collect();
            let found = self
                .read_padded(values)
                .await
                .map_err(|err| match Error::from(err) {
                    Error::Unavailable => ReadFailed::Unavailable,
                    err => {
                        tracing::error!(error = ?err, "session lookup failed");
                        ReadFailed::Internal
                    }
                })?;
            rows.extend(
                found
                    .into_iter()
                    .map(|(session, user)| (session.id, Arc::new((session, user)))),
            );
        }
        Ok(rows)
    }

    /// One read of as many ids as one of [`QUERY_SIZES`].
    async fn read_padded(&self, ids: Vec<Value>) -> std::result::Result<Vec<SessionRow>, DbErr> {
        // `padded_chunks` pads every chunk to one of the sizes.
        let at = QUERY_SIZES
            .iter()
            .position(|&size| size == ids.len())
            .expect("a read of one of QUERY_SIZES");
        let sql = self.statements[at].clone();
        let statement = Statement::from_sql_and_values(self.db.get_database_backend(), sql, ids);
        self.db
            .query_all_raw(statement)
            .await?
            .iter()
            .map(|row| {
                Ok((
                    sessions::Model::from_query_result(row, SESSION_COLUMNS)?,
                    users::Model::from_query_result(row, "")?,
                ))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{account, database, session};

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn each_lookup_gets_its_own_session_however_many_share_a_read() {
        let (_dir, db) = database().await;
        let user = account(&db, "many@example.com").await;
        let mut stored = Vec::new();
        for _ in 0..300 {
            stored.push(session(&db, &user).await.id);
        }
        let lookup = Arc::new(SessionLookup::new(db));
        // More lookups at once than one query asks for, known and unknown, some twice.
        let ids: Vec<(Uuid, bool)> = stored
            .iter()
            .map(|id| (*id, true))
            .chain((0..300).map(|_| (Uuid::new_v4(), false)))
            .chain(stored.iter().take(50).map(|id| (*id, true)))
            .collect();
        let lookups = ids.iter().map(|&(id, known)| {
            let lookup = lookup.clone();
            tokio::spawn(async move { (id, known, lookup.find(id).await.unwrap()) })
        });
        for handle in lookups.collect::<Vec<_>>() {
            let (id, known, found) = handle.await.unwrap();
            match found {
                Some(found) => {
                    let (session, account) = &*found;
                    assert!(known, "an unknown id found a session");
                    assert_eq!(session.id, id);
                    assert_eq!(session.user_id, user.id);
                    // The account as stored, every column under its own name.
                    assert_eq!(account, &user);
                }
                None => assert!(!known, "a stored session was not found"),
            }
        }
    }
}
