//! What the session lookup, the token endpoint's reads and its grouped writes share: one
//! statement for many callers, padded to a few sizes, and a queue that a task drains while
//! callers wait.

use std::{
    collections::HashMap,
    hash::Hash,
    sync::{Arc, Mutex, PoisonError},
};

use tokio::sync::watch;

use crate::error::Error;

/// `items` in chunks of at most the largest of `sizes`, each padded up to the first size that
/// holds it by repeating its first item: a statement over `IN (…)` then comes in as many
/// shapes as there are sizes, each prepared once per connection, instead of one per count.
pub fn padded_chunks<'a, T: Copy>(
    items: &'a [T],
    sizes: &'a [usize],
) -> impl Iterator<Item = impl Iterator<Item = T> + 'a> + 'a {
    let largest = sizes.last().copied().unwrap_or(1).max(1);
    items.chunks(largest).map(move |chunk| {
        let size = sizes
            .iter()
            .copied()
            .find(|&size| size >= chunk.len())
            .unwrap_or(chunk.len());
        chunk
            .iter()
            .copied()
            .chain(std::iter::repeat(chunk[0]))
            .take(size)
    })
}

/// Held by the task draining a queue: should the task end without saying it is done (a
/// panic, or its runtime going away), `abandon` puts the queue back the way a caller can
/// start a new task from, and drops what was waiting so those callers are answered (their
/// senders go away) instead of waiting for a task that is gone.
pub struct Drain<'a, Q> {
    queue: &'a Mutex<Q>,
    abandon: fn(&mut Q),
    done: bool,
}

impl<'a, Q> Drain<'a, Q> {
    pub fn new(queue: &'a Mutex<Q>, abandon: fn(&mut Q)) -> Self {
        Self {
            queue,
            abandon,
            done: false,
        }
    }

    /// The queue, locked (a poisoned lock is taken as it is: its state is a few fields that
    /// every step leaves consistent).
    pub fn lock(&self) -> std::sync::MutexGuard<'a, Q> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The task found nothing waiting and returns normally.
    pub fn done(&mut self) {
        self.done = true;
    }
}

impl<Q> Drop for Drain<'_, Q> {
    fn drop(&mut self) {
        if !self.done {
            (self.abandon)(&mut self.lock());
        }
    }
}

/// Why a coalesced read failed, kept so each waiting caller can answer with its own error (the
/// cause is logged once, by the read).
#[derive(Debug, Clone, Copy)]
pub enum ReadFailed {
    Unavailable,
    Internal,
}

impl ReadFailed {
    /// The failure of a read, logged here once for all who waited on it.
    pub fn of(err: sea_orm::DbErr, what: &str) -> Self {
        match Error::from(err) {
            Error::Unavailable => Self::Unavailable,
            err => {
                tracing::error!(error = ?err, "{what} failed");
                Self::Internal
            }
        }
    }
}

impl From<ReadFailed> for Error {
    fn from(failed: ReadFailed) -> Self {
        match failed {
            ReadFailed::Unavailable => Self::Unavailable,
            ReadFailed::Internal => Self::internal(anyhow::anyhow!("a coalesced read failed")),
        }
    }
}

/// What one read found, by key, shared by every caller that waited on it.
pub type Found<K, R> = Result<HashMap<K, R>, ReadFailed>;

/// A read of many rows by key in one go, for [`Coalesced`].
pub trait Read: Send + Sync + 'static {
    type Key: Clone + Eq + Hash + Ord + Send + Sync + 'static;
    /// What a caller gets for its key: cheap to clone (an `Arc`), as every caller of a key
    /// gets one.
    type Row: Clone + Send + Sync + 'static;

    /// The rows of `keys` (sorted, without duplicates); a key with no row is left out.
    fn read(&self, keys: Vec<Self::Key>) -> impl Future<Output = Found<Self::Key, Self::Row>> + Send;
}

/// The callers waiting for the next read.
struct Batch<K, R> {
    keys: Vec<K>,
    found: watch::Sender<Option<Arc<Found<K, R>>>>,
}

struct Waiting<K, R> {
    /// Filled by arriving callers; taken whole by the reader.
    next: Option<Batch<K, R>>,
    /// Whether a reader task is running (it runs until no caller waits).
    reading: bool,
}

/// Reads coalesced: callers that arrive while a read is at the database wait for the next
/// read, and that read fetches every key waiting on it in one go.
///
/// This is not a cache. Every caller is answered by a read that *started after it arrived*,
/// so it sees everything committed before it, on any instance. What coalescing saves is the
/// per-query cost (a round trip to PostgreSQL, a hop to SQLite's worker thread, a statement),
/// which under load is most of a lookup.
pub struct Coalesced<R: Read> {
    reader: R,
    queue: Mutex<Waiting<R::Key, R::Row>>,
}

