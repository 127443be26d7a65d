//! A statement's tile dates read off its target relation: each a strip
//! `size·T <= e <= size·T + size − 1` of a date's form `e`, as
//! `stripmine` writes it, where `T` is the tile date, possibly negated
//! (`reverse`), less a combination of other tile dates (a wavefront,
//! `T₀ + T₁`, as `skew` writes it), and `e` possibly the date plus
//! parameters and a constant (a `shift` after the strip) or plus a
//! multiple of another date (a `skew` of the point loop after it), or
//! `e` another tile date (a tile of a tile loop). The combination may
//! also hold a date with a form, inside the tile loop (the tile loop
//! skewed by its point loop after the tiling: `⌊j/16⌋ − j`).
//! Exact: integer forms compared and divided only where they divide.

use crate::poly::{BasicMap, ConstraintKind, PolyError};

/// A tile date of the target: the strip of `size` of the date at one of
/// the depths `points` plus `offset`, at depth `depth` (both 1-based, in
/// the target), plus `factor ×` the tile date at each of `skews`' depths
/// (a wavefront), times `sign`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Tile {
    pub depth: usize,
    /// The dates whose form the tile strips: several where dates repeat a
    /// form (`embed`, or fused statements); which one is the tile
    /// phase's choice, the same for every statement of the loop.
    pub points: Vec<usize>,
    pub size: i64,
    /// `(depth, factor)`, depths increasing; empty for a plain strip. A
    /// depth is another tile date's (a wavefront), or a date with a form
    /// inside the tile loop (the tile loop skewed by its point loop).
    pub skews: Vec<(usize, i64)>,
    /// `(depth, λ)` where the strip reads the point date plus `λ ×` the
    /// date at that depth (the point loop skewed after the strip): the
    /// point loop is skewed by it for the strip and back after it.
    pub point_skew: Option<(usize, i64)>,
    /// What the stripped form adds to the point date: the parameters'
    /// coefficients, then the constant; all 0 for a plain strip. A
    /// multiple of `size` is a `shift` of the tile loop; another offset,
    /// a `shift` of the point loop before the strip and back after it.
    pub offset: Vec<i64>,
    /// −1 where the tile loop runs backwards (a `reverse` of it), else 1.
    pub sign: i64,
    /// Whether the strip is of the point date negated (the point loop
    /// reversed after the strip): it is reversed for the strip and back
    /// after it, and `offset` is relative to the negated date.
    pub point_reversed: bool,
    /// The iterators' coefficients the strip adds to the point date (the
    /// point loop `reshape`d by iterators after the strip: seidel-2d's
    /// `2t + 3i + j` in a strip of `2t + i + j`): it is reshaped for the
    /// strip and back after it. Empty for none.
    pub point_reshape: Vec<i64>,
}

impl Tile {
    /// The `shift` of the tile loop that adds `offset` (the parameters'
    /// coefficients, then the constant, of `α := α − …`), when `offset`
    /// is a nonzero multiple of `size`; `None` also where the number of
    /// tiles overflows when negated (the replay then differs from the
    /// target: a gap, not a wrong answer).
    pub fn tile_shift(&self) -> Option<Vec<i64>> {
        let whole = self.offset.iter().all(|v| v % self.size == 0);
        let zero = self.offset.iter().all(|&v| v == 0);
        if !whole || zero {
            return None;
        }
        self.offset
            .iter()
            .map(|v| v.checked_div(self.size).and_then(i64::checked_neg))
            .collect()
    }

    /// Whether the strip is of the point date shifted by an offset that
    /// is not a multiple of `size` (a `shift` of the point loop around
    /// the strip).
    pub fn shifts_point(&self) -> bool {
        self.offset.iter().any(|v| v % self.size != 0)
    }
}

#[cfg(test)]
impl Tile {
    /// A strip by 4 of the dates at `points` plus `offset`, nothing else
    /// (tests).
    pub(super) fn plain(depth: usize, points: Vec<usize>, offset: Vec<i64>) -> Tile {
        Tile {
            depth,
            points,
            size: 4,
            skews: Vec::new(),
            point_skew: None,
            offset,
            sign: 1,
            point_reversed: false,
            point_reshape: Vec::new(),
        }
    }
}

