//! Stage attribution (seed 004) through the real binary: a pipeline script behind the `command`
//! provider reports its stages as `artifacts`; they are hashed and stored with each sample,
//! the `stages` scorer names the first stage that drifted across epochs and fails a declared
//! deterministic stage that drifted, and a cached answer keeps its artifacts.

use std::path::Path;

use serde_json::Value;

use crate::support::*;

/// A three-stage pipeline: parse (deterministic unless the task says otherwise), plan (varies
/// with the epoch, as a model at temperature 0.8 would) and lower (follows the plan's title,
/// unless the task fixes the heading: then the plan's drift does not reach the answer).
const PIPELINE: &str = r#"import json, sys
req = json.load(sys.stdin)
task, epoch = req["task"], req["sample"]["epoch"]
doc = task["input"]
api_ir = {"resources": sorted(doc.split()), "source_len": len(doc)}
if task["metadata"].get("flaky_parser"):
    api_ir["parsed_at"] = epoch
plan = {"views": [{"kind": "table", "resource": r} for r in api_ir["resources"]],
        "title": "People" if epoch == 1 else "Users"}
heading = "Catalog" if task["metadata"].get("fixed_heading") else plan["title"]
spec = {"screens": [v["resource"] for v in plan["views"]], "heading": heading}
print(json.dumps({"output": json.dumps(spec), "artifacts": {"api_ir": api_ir, "ui_plan": plan}}))
"#;

const SUITE: &str = r#"name = "stages-mini"
tasks = "tasks.jsonl"
epochs = 3

[defaults]
provider = "command"

[[scorers]]
kind = "stages"
deterministic = ["api_ir"]

[[scorers]]
kind = "identical"
"#;

const TASKS: &str = r#"{"id": "users", "input": "users accounts"}
{"id": "orders", "input": "orders", "metadata": {"flaky_parser": true}}
{"id": "products", "input": "products", "metadata": {"fixed_heading": true}}
"#;

fn setup(d: &Path) {
    write_tree(
        d,
        &[
            ("pipeline.py", PIPELINE),
            ("s/suite.toml", SUITE),
            ("s/tasks.jsonl", TASKS),
        ],
    );
}

fn run(d: &Path, cache: &str) {
    let out = verity(d)
        .args(["run", "s", "-q", "--epochs", "3", "-j", "1", "--db", "v.db"])
        .args(["--cache", cache, "--command"])
        .arg(format!("python3 {}", d.join("pipeline.py").display()))
        .output()
        .unwrap();
    // Task `orders` fails its deterministic stage; that is a verdict, not a crash.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "stdout:\n{}\nstderr:\n{}",
        stdout(&out),
        stderr(&out)
    );
}

