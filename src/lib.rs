//! polyc: a polyhedral loop-transformation compiler for C kernels.
//!
//! The data flow (see `docs/architecture.md`): [`lang::c`] reads the scop
//! regions of a C file into the model of [`scop`], whose sets and relations
//! are [`poly`]'s; [`emit`] prints C back. [`session`] applies recipes
//! and scripts with the directives of [`apply`]; [`cli`] is the command
//! line.

pub mod apply;
pub mod auto;
pub mod cli;
pub mod emit;
pub mod explain;
pub mod lang;
pub mod poly;
pub mod scop;
pub mod session;
pub mod support;
pub mod syntax;