/// A row of a schedule on its dates without a form: their coefficients
/// by depth, and the rest as a form over iterators, parameters and
/// constant.
struct BoundRow {
    dates: Vec<(usize, i64)>,
    form: Vec<i64>,
}

/// A pair of [`BoundRow`]s, `0 <= e − size·A·c <= size − 1`.
struct Strip {
    size: i64,
    /// What `e` reads of the dates.
    read: StripRead,
    /// `A·c`: the coefficient of each date without a form, by depth.
    combination: Vec<(usize, i64)>,
}

/// The dates of `piece` without a form (`forms`), as tile dates. Each
/// pair of rows that bound them, read over the iterators (the dates with
/// forms substituted), must be a strip `0 <= e − size·A·c <= size − 1` of
/// the form `e` of a date plus parameters and a constant, where `A·c`
/// combines the dates `c` without a form, or of one of those dates (a
/// tile of a tile loop: `e` has no iterator and that date comes with
/// coefficient 1). Peeled in order, each strip
/// must add exactly one date not taken by the strips before it, with
/// factor 1 or −1 (reversed): that date is the tile, and the others of
/// `A·c` its skews. `None` otherwise. Exact.
pub(super) fn read_tiles(
    piece: &BasicMap,
    n_param: usize,
    n: usize,
    forms: &[Option<Vec<i64>>],
    parts: &[Vec<(usize, i64)>],
) -> Result<Option<Vec<Tile>>, PolyError> {
    let out = n_param + n;
    let mut rows: Vec<BoundRow> = Vec::new();
    for c in piece.constraints() {
        let dates = &c.coeffs[out..out + piece.space().n_out()];
        // A row on a tile date, or on a point date skewed by one (whose
        // bounds, `0 <= i - 2·c <= 1`, are the strip's).
        let on_tile = dates.iter().enumerate().any(|(d, &a)| {
            let tile = forms.get(d / 2).is_some_and(Option::is_none);
            let skewed = parts.get(d / 2).is_some_and(|p| !p.is_empty());
            a != 0 && d % 2 == 1 && (tile || skewed)
        });
        if !on_tile {
            continue;
        }
        let mut form: Vec<i64> = c.coeffs[n_param..out]
            .iter()
            .chain(&c.coeffs[..n_param])
            .copied()
            .chain(std::iter::once(c.constant))
            .collect();
        let mut others: Vec<(usize, i64)> = Vec::new();
        let add = |others: &mut Vec<(usize, i64)>, depth: usize, v: i64| {
            match others.iter_mut().find(|(d, _)| *d == depth) {
                Some((_, w)) => *w = w.checked_add(v).ok_or(PolyError::Overflow)?,
                None => others.push((depth, v)),
            }
            Ok::<(), PolyError>(())
        };
        for (d, &a) in dates.iter().enumerate() {
            if a == 0 {
                continue;
            }
            let Some(f) = (d % 2 == 1).then(|| forms.get(d / 2)).flatten() else {
                return Ok(None);
            };
            let Some(f) = f else {
                add(&mut others, d / 2 + 1, a)?;
                continue;
            };
            for (x, &y) in form.iter_mut().zip(f) {
                *x = a
                    .checked_mul(y)
                    .and_then(|v| x.checked_add(v))
                    .ok_or(PolyError::Overflow)?;
            }
            // A point date skewed by tile dates adds them.
            for &(tile, factor) in parts.get(d / 2).map_or(&[][..], Vec::as_slice) {
                add(
                    &mut others,
                    tile,
                    a.checked_mul(factor).ok_or(PolyError::Overflow)?,
                )?;
            }
        }
        others.retain(|&(_, v)| v != 0);
        others.sort_unstable();
        // The equality that sets a skewed point date reads nothing once
        // its date is substituted.
        if others.is_empty() && form.iter().all(|&v| v == 0) {
            continue;
        }
        if c.kind == ConstraintKind::Eq {
            return Ok(None);
        }
        rows.push(BoundRow {
            dates: others,
            form,
        });
    }
    // Pairs: `Σ a·c + e >= 0` with `e` a date's form, and its negation
    // plus `size − 1`.
    let mut strips: Vec<Strip> = Vec::new();
    let mut paired = vec![false; rows.len()];
    // The dates some strip reads as they are: a strip that reads a date
    // plus a multiple of another takes one of the others as its point.
    let read_exactly: Vec<usize> = (0..forms.len())
        .filter(|&k| {
            let f = forms[k].as_ref();
            rows.iter()
                .any(|row| f.is_some_and(|f| f[..n] == row.form[..n]))
        })
        .map(|k| k + 1)
        .collect();
    for (i, BoundRow { dates: a, form: e }) in rows.iter().enumerate() {
        // A point loop runs inside its tile loop: the first depth of a
        // tile date the row bounds.
        let inside = a.iter().map(|&(d, _)| d).min().unwrap_or(0);
        // A strip of a tile date (a tile of a tile loop): `e` has no
        // iterator, one tile date comes with coefficient 1, and another
        // is the tile; else what `e` reads of the dates with a form.
        let of_tile = match a.len() > 1 && e[..n].iter().all(|&v| v == 0) {
            true => a.iter().find(|&&(_, v)| v == 1).map(|&(d, _)| d),
            false => None,
        };
        let (read, tile_point) = match of_tile {
            Some(d) => {
                let read = StripRead {
                    points: vec![d],
                    skew: None,
                    offset: e[n..].to_vec(),
                    stride: 1,
                    reversed: false,
                    reshape: Vec::new(),
                };
                (Some(read), Some(d))
            }
            None => (stripped_dates(forms, e, n, &read_exactly, inside)?, None),
        };
        let mut others: Vec<(usize, i64)> = a
            .iter()
            .filter(|&&(d, _)| Some(d) != tile_point)
            .copied()
            .collect();
        let negated: Vec<(usize, i64)> = a.iter().map(|&(d, v)| (d, -v)).collect();
        let partner = rows.iter().enumerate().position(|(j, b)| {
            let h = &b.form;
            !paired[j]
                && j != i
                && b.dates == negated
                && h.len() == e.len()
                && h[..h.len() - 1].iter().zip(e).all(|(x, y)| *x == -y)
        });
        let Some(j) = partner else {
            continue;
        };
        let (Some(&hc), Some(&ec)) = (rows[j].form.last(), e.last()) else {
            continue;
        };
        let size = hc
            .checked_add(ec)
            .and_then(|k| k.checked_add(1))
            .ok_or(PolyError::Overflow)?;
        if size < 1 || paired[i] {
            continue;
        }
        // Else a strip of a date plus whole strips of a date with a form
        // (the tile loop skewed by a loop inside it after the tiling): that
        // date joins the combination.
        let read = match read {
            Some(read) => read,
            None => match strip_plus_whole_strips(forms, e, n, size, &read_exactly, inside)? {
                Some((read, by)) => {
                    others.push(by);
                    others.sort_unstable();
                    read
                }
                None => match reshaped_read(forms, e, n, &read_exactly, inside)? {
                    Some(read) => read,
                    None => continue,
                },
            },
        };
        if others.iter().any(|&(_, v)| v % size != 0) {
            continue;
        }
        paired[i] = true;
        paired[j] = true;
        let combination = others.iter().map(|&(d, v)| (d, -v / size)).collect();
        strips.push(Strip {
            size: size.checked_mul(read.stride).ok_or(PolyError::Overflow)?,
            read,
            combination,
        });
    }
    if paired.iter().any(|p| !p) {
        return Ok(None);
    }
    let n_tiles = forms.iter().filter(|f| f.is_none()).count();
    // (tile date's depth, strip) in peeling order.
    let mut peeled: Vec<(usize, usize)> = Vec::new();
    while peeled.len() < n_tiles {
        // A date with a form is no tile (a tile loop skewed by it).
        let taken = |d: usize| {
            peeled.iter().any(|&(t, _)| t == d) || forms.get(d - 1).is_some_and(Option::is_some)
        };
        let next = strips.iter().enumerate().find_map(|(k, strip)| {
            let new: Vec<&(usize, i64)> = strip
                .combination
                .iter()
                .filter(|(d, _)| !taken(*d))
                .collect();
            match new[..] {
                [&(d, 1 | -1)] if !peeled.iter().any(|&(_, j)| j == k) => Some((d, k)),
                _ => None,
            }
        });
        let Some(next) = next else {
            return Ok(None);
        };
        peeled.push(next);
    }
    if peeled.len() != strips.len() {
        return Ok(None);
    }
    peeled.sort_unstable();
    let tiles = peeled
        .into_iter()
        .map(|(depth, k)| {
            let strip = &strips[k];
            let sign = strip
                .combination
                .iter()
                .find(|(d, _)| *d == depth)
                .map_or(1, |&(_, v)| v);
            Tile {
                depth,
                points: strip.read.points.clone(),
                point_skew: strip.read.skew,
                point_reversed: strip.read.reversed,
                point_reshape: strip.read.reshape.clone(),
                size: strip.size,
                skews: strip
                    .combination
                    .iter()
                    .filter(|(d, _)| *d != depth)
                    .map(|&(d, v)| (d, -v))
                    .collect(),
                offset: strip.read.offset.clone(),
                sign,
            }
        })
        .collect();
    Ok(Some(tiles))
}

