//! A bounded memo keyed by flat integer vectors: [`FlatMemo`].
//!
//! The exact tests remember what they built or answered (the Omega test's
//! answers, `scop::validity`'s pairs of pieces) under a key that holds
//! every input, flattened into one `Vec<i64>`: one allocation to keep, one
//! comparison to find. A key is found by its hash and then compared whole,
//! so a hash collision never returns another key's value. The memo holds
//! at most a given number of cells (coefficients, keys included); past
//! that it is emptied and starts again.

use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault};

use super::omega::RowHasher;
use super::{Constraint, ConstraintKind};

/// The values kept under one hash, each with its whole key.
type Bucket<V> = Vec<(Vec<i64>, V)>;

/// Values by flat keys, at most `max_cells` cells in all (module docs).
pub struct FlatMemo<V> {
    entries: HashMap<u64, Bucket<V>, BuildHasherDefault<RowHasher>>,
    cells: usize,
    max_cells: usize,
}

impl<V> FlatMemo<V> {
    /// An empty memo that holds at most `max_cells` cells.
    pub fn new(max_cells: usize) -> FlatMemo<V> {
        FlatMemo {
            entries: HashMap::default(),
            cells: 0,
            max_cells,
        }
    }

    fn hash(key: &[i64]) -> u64 {
        BuildHasherDefault::<RowHasher>::default().hash_one(key)
    }

    /// The value kept under `key`, if any.
    pub fn get(&self, key: &[i64]) -> Option<&V> {
        self.entries
            .get(&Self::hash(key))?
            .iter()
            .find(|(k, _)| k.as_slice() == key)
            .map(|(_, v)| v)
    }

    /// Keep `value` under `key`; `size` is the value's cells (the key's
    /// are counted too). One larger than a quarter of the memo is not
    /// kept; one that does not fit empties the memo first.
    pub fn insert(&mut self, key: Vec<i64>, value: V, size: usize) {
        let size = size.saturating_add(key.len());
        if size > self.max_cells / 4 {
            return;
        }
        if self.cells + size > self.max_cells {
            self.entries.clear();
            self.cells = 0;
        }
        self.cells += size;
        self.entries
            .entry(Self::hash(&key))
            .or_default()
            .push((key, value));
    }
}

/// Append `rows` to a key: each row as its kind (0 for an equality, 1
/// for an inequality), its length, its constant and its coefficients.
pub fn push_rows(key: &mut Vec<i64>, rows: &[Constraint]) {
    key.reserve(rows.iter().map(|r| 3 + r.coeffs.len()).sum());
    for r in rows {
        key.push(match r.kind {
            ConstraintKind::Eq => 0,
            ConstraintKind::Ineq => 1,
        });
        key.push(r.coeffs.len() as i64);
        key.push(r.constant);
        key.extend_from_slice(&r.coeffs);
    }
}

#[cfg(test)]
mod tests {
    use super::FlatMemo;

    #[test]
    fn a_key_gets_its_own_value_and_a_full_memo_starts_again() {
        let mut memo = FlatMemo::new(40);
        memo.insert(vec![1, 2], "a", 3);
        memo.insert(vec![2, 1], "b", 3);
        assert_eq!(memo.get(&[1, 2]), Some(&"a"));
        assert_eq!(memo.get(&[2, 1]), Some(&"b"));
        assert_eq!(memo.get(&[1]), None);
        // Larger than a quarter of the memo: not kept.
        memo.insert(vec![3], "c", 10);
        assert_eq!(memo.get(&[3]), None);
        // 10 cells held (values and keys); three more of 9 fit (37 of
        // 40), the next empties the memo and is all it holds.
        for k in 4..7 {
            memo.insert(vec![k], "d", 8);
        }
        assert_eq!(memo.get(&[1, 2]), Some(&"a"));
        memo.insert(vec![7], "e", 8);
        assert_eq!(memo.get(&[1, 2]), None);
        assert_eq!(memo.get(&[4]), None);
        assert_eq!(memo.get(&[7]), Some(&"e"));
    }
}
