//! Code generation: packs lowered to copy statements ([`pack`]),
//! scanning a schedule into a loop AST ([`scan`]),
//! printing it as C ([`loops`]; statement bodies and expressions with
//! [`crate::syntax::print`]), and splicing the result into the source file
//! in place of each scop region ([`splice`]); for `--target cuda`, the
//! kernels and the host code around them ([`cuda`]); the arrays a recipe
//! adds, declared around a region's code ([`locals`]); for `--target
//! openmp`, the top-level parallel constructs moved into functions with
//! `restrict` array parameters ([`outline`], reading the file around the
//! region with [`file_scope`]).
//!
//! The printers never see text of the region: statement bodies are syntax
//! trees. [`outline`] reads the printed text, and the file's text outside
//! the regions.

pub mod cuda;
pub mod file_scope;
pub mod locals;
pub mod loops;
pub mod outline;
pub mod pack;
pub mod scan;
pub mod splice;

pub use loops::{print_loops, print_loops_in, PrintOptions, HELPERS};
pub use scan::{scan, ScanError};