impl<R: Read> Coalesced<R> {
    pub fn new(reader: R) -> Self {
        Self {
            reader,
            queue: Mutex::new(Waiting {
                next: None,
                reading: false,
            }),
        }
    }

    /// The row of `key`, as a read that started after this call found it; `None` when there
    /// is none.
    ///
    /// # Errors
    /// When the database could not be read (503 when it is unreachable).
    pub async fn find(self: &Arc<Self>, key: R::Key) -> Result<Option<R::Row>, Error> {
        let (mut found, start_reader) = {
            let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
            let batch = queue.next.get_or_insert_with(|| Batch {
                keys: Vec::new(),
                found: watch::Sender::new(None),
            });
            batch.keys.push(key.clone());
            let found = batch.found.subscribe();
            let start_reader = !std::mem::replace(&mut queue.reading, true);
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
            Ok(rows) => Ok(rows.get(&key).cloned()),
            Err(failed) => Err((*failed).into()),
        }
    }

    /// Reads batch after batch until a read ends with nobody waiting.
    async fn read_until_idle(self: Arc<Self>) {
        // Should this task die (a panic), the next caller starts a new reader, and those
        // already queued are answered (503) instead of left waiting: their sender is dropped.
        let mut drain = Drain::new(&self.queue, |queue: &mut Waiting<R::Key, R::Row>| {
            queue.reading = false;
            queue.next = None;
        });
        loop {
            let batch = {
                let mut queue = drain.lock();
                if let Some(batch) = queue.next.take() {
                    batch
                } else {
                    // In the same critical section as finding the queue empty: a caller
                    // arriving next sees no reader and starts one.
                    queue.reading = false;
                    drop(queue);
                    drain.done();
                    return;
                }
            };
            let mut keys = batch.keys;
            keys.sort_unstable();
            keys.dedup();
            let found = self.reader.read(keys).await;
            batch.found.send_replace(Some(Arc::new(found)));
            // The pool takes a connection back on a task of its own, spawned as the read
            // ended: letting it run first means the next read finds that connection idle
            // instead of making the pool open another one (tens of milliseconds on
            // PostgreSQL, which every waiting caller would wait out).
            tokio::task::yield_now().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_padded_to_the_next_size_with_their_first_item() {
        let items: Vec<u32> = (1..=7).collect();
        let chunks: Vec<Vec<u32>> = padded_chunks(&items, &[1, 4]).map(Iterator::collect).collect();
        assert_eq!(chunks, [vec![1, 2, 3, 4], vec![5, 6, 7, 5]]);
        let one: Vec<Vec<u32>> = padded_chunks(&items[..1], &[1, 4])
            .map(Iterator::collect)
            .collect();
        assert_eq!(one, [vec![1]]);
        assert_eq!(padded_chunks(&items[..0], &[1, 4]).count(), 0);
    }

    #[test]
    fn a_task_that_dies_abandons_the_queue_and_one_that_is_done_leaves_it() {
        type Queue = (bool, Vec<u32>);
        let queue: Mutex<Queue> = Mutex::new((true, vec![1, 2]));
        let abandon = |queue: &mut Queue| {
            queue.0 = false;
            queue.1.clear();
        };
        let died = std::panic::catch_unwind(|| {
            let _drain = Drain::new(&queue, abandon);
            panic!("the task died");
        });
        assert!(died.is_err());
        let lock = || queue.lock().unwrap_or_else(PoisonError::into_inner);
        assert_eq!(
            *lock(),
            (false, vec![]),
            "a new task may start and no caller waits"
        );

        *lock() = (true, vec![3]);
        let mut drain = Drain::new(&queue, abandon);
        drain.done();
        drop(drain);
        assert_eq!(*lock(), (true, vec![3]));
    }

    /// A read that dies first, then fails, then finds the even keys.
    #[derive(Default)]
    struct Flaky {
        calls: std::sync::atomic::AtomicUsize,
    }

    impl Read for Flaky {
        type Key = u32;
        type Row = u32;

        async fn read(&self, keys: Vec<u32>) -> Found<u32, u32> {
            match self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst) {
                0 => panic!("the reader died"),
                1 => Err(ReadFailed::Unavailable),
                _ => Ok(keys
                    .into_iter()
                    .filter(|k| k % 2 == 0)
                    .map(|k| (k, k * 10))
                    .collect()),
            }
        }
    }

    #[tokio::test]
    async fn callers_hear_of_a_dead_or_failed_read_and_the_next_read_serves_them() {
        let coalesced = Arc::new(Coalesced::new(Flaky::default()));
        assert!(
            matches!(coalesced.find(2).await, Err(Error::Unavailable)),
            "a caller whose reader died is answered, not left waiting"
        );
        assert!(matches!(coalesced.find(2).await, Err(Error::Unavailable)));
        assert_eq!(coalesced.find(2).await.unwrap(), Some(20));
        assert_eq!(coalesced.find(3).await.unwrap(), None);
    }
}
