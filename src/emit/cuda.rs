//! The CUDA target (`--target cuda`): a region's loops become kernels
//! and the host code that runs them (docs/cuda.md).
//!
//! The region's body is replaced by a block that, for every array the
//! region accesses, allocates a device copy (`polyc_dev_A`, of the type
//! `&A[0]` has), copies the array in, runs the host loops with their
//! kernel launches ([`super::loops::cuda`]), copies back the arrays the
//! region writes and frees every copy; each CUDA call is checked
//! (`POLYC_CUDA_CHECK`: file, line and CUDA's message, then exit 1).
//! Kernels are templates over their parameters' types, so that polyc
//! needs no C type of a host value: each is inserted before the function
//! that holds its region.
//!
//! An array is copied whole: its first extent comes from a declaration
//! visible in the file (a diagnostic names an array without one), its
//! others from its type. Arrays only written are copied in too, since
//! polyc does not prove that the kernels write every cell. Scalars the
//! region only reads are passed by value; one it writes lives on the
//! device like an array, and kernels bind its name to the device cell.
//! The arrays a recipe adds ([`super::locals`], its sizes) are on the
//! device alone ([`DeviceLocal`]); its scalars are declared on the host
//! first and then are the region's own, not copied back.
//! A region that reads a `long double` is refused: devices have none.
//!
//! A packed loop's buffer ([`super::pack`]) lives in the kernel: in the
//! block's shared memory (`__shared__`) when its copies run at the block
//! level, filled and emptied by all the block's threads together, or in
//! each thread's own memory when they run inside a thread loop
//! ([`check_packs`] refuses the other places).

use std::collections::HashMap;
use std::fmt::Write;

use super::file_scope::{defined_macros, identifiers};
use super::locals::LocalArray;
use super::loops::cuda::{DeviceBuffer, HostNames, Kernel, LaunchSizes};
use super::loops::print_cuda;
use super::pack::Buffer;
use super::scan::Node;
use crate::scop::{element_bytes, AccessKind, Mark, Schedule, Scop};

