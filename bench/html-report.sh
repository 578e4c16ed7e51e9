#!/usr/bin/env bash
# Speed and size of the HTML report (issue 18: a 20,000-sample run renders in under 2 s):
# makes a 20,000-sample run on the mock provider — 10,000 tasks × 2 variants, each answer a
# few lines, a fifth of them failing a `regex` criterion with evidence at a line, a tenth
# failing `contains`, tasks in 8 categories, and the two variants disagreeing on some tasks so
# the run has a paired comparison — then times `verity report latest --format html` REPS
# times (and `--format json` for reference) under /usr/bin/time, and prints the page's size.
#
# usage: bash bench/html-report.sh [TASKS] [REPS]   (a release build: cargo build --release -p verity;
#        VERITY=path/to/verity to time another binary)
set -euo pipefail
tasks=${1:-10000}
reps=${2:-5}
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
case "$target" in /*) ;; *) target="$(pwd)/$target" ;; esac
V=${VERITY:-"$target/release/verity"}
[ -x "$V" ] || { echo "build first: cargo build --release -p verity" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/s"
cat > "$W/s/suite.toml" <<'TOML'
name = "html-bench"
tasks = "tasks.jsonl"
[defaults]
provider = "mock"
[[variants]]
name = "a"
[[variants]]
name = "b"
[[scorers]]
kind = "contains"
[[scorers]]
name = "no-legacy"
kind = "regex"
pattern = "NSURLConnection"
must_match = false
TOML
python3 - "$tasks" > "$W/s/tasks.jsonl" <<'PY'
import json, sys
n = int(sys.argv[1])
for i in range(n):
    def answer(v):
        lines = [f"// task {i}, variant {v}", "import Foundation", "func load(url: URL) async throws -> Data {"]
        if (i + (v == "b")) % 5 == 0:
            lines.append("    let c = NSURLConnection(request: URLRequest(url: url), delegate: nil)")
        lines.append("    return try await URLSession.shared.data(from: url).0" if (i + 3 * (v == "b")) % 10 else "    return Data()")
        lines.append("}")
        return "\n".join(lines)
    print(json.dumps({"id": f"t{i:05}", "input": f"Download a file with Swift ({i}).", "target": "URLSession",
                      "category": f"cat-{i % 8}", "metadata": {"mock_response": {"a": answer("a"), "b": answer("b")}}}))
PY
cd "$W"
echo "making the run: $tasks tasks × 2 variants"
"$V" run s -q -j 16 --db r.db > /dev/null || true
grep -m1 "model name" /proc/cpuinfo || true
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for f in html json; do
  for i in $(seq "$reps"); do
    /usr/bin/time -f "$f: wall %e s, user %U s, sys %S s, max RSS %M KiB" \
      "$V" report latest --db r.db --format "$f" --out "report.$f"
  done
  echo "$f: $(stat -c %s "report.$f") bytes"
done
