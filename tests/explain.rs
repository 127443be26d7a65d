//! `--explain` against replay: every test kernel's automatic schedules
//! and every accepted recipe of `tests/recipes`, explained, the
//! explanation replayed as a recipe, and the schedule it gives compared
//! with the one explained (`--emit schedule`, equal as relations).
//!
//! `tests/explain/expected.txt` lists the cases the recovery does not
//! express yet, with the reason polyc prints; the test fails when a case's
//! outcome differs from it in either direction.

use crate::auto::SCHEDULERS;
use crate::common;

use polyc::explain::difference;
use polyc::lang::c::read_source;
use polyc::poly::parse_map;
use polyc::scop::schedule::ScheduleJson;
use polyc::scop::Schedule;
use std::collections::BTreeMap;
use std::path::Path;

/// What explaining one case gave.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// The explanation replays to the same schedule, in this many
    /// directives.
    Replayed(usize),
    /// The explanation's `not expressed: …` line.
    Gap(String),
}

/// The schedule of region `region` of `kernel` under `recipe`.
fn schedule_json(kernel: &str, region: &str, recipe: &str) -> Result<String, String> {
    let out = common::polyc(&[
        kernel, "--scop", region, "--recipe", recipe, "--emit", "schedule",
    ]);
    if out.status != 0 {
        return Err(format!("{kernel} --recipe {recipe}: {}", out.stderr));
    }
    Ok(out.stdout)
}

/// Whether two `--emit schedule` outputs of `kernel`'s region `region`
/// are the same schedule: the same text, or equal relations and marks.
fn same_schedule(kernel: &str, region: usize, a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let text = std::fs::read_to_string(kernel).expect("kernel");
    let file = read_source(kernel, text).expect("kernel parses");
    let scop = &file.scops[region - 1];
    let (va, vb): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(a).expect("schedule JSON"),
        serde_json::from_str(b).expect("schedule JSON"),
    );
    let statements = |v: &serde_json::Value| v["scops"][0]["statements"].as_array().map(Vec::len);
    if statements(&va) != Some(scop.statements.len()) {
        // A program data-layout calls rewrote (a copy statement more):
        // the same marks, and each piece the same relation.
        return same_relations(&va, &vb);
    }
    let parse = |s: &str| -> Schedule {
        let v: serde_json::Value = serde_json::from_str(s).expect("schedule JSON");
        let region: ScheduleJson =
            serde_json::from_value(v["scops"][0].clone()).expect("one region");
        Schedule::from_json(&region, scop).expect("schedule fits")
    };
    difference(scop, &parse(a), &parse(b))
        .expect("decided")
        .is_none()
}

/// Whether two `--emit schedule` outputs have the same marks and, piece
/// by piece, equal relations (not only on the domains: a program that
/// data-layout calls rewrote is not the kernel's to read them on).
fn same_relations(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    let statements = |v: &serde_json::Value| v["scops"][0]["statements"].clone();
    let (sa, sb) = (statements(a), statements(b));
    let (Some(sa), Some(sb)) = (sa.as_array(), sb.as_array()) else {
        return false;
    };
    sa.len() == sb.len()
        && sa.iter().zip(sb).all(|(x, y)| {
            let pieces = |s: &serde_json::Value| -> Vec<String> {
                s["pieces"].as_array().map_or_else(Vec::new, |p| {
                    p.iter()
                        .filter_map(|t| t.as_str().map(str::to_string))
                        .collect()
                })
            };
            let (px, py) = (pieces(x), pieces(y));
            x["marks"] == y["marks"]
                && px.len() == py.len()
                && px.iter().zip(&py).all(|(r, t)| {
                    let (r, t) = (
                        parse_map(r).expect("a relation"),
                        parse_map(t).expect("a relation"),
                    );
                    r.is_equal(&t).expect("decided")
                })
        })
}

/// Explain `recipe` on region `region` of `kernel` and replay the
/// explanation.
fn round_trip(dir: &Path, name: &str, kernel: &str, region: usize, recipe: &str) -> Outcome {
    let r = region.to_string();
    let target = match schedule_json(kernel, &r, recipe) {
        Ok(t) => t,
        Err(e) => panic!("{name}: the recipe explained is refused: {e}"),
    };
    let out = common::polyc(&[kernel, "--scop", &r, "--recipe", recipe, "--explain"]);
    assert_eq!(out.status, 0, "{name}: --explain failed:\n{}", out.stderr);
    let explained = dir.join(format!("{name}.explained.poly"));
    std::fs::write(&explained, &out.stdout).expect("write");
    let replayed = schedule_json(kernel, &r, &explained.to_string_lossy())
        .unwrap_or_else(|e| panic!("{name}: the explanation is refused:\n{}\n{e}", out.stdout));
    if let Some(gap) = out
        .stdout
        .lines()
        .find(|l| l.starts_with("# not expressed: "))
    {
        return Outcome::Gap(gap.trim_start_matches("# not expressed: ").to_string());
    }
    assert!(
        same_schedule(kernel, region, &target, &replayed),
        "{name}: the explanation gives another schedule:\n{}",
        out.stdout
    );
    let directives = out
        .stdout
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && l.contains(");"))
        .count();
    Outcome::Replayed(directives)
}

/// Does the explanation `round_trip` wrote for `name` print the code that
/// `recipe` prints (or is code generation refused both times)? The same
/// schedule, however the directives wrote its rows
/// (`emit::scan::canonical`); not asked of strided and grained dates, whose
/// existentials have no canonical form (docs/explain.md).
fn prints_the_same_code(dir: &Path, name: &str, kernel: &str, region: usize, recipe: &str) -> bool {
    let r = region.to_string();
    let explained = dir.join(format!("{name}.explained.poly"));
    let code = |recipe: &str| {
        let out = common::polyc(&[kernel, "--scop", &r, "--recipe", recipe]);
        (out.status, out.stdout)
    };
    code(recipe) == code(&explained.to_string_lossy())
}

/// `case reason` lines of `expected.txt` (comments and blank lines
/// skipped).
fn expected() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string("tests/explain/expected.txt").expect("expected.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (case, reason) = l.split_once(' ').unwrap_or((l, ""));
            (case.to_string(), reason.to_string())
        })
        .collect()
}

/// The number of regions of `kernel`.
fn regions(kernel: &str) -> usize {
    let text = std::fs::read_to_string(kernel).expect("kernel");
    read_source(kernel, text)
        .expect("kernel parses")
        .scops
        .len()
}

/// Every test kernel's automatic schedules and every recipe of the
/// library: explained, replayed to the same schedule, and printed as the
/// same code.
#[test]
fn every_automatic_schedule_and_recipe_is_explained_and_replays() {
    let dir = common::scratch("explain");
    let mut gaps: BTreeMap<String, String> = BTreeMap::new();
    let mut replayed = 0;
    let mut other_code = Vec::new();
    for kernel in common::kernels() {
        let k = kernel.to_string_lossy().into_owned();
        let stem = kernel
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .into_owned();
        for region in 1..=regions(&k) {
            for (label, recipe) in SCHEDULERS {
                let name = format!("{stem}.{region}.{label}");
                let path = dir.join(format!("{name}.poly"));
                std::fs::write(&path, recipe).expect("write");
                let recipe = path.to_string_lossy();
                match round_trip(&dir, &name, &k, region, &recipe) {
                    Outcome::Replayed(_) => {
                        replayed += 1;
                        if !prints_the_same_code(&dir, &name, &k, region, &recipe) {
                            other_code.push(name);
                        }
                    }
                    Outcome::Gap(g) => {
                        gaps.insert(name, g);
                    }
                }
            }
        }
    }
    for recipe in common::filetest::inputs("recipes", "poly") {
        let rel = recipe.to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&recipe).expect("recipe");
        let kernel = common::filetest::kernel_of_recipe(&text);
        let name = format!(
            "recipe.{}",
            recipe.file_stem().expect("stem").to_string_lossy()
        );
        // Refused recipes have nothing to explain.
        if schedule_json(&kernel, "1", &rel).is_err() {
            continue;
        }
        match round_trip(&dir, &name, &kernel, 1, &rel) {
            Outcome::Replayed(_) => {
                replayed += 1;
                if !prints_the_same_code(&dir, &name, &kernel, 1, &rel) {
                    other_code.push(name);
                }
            }
            Outcome::Gap(g) => {
                gaps.insert(name, g);
            }
        }
    }
    let want = expected();
    let mut wrong = Vec::new();
    for (case, gap) in &gaps {
        match want.get(case) {
            Some(w) if w == gap => {}
            Some(w) => wrong.push(format!("{case}: expected `{w}`, got `{gap}`")),
            None => wrong.push(format!("{case}: not in expected.txt: `{gap}`")),
        }
    }
    for case in want.keys().filter(|c| !gaps.contains_key(*c)) {
        wrong.push(format!("{case}: listed in expected.txt, but replayed"));
    }
    assert!(
        wrong.is_empty(),
        "{replayed} replayed; outcomes that differ from tests/explain/expected.txt:\n{}",
        wrong.join("\n")
    );
    assert!(
        other_code.is_empty(),
        "explanations that replay to the schedule but print other code: {}",
        other_code.join(", ")
    );
    eprintln!(
        "explain: {replayed} replayed, {} not expressed yet",
        gaps.len()
    );
}

