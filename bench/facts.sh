#!/usr/bin/env bash
# Speed of `verity facts extract` (issue 15: a 100k-line repository in a few seconds on one
# core). Obtains a pinned real codebase from the npm registry with npm itself — three.js 0.160.0,
# whose tarball ships its JavaScript sources (src/, examples/jsm/, the builds): 948 files kept by
# the walk, 926 of them JavaScript with 435k lines — checks the tarball's sha256, builds verity in
# release and extracts the facts RUNS times pinned to one core (`taskset -c 0`), under
# /usr/bin/time, checking that every run writes the same bytes.
#
# usage: bash bench/facts.sh [RUNS] [WORKDIR]
#
# Prints the machine's CPU model and load, the summary line of the extraction, each run's wall
# and CPU seconds and max RSS, and the medians.
set -euo pipefail
runs=${1:-5}
work=${2:-${TMPDIR:-/tmp}/verity-bench-facts}
pkg=three
ver=0.160.0
sha256=1ee2f935c4f555814b388e87b5ef78a44856bd2e9d0feb88643a6e193fb42856
cd "$(dirname "$0")/.."
mkdir -p "$work"
tarball="$work/$pkg-$ver.tgz"
if [ ! -f "$tarball" ]; then
  (cd "$work" && npm pack --silent "$pkg@$ver" >/dev/null)
fi
echo "$sha256  $tarball" | sha256sum -c --quiet - || {
  echo "bench/facts.sh: $tarball does not have the pinned sha256" >&2
  exit 1
}
rm -rf "$work/repo"
mkdir -p "$work/repo"
tar xzf "$tarball" -C "$work/repo" --strip-components=1
cargo build --release -q -p verity
target=${CARGO_TARGET_DIR:-target}
bin="$work/verity"
cp "$target/release/verity" "$bin"
grep -m1 "model name" /proc/cpuinfo || true
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$bin" facts extract "$work/repo" --name "$pkg" --version "$ver" --out "$work/facts.json"
: > "$work/times"
for i in $(seq "$runs"); do
  /usr/bin/time -f "%e %U %S %M" -o "$work/time.$i" \
    taskset -c 0 "$bin" facts extract "$work/repo" --name "$pkg" --version "$ver" \
    --out "$work/facts.$i.json" 2>/dev/null
  read -r wall user sys rss < "$work/time.$i"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  echo "run $i: wall ${wall} s, CPU ${cpu} s, max RSS $((rss / 1024)) MiB"
  echo "$wall $cpu $rss" >> "$work/times"
  cmp -s "$work/facts.json" "$work/facts.$i.json" || echo "run $i: facts differ from the first extraction"
done
median() { sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m }'; }
echo "median of $runs (one core): wall $(cut -d' ' -f1 "$work/times" | median) s, CPU $(cut -d' ' -f2 "$work/times" | median) s, max RSS $(( $(cut -d' ' -f3 "$work/times" | median | cut -d. -f1) / 1024 )) MiB"