/// What a strip reads: the depths (1-based) of the dates whose form it
/// strips (several where dates repeat a form), plus `factor ×` the date
/// at `skew`'s depth, plus `offset` (parameters and constant), divided
/// by `stride` (a point date `grain`ed after the strip: the strip of
/// `e` by `size` holds the integer points of the strip of `stride·e` by
/// `stride·size`), negated where `reversed` (the point loop reversed
/// after the strip; `offset` is then relative to the negated date).
#[derive(Debug, PartialEq, Eq)]
struct StripRead {
    points: Vec<usize>,
    skew: Option<(usize, i64)>,
    offset: Vec<i64>,
    stride: i64,
    reversed: bool,
    /// The iterators' coefficients the strip adds to the point date (the
    /// point loop `reshape`d after the strip); empty for none.
    reshape: Vec<i64>,
}

/// What the strip's form `e` reads of the dates' `forms` (on `n`
/// iterators): the dates `e` equals first, else those of the first date
/// that differs from `e` only in parameters and constant, else the first
/// date that is `e` times a factor other than 1 on the iterators (a
/// stride or a negation after the strip), else the first
/// date `f` and other date `g` with `e = f + λ·g` on the iterators (the
/// point loop skewed by `g` after the strip), `f` not among the depths
/// `read_exactly` (other strips' points) and deeper than `inside` (the
/// tile loop's depth) where there is such a pair. `None` when there is
/// none. Exact.
fn stripped_dates(
    forms: &[Option<Vec<i64>>],
    e: &[i64],
    n: usize,
    read_exactly: &[usize],
    inside: usize,
) -> Result<Option<StripRead>, PolyError> {
    let minus = less_times;
    let with_form = || {
        forms
            .iter()
            .enumerate()
            .filter_map(|(k, f)| Some((k + 1, f.as_ref().filter(|f| f.len() == e.len())?)))
    };
    let mut candidates: Vec<(usize, Vec<i64>)> = Vec::new();
    for (k, f) in with_form() {
        if f[..n] == e[..n] {
            candidates.push((k, minus(&e[n..], &f[n..], 1)?));
        }
    }
    let chosen = candidates
        .iter()
        .find(|(_, o)| o.iter().all(|&v| v == 0))
        .or(candidates.first())
        .map(|(_, o)| o.clone());
    if let Some(offset) = chosen {
        let points = candidates
            .iter()
            .filter(|(_, o)| *o == offset)
            .map(|(k, _)| *k)
            .collect();
        return Ok(Some(StripRead {
            points,
            skew: None,
            offset,
            stride: 1,
            reversed: false,
            reshape: Vec::new(),
        }));
    }
    // A date `f` with `f = g·e` on the iterators, `g ≠ 1`: the point
    // loop `grain`ed by `|g|` after the strip, and reversed where `g < 0`;
    // the strip of `|g|·e` is of `±f` plus `|g|·e ∓ f`.
    for (k, f) in with_form() {
        let Some(g) = multiple(&f[..n], &e[..n]).filter(|&g| g != 1) else {
            continue;
        };
        let (stride, reversed) = (g.checked_abs().ok_or(PolyError::Overflow)?, g < 0);
        let scaled = e[n..]
            .iter()
            .map(|&v| v.checked_mul(stride).ok_or(PolyError::Overflow))
            .collect::<Result<Vec<i64>, _>>()?;
        let points = with_form()
            .filter(|(_, h)| h == &f)
            .map(|(d, _)| d)
            .collect::<Vec<usize>>();
        debug_assert!(points.contains(&k));
        return Ok(Some(StripRead {
            points,
            skew: None,
            offset: minus(&scaled, &f[n..], if reversed { -1 } else { 1 })?,
            stride,
            reversed,
            reshape: Vec::new(),
        }));
    }
    // The candidates for `f`: free and inside the tile loop first.
    let mut points: Vec<(usize, &Vec<i64>)> = with_form().collect();
    points.sort_by_key(|&(k, _)| (read_exactly.contains(&k), k <= inside));
    for (k, f) in points {
        let rest = minus(&e[..n], &f[..n], 1)?;
        for (other, g) in with_form() {
            let Some(factor) = multiple(&rest, &g[..n]) else {
                continue;
            };
            if other == k {
                continue;
            }
            let offset = minus(&minus(&e[n..], &f[n..], 1)?, &g[n..], factor)?;
            let points = with_form()
                .filter(|(_, h)| h == &f)
                .map(|(d, _)| d)
                .collect();
            return Ok(Some(StripRead {
                points,
                skew: Some((other, factor)),
                offset,
                stride: 1,
                reversed: false,
                reshape: Vec::new(),
            }));
        }
    }
    Ok(None)
}

