//! polyc: a polyhedral loop-transformation compiler for C kernels.
//!
//! The data flow (see `docs/architecture.md`): [`lang::c`] reads the scop
//! regions of a C file into the model of [`scop`], whose sets and relations
//! are [`poly`]'s; [`emit`] prints C back. [`driver`] is the CLI's logic.

pub mod apply;
pub mod auto;
pub mod bench;
pub mod cli;
pub mod driver;
pub mod emit;
pub mod lang;
pub mod poly;
pub mod recipe_run;
pub mod scop;
