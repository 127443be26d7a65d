//! Front ends: C scop extraction ([`c`]), the recipe language
//! ([`recipe`]) and the diagnostics they report. Scripting joins here when
//! it lands.

pub mod c;
pub mod diagnostic;
pub mod recipe;
