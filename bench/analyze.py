#!/usr/bin/env python3
"""Summarize a bench/run.sh result directory (runs/verity-<stamp>) into the markdown used in
BENCHMARKS.md: per-latency tables, verity's ratios vs the best peer, start-up, the
2,000 vs 20,000-sample memory check, DB size per sample, and the targets.
usage: analyze.py OUTDIR"""
import json
import os
import re
import statistics as st
import sys
from collections import defaultdict

out = sys.argv[1]
PEERS = ["inspect_ai", "promptfoo_nowrite_nodebuglog", "lm_eval"]
ORDER = ["raw_aiohttp"] + PEERS + ["verity"]
LABEL = {"raw_aiohttp": "reference: bare aiohttp client (no harness)",
         "inspect_ai": "inspect_ai", "lm_eval": "lm-eval (local-chat-completions)",
         "promptfoo_nowrite_nodebuglog": "promptfoo --no-write, PROMPTFOO_DISABLE_DEBUG_LOG=1",
         "verity": "**verity**"}
VKEY = {"raw_aiohttp": "aiohttp", "inspect_ai": "inspect_ai", "lm_eval": "lm_eval",
        "promptfoo_nowrite_nodebuglog": "promptfoo", "verity": "verity"}
vers = {}
if os.path.exists(os.path.join(out, "versions.txt")):
    for line in open(os.path.join(out, "versions.txt")):
        if "=" in line:
            k, v = line.strip().split("=", 1)
            vers[k] = v


def load(sub):
    p = os.path.join(out, sub, "runs.jsonl")
    g = defaultdict(list)
    if not os.path.exists(p):
        return g
    for line in open(p):
        r = json.loads(line)
        if not r.get("warmup"):
            g[(r["harness"], r["n"], r["latency_ms"])].append(r)
    return g


med = st.median
ok = lambda r: r["ok"] and r["mock_requests"] == r["n"]
mib = lambda kb: kb / 1024


def cell(rs):
    w = [r["wall_s"] for r in rs]
    return dict(wall=med(w), wmin=min(w), wmax=max(w), cpu=med([r["cpu_s"] for r in rs]),
                rss=mib(med([r["max_rss_kb"] for r in rs])),
                tree=mib(med([r["tree_rss_peak_kb"] for r in rs])),
                ok=sum(ok(r) for r in rs), reps=len(rs),
                mcpu=med([r["mock_cpu_s"] for r in rs]),
                infl=med([r["mock_max_in_flight"] for r in rs]))


def db_bytes(r):
    m = re.search(r"db_bytes=(\d+)", r.get("detail", ""))
    return int(m.group(1)) if m else None


def sps(n, wall):
    return f"{n / wall:.0f}" if wall > 0 else "- (wall < 0.01 s)"


def ratio(peer, mine):
    # /usr/bin/time reports wall and CPU in 10 ms steps: a 0.00 means below 0.01 s
    return f"{peer / mine:.1f}×" if mine > 0 else f"> {peer / 0.01:.0f}× (verity < 0.01 s)"


main = load("main")
print(f"verity {vers.get('verity', '?')}; peers: inspect_ai {vers.get('inspect_ai')}, "
      f"promptfoo {vers.get('promptfoo')}, lm_eval {vers.get('lm_eval')}, aiohttp {vers.get('aiohttp')}; "
      f"python {vers.get('python')}, node {vers.get('node')}\n")
lats = sorted({k[2] for k in main})
summary = {}
for lat in lats:
    for n in (2000, 1):
        print(f"### N = {n}, latency {lat} ms (concurrency 50, 5 reps, median (min–max))\n")
        print("| harness | version | runs ok | wall s | CPU s (user+sys) | max RSS MiB | process-tree peak MiB | samples/s | mock max in-flight | mock CPU s |")
        print("|---|---|---:|---|---:|---:|---:|---:|---:|---:|")
        for h in ORDER:
            if (h, n, lat) not in main:
                continue
            c = cell(main[(h, n, lat)])
            summary[(h, n, lat)] = c
            print(f"| {LABEL[h]} | {vers.get(VKEY[h], '?')} | {c['ok']}/{c['reps']} | "
                  f"{c['wall']:.2f} ({c['wmin']:.2f}–{c['wmax']:.2f}) | {c['cpu']:.2f} | {c['rss']:.0f} | "
                  f"{c['tree']:.0f} | {sps(n, c['wall'])} | {c['infl']:.0f} | {c['mcpu']:.2f} |")
        print()

print("### verity vs the best peer (medians; best peer chosen per metric among inspect_ai, promptfoo, lm-eval)\n")
print("| N | latency ms | metric | verity | best peer | peer value | peer / verity | bare aiohttp client |")
print("|---:|---:|---|---:|---|---:|---:|---:|")
for lat in lats:
    for n in (2000, 1):
        v = summary.get(("verity", n, lat))
        if not v:
            continue
        for key, name, unit in (("wall", "wall", "s"), ("cpu", "CPU", "s"), ("rss", "max RSS", "MiB")):
            peers = [(summary[(p, n, lat)][key], p) for p in PEERS if (p, n, lat) in summary]
            if not peers:
                continue
            best, bp = min(peers)
            raw = summary.get(("raw_aiohttp", n, lat), {}).get(key)
            fmtv = (lambda x: f"{x:.0f} {unit}") if unit == "MiB" else (lambda x: f"{x:.2f} {unit}")
            print(f"| {n} | {lat} | {name} | {fmtv(v[key])} | {LABEL[bp]} | {fmtv(best)} | "
                  f"{ratio(best, v[key])} | {fmtv(raw) if raw is not None else '-'} |")
