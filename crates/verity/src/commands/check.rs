//! `verity check swift FILE…`: the Swift oracles on files, without a run.

use serde_json::json;

use crate::cli::{CheckCitationsArgs, CheckSwiftArgs, Format, FutureDeprecations};
use crate::{CliError, exit};

pub(super) fn check_swift(a: CheckSwiftArgs) -> Result<u8, CliError> {
    let target = verity_swift::Target::parse(&a.platform).ok_or_else(|| {
        CliError::usage(format!(
            "--platform {:?}: expected e.g. ios17.0, macos14.0",
            a.platform
        ))
    })?;
    let mut opts =
        verity_swift::cli::check_options_for(target, &a.index, a.deprecations.as_deref())
            .map_err(|e| CliError::new(e.kind(), e.to_string()))?;
    opts.toolchain = verity_swift::ToolchainChoice::parse(&a.toolchain);
    opts.require_toolchain = a.require_toolchain;
    opts.future = match a.future_deprecations {
        FutureDeprecations::Fail => verity_swift::FutureMode::Fail,
        FutureDeprecations::Warn => verity_swift::FutureMode::Warn,
    };
    let mut all_ok = true;
    for f in &a.files {
        let report = if f.as_os_str() == "-" {
            let mut src = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut src)
                .map_err(|e| CliError::io(format!("reading standard input: {e}")))?;
            verity_swift::check_source(&src, &opts)
        } else {
            verity_swift::cli::check_file(f, &opts)
                .map_err(|e| CliError::usage(format!("{}: {e}", f.display())))?
        };
        all_ok &= report.outcome;
        let mut v = serde_json::to_value(&report).unwrap_or_default();
        if let Some(o) = v.as_object_mut() {
            o.insert("file".into(), json!(f.display().to_string()));
        }
        match a.format {
            Format::Json | Format::Md => {
                println!("{}", serde_json::to_string(&v).unwrap_or_default())
            }
            Format::Table => {
                let mark = |b: bool| if b { "pass" } else { "FAIL" };
                println!(
                    "{}  parse {}  symbols {}  availability {}  deprecated {}  ({})",
                    f.display(),
                    mark(report.parse),
                    mark(report.symbols_exist),
                    mark(report.availability_ok),
                    mark(report.no_deprecated),
                    report.parser
                );
            }
        }
    }
    Ok(if all_ok { exit::OK } else { exit::GATE_FAILED })
}

/// The facts `verity check citations` checks against: `--facts FILE`. (A `--repo DIR` that
/// extracts them on the fly is one more branch here.)
/// The facts an answer is checked against: the file --facts names, else extracted from --repo.
fn citation_facts(a: &CheckCitationsArgs) -> Result<verity_facts::Facts, CliError> {
    if let Some(file) = &a.facts {
        return verity_facts::Facts::read(file).map_err(|e| CliError::new(e.kind(), e.to_string()));
    }
    let dir = a
        .repo
        .as_ref()
        .ok_or_else(|| CliError::usage("give --facts FACTS.json or --repo DIR"))?;
    let opts = verity_extract::ExtractOptions {
        git: true,
        ..verity_extract::ExtractOptions::default()
    };
    verity_extract::extract(dir, &opts).map_err(|e| CliError::new(e.kind(), e.to_string()))
}

/// Where behaviour claims run: the --repo checkout, in its language.
fn behaviour_env(
    a: &CheckCitationsArgs,
    facts: &verity_facts::Facts,
) -> Option<verity_oracles::behaviour::BehaviourEnv> {
    let dir = a.repo.as_ref()?;
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
    let language = verity_oracles::citations::behaviour_language(facts)?;
    let mut env = verity_oracles::behaviour::BehaviourEnv::new(dir, language);
    if let Some(cmd) = &a.test_command {
        env = env.test_command(cmd.split_whitespace().map(str::to_owned));
    }
    Some(env)
}