/// The kernels whose explained `auto(pluto)` schedules are snapshots.
const SNAPSHOT_KERNELS: &[&str] = &[
    "2mm",
    "durbin",
    "fdtd-2d",
    "gemm",
    "heat-3d",
    "jacobi-1d",
    "jacobi-2d",
    "lu",
    "seidel-2d",
    "syrk",
];

#[test]
fn explained_automatic_schedules_are_these_recipes() {
    let dir = common::scratch("explain-snapshots");
    let auto = dir.join("auto.poly");
    std::fs::write(&auto, "auto(pluto);\n").expect("write");
    for name in SNAPSHOT_KERNELS {
        let kernel = format!("tests/kernels/{name}.c");
        let out = common::polyc(&[&kernel, "--recipe", &auto.to_string_lossy(), "--explain"]);
        assert_eq!(out.status, 0, "{name}: {}", out.stderr);
        insta::assert_snapshot!(format!("explain_auto_pluto_{name}"), out.stdout);
    }
}

/// Pluto's wavefront of tiles is the tiles' `stripmine`s and
/// `interchange`s, then the first tile loop skewed by the second.
#[test]
fn a_wavefront_of_tiles_is_explained_as_a_skew_of_tile_loops() {
    let dir = common::scratch("explain-wavefront");
    let auto = dir.join("auto.poly");
    std::fs::write(&auto, "auto(pluto, wavefront = true);\n").expect("write");
    let out = common::polyc(&[
        "tests/kernels/seidel-2d.c",
        "--recipe",
        &auto.to_string_lossy(),
        "--explain",
    ]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    insta::assert_snapshot!("explain_auto_pluto_wavefront_seidel-2d", out.stdout);
}

#[test]
fn explain_needs_one_region_and_no_emit() {
    let two = common::polyc(&["tests/kernels/two-regions.c", "--explain"]);
    assert_eq!(two.status, 2);
    assert!(
        two.stderr.contains("choose one with --scop N"),
        "{}",
        two.stderr
    );
    let one = common::polyc(&["tests/kernels/two-regions.c", "--scop", "2", "--explain"]);
    assert_eq!(one.status, 0, "{}", one.stderr);
    assert!(one.stdout.contains("(the original schedule: no directive)"));
    let emit = common::polyc(&["tests/kernels/gemm.c", "--explain", "--emit", "schedule"]);
    assert_eq!(emit.status, 2);
    assert!(
        emit.stderr.contains("does not go with --emit"),
        "{}",
        emit.stderr
    );
}

/// Found by the random tester: a mark set before `fuse` brought another
/// statement into the loop is on one statement of the loop only, which no
/// mark directive gives alone. The loop is split, its first part marked,
/// and the parts fused again; the `fuse` of the structure phase and the
/// `split` right after it give nothing and are dropped, which leaves the
/// recipe itself.
#[test]
fn a_loop_marked_before_a_fusion_is_marked_apart_and_fused() {
    let dir = common::scratch("explain-marked-fusion");
    let recipe = dir.join("r.poly");
    std::fs::write(&recipe, "unroll([0], 5);\nfuse([0]);\n").expect("write");
    let outcome = round_trip(
        &dir,
        "r",
        "tests/kernels/two-loops.c",
        1,
        &recipe.to_string_lossy(),
    );
    let explained = std::fs::read_to_string(dir.join("r.explained.poly")).expect("explained");
    assert_eq!(outcome, Outcome::Replayed(2), "{explained}");
    assert!(
        explained.contains("unroll([0], 5);") && explained.contains("fuse([0]);"),
        "{explained}"
    );
}

/// `recipe` on region 1 of `kernel`, written to `dir` as `name.poly`,
/// explained and replayed ([`round_trip`]): the outcome and the
/// explanation.
fn explained_recipe(dir: &Path, name: &str, kernel: &str, recipe: &str) -> (Outcome, String) {
    let path = dir.join(format!("{name}.poly"));
    std::fs::write(&path, recipe).expect("write");
    let outcome = round_trip(dir, name, kernel, 1, &path.to_string_lossy());
    let explained = std::fs::read_to_string(dir.join(format!("{name}.explained.poly")))
        .expect("the explanation");
    (outcome, explained)
}

/// [`explained_recipe`], which must replay to the recipe's schedule and
/// print `says`.
fn replayed_saying(
    dir: &Path,
    name: &str,
    kernel: &str,
    recipe: &str,
    says: &str,
) -> (Outcome, String) {
    let (outcome, explained) = explained_recipe(dir, name, kernel, recipe);
    assert!(
        matches!(outcome, Outcome::Replayed(_)),
        "{name}: {outcome:?}\n{explained}"
    );
    assert!(explained.contains(says), "{name}:\n{explained}");
    (outcome, explained)
}

/// Found by the random tester: tile loops reversed or shifted after the
/// strip (the loop of all its statements, or of one of them, or one
/// statement's own tile in a loop it shares), a point loop shifted or
/// skewed after it (its strip reads the date before; the loop of all its
/// statements, or of one of them), a point loop reshaped by an iterator
/// after a wavefront's tiles, a tile of a point loop tiled already, a
/// tile of a tile loop, and a tile loop moved inside its point loop. Each
/// explanation replays to the schedule and says it with the directive
/// that made it; the point loops' in the recipe's two directives.
#[test]
fn reversed_shifted_and_nested_tiles_are_explained() {
    let dir = common::scratch("explain-tile-dates");
    let cases = [
        (
            "reversed-tile-loop",
            "tests/kernels/gemm.c",
            "auto(pluto);\nreverse([1, 0, 0, 0, 0, 0, 0], 3);\n",
            "reverse([1, 0, 0], 3);",
        ),
        (
            "shifted-tile-loop",
            "tests/kernels/syr2k.c",
            "auto(feautrier, [0]);\nshift([1, 0, 0, 0, 0, 0], 2, [0, 0], 4);\n",
            "shift([1, 0], 2, [], 4);",
        ),
        (
            "shifted-point-loop",
            "tests/kernels/jacobi-2d.c",
            "tile_band([0, 0], 2, [16, 16]);\nshift([0, 0, 0, 0, 0], 4, [0, 0], -1);\n",
            "shift([0, 0], 4, [], -1);",
        ),
        (
            "skewed-point-loop",
            "tests/kernels/jacobi-2d.c",
            "tile_band([0, 0], 2, [16, 16]);\nskew([0, 0, 0, 0, 0], 5, 4, 1);\n",
            "skew([0, 0, 0, 0, 0], 5, 4, 1);",
        ),
        (
            "tile-of-a-tile",
            "tests/kernels/fdtd-2d.c",
            "auto(spatial, target = gpu);\ntile_band([0, 1, 0, 0, 0], 5, [16]);\n",
            "stripmine",
        ),
        (
            "tile-of-a-tile-loop",
            "tests/kernels/trmm.c",
            "auto(spatial);\ntile([0, 0], 2, 2, 3);\n",
            "stripmine([0, 0], 2, 3);",
        ),
        (
            "tile-loop-inside-its-point-loop",
            "tests/kernels/jam-pair.c",
            "tile_band([1, 0, 0], 3, [8]);\ninterchange([1, 0, 0, 0, 0], 3, 4);\n",
            "interchange([1, 0, 0, 0], 3, 4);",
        ),
        (
            "point-loop-of-one-statement-shifted",
            "tests/kernels/bicg.c",
            "tile_band([1], 1, [5]);\nshift([1, 0, 1, 0], 2, [0, 0], 1);\n",
            "shift([1, 0, 1, 0], 2, [], 1);",
        ),
        (
            "tile-loop-of-one-statement-reversed",
            "tests/kernels/bicg.c",
            "tile_band([1], 1, [5]);\nreverse([1, 0, 0], 1);\n",
            "reverse([1, 0, 0], 1);",
        ),
        (
            "point-loop-reshaped-in-a-wavefront",
            "tests/kernels/seidel-2d.c",
            "auto(pluto, wavefront = true, tile = 4);\nreshape([0, 0, 0, 0, 0, 0, 0], 6, 2, -2);\n",
            "reshape([0, 0, 0, 0, 0, 0, 0], 6, 2, -2);",
        ),
        (
            "point-loop-of-one-statement-skewed",
            "tests/kernels/doitgen.c",
            "stripmine([], 3, 16);\nskew([0, 0, 0, 0, 0], 4, 1, 1);\n",
            "skew([0, 0, 0, 0, 0], 4, 1, 1);",
        ),
        (
            // The shared loop's shift moves the one statement's tile loop
            // and the other statement's loop: each is shifted alone.
            "own-tile-in-a-shared-loop-shifted",
            "tests/kernels/syrk.c",
            "tile([0, 0], 1, 1, 32);\nshift([0], 1, [], -3);\n",
            "shift([0, 0, 0, 0], 1, [], -3);",
        ),
    ];
    for (name, kernel, recipe, says) in cases {
        let (outcome, explained) = replayed_saying(&dir, name, kernel, recipe, says);
        if name.ends_with("point-loop") {
            assert_eq!(outcome, Outcome::Replayed(2), "{explained}");
        }
    }
}

/// Marks a loop's statements do not share: packs, which mark only the
/// statements that access the array (doitgen's `A`, read by its sum and
/// not by the `sum[p] = 0` fused with it under `auto(spatial, target =
/// gpu)`), and a vector loop that `embed` made outer after it was
/// marked, marked between an `unembed` and the `embed` that gives the
/// loop of one iteration back (`shift`ed to a constant date first where
/// it was shifted after its `embed`, and shifted again after), or before
/// the `embed` where the loop of one iteration was rewritten since; and
/// a vector loop grained after it was marked, marked before the `grain`.
#[test]
fn packs_of_some_statements_and_vector_loops_around_embeds_are_explained() {
    let dir = common::scratch("explain-mark-sets");
    let cases = [
        (
            "packs-of-fused-statements",
            "tests/kernels/doitgen.c",
            "auto(spatial, target = gpu);\n",
            "pack([0, 0, 0], 5, \"A\");",
        ),
        (
            "vector-loop-around-embed",
            "tests/kernels/fdtd-2d.c",
            "auto(pluto, wavefront = false);\nembed([0, 0, 0]);\n",
            "unembed([0, 0]);\nvectorize([0, 0], 2);",
        ),
        (
            "vector-loop-around-shifted-embed",
            "tests/kernels/2mm.c",
            "auto(pluto, wavefront = true);\ngpu_thread([2, 0, 0], 2, 0);\nembed([2, 0, 0]);\n\
             shift([2, 0, 0, 0], 3, [0, 2, 0, 0], -1);\n",
            "unembed([2]);\nvectorize([2], 2);\nembed([2, 0, 0]);\n\
             shift([2, 0, 0, 0], 3, [0, 2, 0, 0], -1);",
        ),
        (
            // The loop of one iteration stripped: no `unembed` takes it,
            // so the mark is given before the `embed`.
            "vector-loop-around-a-stripped-embed",
            "tests/kernels/jacobi-1d-periodic.c",
            "vectorize([0], 2);\nembed([0, 0, 0]);\nstripmine([0, 0], 3, 2);\n",
            "vectorize([0], 2);\nembed([0, 0, 0]);",
        ),
        (
            // A vector loop grained after it was marked: its `safelen`
            // (in dates) is scaled with the dates, to what `vectorize`
            // after the `grain` gives (it used to keep `safelen(4)`, and
            // the mark was given before the `grain`; found by the tester
            // on a random kernel).
            "vector-loop-grained-after-its-mark",
            "tests/kernels/simd-distance.c",
            "vectorize([0], 1);\ngrain([0], 1, 2);\n",
            "grain([0], 1, 2);\nvectorize([0], 1);",
        ),
    ];
    for (name, kernel, recipe, says) in cases {
        let (outcome, explained) = explained_recipe(&dir, name, kernel, recipe);
        assert!(
            matches!(outcome, Outcome::Replayed(_)),
            "{name}: {outcome:?}\n{explained}"
        );
        let directives: String = explained
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split("  #").next().unwrap_or(l).trim_end())
            .collect::<Vec<_>>()
            .join("\n");
        assert!(directives.contains(says), "{name}:\n{explained}");
    }
}

