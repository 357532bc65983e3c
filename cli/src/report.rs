//! `throng report`: runs the set of runs behind the figures Throng quotes
//! and writes them, each with the command that produced it, as one
//! Markdown page (`docs/benchmarks.md`). Every run is this binary started
//! afresh with the command shown, so anyone can run one of them alone.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Args;
use serde_json::Value;

use super::error::{write_file, CliError};

/// Options of `throng report`.
#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    /// Where the page goes.
    #[arg(long, default_value = "docs/benchmarks.md")]
    pub out: PathBuf,
    /// The benchmark maps folder (for the runs on large maps; skipped
    /// when it is missing).
    #[arg(long, default_value = "../shared/maps/movingai")]
    pub maps: PathBuf,
    /// Only the runs whose title contains this text.
    #[arg(long)]
    pub only: Option<String>,
}

/// One figure: its label, where it is in the run's JSON summary (a JSON
/// pointer), and how many decimals to show.
#[derive(Clone)]
struct Figure {
    label: &'static str,
    pointer: &'static str,
    decimals: usize,
}

const fn fig(label: &'static str, pointer: &'static str, decimals: usize) -> Figure {
    Figure {
        label,
        pointer,
        decimals,
    }
}

/// One run: what it shows, its arguments, its figures.
struct Entry {
    title: &'static str,
    what: &'static str,
    args: Vec<String>,
    figures: Vec<Figure>,
    /// Needs the benchmark maps folder.
    large_map: bool,
}

