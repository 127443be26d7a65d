//! Clay's own test suite (`tests/clay/`, imported from periscop/clay; see
//! its README) replayed through polyc's recipe runner.
//!
//! Each case is a `.c` file with a `/* Clay … */` script, the OpenScop
//! `.orig.scop` (Clan's model of the region) and, for the unitary and
//! program tests, Clay's golden `.clay.scop`. The program model is read
//! from the `.orig.scop` (domains, 2d+1 scatterings, accesses), so that
//! the comparison does not depend on polyc's C front end; the script is
//! read from the `.c` file by polyc's recipe parser, exactly as
//! `polyc FILE.c` reads it. The dates polyc gives are compared with the
//! golden scattering exactly: the union of a statement's pieces and the
//! union of its golden parts, both restricted to the statement's domain
//! and padded with zero dates to one length, must be the same relation
//! (for every parameter value, not only small ones).
//!
//! `tests/clay/expected.txt` lists the cases whose outcome is not the
//! ideal one (golden dates for unitary/tests, a refusal for must_fail), each
//! with its outcome and the reason. The test fails when a case's outcome
//! differs from its expectation in either direction: a regression, or a
//! listed case that now passes unnoticed.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use polyc::lang::recipe::{clay_comment, parse_recipe};
use polyc::poly::{BasicMap, BasicSet, Constraint, Map, Set, Space, Tuple};
use polyc::scop::{dependences, Access, AccessKind, Array, DepOptions, Schedule, Scop, Statement};
use polyc::session::{run_recipe, RecipeError};
use polyc::syntax::c::{Expr, ExprKind};

/// One relation of an OpenScop file: its part(s), each with the sizes of
/// its columns and its rows `[e/i, out.., in.., local.., params.., const]`.
#[derive(Clone, Debug)]
struct Part {
    n_out: usize,
    n_in: usize,
    n_local: usize,
    n_param: usize,
    rows: Vec<Vec<i64>>,
}

#[derive(Clone, Debug)]
struct Relation {
    kind: String,
    parts: Vec<Part>,
}

#[derive(Clone, Debug, Default)]
struct OsStatement {
    relations: Vec<Relation>,
    iterators: Option<Vec<String>>,
}

#[derive(Clone, Debug, Default)]
struct OpenScop {
    context: Vec<Part>,
    params: Vec<String>,
    statements: Vec<OsStatement>,
    arrays: BTreeMap<i64, String>,
}

/// The lines of an OpenScop file without comments and blank lines.
fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

fn numbers(line: &str) -> Vec<i64> {
    line.split_whitespace()
        .map(|t| t.parse().unwrap_or_else(|_| panic!("not a number: {line}")))
        .collect()
}

struct Reader {
    lines: Vec<String>,
    at: usize,
}

impl Reader {
    fn next(&mut self) -> String {
        let l = self.lines[self.at].clone();
        self.at += 1;
        l
    }

    fn peek(&self) -> Option<&str> {
        self.lines.get(self.at).map(|s| s.as_str())
    }

    fn part(&mut self, header: &[i64]) -> Part {
        let [rows, cols, n_out, n_in, n_local, n_param] = header else {
            panic!("bad relation header {header:?}");
        };
        let part = Part {
            n_out: *n_out as usize,
            n_in: *n_in as usize,
            n_local: *n_local as usize,
            n_param: *n_param as usize,
            rows: (0..*rows).map(|_| numbers(&self.next())).collect(),
        };
        assert!(part.rows.iter().all(|r| r.len() == *cols as usize));
        part
    }

    fn relation(&mut self) -> Relation {
        let kind = self.next();
        let first = numbers(&self.next());
        let parts = if first.len() == 1 {
            (0..first[0])
                .map(|_| {
                    let h = numbers(&self.next());
                    self.part(&h)
                })
                .collect()
        } else {
            vec![self.part(&first)]
        };
        Relation { kind, parts }
    }
}

