//! Seed 003's success criteria, each a test, through the real binary: a claims evaluation end
//! to end with hand-computed metrics, "true" matching true, a 5 % regression detected against
//! a saved baseline (and a 4 % one not), every fixture of the built-in corpus loading, and a
//! burst of 429s from a real HTTP endpoint survived.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::*;

const SUITE: &str = r#"name = "claims-mini"
tasks = "fixtures/*.toml"

[defaults]
provider = "mock"

[[scorers]]
kind = "claims"
"#;

/// A seed-003 fixture whose mock answer is `answer` (claims JSON).
fn fixture(id: &str, category: &str, answer: &Value, expected: &str) -> String {
    format!(
        "[metadata]\nid = \"{id}\"\ncategory = \"{category}\"\nlanguage = \"python\"\nmock_response = '''{}'''\n\n[input]\ncontent = '''\nimport requests\nrequests.get(url, verify=False)\n'''\n\n{expected}",
        answer
    )
}

const TLS_EXPECTED: &str = r#"[expected]
must_contain = [
  { subject = "tls/cert_verification", predicate = "enabled", value = false, rationale = "verify=False disables certificate checks" },
  { subject = "http/client", predicate = "library", value = "requests", rationale = "the client library" },
]
must_not_contain = [
  { subject = "tls/cert_verification", predicate = "enabled", value = true },
]

[scoring]
weight = 2.0
min_confidence = 0.8
"#;

const NEG_EXPECTED: &str = r#"[expected]
must_not_contain = [
  { subject = "secrets/api_key", predicate = "hardcoded", value = true },
]
"#;

fn claim(subject: &str, predicate: &str, value: Value, confidence: f64) -> Value {
    json!({"subject": subject, "predicate": predicate, "value": value, "confidence": confidence, "line": 2})
}

/// tls-001: both claims found ("true"-style coercion: the string "false"); tls-002: one found,
/// one below min_confidence, one unexpected; neg-001: no claims. Weights 2, 2, 1.
fn write_suite(dir: &Path, tls2_library: bool) {
    let tls1 = json!({"claims": [
        claim("app.tls.cert_verification", "enabled", json!("false"), 0.95),
        claim("http/client", "library", json!("requests"), 0.9),
    ]});
    let mut tls2_claims = vec![
        claim("tls/cert_verification", "enabled", json!(false), 0.9),
        claim("net/timeout", "seconds", json!(30), 0.9),
    ];
    tls2_claims.push(claim(
        "http/client",
        "library",
        json!("requests"),
        if tls2_library { 0.9 } else { 0.5 },
    ));
    let tls2 = json!({ "claims": tls2_claims });
    let neg = json!({"claims": []});
    write_tree(
        dir,
        &[
            ("s/suite.toml", SUITE),
            (
                "s/fixtures/tls-001.toml",
                &fixture("tls-001", "tls", &tls1, TLS_EXPECTED),
            ),
            (
                "s/fixtures/tls-002.toml",
                &fixture("tls-002", "tls", &tls2, TLS_EXPECTED),
            ),
            (
                "s/fixtures/neg-001.toml",
                &fixture("neg-001", "negative", &neg, NEG_EXPECTED),
            ),
        ],
    );
}

fn report(dir: &Path) -> Value {
    let out = run_ok(verity(dir).args(["report", "latest", "--format", "json", "--db", "v.db"]));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn close(a: &Value, b: f64) {
    let a = a.as_f64().unwrap_or(f64::NAN);
    assert!((a - b).abs() < 1e-12, "{a} != {b}");
}

#[test]
fn a_claims_run_end_to_end_matches_the_hand_computed_metrics() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_suite(d, false);
    run_ok(verity(d).args(["run", "s", "-q", "--db", "v.db"]));
    let r = report(d);
    let prf = &r["aggregate"]["prf"][0];
    assert_eq!(prf["key"], "must_contain");
    let v = &prf["variants"]["default"];
    // tls-001: tp 2·2. tls-002: tp 1·2, fn 1·2 (the library claim is below 0.8), fp 1·2 (the
    // timeout). neg-001: nothing.
    close(&v["tp"], 6.0);
    close(&v["fp"], 2.0);
    close(&v["fn"], 2.0);
    close(&v["precision"], 6.0 / 8.0);
    close(&v["recall"], 6.0 / 8.0);
    close(&v["f1"], 12.0 / 16.0);
    // Macro over the three fixtures: precision (1 + 0.5 + 1) / 3 (neg-001's 0/0 is 1).
    close(&v["macro_precision"], 2.5 / 3.0);
    close(&v["macro_recall"], 2.5 / 3.0);
    // By category: tls alone.
    let tls = &prf["categories"]["tls"]["default"];
    close(&tls["precision"], 6.0 / 8.0);
    // Per fixture, and its outcome: only tls-001 and neg-001 pass.
    let tasks = r["per_task"].as_array().unwrap();
    let outcome = |id: &str| {
        tasks.iter().find(|t| t["id"] == id).unwrap()["variants"]["default"]["outcome"].clone()
    };
    assert_eq!(outcome("tls-001"), "pass");
    assert_eq!(outcome("tls-002"), "fail");
    assert_eq!(outcome("neg-001"), "pass");
    let t2 = tasks.iter().find(|t| t["id"] == "tls-002").unwrap();
    close(&t2["variants"]["default"]["prf"]["must_contain"]["f1"], 0.5);
    // The table says the same, and names what tls-002 missed and why.
    let table = stdout(&run_ok(
        verity(d).args(["report", "latest", "--db", "v.db"]),
    ));
    assert!(table.contains("0.7500"), "{table}");
    assert!(table.contains("missing http/client library"), "{table}");
}

