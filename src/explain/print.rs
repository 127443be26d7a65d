//! An explanation as recipe text: each directive as the call that parses
//! back to it, with a comment saying what it does, and the marks of a
//! loop as the directives that set them.

use super::{Explanation, Step};
use crate::apply::{Directive, ParallelOptions, SplitForm};
use crate::scop::schedule::Mark;

/// `[1, 0]`.
fn beta(b: &[i64]) -> String {
    format!("[{}]", list(b))
}

/// `1, 0`.
fn list(v: &[i64]) -> String {
    let items: Vec<String> = v.iter().map(i64::to_string).collect();
    items.join(", ")
}

/// The split form of `iss` as a sum, `-c1 + 9` (`c` the loops, `i` the
/// iterators, `p` the parameters, numbered from 1).
fn form_text(form: &SplitForm) -> String {
    let mut text = String::new();
    let terms = [("c", &form.alphas), ("i", &form.iters), ("p", &form.params)];
    for (name, coefficients) in terms {
        for (k, &a) in coefficients.iter().enumerate() {
            let sign = match (text.is_empty(), a < 0) {
                (_, _) if a == 0 => continue,
                (true, true) => "-",
                (true, false) => "",
                (false, true) => " - ",
                (false, false) => " + ",
            };
            let times = match a.unsigned_abs() {
                1 => String::new(),
                m => m.to_string(),
            };
            text.push_str(&format!("{sign}{times}{name}{}", k + 1));
        }
    }
    match (text.is_empty(), form.constant.signum()) {
        (true, _) => form.constant.to_string(),
        (false, 1) => format!("{text} + {}", form.constant),
        (false, -1) => format!("{text} - {}", form.constant.unsigned_abs()),
        (false, _) => text,
    }
}

/// The recipe call that parses back to `d`.
pub fn call(d: &Directive) -> String {
    match d {
        Directive::Interchange { beta: b, d1, d2 } => {
            format!("interchange({}, {d1}, {d2})", beta(b))
        }
        Directive::Reverse { beta: b, depth } => format!("reverse({}, {depth})", beta(b)),
        Directive::Skew {
            beta: b,
            depth,
            other,
            factor,
        } => format!("skew({}, {depth}, {other}, {factor})", beta(b)),
        Directive::Shift {
            beta: b,
            depth,
            params,
            constant,
        } => {
            let params = if params.iter().all(|&p| p == 0) {
                "[]".to_string()
            } else {
                beta(params)
            };
            format!("shift({}, {depth}, {params}, {constant})", beta(b))
        }
        Directive::Reorder { beta: b, order } => format!("reorder({}, {})", beta(b), beta(order)),
        Directive::Split { beta: b, depth } => format!("split({}, {depth})", beta(b)),
        Directive::Fuse { beta: b } => format!("fuse({})", beta(b)),
        Directive::Embed { beta: b } => format!("embed({})", beta(b)),
        Directive::Unembed { beta: b } => format!("unembed({})", beta(b)),
        Directive::Stripmine {
            beta: b,
            depth,
            size,
        } => format!("stripmine({}, {depth}, {size})", beta(b)),
        Directive::TileBand {
            beta: b,
            depth,
            sizes,
        } => format!("tile_band({}, {depth}, {})", beta(b), beta(sizes)),
        Directive::Tile {
            beta: b,
            depth,
            outer,
            size,
        } => format!("tile({}, {depth}, {outer}, {size})", beta(b)),
        Directive::Linearize { beta: b, depth } => format!("linearize({}, {depth})", beta(b)),
        Directive::Grain {
            beta: b,
            depth,
            factor,
        } => format!("grain({}, {depth}, {factor})", beta(b)),
        Directive::Reshape {
            beta: b,
            depth,
            iterator,
            amount,
        } => format!("reshape({}, {depth}, {iterator}, {amount})", beta(b)),
        Directive::Parallelize {
            beta: b,
            depth,
            options,
        } => format!(
            "parallelize({}, {depth}{})",
            beta(b),
            parallel_options(options)
        ),
        Directive::Vectorize {
            beta: b,
            depth,
            reduction,
        } => match reduction {
            Some(x) => format!("vectorize({}, {depth}, reduction = {x})", beta(b)),
            None => format!("vectorize({}, {depth})", beta(b)),
        },
        Directive::Unroll {
            beta: b,
            factor,
            epilog,
        } => {
            let name = if *epilog { "unroll" } else { "unroll_noepilog" };
            format!("{name}({}, {factor})", beta(b))
        }
        Directive::UnrollJam {
            beta: b,
            depth,
            factor,
        } => format!("unroll_jam({}, {depth}, {factor})", beta(b)),
        Directive::MapGpu {
            beta: b,
            depth,
            thread,
            dim,
        } => {
            let name = if *thread { "gpu_thread" } else { "gpu_block" };
            format!("{name}({}, {depth}, {dim})", beta(b))
        }
        Directive::Pack {
            beta: b,
            depth,
            array,
        } => format!("pack({}, {depth}, \"{array}\")", beta(b)),
        Directive::Iss { beta: b, form } => {
            // Clay's list `{out | in | params | const}`, or its short form
            // `{in | params | const}` without loops.
            let mut sections = vec![list(&form.iters), list(&form.params)];
            if !form.alphas.is_empty() {
                sections.insert(0, list(&form.alphas));
            }
            sections.push(form.constant.to_string());
            let text = sections.join(" | ");
            let text: Vec<&str> = text.split_whitespace().collect();
            format!("iss({}, {{{}}})", beta(b), text.join(" "))
        }
        Directive::Peel {
            beta: b,
            params,
            constant,
        } if params.is_empty() => format!("peel({}, {{{constant}}})", beta(b)),
        Directive::Peel {
            beta: b,
            params,
            constant,
        } => format!("peel({}, {{{} | {constant}}})", beta(b), list(params)),
        // The recovery gives none of the others.
        other => format!("{other:?}"),
    }
}

