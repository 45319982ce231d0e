//! Argon2id hashing on a bounded pool of blocking threads, so a burst of sign-ins cannot
//! stall the reactor or exhaust memory (each hash takes 19 MiB). The queue in front of it is
//! bounded too: past it the caller gets 503 with Retry-After instead of an ever-longer wait.

use std::sync::{
    Arc,
    atomic::{AtomicUsize, Ordering},
};

use anyhow::Context;
use argon2::{
    Algorithm, Argon2, Params, PasswordHash, PasswordVerifier, Version,
    password_hash::{PasswordHasher as _, SaltString, rand_core::OsRng},
};
use tokio::sync::{OnceCell, Semaphore};

use super::fields::Password;
use crate::error::{Error, Result};

#[derive(Clone)]
pub struct PasswordHasher {
    permits: Arc<Semaphore>,
    /// Requests waiting for a permit, and how many may wait.
    waiting: Arc<AtomicUsize>,
    max_waiting: usize,
    /// Hash checked when there is no account, so a wrong email costs what a wrong password does.
    dummy: Arc<OnceCell<String>>,
}

impl Default for PasswordHasher {
    fn default() -> Self {
        Self::new()
    }
}

/// Hashes that may wait per core before new ones are turned away.
const QUEUE_PER_CORE: usize = 32;

fn argon2() -> Argon2<'static> {
    // OWASP's recommended Argon2id parameters: 19 MiB, 2 iterations, 1 lane.
    let params = Params::new(19 * 1024, 2, 1, None).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

impl PasswordHasher {
    pub fn new() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Self {
            permits: Arc::new(Semaphore::new(cores.max(1))),
            waiting: Arc::new(AtomicUsize::new(0)),
            // About a second of work per core at OWASP's parameters: longer waits help nobody.
            max_waiting: QUEUE_PER_CORE * cores.max(1),
            dummy: Arc::new(OnceCell::new()),
        }
    }

    /// # Errors
    /// [`Error::Busy`] when the queue is full; otherwise only on an internal failure.
    pub async fn hash(&self, password: &Password) -> Result<String> {
        let password = password.expose().to_owned();
        self.run(move || {
            let salt = SaltString::generate(&mut OsRng);
            argon2()
                .hash_password(password.as_bytes(), &salt)
                .map(|hash| hash.to_string())
                .map_err(|e| anyhow::anyhow!("argon2 hash failed: {e}"))
        })
        .await
    }

    /// Checks `password` against `hash`; with no hash it still spends the same time, then fails.
    ///
    /// # Errors
    /// [`Error::Busy`] when the queue is full; otherwise only on an internal failure.
    pub async fn verify(&self, password: &Password, hash: Option<&str>) -> Result<bool> {
        let (hash, real) = match hash {
            Some(hash) => (hash.to_owned(), true),
            None => (self.dummy_hash().await?, false),
        };
        let password = password.expose().to_owned();
        let matches = self
            .run(move || {
                let parsed =
                    PasswordHash::new(&hash).map_err(|e| anyhow::anyhow!("stored hash unreadable: {e}"))?;
                Ok(argon2().verify_password(password.as_bytes(), &parsed).is_ok())
            })
            .await?;
        Ok(real && matches)
    }

    async fn dummy_hash(&self) -> Result<String> {
        self.dummy
            .get_or_try_init(|| async {
                let filler = Password::parse_new(Some("not-a-real-password"))
                    .map_err(|m| Error::internal(anyhow::anyhow!(m)))?;
                self.hash(&filler).await
            })
            .await
            .cloned()
    }

    async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> anyhow::Result<T> + Send + 'static,
    ) -> Result<T> {
        let _permit = match self.permits.try_acquire() {
            Ok(permit) => permit,
            Err(_) => {
                let _place = QueuePlace::take(&self.waiting, self.max_waiting).ok_or(Error::Busy)?;
                self.permits
                    .acquire()
                    .await
                    .context("password pool closed")
                    .map_err(Error::internal)?
            }
        };
        tokio::task::spawn_blocking(job)
            .await
            .context("password task panicked")
            .map_err(Error::internal)?
            .map_err(Error::internal)
    }
}

/// A place in the hashing queue, given back when dropped (also when the request is cancelled).
struct QueuePlace<'a>(&'a AtomicUsize);

impl<'a> QueuePlace<'a> {
    fn take(waiting: &'a AtomicUsize, max: usize) -> Option<Self> {
        waiting
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()
            .map(|_| Self(waiting))
    }
}

impl Drop for QueuePlace<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_queue_turns_requests_away_once_full_and_frees_places_when_they_leave() {
        let waiting = AtomicUsize::new(0);
        let first = QueuePlace::take(&waiting, 2).expect("a place");
        let second = QueuePlace::take(&waiting, 2).expect("a place");
        assert!(QueuePlace::take(&waiting, 2).is_none(), "full");
        drop(first);
        assert!(QueuePlace::take(&waiting, 2).is_some(), "a place came free");
        drop(second);
        assert_eq!(waiting.load(Ordering::Acquire), 0);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_burst_beyond_the_queue_gets_busy_instead_of_waiting() {
        let hasher = PasswordHasher {
            permits: Arc::new(Semaphore::new(1)),
            waiting: Arc::new(AtomicUsize::new(0)),
            max_waiting: 2,
            dummy: Arc::new(OnceCell::new()),
        };
        let password = Password::parse_existing(Some("anything")).unwrap();
        let results = hash_at_once(hasher.clone(), password, 8).await;
        let busy = results.iter().filter(|r| matches!(r, Err(Error::Busy))).count();
        let done = results.iter().filter(|r| r.is_ok()).count();
        assert!(busy >= 1, "some were turned away");
        assert!(done >= 3, "the running one and the queued ones finished: {done}");
        assert_eq!(busy + done, 8);
    }

    async fn hash_at_once(hasher: PasswordHasher, password: Password, n: usize) -> Vec<Result<String>> {
        let tasks: Vec<_> = (0..n)
            .map(|_| {
                let hasher = hasher.clone();
                let password = password.clone();
                tokio::spawn(async move { hasher.hash(&password).await })
            })
            .collect();
        let mut results = Vec::new();
        for task in tasks {
            results.push(task.await.expect("task"));
        }
        results
    }
}
