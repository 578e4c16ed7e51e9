//! `verity baseline save RUN` and `verity baseline show [SUITE]`: a run's results kept in the
//! suite's `baseline.toml`, reviewed in pull requests like code.

use std::path::{Path, PathBuf};

use verity_model::{ErrorKind, RunStatus, now_rfc3339};
use verity_report::{Baseline, render_baseline, render_baseline_change, short};

use super::verdict::{BASELINE_FILE, load, read_baseline, suite_root};
use super::{open_existing_read_only, write_out};
use crate::cli::{BaselineCommand, BaselineSaveArgs, BaselineShowArgs, Format, Globals};
use crate::config::Config;
use crate::{CliError, exit};

pub(super) fn baseline(c: BaselineCommand, config: &Config, g: &Globals) -> Result<u8, CliError> {
    match c {
        BaselineCommand::Save(a) => save(a, config, g),
        BaselineCommand::Show(a) => show(a),
    }
}

fn save(a: BaselineSaveArgs, config: &Config, g: &Globals) -> Result<u8, CliError> {
    let store = open_existing_read_only(&g.db.path(config))?;
    let id = store.resolve_run(&a.run)?;
    let run = load(&store, &id, None)?;
    if run.meta.status != RunStatus::Completed && !a.force {
        return Err(CliError::new(
            ErrorKind::Refused,
            format!(
                "run {id} is {}: its results are partial; finish it first (`verity run --resume {id}`), \
                 or keep it anyway with --force",
                run.meta.status.shown(run.meta.liveness)
            ),
        ));
    }
    let view = run.view();
    let snapshots = run.snapshots(&view);
    if snapshots.is_empty() {
        return Err(CliError::usage(format!("run {id} has no stored samples")));
    }
    let dir = match &a.suite {
        Some(d) => d.clone(),
        None => suite_root(Path::new(&run.meta.suite_path)).ok_or_else(|| {
            CliError::usage(format!(
                "run {id} read a dataset file ({}), not a suite directory: name the directory \
                 to keep the baseline in with --suite DIR",
                run.meta.suite_path
            ))
        })?,
    };
    if !dir.is_dir() {
        return Err(CliError::new(
            ErrorKind::NotFound,
            format!(
                "{} is not a directory (the suite's root holds {BASELINE_FILE}; pass --suite DIR)",
                dir.display()
            ),
        ));
    }
    warn_if_suite_changed(&dir, &run.meta.suite.content_hash, &id);
    let path = dir.join(BASELINE_FILE);
    let new = Baseline::new(snapshots, now_rfc3339());
    let old = match read_baseline(&path) {
        Ok(old) => old,
        // An unreadable baseline may be replaced, but only on purpose.
        Err(e) if a.force => {
            eprintln!("warning: replacing it anyway: {}", e.message);
            None
        }
        Err(e) => return Err(e),
    };
    if let Some(old) = &old {
        eprint!("{}", render_baseline_change(old, &new));
        if !a.force {
            return Err(CliError::new(
                ErrorKind::Refused,
                format!(
                    "{} already holds a baseline (run {}, saved {}); re-run with --force to replace it",
                    path.display(),
                    old.variants
                        .first()
                        .map(|s| s.run_id.as_str())
                        .unwrap_or("-"),
                    old.saved_at
                ),
            ));
        }
    }
    let text = new.to_toml().map_err(|e| {
        CliError::new(
            ErrorKind::Internal,
            format!("cannot write the baseline: {e}"),
        )
    })?;
    write_atomically(&path, &text)?;
    let tasks: usize = new.variants.iter().map(|s| s.tasks.len()).sum();
    eprintln!(
        "{} {} from run {id}: {} variant{}, {tasks} task results; review it and commit it with the suite",
        if old.is_some() { "replaced" } else { "wrote" },
        path.display(),
        new.variants.len(),
        if new.variants.len() == 1 { "" } else { "s" },
    );
    Ok(exit::OK)
}

/// Warns when the suite in `dir` is no longer the one the run used.
fn warn_if_suite_changed(dir: &Path, run_hash: &str, id: &str) {
    if !dir.join("suite.toml").is_file() {
        return;
    }
    if let Ok(loaded) = verity_suite::load(dir)
        && loaded.suite.content_hash != run_hash
    {
        eprintln!(
            "warning: the suite in {} changed since run {id} (content hash {} then, {} now); \
             the baseline records what the run measured",
            dir.display(),
            short(run_hash),
            short(&loaded.suite.content_hash)
        );
    }
}

/// Writes `text` to a temporary file beside `path`, then renames it over `path`: a reader
/// never sees half a baseline, and a failed write leaves the old one.
fn write_atomically(path: &Path, text: &str) -> Result<(), CliError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let tmp: PathBuf = dir.join(format!(".{BASELINE_FILE}.{}.tmp", std::process::id()));
    let written = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        CliError::io(format!("cannot write {}: {e}", path.display()))
    })
}

fn show(a: BaselineShowArgs) -> Result<u8, CliError> {
    let path = if a.suite.is_dir() {
        a.suite.join(BASELINE_FILE)
    } else {
        a.suite.clone()
    };
    let b = read_baseline(&path)?.ok_or_else(|| {
        CliError::new(
            ErrorKind::NotFound,
            format!(
                "no baseline at {} (save one with `verity baseline save RUN`)",
                path.display()
            ),
        )
    })?;
    let text = match a.format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&b).unwrap_or_default();
            s.push('\n');
            s
        }
        Format::Table | Format::Md => render_baseline(&b),
    };
    write_out(&text, None)?;
    Ok(exit::OK)
}
