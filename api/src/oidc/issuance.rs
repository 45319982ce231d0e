//! The provider's writes, grouped: exchanges that have passed their checks, and codes the
//! authorize endpoint issues, wait while a write is at the database for the next one, and that
//! write spends every code and refresh token waiting on it and stores all their new tokens and
//! codes in one transaction.
//!
//! Each write keeps its own outcome. A code or refresh token is spent by the first
//! exchange that presents it, in the order they arrived, as if each had its own transaction:
//! a second one in the same write, or in any later one, finds it spent. What grouping saves
//! is the write's fixed cost (on SQLite the database's one write lock, held across each
//! statement's hop to the connection's thread; on PostgreSQL a round trip per statement and
//! a commit), which under load is most of an exchange's time.

use std::{
    collections::HashSet,
    sync::{Arc, Mutex, PoisonError},
};

use chrono::{DateTime, Utc};
use entity::{oauth_codes, oauth_tokens};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait, IdenStatic, QueryFilter,
    QueryTrait, sea_query::Expr,
};
use tokio::sync::oneshot;

use super::OAuthError;
use crate::{
    audit::Kind,
    batch::{Drain, padded_chunks},
};

/// At most this many exchanges share one write; more wait for the next.
const MAX_WRITES: usize = 64;

/// How many hashes a spending statement names: padded up to the next of these (repeating a
/// hash), so each connection prepares four statements instead of one per group size.
const SPEND_SIZES: [usize; 4] = [1, 4, 16, 64];

/// How many exchanges' tokens (or new codes) one insert stores, at most: a group is stored in
/// chunks of powers of two up to this (see [`power_of_two_chunks`]).
const MAX_STORED_PER_INSERT: usize = 32;

/// What an exchange spends, by its hash: a code or a refresh token.
#[derive(Debug, Clone)]
pub enum Spend {
    Code(String),
    Refresh(String),
}

impl Spend {
    /// The refusal for one that is unknown, expired, another client's or already used.
    pub fn invalid(&self) -> OAuthError {
        OAuthError::invalid_grant(match self {
            Self::Code(_) => "The authorization code is invalid, expired or already used",
            Self::Refresh(_) => "The refresh token is invalid, expired or revoked",
        })
    }

    /// What presenting it a second time is recorded as.
    pub fn replay(&self) -> Kind {
        match self {
            Self::Code(_) => Kind::AuthorizationCodeReplayed,
            Self::Refresh(_) => Kind::RefreshTokenReused,
        }
    }
}

/// Whether an exchange's write took place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Spent by this exchange, and its tokens stored.
    Stored,
    /// Another exchange spent it first: nothing was stored for this one.
    AlreadySpent,
}

/// One write: an exchange's, or a new code's.
#[expect(
    clippy::large_enum_variant,
    reason = "a write is moved once into the queue and out; boxing the tokens would cost every exchange an allocation to save a code 300 bytes"
)]
pub enum Write {
    /// An exchange: what it spends and the access and refresh tokens it stores.
    Exchange {
        spend: Spend,
        tokens: [oauth_tokens::ActiveModel; 2],
    },
    /// An authorization: the code it stores. It spends nothing, so it is always
    /// [`Outcome::Stored`] unless it fails.
    Code(oauth_codes::ActiveModel),
}

impl Write {
    /// What it spends: an exchange's code or refresh token, nothing for a new code.
    fn spends(&self) -> Option<&Spend> {
        match self {
            Self::Exchange { spend, .. } => Some(spend),
            Self::Code(_) => None,
        }
    }
}

struct Waiting {
    write: Write,
    outcome: oneshot::Sender<Result<Outcome, OAuthError>>,
}

#[derive(Default)]
struct Queue {
    /// Filled by arriving exchanges; taken by the writer, up to [`MAX_WRITES`] at a time.
    next: Vec<Waiting>,
    /// Whether a writer task is running (it runs until no exchange waits).
    writing: bool,
}

pub struct Issuance {
    db: DatabaseConnection,
    queue: Mutex<Queue>,
}

impl Issuance {
    /// The writes go to `db`'s own writer connection ([`crate::db::dedicated_writer`]).
    pub fn new(db: &DatabaseConnection) -> Self {
        Self {
            db: crate::db::dedicated_writer(db),
            queue: Mutex::default(),
        }
    }

