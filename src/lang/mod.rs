//! Front ends: C scop extraction ([`c`]), the recipe language
//! ([`recipe`]), scripted recipes in rhai ([`script`]) and the diagnostics
//! they report.

pub mod c;
pub mod diagnostic;
pub mod recipe;
pub mod script;
