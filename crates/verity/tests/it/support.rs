use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_verity"))
}

/// A `verity` command with a clean environment for reproducible output.
pub fn verity(cwd: &Path) -> Command {
    let mut c = Command::new(bin());
    c.current_dir(cwd)
        .env_remove("VERITY_DB")
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100");
    c
}

pub fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("spawn verity");
    assert!(
        out.status.success(),
        "verity failed with {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs `cmd` and checks it exits with `code`, showing its output when it does not.
pub fn run_code(cmd: &mut Command, code: i32) -> Output {
    let out = cmd.output().expect("spawn verity");
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Writes `files` (relative path, contents) under `root`.
pub fn write_tree(root: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// The repository root (for the built-in suites).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// `verity run SUITE --quick --format json` on the embedded model CI pulls (SmolLM2), for a
/// built-in suite, stored in `db`: the JSON report from standard output. The verdict may be a
/// regression (exit 1: a small model misses a suite's gates); a crash or a usage error fails.
pub fn run_builtin_quick(suite: &str, db: &Path) -> serde_json::Value {
    let out = verity(&repo_root())
        .args(["run", suite, "--quick", "--format", "json"])
        .args(["--model", "smollm2-135m-instruct", "--db"])
        .arg(db)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "exit {:?}: {}",
        out.status.code(),
        stderr(&out)
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is the JSON report ({e}): {}", stderr(&out)))
}

/// insta settings that hide run ids, times, durations and temp paths.
pub fn filters() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.add_filter(r"\d{8}-\d{6}-[0-9a-f]{4}", "[RUN]");
    s.add_filter(
        r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?Z?",
        "[TIME]",
    );
    s.add_filter(r"\d+(\.\d+)?\s?(ms|s)\b", "[DUR]");
    s.add_filter(r"(/tmp|/var/folders)/[^\s:]*", "[TMP]");
    s.add_filter(r"[0-9a-f]{64}", "[HASH]");
    s
}
