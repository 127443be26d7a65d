//! The integration tests, one binary (`cargo test` links once): each
//! module is one test file of this folder, with its fixtures in the
//! folders beside it (kernels, recipes, schedules, snapshots). A test
//! file not declared here would not run: `tidy` checks that every one is.

/// The binary's allocator (src/main.rs): the tests that run the driver
/// in-process, and the random tester, run as fast as `polyc` does.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod apply;
mod auto;
mod bench;
mod clay;
mod cli;
mod codegen;
mod common;
mod cuda;
mod deps;
mod differential;
mod docs_examples;
mod execution;
mod explain;
mod front_end_exact;
mod front_end_limits;
mod must_fail;
mod must_fail_recipe;
mod outline;
mod poly_oracle;
mod poly_parse;
mod poly_regressions;
mod recipe_parse;
mod recipes;
mod schedule;
mod scop_snapshots;
mod script;
mod tidy;
mod validity;
