//! What a legality check read of a schedule, kept as a proof: a loop
//! proven jammable alone, or a nest's two jammed loops proven jammable
//! together ([`ProvenJam`]), or a marked loop proven to carry no
//! dependence ([`ProvenMark`]), need not be proven again on a schedule
//! where what it read is unchanged. [`Proofs`] are what one check hands
//! the next (a recipe's directives one after the other). Cheap: it
//! compares pieces, and decides nothing itself.
//!
//! Must not know: how the checks decide.

use super::tree::{under, PieceRef};
use super::ApplyError;
use crate::poly::{BasicMap, PolyError};
use crate::scop::Schedule;

/// A loop marked `unroll_jam`: its β prefix (its depth is the prefix's
/// length) and its factor.
pub type JamLoop = (Vec<i64>, u32);

/// What a check of the loop `prefix` (and of loops inside it) read of a
/// schedule: which pieces lie in the loop, and every piece of their
/// statements. The scop and dependences are the same for every schedule
/// of a region between two data-layout calls; the pieces' β dates say
/// which lie in any loop inside. A check that reads nothing else gives
/// the same answer on a schedule where these are the same
/// ([`LoopRead::holds_on`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct LoopRead {
    prefix: Vec<i64>,
    inside: Vec<PieceRef>,
    pieces: Vec<(usize, Vec<BasicMap>)>,
}

impl LoopRead {
    /// What a check of the loop `prefix` reads of `schedule`. Cheap.
    fn of(schedule: &Schedule, prefix: &[i64]) -> Result<LoopRead, PolyError> {
        let inside = under(schedule, prefix).map_err(|e| match e {
            ApplyError::Poly(e) => e,
            _ => PolyError::Unsupported("a proof of a loop that holds no statement"),
        })?;
        let pieces = statements_of(schedule, &inside);
        Ok(LoopRead {
            prefix: prefix.to_vec(),
            inside,
            pieces,
        })
    }

    /// Whether `schedule` has the same pieces in the loop, and their
    /// statements the same pieces. Cheap.
    fn holds_on(&self, schedule: &Schedule) -> bool {
        under(schedule, &self.prefix).is_ok_and(|inside| {
            inside == self.inside && statements_of(schedule, &inside) == self.pieces
        })
    }
}

/// Jammed loops found jammable together (`legality::jam_violation` gave
/// no violation): one loop, or a nest's two, outermost first; with what
/// the check read of its schedule, from the outermost loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvenJam {
    pub jams: Vec<JamLoop>,
    read: LoopRead,
}

impl ProvenJam {
    /// `jams` (outermost first), proven jammable together on `schedule` by
    /// the caller: what the proof read of it. Cheap.
    pub fn on(schedule: &Schedule, jams: Vec<JamLoop>) -> Result<ProvenJam, PolyError> {
        let outer = jams
            .first()
            .ok_or(PolyError::Unsupported("a jam proof of no loop"))?;
        let read = LoopRead::of(schedule, &outer.0)?;
        Ok(ProvenJam { jams, read })
    }

    /// Whether the proof holds on `schedule`: the same pieces lie in the
    /// outermost loop, and their statements have the same pieces. Cheap.
    pub fn holds_on(&self, schedule: &Schedule) -> bool {
        self.read.holds_on(schedule)
    }
}

/// What decides the check of a loop marked parallel or vector (or
/// mapped to CUDA blocks or threads) that reduces nothing: its β prefix
/// (its depth is the prefix's length), the distance its `safelen` lets
/// dependences be carried at, and the depths and factors of the loops
/// marked `unroll_jam` around the statements in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkedLoop {
    pub prefix: Vec<i64>,
    pub distance: Option<u32>,
    pub jams_around: Vec<(usize, u32)>,
}

/// A marked loop found to carry no dependence, alone and inside each jam
/// around it (`legality::first_carried_mark`); with what the check read
/// of its schedule, from the outermost jammed loop around it (else from
/// the loop itself): jamming rewrites the pieces in that loop only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvenMark {
    pub marked: MarkedLoop,
    read: LoopRead,
}

impl ProvenMark {
    /// `marked`, proven to carry nothing on `schedule` by the caller: what
    /// the proof read of it. Cheap.
    pub fn on(schedule: &Schedule, marked: MarkedLoop) -> Result<ProvenMark, PolyError> {
        let outer = match marked.jams_around.first() {
            Some(&(depth, _)) => marked.prefix.get(..depth).ok_or(PolyError::Unsupported(
                "a jam around a marked loop, inside it",
            ))?,
            None => &marked.prefix[..],
        };
        let read = LoopRead::of(schedule, outer)?;
        Ok(ProvenMark { marked, read })
    }

    /// Whether the proof holds on `schedule` (as [`ProvenJam::holds_on`]).
    /// Cheap.
    pub fn holds_on(&self, schedule: &Schedule) -> bool {
        self.read.holds_on(schedule)
    }
}

/// The proofs one check hands the next: they hold for the scop and
/// dependences both read, and each where [`ProvenJam::holds_on`] or
/// [`ProvenMark::holds_on`] says so.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Proofs {
    pub jams: Vec<ProvenJam>,
    pub marks: Vec<ProvenMark>,
}

/// No proof: every check runs.
pub static NO_PROOFS: Proofs = Proofs {
    jams: Vec::new(),
    marks: Vec::new(),
};

impl Proofs {
    /// The proofs of `jams` alone.
    pub fn of_jams(jams: Vec<ProvenJam>) -> Proofs {
        Proofs {
            jams,
            marks: Vec::new(),
        }
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
