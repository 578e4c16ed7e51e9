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