/// What a strip of `e` reads where no date gives it with at most one
/// other ([`stripped_dates`]): the first date inside the tile loop (past
/// `inside`) that no other strip reads exactly, plus what `e` adds to it
/// on the iterators (the point loop `reshape`d after the strip) and in
/// parameters and constant. `None` where `e` has no iterator or no date
/// is such. Exact.
fn reshaped_read(
    forms: &[Option<Vec<i64>>],
    e: &[i64],
    n: usize,
    read_exactly: &[usize],
    inside: usize,
) -> Result<Option<StripRead>, PolyError> {
    if e[..n].iter().all(|&v| v == 0) {
        return Ok(None);
    }
    let with_form = || {
        forms
            .iter()
            .enumerate()
            .filter_map(|(k, f)| Some((k + 1, f.as_ref().filter(|f| f.len() == e.len())?)))
    };
    let Some((_, f)) = with_form().find(|&(k, _)| k > inside && !read_exactly.contains(&k)) else {
        return Ok(None);
    };
    let reshape = less_times(&e[..n], &f[..n], 1)?;
    if reshape.iter().all(|&v| v == 0) {
        return Ok(None);
    }
    Ok(Some(StripRead {
        points: with_form()
            .filter(|(_, h)| *h == f)
            .map(|(d, _)| d)
            .collect(),
        skew: None,
        offset: less_times(&e[n..], &f[n..], 1)?,
        stride: 1,
        reversed: false,
        reshape,
    }))
}

