//! Quotients folded as they are printed: `⌊a / q⌋` and `⌈a / q⌉` of a
//! form that is a constant in the copy being printed, the terms of a
//! divisibility test `a % m == 0` that `m` divides, and the common factor
//! of a quotient's numerator and divisor (`polyc_floord(-2 * j, 4)` is
//! `polyc_floord(-j, 2)`; an iterator's `(2 * j) / 2 + 63` is `j + 63`).
//!
//! Scanning leaves them where a bound's numerator cancels to a constant
//! (`j = i + 2 * polyc_ceild(0, 2)`, a loop strided from its outer
//! loop's value) or a guard's coefficient is a multiple of its modulus
//! (`(2 * j) % 2 == 0`): 208 of the 2,290 programs that `auto` printed
//! for the random kernels of seeds 33 and 34 read one, and 584 print
//! shorter with the folds here (each compiled and run as before). Exact:
//! Euclidean division, checked; a quotient that does not fit is printed
//! as the helper call it was.

use super::{aff_text, Printer};
use crate::emit::scan::{Expr, Sum};
use crate::poly::gcd_of;

impl Printer<'_> {
    /// `⌊a / q⌋` (`ceil` false) or `⌈a / q⌉` of `a` as this copy reads
    /// it, as C: the number where `a` is a constant, else the helper.
    pub(super) fn quotient(&self, a: &Sum, q: i64, ceil: bool) -> String {
        let (a, q) = common_factor_divided(self.resolve(a), q);
        if let Some(v) = constant_of(&a).and_then(|n| divided(n, q, ceil)) {
            return self.checked(Some(v)).to_string();
        }
        match (q, ceil) {
            (1, _) => aff_text(&a),
            (_, true) => format!("polyc_ceild({}, {q})", aff_text(&a)),
            (_, false) => format!("polyc_floord({}, {q})", aff_text(&a)),
        }
    }

    /// `a` plus `k · ⌊num / div⌋`: folded into its constant where `num`
    /// is a constant in this copy, else one more term named by its text.
    pub(super) fn add_floor(&self, a: &mut Sum, k: i64, num: &Sum, div: i64) {
        let (resolved, div) = common_factor_divided(self.resolve(num), div);
        let folded = constant_of(&resolved)
            .and_then(|n| divided(n, div, false))
            .and_then(|v| k.checked_mul(v))
            .and_then(|v| v.checked_add(a.constant));
        match (folded, div) {
            (Some(c), _) => a.constant = self.checked(Some(c)),
            (None, 1) => {
                let text = aff_text(&resolved);
                a.terms.push((k, format!("({text})")));
            }
            (None, _) => a
                .terms
                .push((k, format!("polyc_floord({}, {div})", aff_text(&resolved)))),
        }
    }

    /// The first value from `lower` of a loop of step `stride` through
    /// `offset`, `offset + stride · ⌈(lower − offset) / stride⌉`, as C
    /// where `lower` is affine and differs from `offset` by a constant:
    /// `offset` plus a number. `None` otherwise.
    pub(super) fn stride_start_folded(
        &self,
        lower: &Expr,
        offset: &Sum,
        stride: i64,
    ) -> Option<String> {
        let (Expr::Ceil(l, 1) | Expr::Floor(l, 1)) = lower else {
            return None;
        };
        let off = self.resolve(offset);
        let diff = constant_of(&self.resolve(l).minus(&off)?)?;
        let steps = divided(diff, stride, true)?.checked_mul(stride)?;
        let start = off.plus(steps)?;
        Some(match constant_of(&start) {
            Some(c) => self.checked(Some(c)).to_string(),
            None => aff_text(&start),
        })
    }

    /// The test `a % m == 0` (`a` as this copy reads it, its floors
    /// already terms) as C, the same test in fewer words: without the
    /// terms whose coefficient `m` divides, its constant the one nearest
    /// zero modulo `m` (`- 1`, not `+ 2`, modulo 3), divided with `m` by
    /// their common factor, negated where its first term is (`c5 % 2`,
    /// not `(-c5) % 2`). `None` where nothing is left, so that it always
    /// holds.
    pub(super) fn divisibility(&self, a: &Sum, m: i64) -> Option<String> {
        let mut a = a.clone();
        let mut m = m;
        if m > 0 {
            a.terms.retain(|(c, _)| c % m != 0);
            a.constant = nearest_zero(a.constant, m);
            if a.terms.is_empty() && a.constant == 0 {
                return None;
            }
            // `(2 * i - 2 * j) % 4` is `(i - j) % 2`.
            (a, m) = common_factor_divided(a, m);
            if a.terms.first().is_some_and(|(c, _)| *c < 0) {
                if let Some(negated) = a.times(-1) {
                    a = negated;
                }
            }
        }
        Some(
            if a.terms.len() == 1 && a.terms[0].0 == 1 && a.constant == 0 {
                format!("{} % {m} == 0", a.terms[0].1)
            } else {
                format!("({}) % {m} == 0", aff_text(&a))
            },
        )
    }
}

