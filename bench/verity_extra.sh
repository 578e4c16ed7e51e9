#!/usr/bin/env bash
# verity-only measurements, run by run.sh inside `unshare --net` (loopback only):
# start-up (hyperfine), and a look at where the time goes at N=2000 (perf stat, strace -c,
# a flat perf profile, and the database on tmpfs vs on disk).
# usage (inside a fresh net namespace): verity_extra.sh BENCH_DIR OUT_DIR
set -euo pipefail
BENCH=$1; OUT=$2
cd "$BENCH"; mkdir -p "$OUT"; OUT=$(realpath "$OUT")
ip link set lo up
V=$BENCH/bin/verity
URL=http://127.0.0.1:18080/v1
RUNARGS=(--provider openai --model gpt-4o-mini --base-url "$URL" --scorer equals --concurrency 50 --quiet)
"$V" run --help | grep -q -- '--cache' && RUNARGS+=(--cache off)   # parity: peers run uncached

MOCK_PID=
start_mock() {   # $1 = latency ms
  LATENCY_MS=$1 PORT=18080 ./venv/bin/python mock_server.py > "$OUT/mock_$1ms.log" 2>&1 &
  MOCK_PID=$!
  for _ in $(seq 100); do curl -sf http://127.0.0.1:18080/v1/models >/dev/null 2>&1 && return; sleep 0.1; done
  echo "mock did not start" >&2; exit 1
}
stop_mock() { [ -n "$MOCK_PID" ] && kill "$MOCK_PID" && wait "$MOCK_PID" 2>/dev/null || true; MOCK_PID=; }
trap stop_mock EXIT
fresh() { rm -f "$1" "$1-wal" "$1-shm"; }

start_mock 0
# --- start-up
hyperfine -N --warmup 5 --runs 100 --export-json "$OUT/hf_version.json" "$V --version" | tee "$OUT/hf_version.txt"
H1=$OUT/h1.db
hyperfine -N --warmup 3 --runs 50 --prepare "rm -f $H1 $H1-wal $H1-shm" --export-json "$OUT/hf_run_n1.json" \
  "$V run data/N1/samples.jsonl ${RUNARGS[*]} --db $H1" | tee "$OUT/hf_run_n1.txt"

# --- 1-sample run: database on disk vs tmpfs, and its fsyncs (where the start-up wall goes)
S1=/dev/shm/verity_bench_h1_$$.db
hyperfine -N --warmup 3 --runs 30 --export-json "$OUT/hf_run_n1_disk_vs_tmpfs.json" \
  --prepare "rm -f $H1 $H1-wal $H1-shm $S1 $S1-wal $S1-shm" \
  -n disk "$V run data/N1/samples.jsonl ${RUNARGS[*]} --db $H1" \
  -n tmpfs "$V run data/N1/samples.jsonl ${RUNARGS[*]} --db $S1" | tee "$OUT/hf_run_n1_disk_vs_tmpfs.txt"
fresh "$S1"; fresh "$H1"
strace -f -c -o "$OUT/strace_c_N1.txt" "$V" run data/N1/samples.jsonl "${RUNARGS[@]}" --db "$H1" || true
fresh "$H1"
strace -f -T -e trace=fsync,fdatasync,openat -o "$OUT/strace_fsync_N1.txt" "$V" run data/N1/samples.jsonl "${RUNARGS[@]}" --db "$H1" || true
fresh "$H1"

# --- N=20000 at 0 ms: RSS and CPU over time (1/10 s), then `verity report` cost at 2,000 vs 20,000
for n in 2000 20000; do
  R=$OUT/rss_run_N$n.db; fresh "$R"
  "$V" run data/N$n/samples.jsonl "${RUNARGS[@]}" --db "$R" & P=$!
  T0=$(date +%s%N)
  while kill -0 $P 2>/dev/null; do
    echo "$(( ($(date +%s%N) - T0) / 1000000 )) $(awk '/VmRSS/{print $2}' /proc/$P/status 2>/dev/null) $(awk '{print $14+$15}' /proc/$P/stat 2>/dev/null)" >> "$OUT/rss_timeline_N$n.txt"
    sleep 0.1
  done
  wait $P
  for i in 1 2 3; do
    /usr/bin/time -f "%e %U %S %M" -a -o "$OUT/report_time_N$n.txt" "$V" report latest --db "$R" --format table > /dev/null
  done
  fresh "$R"
done

# --- N=2000 at 0 ms: database on disk vs tmpfs (is it the storage?)
DDISK=$OUT/disk.db; DSHM=/dev/shm/verity_bench_$$.db
hyperfine -N --warmup 1 --runs 5 --export-json "$OUT/hf_n2000_disk_vs_tmpfs.json" \
  --prepare "rm -f $DDISK $DDISK-wal $DDISK-shm $DSHM $DSHM-wal $DSHM-shm" \
  -n disk "$V run data/N2000/samples.jsonl ${RUNARGS[*]} --db $DDISK" \
  -n tmpfs "$V run data/N2000/samples.jsonl ${RUNARGS[*]} --db $DSHM" | tee "$OUT/hf_n2000_disk_vs_tmpfs.txt"
fresh "$DSHM"

# --- where the time goes, N=2000 at 0 ms
D=$OUT/p.db
fresh "$D"; perf stat -d -o "$OUT/perf_stat_N2000_L0.txt" "$V" run data/N2000/samples.jsonl "${RUNARGS[@]}" --db "$D" || true
fresh "$D"; strace -c -f -o "$OUT/strace_c_N2000_L0.txt" "$V" run data/N2000/samples.jsonl "${RUNARGS[@]}" --db "$D" || true
fresh "$D"; perf record -F 1999 -o "$OUT/perf_N2000_L0.data" "$V" run data/N2000/samples.jsonl "${RUNARGS[@]}" --db "$D" 2>"$OUT/perf_record.log" || true
perf report -i "$OUT/perf_N2000_L0.data" --no-children --sort dso --stdio 2>/dev/null | grep -v '^$' | head -40 > "$OUT/perf_report_dso.txt" || true
perf report -i "$OUT/perf_N2000_L0.data" --no-children --sort dso,sym --stdio 2>/dev/null | grep -v '^$' | head -80 > "$OUT/perf_report_sym.txt" || true
# --- N=20000 at 0 ms: flat profile (the end-of-run reload and report view show up here)
fresh "$D"; perf record -F 999 -o "$OUT/perf_N20000_L0.data" "$V" run data/N20000/samples.jsonl "${RUNARGS[@]}" --db "$D" 2>>"$OUT/perf_record.log" || true
perf report -i "$OUT/perf_N20000_L0.data" --no-children --sort dso,sym --stdio 2>/dev/null | grep -v '^$' | head -60 > "$OUT/perf_report_sym_N20000.txt" || true
stop_mock

# --- same at 50 ms (perf stat only)
start_mock 50
fresh "$D"; perf stat -d -o "$OUT/perf_stat_N2000_L50.txt" "$V" run data/N2000/samples.jsonl "${RUNARGS[@]}" --db "$D" || true
stop_mock
fresh "$D"
echo "extra results in $OUT"