fn entries(maps: &Path) -> Vec<Entry> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let tick = || {
        vec![
            fig("tick mean (ms)", "/tick_ms_mean", 3),
            fig("tick p99 (ms)", "/tick_ms_p99", 3),
            fig("tick p99.9 (ms)", "/tick_ms_p999", 3),
            fig("worst tick (ms)", "/tick_ms_max", 3),
        ]
    };
    // A profile run under a tick budget (the profile, then any flags): the
    // tick figures, `figures`, and the collisions.
    let budgeted = |title, what, profile: &[&str], figures: Vec<Figure>| Entry {
        title,
        what,
        args: [s(&["run", "--profile"]), s(profile)].concat(),
        figures: [tick(), figures, vec![fig("collisions", "/collisions", 0)]].concat(),
        large_map: false,
    };
    let den = maps.join("den520d.map").display().to_string();
    let mut v = vec![
        Entry {
            title: "Silver's set-up",
            what: "100 units on a generated 32×32 map (20% obstacles), WHCA*(16), 2 threads, every unit planned before the first tick",
            args: s(&["run", "--profile", "profiles/silver.toml", "--threads", "2"]),
            figures: [
                vec![
                    fig("initial planning (ms)", "/init_ms", 3),
                    fig("units home", "/success_rate", 3),
                    fig("sum of costs", "/soc", 0),
                ],
                tick(),
                vec![fig("collisions", "/collisions", 0)],
            ]
            .concat(),
            large_map: false,
        },
        budgeted(
            "Live world under a game's load",
            "2,000 units on a generated 256×256 map, 2 threads, 300 µs per tick from the first tick; every 10 ticks 50 new orders, every 100 ticks a 6×6 building up or down, every 50 ticks 10 units replaced; 10,000 ticks",
            &["profiles/live-2k.toml"],
            vec![
                fig("ticks over 300 µs", "/budget_overruns", 0),
                fig("orders arrived (of those kept)", "/orders/arrived_rate", 4),
                fig("ticks from order to arrival", "/orders/mean_ticks_to_arrive", 1),
                fig("peak memory after 1,000 ticks (MiB)", "/peak_memory_mb_at_1000", 1),
                fig("peak memory at the end (MiB)", "/peak_memory_mb_end", 1),
            ],
        ),
        budgeted(
            "Mass order",
            "the same world without the rest of the load: at tick 500, 500 units get new goals in one tick",
            &["profiles/mass-order-500.toml"],
            vec![
                fig("ticks over 300 µs", "/budget_overruns", 0),
                fig("orders whose unit moved within 20 ticks", "/orders/started_within_20", 0),
                fig("of orders", "/orders/lasted_20", 0),
                fig("longest wait to move (ticks)", "/orders/max_ticks_to_start", 0),
            ],
        ),
        budgeted(
            "Mixed army under a budget",
            "2,000 units on a generated 256×256 map: 60% one cell, 20% 2×2 bodies, 10% 3×3, 10% one cell at 3 ticks a move; 2 threads, 1 ms per tick from the first tick, 2,000 ticks",
            &["profiles/mixed-2k.toml"],
            vec![
                fig("ticks over 1 ms", "/budget_overruns", 0),
                fig("units home", "/success_rate", 3),
                fig("home within 3× their lower bound", "/mixed/home_within_3x_rate", 3),
            ],
        ),
        budgeted(
            "Mixed army at 60 frames a second",
            "the mixed army above, each tick begun 16 ms after the one before, as a game's frames (the rest of the frame idle: caches go cold between ticks; see `docs/threads.md`)",
            &["profiles/mixed-2k.toml", "--frame-ms", "16"],
            vec![
                fig("ticks over 1 ms", "/budget_overruns", 0),
                fig("searches", "/searches", 0),
                fig("units home", "/success_rate", 3),
                fig("home within 3× their lower bound", "/mixed/home_within_3x_rate", 3),
            ],
        ),
    ];
    for (title, lanes) in [
        ("Lifelong warehouse", None),
        ("Lifelong warehouse, lanes", Some("--lanes")),
    ] {
        let mut args = s(&[
            "experiment",
            "lifelong",
            "--map",
            "tests/data/movingai/warehouse-10-20-10-2-1.map",
            "--units",
            "1000",
            "--ticks",
            "1000",
        ]);
        args.extend(lanes.map(String::from));
        v.push(Entry {
            title,
            what: "1,000 units on warehouse-10-20-10-2-1, each always with a next random task (League of Robot Runners, RHCR), 2 threads, 1,000 ticks",
            args,
            figures: vec![
                fig("tasks per tick", "/throughput", 2),
                fig("tick mean (ms)", "/tick_ms_mean", 3),
                fig("tick p99 (ms)", "/tick_ms_p99", 3),
                fig("planning per 5 ticks (ms)", "/ms_per_5_ticks", 2),
                fig("units stuck at the end", "/stuck_at_end", 0),
                fig("collisions", "/collisions", 0),
            ],
            large_map: false,
        });
    }
    // A large run's figures: set-up and initial planning, `more`, the
    // ticks, memory and collisions.
    let big_figures = |more: Vec<Figure>| {
        [
            vec![
                fig("set-up (ms)", "/setup_ms", 1),
                fig("initial planning (ms)", "/init_ms", 1),
            ],
            more,
            tick(),
            vec![
                fig("peak memory (MB)", "/peak_memory_mb", 0),
                fig("collisions", "/collisions", 0),
            ],
        ]
        .concat()
    };
    let big_runs =
        |v: &mut Vec<Entry>, titles: [&'static str; 2], what, run: &[&str], large_map| {
            for (title, threads) in titles.into_iter().zip(["1", "2"]) {
                let mut args = s(&["run"]);
                args.extend(s(run));
                args.extend(s(&["--threads", threads]));
                v.push(Entry {
                    title,
                    what,
                    args,
                    figures: big_figures(Vec::new()),
                    large_map,
                });
            }
        };
    big_runs(
        &mut v,
        ["Stress, one thread", "Stress, two threads"],
        "10,000 units on a generated 512×512 map (10% obstacles), WHCA*(16), 300 ticks",
        &["--profile", "profiles/stress-10k.toml"],
        false,
    );
    v.push(Entry {
        title: "Stress, units spawned",
        what: "the same 10,000 units spawned one by one into a world built empty, as a game fills its world, 2 threads (the same plans as the world built with them)",
        args: s(&[
            "run",
            "--profile",
            "profiles/stress-10k.toml",
            "--spawned",
            "--threads",
            "2",
        ]),
        figures: big_figures(vec![fig("sum of costs", "/soc", 0)]),
        large_map: false,
    });
    let r32 = "tests/data/movingai/random-32-32-20.map";
    let r32_scen = Some("tests/data/movingai/scen/random-32-32-20-random-1.scen");
    let warehouse = "tests/data/movingai/warehouse-10-20-10-2-1.map";
    for (title, map, scen, units, ticks, lanes) in [
        (
            "random-32-32-20, 409 units",
            r32,
            r32_scen,
            "409",
            "1000",
            false,
        ),
        (
            "random-32-32-20, 409 units, lanes",
            r32,
            r32_scen,
            "409",
            "1000",
            true,
        ),
        (
            "warehouse, 1,000 units",
            warehouse,
            None,
            "1000",
            "3000",
            false,
        ),
        (
            "warehouse, 1,000 units, lanes",
            warehouse,
            None,
            "1000",
            "3000",
            true,
        ),
    ] {
        let mut args = s(&["run", "--map", map]);
        if let Some(scen) = scen {
            args.extend(s(&["--scen", scen]));
        }
        if lanes {
            args.push("--lanes".into());
        }
        args.extend(s(&[
            "--units",
            units,
            "--max-ticks",
            ticks,
            "--threads",
            "2",
        ]));
        v.push(Entry {
            title,
            what: "random distinct starts and goals (or the scenario's first rows), WHCA*(16), 2 threads, until every unit is home or the turn limit",
            args,
            figures: vec![
                fig("units home", "/success_rate", 4),
                fig("on their goals at the end", "/at_goal_at_end", 0),
                fig("ticks", "/ticks", 0),
                fig("sum of costs", "/soc", 0),
                fig("planning in all (ms)", "/plan_ms_total", 1),
                fig("collisions", "/collisions", 0),
            ],
            large_map: false,
        });
    }
    v.push(Entry {
        title: "den520d, 1,000 units",
        what: "1,000 random distinct starts and goals on den520d (256×257), WHCA*(16), 2 threads, up to 2,000 ticks",
        args: s(&["run", "--map", &den, "--units", "1000", "--max-ticks", "2000", "--threads", "2"]),
        figures: vec![
            fig("units home", "/success_rate", 4),
            fig("ticks", "/ticks", 0),
            fig("sum of costs", "/soc", 0),
            fig("planning in all (ms)", "/plan_ms_total", 1),
            fig("collisions", "/collisions", 0),
        ],
        large_map: true,
    });
    let (iron_map, iron_scen) = iron_harvest(maps);
    let (iron_map, iron_scen) = (
        iron_map.display().to_string(),
        iron_scen.display().to_string(),
    );
    big_runs(
        &mut v,
        ["Iron Harvest, one thread", "Iron Harvest, two threads"],
        "the League of Robot Runners' Iron Harvest RTS map (1800×1912) with its 10,000-unit scenario, WHCA*(16), 300 ticks (`profiles/lorr-iron-10k.toml`)",
        &["--map", &iron_map, "--scen", &iron_scen, "--max-ticks", "300"],
        true,
    );
    v
}