/// The value of `a` where every coefficient is zero.
fn constant_of(a: &Sum) -> Option<i64> {
    a.terms.iter().all(|(c, _)| *c == 0).then_some(a.constant)
}

/// `a` and `q > 0` divided by the gcd of `q` and `a`'s coefficients and
/// constant: `a / q` is the same rational number, so its floor and
/// ceiling are the same (`polyc_floord(-2 * j, 4)` is
/// `polyc_floord(-j, 2)`); where `q` divides `a` at every point (an
/// iterator's exact quotient), so does C's truncating division
/// (`(2 * j) / 2` is `j`, `(4 * i + 2) / 6` is `(2 * i + 1) / 3`); and
/// `q` divides `a` exactly where the one divides the other (the test
/// `a % q == 0`).
pub(super) fn common_factor_divided(a: Sum, q: i64) -> (Sum, i64) {
    let g = gcd_of(a.terms.iter().map(|(c, _)| *c).chain([a.constant, q])).unwrap_or(1);
    if g <= 1 || q % g != 0 {
        return (a, q);
    }
    let terms = a.terms.into_iter().map(|(c, name)| (c / g, name)).collect();
    let reduced = Sum {
        terms,
        constant: a.constant / g,
    };
    (reduced, q / g)
}

/// The test `a ≥ 0` (or `a = 0` where `eq`) over integers, divided by
/// the gcd of `a`'s coefficients: the constant rounded down for an
/// inequality (`2 * i - 3 ≥ 0` is `i - 2 ≥ 0`), and an equation left as
/// it is where the gcd does not divide its constant. The same test.
pub(super) fn content_divided(a: Sum, eq: bool) -> Sum {
    let g = gcd_of(a.terms.iter().map(|(c, _)| *c)).unwrap_or(1);
    if g <= 1 || (eq && a.constant % g != 0) {
        return a;
    }
    Sum {
        terms: a.terms.into_iter().map(|(c, name)| (c / g, name)).collect(),
        constant: a.constant.div_euclid(g),
    }
}

/// Whether the tests `a ≥ 0` of `sums` hold at no point together, as
/// far as one of them alone or two opposite ones show: a constant below
/// zero, or `a ≥ 0` and `k − a ≥ 0` with `a`'s constant and `k` summing
/// below zero (their sum, a constant, would have to be at least zero).
/// Exact where it says yes; a cheap check, it may miss a contradiction
/// that takes three tests.
pub(super) fn never_hold(sums: &[Sum]) -> bool {
    let sorted = |terms: &[(i64, String)], sign: i64| {
        let mut t: Vec<(String, Option<i64>)> = terms
            .iter()
            .map(|(c, n)| (n.clone(), c.checked_mul(sign)))
            .collect();
        t.sort();
        t
    };
    sums.iter().enumerate().any(|(k, a)| {
        (a.terms.is_empty() && a.constant < 0)
            || sums[k + 1..].iter().any(|b| {
                sorted(&a.terms, 1) == sorted(&b.terms, -1)
                    && a.constant.checked_add(b.constant).is_some_and(|c| c < 0)
            })
    })
}

/// The value congruent to `c` modulo `m > 0` nearest zero, of `c`'s sign
/// where two are as near.
fn nearest_zero(c: i64, m: i64) -> i64 {
    let up = c.rem_euclid(m);
    let down = up - m;
    match up.cmp(&-down) {
        std::cmp::Ordering::Less => up,
        std::cmp::Ordering::Greater => down,
        std::cmp::Ordering::Equal if c < 0 => down,
        std::cmp::Ordering::Equal => up,
    }
}

