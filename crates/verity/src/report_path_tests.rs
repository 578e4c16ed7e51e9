//! `[report]` paths: the loader accepts exactly the placeholders `expand_report_path` fills
//! (`verity_model::REPORT_PLACEHOLDERS`), so a path that validates never keeps a `{name}`.

use verity_model::{REPORT_PLACEHOLDERS, ReportSpec, RunMeta, RunOptions, RunStatus, Suite};

fn meta() -> RunMeta {
    RunMeta {
        id: "20250101-120000-abcd".into(),
        suite_path: "s".into(),
        suite: Suite {
            name: "demo".into(),
            ..Suite::default()
        },
        options: RunOptions::default(),
        started_at: "2025-01-01T12:00:00Z".into(),
        finished_at: None,
        status: RunStatus::Completed,
        verity_version: String::new(),
        models: Default::default(),
        prompt_hashes: Default::default(),
        total_samples: 0,
        scoring: 1,
        preflight: Default::default(),
        liveness: Default::default(),
    }
}

#[test]
fn every_placeholder_the_loader_accepts_is_filled() {
    let m = meta();
    for name in REPORT_PLACEHOLDERS {
        let template = format!("x-{{{name}}}.json");
        let path = super::expand_report_path(&template, &m);
        let shown = path.to_string_lossy();
        assert!(
            ReportSpec::placeholders(&shown).is_empty() && !shown.contains(&format!("{{{name}}}")),
            "`{template}` expanded to `{shown}`"
        );
    }
    let path = super::expand_report_path("{nope}-{suite}.md", &m);
    assert_eq!(path.to_string_lossy(), "{nope}-demo.md");
}
