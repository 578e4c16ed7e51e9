//! `verity runs`: the runs in a database.

use serde_json::json;
use verity_store::Store;

use super::{is_missing, write_out};
use crate::cli::{Format, RunsArgs};
use crate::config::Config;
use crate::{CliError, exit};

pub(super) fn runs(a: RunsArgs, config: &Config) -> Result<u8, CliError> {
    let db = a.db.path(config);
    if is_missing(&db) {
        if a.format == Format::Json {
            println!("[]");
        } else {
            println!("no runs yet ({} does not exist)", db.display());
        }
        return Ok(exit::OK);
    }
    let store = Store::open_read_only(&db)?;
    let runs = store.list_runs()?;
    let mut out = String::new();
    if a.format == Format::Json {
        let v: Vec<_> = runs
            .iter()
            .map(|r| json!({"id": r.id, "suite": r.suite_name, "status": r.status.as_str(), "started_at": r.started_at,
                "finished_at": r.finished_at, "completed": r.completed, "total": r.total, "passed": r.passed, "errors": r.errors}))
            .collect();
        out = serde_json::to_string_pretty(&v).unwrap_or_default();
        out.push('\n');
    } else {
        let sw = runs
            .iter()
            .map(|r| r.suite_name.chars().count())
            .max()
            .unwrap_or(5)
            .max(5);
        out.push_str(&format!(
            "{:20}  {:sw$}  {:11}  {:20}  {:>11}  {:>7}\n",
            "run", "suite", "status", "started", "samples", "passed"
        ));
        for r in &runs {
            let started: String = r
                .started_at
                .chars()
                .take(19)
                .collect::<String>()
                .replace('T', " ");
            out.push_str(&format!(
                "{:20}  {:sw$}  {:11}  {:20}  {:>11}  {:>7}\n",
                r.id,
                r.suite_name,
                r.status.as_str(),
                started,
                format!("{}/{}", r.completed, r.total),
                r.passed
            ));
        }
        out.push_str(&format!("{} runs in {}\n", runs.len(), db.display()));
    }
    write_out(&out, None)?;
    Ok(exit::OK)
}