/// The Iron Harvest map and its 10,000-unit scenario, beside the benchmark
/// maps folder `maps` (in `lorr/`).
fn iron_harvest(maps: &Path) -> (PathBuf, PathBuf) {
    let lorr = maps.parent().unwrap_or(maps).join("lorr");
    (
        lorr.join("scene_mp_2p_01.map"),
        lorr.join("scene_mp_2p_01-iron-10000.scen"),
    )
}

fn format_value(v: Option<&Value>, decimals: usize) -> String {
    match v.and_then(Value::as_f64) {
        Some(x) => format!("{x:.decimals$}"),
        None => "–".into(),
    }
}

/// Round trips the core-to-core probe times (about 10 ms at 100 ns).
const TRIPS: u64 = 100_000;
/// Hand-overs the other-core probe makes (about a second).
const HANDOVERS: usize = 2_000;

/// The title of the page's section of alternating one- and two-thread runs.
const PAIRS_TITLE: &str = "Two threads against one";

/// Alternating pairs of the stress run in that section (and of the Iron
/// Harvest map's initial planning).
const STRESS_PAIRS: usize = 5;
const IRON_PAIRS: usize = 3;

/// Runs this binary with `args` and `extra`, its JSON summary written to
/// `json`, and reads the summary; `command` names the run in errors.
fn run_summary(
    exe: &Path,
    args: &[String],
    extra: &[&str],
    json: &Path,
    command: &str,
) -> Result<Value, CliError> {
    let done = Command::new(exe)
        .args(args)
        .args(extra)
        .arg("--summary-json")
        .arg(json)
        .output()
        .map_err(|e| CliError::Other(format!("cannot run {command}: {e}")))?;
    if !done.status.success() {
        return Err(CliError::Other(format!(
            "{command} failed: {}",
            String::from_utf8_lossy(&done.stderr)
        )));
    }
    let text = std::fs::read_to_string(json).map_err(|e| CliError::Other(e.to_string()))?;
    serde_json::from_str(&text).map_err(|e| CliError::Other(e.to_string()))
}

