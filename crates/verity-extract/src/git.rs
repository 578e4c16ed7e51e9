//! The repository's recent git history: `git log --name-only`, run under `verity-process`.

use std::path::Path;
use std::time::Duration;

use verity_facts::Commit;
use verity_process::{Capture, Spec};

/// Why the history could not be read (never fatal: the facts then have no commits).
#[derive(Debug)]
pub(crate) struct GitUnavailable(pub String);

/// The last `max` commits of the work tree whose top is `dir`, newest first. `Ok(vec![])` when
/// `dir` is not the top of a work tree (no `.git` of its own).
pub(crate) fn history(dir: &Path, max: usize) -> Result<Vec<Commit>, GitUnavailable> {
    if max == 0 || !dir.join(".git").exists() {
        return Ok(Vec::new());
    }
    let out = Spec::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "core.quotepath=off",
            "log",
            "--no-color",
            "--name-only",
            "--format=%x1e%H%x1f%aI%x1f%s",
        ])
        .arg(format!("--max-count={max}"))
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("LC_ALL", "C")
        .stdout(Capture::UpTo(256 * 1024 * 1024))
        .stderr(Capture::Tail(4096))
        .timeout(Duration::from_secs(120))
        .run()
        .map_err(|e| GitUnavailable(e.to_string()))?;
    if !out.success() {
        return Err(GitUnavailable(verity_process::with_stderr(
            &format!("git log {}", out.exit),
            &out.stderr_tail(),
        )));
    }
    Ok(parse_log(&out.stdout.text()))
}

/// Parses `git log --name-only --format=%x1e%H%x1f%aI%x1f%s`.
pub(crate) fn parse_log(text: &str) -> Vec<Commit> {
    text.split('\x1e')
        .filter_map(|rec| {
            let mut lines = rec.lines();
            let head = lines.next()?;
            let mut parts = head.splitn(3, '\x1f');
            let id = parts.next()?.trim().to_string();
            if id.is_empty() {
                return None;
            }
            let date = parts.next().map(str::to_string).filter(|d| !d.is_empty());
            let summary = parts.next().unwrap_or("").to_string();
            let mut files: Vec<String> = lines
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect();
            files.sort();
            files.dedup();
            Some(Commit {
                id,
                summary,
                date,
                files,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_log() {
        let text = "\x1eabc\x1f2024-01-02T03:04:05+00:00\x1fFix: the parser\n\nsrc/b.rs\nsrc/a.rs\n\x1edef\x1f2024-01-01T00:00:00+00:00\x1fMerge\n";
        let c = parse_log(text);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].id, "abc");
        assert_eq!(c[0].summary, "Fix: the parser");
        assert_eq!(c[0].files, ["src/a.rs", "src/b.rs"]);
        assert_eq!(c[0].date.as_deref(), Some("2024-01-02T03:04:05+00:00"));
        assert!(c[1].files.is_empty());
    }
}