fn read_openscop(text: &str) -> OpenScop {
    let mut r = Reader {
        lines: lines(text),
        at: 0,
    };
    let mut os = OpenScop::default();
    // Clan's log lines may come first; `# NULL scop` is an empty region.
    while r.peek().is_some_and(|l| l != "<OpenScop>") {
        r.at += 1;
    }
    if r.peek().is_none() {
        return os;
    }
    r.next();
    let _language = r.next();
    os.context = r.relation().parts;
    if numbers(&r.next()) == [1] {
        assert_eq!(r.next(), "<strings>");
        os.params = r.next().split_whitespace().map(String::from).collect();
        assert_eq!(r.next(), "</strings>");
    }
    let n_statements = numbers(&r.next())[0];
    for _ in 0..n_statements {
        let mut st = OsStatement::default();
        let n_rel = numbers(&r.next())[0];
        for _ in 0..n_rel {
            st.relations.push(r.relation());
        }
        let n_ext = numbers(&r.next())[0];
        for _ in 0..n_ext {
            let tag = r.next();
            let end = tag.replace('<', "</");
            let mut body = Vec::new();
            while r.peek() != Some(end.as_str()) {
                body.push(r.next());
            }
            r.next();
            if tag == "<body>" {
                let n = numbers(&body[0])[0];
                st.iterators = Some(if n == 0 {
                    Vec::new()
                } else {
                    body[1].split_whitespace().map(String::from).collect()
                });
            }
        }
        os.statements.push(st);
    }
    while let Some(l) = r.peek().map(String::from) {
        r.next();
        if l == "<arrays>" {
            let n = numbers(&r.next())[0];
            for _ in 0..n {
                let line = r.next();
                let mut t = line.split_whitespace();
                let id: i64 = t.next().and_then(|x| x.parse().ok()).expect("array id");
                os.arrays
                    .insert(id, t.next().expect("array name").to_string());
            }
        }
    }
    os
}

/// A part's rows as polyc constraints over `[params | in | out | locals]`
/// (without the output dimensions listed in `drop_out`).
fn constraints(p: &Part, drop_out: &[usize]) -> Vec<Constraint> {
    let outs: Vec<usize> = (0..p.n_out).filter(|k| !drop_out.contains(k)).collect();
    let n_cols = p.n_param + p.n_in + outs.len() + p.n_local;
    p.rows
        .iter()
        .map(|row| {
            let mut c = vec![0; n_cols];
            let at = |k: usize| row[1 + k];
            for (k, v) in c.iter_mut().take(p.n_param).enumerate() {
                *v = at(p.n_out + p.n_in + p.n_local + k);
            }
            for k in 0..p.n_in {
                c[p.n_param + k] = at(p.n_out + k);
            }
            for (j, &k) in outs.iter().enumerate() {
                c[p.n_param + p.n_in + j] = at(k);
            }
            for k in 0..p.n_local {
                c[p.n_param + p.n_in + outs.len() + k] = at(p.n_out + p.n_in + k);
            }
            let constant = row[row.len() - 1];
            if row[0] == 0 {
                Constraint::eq(c, constant)
            } else {
                Constraint::ineq(c, constant)
            }
        })
        .collect()
}

fn dims(prefix: &str, n: usize) -> Vec<String> {
    (1..=n).map(|k| format!("{prefix}{k}")).collect()
}

/// A scattering part as a map `iterators -> dates`, padded with zero dates
/// up to `n_dates`.
fn scattering(p: &Part, params: &[String], iterators: &[String], n_dates: usize) -> BasicMap {
    let space = Space::map(
        params.to_vec(),
        Tuple::new(None, iterators.to_vec()),
        Tuple::new(None, dims("c", p.n_out)),
    );
    let m = BasicMap::from_columns(space, p.n_local, constraints(p, &[]));
    pad(&m, n_dates)
}

/// `m` with zero dates appended up to `n` dates.
fn pad(m: &BasicMap, n: usize) -> BasicMap {
    let s = m.space();
    let (n_param, n_in, n_out) = (s.n_param(), s.n_in(), s.n_out());
    let extra = n.saturating_sub(n_out);
    let space = Space::map(
        s.params.clone(),
        s.input
            .clone()
            .unwrap_or_else(|| Tuple::new(None, Vec::new())),
        Tuple::new(None, dims("c", n_out + extra)),
    );
    let total = n_param + n_in + n_out + extra + m.n_local();
    let mut rows: Vec<Constraint> = m
        .constraints()
        .iter()
        .map(|c| {
            c.remapped(total, |k| {
                if k < n_param + n_in + n_out {
                    k
                } else {
                    k + extra
                }
            })
        })
        .collect();
    for e in 0..extra {
        let mut c = vec![0; total];
        c[n_param + n_in + n_out + e] = 1;
        rows.push(Constraint::eq(c, 0));
    }
    BasicMap::from_columns(space, m.n_local(), rows)
}