/// A directive on a β prefix acts on every loop at its depth under it;
/// the explanation says so in one directive, not one per loop (a strip
/// read as a `tile_band` of one loop on one loop and as a `stripmine` on
/// its sibling too: seed 1515). An `iss`
/// of an inner loop is that `iss`, not one of the outer loop and the
/// `fuse`s that join its parts again.
#[test]
fn directives_on_sibling_loops_are_explained_as_one() {
    let dir = common::scratch("explain-siblings");
    let cases = [
        (
            "marks",
            "tests/kernels/jacobi-1d.c",
            "vectorize([], 2);\nparallelize([0], 2);\n",
            2,
        ),
        (
            "jams",
            "tests/kernels/gemver.c",
            "unroll_jam([], 1, 8);\n",
            1,
        ),
        (
            "strips",
            "tests/kernels/fold-types.c",
            "stripmine([0], 2, 5);\n",
            1,
        ),
        (
            "inner-split",
            "tests/kernels/seidel-2d.c",
            "iss([0, 0, 0], c1 < 5);\n",
            1,
        ),
        (
            // Both parts of the `iss` strip `j` by 5 at depth 2; the
            // first part's strip has a second strip inside it, so the
            // tile phase reads a band for one part and a strip for the
            // other: they are still one directive on both parts.
            "strips-of-both-parts",
            "tests/kernels/2mm.c",
            "stripmine([0], 2, 5);\niss([0], {1 | | | -1});\nstripmine([0, 0], 3, 3);\n",
            3,
        ),
    ];
    for (name, kernel, recipe, length) in cases {
        let (outcome, explained) = explained_recipe(&dir, name, kernel, recipe);
        assert_eq!(outcome, Outcome::Replayed(length), "{name}:\n{explained}");
    }
}

/// Found by the random tester (seed 7272): the inner loop of a
/// `collapse(2)` with a `schedule` of its own (marked parallel before the
/// outer loop was collapsed). The collapse marks it parallel again, and
/// its own `schedule` is given with its own `parallelize` after it.
#[test]
fn a_collapsed_inner_loop_keeps_its_own_schedule() {
    let dir = common::scratch("explain-collapse-inner-schedule");
    let path = dir.join("inner.poly");
    std::fs::write(
        &path,
        "parallelize([0, 0], 2, schedule = static);\n\
         parallelize([0, 0, 0], 1, schedule = dynamic, collapse = 2);\n",
    )
    .expect("write");
    let outcome = round_trip(
        &dir,
        "inner",
        "tests/kernels/two-regions.c",
        2,
        &path.to_string_lossy(),
    );
    assert_eq!(outcome, Outcome::Replayed(2));
    let explained =
        std::fs::read_to_string(dir.join("inner.explained.poly")).expect("the explanation");
    assert!(
        explained.contains("parallelize([0], 2, schedule = static);"),
        "{explained}"
    );
}

/// Found by the random tester: strips that the phases leave as a gap,
/// read as the `stripmine` given last. Seed 1212: one piece of a peeled
/// loop strip-mined below its tile loops; the tile loops are strips of
/// later dates too, and the reading that undoes strips tries each,
/// outermost first, until one comes apart from its pieces' pads.
#[test]
fn strips_that_come_apart_from_the_schedule_are_explained_last() {
    let dir = common::scratch("explain-piece-strip");
    replayed_saying(
        &dir,
        "2mm-peel-strip",
        "recipes/2mm/2mm.c",
        "auto(spatial, [1, 0], fuse = no);\npeel([1], {0, 0, 0, 0 | -2});\n\
         stripmine([2, 1], 3, 5);\n",
        "stripmine([2, 1, 0], 3, 5);",
    );
    // Seed 7171: a strip loop inside a collapsed nest, unmarked. No mark
    // directive gives that `collapse`, so the marks phase leaves a gap,
    // and the strip is read as the `stripmine` after the mark.
    replayed_saying(
        &dir,
        "2mm-collapse-strip",
        "recipes/2mm/2mm.c",
        "parallelize([1, 0], 1, collapse = 2);\nstripmine([1, 0], 2, 2);\n",
        "parallelize([1], 1, collapse = 2);",
    );
}

