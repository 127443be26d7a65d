//! Helpers that know nothing of polyc's concepts (no sets, no programs,
//! no recipes): the lowest layer, usable from every other.

pub mod edit_distance;
pub mod pest_error;
