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

/// A verity process serving on a port it announces with a `listening on URL` line on standard
/// error (`verity view`, `verity mcp serve --http`), killed when dropped.
pub struct Listening {
    pub child: std::process::Child,
    /// What followed `listening on `.
    pub url: String,
    /// The lines of standard error before that one.
    pub before: Vec<String>,
    /// The rest of its standard error, read on (so the server's writes there never fail).
    _lines: std::sync::mpsc::Receiver<String>,
}

impl Listening {
    /// Spawns `cmd` (standard error piped, the other two null) and waits up to 60 s for its
    /// `listening on` line.
    pub fn start(mut cmd: Command) -> Listening {
        use std::io::{BufRead as _, BufReader};
        use std::process::Stdio;
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut before = Vec::new();
        let url = loop {
            match lines.recv_timeout(std::time::Duration::from_secs(60)) {
                Ok(line) => {
                    if let Some(url) = line.strip_prefix("listening on ") {
                        break url.to_owned();
                    }
                    before.push(line);
                }
                Err(_) => {
                    let _ = child.kill();
                    panic!("no `listening on` line; standard error: {before:?}");
                }
            }
        };
        Listening {
            child,
            url,
            before,
            _lines: lines,
        }
    }

    /// Sends SIGTERM and waits for the exit status (at most 10 s).
    pub fn terminate(mut self) -> Option<i32> {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while std::time::Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        None
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
