#!/usr/bin/env python3
"""Search quality and latency of the reference docs server, measured through the server itself.

    python3 bench/mcp-search.py [VERITY] [--index default:ios17.4] [--runs 5]

Starts `VERITY mcp serve --index INDEX` (default: target/release/verity), speaks MCP to it on
stdio and, for each labelled query of crates/verity/tests/data/search-eval.jsonl (frozen) and
search-tune.jsonl, calls the `search` tool: once with limit 50 for the mean reciprocal rank of
the first relevant document (0 when none is in the 50) and recall@5 (the share of a query's
relevant documents in the top 5, averaged), then RUNS more times with limit 5, timing each call
from request to answer. Prints one line per set: queries, MRR, recall@5, and the median and
90th percentile of those round trips (JSON-RPC over a pipe included); then the same quality
split by the query's shape (a task's whole prompt, or a phrase).

The same metrics, with floors, are a unit test of crates/verity/src/docs.rs.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "crates", "verity", "tests", "data")


def load(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


class Server:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, encoding="utf-8")
        self.next_id = 0

    def call(self, method, params):
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("the server closed its output")
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                return answer

    def notify(self, method):
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}) + "\n")
        self.p.stdin.flush()

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=30)


def ids(answer):
    text = answer["result"]["content"][0]["text"]
    if answer["result"].get("isError"):
        sys.exit("search failed: " + text)
    return [block.split(" — ", 1)[0] for block in text.split("\n\n") if " — " in block]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("verity", nargs="?", default=os.path.join(ROOT, "target", "release", "verity"))
    ap.add_argument("--index", default="default:ios17.4")
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    s = Server([a.verity, "mcp", "serve", "--index", a.index])
    s.call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                          "clientInfo": {"name": "mcp-search-bench", "version": "1"}})
    s.notify("notifications/initialized")
    for name in ["search-eval.jsonl", "search-tune.jsonl"]:
        queries = load(name)
        rr, recall, times = 0.0, 0.0, []
        by_shape = {}
        for q in queries:
            found = ids(s.call("tools/call", {"name": "search",
                                              "arguments": {"query": q["query"], "limit": 50}}))
            rank = next((i for i, d in enumerate(found) if d in q["relevant"]), None)
            q_rr = 0.0 if rank is None else 1.0 / (rank + 1)
            q_recall = sum(1 for r in q["relevant"] if r in found[:5]) / len(q["relevant"])
            rr += q_rr
            recall += q_recall
            shape = "task prompts" if q.get("from", "").startswith("task:") else "phrases"
            by_shape.setdefault(shape, []).append((q_rr, q_recall))
            for _ in range(a.runs):
                t = time.perf_counter()
                s.call("tools/call", {"name": "search",
                                      "arguments": {"query": q["query"], "limit": 5}})
                times.append((time.perf_counter() - t) * 1e3)
        times.sort()
        n = len(queries)
        print(f"{name}: {n} queries, MRR {rr / n:.3f}, recall@5 {recall / n:.3f}, "
              f"search median {statistics.median(times):.2f} ms, "
              f"p90 {times[int(len(times) * 0.9)]:.2f} ms")
        for shape, rows in sorted(by_shape.items()):
            k = len(rows)
            print(f"  {shape}: {k}, MRR {sum(r for r, _ in rows) / k:.3f}, "
                  f"recall@5 {sum(c for _, c in rows) / k:.3f}")
    s.close()


if __name__ == "__main__":
    main()