    /// Spends the code or refresh token and stores the tokens (or stores the new code), in a
    /// transaction that started after this call: both happen or neither does.
    ///
    /// # Errors
    /// `invalid_grant` when the tokens or the code could not be stored because the sign-in
    /// they belong to ended meanwhile; `temporarily_unavailable` or `server_error` when the
    /// database failed.
    pub async fn write(self: &Arc<Self>, write: Write) -> Result<Outcome, OAuthError> {
        let (sender, outcome) = oneshot::channel();
        let start_writer = {
            let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
            queue.next.push(Waiting {
                write,
                outcome: sender,
            });
            !std::mem::replace(&mut queue.writing, true)
        };
        if start_writer {
            tokio::spawn(Arc::clone(self).write_until_idle());
        }
        // The sender goes away unanswered only if the writer died: nothing was committed.
        outcome
            .await
            .unwrap_or_else(|_| Err(crate::error::Error::Unavailable.into()))
    }

    /// Writes group after group until one ends with nobody waiting.
    async fn write_until_idle(self: Arc<Self>) {
        // Should this task die (a panic), the next exchange starts a new writer, and those
        // already queued are answered instead of left waiting: their senders are dropped.
        let mut drain = Drain::new(&self.queue, |queue: &mut Queue| {
            queue.writing = false;
            queue.next.clear();
        });
        loop {
            let group: Vec<Waiting> = {
                let mut queue = drain.lock();
                if queue.next.is_empty() {
                    // In the same critical section as finding the queue empty: an exchange
                    // arriving next sees no writer and starts one.
                    queue.writing = false;
                    drop(queue);
                    drain.done();
                    return;
                }
                let take = queue.next.len().min(MAX_WRITES);
                queue.next.drain(..take).collect()
            };
            let (writes, senders): (Vec<Write>, Vec<_>) =
                group.into_iter().map(|w| (w.write, w.outcome)).unzip();
            let outcomes = self.write_group(&writes).await;
            for (sender, outcome) in senders.into_iter().zip(outcomes) {
                // An exchange whose client went away does not take its answer.
                let _ = sender.send(outcome);
            }
            // As the session lookup does: the pool takes the connection back on a task of
            // its own, which should run before the next group asks for one.
            tokio::task::yield_now().await;
        }
    }

    /// One transaction for the group; when it fails, each write alone, so one exchange
    /// whose sign-in ended (or any other failure) costs the others nothing.
    async fn write_group(&self, writes: &[Write]) -> Vec<Result<Outcome, OAuthError>> {
        match self.commit(writes).await {
            Ok(outcomes) => outcomes.into_iter().map(Ok).collect(),
            Err(failed) if writes.len() == 1 => vec![Err(failed.into_error())],
            Err(_) => {
                let mut outcomes = Vec::with_capacity(writes.len());
                for write in writes {
                    outcomes.push(match self.commit(std::slice::from_ref(write)).await {
                        Ok(mut one) => Ok(one.remove(0)),
                        Err(failed) => Err(failed.into_error()),
                    });
                }
                outcomes
            }
        }
    }