/// The program model of an `.orig.scop`.
fn scop_of(os: &OpenScop) -> Scop {
    let params = os.params.clone();
    let context_space = Space::set(params.clone(), None, Vec::new());
    let context = os.context.first().map_or_else(
        || BasicSet::universe(context_space.clone()),
        |p| BasicSet::from_parts(context_space.clone(), p.n_local, constraints(p, &[])),
    );
    let dummy = Expr {
        kind: ExprKind::Int(0, "0".into()),
        span: 0..0,
    };
    let mut arrays: BTreeMap<String, usize> = BTreeMap::new();
    let mut statements = Vec::new();
    for (k, st) in os.statements.iter().enumerate() {
        let domain_rel = st
            .relations
            .iter()
            .find(|r| r.kind == "DOMAIN")
            .expect("domain");
        let n_iter = domain_rel.parts[0].n_out;
        let iterators = st.iterators.clone().unwrap_or_else(|| dims("i", n_iter));
        let name = format!("S{k}");
        let mut domain = Set::empty(Space::set(
            params.clone(),
            Some(name.clone()),
            iterators.clone(),
        ));
        for p in &domain_rel.parts {
            domain.push(BasicSet::from_parts(
                Space::set(params.clone(), Some(name.clone()), iterators.clone()),
                p.n_local,
                constraints(p, &[]),
            ));
        }
        let scat = st
            .relations
            .iter()
            .find(|r| r.kind == "SCATTERING")
            .expect("scattering");
        let sp = &scat.parts[0];
        let schedule = BasicMap::from_columns(
            Space::map(
                params.clone(),
                Tuple::new(Some(name.clone()), iterators.clone()),
                Tuple::new(None, dims("c", sp.n_out)),
            ),
            sp.n_local,
            constraints(sp, &[]),
        );
        let mut accesses = Vec::new();
        for rel in &st.relations {
            let kind = match rel.kind.as_str() {
                "READ" => AccessKind::Read,
                "WRITE" | "MAY_WRITE" => AccessKind::Write,
                _ => continue,
            };
            let p = &rel.parts[0];
            // The row `Arr == id`: -Arr + id = 0.
            let id = p
                .rows
                .iter()
                .find(|r| r[0] == 0 && r[1] != 0 && r[2..r.len() - 1].iter().all(|&v| v == 0))
                .map(|r| -r[r.len() - 1] / r[1])
                .expect("array row");
            let array = os.arrays.get(&id).cloned().unwrap_or(format!("A{id}"));
            let mut relation = Map::empty(Space::map(
                params.clone(),
                Tuple::new(Some(name.clone()), iterators.clone()),
                Tuple::new(Some(array.clone()), dims("a", p.n_out - 1)),
            ));
            for p in &rel.parts {
                let rows = constraints(p, &[0])
                    .into_iter()
                    .zip(&p.rows)
                    .filter(|(_, r)| r[1] == 0)
                    .map(|(c, _)| c)
                    .collect();
                relation.push(BasicMap::from_columns(
                    relation.space().clone(),
                    p.n_local,
                    rows,
                ));
            }
            arrays.insert(array.clone(), p.n_out - 1);
            accesses.push(Access {
                kind,
                array,
                relation,
                span: 0..0,
            });
        }
        statements.push(Statement {
            name,
            label: None,
            iterators,
            domain,
            accesses,
            schedule,
            body: dummy.clone(),
            span: 0..0,
        });
    }
    Scop {
        region: 1,
        span: 0..0,
        params,
        context,
        arrays: arrays
            .into_iter()
            .map(|(name, n_dims)| Array {
                name,
                n_dims,
                extents: None,
                element_type: None,
                local: false,
            })
            .collect(),
        statements,
        tree: Vec::new(),
    }
}

