//! Levenshtein distance between two names, for "did you mean" hints
//! (misspelled recipe variables and directives).

/// The number of single-character insertions, deletions and
/// substitutions that turn `a` into `b` (counted by characters).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The first of `candidates` close enough to `name` to be what was meant:
/// within one edit of a name of three characters, two of a longer one, and
/// `name` itself excluded. Names of one or two characters get no
/// suggestion: they are all close to each other.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = match name.chars().count() {
        0..=2 => return None,
        3 => 1,
        _ => 2,
    };
    candidates
        .into_iter()
        .filter(|n| *n != name)
        .map(|n| (edit_distance(n, name), n))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_count_edits() {
        assert_eq!(edit_distance("tile", "tile"), 0);
        assert_eq!(edit_distance("tlie", "tile"), 2);
        assert_eq!(edit_distance("tiles", "tile"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("β1", "β2"), 1);
    }

    #[test]
    fn the_closest_name_is_suggested() {
        let names = ["tile", "tile_band", "split", "skew"];
        assert_eq!(closest("tlie", names), Some("tile"));
        assert_eq!(closest("tile_bnad", names), Some("tile_band"));
        assert_eq!(closest("spilt", names), Some("split"));
        assert_eq!(closest("zzzz", names), None);
        assert_eq!(closest("sk", names), None);
    }
}
