//! Automatic schedulers (Feautrier, Pluto, spatial) and the Chlore-style
//! explanation of a schedule as a recipe. Empty until those issues land; the
//! CLI reports `--explain` as not implemented yet.
