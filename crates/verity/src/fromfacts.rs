//! `verity corpus from-facts`: a citations suite from facts files. The questions come from
//! `verity_facts::queries`; this writes them as `tasks/NAME.jsonl` (one file per repository),
//! a runnable `suite.toml` when the directory has none, and the coverage metrics as
//! `coverage.json`.

use std::path::{Path, PathBuf};

use verity_facts::queries::{self, Coverage, QueryOptions};
use verity_facts::{Facts, queries::Generated};
use verity_model::ErrorKind;

use crate::CliError;

/// The suite.toml written when the directory has none. `scorers` adds the citation scorers
/// (`citations` over the `facts/` directory, `citation-consistency` over `paraphrase_of`).
pub fn suite_toml(name: &str, scorers: bool) -> String {
    let mut s = format!(
        r#"# Written by `verity corpus from-facts`: questions about real repositories whose answers
# the citation oracles check against the facts in facts/ (see suites/README.md).
name = "{name}"
description = "Where is X defined, what does A import, does X call Y, what does A extend, what does X return, which files does commit C change: cited answers checked against extracted facts."
tasks = ["tasks/*.jsonl"]
epochs = 1

[defaults]
temperature = 0
max_tokens = 512
system_text = "You answer questions about source code repositories. Cite every file you rely on as path:start-end (lines of the file, 1-based) and write identifiers in backticks. If you do not know, say so rather than guess."

# The model alone, on verity's default local model.
[[variants]]
name = "local"
provider = "local"
"#
    );
    if scorers {
        s.push_str(
            r#"
# V1 (files, lines, identifiers exist) and V2 (structural claims) against the facts.
[[scorers]]
kind = "citations"
facts = "facts"

# V4: paraphrases of one question cite the same files and do not contradict each other.
[[scorers]]
kind = "citation-consistency"
group_by = "paraphrase_of"
"#,
        );
    }
    s
}

/// What [`write_suite`] wrote.
#[derive(Debug)]
pub struct Written {
    pub task_files: Vec<(PathBuf, usize)>,
    pub suite_toml: Option<PathBuf>,
    pub coverage_json: PathBuf,
    pub generated: Generated,
}

/// Reads the facts files, generates the questions and writes the suite.
pub fn write_suite(
    facts_paths: &[PathBuf],
    out: &Path,
    opts: &QueryOptions,
    force: bool,
    scorers: bool,
) -> Result<Written, CliError> {
    let mut facts = Vec::new();
    let mut seen = std::collections::BTreeMap::new();
    for p in facts_paths {
        let f = Facts::read(p).map_err(|e| CliError::new(e.kind(), e.to_string()))?;
        let name = f.repo.name.clone();
        if !verity_suite::repos::is_safe_name(&name) {
            return Err(CliError::new(
                ErrorKind::Config,
                format!(
                    "{}: repository name `{name}` cannot name a task file (letters, digits, `.`, `_`, `-`)",
                    p.display()
                ),
            ));
        }
        if let Some(first) = seen.insert(name.clone(), p.clone()) {
            return Err(CliError::usage(format!(
                "{} and {} both describe repository `{name}`",
                first.display(),
                p.display()
            )));
        }
        facts.push(f);
    }
    if opts.per_pattern == 0 || opts.max == 0 {
        return Err(CliError::usage(
            "--per-pattern and --max must be at least 1",
        ));
    }
    if out.exists() && !out.is_dir() {
        return Err(CliError::usage(format!(
            "--out {} is not a directory",
            out.display()
        )));
    }
    let generated = queries::generate(&facts, opts);
    let tasks_dir = out.join("tasks");
    let targets: Vec<(PathBuf, &str)> = generated
        .tasks
        .keys()
        .map(|name| (tasks_dir.join(format!("{name}.jsonl")), name.as_str()))
        .collect();
    let existing: Vec<String> = targets
        .iter()
        .filter(|(p, _)| p.exists())
        .map(|(p, _)| format!("  {}", p.display()))
        .collect();
    if !existing.is_empty() && !force {
        return Err(CliError::new(
            ErrorKind::Refused,
            format!(
                "refusing to replace {} existing task files (pass --force to replace them):\n{}",
                existing.len(),
                existing.join("\n")
            ),
        ));
    }
    if generated.coverage.tasks == 0 {
        return Err(CliError::new(
            ErrorKind::Config,
            "the facts give no question to ask (no usable symbols, imports, exports, calls, \
             inheritance or commits)",
        ));
    }
    std::fs::create_dir_all(&tasks_dir)
        .map_err(|e| CliError::io(format!("cannot create {}: {e}", tasks_dir.display())))?;
    let mut task_files = Vec::new();
    for (path, name) in &targets {
        let tasks = &generated.tasks[*name];
        write_atomic(path, &queries::to_jsonl(tasks))?;
        task_files.push((path.clone(), tasks.len()));
    }
    let suite_path = out.join("suite.toml");
    let suite_toml = if suite_path.exists() {
        None
    } else {
        let name = out
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "citations".into());
        write_atomic(&suite_path, &suite_toml(&name, scorers))?;
        Some(suite_path)
    };
    let coverage_json = out.join("coverage.json");
    let mut text = serde_json::to_string_pretty(&coverage_value(&generated.coverage, opts))
        .expect("coverage serializes");
    text.push('\n');
    write_atomic(&coverage_json, &text)?;
    Ok(Written {
        task_files,
        suite_toml,
        coverage_json,
        generated,
    })
}

/// The coverage metrics with their targets and the options that produced them.
pub fn coverage_value(c: &Coverage, opts: &QueryOptions) -> serde_json::Value {
    serde_json::json!({
        "metrics": c,
        "targets": {
            "fact_coverage": queries::TARGET_FACT_COVERAGE,
            "repositories": queries::TARGET_REPOSITORIES,
            "patterns": queries::TARGET_PATTERNS,
        },
        "met": {
            "fact_coverage": c.fact_coverage > queries::TARGET_FACT_COVERAGE,
            "repositories": c.repositories >= queries::TARGET_REPOSITORIES,
            "patterns": c.patterns >= queries::TARGET_PATTERNS,
        },
        "options": {"per_pattern": opts.per_pattern, "max": opts.max, "seed": opts.seed},
    })
}

/// The metrics as lines for the terminal.
pub fn coverage_lines(c: &Coverage) -> Vec<String> {
    let mark = |ok: bool| if ok { "ok" } else { "below target" };
    vec![
        format!(
            "fact coverage   {:.1} % ({} of {} facts can be asked about; target > {:.0} %) {}",
            c.fact_coverage * 100.0,
            c.queryable,
            c.facts,
            queries::TARGET_FACT_COVERAGE * 100.0,
            mark(c.fact_coverage > queries::TARGET_FACT_COVERAGE)
        ),
        format!(
            "repositories    {} (target >= {}) {}",
            c.repositories,
            queries::TARGET_REPOSITORIES,
            mark(c.repositories >= queries::TARGET_REPOSITORIES)
        ),
        format!(
            "query patterns  {} of {} available (target >= {}) {}",
            c.patterns,
            c.patterns_available,
            queries::TARGET_PATTERNS,
            mark(c.patterns >= queries::TARGET_PATTERNS)
        ),
        format!(
            "questions       {} base questions, {} tasks with paraphrases",
            c.base_queries, c.tasks
        ),
    ]
}

fn write_atomic(path: &Path, text: &str) -> Result<(), CliError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp"));
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| CliError::io(format!("cannot write {}: {e}", path.display())))
}
