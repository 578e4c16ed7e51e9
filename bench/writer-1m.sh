#!/usr/bin/env bash
# The single writer under a provider faster than SQLite: 1,000,000 samples on the in-process
# `mock` provider (no network, no latency), concurrency 50, cache off.
#
# usage: bash bench/writer-1m.sh VERITY_BINARY [SCRATCH_DIR] [N]
#
# Prints, for the binary given:
#   full   — the whole run: wall s, samples/s, max RSS MiB, RSS every second (MiB), stored;
#   term   — SIGTERM 5 s into answering (after the dataset has streamed into the store):
#            seconds from the signal to exit, and stored samples;
#   kill9  — SIGKILL 12 s into answering (progress prints a line every 10 s): the largest
#            count progress printed vs the samples stored.
set -euo pipefail
bin=$(realpath "$1")
dir=${2:-/tmp/verity-writer-1m}
n=${3:-1000000}
mkdir -p "$dir"
cd "$dir"
if [ ! -f "data-$n.jsonl" ]; then
  python3 - "$n" <<'EOF'
import json, sys
n = int(sys.argv[1])
with open(f"data-{n}.jsonl", "w") as f:
    for i in range(n):
        f.write(json.dumps({"id": f"t{i:07d}", "input": f"What is {i} + 1?", "target": str(i + 1)}) + "\n")
EOF
fi
args=(run "data-$n.jsonl" --provider mock --scorer equals --cache off --concurrency 50)
stored() { sqlite3 "$1" "select count(*) from samples" 2>/dev/null || echo "?"; }
# Waits until the run in database $1 has stored a sample (the dataset has streamed in), then $2 s.
answering() {
  until [ "$(sqlite3 "$1" "select count(*) from samples" 2>/dev/null || echo 0)" -gt 0 ] 2>/dev/null; do
    sleep 0.2
  done
  sleep "$2"
}

# full run, RSS sampled every second
rm -f full.db*
start=$(date +%s.%N)
/usr/bin/time -f '%M' -o full.time "$bin" "${args[@]}" --quiet --db full.db &
tpid=$!
sleep 0.2
vpid=$(pgrep -P "$tpid" || true)
rss=()
while kill -0 "$tpid" 2>/dev/null; do
  if [ -n "$vpid" ] && [ -r "/proc/$vpid/status" ]; then
    rss+=("$(awk '/VmRSS/ {printf "%.0f", $2/1024}' "/proc/$vpid/status")")
  fi
  sleep 1
done
wait "$tpid" || true
end=$(date +%s.%N)
wall=$(echo "$end - $start" | bc)
maxrss=$(($(tail -1 full.time) / 1024))
s=$(stored full.db)
echo "full: wall ${wall}s, $(echo "$s / $wall" | bc) samples/s, max RSS ${maxrss} MiB, stored $s"
echo "full: RSS MiB each second: ${rss[*]}"

# SIGTERM 5 s into answering
rm -f term.db*
"$bin" "${args[@]}" --quiet --db term.db &
pid=$!
answering term.db 5
before=$(stored term.db)
t0=$(date +%s.%N)
kill -TERM "$pid"
wait "$pid" || true
t1=$(date +%s.%N)
echo "term: exit $(echo "$t1 - $t0" | bc) s after SIGTERM; stored $before before it, $(stored term.db) after"

# SIGKILL 12 s into answering, progress on (plain lines, every 10 % or 10 s)
rm -f kill.db*
"$bin" "${args[@]}" --db kill.db 2>kill.log >/dev/null &
pid=$!
answering kill.db 12
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
said=$(grep -oE '^[0-9]+/[0-9]+ samples' kill.log | cut -d/ -f1 | sort -n | tail -1 || true)
echo "kill9: progress said ${said:-0}, stored $(stored kill.db)"