/// `⌊n / q⌋` or `⌈n / q⌉`, for `q > 0`; `None` otherwise or past 64 bits.
fn divided(n: i64, q: i64, ceil: bool) -> Option<i64> {
    if q <= 0 {
        return None;
    }
    let floor = n.checked_div_euclid(q)?;
    if ceil && n.checked_rem_euclid(q)? != 0 {
        floor.checked_add(1)
    } else {
        Some(floor)
    }
}

#[cfg(test)]
mod tests {
    use super::{common_factor_divided, divided, nearest_zero, never_hold};
    use crate::emit::scan::Sum;

    #[test]
    fn an_common_factor_divided_is_over_its_smallest_divisor() {
        let sum = |terms: &[(i64, &str)], constant: i64| Sum {
            terms: terms.iter().map(|&(c, n)| (c, n.to_string())).collect(),
            constant,
        };
        assert_eq!(
            common_factor_divided(sum(&[(2, "j")], 0), 2),
            (sum(&[(1, "j")], 0), 1)
        );
        assert_eq!(
            common_factor_divided(sum(&[(-64, "c2")], -2), 2),
            (sum(&[(-32, "c2")], -1), 1)
        );
        assert_eq!(
            common_factor_divided(sum(&[(4, "i")], 2), 6),
            (sum(&[(2, "i")], 1), 3)
        );
        assert_eq!(
            common_factor_divided(sum(&[(3, "i")], 1), 2),
            (sum(&[(3, "i")], 1), 2)
        );
        // C's truncating division agrees on every multiple.
        for i in -30..=30 {
            let (a, q) = common_factor_divided(sum(&[(4, "i")], 2), 6);
            let value = |s: &Sum| s.terms[0].0 * i + s.constant;
            if (4 * i + 2) % 6 == 0 {
                assert_eq!((4 * i + 2) / 6, value(&a) / q);
            }
        }
    }

    #[test]
    fn constants_of_a_divisibility_test_are_the_nearest_to_zero() {
        for m in 1..=6 {
            for c in -20..=20 {
                let r = nearest_zero(c, m);
                assert_eq!((c - r) % m, 0, "{c} mod {m}");
                assert!(2 * r.abs() <= m, "{c} mod {m}: {r}");
                if 2 * r.abs() == m {
                    assert!(r == 0 || (r < 0) == (c < 0), "{c} mod {m}: {r}");
                }
            }
        }
        assert_eq!(nearest_zero(-1, 3), -1);
        assert_eq!(nearest_zero(31, 3), 1);
        assert_eq!(nearest_zero(i64::MIN, 7), i64::MIN % 7);
    }

    /// Two opposite tests whose constants sum below zero, or one constant
    /// test below zero, never hold; tests that meet at one point, or
    /// that are not opposite, may.
    #[test]
    fn opposite_tests_that_leave_nothing_never_hold() {
        let sum = |terms: &[(i64, &str)], constant: i64| Sum {
            terms: terms.iter().map(|(c, n)| (*c, n.to_string())).collect(),
            constant,
        };
        // j - 3 >= 0 and 2 - j >= 0; the terms in another order.
        let j_from_3 = sum(&[(1, "j"), (-2, "i")], -3);
        assert!(never_hold(&[
            j_from_3.clone(),
            sum(&[(2, "i"), (-1, "j")], 2)
        ]));
        assert!(!never_hold(&[
            j_from_3.clone(),
            sum(&[(2, "i"), (-1, "j")], 3)
        ]));
        assert!(!never_hold(&[j_from_3, sum(&[(2, "i"), (-2, "j")], 2)]));
        assert!(never_hold(&[sum(&[(1, "n")], 0), sum(&[], -1)]));
        assert!(!never_hold(&[sum(&[], 0)]));
    }

    #[test]
    fn quotients_round_down_and_up_as_the_helpers_do() {
        // The helpers of `super::HELPERS`, in Rust.
        let floord = |n: i64, d: i64| if n < 0 { -((-n + d - 1) / d) } else { n / d };
        let ceild = |n: i64, d: i64| if n < 0 { -((-n) / d) } else { (n + d - 1) / d };
        for n in -40..=40 {
            for d in 1..=7 {
                assert_eq!(divided(n, d, false), Some(floord(n, d)), "{n} / {d}");
                assert_eq!(divided(n, d, true), Some(ceild(n, d)), "{n} / {d}");
            }
        }
        assert_eq!(divided(i64::MIN, 1, false), Some(i64::MIN));
        assert_eq!(divided(i64::MIN, 2, true), Some(i64::MIN / 2));
        assert_eq!(divided(5, 0, false), None);
    }
}