fn parallel_options(o: &ParallelOptions) -> String {
    let mut s = String::new();
    if let Some((kind, chunk)) = o.schedule {
        s.push_str(&format!(", schedule = {}", kind.name()));
        if let Some(c) = chunk {
            s.push_str(&format!(", chunk = {c}"));
        }
    }
    if let Some(n) = o.collapse {
        s.push_str(&format!(", collapse = {n}"));
    }
    if let Some(x) = &o.reduction {
        s.push_str(&format!(", reduction = {x}"));
    }
    s
}

/// `− factor·` as the comment writes it: `- 2·`, `+ ` (Clay's sign:
/// the directive subtracts `factor` times the loop or iterator).
fn less_times(factor: i64) -> String {
    let sign = if factor < 0 { '+' } else { '-' };
    match factor.unsigned_abs() {
        1 => format!("{sign} "),
        k => format!("{sign} {k}·"),
    }
}

/// What `d` does, in words, for the comment after it.
pub fn comment(d: &Directive) -> String {
    match d {
        Directive::Interchange { d1, d2, .. } => format!("swap the loops at depths {d1} and {d2}"),
        Directive::Reverse { depth, .. } => format!("run the loop at depth {depth} backwards"),
        Directive::Skew {
            depth,
            other,
            factor,
            ..
        } => {
            let less = less_times(*factor);
            // An outer loop skewed by an inner one runs over their
            // diagonals.
            let wavefront = if other > depth {
                format!(": a wavefront over loops {depth} and {other}")
            } else {
                String::new()
            };
            format!("skew: loop {depth} becomes itself {less}loop {other}{wavefront}")
        }
        Directive::Shift {
            depth,
            params,
            constant,
            ..
        } => {
            let by = match constant.signum() {
                1 => format!(" - {constant}"),
                -1 => format!(" + {}", constant.unsigned_abs()),
                _ => String::new(),
            };
            if params.iter().all(|&p| p == 0) {
                format!("shift: loop {depth} becomes itself{by}")
            } else {
                format!(
                    "shift: loop {depth} becomes itself - {} · the parameters{by}",
                    beta(params)
                )
            }
        }
        Directive::Reorder { .. } => "put the nests in the target's textual order".to_string(),
        Directive::Split { depth, .. } => {
            format!("distribute: what follows leaves the loop at depth {depth}")
        }
        Directive::Fuse { .. } => "fuse the next loop into this one".to_string(),
        Directive::Stripmine { depth, size, .. } => {
            format!("tile loop {depth} by {size}: a loop over strips of {size}, then the loop in a strip")
        }
        Directive::Tile {
            depth, outer, size, ..
        } if outer == depth => format!(
            "tile loop {depth} by {size} for these statements alone: their strips of {size} share \
             the loop with the others' iterations"
        ),
        Directive::Tile {
            depth, outer, size, ..
        } => format!(
            "tile loop {depth} by {size}, its tile loop swapped with loop {outer}: strips of {size} \
             outside"
        ),
        Directive::TileBand { depth, sizes, .. } if sizes.len() == 1 => {
            let size = sizes[0];
            format!("tile loop {depth} by {size}: a loop over strips of {size}, then the loop in a strip")
        }
        Directive::TileBand { depth, sizes, .. } => {
            let last = depth + sizes.len() - 1;
            let by: Vec<String> = sizes.iter().map(i64::to_string).collect();
            format!(
                "tile loops {depth} to {last} by {}: tile loops around them, then the loops in a tile",
                by.join(" × ")
            )
        }
        Directive::Iss { form, .. }
            if form.alphas.iter().chain(&form.iters).chain(&form.params).all(|&v| v == 0)
                && form.constant < 0 =>
        {
            "index-set split that holds nowhere: empty new children of the loop, after the others \
             (the target counts them)"
                .to_string()
        }
        Directive::Iss { form, .. }
            if form.alphas.iter().chain(&form.iters).chain(&form.params).all(|&v| v == 0) =>
        {
            "index-set split that holds everywhere: every iteration moves to new children of the \
             loop, after the old ones, which stay empty (the target counts them)"
                .to_string()
        }
        Directive::Iss { form, .. } => format!(
            "index-set split: the iterations where {} >= 0 become new children of the loop, after the others",
            form_text(form)
        ),
        Directive::Peel {
            beta: b,
            params,
            constant,
        } => {
            let own = SplitForm {
                alphas: vec![0; b.len().saturating_sub(1)].into_iter().chain([1]).collect(),
                iters: Vec::new(),
                params: params.clone(),
                constant: *constant,
            };
            format!(
                "peel: the iterations where {} >= 0 become a new loop right after this one",
                form_text(&own)
            )
        }
        Directive::Linearize { depth, .. } => {
            let inner = depth + 1;
            format!(
                "merge the tile loop {depth} into loop {inner}: one loop over its points, the tile \
                 left in the dates that read it"
            )
        }
        Directive::Grain { depth, factor, .. } => {
            format!("loop {depth} runs on multiples of {factor}: a stride of {factor}")
        }
        Directive::Reshape {
            depth,
            iterator,
            amount,
            ..
        } => {
            let less = less_times(*amount);
            format!("reshape: loop {depth} becomes itself {less}iterator {iterator}")
        }
        Directive::Embed { .. } => {
            "a loop of one iteration around the statement, for a constant date".to_string()
        }
        Directive::Unembed { .. } => {
            "remove the innermost loop of one iteration (to mark the loop around it)".to_string()
        }
        Directive::Parallelize { depth, .. } => format!("the loop at depth {depth} in parallel"),
        Directive::Vectorize { depth, .. } => format!("the loop at depth {depth} vector"),
        Directive::Unroll { factor, .. } => format!("unroll by {factor}"),
        Directive::UnrollJam { depth, factor, .. } => {
            format!("unroll the loop at depth {depth} by {factor} and jam")
        }
        Directive::MapGpu { thread, depth, .. } => {
            let on = if *thread { "threads" } else { "blocks" };
            format!("the loop at depth {depth} on CUDA {on}")
        }
        Directive::Pack { array, depth, .. } => {
            format!("copy the tile of {array} the loop at depth {depth} uses into a buffer")
        }
        _ => String::new(),
    }
}

