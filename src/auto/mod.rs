//! Automatic schedulers (Feautrier, Pluto, spatial) and the Chlore-style
//! explanation of a schedule as a recipe. Being built (issue 15): the
//! dependence graph with its Farkas forms ([`graph`]), the (I)LP rows
//! ([`ilp`]) and one Feautrier row ([`feautrier`]); `auto(...)` in a recipe
//! is still refused and the CLI reports `--explain` as not implemented yet.

#![allow(dead_code)] // The pieces land before the driver that uses them.

mod feautrier;
mod graph;
mod ilp;
mod independence;
mod pluto;
mod scheduler;
mod tree;
