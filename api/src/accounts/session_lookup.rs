//! Session lookups, coalesced ([`Coalesced`]): lookups that arrive while a read is at the
//! database wait for the next read, and that read fetches every session waiting on it in one
//! query.
//!
//! This is not a cache. Every lookup is answered by a read that *started after the lookup
//! arrived*, so it sees every logout, password change, suspension and deletion committed
//! before it, on any instance: a revoked session is refused everywhere at once.

use std::{collections::HashMap, sync::Arc};

use entity::{sessions, users};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, DbBackend, DbErr, EntityTrait, FromQueryResult,
    IdenStatic, Iterable, QueryFilter, QuerySelect, QueryTrait, RelationTrait, Statement, Value,
    sea_query::JoinType,
};
use uuid::Uuid;

use crate::{
    batch::{Coalesced, Found, Read, ReadFailed, padded_chunks},
    db::Held,
};

/// How many ids a query asks for: a batch is padded up to the next of these (repeating an
/// id), so the database sees five statements, each prepared once per connection, instead of
/// one per batch size (a prepared statement per size and connection held 30 MiB under load).
const QUERY_SIZES: [usize; 5] = [1, 4, 16, 64, 256];

/// A session and the account it belongs to, as one read found them.
pub type SessionRow = (sessions::Model, users::Model);

/// The session lookup: `find(id)` answers the session and its account, shared with every
/// lookup that waited on the same read (each row is shared too, so a lookup copies only what
/// it keeps, the account, not the session's strings).
pub type SessionLookup = Coalesced<SessionReads>;

/// The sessions' reads, by id.
pub struct SessionReads {
    /// The reader's own connection: it sends one read after another.
    db: Held,
    /// The read of each of [`QUERY_SIZES`], built once (see [`read_sql`]).
    statements: [String; QUERY_SIZES.len()],
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

impl SessionReads {
    pub fn new(db: &DatabaseConnection) -> Self {
        let backend = db.get_database_backend();
        Self {
            statements: QUERY_SIZES.map(|size| read_sql(backend, size)),
            db: Held::new(db),
        }
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

impl Read for SessionReads {
    type Key = Uuid;
    type Row = Arc<SessionRow>;

    async fn read(&self, ids: Vec<Uuid>) -> Found<Uuid, Arc<SessionRow>> {
        let mut rows = HashMap::with_capacity(ids.len());
        for padded in padded_chunks(&ids, &QUERY_SIZES) {
            let values: Vec<Value> = padded.map(Value::from).collect();
            let found = self
                .read_padded(values)
                .await
                .map_err(|err| ReadFailed::of(err, "session lookup"))?;
            rows.extend(
                found
                    .into_iter()
                    .map(|(session, user)| (session.id, Arc::new((session, user)))),
            );
        }
        Ok(rows)
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
        let lookup = Arc::new(SessionLookup::new(SessionReads::new(&db)));
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
