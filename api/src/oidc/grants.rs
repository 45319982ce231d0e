//! The token endpoint's reads, coalesced ([`Coalesced`]): a code or refresh token with the
//! sign-in that approved it, its account, its client and that client's newest current signing
//! key. Exchanges that arrive while a read is at the database share the next one.
//!
//! Like the session lookup this is not a cache: each exchange is answered by a read that
//! started after it arrived, so a code spent, a sign-in ended or a secret rotated before it is
//! seen. Two exchanges presenting the same code may share a read; the write that spends it
//! ([`super::issuance`]) still lets only the first one through.

use std::{collections::HashMap, sync::Arc};

use entity::{oauth_clients, oauth_codes, oauth_tokens, sessions, signing_keys, users};
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, Related, Select};

use crate::batch::{Coalesced, Found, Read, ReadFailed, padded_chunks};

/// How many hashes a query asks for: a batch is padded up to the next of these (repeating a
/// hash), so each connection prepares four statements instead of one per batch size.
const QUERY_SIZES: [usize; 4] = [1, 4, 16, 64];

/// A code (`oauth_codes`) or refresh token (`oauth_tokens`) as an exchange reads it: with the
/// sign-in that approved it and its account, its client, and that client's newest current
/// signing key (each `None` when there is none).
pub type GrantRow<M> = (
    M,
    Option<sessions::Model>,
    Option<users::Model>,
    Option<oauth_clients::Model>,
    Option<signing_keys::Model>,
);

/// The reads of one kind of grant, by hash.
pub struct GrantReads<E: EntityTrait> {
    db: DatabaseConnection,
    /// Which rows of the table are grants of this kind.
    rows: fn() -> Select<E>,
    hash: E::Column,
    hash_of: fn(&E::Model) -> &str,
}

/// `find(hash)` answers the code or refresh token with that hash, shared with the exchanges
/// that waited on the same read.
pub type GrantLookup<E> = Coalesced<GrantReads<E>>;

/// The codes' and the refresh tokens' lookups.
pub struct Grants {
    pub codes: Arc<GrantLookup<oauth_codes::Entity>>,
    pub refresh_tokens: Arc<GrantLookup<oauth_tokens::Entity>>,
}

impl Grants {
    pub fn new(db: &DatabaseConnection) -> Self {
        Self {
            codes: Arc::new(Coalesced::new(GrantReads {
                db: db.clone(),
                rows: oauth_codes::Entity::find,
                hash: oauth_codes::Column::CodeHash,
                hash_of: |row| &row.code_hash,
            })),
            refresh_tokens: Arc::new(Coalesced::new(GrantReads {
                db: db.clone(),
                rows: || oauth_tokens::Entity::find().filter(oauth_tokens::Column::Kind.eq("refresh")),
                hash: oauth_tokens::Column::TokenHash,
                hash_of: |row| &row.token_hash,
            })),
        }
    }
}

impl<E> Read for GrantReads<E>
where
    E: EntityTrait + Related<sessions::Entity> + Related<oauth_clients::Entity> + Sync,
    E::Model: Sync,
    E::Column: Sync,
{
    type Key = String;
    type Row = Arc<GrantRow<E::Model>>;

    async fn read(&self, hashes: Vec<String>) -> Found<String, Self::Row> {
        let hashes: Vec<&str> = hashes.iter().map(String::as_str).collect();
        let mut grants = HashMap::with_capacity(hashes.len());
        for padded in padded_chunks(&hashes, &QUERY_SIZES) {
            // A client has a row for each of its algorithm's current keys, newest first: the
            // first row of a hash carries the newest.
            let rows = (self.rows)()
                .filter(self.hash.is_in(padded))
                .find_also_related(sessions::Entity)
                .and_also_related(users::Entity)
                .find_also(E::default(), oauth_clients::Entity)
                .find_also(oauth_clients::Entity, signing_keys::Entity)
                .order_by_desc(signing_keys::Column::CreatedAt)
                .order_by_desc(signing_keys::Column::Kid)
                .all(&self.db)
                .await
                .map_err(|err| ReadFailed::of(err, "the token endpoint's read"))?;
            for row in rows {
                grants
                    .entry((self.hash_of)(&row.0).to_owned())
                    .or_insert_with(|| Arc::new(row));
            }
        }
        Ok(grants)
    }
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, Utc};
    use sea_orm::{ActiveModelTrait, Set};

    use super::*;
    use crate::oidc::issuance::tests::fixture;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn each_exchange_gets_its_own_code_and_the_newest_current_key_however_many_share_a_read() {
        let fx = fixture().await;
        let now = Utc::now();
        // The client's ID tokens are EdDSA: of these, the newest current EdDSA key is its key.
        for (kid, alg, age, retired) in [
            ("older", "EdDSA", 2, false),
            ("newest", "EdDSA", 1, false),
            ("retired", "EdDSA", 0, true),
            ("other-alg", "RS256", 0, false),
        ] {
            signing_keys::ActiveModel {
                kid: Set(kid.to_owned()),
                alg: Set(alg.to_owned()),
                private_pem: Set("sealed".to_owned()),
                created_at: Set(now - Duration::hours(age)),
                retired_at: Set(retired.then_some(now)),
            }
            .insert(&fx.db)
            .await
            .unwrap();
        }
        let mut stored = Vec::new();
        for _ in 0..100 {
            stored.push(fx.code().await);
        }
        let grants = Grants::new(&fx.db);
        // More at once than one query asks for, known and unknown, some twice.
        let hashes: Vec<(String, bool)> = stored
            .iter()
            .map(|hash| (hash.clone(), true))
            .chain((0..100).map(|n| (format!("unknown-{n}"), false)))
            .chain(stored.iter().take(20).map(|hash| (hash.clone(), true)))
            .collect();
        let finds = hashes.into_iter().map(|(hash, known)| {
            let codes = Arc::clone(&grants.codes);
            tokio::spawn(async move { (known, hash.clone(), codes.find(hash).await.unwrap()) })
        });
        for handle in finds.collect::<Vec<_>>() {
            let (known, hash, found) = handle.await.unwrap();
            let Some(found) = found else {
                assert!(!known, "a stored code was not found");
                continue;
            };
            assert!(known, "an unknown hash found a code");
            let (code, session, user, client, key) = &*found;
            assert_eq!(code.code_hash, hash);
            assert_eq!(session.as_ref().map(|s| s.id), Some(code.session_id));
            assert_eq!(user.as_ref().map(|u| u.id), Some(code.user_id));
            assert_eq!(client.as_ref(), Some(&fx.client));
            assert_eq!(key.as_ref().map(|k| k.kid.as_str()), Some("newest"));
        }
        // A refresh-token lookup does not find a code's hash.
        assert!(
            grants
                .refresh_tokens
                .find(stored[0].clone())
                .await
                .unwrap()
                .is_none()
        );
    }
}
