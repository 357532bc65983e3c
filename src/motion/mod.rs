//! Realistic motion (Pinter 2001): grid paths turned into curves that a unit
//! of a given width and turning radius can really drive, and searches that
//! respect those limits from the start.

mod cooperative;
mod curve;
mod directional;
mod error;
mod fixed_angle;
mod heuristic_table;
mod hit_table;
mod hybrid;
mod plan;
mod pose;
mod smoothing;
mod svg;
mod turns;
mod walkable;

pub use cooperative::SmoothedTrajectory;
pub use curve::{Curve, CurvePath, Segment, Turn};
pub use directional::{
    DirectionalAStar, DirectionalConfig, DirectionalPath, DirectionalQuery, Neighborhood,
    StartHeading,
};
pub use error::MotionError;
pub use fixed_angle::{fixed_angle, FixedAnglePath};
pub use heuristic_table::HeuristicTable;
pub use hit_table::{block_bit, ring_offsets, HitTable, Transition, BLOCK_HALF, CANDIDATES};
pub use hybrid::{hybrid, HybridOutcome, HYBRID_MARGIN, HYBRID_STRETCH};
pub use plan::{tightening_chain, Method, MotionPlan, MotionPlanner, MotionQuery};
pub use pose::{heading_angle, nearest_heading, normalize_angle, wrap_pi, Point, Pose, HEADINGS};
pub use smoothing::{
    final_smoothing, simple_smooth, smooth_free_headings, smooth_legs, smoothing48, Smoothed48,
    Smoothing48Failure, SHORTCUT_LOOKAHEAD, SMOOTHING48_BACKTRACK,
};
pub use svg::render_svg;
pub use turns::{
    arc_line, arc_line_arc, arc_line_arc_all, arc_line_arc_turning, arc_line_arc_with_reverse,
    arc_line_turning, shortest_legal, SpeedRadius,
};
pub use walkable::{free, Footprint, SAMPLE_STEP, TABLE_SAMPLE_STEP};