#[test]
fn a_five_point_regression_is_caught_against_the_baseline_and_a_four_point_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let expected = r#"[expected]
must_contain = [ { subject = "tls/cert_verification", predicate = "enabled", value = false, rationale = "r" } ]
"#;
    // Seed 003's gate: F1 may not drop 5 points from the baseline.
    let suite = format!("{SUITE}\n[[gates]]\nmetric = \"f1\"\nbaseline = true\nmax_drop = 0.05\n");
    let write = |found: &[bool]| {
        let mut files = vec![("s/suite.toml".to_owned(), suite.clone())];
        for (i, f) in found.iter().enumerate() {
            let claims = if *f {
                json!({"claims": [claim("tls/cert_verification", "enabled", json!(false), 0.9)]})
            } else {
                json!({"claims": []})
            };
            files.push((
                format!("s/fixtures/t{i:02}.toml"),
                fixture(&format!("tls-{i:03}"), "tls", &claims, expected),
            ));
        }
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        write_tree(d, &refs);
    };
    // 100 fixtures, one expected claim each: the baseline finds all (F1 = 1); then 8 missed
    // (F1 = 2·92 / (2·92 + 8) = 0.958, a 4.2-point drop: review) and 10 missed
    // (2·90 / 190 = 0.947, a 5.3-point drop: regression).
    let n = 100;
    write(&vec![true; n]);
    run_ok(verity(d).args(["run", "s", "-q", "--db", "v.db"]));
    run_ok(verity(d).args(["baseline", "save", "latest", "--db", "v.db"]));
    let mut found = vec![true; n];
    for f in found.iter_mut().take(8) {
        *f = false;
    }
    write(&found);
    let four = run_code(
        verity(d)
            .args(["run", "s", "-q", "--db", "v.db", "--gate", "f1@default>=0"])
            .args(["--baseline", "--threshold", "0.05"]),
        0,
    );
    let e = stderr(&four);
    assert!(
        e.contains("look f1 drop < 0.05 from baseline [default]"),
        "{e}"
    );
    assert!(e.contains("verdict: REVIEW"), "{e}");
    found[8] = false;
    found[9] = false;
    write(&found);
    let five = run_code(
        verity(d).args(["run", "s", "-q", "--db", "v.db", "--baseline"]),
        1,
    );
    let e = stderr(&five);
    assert!(
        e.contains("FAIL f1 drop < 0.05 from baseline [default]"),
        "{e}"
    );
    assert!(e.contains("verdict: REGRESSION"), "{e}");
}

#[test]
fn every_fixture_of_the_built_in_corpus_loads() {
    let out =
        run_ok(verity(&repo_root()).args(["list", "suites/claims-security", "--format", "json"]));
    let tasks: Value = serde_json::from_slice(&out.stdout).unwrap();
    let tasks = tasks.as_array().unwrap();
    let files = walk(&repo_root().join("suites/claims-security/fixtures"));
    assert_eq!(tasks.len(), files.len(), "one task per fixture file");
    assert!(tasks.len() >= 35, "{}", tasks.len());
    let mut languages: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            let line = text.lines().find(|l| l.starts_with("language = "))?;
            Some(
                line.trim_start_matches("language = ")
                    .trim_matches('"')
                    .to_owned(),
            )
        })
        .collect();
    languages.sort();
    languages.dedup();
    assert!(languages.len() >= 4, "{languages:?}");
    for c in ["tls", "jwt", "secrets", "auth", "negative", "edge"] {
        assert!(tasks.iter().any(|t| t["category"] == c), "no {c} fixture");
    }
    run_ok(verity(&repo_root()).args(["validate", "suites/claims-security"]));
}

