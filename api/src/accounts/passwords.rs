//! Argon2id hashing on a fixed pool of threads, one per core, each reusing one 19 MiB block
//! of memory for every hash it computes. A burst of sign-ins therefore costs neither the
//! reactor (no hashing on it) nor memory (no 19 MiB allocation per request, which the
//! allocator would keep per thread). The queue in front of the pool is bounded too: past it
//! the caller gets 503 with Retry-After instead of an ever-longer wait.

use std::sync::{
    Arc, Mutex,
    mpsc::{Receiver, SyncSender, TrySendError, sync_channel},
};

use anyhow::Context;
use argon2::{
    Algorithm, Argon2, Block, Params, PasswordHash, PasswordVerifier, Version,
    password_hash::{Output, ParamsString, SaltString, rand_core::OsRng},
};
use tokio::sync::{OnceCell, oneshot};

use super::fields::Password;
use crate::error::{Error, Result};

/// Hashes that may wait per core before new ones are turned away: about a second of work.
const QUEUE_PER_CORE: usize = 32;
/// The length of the hashes we make (argon2's default).
const OUTPUT_LEN: usize = 32;

/// OWASP's recommended Argon2id parameters: 19 MiB, 2 iterations, 1 lane.
fn params() -> Params {
    Params::new(19 * 1024, 2, 1, Some(OUTPUT_LEN)).expect("valid argon2 parameters")
}

fn argon2() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params())
}

enum Work {
    Hash(String),
    Verify { password: String, phc: String },
}

enum Done {
    Hashed(String),
    Verified(bool),
}

struct Job {
    work: Work,
    reply: oneshot::Sender<anyhow::Result<Done>>,
}

#[derive(Clone)]
pub struct PasswordHasher {
    jobs: SyncSender<Job>,
    /// Hash checked when there is no account, so a wrong email costs what a wrong password does.
    dummy: Arc<OnceCell<String>>,
}

impl Default for PasswordHasher {
    fn default() -> Self {
        Self::new()
    }
}

impl PasswordHasher {
    /// One hashing thread per core.
    pub fn new() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Self::with_threads(cores, QUEUE_PER_CORE * cores)
    }

    /// `threads` hashing threads and at most `queue` hashes waiting for them. The threads end
    /// when the last clone of the hasher is dropped.
    pub fn with_threads(threads: usize, queue: usize) -> Self {
        let (jobs, receiver) = sync_channel::<Job>(queue);
        let receiver = Arc::new(Mutex::new(receiver));
        for n in 0..threads.max(1) {
            let receiver = receiver.clone();
            std::thread::Builder::new()
                .name(format!("argon2-{n}"))
                .spawn(move || work(&receiver))
                .expect("a hashing thread");
        }
        Self {
            jobs,
            dummy: Arc::new(OnceCell::new()),
        }
    }

    /// # Errors
    /// [`Error::Busy`] when the queue is full; otherwise only on an internal failure.
    pub async fn hash(&self, password: &Password) -> Result<String> {
        match self.run(Work::Hash(password.expose().to_owned())).await? {
            Done::Hashed(hash) => Ok(hash),
            Done::Verified(_) => Err(Error::internal(anyhow::anyhow!("a hash job verified"))),
        }
    }

    /// Checks `password` against `hash`; with no hash it still spends the same time, then fails.
    ///
    /// # Errors
    /// [`Error::Busy`] when the queue is full; otherwise only on an internal failure.
    pub async fn verify(&self, password: &Password, hash: Option<&str>) -> Result<bool> {
        let (phc, real) = match hash {
            Some(hash) => (hash.to_owned(), true),
            None => (self.dummy_hash().await?, false),
        };
        let work = Work::Verify {
            password: password.expose().to_owned(),
            phc,
        };
        match self.run(work).await? {
            Done::Verified(matches) => Ok(real && matches),
            Done::Hashed(_) => Err(Error::internal(anyhow::anyhow!("a verify job hashed"))),
        }
    }

    async fn dummy_hash(&self) -> Result<String> {
        self.dummy
            .get_or_try_init(|| async {
                let filler = Password::parse_existing(Some("not-a-real-password"))
                    .map_err(|m| Error::internal(anyhow::anyhow!(m)))?;
                self.hash(&filler).await
            })
            .await
            .cloned()
    }

    async fn run(&self, work: Work) -> Result<Done> {
        let (reply, answer) = oneshot::channel();
        match self.jobs.try_send(Job { work, reply }) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => return Err(Error::Busy),
            Err(TrySendError::Disconnected(_)) => {
                return Err(Error::internal(anyhow::anyhow!("the hashing threads are gone")));
            }
        }
        answer
            .await
            .context("a hashing thread stopped")
            .map_err(Error::internal)?
            .map_err(Error::internal)
    }
}