fn report(d: &Path) -> Value {
    let out = run_ok(verity(d).args(["report", "latest", "--format", "json", "--db", "v.db"]));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// One stored sample's `(task, epoch, [(stage, hash)])`.
type Stored = (String, u32, Vec<(String, String)>);

/// The stored stages of the latest run's samples, in store order.
fn stored_artifacts(d: &Path) -> Vec<Stored> {
    let store = verity_store::Store::open(&d.join("v.db")).unwrap();
    let run = store.list_runs().unwrap().remove(0);
    store
        .load_samples(&run.id, None)
        .unwrap()
        .into_iter()
        .map(|s| {
            assert!(s.response.error.is_none(), "{:?}", s.response.error);
            (
                s.key.task_id,
                s.key.epoch,
                s.response
                    .artifacts
                    .iter()
                    .map(|a| (a.name.clone(), a.hash.clone()))
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn the_first_drifted_stage_is_named_and_a_drifting_deterministic_stage_fails() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    setup(d);
    run(d, "off");

    // Stored: both stages of every epoch, `api_ir` stable for `users`, `ui_plan` not.
    let stored = stored_artifacts(d);
    assert_eq!(stored.len(), 9);
    let users_stages: Vec<&Vec<(String, String)>> = stored
        .iter()
        .filter(|(t, _, _)| t == "users")
        .map(|(_, _, a)| a)
        .collect();
    assert_eq!(users_stages.len(), 3);
    for a in &users_stages {
        let names: Vec<&str> = a.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["api_ir", "ui_plan"]);
    }
    let hash = |epoch: usize, stage: usize| users_stages[epoch][stage].1.clone();
    assert_eq!(hash(0, 0), hash(1, 0));
    assert_eq!(hash(0, 0), hash(2, 0));
    assert_eq!(hash(0, 1), hash(2, 1));
    assert_ne!(hash(0, 1), hash(1, 1));
    // The hash is the canonical one: keys sorted, whatever order the script wrote them in.
    let expected_ir = serde_json::json!({"source_len": 14, "resources": ["accounts", "users"]});
    assert_eq!(
        hash(0, 0),
        verity_model::Artifact::new("api_ir", expected_ir).hash
    );

    // The group verdicts: `users` fails, its answer's drift pinned on `ui_plan`; `products`
    // passes, the same drift absorbed by the last stage; `orders` fails because its declared
    // deterministic `api_ir` drifted.
    let store = verity_store::Store::open_read_only(&d.join("v.db")).unwrap();
    let run_id = store.list_runs().unwrap().remove(0).id;
    let groups = store.load_groups(&run_id, None).unwrap();
    let stages = |task: &str| {
        groups
            .iter()
            .find(|g| g.group == task)
            .and_then(|g| g.scores.iter().find(|s| s.criterion == "stages"))
            .unwrap_or_else(|| panic!("no stages verdict for {task}: {groups:?}"))
            .clone()
    };
    // Both epoch scorers' verdicts are kept for a task, side by side.
    let criteria: Vec<&str> = groups
        .iter()
        .find(|g| g.group == "users")
        .unwrap()
        .scores
        .iter()
        .map(|s| s.criterion.as_str())
        .collect();
    assert_eq!(criteria, ["stages", "identical"]);
    let users = stages("users");
    assert_eq!(users.status, verity_model::ScoreStatus::Fail, "{users:?}");
    assert_eq!(
        users.explanation.as_deref(),
        Some(
            "the output drifted; first drift at stage `ui_plan` (epochs 0,2 vs 1); `api_ir` \
             identical in all 3 epochs"
        )
    );
    assert_eq!(users.value, Some(0.5));
    assert_eq!(
        users.evidence[0].snippet.as_deref(),
        Some("epoch 1 vs epochs 0,2: differ at $.title")
    );
    let products = stages("products");
    assert_eq!(
        products.status,
        verity_model::ScoreStatus::Pass,
        "{products:?}"
    );
    assert_eq!(
        products.explanation.as_deref(),
        Some(
            "first drift at stage `ui_plan` (epochs 0,2 vs 1); `api_ir` identical in all 3 \
             epochs; the output is identical in all 3 epochs"
        )
    );
    let orders = stages("orders");
    assert_eq!(orders.status, verity_model::ScoreStatus::Fail);
    assert_eq!(
        orders.explanation.as_deref(),
        Some(
            "deterministic stage `api_ir` drifted; the output drifted; first drift at stage \
             `api_ir` (epochs 0 vs 1 vs 2); later drift in `ui_plan`"
        )
    );

    // The JSON report: names and hashes per epoch, the failing verdict among group failures.
    let r = report(d);
    let tasks = r["per_task"].as_array().unwrap();
    let users_task = tasks.iter().find(|t| t["id"] == "users").unwrap();
    let epoch0 = &users_task["variants"]["default"]["epochs"][0]["artifacts"];
    assert_eq!(epoch0[0]["name"], "api_ir");
    assert_eq!(epoch0[0]["hash"], hash(0, 0).as_str());
    assert!(epoch0[0].get("value").is_none());
    assert_eq!(epoch0[1]["name"], "ui_plan");
    let failing: Vec<&str> = r["group_failures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["score"]["criterion"] == "stages")
        .map(|f| f["group"].as_str().unwrap())
        .collect();
    assert_eq!(failing, ["orders", "users"]);
    assert_eq!(r["per_task"][1]["variants"]["default"]["outcome"], "fail");
}

/// An answer served from the response cache carries its artifacts, and a second run scores
/// the same attribution from them.
#[test]
fn cached_answers_keep_their_artifacts() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    setup(d);
    run(d, "live");
    let first = stored_artifacts(d);
    run(d, "replay");
    let store = verity_store::Store::open(&d.join("v.db")).unwrap();
    let runs = store.list_runs().unwrap();
    assert_eq!(runs.len(), 2);
    let replayed = store.load_samples(&runs[0].id, None).unwrap();
    assert!(replayed.iter().all(|s| s.response.cache_hit));
    assert_eq!(stored_artifacts(d), first);
    assert!(
        replayed
            .iter()
            .all(|s| s.response.artifacts.iter().all(|a| a.value.is_some()))
    );
}