/// What the CUDA target adds at the top of a file: the loop helpers,
/// callable on the device too, the check of a CUDA call, and the grid size
/// of a block loop.
pub const CUDA_HELPERS: &str = "\
#include <stdio.h>
#include <stdlib.h>
#ifndef polyc_floord
#define polyc_floord polyc_floord
static inline __attribute__((unused)) __host__ __device__ long long polyc_floord(long long n, long long d) { return n < 0 ? -((-n + d - 1) / d) : n / d; }
static inline __attribute__((unused)) __host__ __device__ long long polyc_ceild(long long n, long long d) { return n < 0 ? -((-n) / d) : (n + d - 1) / d; }
static inline __attribute__((unused)) __host__ __device__ long long polyc_max(long long x, long long y) { return x > y ? x : y; }
static inline __attribute__((unused)) __host__ __device__ long long polyc_min(long long x, long long y) { return x < y ? x : y; }
#endif
#ifndef POLYC_CUDA_CHECK
#define POLYC_CUDA_CHECK(call) polyc_cuda_check((call), __FILE__, __LINE__)
static inline __attribute__((unused)) void polyc_cuda_check(cudaError_t e, const char *file, int line)
{
  if (e != cudaSuccess) {
    fprintf(stderr, \"%s:%d: CUDA error: %s\\n\", file, line, cudaGetErrorString(e));
    exit(1);
  }
}
/* Blocks for the iterations lo, lo + step, ..., up: at least 1, at most `most`. */
static inline __attribute__((unused)) unsigned polyc_blocks(long long lo, long long up, long long step, long long most)
{
  long long n = up < lo ? 0 : (up - lo) / step + 1;
  return (unsigned)(n < 1 ? 1 : n > most ? most : n);
}
/* An array of D >= 2 dimensions that a recipe adds, on the device: a flat buffer indexed as a C array, `a[i][j]`; `inner` holds its extents after the first. */
template <class T, int D> struct polyc_local {
  T *data;
  long long inner[D - 1];
  __host__ __device__ auto operator[](long long i) const
  {
    long long row = 1;
    for (int d = 0; d < D - 1; d++)
      row *= inner[d];
    if constexpr (D == 2) {
      return data + i * row;
    } else {
      polyc_local<T, D - 1> rest;
      rest.data = data + i * row;
      for (int d = 0; d < D - 2; d++)
        rest.inner[d] = inner[d + 1];
      return rest;
    }
  }
};
#endif
";

/// A device copy of an array or a written scalar: its name, its size in
/// bytes (C), whether it is copied back.
struct DeviceCopy {
    name: String,
    bytes: String,
    back: bool,
    scalar: bool,
}

impl DeviceCopy {
    /// The host's copy, as `cudaMemcpy` takes it: `&x` or `A`.
    fn host(&self) -> String {
        match self.scalar {
            true => format!("&{}", self.name),
            false => self.name.clone(),
        }
    }
}

/// An array a recipe adds ([`LocalArray`], not a scalar), on the device
/// alone: nothing to copy in or back. From two dimensions on, kernels
/// index it through `polyc_local`, since CUDA C++ has no variable-length
/// rows.
struct DeviceLocal(LocalArray);

impl DeviceLocal {
    /// What the host frees: the buffer `cudaMalloc` gave.
    fn buffer(&self) -> String {
        match self.0.extents.len() {
            1 => format!("polyc_dev_{}", self.0.name),
            _ => format!("polyc_buf_{}", self.0.name),
        }
    }

    /// The host's lines that allocate it and name it `polyc_dev_NAME`.
    fn allocation(&self, indent: &str) -> String {
        let LocalArray {
            element_type: ty,
            name,
            extents,
        } = &self.0;
        let buffer = self.buffer();
        let bytes = std::iter::once(format!("sizeof({ty})"))
            .chain(extents.iter().cloned())
            .collect::<Vec<_>>()
            .join(" * ");
        let mut out = format!(
            "{indent}{ty} *{buffer};\n{indent}POLYC_CUDA_CHECK(cudaMalloc((void **)&{buffer}, {bytes}));\n"
        );
        if extents.len() > 1 {
            let inner: Vec<String> = extents[1..]
                .iter()
                .map(|e| format!("(long long)({e})"))
                .collect();
            let _ = writeln!(
                out,
                "{indent}polyc_local<{ty}, {}> polyc_dev_{name} = {{{buffer}, {{{}}}}};",
                extents.len(),
                inner.join(", ")
            );
        }
        out
    }
}

/// The packs of a region, lowered ([`super::pack::lower`]): the schedule
/// with the copy statements and their buffers.
#[derive(Clone, Copy, Debug)]
pub struct Packed<'a> {
    pub schedule: &'a Schedule,
    pub buffers: &'a [Buffer],
}