/// Runs `throng` with `run_args` and `--threads T` for T = 1, 2, `pairs`
/// times in turn, and returns each run's JSON summary, one and two threads
/// side by side.
fn run_pairs(
    exe: &Path,
    dir: &Path,
    run_args: &[String],
    pairs: usize,
) -> Result<Vec<[Value; 2]>, CliError> {
    let mut out = Vec::with_capacity(pairs);
    for k in 0..pairs {
        let mut pair = [Value::Null, Value::Null];
        for (t, summary) in pair.iter_mut().enumerate() {
            let json = dir.join(format!("pair-{k}-{t}.json"));
            let threads = (t + 1).to_string();
            let command = format!("throng {} --threads {threads}", run_args.join(" "));
            eprintln!("report: {command}");
            *summary = run_summary(exe, run_args, &["--threads", &threads], &json, &command)?;
        }
        out.push(pair);
    }
    Ok(out)
}

/// The median of `v` (the mean of the middle two for an even count).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The section of alternating one- and two-thread runs: the stress run's
/// speed-up, the spread of its two-thread means, its p99, and the initial
/// planning's two-thread share on both maps, each as a median of pairs (a
/// single pair moves with the machine's load).
fn pairs_section(exe: &Path, dir: &Path, maps: &Path, page: &mut String) -> Result<(), CliError> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let stress = s(&["run", "--profile", "profiles/stress-10k.toml"]);
    writeln!(
        page,
        "## {PAIRS_TITLE}\n\n{STRESS_PAIRS} alternating pairs of the stress run on one and two \
         threads (each figure a median of the pairs, or the spread of the two-thread runs), and \
         {IRON_PAIRS} of the Iron Harvest map's initial planning (the same with `--max-ticks 1` \
         on its map and scenario).\n\n```sh\nthrong {} --threads 1\nthrong {} --threads 2\n```\n",
        stress.join(" "),
        stress.join(" ")
    )
    .expect("string");
    let field = |v: &Value, key: &str| v.get(key).and_then(Value::as_f64).unwrap_or(f64::NAN);
    let runs = run_pairs(exe, dir, &stress, STRESS_PAIRS)?;
    let means: Vec<f64> = runs
        .iter()
        .map(|[_, two]| field(two, "tick_ms_mean"))
        .collect();
    let mid = median(means.clone());
    let (lo, hi) = means
        .iter()
        .fold((f64::INFINITY, 0f64), |(lo, hi), &m| (lo.min(m), hi.max(m)));
    let ratio = |key: &str, runs: &[[Value; 2]], two_over_one: bool| {
        median(
            runs.iter()
                .map(|[one, two]| {
                    let (a, b) = (field(one, key), field(two, key));
                    if two_over_one {
                        b / a
                    } else {
                        a / b
                    }
                })
                .collect(),
        )
    };
    let mut rows = vec![
        (
            "stress: speed-up over one thread (tick means)",
            format!("{:.2}", ratio("tick_ms_mean", &runs, false)),
        ),
        (
            "stress: two-thread tick means (ms)",
            format!("{lo:.2}–{hi:.2}, median {mid:.2}"),
        ),
        (
            "stress: the largest two-thread mean over their median",
            format!("{:+.1}%", (hi / mid - 1.0) * 100.0),
        ),
        (
            "stress: two-thread tick p99 (ms)",
            format!(
                "{:.2}",
                median(
                    runs.iter()
                        .map(|[_, two]| field(two, "tick_ms_p99"))
                        .collect()
                )
            ),
        ),
        (
            "stress: initial planning, two threads / one",
            format!("{:.2}", ratio("init_ms", &runs, true)),
        ),
    ];
    let (iron_map, iron_scen) = iron_harvest(maps);
    if iron_map.exists() && iron_scen.exists() {
        let iron = vec![
            "run".to_string(),
            "--map".into(),
            iron_map.display().to_string(),
            "--scen".into(),
            iron_scen.display().to_string(),
            "--max-ticks".into(),
            "1".into(),
        ];
        let runs = run_pairs(exe, dir, &iron, IRON_PAIRS)?;
        rows.push((
            "Iron Harvest: initial planning, two threads / one",
            format!("{:.2}", ratio("init_ms", &runs, true)),
        ));
    }
    writeln!(page, "| figure | value |\n|---|---|").expect("string");
    for (label, value) in rows {
        writeln!(page, "| {label} | {value} |").expect("string");
    }
    page.push('\n');
    Ok(())
}

