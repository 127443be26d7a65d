//! Front ends: C scop extraction ([`c`]) and the diagnostics they report.
//! The recipe language and scripting join here when they land.

pub mod c;
pub mod diagnostic;