/// Found by the random tester: an `iss` (or `peel`) written on a tile
/// loop's date after the tiling, which no inequality of the iterators
/// gives. The explanation tiles first and splits last, on the same date;
/// and where the schedule without the split is not expressed, the gap
/// says so rather than blaming the split.
#[test]
fn splits_on_tile_loops_are_explained_after_the_tiles() {
    let dir = common::scratch("explain-split-tile-dates");
    let cases = [
        (
            "split-time-tiles",
            "tests/kernels/heat-3d.c",
            "auto(pluto, fuse = max);\niss([0], c1 >= _PB_TSTEPS / 2);\n",
            "iss([0], {2 | | -1 | 0});",
        ),
        (
            "split-wavefront-tiles",
            "tests/kernels/jacobi-1d-mod.c",
            "auto(pluto, [0], wavefront = true);\niss([0, 0], {1, 1 | | 1, 0 | -1});\n",
            "iss([0, 0], {1, 1 | | 1 | -1});",
        ),
        (
            "split-strips",
            "tests/kernels/bicg.c",
            "stripmine([1], 1, 2);\niss([1], {-1 | | 0, 0 | -1});\n",
            "iss([1], {-1 | | | -1});",
        ),
        (
            "split-of-grained-strips",
            "tests/kernels/mvt.c",
            "tile([1, 0], 2, 2, 4);\nshift([1], 2, [1], -3);\ngrain([1, 0, 0, 0], 3, 4);\n\
             peel([1, 0], {0 | -1});\nreorder([1], [1, 0]);\n",
            "iss([1], {0, -1 | | | 0});",
        ),
    ];
    for (name, kernel, recipe, says) in cases {
        let (_, explained) = replayed_saying(&dir, name, kernel, recipe, says);
        let last = explained.lines().rev().find(|l| l.contains(");"));
        assert!(
            last.is_some_and(|l| l.starts_with("iss(")),
            "{name}:\n{explained}"
        );
    }
    // seidel-2d: the split is found after the tiles, whose point date was
    // `reshape`d to add twice an iterator that two dates read (the strip
    // reads it less that iterator: a `reshape` around the strip).
    let (outcome, explained) = explained_recipe(
        &dir,
        "split-of-reshaped-tiles",
        "tests/kernels/seidel-2d.c",
        "auto(pluto, wavefront = true, tile = 4);\nreshape([0, 0, 0, 0, 0, 0, 0], 6, 2, -2);\n\
         iss([0], {-1 | | 0, 0 | 2});\n",
    );
    assert!(
        matches!(outcome, Outcome::Replayed(_)),
        "{outcome:?}\n{explained}"
    );
    let last = explained.lines().rev().find(|l| l.contains(");"));
    assert!(last.is_some_and(|l| l.starts_with("iss(")), "{explained}");
}

/// Found by the random tester: a stride that no row's common factor
/// gives (`grain` before a `skew` of the same loop), a point loop
/// `grain`ed after its strip (the strip of `8t` by 8,200 is the strip of
/// `t` by 1,025), `iss` parts that are empty (kept, so the children
/// after them count them), a `peel` under a later `iss` (read off the
/// rows they wrote, last first), and a point loop skewed by its tile
/// loop. Each explanation replays to the schedule, in
/// as many directives as the recipe (one more where the recipe's `shift`
/// after an `embed` takes two), and says it with the directive named.
#[test]
fn strides_empty_parts_and_point_loops_skewed_by_tiles_are_explained() {
    let dir = common::scratch("explain-strides-empty-parts");
    let cases = [
        (
            "grain-under-a-skew",
            "recipes/gemm/gemm.c",
            "group { unroll_noepilog([0, 1, 0], 4); grain([0, 0, 0], 2, 2); }\n\
             unroll_jam([0], 2, 4);\nskew([0], 2, 1, 1);\n",
            "grain([0, 0], 2, 2);",
            4,
        ),
        (
            "grained-point-loop",
            "tests/kernels/jacobi-1d-periodic.c",
            "tile_band([0], 1, [1025]);\ngrain([0, 0], 2, 8);\n",
            "tile_band([0], 1, [8200]);",
            2,
        ),
        (
            "grained-point-loop-of-a-band",
            "tests/kernels/syrk.c",
            "auto(pluto);\ngrain([1, 0], 5, 2);\n",
            "tile_band([1], 1, [32, 64, 32]);",
            8,
        ),
        (
            "empty-part-of-a-second-split",
            "tests/kernels/coalescing.c",
            "unroll_noepilog([0], 3);\niss([0, 0], {0, -1 | |  | 0});\niss([0, 0], j <= 3);\n",
            "iss([0, 0], {0, -1 | | 3});",
            3,
        ),
        (
            "splits-of-two-loops-one-inside-the-other",
            "recipes/syrk/syrk.c",
            "iss([0, 1], c1 >= m / 2);\niss([0], c1 >= m / 2);\n",
            "iss([0], {2 | | 0, -1 | 0});",
            2,
        ),
        (
            "a-split-that-holds-nowhere",
            "tests/kernels/jacobi-1d-periodic.c",
            "shift([0, 0, 0], 1, [-1, 0], -4);\nembed([0, 0, 0]);\n\
             iss([0, 0, 0], {0, 0, 1 | | 0, 0 | -1});\nskew([], 2, 1, 1);\niss([0, 0], c2 < 1);\n",
            "holds nowhere",
            6,
        ),
        (
            "a-peel-of-a-loop-with-a-peel-inside",
            "tests/kernels/polybench-macros.c",
            "peel([1, 1], {0, 0 | -5});\npeel([1], {0, 0 | -3});\n",
            "peel([1], {-3});",
            2,
        ),
        (
            "point-loop-skewed-by-its-tile-loop",
            "tests/kernels/mvt.c",
            "tile([1, 0], 2, 2, 4);\nskew([1, 0, 0], 3, 2, 3);\npeel([1, 0], {0 | -1});\n",
            "skew([1, 0, 0], 3, 2, 3);",
            3,
        ),
        (
            "a-peel-then-a-split-of-its-part",
            "tests/kernels/adi.c",
            "peel([0], {0, 2 | 3});\niss([1], {1 | | 0, 2 | 2});\n",
            "peel([0], {0, 2 | 3});",
            2,
        ),
    ];
    for (name, kernel, recipe, says, length) in cases {
        let (outcome, explained) = replayed_saying(&dir, name, kernel, recipe, says);
        assert_eq!(outcome, Outcome::Replayed(length), "{name}:\n{explained}");
    }
}

/// Found by the random tester: a point loop reversed after the tiling,
/// for one of the two statements that share its strip (heat-3d's sweeps
/// under `auto(spatial)`), and a point loop shifted after it where the
/// other statements of the loop read the same strip at another date of
/// theirs (lu's). Each strip is made of the dates as they were, and the
/// reversal or shift given around it (heat-3d's around its one
/// `tile_band`: the statement reversed, the band, the reversal again
/// inside its tile); the explanation replays to the schedule. A point
/// loop shifted after a band whose first statement has one date twice
/// (fdtd-2d's `t` and `t` beside the others' `t` and `t + i`, seed 2727):
/// that statement's tiles read the shifted date and the other in the
/// band's order, as the loop's other statements do.
#[test]
fn point_loops_reversed_or_shifted_after_their_strips_are_explained() {
    let dir = common::scratch("explain-points-after-strips");
    let cases = [
        (
            "one-statement-reversed-inside-its-tile",
            "tests/kernels/heat-3d.c",
            "auto(spatial, line = 16);\nreverse([0, 0, 0, 0, 0, 0, 0, 0, 0], 6);\n",
            "tile_band([0], 1, [8, 8, 8, 512]);",
        ),
        (
            "point-loop-shifted-under-a-wavefront",
            "tests/kernels/lu.c",
            "auto(pluto, tile = 8, unroll_jam = false);\nshift([0, 0, 0], 6, [0], -1);\n\
             shift([0, 0], 3, [2], -2);\n",
            "shift([0, 0, 0], 3, [2], -2);",
        ),
        (
            "first-point-loop-shifted-where-a-statement-repeats-a-date",
            "tests/kernels/fdtd-2d.c",
            "auto(pluto, tile = 4);\nshift([0], 4, [], -1);\n",
            "shift([0], 4, [], -1);",
        ),
        (
            // lu's second statement runs `j` at the next depth too: its
            // strip of `j` is read at `i + j` less the date `i`, as the
            // others' strips of `k` (seed 6161).
            "point-loop-reshaped-where-a-statement-repeats-a-date",
            "tests/kernels/lu.c",
            "auto(pluto, parallel = false);\nreshape([0, 0, 0, 0, 0], 5, 1, -1);\n",
            "skew([0, 0, 0, 0], 4, 2, -1);",
        ),
        (
            "second-point-loop-shifted-where-a-statement-repeats-a-date",
            "tests/kernels/fdtd-2d.c",
            "auto(pluto, wavefront = true, tile = 4);\nshift([0], 5, [0, 0, 0], -1);\n",
            "shift([0], 5, [], -1);",
        ),
    ];
    for (name, kernel, recipe, says) in cases {
        replayed_saying(&dir, name, kernel, recipe, says);
    }
}

