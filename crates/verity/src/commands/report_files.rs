//! The files a suite's `[report]` asks a run to write: where (placeholders expanded in one
//! pass), whether an existing file may be replaced, and that a relative path stays inside the
//! working or the suite's directory.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde_json::json;
use verity_model::{ErrorKind, SampleRecord};

use super::{render, write_out};
use crate::CliError;
use crate::cli::ReportFormat;

/// Expands a `[report]` path template of the run's suite, in one pass
/// ([`verity_model::ReportSpec::expand`]: a value is never expanded again). The values put in
/// never add a directory level: `/` and `\` in the suite's name become `_`.
pub(super) fn expand_report_path(template: &str, meta: &verity_model::RunMeta) -> PathBuf {
    let ts: String = meta
        .started_at
        .chars()
        .filter(|c| c.is_ascii_digit())
        .take(14)
        .collect();
    let ts = if ts.len() == 14 {
        format!("{}-{}", &ts[..8], &ts[8..])
    } else {
        meta.id.clone()
    };
    let flat = |s: &str| s.replace(['/', '\\'], "_");
    PathBuf::from(verity_model::ReportSpec::expand(
        template,
        |name| match name {
            "ts" => Some(flat(&ts)),
            "run" => Some(flat(&meta.id)),
            "suite" => Some(flat(&meta.suite.name)),
            "tmp" => Some(std::env::temp_dir().display().to_string()),
            _ => None,
        },
    ))
}

/// Whether a `[report]` file may replace an existing one: its path names the run (`{ts}`,
/// `{run}`: an existing file is this run's own, from before a resume or retry), or `--force`.
pub(super) fn may_replace(template: &str, force: bool) -> bool {
    force || template.contains("{ts}") || template.contains("{run}")
}

/// When a `[report]` file is checked: before the run sends anything, or after it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ReportCheck {
    BeforeRun,
    AfterRun,
}

/// The error for a `[report]` file that cannot be written: before the run, a usage error
/// (exit 2, nothing was sent); after it, exit 3 (the run itself is stored).
pub(super) fn report_failure(
    path: &Path,
    why: impl std::fmt::Display,
    meta: &verity_model::RunMeta,
    when: ReportCheck,
) -> CliError {
    match when {
        ReportCheck::BeforeRun => CliError::new(
            ErrorKind::Refused,
            format!(
                "refusing to start: the report {} could not be written: {why}",
                path.display()
            ),
        ),
        ReportCheck::AfterRun => CliError::io(format!(
            "not writing the report {}: {why}. The run is stored: `verity report {} --format md|json --out FILE` renders it",
            path.display(),
            meta.id
        )),
    }
}

/// Checks that a `[report]` file may be written at `path`: a relative path has no `..` and
/// lands, symbolic links followed, inside the working directory or the suite's directory (an
/// absolute path may go anywhere); an existing file is replaced only when `replace`.
pub(super) fn check_report_target(
    path: &Path,
    replace: bool,
    meta: &verity_model::RunMeta,
    when: ReportCheck,
) -> Result<(), CliError> {
    use std::path::Component;
    let exists = std::fs::symlink_metadata(path).is_ok();
    if exists && !replace {
        return Err(report_failure(
            path,
            "the file exists and `[report]` paths never overwrite one unless they contain {ts} or {run}, or --force is given",
            meta,
            when,
        ));
    }
    if path.is_absolute() {
        return Ok(());
    }
    if path.components().any(|c| matches!(c, Component::ParentDir)) {
        return Err(report_failure(
            path,
            "a relative `[report]` path may not contain `..` (report files go inside the suite's or the working directory unless the path is absolute)",
            meta,
            when,
        ));
    }
    let cwd = std::env::current_dir()
        .map_err(|e| CliError::io(format!("cannot read the working directory: {e}")))?;
    let suite = Path::new(&meta.suite_path);
    let suite_dir = if suite.is_dir() {
        suite
    } else {
        suite.parent().unwrap_or(Path::new("."))
    };
    let roots: Vec<PathBuf> = [cwd.as_path(), suite_dir]
        .iter()
        .filter_map(|r| std::fs::canonicalize(cwd.join(r)).ok())
        .collect();
    // The nearest part of the path that exists (a symbolic link counts, dangling or not),
    // resolved: what is missing below it is created as plain directories.
    let full = cwd.join(path);
    let mut probe = full.as_path();
    while std::fs::symlink_metadata(probe).is_err() {
        probe = probe.parent().unwrap_or(&cwd);
    }
    let resolved = std::fs::canonicalize(probe).map_err(|e| {
        report_failure(
            path,
            format_args!("{} cannot be resolved ({e})", probe.display()),
            meta,
            when,
        )
    })?;
    if !roots.iter().any(|r| resolved.starts_with(r)) {
        return Err(report_failure(
            path,
            format_args!(
                "it leads to {} through a symbolic link, outside the working directory and the suite's (use an absolute path to write there)",
                resolved.display()
            ),
            meta,
            when,
        ));
    }
    Ok(())
}