/// The directives that set `marks` on the loop `loop_beta` (at depth
/// `loop_beta.len()`), addressed by `beta` (a prefix of it that addresses
/// the same statements), in the marks' order.
pub fn mark_directives(beta: &[i64], loop_beta: &[i64], marks: &[Mark]) -> Vec<Directive> {
    let depth = loop_beta.len();
    let beta = beta.to_vec();
    let reduction = marks.iter().find_map(|m| match m {
        Mark::Reduction(_, x) => Some(x.clone()),
        _ => None,
    });
    let mut out = Vec::new();
    for m in marks {
        let d = match m {
            Mark::Parallel => {
                let mut options = ParallelOptions::default();
                for m in marks {
                    match m {
                        Mark::Schedule(kind, chunk) => options.schedule = Some((*kind, *chunk)),
                        Mark::Collapse(n) => options.collapse = Some(*n),
                        _ => {}
                    }
                }
                options.reduction = reduction.clone();
                Directive::Parallelize {
                    beta: beta.clone(),
                    depth,
                    options,
                }
            }
            Mark::Vector => Directive::Vectorize {
                beta: beta.clone(),
                depth,
                reduction: reduction.clone(),
            },
            // `unroll` addresses the loop by its β-vector alone.
            Mark::Unroll(k) | Mark::UnrollNoEpilog(k) => Directive::Unroll {
                beta: loop_beta.to_vec(),
                factor: *k,
                epilog: matches!(m, Mark::Unroll(_)),
            },
            Mark::UnrollJam(k) => Directive::UnrollJam {
                beta: beta.clone(),
                depth,
                factor: *k,
            },
            Mark::GpuBlock(dim) | Mark::GpuThread(dim) => Directive::MapGpu {
                beta: beta.clone(),
                depth,
                thread: matches!(m, Mark::GpuThread(_)),
                dim: *dim,
            },
            Mark::Pack(array) => Directive::Pack {
                beta: beta.clone(),
                depth,
                array: array.clone(),
            },
            // Set with the mark they qualify.
            Mark::Schedule(..) | Mark::Collapse(_) | Mark::Safelen(_) | Mark::Reduction(..) => {
                continue
            }
        };
        out.push(d);
    }
    out
}