/// A strip that `linearize` took out of the loops and left in the dates
/// that read it: as an existential variable (a loop skewed by twice its
/// tile loop), as a floor of the point loop's own (skewed by it once,
/// `i + ⌊i/4⌋ = ⌊5i/4⌋`; by −3 times), of a loop skewed by an outer loop
/// too, and two such strips, one inside the other. Each is explained as
/// the tiles, the skews and then `linearize`, and replays to the
/// schedule.
#[test]
fn linearized_strips_are_explained_before_their_linearize() {
    let dir = common::scratch("explain-linearized");
    let cases = [
        (
            "a-strip-left-as-a-local",
            "tests/kernels/jacobi-1d-mod.c",
            "stripmine([], 1, 32);\nskew([0, 0, 0, 0], 3, 1, 2);\nlinearize([0, 0], 1);\n",
            "linearize([0], 1);",
            3,
        ),
        (
            "a-strip-left-as-a-floor",
            "tests/kernels/modulo-bounds.c",
            "stripmine([0], 1, 4);\nskew([0], 2, 1, -3);\nlinearize([0, 0], 1);\n",
            "skew([0, 0], 2, 1, -3);",
            3,
        ),
        (
            "a-floor-skewed-by-an-outer-tile-loop",
            "tests/kernels/jacobi-1d-mod.c",
            "stripmine([], 1, 32);\nstripmine([0, 0, 0], 3, 8);\n\
             skew([0, 0, 0, 0, 0], 4, 3, -1);\nskew([0, 0, 0, 0, 0], 4, 1, 64);\n\
             linearize([0, 0, 0, 0, 0], 3);\n",
            "linearize([0, 0, 0], 3);",
            5,
        ),
        (
            "two-strips-one-inside-the-other",
            "tests/kernels/jacobi-1d-mod.c",
            "stripmine([], 1, 32);\nstripmine([0, 0, 0], 3, 8);\n\
             skew([0, 0, 0, 0, 0], 4, 3, -1);\nskew([0, 0, 0, 0, 0], 4, 1, 64);\n\
             linearize([0, 0, 0, 0, 0], 3);\nlinearize([0, 0, 0, 0], 1);\n",
            "linearize([0], 1);",
            6,
        ),
    ];
    for (name, kernel, recipe, says, length) in cases {
        let (outcome, explained) = replayed_saying(&dir, name, kernel, recipe, says);
        assert_eq!(outcome, Outcome::Replayed(length), "{name}:\n{explained}");
    }
}

/// A recipe's data-layout calls are kept as calls around the explanation
/// of the schedule (on the program the first ones make): the first ones
/// before it (`add_array`s moved there), and from the next one on the
/// recipe's calls as written. Each explanation replays to the recipe's
/// schedule and prints the same code. An `auto` after the last
/// data-layout call is explained on the program that call makes; one
/// between two data-layout calls is a gap that says so.
#[test]
fn data_layout_calls_are_kept_around_the_explained_schedule() {
    let dir = common::scratch("explain-data-layout");
    let same_code = |name: &str, kernel: &str, explained: &str| {
        let path = dir.join(format!("{name}.explained.poly"));
        let recipe = dir.join(format!("{name}.poly"));
        let code = |r: &Path| common::polyc(&[kernel, "--recipe", &r.to_string_lossy()]);
        let (a, b) = (code(&recipe), code(&path));
        assert_eq!(
            (a.status, b.status),
            (0, 0),
            "{name}: {}{}",
            a.stderr,
            b.stderr
        );
        assert_eq!(a.stdout, b.stdout, "{name}: other code from\n{explained}");
    };
    let recipe = std::fs::read_to_string("tests/recipes/two-loops-contract.poly").expect("recipe");
    let (_, explained) = replayed_saying(
        &dir,
        "contract",
        "tests/kernels/two-loops.c",
        &recipe,
        "fuse([0]);",
    );
    let at = |explained: &str, s: &str| {
        explained
            .find(s)
            .unwrap_or_else(|| panic!("{s}:\n{explained}"))
    };
    assert!(at(&explained, "t = add_array(\"t\");") < at(&explained, "group {"));
    assert!(at(&explained, "datacopy(\"A\", t, [1], 0, [1, 0]);") < at(&explained, "fuse([0]);"));
    assert!(at(&explained, "fuse([0]);") < at(&explained, "dimcontract([0], t, 1);"));
    same_code("contract", "tests/kernels/two-loops.c", &explained);
    // A data-layout call among the other calls: the ones after it are
    // kept as written, on the schedule the explanation gives.
    let layout = "bt = add_array(\"Bt\");\ngroup {\n  replace_array(\"B\", bt);\n  \
                  datacopy(bt, \"B\", [0], true, [0, 1, 0, 0]);\n}\n";
    let among = format!(
        "{layout}stripmine([1], 1, 8);\ninterchange([1], 1, 2);\n\
         dimreorder([], bt, [1, 0]);\niss([1, 0], c1 >= ni / 2 + 1);\n"
    );
    let (_, explained) = replayed_saying(
        &dir,
        "among",
        "tests/kernels/gemm.c",
        &among,
        "stripmine([1], 1, 8);",
    );
    let kept = at(&explained, "as written.\ndimreorder([], bt, [1, 0]);\n");
    assert!(
        at(&explained, "interchange([1, 0], 1, 2);") < kept,
        "{explained}"
    );
    assert!(
        explained.ends_with("iss([1, 0], c1 >= ni / 2 + 1);\n"),
        "{explained}"
    );
    same_code("among", "tests/kernels/gemm.c", &explained);
    // An array added among the other calls is added first, so an `auto`
    // of a nest after it is explained.
    let added = "reverse([0, 0], 2);\nt = add_array(\"t\");\nauto(pluto, [1]);\n";
    let (_, explained) = replayed_saying(&dir, "added", "tests/kernels/2mm.c", added, "tile_band(");
    assert!(at(&explained, "t = add_array(\"t\");") < at(&explained, "reverse([0], 2);"));
    same_code("added", "tests/kernels/2mm.c", &explained);
    // A data-layout call that changes no access (`dimreorder` by the
    // identity) still makes the schedule of its moment the program's
    // original order: it is kept as the others are (found by the random
    // tester, whose explanation of such a recipe did not replay).
    let identity = "reverse([1], 1);\nreverse([0], 1);\ndimreorder([1], \"B\", [0]);\n\
                    parallelize([0, 0], 1);\n";
    let (_, explained) = replayed_saying(
        &dir,
        "identity",
        "tests/kernels/two-loops.c",
        identity,
        "as written.\ndimreorder([1], \"B\", [0]);\nparallelize([0, 0], 1);",
    );
    same_code("identity", "tests/kernels/two-loops.c", &explained);
    // An `auto` after the last data-layout call, which other calls
    // precede: the calls up to the end of that one kept as written, the
    // rest explained on the program it makes, from its original order.
    let layout = "ct = add_array(\"Ct\");\nreverse([0, 0], 2);\ngroup {\n  \
                  replace_array(\"C\", ct);\n  datacopy(ct, \"C\", [1], true, [1, 0, 1, 0]);\n}\n";
    let auto_after = format!("{layout}auto(pluto, [2]);\n");
    let (_, explained) = replayed_saying(
        &dir,
        "auto-after",
        "tests/kernels/2mm.c",
        &auto_after,
        "tile_band([3], 1, [32, 32, 64]);",
    );
    assert!(
        at(&explained, "datacopy(ct, \"C\", [1], 1, [1, 0, 1, 0]);")
            < at(
                &explained,
                "explained from the order those calls start from.\nsplit("
            ),
        "{explained}"
    );
    same_code("auto-after", "tests/kernels/2mm.c", &explained);
    // Seed 7171: an `auto` of one nest after the last data-layout call,
    // where an earlier `auto` leaves the other nests tiled: the nest is
    // explained on its own from the schedule that call leaves, and its
    // directives moved to its place.
    let nest_after = "auto(pluto, tile = false);\nadd_array(\"d0\");\ngroup {\n  \
                      replace_array(\"A\", \"d0\");\n  \
                      datacopy(\"d0\", \"A\", [0], true, [0, 0, 0]);\n  \
                      datacopy(\"A\", \"d0\", [1], false, [1, 0, 0]);\n}\n\
                      auto(pluto, [2]);\n";
    let (_, explained) = replayed_saying(
        &dir,
        "nest-after",
        "tests/kernels/mvt.c",
        nest_after,
        "explained from the order those calls start from.\nparallelize([2], 1);",
    );
    same_code("nest-after", "tests/kernels/mvt.c", &explained);
    // Seed 4141: a `context` after an `auto` stays after it (the
    // scheduler reads the dependences it narrows), and the calls from
    // there on are kept as written.
    let context_after = "auto(pluto, fuse = max);\ncontext([0, 1, -32]);\nadd_array(\"A\");\n";
    let (_, explained) = replayed_saying(
        &dir,
        "context-after-auto",
        "tests/kernels/trisolv.c",
        context_after,
        "as written.\ncontext([0, 1, -32]);\nadd_array(\"A\");",
    );
    same_code("context-after-auto", "tests/kernels/trisolv.c", &explained);
    // An `auto` between two data-layout calls stays a gap that says so.
    let between = format!("{layout}auto(pluto, [2]);\ndimreorder([], ct, [1, 0]);\n");
    let (outcome, explained) =
        explained_recipe(&dir, "auto-between", "tests/kernels/2mm.c", &between);
    assert!(
        matches!(&outcome, Outcome::Gap(g) if g.contains("`auto` runs between two data-layout calls")),
        "{outcome:?}\n{explained}"
    );
}

