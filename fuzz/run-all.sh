#!/usr/bin/env bash
# Runs the fuzz targets (the readers', and the live simulation's calls),
# each for SECONDS (default 60), one after another, and prints how many
# inputs each executed. Needs the nightly toolchain and cargo-fuzz (cargo
# install cargo-fuzz); see docs/fuzzing.md.
#
#   fuzz/run-all.sh [SECONDS] [TARGET...]
#
# Targets: map scenario plan profile events calls (all by default).
#
# New inputs the fuzzers find go to fuzz/found/<target>/ (not committed), the
# seeds in fuzz/corpus/<target>/ are read only. A crash stops that target,
# its input lands in fuzz/artifacts/<target>/, and the script exits 1 once
# every target has run. Builds without a sanitizer: the readers and the
# simulation are safe Rust, and a panic (overflow checks and debug
# assertions are on, and each harness's own checks) is what the targets
# look for. Each input gets 5 s and 2 GiB at most: a slower or larger one
# is reported as a crash too.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(map scenario plan profile events calls)
fi
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1}
cargo +nightly fuzz build -s none
failed=0
for t in "${targets[@]}"; do
    mkdir -p "found/$t"
    log="found/$t.log"
    if cargo +nightly fuzz run -s none "$t" "found/$t" "corpus/$t" -- \
        -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
        -max_len=8192 -print_final_stats=1 >"$log" 2>&1; then
        status="no crash"
    else
        status="CRASH (see fuzz/$log and fuzz/artifacts/$t/)"
        failed=1
    fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n 1 || true)
    corpus=$(find "found/$t" -type f | wc -l)
    echo "$t: ${runs:-?} inputs in ${secs} s, $status; ${corpus} new corpus entries"
done
exit $failed
