#!/usr/bin/env bash
# Reproduces BENCHMARKS.md: verity measured side by side with the peers of
# ../shared/bench (inspect_ai, promptfoo, lm-evaluation-harness, a bare aiohttp client)
# on the same fake-OpenAI workload, in one sitting.
#
# usage: bench/run.sh [SCRATCH_DIR]        (default: $BENCH, else /tmp/peerbench)
#   env: REPS (default 5), VERITY_SRC=head|worktree (default head), PEERBENCH_SRC (default: ../shared/bench beside this repo),
#        SKIP_MAIN=1 / SKIP_20K=1 / SKIP_EXTRA=1 to leave out a part.
# Needs root (apt-get, unshare --net) and the package registries for the first set-up.
# Steps: copy the peer bench to SCRATCH_DIR, install the peers as its README says, generate the
# data sets (1, 2000, 20000), patch verity in as one more bench.py harness (patch_bench.py +
# verity_harness.py), build verity's committed HEAD in release and copy the binary into SCRATCH_DIR/bin (so
# rebuilds by others cannot change it mid-run), then run
#   1. the main grid: every harness x N {1,2000} x latency {0,50} ms, 5 reps + 1 warm-up;
#   2. verity alone at N {2000,20000} x {0,50} ms (memory flatness, DB size per sample);
#   3. verity start-up (hyperfine) and a perf stat / strace -c look (verity_extra.sh);
# and summarize everything into SCRATCH_DIR/runs/verity-<stamp>/.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
BENCH=$(realpath -m "${1:-${BENCH:-/tmp/peerbench}}")
SRC=${PEERBENCH_SRC:-$(realpath -m "$REPO/../shared/bench")}
[ -f "$SRC/bench.py" ] || { echo "no peer bench at $SRC (set PEERBENCH_SRC)" >&2; exit 2; }
REPS=${REPS:-5}

# --- 1. scratch copy of the peer bench
if [ ! -f "$BENCH/bench.py" ]; then
  mkdir -p "$(dirname "$BENCH")"
  cp -r "$SRC" "$BENCH"
  chmod -R u+w "$BENCH"
fi
cd "$BENCH"

# --- 2. peers, installed as $SRC/README.md says
if ! [ -x /usr/bin/time ] || ! command -v strace >/dev/null || ! command -v hyperfine >/dev/null; then
  apt-get update
  apt-get install -y time strace hyperfine
fi
[ -x venv/bin/inspect ] || { python3 -m venv venv && ./venv/bin/pip install inspect-ai openai aiohttp; }
[ -x venv-lmeval/bin/lm_eval ] || { python3 -m venv venv-lmeval && ./venv-lmeval/bin/pip install "lm-eval[api]"; }
[ -x npm/node_modules/.bin/promptfoo ] || { mkdir -p npm && (cd npm && npm init -y >/dev/null && npm install promptfoo); }
for n in 1 2000 20000; do
  [ -f "data/N$n/samples.jsonl" ] || ./venv/bin/python gen_dataset.py "$n"
done

# --- 3. verity as one more harness
./venv/bin/python "$HERE/patch_bench.py" "$BENCH"
# Default (VERITY_SRC=head): build exactly the committed HEAD, exported read-only with
# `git archive` into the scratch dir, so uncommitted edits in a shared work tree (changed
# concurrently by other work) are not measured by accident.  VERITY_SRC=worktree builds
# the work tree as it is (`cargo build --release -p verity` in the repo) and tags it +dirty.
COMMIT=$(git -C "$REPO" rev-parse --short HEAD)
DIRTY=
if [ "${VERITY_SRC:-head}" = head ]; then
  VSRC=$BENCH/verity-src-$COMMIT
  if [ ! -f "$VSRC/Cargo.toml" ]; then
    mkdir -p "$VSRC.tmp" && git -C "$REPO" archive HEAD | tar -x -C "$VSRC.tmp" && mv "$VSRC.tmp" "$VSRC"
  fi
  (cd "$VSRC" && CARGO_TARGET_DIR="$BENCH/verity-target" cargo build --release -p verity)
  VBIN=$BENCH/verity-target/release/verity
else
  (cd "$REPO" && cargo build --release -p verity)
  VBIN=${CARGO_TARGET_DIR:-$REPO/target}/release/verity
  DIRTY=$(git -C "$REPO" status --porcelain --untracked-files=no | grep -q . && echo "+dirty" || true)
fi
mkdir -p bin
cp "$VBIN" bin/verity.new && mv bin/verity.new bin/verity
./versions.sh >/dev/null
{ echo "verity=$(bin/verity --version | awk '{print $2}') ($COMMIT$DIRTY)"
  echo "verity_commit=$COMMIT$DIRTY"
  echo "cpu_model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"; } >> versions.txt
cat versions.txt

STAMP=$(date -u +%Y%m%d-%H%M%S)
OUT=runs/verity-$STAMP
mkdir -p "$OUT"
cp versions.txt "$OUT/"
echo "results: $BENCH/$OUT"
# what else is running, before and after (the machine is shared)
{ date -u; uptime; ps -eo pid,pcpu,rss,etime,comm --sort=-pcpu | head -15; } > "$OUT/load_before.txt"

# --- 4. the main grid, every harness side by side
[ -n "${SKIP_MAIN:-}" ] || ./run_bench.sh \
  --harnesses raw_aiohttp,inspect_ai,promptfoo_nowrite_nodebuglog,lm_eval,verity \
  --ns 1,2000 --latencies 0,50 --reps "$REPS" --warmup 1 --outdir "$OUT/main"
# --- 5. verity alone, 2,000 vs 20,000 samples
[ -n "${SKIP_20K:-}" ] || ./run_bench.sh \
  --harnesses verity --ns 2000,20000 --latencies 0,50 --reps "$REPS" --warmup 1 --outdir "$OUT/n20k"
# --- 6. start-up, perf stat, strace -c (loopback-only namespace, mock at 0 ms)
[ -n "${SKIP_EXTRA:-}" ] || unshare --net bash "$HERE/verity_extra.sh" "$BENCH" "$OUT/extra"

{ date -u; uptime; ps -eo pid,pcpu,rss,etime,comm --sort=-pcpu | head -15; } > "$OUT/load_after.txt"

# --- 7. tables
[ -n "${SKIP_MAIN:-}" ] || ./venv/bin/python summarize.py "$OUT/main" > "$OUT/summary_main.md"
[ -n "${SKIP_20K:-}" ] || ./venv/bin/python summarize.py "$OUT/n20k" > "$OUT/summary_n20k.md"
./venv/bin/python "$HERE/analyze.py" "$OUT" | tee "$OUT/analysis.md"
