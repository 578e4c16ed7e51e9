//! The versioned JSON report (seed 000 §7.2 is its model). Every field is documented in
//! `docs/report-schema.md`; changing a field's meaning or removing one bumps
//! [`JSON_SCHEMA_VERSION`].

use serde::Serialize;
use serde_json::{Map, Value, json};
use verity_model::{ErrorPolicy, OutcomeMode, SampleRecord, Score, ScoreStatus};
use verity_stats::Alternative;

use crate::view::{Comparison, PrfCounts, Rate, RunView, TaskView};

/// The version of the JSON report's shape. Additive changes (a new field) keep it; renaming,
/// removing or re-defining a field bumps it.
pub const JSON_SCHEMA_VERSION: u32 = 1;

/// The run as a JSON document with the gates' verdict and the comparison with the baseline,
/// when the command computed them (`gates`, `baseline_comparison`; absent otherwise).
pub fn to_json_with(view: &RunView, extras: &Extras<'_>) -> Value {
    let mut v = to_json(view);
    if let Some(o) = v.as_object_mut() {
        if let Some(g) = extras.gates {
            o.insert("gates".into(), crate::verdict::gates_json(g));
        }
        if let Some(d) = extras.baseline {
            o.insert("baseline_comparison".into(), crate::verdict::diff_json(d));
        }
        if let Some(costs) = extras.costs {
            o.insert(
                "cost".into(),
                json!({
                    "variants": view.per_variant.iter().map(|v| (v.variant.clone(), json!({
                        "input_tokens": v.tokens_in,
                        "output_tokens": v.tokens_out,
                        "usd": costs.iter().find(|(n, _)| n == &v.variant).and_then(|(_, c)| *c),
                    }))).collect::<Map<_, _>>(),
                }),
            );
        }
    }
    v
}

/// What a command adds to a run's report: its gates and its comparison with the baseline.
#[derive(Clone, Copy, Debug, Default)]
pub struct Extras<'a> {
    pub gates: Option<&'a crate::verdict::GateReport>,
    pub baseline: Option<&'a [crate::verdict::SideDiff]>,
    /// Each variant's cost in USD at list prices (`None`: no price known).
    pub costs: Option<&'a [(String, Option<f64>)]>,
}

