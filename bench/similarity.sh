#!/usr/bin/env bash
# Speed of the `similarity` scorer (issue 14: 50 epochs of a 1 MB JSON answer in well under a
# second): builds crates/verity-oracles/examples/similarity.rs in release and runs it — 50
# answers of about 1 MiB that all differ a little, scored REPS times at the default threshold
# (the task passes) and at threshold 1 (it fails, so every epoch is also diffed) — under
# /usr/bin/time for CPU seconds and max RSS.
#
# usage: bash bench/similarity.sh [EPOCHS] [REPS]
#
# Prints the machine's CPU model, each repetition and the medians.
set -euo pipefail
epochs=${1:-50}
reps=${2:-5}
cd "$(dirname "$0")/.."
cargo build --release -q -p verity-oracles --example similarity
target=${CARGO_TARGET_DIR:-target}
grep -m1 "model name" /proc/cpuinfo || true
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "process: user %U s, sys %S s, wall %e s, max RSS %M KiB" \
  "$target/release/examples/similarity" "$epochs" "$reps"