/// `x − by·y`, element by element, checked.
pub(super) fn less_times(x: &[i64], y: &[i64], by: i64) -> Result<Vec<i64>, PolyError> {
    x.iter()
        .zip(y)
        .map(|(a, b)| {
            b.checked_mul(by)
                .and_then(|b| a.checked_sub(b))
                .ok_or(PolyError::Overflow)
        })
        .collect()
}

/// A strip's read and the date it adds: `(depth, the row's coefficient)`.
type StripPlusDate = (StripRead, (usize, i64));

/// Where `e` is the form a strip reads ([`stripped_dates`]) plus `size·λ`
/// times a date `g` with a form (on the iterators), the strip's read and
/// `(g's depth, size·λ)`, the row's coefficient of `g`: the tile date is
/// the strip less `λ·g`, the tile loop skewed by the loop of `g` after the
/// tiling (`⌊j/16⌋ − j`: `reshape` or `skew` of a tile loop by its point
/// loop). The first such date, by depth. `None` where there is none.
/// Exact.
fn strip_plus_whole_strips(
    forms: &[Option<Vec<i64>>],
    e: &[i64],
    n: usize,
    size: i64,
    read_exactly: &[usize],
    inside: usize,
) -> Result<Option<StripPlusDate>, PolyError> {
    for (k, g) in forms.iter().enumerate() {
        let Some(g) = g.as_ref().filter(|g| g.len() == e.len()) else {
            continue;
        };
        for f in forms.iter().flatten().filter(|f| f.len() == e.len()) {
            let rest: Vec<i64> = e[..n]
                .iter()
                .zip(f)
                .map(|(a, b)| a.checked_sub(*b).ok_or(PolyError::Overflow))
                .collect::<Result<_, _>>()?;
            let whole = g[..n]
                .iter()
                .map(|&v| v.checked_mul(size).ok_or(PolyError::Overflow))
                .collect::<Result<Vec<i64>, _>>()?;
            let Some(lambda) = multiple(&rest, &whole) else {
                continue;
            };
            let times = size.checked_mul(lambda).ok_or(PolyError::Overflow)?;
            let stripped: Vec<i64> = e
                .iter()
                .zip(g)
                .map(|(&a, &b)| {
                    b.checked_mul(times)
                        .and_then(|b| a.checked_sub(b))
                        .ok_or(PolyError::Overflow)
                })
                .collect::<Result<_, _>>()?;
            if let Some(read) = stripped_dates(forms, &stripped, n, read_exactly, inside)? {
                return Ok(Some((read, (k + 1, times))));
            }
        }
    }
    Ok(None)
}