/// Writes one `[report]` file; without `replace` it is created only if absent (atomically,
/// so a file that appeared since the check is not overwritten either).
pub(super) fn write_report_file(
    text: &str,
    path: &Path,
    replace: bool,
    meta: &verity_model::RunMeta,
) -> Result<(), CliError> {
    if replace {
        return write_out(text, Some(path));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::io(format!("cannot create {}: {e}", dir.display())))?;
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                report_failure(
                    path,
                    "the file exists (it appeared during the run)",
                    meta,
                    ReportCheck::AfterRun,
                )
            } else {
                CliError::io(format!("cannot write {}: {e}", path.display()))
            }
        })?;
    f.write_all(text.as_bytes())
        .map_err(|e| CliError::io(format!("cannot write {}: {e}", path.display())))
}

/// One file a suite's `[report]` asks for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ReportFile {
    Markdown,
    Json,
    ToolCalls,
}

/// The files a run's `[report]` asks for: what, where, and whether an existing file there may
/// be replaced.
pub(super) fn report_files(
    meta: &verity_model::RunMeta,
    force: bool,
) -> Vec<(ReportFile, PathBuf, bool)> {
    let spec = &meta.suite.report;
    let mut files = Vec::new();
    if let Some(t) = &spec.markdown {
        files.push((
            ReportFile::Markdown,
            expand_report_path(t, meta),
            may_replace(t, force),
        ));
    }
    if let Some(t) = &spec.json {
        let p = expand_report_path(t, meta);
        let replace = may_replace(t, force);
        if spec.toolcalls {
            let stem = p.to_string_lossy().trim_end_matches(".json").to_owned();
            let tp = PathBuf::from(format!("{stem}-toolcalls.jsonl"));
            files.push((ReportFile::Json, p, replace));
            files.push((ReportFile::ToolCalls, tp, replace));
        } else {
            files.push((ReportFile::Json, p, replace));
        }
    }
    files
}

/// Checks, before a run sends anything, that its `[report]` files could be written: a path
/// that exists and may not be replaced, or that leads outside the allowed directories, is
/// found before any answer is paid for. (Paths with `{ts}` are checked again after the run.)
pub(super) fn check_suite_reports(
    meta: &verity_model::RunMeta,
    force: bool,
) -> Result<(), CliError> {
    for (_, path, replace) in report_files(meta, force) {
        check_report_target(&path, replace, meta, ReportCheck::BeforeRun)?;
    }
    Ok(())
}

/// Writes the report files the suite's `[report]` asks for; returns their paths. Every path is
/// checked ([`check_report_target`]) before any file is written.
pub(super) fn write_suite_reports(
    meta: &verity_model::RunMeta,
    view: &verity_report::RunView,
    samples: &[SampleRecord],
    extras: &verity_report::Extras<'_>,
    force: bool,
) -> Result<Vec<PathBuf>, CliError> {
    let files = report_files(meta, force);
    for (_, path, replace) in &files {
        check_report_target(path, *replace, meta, ReportCheck::AfterRun)?;
    }
    let mut written = Vec::new();
    for (kind, path, replace) in files {
        let text = match kind {
            ReportFile::Markdown => verity_report::render_markdown_with(view, extras),
            ReportFile::Json => render(view, ReportFormat::Json, false, extras),
            ReportFile::ToolCalls => tool_call_lines(samples),
        };
        write_report_file(&text, &path, replace, meta)?;
        written.push(path);
    }
    Ok(written)
}

/// Every tool call of the run, one JSON object a line.
pub(super) fn tool_call_lines(samples: &[SampleRecord]) -> String {
    let mut lines = String::new();
    for s in samples {
        for c in &s.response.tool_calls {
            let line = json!({
                "task_id": s.key.task_id,
                "variant": s.key.variant,
                "epoch": s.key.epoch,
                "tool": c.name,
                "id": c.id,
                "arguments": c.arguments,
                "result": c.result,
                "error": c.error,
            });
            lines.push_str(&line.to_string());
            lines.push('\n');
        }
    }
    lines
}

#[cfg(test)]
#[path = "../report_path_tests.rs"]
mod report_path_tests;
