//! Listings that are not one run's report: a suite's tasks (`verity list`) and the runs in a
//! database (`verity runs`), as a terminal table or JSON.

use serde_json::{Value, json};
use verity_model::{RunListing, Task};

/// A suite's tasks as a table: id, category and the prompt on one line (cut at 70
/// characters), then the count.
pub fn render_task_list(tasks: &[&Task]) -> String {
    let idw = column_width(tasks.iter().map(|t| t.id.as_str()), "id");
    let cw = column_width(
        tasks.iter().map(|t| t.category.as_deref().unwrap_or("-")),
        "category",
    );
    let mut out = format!("{:idw$}  {:cw$}  prompt\n", "id", "category");
    for t in tasks {
        let prompt = t
            .input
            .prompt_text()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let prompt = if prompt.chars().count() > 70 {
            format!("{}…", prompt.chars().take(69).collect::<String>())
        } else {
            prompt
        };
        out.push_str(&format!(
            "{:idw$}  {:cw$}  {prompt}\n",
            t.id,
            t.category.as_deref().unwrap_or("-"),
        ));
    }
    out.push_str(&format!("{} tasks\n", tasks.len()));
    out
}

/// A suite's tasks as JSON: id, category, prompt, target and where each is defined.
pub fn task_list_json(tasks: &[&Task]) -> Value {
    tasks
        .iter()
        .map(|t| {
            json!({
                "id": t.id,
                "category": t.category,
                "prompt": t.input.prompt_text(),
                "target": t.target,
                "source": t.source.to_string(),
            })
        })
        .collect()
}

/// The runs of a database as a table, newest first as given, then the count and where they
/// are (`db`), and how to finish an interrupted run. The status is the one shown
/// ([`RunStatus::shown`](verity_model::RunStatus::shown)): a run stored as running whose
/// process is gone is `interrupted`, one this machine cannot check `running?`.
pub fn render_runs(runs: &[RunListing], db: &str) -> String {
    let sw = column_width(runs.iter().map(|r| r.suite_name.as_str()), "suite");
    let mut out = format!(
        "{:20}  {:sw$}  {:11}  {:20}  {:>11}  {:>7}\n",
        "run", "suite", "status", "started", "samples", "passed"
    );
    for r in runs {
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
            r.status.shown(r.liveness),
            started,
            format!("{}/{}", r.completed, r.total),
            r.passed
        ));
    }
    out.push_str(&format!("{} runs in {db}\n", runs.len()));
    let interrupted: Vec<&str> = runs
        .iter()
        .filter(|r| r.status.is_interrupted(r.liveness))
        .map(|r| r.id.as_str())
        .collect();
    if let Some(newest) = interrupted.first() {
        out.push_str(&format!(
            "{} interrupted: `verity run --resume {newest}` finishes {} (its stored samples are kept)\n",
            interrupted.len(),
            if interrupted.len() == 1 { "it" } else { "the newest" },
        ));
    }
    if runs
        .iter()
        .any(|r| r.status.shown(r.liveness) == "running?")
    {
        out.push_str(
            "running?: stored as running by a process on another machine (or by a verity that \
             did not record it): this machine cannot tell whether it still runs\n",
        );
    }
    out
}

/// The runs of a database as JSON, one object each; `status` is the one shown
/// ([`RunStatus::shown_json`](verity_model::RunStatus::shown_json)).
pub fn runs_json(runs: &[RunListing]) -> Value {
    runs.iter()
        .map(|r| {
            let mut v = serde_json::to_value(r).unwrap_or_default();
            if let Some(o) = v.as_object_mut() {
                o.insert("status".into(), r.status.shown_json(r.liveness).into());
            }
            v
        })
        .collect()
}

/// The width of a column: its widest value, at least its heading's.
fn column_width<'a>(values: impl Iterator<Item = &'a str>, heading: &str) -> usize {
    values
        .map(|v| v.chars().count())
        .max()
        .unwrap_or(0)
        .max(heading.chars().count())
}

#[cfg(test)]
mod tests {
    use verity_model::{Liveness, RunStatus};

    use super::*;

    fn listing(id: &str, suite: &str) -> RunListing {
        RunListing {
            id: id.into(),
            suite_name: suite.into(),
            status: RunStatus::Interrupted,
            started_at: "2026-11-24T12:00:01.512Z".into(),
            finished_at: None,
            completed: 3,
            total: 10,
            passed: 2,
            errors: 1,
            liveness: Default::default(),
        }
    }

    #[test]
    fn runs_render_as_a_table_and_as_json() {
        let runs = [listing("20261124-120001-abcd", "a-long-suite-name")];
        let table = render_runs(&runs, "v.db");
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        assert!(lines[0].starts_with("run  ") && lines[0].contains("suite"));
        assert!(lines[1].contains("a-long-suite-name  interrupted  2026-11-24 12:00:01"));
        assert!(lines[1].ends_with("3/10        2"), "{table}");
        assert_eq!(lines[2], "1 runs in v.db");
        assert_eq!(
            lines[3],
            "1 interrupted: `verity run --resume 20261124-120001-abcd` finishes it (its stored samples are kept)"
        );
        assert_eq!(
            runs_json(&runs)[0],
            json!({"id": "20261124-120001-abcd", "suite": "a-long-suite-name",
                   "status": "interrupted", "started_at": "2026-11-24T12:00:01.512Z",
                   "finished_at": null, "completed": 3, "total": 10, "passed": 2, "errors": 1})
        );
    }

    #[test]
    fn a_running_run_is_shown_by_its_process() {
        let mut alive = listing("r-alive", "s");
        alive.status = RunStatus::Running;
        alive.liveness = Liveness::Alive;
        let mut gone = listing("r-gone", "s");
        gone.status = RunStatus::Running;
        gone.liveness = Liveness::Gone;
        let mut elsewhere = listing("r-elsewhere", "s");
        elsewhere.status = RunStatus::Running;
        elsewhere.liveness = Liveness::Unknown;
        let runs = [alive, gone, elsewhere];
        let table = render_runs(&runs, "v.db");
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[1].contains("  running   "), "{table}");
        assert!(lines[2].contains("  interrupted  "), "{table}");
        assert!(lines[3].contains("  running?  "), "{table}");
        assert!(
            lines[5].starts_with("1 interrupted: `verity run --resume r-gone` finishes it"),
            "{table}"
        );
        assert!(lines[6].starts_with("running?: "), "{table}");
        let json = runs_json(&runs);
        assert_eq!(json[0]["status"], "running");
        assert_eq!(json[1]["status"], "interrupted");
        assert_eq!(json[2]["status"], "unknown");
    }

    #[test]
    fn tasks_render_with_long_prompts_cut() {
        let long = Task::prompt("t1", "word ".repeat(30));
        let mut short = Task::prompt("task-two", "What\n is  2 + 2?");
        short.category = Some("math".into());
        let table = render_task_list(&[&long, &short]);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines[0], "id        category  prompt");
        assert!(lines[1].ends_with('…') && lines[1].chars().count() == 8 + 2 + 8 + 2 + 70);
        assert_eq!(lines[2], "task-two  math      What is 2 + 2?");
        assert_eq!(lines[3], "2 tasks");
        assert_eq!(task_list_json(&[&short])[0]["category"], "math");
    }
}
