//! CUDA printing (`--target cuda`), as modes of the one printer.
//!
//! On the **host**, the loops and guards around the mapped loops are
//! printed as they are for C; each loop mapped to blocks (`gpu_block`)
//! becomes a kernel and its launch, and each maximal run of nodes with no
//! such loop a kernel of one thread (`<<<1, 1>>>`), so that every
//! statement runs on the device, where its arrays are.
//!
//! In a **kernel**, a mapped loop is a grid-stride loop: the iterations
//! `lower + k · stride` for `k` from `blockIdx.x` by `gridDim.x` (threads:
//! `threadIdx.x` by `blockDim.x`), correct whatever the grid and block
//! sizes. Outside every thread loop (the *block level*) every value is the
//! same for all threads of a block: the nodes with no mapped loop run on
//! thread 0 alone, and the block waits (`__syncthreads()`, never inside
//! code that depends on a thread's index) before a node that may touch
//! what another thread touched since it last waited ([`barriers`]).
//!
//! A packed loop's copies ([`crate::emit::pack`]) at the block level fill
//! and empty a buffer in the block's shared memory, all its threads
//! together ([`buffers`]). A copy inside a thread loop fills the thread's
//! own buffer, as on the CPU.
//!
//! How mapped loops may nest is [`nesting`]'s ([`check_mapping`]); the
//! grid and block sizes of a launch are [`launch_sizes`]', unless
//! `--sizes` gives them.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write;

mod barriers;
mod buffers;
mod launch_sizes;
mod nesting;

pub use buffers::DeviceBuffer;
pub use launch_sizes::{LaunchSizes, MAX_GRID};
pub use nesting::check_mapping;

use super::int_range::{domains_are_int, first_constant_beyond_int};
use super::{unread_uses, PrintError, PrintOptions, Printer, STEP};
use crate::emit::scan::{Loop, Node};
use crate::scop::Scop;
use barriers::{touched_by, touched_by_statement, Touched};
use buffers::{copy_statements, declarations, holds_statement, only_statements, Spread};
use launch_sizes::{
    block_loop_grid, block_text, check_sizes, constant_trip, default_sizes, grid_text, Around,
    GridSize, HostRange,
};
use nesting::{holds_mapped, mapping, DIM};

/// A kernel, printed: its name, the names it reads from the host (in the
/// order of its parameters), its body (statements indented one step) and
/// its launch's sizes (none for a kernel of one thread).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    pub name: String,
    pub params: Vec<String>,
    pub body: String,
    pub sizes: Option<LaunchSizes>,
}

/// The names a kernel may read from the host, and the numbering of
/// kernels in the file.
#[derive(Clone, Debug, Default)]
pub struct HostNames {
    /// Passed by value: the region's parameters, the scalars it only
    /// reads, and the variables the macros among those name.
    pub values: Vec<String>,
    /// Passed as device pointers `polyc_dev_NAME`, received as `NAME`.
    pub arrays: Vec<String>,
    /// The scalars the region writes: they live on the device
    /// (`polyc_dev_x`), and a kernel that reads one binds its name to the
    /// device cell (`auto &x = *polyc_dev_x;`).
    pub scalars: Vec<String>,
    /// Object-like macros and the identifiers of their replacements,
    /// recursively expanded: a kernel that reads `_PB_N` reads `n`.
    pub macros: Vec<(String, Vec<String>)>,
    /// The number of the first kernel of this region (`polyc_kernel0`, …).
    pub first_kernel: usize,
    /// Sizes given for kernels by name (`--sizes`), in place of the
    /// defaults.
    pub sizes: HashMap<String, LaunchSizes>,
    /// The buffers of packed loops: a kernel that reads one declares it.
    pub buffers: Vec<DeviceBuffer>,
}

/// Where CUDA printing stands.
#[derive(Clone, Debug)]
pub(super) enum Gpu {
    Host {
        names: Box<HostNames>,
        /// Loop variables of the host loops around the node being printed.
        vars: Vec<String>,
        kernels: Vec<Kernel>,
    },
    Kernel(Box<KernelState>),
}

