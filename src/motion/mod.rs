//! Realistic motion (Pinter 2001): grid paths turned into curves that a unit
//! of a given width and turning radius can really drive, and searches that
//! respect those limits from the start.

mod curve;
mod error;
mod pose;
mod turns;
mod walkable;

pub use curve::{Curve, CurvePath, Segment, Turn};
pub use error::MotionError;
pub use pose::{heading_angle, nearest_heading, normalize_angle, wrap_pi, Point, Pose, HEADINGS};
pub use turns::{
    arc_line, arc_line_arc, arc_line_arc_all, arc_line_arc_turning, arc_line_arc_with_reverse,
    arc_line_turning, shortest_legal, SpeedRadius,
};
pub use walkable::{free, Footprint, SAMPLE_STEP};
