//! The program model: a [`Scop`] of [`Statement`]s with integer iteration
//! domains, affine accesses and the original 2d+1 schedule; its
//! dependences ([`dependences`]); the [`Schedule`] in Clay form; and the
//! exact legality check of a schedule against the dependences
//! ([`validity`]); which statements are reduction updates
//! ([`reduction`]); the cells an array's reads touch in one loop and the
//! box that holds them ([`footprint`]).
//!
//! Built by the C front end ([`crate::lang::c`]), read by dependence analysis,
//! the directives and the code generators. Knows nothing about text: bodies
//! are syntax trees, domains and accesses are `poly` sets and relations.

pub mod dataflow;
mod deps;
pub mod deps_view;
pub mod exactly_once;
pub mod footprint;
mod json;
pub mod kept_order;
pub mod local_cells;
mod model;
pub mod reduction;
pub mod same_values;
pub mod schedule;
mod sub_region;
pub mod validity;

pub use deps::{
    dependences, dependences_order_reads, narrowed_to_context, DepKind, DepOptions, Dependence,
};
pub use json::{scops_json, ScopJson};
pub use model::{element_bytes, Access, AccessKind, Array, Scop, Statement};
pub use schedule::{Mark, Schedule, StatementSchedule, ThreadSchedule};
pub use sub_region::sub_region;