print()

# start-up and the other verity-only looks (verity_extra.sh), one block per extra* directory
import glob  # noqa: E402
for ex in sorted(glob.glob(os.path.join(out, "extra*"))):
    print(f"#### {os.path.basename(ex)}\n")
    for f, what in (("hf_version.json", "`verity --version`"), ("hf_run_n1.json", "`verity run` of 1 sample (0 ms mock, fresh DB)")):
        p = os.path.join(ex, f)
        if os.path.exists(p):
            for r in json.load(open(p))["results"]:
                t = r["times"]
                print(f"- start-up {what}: median {med(t) * 1000:.1f} ms, mean {r['mean'] * 1000:.1f} ± "
                      f"{r['stddev'] * 1000:.1f} ms, min {min(t) * 1000:.1f} ms, max {max(t) * 1000:.1f} ms "
                      f"(user {r['user'] * 1000:.1f} ms, sys {r['system'] * 1000:.1f} ms; {len(t)} runs)")
    p = os.path.join(ex, "hf_run_n1_disk_vs_tmpfs.json")
    if os.path.exists(p):
        for r in json.load(open(p))["results"]:
            t = r["times"]
            print(f"- 1-sample run, DB on {r['command']}: median {med(t) * 1000:.1f} ms (min {min(t) * 1000:.1f}, "
                  f"max {max(t) * 1000:.1f}; user {r['user'] * 1000:.1f} ms, sys {r['system'] * 1000:.1f} ms; {len(t)} runs)")
    p = os.path.join(ex, "strace_fsync_N1.txt")
    if os.path.exists(p):
        fs = [float(m.group(1)) for m in re.finditer(r"f(?:data)?sync\(.*<([\d.]+)>", open(p).read())]
        print(f"- 1-sample run: {len(fs)} fsync/fdatasync calls, {sum(fs) * 1000:.1f} ms in them (strace -T)")
    for n in (2000, 20000):
        p = os.path.join(ex, f"report_time_N{n}.txt")
        if os.path.exists(p):
            rows = [l.split() for l in open(p) if re.match(r"^[\d.]+ ", l)]
            print(f"- `verity report latest --format table` on a {n:,}-sample run: wall median "
                  f"{med([float(r[0]) for r in rows]):.2f} s, user {med([float(r[1]) for r in rows]):.2f} s, "
                  f"max RSS {med([int(r[3]) for r in rows]) / 1024:.0f} MiB ({len(rows)} runs)")
        p = os.path.join(ex, f"rss_timeline_N{n}.txt")
        if os.path.exists(p):
            rows = [l.split() for l in open(p) if len(l.split()) == 3]
            if rows:
                pts = rows[:: max(1, len(rows) // 12)] + [rows[-1]]
                print(f"- RSS timeline N={n:,} (ms: MiB, CPU ticks): " +
                      ", ".join(f"{r[0]}: {int(r[1]) / 1024:.0f} ({r[2]})" for r in pts))
    p = os.path.join(ex, "hf_n2000_disk_vs_tmpfs.json")
    if os.path.exists(p):
        for r in json.load(open(p))["results"]:
            t = r["times"]
            print(f"- N=2000, 0 ms, DB on {r['command']}: wall median {med(t):.2f} s (min {min(t):.2f}, max {max(t):.2f}), "
                  f"user {r['user']:.2f} s, sys {r['system']:.2f} s (mean of {len(t)})")
    print()


# memory flatness and DB size
big = load("n20k")
if big:
    print("### verity alone: 2,000 vs 20,000 samples (5 reps, medians)\n")
    print("| latency ms | N | runs ok | wall s (min–max) | CPU s | CPU ms/sample | max RSS MiB (min–max) | samples/s | DB bytes (median) | DB bytes/sample |")
    print("|---:|---:|---:|---|---:|---:|---|---:|---:|---:|")
    for lat in sorted({k[2] for k in big}):
        for n in sorted({k[1] for k in big if k[2] == lat}):
            rs = big[("verity", n, lat)]
            c = cell(rs)
            rss = [mib(r["max_rss_kb"]) for r in rs]
            dbs = [db_bytes(r) for r in rs if db_bytes(r)]
            dbm = med(dbs) if dbs else None
            print(f"| {lat} | {n} | {c['ok']}/{c['reps']} | {c['wall']:.2f} ({c['wmin']:.2f}–{c['wmax']:.2f}) | "
                  f"{c['cpu']:.2f} | {c['cpu'] / n * 1000:.2f} | {c['rss']:.1f} ({min(rss):.1f}–{max(rss):.1f}) | "
                  f"{sps(n, c['wall'])} | {dbm:,.0f} | {dbm / n:,.0f} |" if dbm else "")
        ns = sorted({k[1] for k in big if k[2] == lat})
        if len(ns) == 2:
            a, b = (big[("verity", n, lat)] for n in ns)
            da = med([db_bytes(r) for r in a]); db = med([db_bytes(r) for r in b])
            ra = mib(med([r["max_rss_kb"] for r in a])); rb = mib(med([r["max_rss_kb"] for r in b]))
            print(f"| {lat} | Δ | | | | | +{rb - ra:.1f} MiB ({rb / ra:.2f}×) | | +{db - da:,.0f} | "
                  f"{(db - da) / (ns[1] - ns[0]):,.0f} (marginal) |")
    print()
