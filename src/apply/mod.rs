//! The directives of the recipe language, each a precondition check plus a
//! rewrite of the scheduling relation. Empty until the directives land
//! (issue: the recipe language and the Clay directives); the CLI reports
//! `--recipe` as not implemented yet.