/// Runs the entries and writes the page.
pub fn run(args: &ReportArgs) -> Result<(), CliError> {
    let exe = std::env::current_exe().map_err(|e| CliError::Other(e.to_string()))?;
    let dir = std::env::temp_dir().join(format!("throng-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|source| CliError::Write {
        path: dir.clone(),
        source,
    })?;
    let mut page = String::new();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let round_trip = |page: &mut String, when: &str| {
        if let Some(ns) = crate::machine::core_round_trip_ns(TRIPS) {
            writeln!(
                page,
                "Core-to-core round trip of a cache line {when}: {ns:.0} ns (two-thread figures \
                 move with it; see `cli/src/machine.rs`).\n"
            )
            .expect("string");
        }
        if let Some(h) = crate::machine::core_handovers(HANDOVERS) {
            writeln!(
                page,
                "A thread spinning on the other core answered {} hand-overs (one every 0.5 ms) \
                 {when} in {:.1} µs at the median; {} waited over 1 ms, the longest {:.2} ms \
                 (the other core busy with something else: a worker joins a tick that late).\n",
                h.count, h.median_us, h.over_1ms, h.longest_ms
            )
            .expect("string");
        }
    };
    writeln!(
        page,
        "# Benchmarks\n\nWritten by `throng report` (`cargo run --release -- report`), which runs each \
         command below afresh and copies the figures from its JSON summary. Machine: {cores} cores. \
         Times are wall-clock and move with the machine's load; compare figures of one page, not \
         across pages. A tick's time is the whole step: calls applied, planning, moves, state \
         updates and the validator's check of the moves.\n"
    )
    .expect("writing to a string");
    writeln!(
        page,
        "One thread's speed: 20 breadth-first distance tables over a 512×512 map took {:.0} ms (the best of three; timings of pages written on different machines compare through it).\n",
        crate::machine::single_thread_ms()
    )
    .expect("string");
    round_trip(&mut page, "before the runs");
    for (k, e) in entries(&args.maps).into_iter().enumerate() {
        if args.only.as_deref().is_some_and(|o| !e.title.contains(o)) {
            continue;
        }
        let command = format!("throng {}", e.args.join(" "));
        writeln!(
            page,
            "## {}\n\n{}.\n\n```sh\n{command}\n```\n",
            e.title, e.what
        )
        .expect("string");
        let map = e.args.iter().skip_while(|a| *a != "--map").nth(1);
        if e.large_map && !map.is_some_and(|m| Path::new(m).exists()) {
            writeln!(
                page,
                "Not run: the benchmark map `{}` is not there.\n",
                map.map_or("?", String::as_str)
            )
            .expect("string");
            continue;
        }
        let json = dir.join(format!("{k}.json"));
        eprintln!("report: {command}");
        let v = run_summary(&exe, &e.args, &[], &json, &command)?;
        writeln!(page, "| figure | value |\n|---|---|").expect("string");
        for f in &e.figures {
            writeln!(
                page,
                "| {} | {} |",
                f.label,
                format_value(v.pointer(f.pointer), f.decimals)
            )
            .expect("string");
        }
        page.push('\n');
    }
    if args.only.as_deref().is_none_or(|o| PAIRS_TITLE.contains(o)) {
        pairs_section(&exe, &dir, &args.maps, &mut page)?;
    }
    let _ = std::fs::remove_dir_all(&dir);
    round_trip(&mut page, "after the runs");
    write_file(&args.out, page)?;
    eprintln!("report: wrote {}", args.out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn medians_of_odd_even_and_no_runs() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(Vec::new()).is_nan());
    }
}
