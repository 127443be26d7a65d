//! Front ends: C scop extraction ([`c`]), the recipe language
//! ([`recipe`]) and scripted recipes in rhai ([`crate::session::script`]). Their
//! diagnostics are [`crate::syntax::diagnostic`]s.

pub mod c;
pub mod recipe;