#[derive(Clone, Debug, Default)]
pub(super) struct KernelState {
    /// A kernel of one thread: nothing mapped, no guard, no barrier.
    serial: bool,
    /// How many thread loops are around the node being printed.
    threads: usize,
    /// Loop variables of the kernel around the node being printed.
    locals: Vec<String>,
    /// The host ranges of those that have one ([`Around::range_of`]):
    /// what a block loop inside them has at most, counted on the host.
    ranges: HashMap<String, HostRange>,
    /// Per dimension: the grid size (`None`: not used).
    grid: [Option<GridSize>; 3],
    /// Per dimension: the most iterations a thread loop of that dimension
    /// has, when bounded by a constant (`Some(None)`: used, unbounded).
    block: [Option<Option<i64>>; 3],
    /// The copy statements of packed loops.
    copies: HashSet<usize>,
    /// The names of the shared buffers.
    shared: BTreeSet<String>,
    /// What each statement touches ([`barriers`]).
    touched: HashMap<usize, Touched>,
    /// What the block may have touched since it last waited.
    since: Touched,
    /// Printing a copy spread over the block's threads: which of them the
    /// loops around share out.
    spread: Option<Spread>,
}

/// The region's loops for CUDA: the host's statements (launches and the
/// loops around them, each line starting with `indent`) and the kernels
/// (module doc). Errors as [`super::print_loops`]', and mapped loops that
/// do not nest as CUDA runs them.
pub fn print_cuda(
    nodes: &[Node],
    scop: &Scop,
    indent: &str,
    names: HostNames,
) -> Result<(String, Vec<Kernel>), PrintError> {
    let int_only = domains_are_int(scop);
    if int_only {
        if let Some(v) = first_constant_beyond_int(nodes) {
            return Err(PrintError::BeyondInt(Some(v)));
        }
    }
    let opts = PrintOptions { pragmas: false };
    let mut p = Printer::new(scop, &[], opts, int_only);
    p.gpu = Some(Gpu::Host {
        names: Box::new(names),
        vars: Vec::new(),
        kernels: Vec::new(),
    });
    p.nodes(nodes, indent);
    if let Some(v) = p.too_large.get() {
        return Err(PrintError::BeyondInt(v));
    }
    if let Some(why) = p.refused {
        return Err(PrintError::Cuda(why));
    }
    let kernels = match p.gpu {
        Some(Gpu::Host { kernels, .. }) => kernels,
        _ => Vec::new(),
    };
    let mut out = unread_uses(&p.out, scop, indent, false);
    out.push_str(&p.out);
    Ok((out, kernels))
}

