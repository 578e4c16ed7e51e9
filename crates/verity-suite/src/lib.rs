//! Reads suite directories into [`verity_model::Suite`]s, with diagnostics that point at
//! file:line:column, and renders prompt templates.
//!
//! A suite directory holds `suite.toml` (name, variants, scorers, outcome rule, coverage
//! minima, comparisons, gates, perturbed copies), task files (`tasks/*.toml`, `tasks.jsonl` in inspect_ai's sample
//! shape) and minijinja prompt templates; `suites/README.md` documents the format.
//!
//! Loading never stops at the first problem: every reader records a [`Diagnostic`] and moves
//! on, so one `verity validate` shows everything wrong with a suite at once (rust-analyzer's
//! "return the value and the errors" habit). Spans come from the TOML parser and from a second
//! scan of each JSON line, so an unknown key in line 40 of a JSONL file is reported at its
//! column. After the files are read, the same checks that [`check`] runs on a suite built in
//! memory — scorer options, task expectations, coverage minima, template trial renders — run
//! with those spans.
//!
//! The crate knows about files and templates, nothing about providers, runs or stores: a
//! loaded [`Suite`] is plain data.

#![forbid(unsafe_code)]

mod checks;
mod config;
mod diag;
mod files;
mod loader;
mod perturb;
mod reformat;
pub mod render;
pub mod repos;
mod servers;
mod sink;
mod suite;
mod tasks;
mod tree;
mod values;

use std::path::Path;

pub use config::DEFAULT_VARIANT;
pub use diag::{Diagnostic, Diagnostics, Severity};
pub use files::BASELINE_FILE;
pub use render::{Renderer, TemplateError};
pub use repos::REPOS_FILE;
pub use sink::{SinkError, TaskSink};
pub use suite::Loaded;
use verity_model::Suite;

/// Loads a suite.
///
/// `path` is a suite directory, a suite.toml file, or a bare dataset file (`.jsonl` or a task
/// `.toml`). A bare dataset gives a suite named after the file's stem with those tasks, no
/// variants, no scorers and one epoch. Any error fails the load; the `Err` holds every
/// diagnostic found (errors first, then warnings).
pub fn load(path: &Path) -> Result<Loaded, Diagnostics> {
    suite::load(path, None)
}

/// [`load`] for suites of any size: tasks are checked in batches and handed to `sink` as they
/// are read, JSONL datasets are read a line at a time, and nothing is kept per task, so memory
/// does not grow with the dataset. The returned suite has no tasks. Diagnostics are those
/// [`load`] gives, and a failed load may have sent some tasks before the error was found.
pub fn load_streaming(path: &Path, sink: &mut dyn TaskSink) -> Result<Loaded, Diagnostics> {
    suite::load(path, Some(sink))
}

/// Checks a suite built or modified in memory (after CLI overrides added variants or scorers,
/// say): unique ids and names, references to servers and variants, scorer options, task
/// expectations, gates (their variants, bounds and the criteria they name), coverage minima
/// and template trial renders. Diagnostics point at the recorded
/// [`SourceLoc`](verity_model::SourceLoc)s of tasks, scorers and gates and into template
/// sources. Errors come first.
pub fn check(suite: &Suite) -> Vec<Diagnostic> {
    checks::check_suite(suite)
}

#[cfg(test)]
pub(crate) mod testing {
    //! Helpers for the unit tests: write a suite into a temporary directory and load it.

    use super::*;

    /// Writes `files` into a fresh directory and loads it.
    pub(crate) fn load_files(
        files: &[(&str, &str)],
    ) -> (tempfile::TempDir, Result<Loaded, Diagnostics>) {
        let dir = tempfile::tempdir().unwrap();
        for (path, content) in files {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, content).unwrap();
        }
        let result = load(dir.path());
        (dir, result)
    }

    /// Loads `files`, which must fail, and lists each diagnostic as
    /// `code@file:line:col: message` with paths relative to the suite.
    pub(crate) fn errors(files: &[(&str, &str)]) -> Vec<String> {
        let (dir, result) = load_files(files);
        let diags = match result {
            Ok(l) => panic!("loaded, with warnings {:?}", l.warnings),
            Err(d) => {
                d.0.into_iter()
                    .filter(Diagnostic::is_error)
                    .collect::<Vec<_>>()
            }
        };
        list(&dir, &diags)
    }

    pub(crate) fn list(dir: &tempfile::TempDir, diags: &[Diagnostic]) -> Vec<String> {
        let prefix = format!("{}/", dir.path().display());
        diags
            .iter()
            .map(|d| {
                format!(
                    "{}@{}: {}",
                    d.code,
                    d.location().replace(&prefix, ""),
                    d.message
                )
            })
            .collect()
    }

    /// Collects what a streaming load hands over.
    #[derive(Default)]
    pub(crate) struct Collect {
        pub(crate) started: u32,
        pub(crate) ids: std::collections::HashMap<String, verity_model::SourceLoc>,
        pub(crate) tasks: Vec<verity_model::Task>,
    }

    impl TaskSink for Collect {
        fn start(&mut self, _suite: &mut Suite) -> Result<(), SinkError> {
            self.started += 1;
            Ok(())
        }
        fn put(&mut self, task: &verity_model::Task) -> Result<(), SinkError> {
            if let Some(first) = self.ids.get(&task.id) {
                return Err(SinkError::Duplicate {
                    first: first.clone(),
                });
            }
            self.ids.insert(task.id.clone(), task.source.clone());
            self.tasks.push(task.clone());
            Ok(())
        }
    }

    /// Loads `files`, which must succeed.
    pub(crate) fn suite(files: &[(&str, &str)]) -> Loaded {
        let (_dir, result) = load_files(files);
        result.unwrap_or_else(|e| panic!("{e}"))
    }

    /// Asserts that `found` has an entry starting with each of `expected`, and nothing else.
    pub(crate) fn assert_found(found: &[String], expected: &[&str]) {
        if let Some(problem) = mismatch(found, expected) {
            panic!("{problem}");
        }
    }

    /// Why `found` does not match `expected` (see [`assert_found`]), if it does not.
    pub(crate) fn mismatch(found: &[String], expected: &[&str]) -> Option<String> {
        let missing: Vec<&&str> = expected
            .iter()
            .filter(|e| !found.iter().any(|f| f.starts_with(**e)))
            .collect();
        if missing.is_empty() && found.len() == expected.len() {
            None
        } else {
            Some(format!(
                "expected {expected:#?}\nmissing {missing:#?}\nfound {found:#?}"
            ))
        }
    }
}
