#!/usr/bin/env bash
# The official MCP conformance suite's server scenarios against `verity mcp serve`.
#
#   bash bench/mcp-conformance.sh [VERITY] [-- SERVE-ARGS...]
#
# VERITY: the binary [default: target/release/verity, else target/debug/verity].
# SERVE-ARGS: the documents to serve [default: --index default:ios17.4].
#
# The suite (@modelcontextprotocol/conformance, pinned below) reaches a server over Streamable
# HTTP only (`conformance server --url`). When the binary has `mcp serve --http`, the server is
# started as `verity mcp serve --http 127.0.0.1:PORT`; otherwise (or with
# MCP_CONFORMANCE_TRANSPORT=bridge) the stdio server runs behind supergateway (pinned), a
# stdio-to-Streamable-HTTP bridge with one server process per session (`--stateful`), so every
# JSON-RPC answer is the stdio server's own, while the HTTP-level checks
# (dns-rebinding-protection, the SSE scenarios) judge the bridge, not verity.
# The suite needs Node 22 (it uses fs.globSync), which npm installs too: all three go into
# ~/.cache/verity/mcp-conformance/<version> (or $VERITY_CONFORMANCE_DIR) once.
#
# Prints one line per scenario (passed / failed, with the suite's count of checks and the ids of
# the failed ones) and a closing "N passed, N failed" line; each scenario's full output lands in
# the cache dir's results/SCENARIO.log.
# Many scenarios test the suite's reference "everything" server (tools named
# test_simple_text, test_image_content, prompts, completions, subscriptions…): they fail
# against any server without those tools, so read the failures before calling one ours.
set -euo pipefail
cd "$(dirname "$0")/.."

CONFORMANCE_VERSION=0.1.16
NODE_VERSION=22.23.3
SUPERGATEWAY_VERSION=4.0.0
MCP_PATH="${MCP_PATH:-/mcp}"

verity="${1:-}"
if [ -n "$verity" ] && [ "$verity" != "--" ]; then shift; else verity=""; fi
if [ "${1:-}" = "--" ]; then shift; fi
if [ -z "$verity" ]; then
  if [ -x target/release/verity ]; then verity=target/release/verity; else verity=target/debug/verity; fi
fi
serve_args=("$@")
if [ ${#serve_args[@]} -eq 0 ]; then serve_args=(--index default:ios17.4); fi
if [ ! -x "$verity" ]; then
  echo "mcp-conformance: no verity binary at $verity (cargo build --release -p verity)" >&2
  exit 2
fi
transport="${MCP_CONFORMANCE_TRANSPORT:-}"
if [ -z "$transport" ]; then
  if "$verity" mcp serve --help 2>/dev/null | grep -q -- '--http'; then transport=http; else transport=bridge; fi
fi

dir="${VERITY_CONFORMANCE_DIR:-$HOME/.cache/verity/mcp-conformance/$CONFORMANCE_VERSION}"
node="$dir/node_modules/.bin/node"
suite="$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"
bridge="$dir/node_modules/supergateway/dist/index.js"
if [ ! -x "$node" ] || [ ! -f "$suite" ] || [ ! -f "$bridge" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --no-save \
    "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" "node@$NODE_VERSION" \
    "supergateway@$SUPERGATEWAY_VERSION" >&2
fi

# A free loopback port, then the server on it.
port="$("$node" -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
log="$(mktemp)"
if [ "$transport" = http ]; then
  "$verity" mcp serve --http "127.0.0.1:$port" "${serve_args[@]}" 2>"$log" &
else
  command_line="$(printf '%q ' "$(realpath "$verity")" mcp serve "${serve_args[@]}")"
  "$node" "$bridge" --stdio "$command_line" --outputTransport streamableHttp --stateful \
    --port "$port" --streamableHttpPath "$MCP_PATH" --logLevel none >"$log" 2>&1 &
fi
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 300); do
  if "$node" -e 'require("net").connect(+process.argv[1],"127.0.0.1").on("connect",()=>process.exit(0)).on("error",()=>process.exit(1))' "$port"; then
    break
  fi
  if ! kill -0 "$server" 2>/dev/null; then
    echo "mcp-conformance: the server exited:" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 0.2
done

results="$dir/results"
rm -rf "$results"
mkdir -p "$results"
scenarios="$(cd "$dir" && "$node" "$suite" list 2>/dev/null |
  awk '/^Server scenarios/{on=1;next} /^$/{on=0} on && /^  - /{print $2}')"
passed=0
failed=0
for scenario in $scenarios; do
  (cd "$results" && "$node" "$suite" server --url "http://127.0.0.1:$port$MCP_PATH" \
    --scenario "$scenario" >"$scenario.log" 2>&1) || true
  out="$results/$scenario.log"
  summary="$(sed 's/\x1b\[[0-9;]*m//g' "$out" | grep -E '^Passed: [0-9]+/[0-9]+, [0-9]+ failed' | tail -1 || true)"
  failures="$(sed 's/\x1b\[[0-9;]*m//g' "$out" | grep -oE '\[[a-z0-9-]+ *\] FAILURE' | tr -d '[]' | awk '{print $1}' | sort -u | paste -sd, - || true)"
  if [ -z "$summary" ]; then
    verdict="failed (no result; see $out)"
  elif echo "$summary" | grep -qE ', 0 failed'; then
    verdict="passed (${summary#Passed: })"
  else
    verdict="failed (${summary#Passed: }: $failures)"
  fi
  echo "$scenario: $verdict"
  case "$verdict" in passed*) passed=$((passed + 1)) ;; *) failed=$((failed + 1)) ;; esac
done
echo "conformance $CONFORMANCE_VERSION (node $NODE_VERSION, transport $transport): $passed passed, $failed failed"
