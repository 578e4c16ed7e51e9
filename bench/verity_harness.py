# verity as one more harness of ../shared/bench/bench.py.
# patch_bench.py inserts this block into the scratch copy of bench.py just before its
# "helpers" section, so it can use bench.py's ROOT, BASE, CONC, PORT, json, os, subprocess
# and http_json.  The binary is the release build copied to $BENCH/bin/verity by run.sh.

VERITY_BIN = os.path.join(ROOT, "bin", "verity")


def verity_check(db, n):
    """Outside the timed command: read the stored run back with `verity report --format json`
    and require a completed run with all N samples stored and passing, plus N mock requests."""
    out = subprocess.run([VERITY_BIN, "report", "latest", "--db", db, "--format", "json"],
                         capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        return False, f"report exit {out.returncode}: {out.stderr[-300:]}"
    r = json.loads(out.stdout)
    pv = r["aggregate"]["per_variant"]
    outcomes = [v["outcome"] for t in r["per_task"] for v in t["variants"].values()]
    db_bytes = sum(os.path.getsize(db + sfx) for sfx in ("", "-wal", "-shm")
                   if os.path.exists(db + sfx))
    mock_requests = http_json("/stats")["requests"]
    ok = (r["run"]["status"] == "completed" and r["run"]["samples_completed"] == n
          and len(pv) == 1 and pv[0]["samples"] == n and pv[0]["pass"] == n
          and pv[0]["fail"] == 0 and pv[0]["error"] == 0
          and len(outcomes) == n and all(o == "pass" for o in outcomes)
          and mock_requests == n)
    return ok, (f"status={r['run']['status']} samples={pv[0]['samples'] if pv else None} "
                f"pass={pv[0]['pass'] if pv else None} tasks_pass={outcomes.count('pass')} "
                f"mock_requests={mock_requests} db_bytes={db_bytes} "
                f"verity_version={r['verity_version']}")


_VERITY_EXTRA = None


def verity_extra_args():
    """`--cache off` when this build has a response cache (parity: every peer runs uncached)."""
    global _VERITY_EXTRA
    if _VERITY_EXTRA is None:
        h = subprocess.run([VERITY_BIN, "run", "--help"], capture_output=True, text=True).stdout
        _VERITY_EXTRA = ["--cache", "off"] if "--cache" in h else []
    return _VERITY_EXTRA


def h_verity(n, rundir, outdir):
    """verity (Rust): every sample and provider call stored in SQLite as it goes (kept on)."""
    dbdir = os.path.join(rundir, "verity_db")
    os.makedirs(dbdir, exist_ok=True)
    db = os.path.join(dbdir, "v.db")
    for sfx in ("", "-wal", "-shm"):  # a fresh database for every run
        if os.path.exists(db + sfx):
            os.remove(db + sfx)
    cmd = [VERITY_BIN, "run", f"{ROOT}/data/N{n}/samples.jsonl",
           "--provider", "openai", "--model", "gpt-4o-mini", "--base-url", BASE + "/v1",
           "--scorer", "equals", "--concurrency", str(CONC), "--quiet", "--db", db] + verity_extra_args()

    def check(stdout, stderr):
        return verity_check(db, n)
    return cmd, {}, check


HARNESSES["verity"] = h_verity

