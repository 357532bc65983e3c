//! Set-up of a large map: the landmark table that units read when a search
//! each would not fit (16 landmarks, farthest-point selection), on a
//! generated 2048×2048 map with 10% obstacles (4.2 million cells, about the
//! Iron Harvest map's 3.4 million). The baseline in the same run is 16
//! plain breadth-first searches over the same map, each into a table of
//! distances (`bfs_distances_into`): the table's 16 searches, its choice of
//! landmarks and its cell-major layout against that shows what the bit set
//! of reached cells and the batched writes save.

use criterion::{criterion_group, criterion_main, Criterion};
use throng::distance::{bfs_distances_into, Landmarks, LANDMARKS};
use throng::map::{generate_map, Cell, Connectivity};

fn bench(c: &mut Criterion) {
    let grid = generate_map("2048x2048:0.1".parse().unwrap(), Connectivity::Four, 1);
    let mut g = c.benchmark_group("landmarks_2048x2048");
    g.sample_size(10);
    g.bench_function("plain_bfs_x16", |b| {
        let (mut dist, mut queue) = (Vec::new(), Vec::new());
        let sources: Vec<Cell> = (0..grid.cell_count() as u32)
            .step_by(grid.cell_count() / LANDMARKS)
            .map(Cell)
            .filter(|&c| grid.is_passable(c))
            .take(LANDMARKS)
            .collect();
        b.iter(|| {
            for &s in &sources {
                bfs_distances_into(&grid, s, &mut dist, &mut queue);
            }
            dist[0]
        })
    });
    g.bench_function("landmark_table_16", |b| {
        b.iter(|| {
            let table = Landmarks::build(&grid, LANDMARKS);
            assert_eq!(table.count(), LANDMARKS);
            table.cells[LANDMARKS - 1]
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
