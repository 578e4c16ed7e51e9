#!/usr/bin/env python3
"""Per-thread CPU use of a process over time, from /proc/PID/task/*/stat.

    bench/threadstat.py [--interval S] [--out FILE.tsv] -- COMMAND ARGS...

Runs COMMAND, samples every thread of it (and of its children) every S seconds (default
0.5), and prints at the end: wall time, user+sys CPU seconds, their ratio (cores busy on
average), CPU seconds per thread name (numbers in names folded: verity-local-0 and
verity-local-1 stay apart, tokio-runtime-worker threads are summed), and the share of
samples in which the process as a whole kept at least 85 % of the machine's cores busy.
With --out, every interval's busy cores per thread name are written as TSV (time, name,
cores) for plotting.
"""
import argparse
import os
import subprocess
import sys
import time
from collections import defaultdict

TICK = os.sysconf("SC_CLK_TCK")


def descendants(pid):
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo.extend(int(c) for c in f.read().split())
        except OSError:
            pass
    return out


def threads(pids):
    """{(pid, tid): (name, utime+stime ticks)}"""
    seen = {}
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    s = f.read()
            except OSError:
                continue
            name = s[s.index("(") + 1 : s.rindex(")")]
            rest = s[s.rindex(")") + 2 :].split()
            # fields 14 and 15 (utime, stime) are rest[11], rest[12]
            seen[(pid, int(tid))] = (name, int(rest[11]) + int(rest[12]))
    return seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--interval", type=float, default=0.5)
    ap.add_argument("--out")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        ap.error("no command")
    ncpu = os.cpu_count() or 1
    t0 = time.monotonic()
    child = subprocess.Popen(cmd)
    last = {}
    total = defaultdict(int)  # name -> ticks
    rows = []
    busy_samples = 0
    samples = 0
    with open("/proc/loadavg") as f:
        load_start = f.read().split()[0]
    while True:
        done = child.poll() is not None
        now = time.monotonic() - t0
        cur = threads(descendants(child.pid)) if not done else {}
        step = defaultdict(int)
        for key, (name, ticks) in cur.items():
            prev = last.get(key, (name, 0))[1]
            step[name] += ticks - prev
            total[name] += ticks - prev
        last.update(cur)
        if cur:
            cores = sum(step.values()) / TICK / a.interval
            samples += 1
            busy_samples += cores >= 0.85 * ncpu
            for name, ticks in step.items():
                rows.append((now, name, ticks / TICK / a.interval))
        if done:
            break
        time.sleep(a.interval)
    wall = time.monotonic() - t0
    with open("/proc/loadavg") as f:
        load_end = f.read().split()[0]
    cpu = sum(total.values()) / TICK
    print(f"wall {wall:.2f} s, sampled CPU {cpu:.2f} s, cores busy on average "
          f"{cpu / wall:.2f} of {ncpu}; samples with >= 85% of the cores busy: "
          f"{busy_samples}/{samples}; load average {load_start} -> {load_end}", file=sys.stderr)
    for name, ticks in sorted(total.items(), key=lambda kv: -kv[1]):
        if ticks:
            print(f"  {name:24s} {ticks / TICK:8.2f} s", file=sys.stderr)
    if a.out:
        with open(a.out, "w") as f:
            for t, name, c in rows:
                f.write(f"{t:.2f}\t{name}\t{c:.3f}\n")
    sys.exit(child.returncode)


if __name__ == "__main__":
    main()
