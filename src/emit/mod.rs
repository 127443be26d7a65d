//! Code generation: scanning a schedule into a loop AST ([`scan`]),
//! printing it as C ([`loops`]; statement bodies and expressions with
//! [`c`]), and splicing the result into the source file in place of each
//! scop region ([`splice`]).
//!
//! [`c::print_region`] re-prints a region's parsed tree as it was; the
//! printers never see text of the region.

pub mod c;
pub mod loops;
pub mod scan;
pub mod splice;

pub use c::{expr_text, print_region};
pub use loops::{print_loops, PrintOptions, HELPERS};
pub use scan::{scan, ScanError};