/// A hashing thread: takes jobs until the hasher is dropped, always in the same memory.
fn work(jobs: &Mutex<Receiver<Job>>) {
    let mut memory: Vec<Block> = Vec::new();
    loop {
        let job = {
            let Ok(jobs) = jobs.lock() else { return };
            match jobs.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        if memory.is_empty() {
            memory = vec![Block::default(); params().block_count()];
        }
        let done = match job.work {
            Work::Hash(password) => hash_with(&password, &mut memory).map(Done::Hashed),
            Work::Verify { password, phc } => verify_with(&password, &phc, &mut memory).map(Done::Verified),
        };
        // The caller may have gone (a cancelled request): nothing to tell then.
        let _ = job.reply.send(done);
    }
}

fn hash_with(password: &str, memory: &mut [Block]) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    let mut salt_buf = [0_u8; 64];
    let salt_bytes = salt
        .as_salt()
        .decode_b64(&mut salt_buf)
        .map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    let mut out = [0_u8; OUTPUT_LEN];
    argon2()
        .hash_password_into_with_memory(password.as_bytes(), salt_bytes, &mut out, memory)
        .map_err(|e| anyhow::anyhow!("argon2 hash failed: {e}"))?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params()).map_err(|e| anyhow::anyhow!("params: {e}"))?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&out).map_err(|e| anyhow::anyhow!("output: {e}"))?),
    };
    Ok(phc.to_string())
}

/// Checks in the thread's memory when the stored hash has our parameters; a hash made with
/// other parameters (an older policy) is checked the ordinary way.
fn verify_with(password: &str, phc: &str, memory: &mut [Block]) -> anyhow::Result<bool> {
    let parsed = PasswordHash::new(phc).map_err(|e| anyhow::anyhow!("stored hash unreadable: {e}"))?;
    let ours = parsed.algorithm == Algorithm::Argon2id.ident()
        && parsed.version == Some(Version::V0x13.into())
        && Params::try_from(&parsed).is_ok_and(|p| {
            p.m_cost() == params().m_cost()
                && p.t_cost() == params().t_cost()
                && p.p_cost() == params().p_cost()
        });
    let (Some(salt), Some(expected), true) = (parsed.salt, parsed.hash, ours) else {
        return Ok(Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok());
    };
    let mut salt_buf = [0_u8; 64];
    let salt_bytes = salt
        .decode_b64(&mut salt_buf)
        .map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    let mut out = vec![0_u8; expected.len()];
    let argon2 = Argon2::new(
        Algorithm::Argon2id,
        Version::V0x13,
        Params::new(
            params().m_cost(),
            params().t_cost(),
            params().p_cost(),
            Some(expected.len()),
        )
        .map_err(|e| anyhow::anyhow!("params: {e}"))?,
    );
    argon2
        .hash_password_into_with_memory(password.as_bytes(), salt_bytes, &mut out, memory)
        .map_err(|e| anyhow::anyhow!("argon2 verify failed: {e}"))?;
    // Output's equality is constant-time.
    Ok(Output::new(&out).is_ok_and(|computed| computed == expected))
}

#[cfg(test)]
mod tests {
    use argon2::PasswordHasher as _;

    use super::*;

    fn password(text: &str) -> Password {
        Password::parse_existing(Some(text)).unwrap()
    }

    #[tokio::test]
    async fn the_pool_hashes_and_verifies_in_standard_phc_form() {
        let hasher = PasswordHasher::with_threads(1, 4);
        let hash = hasher.hash(&password("quietRiver42")).await.unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{hash}");
        // The stock verifier agrees with the pool, and the pool with the stock hasher.
        let parsed = PasswordHash::new(&hash).unwrap();
        assert!(argon2().verify_password(b"quietRiver42", &parsed).is_ok());
        assert!(
            hasher
                .verify(&password("quietRiver42"), Some(&hash))
                .await
                .unwrap()
        );
        assert!(
            !hasher
                .verify(&password("quietRiver43"), Some(&hash))
                .await
                .unwrap()
        );
        let stock = argon2()
            .hash_password(b"quietRiver42", &SaltString::generate(&mut OsRng))
            .unwrap()
            .to_string();
        assert!(
            hasher
                .verify(&password("quietRiver42"), Some(&stock))
                .await
                .unwrap()
        );
    }

    #[tokio::test]
    async fn hashes_made_with_other_parameters_still_verify() {
        let older = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(8 * 1024, 3, 1, None).unwrap(),
        )
        .hash_password(b"quietRiver42", &SaltString::generate(&mut OsRng))
        .unwrap()
        .to_string();
        let hasher = PasswordHasher::with_threads(1, 4);
        assert!(
            hasher
                .verify(&password("quietRiver42"), Some(&older))
                .await
                .unwrap()
        );
        assert!(!hasher.verify(&password("wrong"), Some(&older)).await.unwrap());
        assert!(!hasher.verify(&password("quietRiver42"), None).await.unwrap());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_burst_beyond_the_queue_gets_busy_instead_of_waiting() {
        let hasher = PasswordHasher::with_threads(1, 2);
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let hasher = hasher.clone();
                tokio::spawn(async move { hasher.hash(&password("anything")).await })
            })
            .collect();
        let mut results = Vec::new();
        for task in tasks {
            results.push(task.await.expect("task"));
        }
        let busy = results.iter().filter(|r| matches!(r, Err(Error::Busy))).count();
        let done = results.iter().filter(|r| r.is_ok()).count();
        assert!(busy >= 1, "some were turned away");
        assert!(done >= 2, "the running one and the queued ones finished: {done}");
        assert_eq!(busy + done, 8);
    }
}
