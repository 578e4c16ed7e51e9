//! The built-in determinism suite (seed 004) end to end on the embedded model CI pulls
//! (SmolLM2): the LLM-only variants in process, the pipeline variants through the real
//! `pipeline.py` behind the `command` provider, which calls this very binary back
//! (`$VERITY_EXE model generate`) with the plan schema enforced while decoding.

use serde_json::Value;

use crate::support::{repo_root, run_builtin_quick};

fn variant<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["determinism"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["variant"] == name)
        .unwrap_or_else(|| panic!("no determinism entry for {name}: {report:#}"))
}

/// Temperature 0 gives byte-identical epochs (the engine is deterministic), 0.8 without a seed
/// does not; the pipeline's parsing stage never drifts; the JSON report on standard output
/// carries seed 004's per-fixture summary and the schema's hash.
#[test]
fn the_determinism_suite_tells_temperature_0_from_0_8() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("v.db");
    // The verdict follows the gates on the temperature-0 variants; what this small model
    // plans may break the integrity rule, so only a crash or a usage error is wrong here.
    let report = run_builtin_quick("suites/determinism", &db);
    // --quick: two documents, `[run] quick_epochs = 3` epochs each (not the suite's 5), four
    // variants.
    assert_eq!(report["run"]["epochs"], 3);
    assert_eq!(report["run"]["samples_total"], 24);

    // The header names the plan schema with the hash of its canonical JSON.
    let schema_file = repo_root().join("suites/determinism/schemas/ui-plan.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_file).unwrap()).unwrap();
    let hash = verity_model::canonical_hash(&schema);
    let schemas = report["run"]["schemas"].as_array().unwrap();
    assert!(
        schemas
            .iter()
            .any(|s| s["file"] == "schemas/ui-plan.json" && s["hash"] == hash.as_str()),
        "{schemas:#?}"
    );
    assert!(
        schemas
            .iter()
            .any(|s| s["used_by"] == "variant llm-t0" && s["hash"] == hash.as_str()),
        "the response_schema is the same file: {schemas:#?}"
    );

    for name in ["llm-t0", "pipeline-t0"] {
        let v = variant(&report, name);
        assert_eq!(v["errors"], 0, "{name}: {v:#}");
        for t in v["per_task"].as_array().unwrap() {
            assert_eq!(t["epochs"], 3, "{name}: {t:#}");
            assert_eq!(t["byte_identical"], 1.0, "{name}: greedy decoding: {t:#}");
            assert_eq!(t["identical"], 1.0, "{name}: {t:#}");
            assert_eq!(t["similarity"], 1.0, "{name}: {t:#}");
        }
    }
    // Unseeded sampling at 0.8: some task's epochs differ byte for byte.
    for name in ["llm-t0.8", "pipeline-t0.8"] {
        let v = variant(&report, name);
        assert!(
            v["per_task"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["byte_identical"].as_f64().is_some_and(|b| b < 1.0)),
            "{name}: {v:#}"
        );
    }

    // The pipeline's stages: parsing (`api_ir`) is identical in every epoch at both
    // temperatures; at 0.8 the stages verdict pins any drift on a later stage.
    let stages: Vec<&Value> = report["group_scores"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["criterion"] == "stages")
        .collect();
    let of = |variant: &str| -> Vec<&Value> {
        stages
            .iter()
            .copied()
            .filter(|g| g["variant"] == variant)
            .collect()
    };
    assert_eq!(of("pipeline-t0").len(), 2, "{stages:#?}");
    for g in of("pipeline-t0") {
        assert_eq!(g["status"], "pass", "{g:#}");
    }
    for g in of("pipeline-t0.8") {
        let why = g["explanation"].as_str().unwrap_or_default();
        assert!(!why.contains("first drift at stage `api_ir`"), "{why}");
        if g["status"] == "fail" {
            assert!(why.contains("`api_ir` identical"), "{why}");
        }
    }
    // The LLM-only variants have no artifacts: the stages verdict does not apply.
    for g in of("llm-t0") {
        assert_eq!(g["status"], "not_applicable", "{g:#}");
    }
}