/// The run as a JSON document; see `docs/report-schema.md`.
pub fn to_json(view: &RunView) -> Value {
    let h = &view.header;
    let outcome = json!({
        "mode": match h.outcome.mode { OutcomeMode::All => "all", OutcomeMode::Any => "any" },
        "criteria": h.outcome.criteria,
        "errors": match h.outcome.errors { ErrorPolicy::Fail => "fail", ErrorPolicy::Exclude => "exclude" },
    });
    json!({
        "schema_version": JSON_SCHEMA_VERSION,
        "harness": "verity",
        "verity_version": h.verity_version,
        "run": {
            "id": h.run_id,
            "suite": {
                "name": h.suite_name,
                "path": h.suite_path,
                "description": h.suite_description,
                "content_hash": h.suite_hash,
            },
            "status": h.json_status(),
            "started_at": h.started_at,
            "finished_at": h.finished_at,
            "duration_ms": h.duration_ms,
            "scoring": h.scoring,
            "samples_completed": h.samples_completed,
            "samples_total": h.samples_total,
            "epochs": h.epochs,
            "outcome": outcome,
            "schemas": h.schemas.iter().map(|s| json!({
                "used_by": s.used_by,
                "file": s.file,
                "hash": s.hash,
            })).collect::<Vec<_>>(),
            "preflight": h.preflight.iter().map(|(name, p)| (name.clone(), json!({
                "facts": p.facts,
                "warnings": p.warnings,
                "notes": p.notes,
            }))).collect::<Map<_, _>>(),
        },
        "toolchain": h.toolchain,
        "seed_criteria": view.seed_criteria.iter()
            .map(|(seed, key)| (seed.clone(), Value::String(key.clone())))
            .collect::<Map<_, _>>(),
        "n_tasks": view.tasks.len(),
        "variants": view.variants.iter().map(|v| json!({
            "name": v.name,
            "model": v.model,
            "prompt_hash": v.prompt_hash,
            "grounding": to_value(&v.grounding),
            "in_suite": v.in_suite,
        })).collect::<Vec<_>>(),
        "per_task": view.tasks.iter().map(|t| task(view, t)).collect::<Vec<_>>(),
        "aggregate": aggregate(view),
        "failures": view.failures.iter().map(|f| json!({
            "task": f.key.task_id,
            "variant": f.key.variant,
            "epoch": f.key.epoch,
            "outcome": f.outcome.as_str(),
            "error": to_value(&f.error),
            "criteria": f.criteria.iter().map(|c| json!({
                "key": c.key,
                "scorer": c.score.scorer,
                "criterion": c.score.criterion,
                "status": c.score.status.as_str(),
                "explanation": c.score.explanation,
                "evidence": to_value(&c.score.evidence.first()),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "group_failures": view.group_failures.iter().map(|g| json!({
            "variant": g.variant,
            "scope": g.scope,
            "group": g.group,
            "task_ids": g.task_ids,
            "score": to_value(&g.score),
        })).collect::<Vec<_>>(),
        "group_scores": view.group_scores.iter().map(|g| json!({
            "variant": g.variant,
            "scope": g.scope,
            "group": g.group,
            "task_ids": g.task_ids,
            "scorer": g.score.scorer,
            "criterion": g.score.criterion,
            "status": g.score.status.as_str(),
            "value": g.score.value,
            "explanation": g.score.explanation,
            "metrics": g.score.metrics,
        })).collect::<Vec<_>>(),
        "determinism": view.determinism.iter().map(|v| json!({
            "variant": v.variant,
            "passed": v.passed,
            "tasks_passed": v.tasks_passed,
            "tasks": v.tasks.len(),
            "validity": v.validity,
            "similarity": v.similarity,
            "errors": v.errors,
            "per_task": v.tasks.iter().map(|t| json!({
                "task": t.task,
                "passed": t.passed,
                "epochs": t.epochs,
                "valid": t.valid,
                "validity": t.validity(),
                "similarity": t.similarity,
                "weakest": t.similarity_note,
                "identical": t.identical,
                "byte_identical": t.byte_identical,
                "errors": t.errors,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "citations": view.citations.iter().map(|v| {
            let mut metrics = Map::new();
            for t in crate::view::CitationVariant::TARGETS {
                let value = t.value(v);
                metrics.insert(t.metric.into(), json!({
                    "value": value,
                    "target": if t.above { json!({"above": t.bound}) } else { json!({"below": t.bound}) },
                    "met": t.met(value),
                }));
            }
            json!({
                "variant": v.variant,
                "samples": v.samples,
                "citations": v.citations,
                "citations_verified": v.citations_verified,
                "claims": v.claims,
                "claims_verified": v.claims_verified,
                "groups": v.groups,
                "groups_consistent": v.groups_consistent,
                "groups_not_applicable": v.groups_not_applicable,
                "metrics": metrics,
            })
        }).collect::<Vec<_>>(),
        "notes": view.notes,
    })
}

/// Serializes a model value; the model's types always serialize, so `Null` is unreachable in
/// practice and only keeps this function total.
fn to_value<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

fn rate(r: &Rate) -> Value {
    json!({
        "successes": r.successes,
        "n": r.n,
        "value": r.value(),
        "ci95": r.ci95().map(|(lo, hi)| [lo, hi]),
    })
}

fn verdict(scores: &[&Score]) -> Value {
    if scores.iter().any(|s| s.status == ScoreStatus::Fail) {
        Value::Bool(false)
    } else if scores.iter().any(|s| s.status == ScoreStatus::Pass) {
        Value::Bool(true)
    } else {
        Value::Null
    }
}

fn epoch(view: &RunView, s: &SampleRecord) -> Value {
    let mut criteria = Map::new();
    let mut keys: Vec<String> = Vec::new();
    for sc in &s.scores {
        let k = key_of(view, sc);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    for k in keys {
        let same: Vec<&Score> = s.scores.iter().filter(|sc| key_of(view, sc) == k).collect();
        criteria.insert(k, verdict(&same));
    }
    // The extracted code appears once, as the epoch's `code`, not again inside its score.
    let code = s.scores.iter().find_map(|sc| sc.extracted.clone());
    let scores: Vec<Value> = s
        .scores
        .iter()
        .map(|sc| {
            let mut v = to_value(sc);
            if let Some(o) = v.as_object_mut() {
                o.remove("extracted");
            }
            v
        })
        .collect();
    json!({
        "epoch": s.key.epoch,
        "outcome": s.outcome.as_str(),
        "text": s.response.text,
        "code": code,
        "tool_calls": to_value(&s.response.tool_calls),
        "criteria": criteria,
        "scores": scores,
        "error": to_value(&s.response.error),
        "latency_ms": s.response.latency_ms,
        "usage": {
            "input_tokens": s.response.usage.input_tokens,
            "output_tokens": s.response.usage.output_tokens,
        },
        "cache_hit": s.response.cache_hit,
        "attempts": s.response.attempts,
        "model": s.response.model,
        "finish_reason": s.response.finish_reason,
        // Names and hashes only: the values stay in the store, the report stays small.
        "artifacts": s.response.artifacts.iter().map(|a| json!({
            "name": a.name,
            "hash": a.hash,
            "size": a.size,
        })).collect::<Vec<_>>(),
        "completed_at": s.completed_at,
    })
}

/// The report key of a score's criterion (see `CriterionSummary::key`).
fn key_of(view: &RunView, s: &Score) -> String {
    view.per_criterion
        .iter()
        .find(|c| c.scorer == s.scorer && c.criterion == s.criterion)
        .map(|c| c.key.clone())
        .unwrap_or_else(|| s.criterion.clone())
}

fn task(view: &RunView, t: &TaskView) -> Value {
    json!({
        "id": t.id,
        "prompt": t.prompt,
        "category": t.category,
        "metadata": t.metadata,
        "in_suite": t.in_suite,
        "source": t.source.as_ref().map(|s| json!({
            "file": s.file,
            "line": s.line,
            "column": s.column,
        })),
        "variants": t.variants.iter().map(|v| {
            let mut o = json!({
                "outcome": v.outcome.as_str(),
                "epochs": v.epochs.iter().map(|s| epoch(view, s)).collect::<Vec<_>>(),
            });
            // The task's own precision / recall / F1, per counting criterion.
            let prf: Map<String, Value> = view
                .prf
                .iter()
                .map(|p| (p.key.clone(), prf_json(&crate::view::prf_of(&v.epochs, &p.scorer, &p.criterion))))
                .filter(|(_, c)| c["samples"] != json!(0))
                .collect();
            if !prf.is_empty() {
                o["prf"] = Value::Object(prf);
            }
            (v.variant.clone(), o)
        }).collect::<Map<_, _>>(),
    })
}

fn prf_json(k: &PrfCounts) -> Value {
    json!({
        "samples": k.samples,
        "tp": k.tp,
        "fp": k.fp,
        "fn": k.fn_,
        "precision": k.micro.map(|m| m.precision),
        "recall": k.micro.map(|m| m.recall),
        "f1": k.micro.map(|m| m.f1),
        "macro_precision": k.macro_precision,
        "macro_recall": k.macro_recall,
        "macro_f1": k.macro_f1,
    })
}

fn aggregate(view: &RunView) -> Value {
    let policy = view.error_policy();
    json!({
        "per_variant": view.per_variant.iter().map(|v| json!({
            "variant": v.variant,
            "samples": v.samples,
            "expected_samples": v.expected,
            "pass": v.counts.pass,
            "fail": v.counts.fail,
            "error": v.counts.error,
            "rate": rate(&v.rate),
            "latency_ms": {
                "mean": v.latency.mean_ms,
                "p50": v.latency.p50_ms,
                "p95": v.latency.p95_ms,
            },
            "tokens": { "input": v.tokens_in, "output": v.tokens_out },
            "cache_hits": v.cache_hits,
        })).collect::<Vec<_>>(),
        "per_criterion": view.per_criterion.iter().map(|c| json!({
            "key": c.key,
            "scorer": c.scorer,
            "criterion": c.criterion,
            "in_outcome": c.in_outcome,
            "variants": c.per_variant.iter().map(|(v, k)| (v.clone(), json!({
                "pass": k.pass,
                "fail": k.fail,
                "not_applicable": k.not_applicable,
                "error": k.error,
                "rate": rate(&k.rate(policy)),
            }))).collect::<Map<_, _>>(),
        })).collect::<Vec<_>>(),
        "per_category": view.per_category.iter().map(|c| json!({
            "category": c.category,
            "tasks": c.tasks,
            "variants": c.per_variant.iter().map(|(v, k)| (v.clone(), json!({
                "pass": k.pass,
                "fail": k.fail,
                "error": k.error,
                "rate": rate(&k.rate(policy)),
            }))).collect::<Map<_, _>>(),
        })).collect::<Vec<_>>(),
        "prf": view.prf.iter().map(|p| json!({
            "key": p.key,
            "scorer": p.scorer,
            "criterion": p.criterion,
            "variants": p.per_variant.iter().map(|(v, k)| (v.clone(), prf_json(k))).collect::<Map<_, _>>(),
            "categories": p.per_category.iter().map(|(c, per)| (c.clone(), Value::Object(
                per.iter().map(|(v, k)| (v.clone(), prf_json(k))).collect(),
            ))).collect::<Map<_, _>>(),
        })).collect::<Vec<_>>(),
        "groups": view.groups.iter().map(|g| json!({
            "scope": g.scope,
            "scorer": g.scorer,
            "criterion": g.criterion,
            "variants": g.per_variant.iter().map(|(v, k)| (v.clone(), json!({
                "groups": k.groups,
                "pass": k.status.pass,
                "fail": k.status.fail,
                "not_applicable": k.status.not_applicable,
                "error": k.status.error,
                "mean_value": k.mean_value,
            }))).collect::<Map<_, _>>(),
        })).collect::<Vec<_>>(),
        "comparisons": view.comparisons.iter().map(comparison).collect::<Vec<_>>(),
    })
}

fn comparison(c: &Comparison) -> Value {
    let m = c.mcnemar.as_ref();
    let one_sided = m.and_then(|m| match Alternative::parse(&c.alternative) {
        Some(Alternative::Greater) => Some(m.p_exact_greater),
        Some(Alternative::Less) => Some(m.p_exact_less),
        _ => None,
    });
    json!({
        "test": c.test,
        "treatment": c.treatment,
        "control": c.control,
        "alternative": c.alternative,
        "declared": c.declared,
        "contingency": c.contingency,
        "n_pairs": c.n_pairs(),
        "unpaired": c.unpaired,
        "mcnemar_b": c.contingency[0][1],
        "mcnemar_c": c.contingency[1][0],
        "mcnemar_chi2": m.map(|m| m.chi2),
        "mcnemar_p_chi2": m.map(|m| m.p_chi2),
        "mcnemar_p_exact": m.map(|m| m.p_exact_two_sided),
        "mcnemar_p_exact_one_sided": one_sided,
        "mcnemar_p_exact_greater": m.map(|m| m.p_exact_greater),
        "mcnemar_p_exact_less": m.map(|m| m.p_exact_less),
        "mcnemar_p_mid": m.map(|m| m.p_mid),
        "exact_recommended": m.map(|m| m.exact_recommended),
        "p_quoted": c.quoted.map(|q| q.0),
        "p_method": c.quoted.map(|q| q.1.as_str()),
        "discordant": c.discordant.iter().map(|d| json!({
            "task": d.task_id,
            "winner": d.winner.as_str(),
            "failing_variant": d.failing_variant,
            "failing_epoch": d.failing_epoch,
            "failing_criteria": d.failing_criteria,
            "reason": d.reason,
        })).collect::<Vec<_>>(),
        "notes": c.notes,
    })
}
