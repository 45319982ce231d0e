//! A provider's JSON Web Key Set, fetched lazily and cached: an hour at most, fetched again for
//! an unknown key at most every 5 s, backing off after failures, one fetch at a time.

use std::{
    sync::Mutex,
    time::{Duration, Instant},
};

use anyhow::Context;
use jsonwebtoken::{DecodingKey, jwk::JwkSet};
use tokio::sync::Notify;

use crate::error::{Error, Result};

/// A key set older than this is fetched again on next use.
const JWKS_TTL: Duration = Duration::from_secs(3600);
/// An unknown `kid` triggers a fetch at most this often.
const REFETCH_AT_MOST_EVERY: Duration = Duration::from_secs(5);
/// After a failed fetch, wait this long before the next, doubling up to the cap.
const FAILED_FETCH_BACKOFF: Duration = Duration::from_secs(1);
const FAILED_FETCH_BACKOFF_MAX: Duration = Duration::from_secs(60);
/// How long a request waits for a fetch another request has started.
const WAIT_FOR_FETCH: Duration = Duration::from_secs(10);

#[derive(Default)]
struct KeyCache {
    keys: Option<JwkSet>,
    fetched_at: Option<Instant>,
    /// The last fetch started, successful or not.
    attempted_at: Option<Instant>,
    /// Failed fetches in a row, for the backoff.
    failures: u32,
    /// A request is fetching right now; others wait for it instead of fetching too.
    fetching: bool,
}

impl KeyCache {
    fn find(&self, kid: &str) -> Option<DecodingKey> {
        self.keys
            .as_ref()
            .and_then(|keys| keys.find(kid))
            .and_then(|jwk| DecodingKey::from_jwk(jwk).ok())
    }

    /// Whether this request should fetch the keys now (and claim the fetch if so).
    fn claim_fetch(&mut self, kid: &str) -> bool {
        if self.fetching {
            return false;
        }
        let stale = self.fetched_at.is_none_or(|at| at.elapsed() > JWKS_TTL);
        let unknown = self.keys.as_ref().is_none_or(|keys| keys.find(kid).is_none());
        let wait = if self.failures == 0 {
            REFETCH_AT_MOST_EVERY
        } else {
            (FAILED_FETCH_BACKOFF * 2_u32.pow(self.failures.min(10) - 1)).min(FAILED_FETCH_BACKOFF_MAX)
        };
        let may_fetch = self.attempted_at.is_none_or(|at| at.elapsed() > wait);
        let due = if self.failures == 0 {
            stale || (unknown && may_fetch)
        } else {
            (stale || unknown) && may_fetch
        };
        if due {
            self.fetching = true;
            self.attempted_at = Some(Instant::now());
        }
        due
    }
}

/// The key set at `url`.
pub struct Jwks {
    url: String,
    http: reqwest::Client,
    /// Never held across a network call.
    cache: Mutex<KeyCache>,
    fetched: Notify,
}

impl Jwks {
    pub fn new(url: String, http: reqwest::Client) -> Self {
        Self {
            url,
            http,
            cache: Mutex::default(),
            fetched: Notify::new(),
        }
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, KeyCache> {
        // A panic elsewhere cannot leave the cache half-written: keep using it.
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The key `kid`, fetching the key set when it is stale or lacks `kid` (at most every
    /// 5 s, and backing off after failures). One request fetches; the others wait for it.
    pub async fn key(&self, kid: &str) -> Result<Option<DecodingKey>> {
        loop {
            let (claimed, waiting) = {
                let mut cache = self.cache();
                let claimed = cache.claim_fetch(kid);
                (claimed, !claimed && cache.fetching)
            };
            if claimed {
                let result = self.fetch_keys().await;
                let mut cache = self.cache();
                cache.fetching = false;
                match result {
                    Ok(keys) => {
                        cache.keys = Some(keys);
                        cache.fetched_at = Some(Instant::now());
                        cache.failures = 0;
                    }
                    Err(err) => {
                        tracing::warn!(error = ?err, url = %self.url, "could not fetch a provider's keys");
                        cache.failures = cache.failures.saturating_add(1);
                    }
                }
                drop(cache);
                self.fetched.notify_waiters();
            } else if waiting {
                let notified = self.fetched.notified();
                if self.cache().fetching {
                    let _ = tokio::time::timeout(WAIT_FOR_FETCH, notified).await;
                }
                continue;
            }
            let cache = self.cache();
            if cache.keys.is_none() {
                return Err(Error::Unavailable);
            }
            return Ok(cache.find(kid));
        }
    }

    async fn fetch_keys(&self) -> anyhow::Result<JwkSet> {
        self.http
            .get(&self.url)
            .send()
            .await
            .context("JWKS request")?
            .error_for_status()
            .context("JWKS status")?
            .json::<JwkSet>()
            .await
            .context("JWKS body")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache_with_key(kid: &str) -> KeyCache {
        let keys: JwkSet = serde_json::from_value(serde_json::json!({ "keys": [{
            "kty": "RSA", "kid": kid, "alg": "RS256", "use": "sig", "n": "sXch", "e": "AQAB"
        }] }))
        .expect("a key set");
        KeyCache {
            keys: Some(keys),
            fetched_at: Some(Instant::now()),
            attempted_at: Some(Instant::now()),
            ..KeyCache::default()
        }
    }

    #[test]
    fn the_first_use_fetches_and_a_known_key_never_does() {
        assert!(KeyCache::default().claim_fetch("a"));
        assert!(!cache_with_key("a").claim_fetch("a"));
    }

    #[test]
    fn an_unknown_key_fetches_at_most_every_five_seconds_and_one_request_at_a_time() {
        let mut cache = cache_with_key("a");
        assert!(!cache.claim_fetch("b"), "fetched a moment ago");
        cache.attempted_at = Some(Instant::now() - Duration::from_secs(6));
        assert!(cache.claim_fetch("b"));
        assert!(cache.fetching);
        cache.attempted_at = Some(Instant::now() - Duration::from_secs(60));
        assert!(!cache.claim_fetch("b"), "another request is fetching");
    }

    #[test]
    fn failed_fetches_back_off() {
        let mut cache = KeyCache {
            failures: 3,
            attempted_at: Some(Instant::now() - Duration::from_secs(3)),
            ..KeyCache::default()
        };
        assert!(!cache.claim_fetch("a"), "third failure: wait 4 s");
        cache.attempted_at = Some(Instant::now() - Duration::from_secs(5));
        assert!(cache.claim_fetch("a"));
    }
}
