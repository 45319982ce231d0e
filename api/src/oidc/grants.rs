//! A grant's tokens, how they are made and keyed ([`new_token`], [`key_of`]); and the token
//! endpoint's reads, coalesced ([`Coalesced`]): a code or refresh token with the
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

use crate::{
    accounts::tokens,
    batch::{Coalesced, Found, Read, ReadFailed, padded_chunks},
    db::Held,
};

/// The hex digits of a token's issue time, at its front: milliseconds since 1970, 48 bits (a
/// UUIDv7's first 48 bits).
const TIME_DIGITS: usize = 12;

/// The length of [`tokens::random_token`]'s 256 bits in base64url.
const RANDOM_CHARS: usize = 43;

/// A new code, access or refresh token: the time it is issued ([`TIME_DIGITS`]), then 256
/// random bits. The time is no secret (the ID token issued with it says as much); it puts the
/// keys of tokens issued together side by side ([`key_of`]).
pub fn new_token() -> String {
    // 48 bits of milliseconds last until the year 10889.
    let millis = u64::try_from(chrono::Utc::now().timestamp_millis()).unwrap_or(0) & 0xffff_ffff_ffff;
    format!("{millis:012x}{}", tokens::random_token())
}

/// The key a code or token is stored and found under: its SHA-256, behind the issue time the
/// token carries. Keys in the order they are issued make each insert touch the last pages of
/// the table's index, where random keys touched a page of their own each (SQLite writes every
/// touched page to its log at each commit, PostgreSQL the whole page after a checkpoint). A
/// token without that time (one issued before tokens carried it, or one made up) is keyed by
/// its SHA-256 alone, as every token was before.
pub fn key_of(token: &str) -> String {
    let hash = tokens::sha256_hex(token);
    match token.get(..TIME_DIGITS) {
        Some(time)
            if token.len() == TIME_DIGITS + RANDOM_CHARS
                && time.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) =>
        {
            format!("{time}{hash}")
        }
        _ => hash,
    }
}

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
    /// The reader's own connection: it sends one read after another.
    db: Held,
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
                db: Held::new(db),
                rows: oauth_codes::Entity::find,
                hash: oauth_codes::Column::CodeHash,
                hash_of: |row| &row.code_hash,
            })),
            refresh_tokens: Arc::new(Coalesced::new(GrantReads {
                db: Held::new(db),
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

    #[test]
    fn tokens_carry_their_issue_time_and_are_keyed_in_issue_order() {
        let before = Utc::now().timestamp_millis();
        let tokens: Vec<String> = (0..3)
            .map(|_| {
                std::thread::sleep(std::time::Duration::from_millis(2));
                new_token()
            })
            .collect();
        let after = Utc::now().timestamp_millis();
        let keys: Vec<String> = tokens.iter().map(|token| key_of(token)).collect();
        for (token, key) in tokens.iter().zip(&keys) {
            let (time, random) = token.split_at(TIME_DIGITS);
            let millis = i64::from_str_radix(time, 16).unwrap();
            assert!(
                (before..=after).contains(&millis),
                "{millis} not within {before}..={after}"
            );
            assert_eq!(random.len(), RANDOM_CHARS);
            // The time, then the hash of the whole token: never the token's random part.
            assert_eq!(*key, format!("{time}{}", tokens::sha256_hex(token)));
            assert!(!key.contains(random));
        }
        assert!(keys.is_sorted(), "{keys:?}");
        assert_ne!(tokens[0][TIME_DIGITS..], tokens[1][TIME_DIGITS..]);
    }

    #[test]
    fn a_token_without_an_issue_time_is_keyed_by_its_hash_alone() {
        let earlier = tokens::random_token();
        let made_up = format!("ZZZZZZZZZZZZ{}", tokens::random_token());
        let upper_case = new_token().to_uppercase();
        let longer = format!("{}x", new_token());
        for token in [
            earlier,
            made_up,
            upper_case,
            longer,
            String::new(),
            format!("{}é{}", "a".repeat(11), "b".repeat(42)),
        ] {
            assert_eq!(key_of(&token), tokens::sha256_hex(&token), "{token}");
        }
    }

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