    /// Spends what the writes present, in their order, and stores the tokens of those that
    /// spent it and the new codes, in one transaction.
    async fn commit(&self, writes: &[Write]) -> Result<Vec<Outcome>, Failed> {
        let now = Utc::now();
        let txn = crate::db::begin_write(&self.db).await.map_err(Failed::Spending)?;
        let (mut code_hashes, mut refresh_hashes) = (Vec::new(), Vec::new());
        for spend in writes.iter().filter_map(Write::spends) {
            match spend {
                Spend::Code(hash) => code_hashes.push(hash.as_str()),
                Spend::Refresh(hash) => refresh_hashes.push(hash.as_str()),
            }
        }
        let mut codes = spend::<oauth_codes::Entity>(
            &txn,
            oauth_codes::Column::CodeHash,
            oauth_codes::Column::UsedAt,
            &code_hashes,
            now,
        )
        .await
        .map_err(Failed::Spending)?;
        let mut refresh = spend::<oauth_tokens::Entity>(
            &txn,
            oauth_tokens::Column::TokenHash,
            oauth_tokens::Column::UsedAt,
            &refresh_hashes,
            now,
        )
        .await
        .map_err(Failed::Spending)?;
        // The first write presenting a hash spent it; a later one in the group finds it spent.
        let outcomes: Vec<Outcome> = writes
            .iter()
            .map(|w| {
                let spent = match w.spends() {
                    Some(Spend::Code(hash)) => codes.remove(hash.as_str()),
                    Some(Spend::Refresh(hash)) => refresh.remove(hash.as_str()),
                    // A new code spends nothing.
                    None => true,
                };
                if spent {
                    Outcome::Stored
                } else {
                    Outcome::AlreadySpent
                }
            })
            .collect();
        let mut tokens = Vec::new();
        let mut new_codes = Vec::new();
        for (write, outcome) in writes.iter().zip(&outcomes) {
            match write {
                Write::Exchange { tokens: pair, .. } if *outcome == Outcome::Stored => {
                    tokens.push(pair.clone());
                }
                Write::Exchange { .. } => {}
                Write::Code(code) => new_codes.push(code.clone()),
            }
        }
        for chunk in power_of_two_chunks(tokens) {
            oauth_tokens::Entity::insert_many(chunk.into_iter().flatten())
                .exec_without_returning(&txn)
                .await
                .map_err(Failed::Storing)?;
        }
        for chunk in power_of_two_chunks(new_codes) {
            oauth_codes::Entity::insert_many(chunk)
                .exec_without_returning(&txn)
                .await
                .map_err(Failed::Storing)?;
        }
        txn.commit().await.map_err(Failed::Spending)?;
        Ok(outcomes)
    }
}

/// `rows` in chunks of the largest power of two that fits, up to [`MAX_STORED_PER_INSERT`]: so
/// each connection prepares six inserts of a kind, not one per group size.
fn power_of_two_chunks<T>(mut rows: Vec<T>) -> Vec<Vec<T>> {
    let mut chunks = Vec::new();
    while !rows.is_empty() {
        let size = 1 << rows.len().min(MAX_STORED_PER_INSERT).ilog2();
        let rest = rows.split_off(size);
        chunks.push(std::mem::replace(&mut rows, rest));
    }
    chunks
}

/// Why a group's transaction failed.
enum Failed {
    /// Beginning, spending or committing: the database failed.
    Spending(DbErr),
    /// Storing the tokens or a code: the sign-in they belong to was ended meanwhile (its
    /// foreign key is gone).
    Storing(DbErr),
}

impl Failed {
    fn into_error(self) -> OAuthError {
        match self {
            Self::Spending(err) => err.into(),
            Self::Storing(err) => {
                tracing::debug!(error = %err, "token not stored");
                OAuthError::invalid_grant("The sign-in this grant came from has ended")
            }
        }
    }
}

/// Marks the hashes used where they were not, and answers those it marked.
async fn spend<E: EntityTrait>(
    db: &impl ConnectionTrait,
    hash: E::Column,
    used_at: E::Column,
    hashes: &[&str],
    now: DateTime<Utc>,
) -> Result<HashSet<String>, DbErr> {
    let mut spent = HashSet::with_capacity(hashes.len());
    for padded in padded_chunks(hashes, &SPEND_SIZES) {
        let mut update = E::update_many()
            .col_expr(used_at, Expr::value(Some(now)))
            .filter(hash.is_in(padded))
            .filter(used_at.is_null())
            .into_query();
        update.returning_col(hash);
        for row in db.query_all(&update).await? {
            spent.insert(row.try_get::<String>("", hash.as_str())?);
        }
    }
    Ok(spent)
}

#[cfg(test)]
pub(super) mod tests {
    use chrono::Duration;
    use entity::{oauth_clients, sessions, users};
    use sea_orm::{ActiveModelTrait, PaginatorTrait, Set};
    use uuid::Uuid;

    use super::*;
    use crate::test_support::{account, database, session};

    /// An account signed in, and a client of the provider whose ID tokens are EdDSA.
    pub(in crate::oidc) struct Fixture {
        pub db: DatabaseConnection,
        user: users::Model,
        session: sessions::Model,
        pub client: oauth_clients::Model,
        _dir: tempfile::TempDir,
    }