/// What replaying one case gave.
fn outcome(dir: &Path, name: &str) -> String {
    let c_text = fs::read_to_string(dir.join(name)).expect("the .c file");
    let os = read_openscop(
        &fs::read_to_string(dir.join(format!("{name}.orig.scop"))).expect("the .orig.scop"),
    );
    let scop = scop_of(&os);
    let Some(range) = clay_comment(&c_text) else {
        return "no-script".into();
    };
    let recipe = match parse_recipe(&c_text[range], &[]) {
        Ok(r) => r,
        Err(d) => return format!("refused: {}", d.message),
    };
    let deps = match dependences(&scop, &DepOptions::default()) {
        Ok(d) => d,
        Err(e) => return format!("deps-failed: {e}"),
    };
    let result = match run_recipe(&scop, &deps, Schedule::original(&scop), &recipe) {
        Ok(r) => r,
        Err(RecipeError::Rejected(d)) => return format!("refused: {}", d.message),
        Err(RecipeError::NotImplemented(what)) => return format!("not-implemented: {what}"),
    };
    let golden_path = dir.join(format!("{name}.clay.scop"));
    let golden_text = fs::read_to_string(&golden_path).unwrap_or_default();
    if !golden_text.contains("<OpenScop>") && !golden_text.contains("NULL scop") {
        return "accepted".into();
    }
    let golden = read_openscop(&golden_text);
    if golden.statements.len() != scop.statements.len() {
        return format!(
            "differs: {} statements, the golden has {}",
            scop.statements.len(),
            golden.statements.len()
        );
    }
    let mut differing = Vec::new();
    for (k, (st, sched)) in scop
        .statements
        .iter()
        .zip(&result.schedule.statements)
        .enumerate()
    {
        let scat = golden.statements[k]
            .relations
            .iter()
            .find(|r| r.kind == "SCATTERING")
            .expect("golden scattering");
        let n_dates = scat
            .parts
            .iter()
            .map(|p| p.n_out)
            .chain(std::iter::once(sched.n_dates()))
            .max()
            .unwrap_or(0);
        let space = Space::map(
            scop.params.clone(),
            Tuple::new(None, st.iterators.clone()),
            Tuple::new(None, dims("c", n_dates)),
        );
        let respace = |m: &BasicMap| {
            BasicMap::from_columns(space.clone(), m.n_local(), m.constraints().to_vec())
        };
        let mut ours = Map::empty(space.clone());
        for p in &sched.pieces {
            ours.push(respace(&pad(p, n_dates)));
        }
        let mut theirs = Map::empty(space.clone());
        for p in &scat.parts {
            theirs.push(respace(&scattering(
                p,
                &scop.params,
                &st.iterators,
                n_dates,
            )));
        }
        let mut domain = Set::empty(Space::set(scop.params.clone(), None, st.iterators.clone()));
        for b in st.domain.basics() {
            let mut b = BasicSet::from_parts(
                domain.space().clone(),
                b.n_local(),
                b.constraints().to_vec(),
            );
            for c in scop.context.constraints() {
                let mut row = vec![0; b.n_cols()];
                row[..scop.params.len()].copy_from_slice(&c.coeffs[..scop.params.len()]);
                b.add(if c.is_eq() {
                    Constraint::eq(row, c.constant)
                } else {
                    Constraint::ineq(row, c.constant)
                });
            }
            domain.push(b);
        }
        let same = ours
            .intersect_domain(&domain)
            .and_then(|o| theirs.intersect_domain(&domain).map(|t| (o, t)))
            .and_then(|(o, t)| o.is_equal(&t));
        match same {
            Ok(true) => {}
            Ok(false) => differing.push(st.name.clone()),
            Err(e) => return format!("poly-failed: {e}"),
        }
    }
    if differing.is_empty() {
        "golden".into()
    } else {
        format!("differs: {}", differing.join(" "))
    }
}

/// `name outcome` pairs from `expected.txt` (`# reason` lines between).
fn expectations(root: &Path) -> BTreeMap<String, String> {
    let text = fs::read_to_string(root.join("expected.txt")).expect("expected.txt");
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (name, what) = l.split_once(' ').expect("`case outcome`");
            (name.to_string(), what.trim().to_string())
        })
        .collect()
}

