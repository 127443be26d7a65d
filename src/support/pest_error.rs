//! What a pest parse error says, read once for every grammar (C regions,
//! recipes, isl notation): where it is and which rules it expected there,
//! by the names each parser gives its rules.

use pest::error::{Error, ErrorVariant, InputLocation};
use pest::RuleType;

/// A parse failure: its byte range in the parsed text (a position is an
/// empty range) and the expected rules' names, sorted, without repeats.
pub struct Failure {
    pub start: usize,
    pub end: usize,
    pub expected: Vec<&'static str>,
}

/// Read `e`; `name` gives a rule's name in "expected …", `None` leaves the
/// rule out.
pub fn read<R: RuleType>(e: &Error<R>, name: impl Fn(R) -> Option<&'static str>) -> Failure {
    let (start, end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((s, e)) => (s, e),
    };
    let mut expected: Vec<&'static str> = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            positives.iter().filter_map(|r| name(*r)).collect()
        }
        ErrorVariant::CustomError { .. } => Vec::new(),
    };
    expected.sort_unstable();
    expected.dedup();
    Failure {
        start,
        end,
        expected,
    }
}