impl Printer<'_> {
    /// Whether CUDA printing wants braces around every loop or guard body
    /// (the host and a kernel's block level print several statements
    /// where C prints one).
    pub(super) fn gpu_braces(&self) -> bool {
        match &self.gpu {
            Some(Gpu::Host { .. }) => true,
            Some(Gpu::Kernel(k)) => !k.serial && k.threads == 0,
            None => false,
        }
    }

    /// Whether printing stands on the CUDA host.
    pub(super) fn gpu_on_host(&self) -> bool {
        matches!(self.gpu, Some(Gpu::Host { .. }))
    }

    /// Print `nodes` as CUDA wants them where printing stands: `true` when
    /// done, `false` when they print as C.
    pub(super) fn gpu_nodes(&mut self, nodes: &[Node], indent: &str) -> bool {
        match &mut self.gpu {
            Some(Gpu::Host { .. }) => {
                self.host_nodes(nodes, indent);
                true
            }
            Some(Gpu::Kernel(k)) if k.spread.is_some() => {
                let spread = k.spread.unwrap_or_default();
                self.spread_nodes(nodes, spread, indent);
                true
            }
            Some(Gpu::Kernel(k)) if !k.serial && k.threads == 0 => {
                self.block_level(nodes, indent);
                true
            }
            _ => false,
        }
    }

    /// Print `l` if CUDA prints it differently from C; `false` otherwise.
    /// Keeps the host's and the kernel's loop variables.
    pub(super) fn gpu_loop(&mut self, l: &Loop, indent: &str) -> bool {
        match &mut self.gpu {
            Some(Gpu::Host { .. }) if mapping(l).is_some() => {
                // Reached without `host_nodes` (an unrolled copy's body).
                self.launch(&[Node::For(Box::new(l.clone()))], indent);
                true
            }
            Some(Gpu::Host { vars, .. }) => {
                vars.push(l.var.clone());
                self.plain_loop(l, indent);
                if let Some(Gpu::Host { vars, .. }) = &mut self.gpu {
                    vars.pop();
                }
                true
            }
            Some(Gpu::Kernel(k)) => {
                let range = Around::new(&k.locals, &k.ranges).range_of(l);
                k.ranges.insert(l.var.clone(), range);
                k.locals.push(l.var.clone());
                let mapped = mapping(l);
                // A loop of the block level (not a thread loop, which
                // `block_level` waits around): its body starts with what
                // the previous iteration left pending, a block loop's with
                // its shared buffers alone (module doc of `barriers`), and
                // what was pending before it stays so.
                let level = !k.serial
                    && k.threads == 0
                    && k.spread.is_none()
                    && !matches!(mapped, Some((true, _)));
                let before = k.since.clone();
                if level {
                    let body = touched_by(&l.body, &k.touched);
                    match mapped {
                        Some(_) => k.since.add(&body.only(&k.shared)),
                        None => k.since.add(&body),
                    }
                }
                match (mapped, k.spread) {
                    (Some((thread, d)), _) => self.mapped_loop(l, thread, d, indent),
                    (None, Some(spread)) if !l.once => self.spread_loop(l, spread, indent),
                    (None, _) => self.plain_loop(l, indent),
                }
                if let Some(Gpu::Kernel(k)) = &mut self.gpu {
                    k.locals.pop();
                    k.ranges.remove(&l.var);
                    if level {
                        k.since.add(&before);
                    }
                }
                true
            }
            None => false,
        }
    }

    /// The host's nodes: launches for mapped loops and for the runs of
    /// nodes without one, host code for the loops and guards around them.
    fn host_nodes(&mut self, nodes: &[Node], indent: &str) {
        let mut run: Vec<Node> = Vec::new();
        for n in nodes {
            if !holds_mapped(n, false) {
                run.push(n.clone());
                continue;
            }
            self.launch(&std::mem::take(&mut run), indent);
            match n {
                Node::For(l) if mapping(l).is_some() => {
                    self.launch(std::slice::from_ref(n), indent);
                }
                _ => self.node(n, indent),
            }
        }
        self.launch(&run, indent);
    }

    /// A kernel of `nodes` (empty: nothing), printed and kept, and its
    /// launch printed here.
    fn launch(&mut self, nodes: &[Node], indent: &str) {
        if nodes.is_empty() {
            return;
        }
        if let Err(why) = check_mapping(nodes) {
            self.refused.get_or_insert(why);
            return;
        }
        let Some(Gpu::Host {
            names,
            vars,
            kernels,
        }) = &self.gpu
        else {
            return;
        };
        let name = format!("polyc_kernel{}", names.first_kernel + kernels.len());
        let mut owned = nodes.to_vec();
        declare_all(&mut owned);
        let serial = !nodes.iter().any(|n| holds_mapped(n, false));
        let copies = copy_statements(self.scop, &names.buffers);
        let shared = names
            .buffers
            .iter()
            .filter(|b| b.shared)
            .map(|b| b.name.clone())
            .collect();
        let mut k = Printer::new(self.scop, self.buffers, self.opts, self.int_only);
        // In an unrolled copy of a host loop, its variable stands for
        // itself plus an offset, in the kernel too.
        k.offsets = self.offsets.clone();
        // No labels in kernels: nothing jumps to them, and nvcc warns.
        k.labels_done = (0..self.scop.statements.len()).collect();
        let touched = touched_by_statement(self.scop, &copies);
        k.gpu = Some(Gpu::Kernel(Box::new(KernelState {
            serial,
            copies,
            shared,
            touched,
            ..KernelState::default()
        })));
        k.nodes(&owned, STEP);
        if let Some(v) = k.too_large.get() {
            self.too_large.set(Some(v));
        }
        if let Some(why) = k.refused {
            self.refused.get_or_insert(why);
        }
        let state = match k.gpu {
            Some(Gpu::Kernel(s)) => *s,
            _ => KernelState::default(),
        };
        let body = k.out;
        // Host values first (loop variables after the parameters), then
        // the arrays.
        let mut words: HashSet<&str> = body
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .collect();
        // Macros read, expanded until nothing new appears.
        loop {
            let before = words.len();
            for (m, replacement) in &names.macros {
                if words.contains(m.as_str()) {
                    words.extend(replacement.iter().map(String::as_str));
                }
            }
            if words.len() == before {
                break;
            }
        }
        let mut seen = HashSet::new();
        let mut params: Vec<String> = names
            .values
            .iter()
            .chain(vars.iter())
            .chain(names.scalars.iter())
            .chain(names.arrays.iter())
            .filter(|n| words.contains(n.as_str()) && seen.insert(n.to_string()))
            .cloned()
            .collect();
        // The device's scalars and arrays last, in the order the host
        // names them.
        let on_device = |p: &String| names.scalars.contains(p) || names.arrays.contains(p);
        params.sort_by_key(|p| on_device(p));
        let args: Vec<String> = params
            .iter()
            .map(|p| match on_device(p) {
                true => format!("polyc_dev_{p}"),
                false => p.clone(),
            })
            .collect();
        let used: Vec<DeviceBuffer> = names
            .buffers
            .iter()
            .filter(|b| words.contains(b.name.as_str()))
            .cloned()
            .collect();
        let mut body = body;
        for x in params.iter().filter(|p| names.scalars.contains(p)).rev() {
            body.insert_str(0, &format!("{STEP}auto &{x} = *polyc_dev_{x};\n"));
        }
        match declarations(&used, &name) {
            Ok(text) => body.insert_str(0, &text),
            Err(why) => {
                self.refused.get_or_insert(why);
            }
        }
        let params: Vec<String> = params
            .into_iter()
            .map(|p| match names.scalars.contains(&p) {
                true => format!("polyc_dev_{p}"),
                false => p,
            })
            .collect();
        let (grid, block, sizes) = if serial {
            ("1".to_string(), "1".to_string(), None)
        } else {
            let default = default_sizes(&state.grid, &state.block);
            let sizes = match names.sizes.get(&name) {
                Some(given) => match check_sizes(given, &default) {
                    Ok(()) => given.clone(),
                    Err(why) => {
                        self.refused
                            .get_or_insert(format!("--sizes for `{name}`: {why}"));
                        default
                    }
                },
                None => default,
            };
            let text = (
                grid_text(&state.grid, &sizes.grid),
                block_text(&sizes.block),
            );
            (text.0, text.1, Some(sizes))
        };
        let _ = writeln!(
            self.out,
            "{indent}{name}<<<{grid}, {block}>>>({});",
            args.join(", ")
        );
        let _ = writeln!(self.out, "{indent}POLYC_CUDA_CHECK(cudaGetLastError());");
        if let Some(Gpu::Host { kernels, .. }) = &mut self.gpu {
            kernels.push(Kernel {
                name,
                params,
                body,
                sizes,
            });
        }
    }

    /// A kernel's block level: the nodes with no mapped loop on thread 0,
    /// the copies of packed loops spread over the threads, the block
    /// waiting before a node that may touch what another thread touched
    /// since it last waited ([`barriers`]).
    fn block_level(&mut self, nodes: &[Node], indent: &str) {
        let copies = match &self.gpu {
            Some(Gpu::Kernel(k)) => k.copies.clone(),
            _ => HashSet::new(),
        };
        let is_copy = |s: usize| copies.contains(&s);
        let mut run: Vec<&Node> = Vec::new();
        for n in nodes {
            let copy = only_statements(n, &is_copy);
            let structured = holds_mapped(n, false)
                || holds_mapped(n, true)
                || (!copy && holds_statement(n, &is_copy));
            if !structured && !copy {
                run.push(n);
                continue;
            }
            self.on_thread_zero(&std::mem::take(&mut run), indent);
            let thread_loop = matches!(n, Node::For(l) if mapping(l).is_some_and(|(t, _)| t));
            match n {
                _ if copy || thread_loop => {
                    let touched = self.touched(std::slice::from_ref(n));
                    self.wait_for(&touched, indent);
                    match copy {
                        true => self.spread(n, indent),
                        false => self.node(n, indent),
                    }
                    self.pending(&touched);
                }
                Node::If {
                    conds,
                    body,
                    otherwise,
                } => self.block_guard(conds, body, otherwise, indent),
                // A loop: `gpu_loop` keeps what is pending.
                _ => self.node(n, indent),
            }
        }
        self.on_thread_zero(&run, indent);
    }

    /// `nodes` run by thread 0 of the block (after a barrier, when they
    /// touch what is pending).
    fn on_thread_zero(&mut self, nodes: &[&Node], indent: &str) {
        if nodes.is_empty() {
            return;
        }
        let owned: Vec<Node> = nodes.iter().map(|n| (*n).clone()).collect();
        let touched = self.touched(&owned);
        self.wait_for(&touched, indent);
        let inner = format!("{indent}{STEP}");
        let _ = writeln!(
            self.out,
            "{indent}if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {{"
        );
        if let Some(Gpu::Kernel(k)) = &mut self.gpu {
            k.threads += 1;
        }
        self.nodes(&owned, &inner);
        if let Some(Gpu::Kernel(k)) = &mut self.gpu {
            k.threads -= 1;
        }
        let _ = writeln!(self.out, "{indent}}}");
        self.pending(&touched);
    }

    /// The head of `l` as a loop that takes every `count`-th iteration,
    /// from the `index`-th.
    fn strided_head(&self, l: &Loop, index: &str, count: &str) -> String {
        let v = &l.var;
        let (lo, up) = (self.expr(&l.lower), self.expr(&l.upper));
        if l.down {
            return format!("for (int {v} = {up} - {index}; {v} >= {lo}; {v} -= {count})");
        }
        let cond = self.upper_cond(v, &l.upper);
        let (first, step) = match l.stride {
            1 => (index.to_string(), count.to_string()),
            s => (format!("{s} * {index}"), format!("{s} * {count}")),
        };
        let start = match lo.as_str() {
            "0" => first,
            _ => format!("{lo} + {first}"),
        };
        format!("for (int {v} = {start}; {cond}; {v} += {step})")
    }

    /// A loop mapped to blocks or threads, as a grid-stride loop.
    fn mapped_loop(&mut self, l: &Loop, thread: bool, d: u8, indent: &str) {
        let dim = DIM[usize::from(d)];
        let (index, count) = if thread {
            (
                format!("(int)threadIdx.{dim}"),
                format!("(int)blockDim.{dim}"),
            )
        } else {
            (
                format!("(int)blockIdx.{dim}"),
                format!("(int)gridDim.{dim}"),
            )
        };
        let (lo, up) = (self.expr(&l.lower), self.expr(&l.upper));
        let head = self.strided_head(l, &index, &count);
        let _ = write!(self.out, "{indent}{head}");
        let Some(Gpu::Kernel(k)) = &mut self.gpu else {
            return;
        };
        let slot = usize::from(d);
        if thread {
            let trip = constant_trip(l);
            // The largest bound known (a partial tile's is at most the
            // full one's); unbounded only when no loop gives one.
            k.block[slot] = Some(match (k.block[slot], trip) {
                (Some(Some(a)), Some(b)) => Some(a.max(b)),
                (Some(a), None) => a,
                (_, t) => t,
            });
            k.threads += 1;
        } else {
            let size = self.grid_size(l, lo, up);
            if let Some(Gpu::Kernel(k)) = &mut self.gpu {
                k.grid[slot] = Some(size);
            }
        }
        self.body(&l.body, indent);
        if let Some(Gpu::Kernel(k)) = &mut self.gpu {
            if thread {
                k.threads -= 1;
            }
        }
    }

    /// How many blocks the block loop `l` (its bounds printed `lo` and
    /// `up`) gets along its dimension ([`block_loop_grid`]).
    fn grid_size(&self, l: &Loop, lo: String, up: String) -> GridSize {
        let Some(Gpu::Kernel(k)) = &self.gpu else {
            return GridSize::Cap;
        };
        let outer = &k.locals[..k.locals.len().saturating_sub(1)];
        block_loop_grid(l, lo, up, &Around::new(outer, &k.ranges), |e| self.expr(e))
    }
}

/// Every loop of `nodes` declares its variable: a kernel sees none of the
/// host's.
fn declare_all(nodes: &mut [Node]) {
    for n in nodes {
        match n {
            Node::For(l) => {
                l.declare = true;
                declare_all(&mut l.body);
            }
            Node::If {
                body, otherwise, ..
            } => {
                declare_all(body);
                declare_all(otherwise);
            }
            Node::Stmt { .. } => {}
        }
    }
}
