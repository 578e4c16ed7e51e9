#!/usr/bin/env bash
# Scoring speed of the `claims` scorer (issue 13: 10,000 fixtures' answers in under a second
# per core): a suite of N claim-extraction fixtures on the `mock` provider, whose answers are
# claim lists (some right, some missing a claim, some with a forbidden or an unexpected one, a
# few not JSON), run once; then `verity rescore` re-judges every stored answer, REPS times.
#
# usage: bash bench/claims-rescore.sh VERITY_BINARY [SCRATCH_DIR] [N] [REPS]
#
# Prints each rescore's wall and CPU seconds (user+sys) and max RSS, then the medians.
set -euo pipefail
bin=$(realpath "$1")
dir=${2:-/tmp/verity-claims-rescore}
n=${3:-10000}
reps=${4:-5}
mkdir -p "$dir"
cd "$dir"
rm -rf suite v.db*
mkdir -p suite
cat > suite/suite.toml <<'TOML'
name = "claims-bench"
tasks = "tasks.jsonl"
[defaults]
provider = "mock"
[[scorers]]
kind = "claims"
TOML
python3 - "$n" <<'PY'
import json, sys
n = int(sys.argv[1])
subjects = ["tls/cert_verification", "jwt/algorithm", "secrets/api_key", "auth/csrf_protection"]
with open("suite/tasks.jsonl", "w") as f:
    for i in range(n):
        want = [{"subject": subjects[i % 4], "predicate": "enabled", "value": False,
                 "rationale": "the fixture's point"},
                {"subject": "crypto/hash", "predicate": "algorithm", "value": "md5"}]
        forbid = [{"subject": subjects[i % 4], "predicate": "enabled", "value": True}]
        got = [{"subject": "app." + subjects[i % 4].replace("/", "."), "predicate": "enabled",
                "value": "false", "confidence": 0.9, "line": 3}]
        kind = i % 10
        if kind < 5:
            got.append({"subject": "crypto/hash", "predicate": "algorithm", "value": "MD5" if kind == 4 else "md5", "confidence": 0.8, "line": 7})
        elif kind == 5:
            got.append({"subject": subjects[i % 4], "predicate": "enabled", "value": "yes", "confidence": 0.95, "line": 9})
        elif kind == 6:
            got.append({"subject": "net/timeout", "predicate": "seconds", "value": 30, "confidence": 0.4, "line": 2})
        answer = json.dumps({"claims": got})
        if kind == 9:
            answer = "```json\n" + answer[:-3] + "\n```"
        f.write(json.dumps({
            "id": f"fx-{i:05d}", "input": f"code {i}", "category": ["tls", "jwt", "secrets", "auth"][i % 4],
            "metadata": {"mock_response": answer},
            "expect": {"must_contain": want, "must_not_contain": forbid, "weight": 1.0 + (i % 3) * 0.5,
                       "min_confidence": 0.5},
        }) + "\n")
PY
"$bin" run suite -q --db v.db --cache off -j 50 >/dev/null
echo "run stored $(sqlite3 v.db 'select count(*) from samples') samples"
walls=(); cpus=()
for r in $(seq "$reps"); do
  out=$( { /usr/bin/time -f "%e %U %S %M" "$bin" rescore latest --db v.db >/dev/null; } 2>&1 | tail -1)
  read -r wall user sys rss <<<"$out"
  cpu=$(python3 -c "print(round($user + $sys, 2))")
  echo "rescore $r: wall ${wall} s, cpu ${cpu} s, max RSS $((rss / 1024)) MiB"
  walls+=("$wall"); cpus+=("$cpu")
done
python3 - "${walls[*]}" "${cpus[*]}" "$n" <<'PY'
import statistics, sys
w = [float(x) for x in sys.argv[1].split()]
c = [float(x) for x in sys.argv[2].split()]
n = int(sys.argv[3])
print(f"median of {len(w)}: wall {statistics.median(w):.2f} s, cpu {statistics.median(c):.2f} s "
      f"({n / statistics.median(c):,.0f} answers per CPU second)")
PY