/// The nonzero `λ` with `x = λ·y`, if any (`y` not all zero).
pub(super) fn multiple(x: &[i64], y: &[i64]) -> Option<i64> {
    let (&a, &b) = x.iter().zip(y).find(|(_, &b)| b != 0)?;
    let factor = (a.checked_rem(b)? == 0)
        .then(|| a.checked_div(b))
        .flatten()
        .filter(|&f| f != 0)?;
    x.iter()
        .zip(y)
        .all(|(&a, &b)| b.checked_mul(factor) == Some(a))
        .then_some(factor)
}

#[cfg(test)]
mod tests {
    use super::{reshaped_read, strip_plus_whole_strips, stripped_dates, StripRead, Tile};

    #[test]
    fn a_strip_reads_the_date_it_equals_first_else_one_plus_an_offset() {
        // Dates (i, n, 1): i + 1, i, and a tile date.
        let forms = vec![Some(vec![1, 0, 1]), Some(vec![1, 0, 0]), None];
        let read = |points: Vec<usize>, skew, offset: Vec<i64>| StripRead {
            points,
            skew,
            offset,
            stride: 1,
            reversed: false,
            reshape: Vec::new(),
        };
        let exact = stripped_dates(&forms, &[1, 0, 0], 1, &[], 0).expect("exact");
        assert_eq!(exact, Some(read(vec![2], None, vec![0, 0])));
        // `i + n + 3` is the first date plus `n + 2`.
        let shifted = stripped_dates(&forms, &[1, 1, 3], 1, &[], 0).expect("exact");
        assert_eq!(shifted, Some(read(vec![1], None, vec![1, 2])));
        // Dates (i, j, n, 1): `2i + 3j` is neither one plus an offset nor
        // one plus a multiple of the other.
        let forms = vec![Some(vec![1, 0, 0, 0]), Some(vec![0, 1, 0, 0])];
        assert_eq!(
            stripped_dates(&forms, &[2, 3, 0, 0], 2, &[], 0).expect("exact"),
            None
        );
        // Dates (p, r, n, 1): `p − r` and `r`; the strip of `p` reads the
        // first plus the second (a skew of the point loop after the strip).
        let forms = vec![Some(vec![1, -1, 0, 0]), Some(vec![0, 1, 0, 0])];
        let skewed = stripped_dates(&forms, &[1, 0, 0, 0], 2, &[], 0).expect("exact");
        assert_eq!(skewed, Some(read(vec![1], Some((2, 1)), vec![0, 0])));
        // Where another strip reads `p − r` as it is, `r` is the point.
        let skewed = stripped_dates(&forms, &[1, 0, 0, 0], 2, &[1], 0).expect("exact");
        assert_eq!(skewed, Some(read(vec![2], Some((1, 1)), vec![0, 0])));
        // Dates (r, T, p − r) with the tile date `T` at depth 2: the point
        // loop is inside its tile loop, so `p − r` is the point.
        let forms = vec![Some(vec![0, 1, 0, 0]), None, Some(vec![1, -1, 0, 0])];
        let skewed = stripped_dates(&forms, &[1, 0, 0, 0], 2, &[], 2).expect("exact");
        assert_eq!(skewed, Some(read(vec![3], Some((1, 1)), vec![0, 0])));
    }