/// Found by the random tester: a tile loop skewed (or `reshape`d) by a
/// loop inside it after the tiling, so that its date is a strip less a
/// multiple of a point date (`⌊j/16⌋ − j`). The strip is read with that
/// date in its combination, and the `skew` given after the tiles.
#[test]
fn tile_loops_skewed_by_their_point_loops_are_explained() {
    let dir = common::scratch("explain-tiles-skewed-by-points");
    let cases = [
        (
            "a-tile-loop-reshaped-by-its-point-loop",
            "tests/kernels/mirror.c",
            "tile_band([0, 0], 2, [16]);\nreshape([0, 0], 2, 2, -1);\n",
            "skew([0, 0, 0], 2, 3, -1);",
            Some(2),
        ),
        (
            "a-tile-loop-of-a-band-reshaped",
            "tests/kernels/bicg.c",
            "auto(spatial, hlim = 0, tile = 4);\nreshape([2, 0, 0, 0, 0], 2, 2, 1);\n",
            "skew([2, 0, 0, 0], 2, 4, 1);",
            None,
        ),
        (
            "a-gpu-block-loop-skewed-then-tiled",
            "tests/kernels/trisolv.c",
            "auto(pluto, target = gpu);\nskew([0, 0, 0], 1, 2, 1);\ntile_band([1], 1, [8]);\n",
            "skew([0, 0], 1, 2, 1);",
            None,
        ),
    ];
    for (name, kernel, recipe, says, length) in cases {
        let (outcome, explained) = replayed_saying(&dir, name, kernel, recipe, says);
        if let Some(length) = length {
            assert_eq!(outcome, Outcome::Replayed(length), "{name}:\n{explained}");
        }
    }
}

/// Found by the random tester (explanations twice as long as the
/// recipe): Clay's `tile`, a `stripmine` and one swap of its tile loop
/// outwards, is explained as itself, on sibling loops as one; so is a
/// `tile` of one statement of a loop, with no swap (not `split`,
/// `stripmine` and `fuse`s).
#[test]
fn a_tile_is_explained_as_itself() {
    let dir = common::scratch("explain-tile");
    let cases = [
        (
            "a-tile-moved-out-one-loop",
            "tests/kernels/3mm.c",
            "tile([1], 2, 1, 8);\n",
            "tile([1, 0], 2, 1, 8);",
        ),
        (
            "a-tile-of-sibling-loops",
            "tests/kernels/jacobi-2d.c",
            "tile([0], 3, 2, 4);\n",
            "tile([0], 3, 2, 4);",
        ),
        (
            "a-tile-of-one-statement-of-the-loop",
            "recipes/gemm/gemm.c",
            "tile([0, 0, 0], 1, 1, 4);\n",
            "tile([0, 0, 0], 1, 1, 4);",
        ),
        (
            "a-tile-of-one-statement-of-two-loops",
            "tests/kernels/3mm.c",
            "tile([0, 0, 0], 1, 1, 8);\n",
            "tile([0, 0, 0], 1, 1, 8);",
        ),
    ];
    for (name, kernel, recipe, says) in cases {
        let (outcome, explained) = replayed_saying(&dir, name, kernel, recipe, says);
        assert_eq!(outcome, Outcome::Replayed(1), "{name}:\n{explained}");
    }
    // Two statements of one loop tiled by 4 and by 3 share the loop with
    // the third's iterations, and their point loop: each statement's
    // `tile` (the gap "it shares tile loops with statements whose point
    // loops are ordered inside them" before).
    let cases = [
        (
            "tiles-of-two-sizes-in-one-loop",
            "tests/kernels/atax.c",
            "group { tile([1, 0], 1, 1, 4); tile([1, 1, 0], 1, 1, 3); }\nreverse([1, 1, 0], 2);\n",
            "tile([1, 1, 0], 1, 1, 3);",
        ),
        // A tile loop swapped two loops out, after a `reverse` (the swap of
        // the two outer loops around the tile before, found by the tester).
        (
            "a-tile-swapped-two-loops-out",
            "tests/kernels/syr2k.c",
            "reverse([0], 1);\ntile([0, 1, 0], 3, 1, 8);\n",
            "tile([0, 1, 0], 3, 1, 8);",
        ),
        // A loop strip-mined, then fused with a loop before it: its point
        // loop is a child of its own in the shared loop, which a `tile`
        // of that statement does not give (seed 6161: the gap "its tiles
        // are not strips" before).
        (
            "a-strip-fused-with-the-loop-before",
            "tests/kernels/mvt.c",
            "stripmine([1], 1, 16);\nfuse([0]);\nunroll([0], 2);\n",
            "stripmine([1], 1, 16);",
        ),
    ];
    let lengths = [3, 2, 3];
    for ((name, kernel, recipe, says), length) in cases.into_iter().zip(lengths) {
        let (outcome, explained) = replayed_saying(&dir, name, kernel, recipe, says);
        assert_eq!(outcome, Outcome::Replayed(length), "{name}:\n{explained}");
    }
}

/// Found by the random tester: a `peel` or an `iss` whose side holds no
/// instance (gemm's peel of the strips where `j ≤ −2·nj − 3`; five of
/// seidel-2d's six pieces) leaves pieces that say nothing of when an
/// instance runs, and holes in the β dates of those that do. The
/// schedule of the pieces with instances is explained, then each hole
/// made again by an `iss` that holds everywhere (among the outermost
/// dates, mirror's `peel` of nothing, followed by the `split` after the
/// loop: seed 2727), or, as short, the cut that made the empty part
/// (gemm's `peel`, the strips of its two parts merged into one); the
/// replay is the same schedule on the domains.
#[test]
fn pieces_without_instances_are_explained_as_holes() {
    let dir = common::scratch("explain-empty-pieces");
    let cases = [
        (
            "a-peel-of-no-strip-then-a-tile-of-the-rest",
            "tests/kernels/gemm.c",
            "stripmine([], 2, 4);\npeel([0, 0, 0], {0, 2, 0 | 2});\ntile_band([0, 0, 1], 3, [2]);\n",
            // The empty part is the `peel`'s own: the cut gives it, the
            // two parts' strips by 4 merged into one.
            "peel([0, 0], {0, 2 | 2});",
        ),
        (
            "splits-of-no-time-step",
            "tests/kernels/seidel-2d.c",
            "fuse([0]);\nunroll_noepilog([0, 0, 0], 4);\nunroll([0, 0], 2);\n\
             iss([0], {1 | | 2, 0 | 2});\ntile_band([0, 0], 2, [8, 5]);\n\
             peel([0, 1, 0, 0], {0, -1 | -3});\niss([0], i < 1);\nstripmine([0, 1, 0, 1], 4, 5);\n\
             parallelize([0, 3, 0, 0], 4, schedule = guided);\n",
            "iss([0], {| | 0});",
        ),
        (
            // The parts with instances keep the first split's `i >= 1`,
            // which the domain implies: matched on the domain (seed 6161).
            "holes-among-parts-that-repeat-the-domain",
            "tests/kernels/simd-distance.c",
            "iss([4], i < 1);\niss([4], {1 | | 0, 0 | -10});\nfuse([4]);\n",
            "reorder([4], [1, 3, 5, 0, 2, 4]);",
        ),
        (
            "a-peel-of-nothing-at-the-root",
            "tests/kernels/mirror.c",
            "embed([0, 0, 0]);\npeel([0], {2 | -2});\nshift([1, 0, 0, 0], 2, [0], -1);\n",
            "split([0, 0, 0, 0], 1);",
        ),
    ];
    for (name, kernel, recipe, says) in cases {
        replayed_saying(&dir, name, kernel, recipe, says);
    }
}