/// Every fixture file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_burst_of_rate_limits_costs_no_fixture() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(verity_testkit::FakeServer::start_with(
        verity_testkit::FakeConfig::default().with_answer(|_| {
            json!({"claims": [{"subject": "tls/cert_verification", "predicate": "enabled", "value": "false", "confidence": 0.9, "line": 2}]}).to_string()
        }),
    ));
    server.fail_next(40, verity_testkit::Fault::rate_limited("0.05"));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_suite(d, true);
    let out = run_ok(
        verity(d)
            .env("VERITY_IT_KEY", "sk-test")
            .args([
                "run",
                "s",
                "-q",
                "--db",
                "v.db",
                "--provider",
                "openai",
                "--model",
                "m",
            ])
            .args([
                "--base-url",
                &server.base_url(),
                "--api-key-env",
                "VERITY_IT_KEY",
                "-j",
                "3",
            ]),
    );
    let r = report(d);
    let v = &r["aggregate"]["per_variant"][0];
    assert_eq!(v["error"], 0, "{}", stderr(&out));
    assert_eq!(v["samples"], 3);
    assert!(
        server.stats().requests >= 43,
        "the burst was answered: {:?}",
        server.stats()
    );
}

/// A fixture far larger than the model's context ends as a clear per-sample error (not a
/// crash, not a silent truncation). SmolLM2 (8k context) is the model CI pulls.
#[test]
fn a_fixture_larger_than_the_context_is_a_clear_per_sample_error() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("v.db");
    let out = run_code(
        verity(&repo_root())
            .args([
                "run",
                "suites/claims-security",
                "--filter",
                "edge-002",
                "-q",
            ])
            .args(["--model", "smollm2-135m-instruct", "--cache", "off", "--db"])
            .arg(&db),
        3,
    );
    let e = stderr(&out);
    assert!(
        e.contains("every one of the 1 samples stored ended in an infrastructure error"),
        "{e}"
    );
    let store = verity_store::Store::open_read_only(&db).unwrap();
    let id = store.resolve_run("latest").unwrap();
    let samples = store.load_samples(&id, None).unwrap();
    let err = samples[0]
        .response
        .error
        .as_ref()
        .expect("an error, not an answer");
    assert!(
        err.message
            .contains("which leaves no room in the context of"),
        "{}",
        err.message
    );
}

/// Robust mode (seed 003 §8) as data: `[perturb]` makes formatting-only copies of each fixture,
/// and the `stability` scorer reports, per fixture, the share of copies whose claims equal the
/// original's. The stand-in extractor is thrown by the inserted comment, not by whitespace.
#[test]
fn robust_mode_computes_stability_per_fixture_and_overall() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let extract = r#"req=$(cat)
case "$req" in
  *"NOTE: formatting only"*) echo '{"claims": []}' ;;
  *) echo '{"claims": [{"subject": "tls/cert_verification", "predicate": "enabled", "value": false, "confidence": 0.9, "line": 3}]}' ;;
esac
"#;
    let suite = format!(
        "{}\n[[scorers]]\nkind = \"stability\"\n\n[outcome]\nall = [\"must_contain\"]\n\n[perturb]\nkinds = [\"trailing-whitespace\", \"comment\"]\n",
        SUITE.replace("provider = \"mock\"", "provider = \"command\"")
    );
    let answer = json!({"claims": []});
    write_tree(
        d,
        &[
            ("extract.sh", extract),
            ("s/suite.toml", &suite),
            (
                "s/fixtures/tls-001.toml",
                &fixture("tls-001", "tls", &answer, TLS_EXPECTED),
            ),
        ],
    );
    run_ok(
        verity(d)
            .args(["run", "s", "-q", "--db", "v.db", "--command"])
            .arg(format!("sh {}", d.join("extract.sh").display())),
    );
    let r = report(d);
    let ids: Vec<&str> = r["per_task"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["tls-001", "tls-001~ws", "tls-001~comment"]);
    let g = r["aggregate"]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["criterion"] == "stability")
        .expect("a stability group summary")
        .clone();
    assert_eq!(g["scope"], "group:perturbation_of");
    let v = &g["variants"]["default"];
    assert_eq!(v["groups"], 1);
    assert_eq!(v["fail"], 1);
    close(&v["mean_value"], 0.5);
    let f = &r["group_failures"][0];
    assert_eq!(f["group"], "tls-001");
    assert!(
        f["score"]["evidence"]
            .to_string()
            .contains("`tls-001~comment` (comment, epoch 0) changed the answer"),
        "{f}"
    );
    assert_eq!(f["score"]["metrics"]["flips"], 1.0);
}
