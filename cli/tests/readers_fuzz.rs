//! The readers on a few thousand generated inputs each (5,000), on the stable
//! toolchain, in every `cargo test`: mutations of the fuzz seed corpora
//! (`fuzz/corpus/<target>/`) drawn from a seeded generator, so every run
//! tries the same inputs and a failure names the one that broke. The
//! harnesses are the fuzz targets' own (`throng_cli::fuzz`): no panic, and
//! each reader's guarantees on what it accepts. The coverage-guided fuzzers
//! (`fuzz/run-all.sh`) go much further; this keeps the seeds and their near
//! neighbours honest on every change.

use std::path::PathBuf;

/// Inputs per reader, the seeds included.
const INPUTS: usize = 5_000;

/// Bytes the mutations insert: each format's punctuation, digits, line
/// ends, a multi-byte character and a byte that is not UTF-8.
const ALPHABET: &[&[u8]] = &[
    b".",
    b"@",
    b"T",
    b"G",
    b"(",
    b")",
    b",",
    b":",
    b"=",
    b"\n",
    b"\r\n",
    b"\t",
    b" ",
    b"\"",
    b"[",
    b"]",
    b"{",
    b"}",
    b"#",
    b"-",
    b"x",
    b"0",
    b"1",
    b"9",
    "\u{20ac}".as_bytes(),
    b"\xff",
    b"4294967295",
    b"4294967296",
    b"18446744073709551616",
    b"-1",
    b"1e309",
    b"NaN",
    b"inf",
    b"solution=",
    b"agents=",
    b"makespan=",
    b"version 1",
    b"height ",
    b"width ",
    b"map\n",
    b"window = ",
    b"max_ticks = ",
    b"threads = ",
    b"generate = \"",
    b"spawn",
    b"despawn",
    b"goal",
    b"push_goal",
    b"stop",
    b"block",
    b"unblock",
    b"priority",
    b" size ",
    b" pace ",
    b" curves",
    b"100000000",
    b"100000001",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let seeds: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    assert!(seeds.len() >= 3, "{}: too few seeds", dir.display());
    seeds
}

/// One edit of a random seed (half the time), or up to four, some of them
/// splices with another seed.
fn mutate(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut v = seeds[rng.below(seeds.len())].clone();
    let edits = if rng.below(2) == 0 {
        1
    } else {
        1 + rng.below(4)
    };
    for _ in 0..edits {
        let at = rng.below(v.len() + 1);
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 => {
                let ins = ALPHABET[rng.below(ALPHABET.len())];
                v.splice(at..at, ins.iter().copied());
            }
            2 if at < v.len() => {
                let end = (at + 1 + rng.below(16)).min(v.len());
                v.drain(at..end);
            }
            3 if at < v.len() => {
                // Repeat a stretch: long rows, many rows, many ticks.
                let end = (at + 1 + rng.below(64)).min(v.len());
                let chunk = v[at..end].to_vec();
                for _ in 0..1 + rng.below(8) {
                    v.splice(at..at, chunk.iter().copied());
                }
            }
            4 => {
                // Splice: this seed's head, another's tail.
                let other = &seeds[rng.below(seeds.len())];
                let from = rng.below(other.len() + 1);
                v.truncate(at);
                v.extend_from_slice(&other[from..]);
            }
            5 => v.truncate(at),
            _ => {
                // A digit run replaced by an extreme number.
                if let Some(i) = (at..v.len()).find(|&i| v[i].is_ascii_digit()) {
                    let end = (i..v.len())
                        .find(|&j| !v[j].is_ascii_digit())
                        .unwrap_or(v.len());
                    let n: &[u8] = match rng.below(4) {
                        0 => b"0",
                        1 => b"4294967295",
                        2 => b"99999999999999999999",
                        _ => b"65536",
                    };
                    v.splice(i..end, n.iter().copied());
                }
            }
        }
    }
    v
}

fn exercise(target: &str, harness: fn(&[u8]) -> bool) {
    let seeds = seeds(target);
    let mut rng = Rng(0x5EED_0000 ^ (target.len() as u64 * 0x9E37_79B9_7F4A_7C15));
    let mut inputs: Vec<Vec<u8>> = seeds.clone();
    while inputs.len() < INPUTS {
        inputs.push(mutate(&mut rng, &seeds));
    }
    let mut accepted = 0;
    for (i, input) in inputs.iter().enumerate() {
        match std::panic::catch_unwind(|| harness(input)) {
            Ok(ok) => accepted += usize::from(ok),
            Err(_) => panic!(
                "{target} reader, input {i} of {INPUTS}, broke on {:?}",
                String::from_utf8_lossy(input)
            ),
        }
    }
    // The mutations must reach the readers' accepting paths too, not only
    // their first error.
    assert!(
        accepted * 50 >= INPUTS,
        "{target}: only {accepted} of {INPUTS} inputs accepted"
    );
    eprintln!("{target}: {accepted} of {INPUTS} inputs accepted");
}

#[test]
fn map_reader() {
    exercise("map", throng_cli::fuzz::map);
}

#[test]
fn scenario_reader() {
    exercise("scenario", throng_cli::fuzz::scenario);
}

#[test]
fn plan_reader() {
    exercise("plan", throng_cli::fuzz::plan);
}

#[test]
fn profile_reader() {
    exercise("profile", throng_cli::fuzz::profile);
}

#[test]
fn events_reader() {
    exercise("events", throng_cli::fuzz::events);
}