fn cases(root: &Path, sub: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(root.join(sub))
        .expect("suite directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .filter(|p| p.with_extension("c.orig.scop").exists())
        .collect();
    v.sort();
    v
}

/// The outcome's class for comparison with the expectations: the text up
/// to a colon (`refused`, `differs`, …) and, for `differs`, the statements.
fn class(outcome: &str) -> String {
    if outcome.starts_with("differs") {
        return outcome.to_string();
    }
    outcome.split(':').next().unwrap_or(outcome).to_string()
}

#[test]
fn clay_suite_replays_as_expected() {
    let root = Path::new("tests/clay");
    let expected = expectations(root);
    let mut report = String::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut seen = Vec::new();
    for sub in ["unitary", "tests", "must_fail"] {
        for path in cases(root, sub) {
            let file = path.file_name().and_then(|f| f.to_str()).expect("name");
            let case = format!("{sub}/{file}");
            let got = outcome(&root.join(sub), file);
            let ideal = if sub == "must_fail" {
                "refused"
            } else {
                "golden"
            };
            let want = expected
                .get(&case)
                .cloned()
                .unwrap_or_else(|| ideal.to_string());
            let got_class = class(&got);
            *counts.entry(format!("{sub} {got_class}")).or_default() += 1;
            report.push_str(&format!("{case}: {got}\n"));
            if got_class != want {
                failures.push(format!("{case}: expected `{want}`, got `{got}`"));
            }
            seen.push(case);
        }
    }
    for name in expected.keys() {
        if !seen.contains(name) {
            failures.push(format!(
                "{name}: listed in expected.txt but not in the suite"
            ));
        }
    }
    eprintln!("{report}");
    eprintln!("{counts:#?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The schedule text after `recipe` on a kernel of `tests/kernels`.
fn schedule_after(kernel: &str, recipe: &str) -> String {
    let path = format!("tests/kernels/{kernel}.c");
    schedule_of(&path, fs::read_to_string(&path).expect("kernel"), recipe)
}

/// The schedule text after `recipe` on the C source `text`.
fn schedule_of(path: &str, text: String, recipe: &str) -> String {
    let scop = polyc::lang::c::read_source(path, text)
        .expect("accepted")
        .scops
        .remove(0);
    let deps = dependences(&scop, &DepOptions::default()).expect("deps");
    let recipe = parse_recipe(recipe, &[]).expect("recipe parses");
    match run_recipe(&scop, &deps, Schedule::original(&scop), &recipe) {
        Ok(r) => r.schedule.to_text(&scop),
        Err(RecipeError::Rejected(d)) => format!("refused: {}", d.message),
        Err(RecipeError::NotImplemented(w)) => format!("not implemented: {w}"),
    }
}

#[test]
fn infix_iss_is_exactly_the_list_form() {
    // `i >= 10` is `{0 | 1 | | -10}` and `c1 >= 10` is `{1 | | | -10}`:
    // the satisfying points form the second part.
    let infix = schedule_after("trisolv", "iss([0], i >= 10);");
    assert_eq!(
        infix,
        schedule_after("trisolv", "iss([0], {0 | 1 | | -10});")
    );
    assert_eq!(infix, schedule_after("trisolv", "iss([0], c1 >= 10);"));
    assert_eq!(infix, schedule_after("trisolv", "iss([0], {1 | | | -10});"));
    // Clay's short forms: {in | params | const}, {params | const}, {const}.
    assert_eq!(infix, schedule_after("trisolv", "iss([0], {1 | | -10});"));
    assert!(infix.contains("S0: [0, i, 0] : i <= 9"), "{infix}");
    assert!(infix.contains("S0: [0, i, 3] : i >= 10"), "{infix}");
    let never = schedule_after("trisolv", "iss([0], {-1});");
    assert_eq!(never, schedule_after("trisolv", "iss([0], {0 | -1});"));
    // A no-break space is whitespace.
    assert_eq!(
        infix,
        schedule_after("trisolv", "iss([0],\u{a0}{1 | | -10});")
    );
}

#[test]
fn split_of_a_deep_beta_moves_everything_after_it() {
    // The i loop holds S0, the j loop of S1, then S2; splitting after S1
    // (a β of length 3) at depth 1 moves S2 to a new loop (Clay's
    // clay_beta_shift_after), and the next nest one place on.
    let src = "void f(int n, double A[n], double B[n][n], double C[n], double D[n]) {\n\
        #pragma scop\n\
        for (i = 0; i < n; i++) {\n  A[i] = 0;\n  for (j = 0; j < n; j++)\n    B[i][j] = 0;\n  C[i] = 0;\n}\n\
        for (i = 0; i < n; i++)\n  D[i] = 0;\n\
        #pragma endscop\n}\n";
    let text = schedule_of("k.c", src.to_string(), "split([0, 1, 0], 1);");
    assert_eq!(
        text,
        "S0: [0, i, 0]\nS1: [0, i, 1, j, 0]\nS2: [1, i, 0]\nS3: [2, i, 0]\n"
    );
}