/// Found by the random tester: `parallelize(…, collapse = 2)` marks the
/// loop inside too, so the explanation gives it once, not again on the
/// inner loop; a date that differs from the one before by a multiple of
/// one iterator (`−2j` from `j`) is one `reshape`, not a `reverse` and a
/// `grain`; and loops grained by 5, one of them by 10, share one `grain`
/// by 5 (17 directives before). Each comes back as long as the recipe.
#[test]
fn collapses_reshapes_and_shared_grains_are_explained_as_themselves() {
    let dir = common::scratch("explain-collapse-reshape");
    let cases = [
        (
            "collapse-then-reshape",
            "tests/kernels/mirror.c",
            "parallelize([0], 1, collapse = 2);\nreshape([0], 2, 2, 3);\n",
            "parallelize([0], 1, collapse = 2);",
            2,
        ),
        (
            "a-reshape",
            "tests/kernels/chained-assign.c",
            "reshape([2], 1, 1, 3);\n",
            "reshape([2], 1, 1, 3);",
            1,
        ),
        (
            "a-grain-of-all-and-one-more",
            "tests/kernels/fold-types.c",
            "iss([0], c1 >= 2);\ngrain([0, 6], 2, 2);\ngrain([0], 2, 5);\n",
            "grain([0], 2, 5);",
            3,
        ),
    ];
    for (name, kernel, recipe, says, length) in cases {
        let (outcome, explained) = replayed_saying(&dir, name, kernel, recipe, says);
        assert_eq!(outcome, Outcome::Replayed(length), "{name}:\n{explained}");
    }
}

/// Found by the random tester: a band of `auto`'s tiles, then a tile of
/// one of its point loops right outside it (and of a tile loop right
/// outside that tile loop), made after the band. Without the dates
/// those later `stripmine`s added, the β dates are the band's, strips
/// made first and moved out; the explanation strips the point loop and
/// the tile loop again after the band, and replays to the schedule (the
/// gap "it shares tile loops with statements whose point loops are
/// ordered inside them" before).
#[test]
fn later_tiles_of_a_band_s_loops_are_explained() {
    let dir = common::scratch("explain-later-tiles");
    let cases = [
        (
            "a-tile-of-a-point-loop-after-a-wavefront",
            "tests/kernels/fold-types.c",
            "auto(pluto, wavefront = true, tile = 4);\nembed([3, 0, 1, 0, 0]);\n\
             skew([4, 0, 0, 0], 3, 4, 1);\ntile_band([3, 0], 3, [8]);\n",
            "stripmine([4, 0], 3, 8);",
        ),
        (
            "a-tile-of-a-tile-loop-and-of-a-point-loop",
            "tests/kernels/fold-types.c",
            "auto(pluto, tile = 8, unroll_jam = false);\ntile_band([3], 2, [2]);\n\
             tile_band([3, 0, 0, 1], 4, [16]);\n",
            "stripmine([3, 0, 1], 3, 16);",
        ),
    ];
    for (name, kernel, recipe, says) in cases {
        replayed_saying(&dir, name, kernel, recipe, says);
    }
}

/// Found by the random tester: a statement tiled, split inside its tile
/// by `iss`, then one piece `reshape`d alone. The split is made last,
/// after the tiles, and the piece's `reshape` after it.
#[test]
fn a_piece_reshaped_after_its_split_is_explained() {
    let dir = common::scratch("explain-piece-after-split");
    let (outcome, explained) = replayed_saying(
        &dir,
        "a-piece-reshaped",
        "tests/kernels/two-regions.c",
        "auto(pluto, [1]);\niss([1, 0, 0], {0, 0, 1 | | 0, 0 | -3});\n\
         reshape([1, 0, 0, 1, 0], 4, 2, 3);\n",
        "reshape([1, 0, 0, 1, 0], 4, 2, 3);",
    );
    // The split comes back as itself, written on the iterators.
    assert!(
        explained.contains("iss([1, 0, 0], {1 | | -3});"),
        "{outcome:?}\n{explained}"
    );
}

/// Found by the random tester (seed 4646): a point loop skewed by twice
/// its tile loop of 2, `i − 2·⌊i/2⌋`, whose strip the schedule bounds
/// on the point date alone (`0 ≤ c₃ ≤ 1`, the gap "a loop date is
/// neither an affine form of its iterators nor a strip of one" before),
/// and a loop skewed by a tile loop inside it. Each comes back as the
/// recipe. And a wavefront's point loop skewed by its tile loop, whose
/// parallel tile loop is checked again on the rows the directives write.
#[test]
fn loops_skewed_by_tile_loops_are_explained() {
    let dir = common::scratch("explain-skewed-by-tile-loops");
    let cases = [
        (
            "a-point-loop-bounded-on-its-own-date",
            "tests/kernels/two-loops.c",
            "stripmine([0], 1, 2);\nskew([0, 0], 2, 1, 2);\n",
            "skew([0, 0], 2, 1, 2);",
        ),
        (
            "a-loop-skewed-by-a-tile-loop-inside-it",
            "tests/kernels/floyd-warshall.c",
            "tile_band([0], 3, [3]);\nskew([0, 0, 0, 0, 0], 2, 3, -2);\n",
            "skew([0, 0, 0], 2, 3, -2);",
        ),
    ];
    for (name, kernel, recipe, says) in cases {
        let (outcome, explained) = replayed_saying(&dir, name, kernel, recipe, says);
        assert_eq!(outcome, Outcome::Replayed(2), "{name}:\n{explained}");
    }
    // Seed 7878: Pluto's wavefront with its point loop skewed by its tile
    // loop. The check of its parallel tile loop gives up on the target's
    // rows and proves it on the rows the directives write.
    let (_, explained) = replayed_saying(
        &dir,
        "a-parallel-loop-checked-on-the-written-rows",
        "tests/kernels/jacobi-1d.c",
        "auto(pluto, fuse = max);\nskew([0, 0], 4, 2, 1);\n",
        "parallelize([0], 2, schedule = static, chunk = 1);",
    );
    assert!(!explained.contains("not expressed"), "{explained}");
}

/// Found by the random tester (seed 2727): a piece tiled by `tile`, its
/// point loop reversed. The tile loop moved outwards leaves the pad of
/// the other piece at the `stripmine`'s depth, below it; set aside there
/// too, the pieces are explained one at a time (the gap "its pieces,
/// explained one at a time after the cut, do not give its schedule
/// together" before).
#[test]
fn a_piece_tiled_alone_pads_the_other_below_its_tile_loop() {
    let dir = common::scratch("explain-pad-below-tile");
    let (outcome, explained) = replayed_saying(
        &dir,
        "a-piece-tiled-and-reversed",
        "recipes/gemm/gemm.c",
        "iss([0, 1], c1 >= 10);\ntile([0, 1, 0, 0], 3, 2, 3);\nreverse([0, 1, 0], 4);\n",
        "reverse([0, 1, 0], 4);",
    );
    assert_eq!(outcome, Outcome::Replayed(4), "{explained}");
}

/// Found by the random tester: strips of tile loops that are strips of
/// tile loops themselves (the innermost strip is made first, then each
/// strip of it), and a tile loop moved inside its point loop past loops
/// its statements no longer share (one `interchange` per loop there).
/// Each was the gap "its tiles are not strips of its loops that
/// `stripmine` and `interchange` give" before.
#[test]
fn tiles_of_tiles_and_tile_loops_inside_parted_loops_are_explained() {
    let dir = common::scratch("explain-tiles-of-tiles");
    let cases = [
        (
            "a-tile-of-a-tile-of-a-tile-loop",
            "tests/kernels/two-regions.c",
            "auto(pluto, target = gpu);\nstripmine([], 2, 2);\nstripmine([2], 2, 4);\n\
             embed([0, 0, 0, 0]);\n",
            "stripmine([2, 0], 2, 4);",
        ),
        (
            "tiles-of-tiles-of-an-embedded-loop",
            "tests/kernels/mvt.c",
            "embed([0, 0, 0]);\ntile_band([0], 1, [32, 3, 3]);\n\
             tile_band([0, 0], 2, [1000, 4, 2, 64, 8]);\n\
             interchange([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 2, 11);\n\
             tile([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 3, 3, 16);\n",
            "stripmine([0, 0, 0, 0, 0, 0, 0], 7, 1000);",
        ),
        (
            "a-tile-loop-inside-each-statement-s-loop",
            "tests/kernels/bicg.c",
            "auto(spatial, [1], tile = 4);\ninterchange([2], 1, 2);\n\
             interchange([2, 0], 4, 1);\nreshape([0, 0], 1, 1, -1000);\n",
            "interchange([2, 0], 3, 4);",
        ),
    ];
    for (name, kernel, recipe, says) in cases {
        replayed_saying(&dir, name, kernel, recipe, says);
    }
}

