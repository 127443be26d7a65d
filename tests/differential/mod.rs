//! The random differential tester's parts: [`generate`] writes random
//! directives from the current schedule, [`check`] runs and classifies a
//! case and minimises a failure.

pub mod check;
pub mod generate;