    #[test]
    fn a_strip_no_date_gives_reads_the_free_point_date_reshaped() {
        // seidel-2d's point dates (t, t + i, 2t + 3i + j) on (t, i, j, n,
        // 1), inside three tile dates: the strip of `2t + i + j` reads the
        // third, less `2i` (a `reshape` of it after the strip), where the
        // other strips read the first two.
        let forms = vec![
            None,
            None,
            None,
            Some(vec![1, 0, 0, 0, 0]),
            Some(vec![1, 1, 0, 0, 0]),
            Some(vec![2, 3, 1, 0, 0]),
        ];
        let e = [2, 1, 1, 0, 0];
        assert_eq!(
            stripped_dates(&forms, &e, 3, &[4, 5], 3).expect("exact"),
            None
        );
        let read = reshaped_read(&forms, &e, 3, &[4, 5], 3).expect("exact");
        assert_eq!(
            read,
            Some(StripRead {
                points: vec![6],
                skew: None,
                offset: vec![0, 0],
                stride: 1,
                reversed: false,
                reshape: vec![0, -2, 0],
            })
        );
        // No date inside the tile loops is free.
        assert_eq!(
            reshaped_read(&forms, &e, 3, &[4, 5, 6], 3).expect("exact"),
            None
        );
    }

    #[test]
    fn a_strip_of_a_date_grained_after_it_reads_the_date_divided_by_its_stride() {
        // Dates (T, 8t, i) on (t, i, n, 1): the strip of `t + 1` reads
        // `8t` plus 8, divided by 8.
        let forms = vec![None, Some(vec![8, 0, 0, 0]), Some(vec![0, 1, 0, 0])];
        let read = stripped_dates(&forms, &[1, 0, 0, 1], 2, &[], 1).expect("exact");
        assert_eq!(
            read,
            Some(StripRead {
                points: vec![2],
                skew: None,
                offset: vec![0, 8],
                stride: 8,
                reversed: false,
                reshape: Vec::new(),
            })
        );
        // Dates (T, −t + n, i): the strip of `t` reads the second date
        // negated (its loop reversed after the strip), plus `n`.
        let forms = vec![None, Some(vec![-1, 0, 1, 0]), Some(vec![0, 1, 0, 0])];
        let read = stripped_dates(&forms, &[1, 0, 0, 0], 2, &[], 1).expect("exact");
        assert_eq!(
            read,
            Some(StripRead {
                points: vec![2],
                skew: None,
                offset: vec![1, 0],
                stride: 1,
                reversed: true,
                reshape: Vec::new(),
            })
        );
    }

    #[test]
    fn an_offset_of_whole_tiles_shifts_the_tile_loop_else_the_point_loop() {
        let tile = |offset: Vec<i64>| Tile::plain(1, vec![2], offset);
        assert_eq!(tile(vec![0, 0]).tile_shift(), None);
        assert!(!tile(vec![0, 0]).shifts_point());
        // `α := α − (−2)`: the tile date plus 2 (8 = 2 tiles of 4).
        assert_eq!(tile(vec![0, 8]).tile_shift(), Some(vec![0, -2]));
        assert!(!tile(vec![0, 8]).shifts_point());
        assert_eq!(tile(vec![4, 1]).tile_shift(), None);
        assert!(tile(vec![4, 1]).shifts_point());
    }

    /// Dates (i, T, j) on (i, j, n, 1), the tile date `⌊j/16⌋ − j`: its
    /// rows read `−15j`, which is `j` plus 16 times `−j`; the strip is
    /// of `j` (depth 3) and the row's coefficient of `j` is `−16`.
    #[test]
    fn a_strip_less_whole_strips_of_a_point_date_adds_that_date() {
        let forms = vec![Some(vec![1, 0, 0, 0]), None, Some(vec![0, 1, 0, 0])];
        let e = [0, -15, 0, 0];
        assert_eq!(stripped_dates(&forms, &e, 2, &[], 2).expect("exact"), None);
        let (read, by) = strip_plus_whole_strips(&forms, &e, 2, 16, &[], 2)
            .expect("exact")
            .expect("a strip of j less whole strips of j");
        assert_eq!(read.points, vec![3]);
        assert_eq!(by, (3, -16));
        // `−14j` is no strip of 16 plus whole strips.
        let e = [0, -14, 0, 0];
        assert_eq!(
            strip_plus_whole_strips(&forms, &e, 2, 16, &[], 2).expect("exact"),
            None
        );
    }
}