/// The explanation as a recipe: `header` lines as comments, then one
/// call per line with its comment, groups as `group { … }`, and the gap
/// (if any) as a closing comment.
pub fn recipe(e: &Explanation, header: &[String]) -> String {
    recipe_between(e, header, &[], &[])
}

/// [`recipe`] with the recipe lines `before` and `after` the explained
/// directives, kept as the recipe gave them: its first data-layout calls,
/// and its calls from the next data-layout call on; `after` is left out
/// where a gap stopped the explanation.
pub fn recipe_between(
    e: &Explanation,
    header: &[String],
    before: &[String],
    after: &[String],
) -> String {
    recipe_around(e, header, before, after, None)
}

/// [`recipe_between`], then, where `tail` is given, the explanation of
/// the schedule the recipe's calls after its last data-layout call give,
/// on the program `after` ends with. `after` and `tail` are left out
/// where a gap stopped the explanation `e`.
pub fn recipe_around(
    e: &Explanation,
    header: &[String],
    before: &[String],
    after: &[String],
    tail: Option<&Explanation>,
) -> String {
    let mut out = String::new();
    for line in header {
        out.push_str(&format!("# {line}\n"));
    }
    if !before.is_empty() {
        out.push_str("# The recipe's calls that make the program the schedule is explained on.\n");
        for line in before {
            out.push_str(&format!("{line}\n"));
        }
    }
    push_steps(&mut out, e);
    if e.gap.is_none() && e.steps.is_empty() && after.is_empty() {
        out.push_str("# (the original schedule: no directive)\n");
    }
    if e.gap.is_some() {
        return out;
    }
    if !after.is_empty() {
        out.push_str("# The recipe's calls from its next data-layout call on, as written.\n");
        for line in after {
            out.push_str(&format!("{line}\n"));
        }
    }
    if let Some(tail) = tail {
        out.push_str(
            "# Then the schedule of the calls after its last data-layout call, explained \
             from the order those calls start from.\n",
        );
        push_steps(&mut out, tail);
    }
    out
}

/// `e`'s steps, one call per line with its comment, groups as `group {
/// … }`, and its gap (if any) as a closing comment.
fn push_steps(out: &mut String, e: &Explanation) {
    let line = |out: &mut String, indent: &str, d: &Directive| {
        out.push_str(&format!("{indent}{};  # {}\n", call(d), comment(d)));
    };
    for step in &e.steps {
        match step {
            Step::One(d) => line(out, "", d),
            Step::Group(ds) => {
                out.push_str("group {  # legal only together\n");
                for d in ds {
                    line(out, "  ", d);
                }
                out.push_str("}\n");
            }
        }
    }
    if let Some(gap) = &e.gap {
        out.push_str(&format!(
            "# not expressed: {}: {}. The directives above are what was recovered \
             before it.\n",
            gap.statement, gap.reason
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iss(alphas: &[i64], iters: &[i64], params: &[i64], constant: i64) -> Directive {
        Directive::Iss {
            beta: vec![0],
            form: SplitForm {
                alphas: alphas.to_vec(),
                iters: iters.to_vec(),
                params: params.to_vec(),
                constant,
            },
        }
    }

    /// An `iss` prints as Clay's list, its short form without loops; its
    /// comment writes the inequality.
    #[test]
    fn an_iss_prints_as_clays_list_and_its_inequality() {
        let on_loops = iss(&[0, 1], &[], &[0, -1], 3);
        assert_eq!(call(&on_loops), "iss([0], {0, 1 | | 0, -1 | 3})");
        assert!(comment(&on_loops).contains("c2 - p2 + 3 >= 0"));
        let on_iterators = iss(&[], &[1], &[], -10);
        assert_eq!(call(&on_iterators), "iss([0], {1 | | -10})");
        assert!(comment(&on_iterators).contains("i1 - 10 >= 0"));
        let peel = Directive::Peel {
            beta: vec![0, 1],
            params: vec![0, -1],
            constant: 3,
        };
        assert_eq!(call(&peel), "peel([0, 1], {0, -1 | 3})");
    }
}
