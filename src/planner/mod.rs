//! Planners. On this branch only the optimal offline solver lives here.

pub mod odid;
