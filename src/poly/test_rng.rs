//! A small deterministic generator for `poly`'s tests against
//! enumeration (no dependency for tests): [`Lcg`].

/// A linear congruential generator (Knuth's MMIX constants).
pub(crate) struct Lcg(pub u64);

impl Lcg {
    /// The next value in `0..m` (`m > 0`).
    pub fn next(&mut self, m: i64) -> i64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % (m as u64)) as i64
    }
}