    pub(in crate::oidc) async fn fixture() -> Fixture {
        let (dir, db) = database().await;
        let user = account(&db, "grouped@example.com").await;
        let session = session(&db, &user).await;
        let now = Utc::now();
        let client = oauth_clients::ActiveModel {
            client_id: Set("grouped-client".to_owned()),
            name: Set("Grouped".to_owned()),
            secret_hash: Set(None),
            redirect_uris: Set("[]".to_owned()),
            post_logout_redirect_uris: Set("[]".to_owned()),
            backchannel_logout_uri: Set(None),
            first_party: Set(true),
            id_token_signed_response_alg: Set("EdDSA".to_owned()),
            created_at: Set(now),
        }
        .insert(&db)
        .await
        .unwrap();
        Fixture {
            db,
            user,
            session,
            client,
            _dir: dir,
        }
    }

    impl Fixture {
        /// A stored, unused code; answers the key it is stored under.
        pub async fn code(&self) -> String {
            let (code, key) = self.code_row(self.session.id);
            code.insert(&self.db).await.unwrap();
            key
        }

        /// An unused code of `session_id`, not stored yet, and its key.
        fn code_row(&self, session_id: Uuid) -> (oauth_codes::ActiveModel, String) {
            let now = Utc::now();
            let key = crate::oidc::grants::key_of(&crate::oidc::grants::new_token());
            let code = oauth_codes::ActiveModel {
                code_hash: Set(key.clone()),
                grant_id: Set(Uuid::now_v7()),
                client_id: Set(self.client.client_id.clone()),
                user_id: Set(self.user.id),
                session_id: Set(session_id),
                redirect_uri: Set("https://rp.example/cb".to_owned()),
                code_challenge: Set("x".to_owned()),
                nonce: Set(None),
                scope: Set("openid".to_owned()),
                auth_time: Set(now),
                expires_at: Set(now + Duration::minutes(1)),
                used_at: Set(None),
            };
            (code, key)
        }

        /// The write spending `spend`, storing two new tokens of `session_id`.
        fn write(&self, spend: Spend, session_id: Uuid) -> Write {
            let now = Utc::now();
            let row = |kind: &str| oauth_tokens::ActiveModel {
                token_hash: Set(crate::accounts::tokens::random_token()),
                kind: Set(kind.to_owned()),
                grant_id: Set(Uuid::new_v4()),
                client_id: Set(self.client.client_id.clone()),
                user_id: Set(self.user.id),
                session_id: Set(session_id),
                scope: Set("openid".to_owned()),
                auth_time: Set(now),
                nonce: Set(None),
                created_at: Set(now),
                expires_at: Set(now + Duration::minutes(10)),
                used_at: Set(None),
            };
            Write::Exchange {
                spend,
                tokens: [row("access"), row("refresh")],
            }
        }

        /// The write storing a new code of `session_id`, and the code's key.
        fn new_code(&self, session_id: Uuid) -> (Write, String) {
            let (code, key) = self.code_row(session_id);
            (Write::Code(code), key)
        }

        /// The code stored under `key`, if any.
        async fn stored_code(&self, key: &str) -> Option<oauth_codes::Model> {
            oauth_codes::Entity::find_by_id(key.to_owned())
                .one(&self.db)
                .await
                .unwrap()
        }

        async fn stored(&self, key: &str) -> bool {
            self.stored_code(key).await.is_some()
        }

        async fn used(&self, key: &str) -> bool {
            self.stored_code(key).await.unwrap().used_at.is_some()
        }
    }

