//! Code generation: printing loop trees and statement bodies as C, and
//! splicing the result into the source file in place of each scop region.
//!
//! Until polyhedral scanning lands, a region is re-emitted from its parsed
//! tree ([`c::print_region`]); the printers never see text of the region.

pub mod c;
pub mod splice;

pub use c::{expr_text, print_region};
