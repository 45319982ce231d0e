//! What the session lookup and the token endpoint's grouped writes share: one statement for
//! many callers, padded to a few sizes, and a queue that a task drains while callers wait.

use std::sync::{Mutex, PoisonError};

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
}