/// Why a `pack` of `schedule` (not lowered) cannot run on the device, if
/// one cannot: a buffer belongs to a block (its shared memory) or to a
/// thread, so a packed loop must be inside a loop mapped to blocks, and
/// not itself mapped to blocks (its copy would run between the block
/// loops, where no block is).
pub fn check_packs(schedule: &Schedule) -> Result<(), String> {
    for st in &schedule.statements {
        for (k, marks) in st.marks.iter().enumerate() {
            for m in marks {
                let Mark::Pack(array) = m else {
                    continue;
                };
                let block = |m: &Mark| matches!(m, Mark::GpuBlock(_));
                if marks.iter().any(block) {
                    return Err(format!(
                        "`{array}` is packed in the loop at depth {}, which is mapped by gpu_block: its buffer would belong to no one block; pack it in a loop inside the block loops",
                        k + 1
                    ));
                }
                if !st.marks[..k].iter().flatten().any(block) {
                    return Err(format!(
                        "`{array}` is packed in the loop at depth {}, and no loop around it is mapped by gpu_block: a buffer lives in a block's shared memory or a thread's own; pack it in a loop inside a block loop",
                        k + 1
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The buffers of `packed` as the kernels declare them: shared by a
/// block when no thread loop is around their copies, else one per thread.
fn device_buffers(packed: &Packed) -> Vec<DeviceBuffer> {
    packed
        .buffers
        .iter()
        .map(|b| {
            let per_thread = packed.schedule.statements.get(b.copy).is_some_and(|st| {
                st.marks
                    .iter()
                    .flatten()
                    .any(|m| matches!(m, Mark::GpuThread(_)))
            });
            let dims: String = b.extents.iter().map(|e| format!("[{e}]")).collect();
            let cells = b
                .extents
                .iter()
                .try_fold(1u64, |n, &e| n.checked_mul(u64::try_from(e).ok()?));
            DeviceBuffer {
                name: b.name.clone(),
                declaration: format!("{} {}{dims}", b.element_type, b.name),
                shared: !per_thread,
                bytes: cells
                    .zip(element_bytes(&b.element_type))
                    .map(|(n, e)| n.saturating_mul(e)),
            }
        })
        .collect()
}

/// A region for CUDA: the body that replaces it and its kernels.
#[derive(Clone, Debug)]
pub struct CudaRegion {
    pub body: String,
    pub kernels: Vec<Kernel>,
}

/// How a region's kernels are named and launched: numbered from `first`,
/// with the `sizes` given for them by name, or else the defaults.
#[derive(Clone, Copy, Debug)]
pub struct Launches<'a> {
    pub first: usize,
    pub sizes: &'a HashMap<String, LaunchSizes>,
}

/// The body of `scop`'s region (its loop AST `nodes`, its packs lowered
/// in `packed`, the arrays its recipe adds `locals`, indented by
/// `indent`) for CUDA, its kernels as `launches` says; `text` is the file
/// (for its `#define`s). An error says why the region cannot run on the
/// device.
pub fn cuda_region(
    scop: &Scop,
    nodes: &[Node],
    packed: &Packed,
    locals: &[LocalArray],
    indent: &str,
    text: &str,
    launches: Launches,
) -> Result<CudaRegion, String> {
    let written = |name: &str| {
        scop.statements.iter().any(|s| {
            s.accesses
                .iter()
                .any(|a| a.array == name && a.kind == AccessKind::Write)
        })
    };
    if let Some(a) = scop.arrays.iter().find(|a| {
        a.element_type.as_deref().is_some_and(|t| {
            t.split_whitespace().filter(|w| *w == "long").count() == 1 && t.contains("double")
        })
    }) {
        return Err(format!(
            "`{}` is a `long double`, which CUDA devices compute as a `double`: the kernels would print other values",
            a.name
        ));
    }
    let macros = defined_macros(text);
    let mut values: Vec<String> = Vec::new();
    let scalars = scop
        .arrays
        .iter()
        .filter(|a| a.n_dims == 0 && !written(&a.name))
        .map(|a| &a.name);
    for name in scop.params.iter().chain(scalars) {
        let mut pending = vec![name.as_str()];
        let mut seen = Vec::new();
        while let Some(n) = pending.pop() {
            if seen.contains(&n) {
                continue;
            }
            seen.push(n);
            match macros.get(n) {
                Some(words) => pending.extend(words),
                None if !values.iter().any(|v| v == n) => values.push(n.to_string()),
                None => {}
            }
        }
    }
    let expansions: Vec<(String, Vec<String>)> = macros
        .iter()
        .filter(|(_, words)| !words.is_empty())
        .map(|(m, words)| (m.to_string(), words.iter().map(|w| w.to_string()).collect()))
        .collect();
    let written_scalars: Vec<String> = scop
        .arrays
        .iter()
        .filter(|a| a.n_dims == 0 && written(&a.name))
        .map(|a| a.name.clone())
        .collect();
    let mut copies: Vec<DeviceCopy> = written_scalars
        .iter()
        .map(|x| DeviceCopy {
            name: x.clone(),
            bytes: format!("sizeof({x})"),
            // A scalar the recipe adds ends with the region.
            back: !locals.iter().any(|l| &l.name == x),
            scalar: true,
        })
        .collect();
    let buffer = |name: &str| packed.buffers.iter().any(|b| b.name == name);
    for a in scop
        .arrays
        .iter()
        .filter(|a| a.n_dims > 0 && !a.local && !buffer(&a.name))
    {
        let extents = a.extents.as_deref().unwrap_or_default();
        let Some(first) = extents.first().filter(|e| !e.trim().is_empty()) else {
            return Err(format!(
                "the size of array `{}` is unknown: the CUDA target copies whole arrays to the device, and no declaration of `{}` with its extents is visible in the file",
                a.name, a.name
            ));
        };
        // `&A[0]` must have a C++ type: no variable inner extent.
        let variable = extents[1..]
            .iter()
            .flat_map(|e| identifiers(e))
            .find(|w| !macros.contains_key(w));
        if let Some(v) = variable {
            return Err(format!(
                "array `{}` has an inner extent that reads the variable `{v}`; CUDA C++ has no variable-length arrays",
                a.name
            ));
        }
        copies.push(DeviceCopy {
            name: a.name.clone(),
            bytes: format!("(size_t)({first}) * sizeof({}[0])", a.name),
            back: written(&a.name),
            scalar: false,
        });
    }
    // The arrays a recipe adds live on the device alone; its scalars are
    // declared on the host, and then are the region's own.
    let added: Vec<DeviceLocal> = locals
        .iter()
        .filter(|l| !l.extents.is_empty())
        .map(|l| DeviceLocal(l.clone()))
        .collect();
    let names = HostNames {
        values,
        macros: expansions,
        scalars: written_scalars,
        arrays: copies
            .iter()
            .filter(|c| !c.scalar)
            .map(|c| c.name.clone())
            .chain(added.iter().map(|l| l.0.name.clone()))
            .collect(),
        first_kernel: launches.first,
        sizes: launches.sizes.clone(),
        buffers: device_buffers(packed),
    };
    let inner = format!("{indent}  ");
    let (host, kernels) = print_cuda(nodes, scop, &inner, names).map_err(|e| e.to_string())?;
    let mut body = format!("{indent}{{\n");
    for l in locals.iter().filter(|l| l.extents.is_empty()) {
        let _ = writeln!(body, "{inner}{} {} = 0;", l.element_type, l.name);
    }
    for c in &copies {
        let (name, bytes) = (&c.name, &c.bytes);
        let cell = if c.scalar { "" } else { "[0]" };
        let _ = writeln!(body, "{inner}decltype(&{name}{cell}) polyc_dev_{name};");
        let _ = writeln!(
            body,
            "{inner}POLYC_CUDA_CHECK(cudaMalloc((void **)&polyc_dev_{name}, {bytes}));"
        );
        let _ = writeln!(
            body,
            "{inner}POLYC_CUDA_CHECK(cudaMemcpy(polyc_dev_{name}, {}, {bytes}, cudaMemcpyHostToDevice));",
            c.host()
        );
    }
    for l in &added {
        body.push_str(&l.allocation(&inner));
    }
    body.push_str(&host);
    for c in copies.iter().filter(|c| c.back) {
        let _ = writeln!(
            body,
            "{inner}POLYC_CUDA_CHECK(cudaMemcpy({}, polyc_dev_{}, {}, cudaMemcpyDeviceToHost));",
            c.host(),
            c.name,
            c.bytes
        );
    }
    let buffers = copies
        .iter()
        .map(|c| format!("polyc_dev_{}", c.name))
        .chain(added.iter().map(|l| l.buffer()));
    for name in buffers {
        let _ = writeln!(body, "{inner}POLYC_CUDA_CHECK(cudaFree({name}));");
    }
    let _ = writeln!(body, "{indent}}}");
    Ok(CudaRegion { body, kernels })
}

/// A kernel as CUDA C++: a template over its parameters' types.
pub fn kernel_text(k: &Kernel) -> String {
    let mut out = String::new();
    if k.params.is_empty() {
        let _ = writeln!(out, "__global__ void {}(void)", k.name);
    } else {
        let types: Vec<String> = k.params.iter().map(|p| format!("class T_{p}")).collect();
        let params: Vec<String> = k.params.iter().map(|p| format!("T_{p} {p}")).collect();
        let _ = writeln!(out, "template <{}>", types.join(", "));
        let _ = writeln!(out, "__global__ void {}({})", k.name, params.join(", "));
    }
    let _ = writeln!(out, "{{\n{}}}", k.body);
    out
}
