//! A cache of two generations: what the last build made, and what this
//! build has used or made so far. Entries a build did not use are dropped
//! when it ends, which bounds the memory to one build's worth.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;

/// Values by key: the last build's, and this build's so far. Called from
/// many threads at once.
pub(crate) struct Generations<K, V> {
    last: Mutex<HashMap<K, V>>,
    next: Mutex<HashMap<K, V>>,
}

impl<K, V> Default for Generations<K, V> {
    fn default() -> Self {
        Generations {
            last: Mutex::default(),
            next: Mutex::default(),
        }
    }
}

impl<K: Hash + Eq + Clone, V: Clone> Generations<K, V> {
    /// The value under `key`, from this build or the last; a value of the
    /// last build is moved, not copied, into this build's.
    pub(crate) fn get(&self, key: &K) -> Option<V> {
        let mut next = self.next.lock().ok()?;
        if let Some(v) = next.get(key) {
            return Some(v.clone());
        }
        let v = self.last.lock().ok()?.remove(key)?;
        let copy = v.clone();
        next.insert(key.clone(), v);
        Some(copy)
    }

    /// The value the last build left under `key`, moved out of it and not
    /// kept for the next build (the caller decides with [`put`]).
    ///
    /// [`put`]: Generations::put
    pub(crate) fn take_last<Q>(&self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.last.lock().ok()?.remove(key)
    }

    /// Keeps `value` under `key` for the next build.
    pub(crate) fn put(&self, key: K, value: V) {
        if let Ok(mut next) = self.next.lock() {
            next.insert(key, value);
        }
    }

    /// Ends a build that succeeded: what it used becomes what the next one
    /// can reuse.
    pub(crate) fn rotate(&self) {
        if let (Ok(mut last), Ok(mut next)) = (self.last.lock(), self.next.lock()) {
            *last = std::mem::take(&mut *next);
        }
    }

    /// Ends a build that failed: its entries go back to the last build's.
    pub(crate) fn restore(&self) {
        if let (Ok(mut last), Ok(mut next)) = (self.last.lock(), self.next.lock()) {
            last.extend(std::mem::take(&mut *next));
        }
    }
}
