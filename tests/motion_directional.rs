//! Directional A* gives the same route when time-sliced (a bounded number of
//! expansions per call, resumed) as in one call; terrain costs steer it onto
//! cheap ground; its tables follow the unit's radius and width.

use throng::map::{Connectivity, Grid};
use throng::motion::{
    DirectionalAStar, DirectionalConfig, DirectionalQuery, Neighborhood, StartHeading,
};

fn open_grid(w: u32, h: u32) -> Grid {
    Grid::new(w, h, vec![true; (w * h) as usize], Connectivity::Eight)
}

#[test]
fn sliced_search_matches_one_call() {
    let rows = [
        "..................",
        "..@@@@@@@@@@@@@...",
        "..............@...",
        "..@@@@@@@@@...@...",
        "..@.......@...@...",
        "..@.......@.......",
        "..................",
    ];
    let p = rows
        .iter()
        .flat_map(|r| r.chars().map(|c| c == '.'))
        .collect();
    let g = Grid::new(18, 7, p, Connectivity::Eight);
    let mut d = DirectionalAStar::new(DirectionalConfig::new(Neighborhood::D24, 1.0, 0.4));
    let q = DirectionalQuery::new(g.cell(0, 2), StartHeading::Angle(0.0), g.cell(5, 4));
    let whole = d.search(&g, &q).unwrap();
    let total = d.expanded;
    d.begin(&g, &q).unwrap();
    let mut calls = 0;
    let sliced = loop {
        calls += 1;
        if let Some(p) = d.resume(&g, None, 3).unwrap() {
            break p;
        }
    };
    assert!(
        calls > 1,
        "the search should need several slices ({total} expansions)"
    );
    assert_eq!(d.expanded, total);
    assert_eq!(sliced.cells, whole.cells);
    assert!((sliced.cost - whole.cost).abs() < 1e-9);
}

#[test]
fn terrain_costs_steer_the_route() {
    let g = open_grid(20, 9);
    let mut d = DirectionalAStar::new(DirectionalConfig::new(Neighborhood::D24, 1.0, 0.4));
    let mut q = DirectionalQuery::new(g.cell(1, 4), StartHeading::Angle(0.0), g.cell(18, 4));
    let straight = d.search(&g, &q).unwrap();
    assert!(
        straight.cells.iter().all(|&c| g.xy(c).1 == 4),
        "open ground: straight along row 4"
    );
    // Sand on rows 3 to 5 between x = 4 and 15: the unit drives round it.
    let mut terrain = vec![1u32; g.cell_count()];
    for y in 3..=5 {
        for x in 4..=15 {
            terrain[g.cell(x, y).index()] = 10;
        }
    }
    q.terrain = Some(&terrain);
    let round = d.search(&g, &q).unwrap();
    assert!(round.cells.iter().any(|&c| {
        let (x, y) = g.xy(c);
        (4..=15).contains(&x) && (y <= 2 || y >= 6)
    }));
    assert!(round.cost < straight.cost * 10.0);
    assert!(round.curve.length() > straight.curve.length());
}

#[test]
fn tables_follow_radius_and_width() {
    let mut d = DirectionalAStar::new(DirectionalConfig::new(Neighborhood::D8, 1.0, 0.4));
    assert_eq!(d.hit_table().radius(), 1.0);
    d.reconfigure(DirectionalConfig::new(Neighborhood::D8, 2.5, 0.6));
    assert_eq!(d.hit_table().radius(), 2.5);
    assert_eq!(d.hit_table().width(), 0.6);
    assert_eq!(d.heuristic_table().radius(), 2.5);
    // A wider radius makes a quarter turn onto the next cell dearer or impossible.
    let narrow = DirectionalAStar::new(DirectionalConfig::new(Neighborhood::D8, 0.5, 0.4));
    let o = narrow.hit_table().offset_number(1, 1).unwrap();
    let (a, b) = (
        narrow.hit_table().get(0, 2, o).cost,
        d.hit_table().get(0, 2, o).cost,
    );
    assert!(b == u32::MAX || b > a, "{a} vs {b}");
}
