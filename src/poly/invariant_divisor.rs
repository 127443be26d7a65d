//! Division of many 64-bit magnitudes by one divisor, by multiplication:
//! [`InvariantDivisor`].
//!
//! The simplex divides every entry of a row by the row's content, and tests
//! each entry for divisibility by it first; a hardware division per entry
//! was most of the time of the schedulers' densest systems. For an odd `d`,
//! multiplying by `d`'s inverse modulo 2⁶⁴ maps each multiple `q·d` with
//! `q ≤ ⌊(2⁶⁴ − 1) / d⌋` to `q` itself, and every other value (a bijection)
//! to something larger: one multiplication both tests the division and
//! performs it (Granlund & Montgomery, "Division by invariant integers
//! using multiplication", 1994, §9; Warren, *Hacker's Delight*, §10-16).
//! An even divisor's power of two is a shift. Everything here is exact.

/// A divisor `d = odd · 2^shift > 0`, ready to divide by.
#[derive(Clone, Copy, Debug)]
pub(super) struct InvariantDivisor {
    shift: u32,
    /// The inverse of `odd` modulo 2⁶⁴.
    inverse: u64,
    /// `⌊(2⁶⁴ − 1) / odd⌋`: the largest quotient by `odd` that fits.
    max_quotient: u64,
}

impl InvariantDivisor {
    /// `None` for zero, which divides nothing.
    pub fn new(d: u64) -> Option<InvariantDivisor> {
        if d == 0 {
            return None;
        }
        let shift = d.trailing_zeros();
        let odd = d >> shift;
        // `odd · odd ≡ 1 (mod 8)`: three bits right; each Newton step
        // doubles them (3, 6, 12, 24, 48, 96).
        let mut inverse = odd;
        for _ in 0..5 {
            inverse = inverse.wrapping_mul(2u64.wrapping_sub(odd.wrapping_mul(inverse)));
        }
        debug_assert_eq!(odd.wrapping_mul(inverse), 1);
        Some(InvariantDivisor {
            shift,
            inverse,
            max_quotient: u64::MAX / odd,
        })
    }

    /// `a / d` when `d` divides `a`, else `None`. Exact.
    pub fn exact_quotient(&self, a: u64) -> Option<u64> {
        if a == 0 {
            return Some(0);
        }
        if a.trailing_zeros() < self.shift {
            return None;
        }
        let q = (a >> self.shift).wrapping_mul(self.inverse);
        (q <= self.max_quotient).then_some(q)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::test_rng::Lcg;

    /// Against `%` and `/` on edge values and on random products, which
    /// make the divisible case common.
    #[test]
    fn exact_quotient_agrees_with_division() {
        let edges = [
            0,
            1,
            2,
            3,
            6,
            7,
            1 << 40,
            (1 << 63) - 1,
            1 << 63,
            (1 << 63) + 1,
            u64::MAX - 1,
            u64::MAX,
        ];
        let mut pairs: Vec<(u64, u64)> = edges
            .iter()
            .flat_map(|&a| edges.iter().map(move |&d| (a, d)))
            .collect();
        let mut rng = Lcg(11);
        for _ in 0..20_000 {
            let d = rng.next(1 << 24).unsigned_abs() + 1;
            let q = rng.next(1 << 30).unsigned_abs() << rng.next(12);
            let noise = rng.next(3).unsigned_abs();
            pairs.push((q.wrapping_mul(d).wrapping_add(noise), d));
            pairs.push((q, d << rng.next(8)));
        }
        for (a, d) in pairs {
            let expected = (d != 0 && a % d == 0).then(|| a / d);
            let got = InvariantDivisor::new(d).and_then(|v| v.exact_quotient(a));
            assert_eq!(got, expected, "{a} / {d}");
        }
    }
}