/// Found by the random tester: a tile loop `grain`ed after `auto`'s
/// tiles (doitgen's `c₅ = 4·⌊p/32⌋`, a local in the schedule: the gap
/// "its dates have existential variables" before), a tile loop
/// `grain`ed for one of its statements (syr2k's second, by its own β),
/// and a point loop `grain`ed inside its tiles (gesummv: the gap "its
/// tiles are not strips" before). The schedule before the `grain` is
/// explained, then the `grain` given.
#[test]
fn grained_tile_and_point_loops_are_explained_before_their_grain() {
    let dir = common::scratch("explain-grained-tile");
    replayed_saying(
        &dir,
        "a-grained-tile-loop",
        "tests/kernels/doitgen.c",
        "auto(pluto, register_tile = false);\ngrain([0], 3, 4);\n",
        "grain([0, 0, 0], 3, 4);",
    );
    let (outcome, explained) = replayed_saying(
        &dir,
        "a-tile-loop-grained-for-one-statement",
        "tests/kernels/syr2k.c",
        "stripmine([0], 1, 5);\ngrain([0, 0, 1, 0], 1, 4);\n",
        "grain([0, 0, 1, 0, 0], 1, 4);",
    );
    assert_eq!(outcome, Outcome::Replayed(2), "{explained}");
    // A point loop of `auto`'s tiles grained: its dates `5j`, `5N`, `0`
    // are no strips' of the tile loop around them (`32c ≤ j`), so the
    // `grain` comes after the tiles (found by the random tester, seed
    // 2727).
    let (outcome, explained) = replayed_saying(
        &dir,
        "a-point-loop-grained-after-its-tiles",
        "tests/kernels/gesummv.c",
        "auto(pluto, fuse = max);\ngrain([0, 0, 0], 3, 5);\n",
        "grain([0, 0, 0], 3, 5);",
    );
    assert!(
        explained.trim_end().ends_with("a stride of 5"),
        "the grain last: {outcome:?}\n{explained}"
    );
}

/// Found by the random tester: `tile` of two sibling loops, then a
/// `reshape` of both point loops. The loop phase skewed both loops at
/// once and the tile phase skewed each back for its strip and forwards
/// after it; the pairs that undo each other go, and the siblings'
/// directives put together merge: the explanation is as long as the
/// recipe (8 directives before).
#[test]
fn a_skew_undone_on_each_sibling_loop_goes_with_it() {
    let dir = common::scratch("explain-skew-undone-in-parts");
    let (outcome, explained) = replayed_saying(
        &dir,
        "a-reshape-after-tiles-of-sibling-loops",
        "recipes/gemm/gemm.c",
        "tile([0], 2, 2, 5);\nreshape([], 3, 1, -1);\nparallelize([0, 0, 0, 0], 1);\n",
        "tile_band([0], 2, [5]);",
    );
    assert!(
        matches!(outcome, Outcome::Replayed(3)),
        "{outcome:?}\n{explained}"
    );
}

/// Found by the random tester: a vector loop whose statements `embed`
/// wrapped unevenly (two-loops' second statement in a loop of one
/// iteration, the first not; adi's wavefront with one statement's loop
/// `embed`ded). The `vectorize` is set between each statement's own
/// `unembed`s and `embed`s (the gap "its mark set by `vectorize` is one
/// that directive refuses to set now" before).
#[test]
fn vector_loops_around_uneven_embeds_are_explained() {
    let dir = common::scratch("explain-uneven-embeds");
    let cases = [
        (
            "one-statement-embedded-in-a-vector-loop",
            "tests/kernels/two-loops.c",
            "auto(pluto, wavefront = true, tile = 4);\nembed([0, 1]);\n",
            "unembed([0, 1, 0]);",
        ),
        (
            "one-statement-embedded-in-a-wavefront",
            "tests/kernels/adi.c",
            "auto(pluto, wavefront = true);\ninterchange([0, 3, 0], 4, 2);\n\
             embed([0, 2, 0, 0, 2]);\nreshape([0, 3, 0, 0, 0], 4, 1, 2);\n",
            "unembed([0, 2, 0, 0, 2, 0]);",
        ),
    ];
    for (name, kernel, recipe, says) in cases {
        replayed_saying(&dir, name, kernel, recipe, says);
    }
}

/// Found by the random tester: a tile loop `reshape`d by an outer loop
/// after the tiling (heat-3d's tile date `⌊k/32⌋ − 3t`, a strip of
/// `k − 96t`): one `skew` of the tile loop, not a `skew` of the point
/// loop before the strip and another after it.
#[test]
fn a_tile_loop_skewed_by_an_outer_loop_is_one_skew() {
    let dir = common::scratch("explain-tile-skewed-by-outer");
    let (outcome, explained) = replayed_saying(
        &dir,
        "a-tile-loop-reshaped-by-the-time-loop",
        "tests/kernels/heat-3d.c",
        "tile_band([0], 4, [32]);\nreshape([0, 1, 0, 0, 0, 0], 4, 1, 3);\n\
         vectorize([0, 1, 0], 5);\n",
        "skew([0, 1, 0, 0], 4, 1, 3);",
    );
    assert!(
        matches!(outcome, Outcome::Replayed(3)),
        "{outcome:?}\n{explained}"
    );
}

/// Found by the random tester on a fresh seed: a strip of a date that
/// is no affine form of the iterators, `auto`'s wavefront of tiles
/// strip-mined (floyd-warshall) or its tile loops tiled again by a
/// `tile_band` (jacobi-1d). The schedule before the `stripmine` or
/// `tile` is explained, then it is given.
#[test]
fn strips_of_tile_loops_and_wavefronts_are_explained() {
    let dir = common::scratch("explain-stripped-dates");
    let (outcome, explained) = replayed_saying(
        &dir,
        "a-strip-of-a-wavefront",
        "tests/kernels/floyd-warshall.c",
        "auto(spatial, line = 16);\nstripmine([0], 2, 5);\n",
        "stripmine([0, 0], 2, 5);",
    );
    assert_eq!(outcome, Outcome::Replayed(4), "{explained}");
    replayed_saying(
        &dir,
        "a-band-over-a-wavefront-of-tiles",
        "tests/kernels/jacobi-1d.c",
        "auto(pluto, wavefront = true);\ntile_band([0], 1, [4, 16, 2, 8]);\n",
        "tile([0, 0, 0, 0], 4, 1, 4);",
    );
}

/// Found by the random tester on a fresh seed: a `peel` of a tile loop
/// (mvt's `c ≤ 4` on `auto`'s tile date, `⌊j/1024⌋ ≤ 4`) cuts the pieces
/// on a strip date. The cut is read over the iterators (`j ≤ 5119`), as
/// the strip rows make it, and given as an `iss`.
#[test]
fn a_peel_of_a_tile_loop_is_cut_over_the_iterators() {
    let dir = common::scratch("explain-strip-cut");
    replayed_saying(
        &dir,
        "a-peel-of-a-tile-loop",
        "tests/kernels/mvt.c",
        "auto(pluto);\npeel([0, 0], {0 | -5});\nsplit([0, 0, 1, 0, 0], 1);\n",
        "iss([0, 0], {0, 1 | | | -5120});",
    );
}

/// A recipe's `context(…)` calls are kept first: the directives found may
/// be legal only under the parameters' values they allow. The explanation
/// replays, and it is checked through the recipe language before it is
/// printed.
#[test]
fn a_recipes_context_is_kept_before_the_explanation() {
    let dir = common::scratch("explain-context");
    let (outcome, explained) = replayed_saying(
        &dir,
        "context-first",
        "tests/kernels/trisolv.c",
        "stripmine([0], 1, 4);\ncontext([1, 1, -100]);\n",
        "context([1, 1, -100]);\ntile_band([0], 1, [4]);",
    );
    assert_eq!(outcome, Outcome::Replayed(2), "{explained}");
}
