//! `--explain`: the final schedule of the selected region as a recipe
//! that replays it ([`crate::explain`]).

use super::{region_dependences, region_error, Outcome};
use crate::cli::Cli;
use crate::explain::{explain, print};
use crate::lang::c::SourceFile;
use crate::scop::{Schedule, Scop};

/// The recipe that gives `schedules`' schedule of the one selected region
/// from its original one. `original` is the region list before the
/// recipe (data-layout directives change it).
pub(super) fn explained(
    file: &SourceFile,
    original: &[Scop],
    cli: &Cli,
    schedules: &[Schedule],
) -> Result<String, Outcome> {
    let chosen: Vec<usize> = (0..file.scops.len())
        .filter(|&k| cli.scop.is_none_or(|n| file.scops[k].region == n))
        .collect();
    let k = match chosen[..] {
        [k] => k,
        [] => {
            return Err(Outcome::usage(format!(
                "{}: no scop region to explain",
                file.name
            )))
        }
        _ => {
            return Err(Outcome::usage(format!(
                "--explain explains one region and {} has {}; choose one with --scop N",
                file.name,
                chosen.len()
            )))
        }
    };
    let scop = &file.scops[k];
    let file_name = |p: &std::path::Path| {
        p.file_name().map_or_else(
            || p.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    };
    let source = match (&cli.recipe, &cli.schedule) {
        (Some(r), _) => format!("the recipe {}", file_name(r)),
        (None, Some(s)) => format!("the schedule {}", file_name(s)),
        (None, None) => "its original schedule".to_string(),
    };
    let header = vec![
        format!(
            "polyc --explain: region {} of {}, scheduled by {source},",
            scop.region, file.name
        ),
        "as directives from the original program. Replay with".to_string(),
        format!("  polyc {} --recipe THIS_FILE", file.name),
        "Each directive is checked as it is replayed; a group's together.".to_string(),
    ];
    if original.get(k).is_some_and(|o| !same_accesses(o, scop)) {
        // The schedule is one of the rewritten program, which a recipe
        // replayed on the original does not start from.
        let e = crate::explain::Explanation {
            steps: Vec::new(),
            gap: Some(crate::explain::Gap {
                statement: "the region".to_string(),
                reason: "data-layout directives changed its arrays or accesses; \
                         they are not recovered"
                    .to_string(),
            }),
        };
        return Ok(print::recipe(&e, &header));
    }
    let deps = region_dependences(file, scop)?;
    let e = explain(scop, &deps, &schedules[k]).map_err(|e| {
        region_error(
            file,
            scop,
            format!("polyc could not explain the schedule: {e}"),
        )
    })?;
    Ok(print::recipe(&e, &header))
}

/// Whether `a` and `b` have the same arrays, statements and accesses (by
/// array and kind): what data-layout directives change.
fn same_accesses(a: &Scop, b: &Scop) -> bool {
    let shape = |s: &Scop| -> Vec<Vec<(String, bool)>> {
        s.statements
            .iter()
            .map(|st| {
                st.accesses
                    .iter()
                    .map(|x| (x.array.clone(), x.kind == crate::scop::AccessKind::Read))
                    .collect()
            })
            .collect()
    };
    a.arrays.len() == b.arrays.len() && shape(a) == shape(b)
}
