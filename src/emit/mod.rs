//! Code generation: packs lowered to copy statements ([`pack`]),
//! scanning a schedule into a loop AST ([`scan`]),
//! printing it as C ([`loops`]; statement bodies and expressions with
//! [`crate::syntax::print`]), and splicing the result into the source file
//! in place of each scop region ([`splice`]); for `--target cuda`, the
//! kernels and the host code around them ([`cuda`]); the arrays a recipe
//! adds, declared around a region's code ([`locals`]).
//!
//! The printers never see text of the region: statement bodies are syntax
//! trees.

pub mod cuda;
pub mod locals;
pub mod loops;
pub mod pack;
pub mod scan;
pub mod splice;

pub use loops::{print_loops, PrintOptions, HELPERS};
pub use scan::{scan, ScanError};
