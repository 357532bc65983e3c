//! Command-line subcommands (on this branch only the Standley experiment).

pub mod experiment_standley;