/// `verity check citations ANSWER --facts FACTS.json`: one answer checked as the `citations`
/// scorer checks it.
pub(super) fn check_citations(a: CheckCitationsArgs) -> Result<u8, CliError> {
    use verity_oracles::citations::{Question, Verdict, scores_with, verify};
    let mode = citation_mode(&a.mode)?;
    let question = match (&a.question_relation, &a.subject) {
        (Some(r), Some(s)) => {
            if !verity_oracles::citations::RELATIONS.contains(&r.as_str()) {
                return Err(CliError::usage(format!(
                    "--question-relation {r:?}: expected one of {}",
                    verity_oracles::citations::RELATIONS.join(", ")
                )));
            }
            Some(Question {
                relation: r.clone(),
                subject: s.clone(),
                object: a.object.clone(),
            })
        }
        _ => None,
    };
    let answer = if a.answer.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| CliError::io(format!("reading standard input: {e}")))?;
        s
    } else {
        std::fs::read_to_string(&a.answer).map_err(|e| {
            let kind = if e.kind() == std::io::ErrorKind::NotFound {
                verity_model::ErrorKind::NotFound
            } else {
                verity_model::ErrorKind::Io
            };
            CliError::new(kind, format!("{}: {e}", a.answer.display()))
        })?
    };
    let ix = verity_facts::FactsIndex::new(citation_facts(&a)?);
    let v = verify(&answer, mode, question.as_ref(), &ix);
    let env = behaviour_env(&a, ix.facts());
    let scored = scores_with("citations", &v, env.as_ref());
    let failed = scored
        .iter()
        .any(|s| matches!(s.status, verity_model::ScoreStatus::Fail));
    let shown = a.answer.display().to_string();
    let repo = ix.facts().repo.name.clone();
    match a.format {
        Format::Json | Format::Md => {
            let checks: Vec<serde_json::Value> = v
                .checks
                .iter()
                .map(|c| {
                    let (verdict, failure, why) = match &c.verdict {
                        Verdict::Verified(w) => ("verified", None, w),
                        Verdict::Failed(f, w) => ("failed", Some(f.as_str()), w),
                        Verdict::Unchecked(w) => ("unchecked", None, w),
                    };
                    json!({
                        "criterion": c.criterion.name(),
                        "what": c.what,
                        "verdict": verdict,
                        "failure": failure,
                        "why": why,
                        "file": c.file,
                        "line": c.line,
                        "answer_line": c.at.map(|p| p.0),
                        "answer_column": c.at.map(|p| p.1),
                    })
                })
                .collect();
            let out = json!({
                "answer": shown,
                "repo": repo,
                "read_as": v.read_as.as_str(),
                "verdict": if failed { "fail" } else { "pass" },
                "criteria": scored.iter().map(|s| json!({
                    "criterion": s.criterion,
                    "status": s.status.as_str(),
                    "explanation": s.explanation,
                    "metrics": s.metrics,
                })).collect::<Vec<_>>(),
                "checks": checks,
                "absent": v.absent.iter().map(|(c, w)| json!({"criterion": c.name(), "why": w})).collect::<Vec<_>>(),
                "behaviour": v.behaviour.iter().map(|c| c.show()).collect::<Vec<_>>(),
                "problem": v.problem,
            });
            println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        }
        Format::Table => {
            println!(
                "{shown}: read as {}, checked against `{repo}`",
                v.read_as.as_str()
            );
            for c in &v.checks {
                let (mark, why) = match &c.verdict {
                    Verdict::Verified(w) => ("verified".to_owned(), w.clone()),
                    Verdict::Failed(f, w) => (format!("FAILED {}", f.as_str()), w.clone()),
                    Verdict::Unchecked(w) => ("unchecked".to_owned(), w.clone()),
                };
                println!(
                    "  {:<18} {:<27} {}  ({why})",
                    c.criterion.name(),
                    mark,
                    c.what
                );
            }
            for (c, why) in &v.absent {
                println!("  {:<18} {:<27} {why}", c.name(), "ABSENT");
            }
            for c in &v.behaviour {
                println!("  {:<18} {:<27} {}", "behaviour", "not run", c.show());
            }
            if let Some(p) = &v.problem {
                println!("  note: {p}");
            }
            for s in &scored {
                println!(
                    "{:<18} {:<15} {}",
                    s.criterion,
                    s.status.as_str(),
                    s.explanation.as_deref().unwrap_or("")
                );
            }
            println!("verdict: {}", if failed { "fail" } else { "pass" });
        }
    }
    Ok(if failed { exit::GATE_FAILED } else { exit::OK })
}

fn citation_mode(s: &str) -> Result<verity_oracles::citations::Mode, CliError> {
    verity_oracles::citations::Mode::parse(s)
        .ok_or_else(|| CliError::usage(format!("--mode {s:?}: expected auto, text or json")))
}