    fn outcomes(answers: &[Result<Outcome, OAuthError>]) -> Vec<Result<Outcome, &'static str>> {
        answers
            .iter()
            .map(|answer| answer.as_ref().copied().map_err(|err| err.error))
            .collect()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn each_write_of_a_group_keeps_its_own_outcome() {
        let fx = fixture().await;
        let (first, second, unstorable) = (fx.code().await, fx.code().await, fx.code().await);
        let session = fx.session.id;
        let issuance = Issuance::new(&fx.db);
        let group = [
            fx.write(Spend::Code(first.clone()), session),
            fx.write(Spend::Code(first.clone()), session),
            fx.write(Spend::Code("unknown".to_owned()), session),
            fx.write(Spend::Refresh("unknown".to_owned()), session),
        ];
        let answers = issuance.write_group(&group).await;
        use Outcome::{AlreadySpent, Stored};
        assert_eq!(
            outcomes(&answers),
            [Ok(Stored), Ok(AlreadySpent), Ok(AlreadySpent), Ok(AlreadySpent)],
            "the second presenting a code finds it spent by the first"
        );
        assert_eq!(oauth_tokens::Entity::find().count(&fx.db).await.unwrap(), 2);

        let group = [
            fx.write(Spend::Code(second.clone()), session),
            // Its tokens name a sign-in that is gone: the group's insert fails on its account.
            fx.write(Spend::Code(unstorable.clone()), Uuid::new_v4()),
            fx.write(Spend::Code(first.clone()), session),
        ];
        let answers = issuance.write_group(&group).await;
        assert_eq!(
            outcomes(&answers),
            [Ok(Stored), Err("invalid_grant"), Ok(AlreadySpent)]
        );
        assert_eq!(
            answers[1].as_ref().unwrap_err().description,
            "The sign-in this grant came from has ended"
        );
        assert!(fx.used(&first).await && fx.used(&second).await);
        assert!(!fx.used(&unstorable).await, "nothing of a failed write is kept");
        assert_eq!(oauth_tokens::Entity::find().count(&fx.db).await.unwrap(), 4);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn new_codes_share_a_group_with_exchanges_and_fail_alone() {
        let fx = fixture().await;
        let spent = fx.code().await;
        let session = fx.session.id;
        let issuance = Issuance::new(&fx.db);
        let (kept, kept_key) = fx.new_code(session);
        // Its sign-in is gone: its insert fails on the foreign key, and only it.
        let (orphan, orphan_key) = fx.new_code(Uuid::new_v4());
        let group = [kept, fx.write(Spend::Code(spent.clone()), session), orphan];
        let answers = issuance.write_group(&group).await;
        use Outcome::Stored;
        assert_eq!(outcomes(&answers), [Ok(Stored), Ok(Stored), Err("invalid_grant")]);
        assert!(fx.stored(&kept_key).await, "the good code is stored");
        assert!(
            !fx.stored(&orphan_key).await,
            "nothing of the failed write is kept"
        );
        assert!(fx.used(&spent).await);
        assert_eq!(oauth_tokens::Entity::find().count(&fx.db).await.unwrap(), 2);
        // The stored code can be spent by a later exchange, once.
        let again = [
            fx.write(Spend::Code(kept_key.clone()), session),
            fx.write(Spend::Code(kept_key.clone()), session),
        ];
        let answers = issuance.write_group(&again).await;
        assert_eq!(outcomes(&answers), [Ok(Stored), Ok(Outcome::AlreadySpent)]);
    }

    #[test]
    fn rows_are_stored_in_chunks_of_powers_of_two() {
        let sizes = |n: usize| -> Vec<usize> {
            power_of_two_chunks((0..n).collect())
                .iter()
                .map(Vec::len)
                .collect()
        };
        assert_eq!(sizes(0), Vec::<usize>::new());
        assert_eq!(sizes(1), [1]);
        assert_eq!(sizes(7), [4, 2, 1]);
        assert_eq!(sizes(64), [32, 32]);
        assert_eq!(sizes(45), [32, 8, 4, 1]);
        let rows: Vec<usize> = power_of_two_chunks((0..45).collect())
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(rows, (0..45).collect::<Vec<_>>(), "every row once, in order");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn writes_at_once_spend_each_code_once() {
        let fx = fixture().await;
        let mut codes = Vec::new();
        for _ in 0..100 {
            codes.push(fx.code().await);
        }
        let issuance = Arc::new(Issuance::new(&fx.db));
        // Each code presented three times, all at once: more than one group holds.
        let writes = codes.iter().cycle().take(300).map(|hash| {
            let issuance = Arc::clone(&issuance);
            let write = fx.write(Spend::Code(hash.clone()), fx.session.id);
            tokio::spawn(async move { issuance.write(write).await.unwrap() })
        });
        let mut stored = 0;
        for handle in writes.collect::<Vec<_>>() {
            if handle.await.unwrap() == Outcome::Stored {
                stored += 1;
            }
        }
        assert_eq!(stored, 100);
        assert_eq!(oauth_tokens::Entity::find().count(&fx.db).await.unwrap(), 200);
        for hash in &codes {
            assert!(fx.used(hash).await);
        }
    }
}
