//! Planner horizons saturate at the reservation table's largest horizon
//! instead of wrapping, and the table takes any horizon without a panic.

use throng::planner::{CoVariant, PlannerKind};
use throng::reservation::{ReservationTable, MAX_HORIZON};

#[test]
fn horizons_saturate_instead_of_wrapping() {
    let co = PlannerKind::Co {
        window: u32::MAX,
        variant: CoVariant::Whca,
        offline: false,
    };
    let kinds = [
        (PlannerKind::Whca { window: u32::MAX }, 0),
        (
            PlannerKind::Whca {
                window: u32::MAX - 1,
            },
            0,
        ),
        (PlannerKind::Hca, u32::MAX),
        (PlannerKind::Ca, u32::MAX - 1),
        (co, u32::MAX),
        (co, 0),
    ];
    for (kind, max_ticks) in kinds {
        assert_eq!(kind.horizon(max_ticks), MAX_HORIZON, "{kind:?}");
    }
    assert_eq!(PlannerKind::Whca { window: 16 }.horizon(100), 18);
    assert_eq!(PlannerKind::Hca.horizon(100), 102);
    assert_eq!(PlannerKind::Lra.horizon(u32::MAX), 2);
}

#[test]
fn a_wrapped_horizon_of_old_is_a_small_table_now() {
    // `window + 2` once wrapped to 1 for the largest window, and the table
    // asserted; now a horizon below 2 is taken as 2.
    for horizon in [0, 1] {
        let t = ReservationTable::for_map(1024, 32, horizon, 200);
        assert_eq!(t.horizon(), 2);
    }
}
