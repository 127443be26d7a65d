//! What a jam check read of a schedule ([`ProvenJam`]): a loop proven
//! jammable alone, or the two jammed loops of a nest proven jammable
//! together, need not be proven again on a schedule where that is
//! unchanged ([`super::legality::first_illegality_but_jams`]). Cheap: it
//! compares pieces, and decides nothing itself.

use super::tree::{under, PieceRef};
use super::ApplyError;
use crate::poly::{BasicMap, PolyError};
use crate::scop::Schedule;

/// A loop marked `unroll_jam`: its β prefix (its depth is the prefix's
/// length) and its factor.
pub type JamLoop = (Vec<i64>, u32);

/// Jammed loops found jammable together ([`super::legality::jam_violation`]
/// gave no violation): one loop, or a nest's two, outermost first; with
/// all that the check read of its schedule: which pieces lie in the
/// outermost loop, and every piece of their statements (the scop and
/// dependences are the same for every schedule of a region; the pieces'
/// β dates say which lie in the inner loop). On a schedule where those
/// are the same the check gives the same answer, so it need not run
/// again ([`ProvenJam::holds_on`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvenJam {
    pub jams: Vec<JamLoop>,
    inside: Vec<PieceRef>,
    pieces: Vec<(usize, Vec<BasicMap>)>,
}

impl ProvenJam {
    /// `jams` (outermost first), proven jammable together on `schedule` by
    /// the caller: what the proof read of it. Cheap.
    pub fn on(schedule: &Schedule, jams: Vec<JamLoop>) -> Result<ProvenJam, PolyError> {
        let outer = jams
            .first()
            .ok_or(PolyError::Unsupported("a jam proof of no loop"))?;
        let inside = under(schedule, &outer.0).map_err(|e| match e {
            ApplyError::Poly(e) => e,
            _ => PolyError::Unsupported("a jammed loop that holds no statement"),
        })?;
        let pieces = statements_of(schedule, &inside);
        Ok(ProvenJam {
            jams,
            inside,
            pieces,
        })
    }

    /// Whether the proof holds on `schedule`: the same pieces lie in the
    /// loop, and their statements have the same pieces. Cheap.
    pub fn holds_on(&self, schedule: &Schedule) -> bool {
        let Some(outer) = self.jams.first() else {
            return false;
        };
        under(schedule, &outer.0).is_ok_and(|inside| {
            inside == self.inside && statements_of(schedule, &inside) == self.pieces
        })
    }
}

/// The statements of `inside`, each once, with all their pieces.
fn statements_of(schedule: &Schedule, inside: &[PieceRef]) -> Vec<(usize, Vec<BasicMap>)> {
    let mut statements: Vec<usize> = inside.iter().map(|t| t.statement).collect();
    statements.sort_unstable();
    statements.dedup();
    statements
        .into_iter()
        .map(|s| (s, schedule.statements[s].pieces.clone()))
        .collect()
}
