//! The public feed as anonymous visitors get it, kept for one second per instance: the feed is
//! read far more than it is written, and a second of staleness on another instance is
//! harmless for news (never for anything about accounts, which this never holds). A write on
//! this instance empties it at once.

use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant},
};

use bytes::Bytes;

const FRESH_FOR: Duration = Duration::from_secs(1);
/// Distinct pages kept at most (page size × cursor); past it the cache starts over.
const MAX_PAGES: usize = 256;

type Key = (Option<i32>, Option<String>);

#[derive(Default)]
pub struct PublicFeedCache {
    pages: Mutex<HashMap<Key, (Instant, Bytes)>>,
}

impl PublicFeedCache {
    /// The rendered page for `limit` and `cursor`, if it is fresh.
    pub fn get(&self, limit: Option<i32>, cursor: Option<&str>) -> Option<Bytes> {
        let pages = self.pages.lock().ok()?;
        let (at, page) = pages.get(&(limit, cursor.map(str::to_owned)))?;
        (at.elapsed() < FRESH_FOR).then(|| page.clone())
    }

    pub fn put(&self, limit: Option<i32>, cursor: Option<&str>, page: Bytes) {
        if let Ok(mut pages) = self.pages.lock() {
            if pages.len() >= MAX_PAGES {
                pages.clear();
            }
            pages.insert((limit, cursor.map(str::to_owned)), (Instant::now(), page));
        }
    }

    /// After a write: the next read renders the feed again.
    pub fn clear(&self) {
        if let Ok(mut pages) = self.pages.lock() {
            pages.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_served_while_fresh_and_forgotten_on_a_write() {
        let cache = PublicFeedCache::default();
        cache.put(Some(20), None, Bytes::from_static(b"page"));
        assert_eq!(cache.get(Some(20), None).as_deref(), Some(&b"page"[..]));
        assert!(cache.get(Some(20), Some("cursor")).is_none());
        cache.clear();
        assert!(cache.get(Some(20), None).is_none());
    }
}
