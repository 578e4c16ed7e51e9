//! `stages`: stage attribution across epochs (seed 004's `uiPlanHash`). A pipeline behind the
//! `command` provider reports its intermediate results as named artifacts, each stored with a
//! hash; when epochs differ, this scorer names the first stage whose hash differs, so a drift is
//! pinned on the stage that caused it (the model's plan) rather than on the ones after it.
//!
//! The verdict **fails** when an epoch errored (an invalid run, seed 004 §12), when a stage
//! declared `deterministic` drifted or is in no epoch (the seed's sanity check: parsing the
//! OpenAPI document must give the same ApiIR every time), or when the final answer (its text,
//! byte for byte) differs across epochs — then the explanation says which stage drifted first,
//! or that every stage held and the drift came after the last one. Drift in an undeclared
//! stage whose effect the later stages absorbed (the answer is identical) passes, attributed in
//! the explanation. The value is the share of stages whose hash is the same in every epoch. A
//! stage missing from some epochs counts as drifted.

use serde_json::Value;
use verity_catalog::json_path::{Location, Step};
use verity_model::{Artifact, Evidence, GroupMember, Scope, Score, Scorer, json_type_phrase};

use crate::common::na;

pub(crate) struct Stages {
    pub(crate) name: String,
    pub(crate) criterion: String,
    /// Stages that must not drift: one that does fails the score.
    pub(crate) deterministic: Vec<String>,
}

/// One stage across the epochs: for each epoch (in order), its artifact, if it has one.
struct Stage<'a> {
    name: &'a str,
    per_epoch: Vec<Option<&'a Artifact>>,
}

/// Epochs sharing one hash of a stage (`None`: the stage is missing from them).
struct Cluster<'a> {
    hash: Option<&'a str>,
    epochs: Vec<u32>,
    /// The first such epoch's artifact, for the structural description.
    artifact: Option<&'a Artifact>,
}

impl<'a> Stage<'a> {
    /// The epochs grouped by hash, the largest group first (ties: earliest epoch first).
    fn clusters(&self, epochs: &[u32]) -> Vec<Cluster<'a>> {
        let mut clusters: Vec<Cluster<'a>> = Vec::new();
        for (a, &epoch) in self.per_epoch.iter().zip(epochs) {
            let hash = a.map(|a| a.hash.as_str());
            match clusters.iter_mut().find(|c| c.hash == hash) {
                Some(c) => c.epochs.push(epoch),
                None => clusters.push(Cluster {
                    hash,
                    epochs: vec![epoch],
                    artifact: *a,
                }),
            }
        }
        // Stable: equal sizes keep the order of their first epoch.
        clusters.sort_by_key(|c| std::cmp::Reverse(c.epochs.len()));
        clusters
    }
}

/// `0,2` for a list of epochs.
fn epoch_list(epochs: &[u32]) -> String {
    epochs
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// `epoch 1` or `epochs 0,2`.
fn epochs_phrase(epochs: &[u32]) -> String {
    if epochs.len() == 1 {
        format!("epoch {}", epochs[0])
    } else {
        format!("epochs {}", epoch_list(epochs))
    }
}

impl Scorer for Stages {
    fn kind(&self) -> &str {
        "stages"
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn scope(&self) -> Scope {
        Scope::Epochs
    }

    fn score_group(&self, members: &[GroupMember<'_>]) -> Vec<Score> {
        let mut members: Vec<&GroupMember<'_>> = members.iter().collect();
        members.sort_by_key(|m| m.epoch);
        let (errored, valid): (Vec<&GroupMember<'_>>, Vec<&GroupMember<'_>>) =
            members.into_iter().partition(|m| m.response.is_error());
        // An errored epoch is an invalid run: the task fails, whatever the others show.
        let invalid: Vec<Evidence> = errored
            .iter()
            .map(|m| {
                let e = m.response.error.as_ref();
                Evidence::msg(format!(
                    "epoch {} is an invalid run: {}: {}",
                    m.epoch,
                    e.map_or("error", |e| e.kind.as_str()),
                    e.map_or("", |e| e.message.as_str())
                ))
            })
            .collect();
        let attributed = self.attribute(&valid);
        if invalid.is_empty() {
            return vec![attributed.unwrap_or_else(|why| na(&self.name, &self.criterion, &why))];
        }
        let errored_epochs: Vec<u32> = errored.iter().map(|m| m.epoch).collect();
        let head = format!("invalid run: {} errored", epochs_phrase(&errored_epochs));
        let mut s = Score::fail(&self.name, &self.criterion);
        s.evidence = invalid;
        match attributed {
            Ok(a) => {
                let rest = a.explanation.unwrap_or_default();
                s.explanation = Some(format!("{head}; over the other epochs: {rest}"));
                s.evidence.extend(a.evidence);
                s.value = a.value;
            }
            Err(_) => s.explanation = Some(head),
        }
        vec![s]
    }
}

impl Stages {
    /// The score over epochs that answered; `Err` says why nothing applies.
    fn attribute(&self, members: &[&GroupMember<'_>]) -> Result<Score, String> {
        if !members.iter().any(|m| !m.response.artifacts.is_empty()) {
            return Err(
                "no epoch has artifacts (named stage results of a `command` pipeline)".into(),
            );
        }
        if members.len() < 2 {
            return Err("fewer than two epochs to compare".into());
        }
        let epochs: Vec<u32> = members.iter().map(|m| m.epoch).collect();
        let n = epochs.len();
        // Stage order: as the epochs list them, earliest epoch first.
        let mut names: Vec<&str> = Vec::new();
        for m in members {
            for a in &m.response.artifacts {
                if !names.contains(&a.name.as_str()) {
                    names.push(&a.name);
                }
            }
        }
        let stages: Vec<Stage<'_>> = names
            .iter()
            .map(|&name| Stage {
                name,
                per_epoch: members
                    .iter()
                    .map(|m| m.response.artifacts.iter().find(|a| a.name == name))
                    .collect(),
            })
            .collect();
        let clustered: Vec<(&Stage<'_>, Vec<Cluster<'_>>)> =
            stages.iter().map(|s| (s, s.clusters(&epochs))).collect();
        let drifted: Vec<&(&Stage<'_>, Vec<Cluster<'_>>)> =
            clustered.iter().filter(|(_, c)| c.len() > 1).collect();
        let value = (stages.len() - drifted.len()) as f64 / stages.len() as f64;

        // The final answer, byte for byte: the epochs grouped by their text.
        let mut outputs: Vec<(&str, Vec<u32>)> = Vec::new();
        for m in members {
            match outputs.iter_mut().find(|(t, _)| *t == m.response.text) {
                Some((_, e)) => e.push(m.epoch),
                None => outputs.push((&m.response.text, vec![m.epoch])),
            }
        }
        outputs.sort_by_key(|(_, e)| std::cmp::Reverse(e.len()));
        let output_drifted = outputs.len() > 1;

        // Declared stages that drifted, and declared stages no epoch reported.
        let broken: Vec<&str> = drifted
            .iter()
            .map(|(s, _)| s.name)
            .filter(|name| self.deterministic.iter().any(|d| d == name))
            .collect();
        let absent: Vec<&str> = self
            .deterministic
            .iter()
            .map(String::as_str)
            .filter(|d| !names.contains(d))
            .collect();

        let mut parts: Vec<String> = Vec::new();
        if !broken.is_empty() {
            parts.push(format!(
                "deterministic {} {} drifted",
                if broken.len() == 1 { "stage" } else { "stages" },
                stage_names(&broken)
            ));
        }
        if !absent.is_empty() {
            parts.push(if absent.len() == 1 {
                format!(
                    "declared deterministic stage {} is in no epoch",
                    stage_names(&absent)
                )
            } else {
                format!(
                    "declared deterministic stages {} are in no epoch",
                    stage_names(&absent)
                )
            });
        }
        match drifted.first() {
            None if output_drifted => {
                parts.push("the output drifted after the last stage".into());
                parts.push(format!(
                    "{} identical in all {n} epochs",
                    stage_names(&names)
                ));
            }
            None => parts.push(format!(
                "no drift: {} and the output identical in all {n} epochs",
                stage_names(&names)
            )),
            Some((first, clusters)) => {
                if output_drifted {
                    parts.push("the output drifted".into());
                }
                parts.push(format!(
                    "first drift at stage `{}` ({})",
                    first.name,
                    clusters_phrase(clusters)
                ));
                let before: Vec<&str> = names
                    .iter()
                    .copied()
                    .take_while(|&name| name != first.name)
                    .collect();
                if !before.is_empty() {
                    parts.push(format!(
                        "{} identical in all {n} epochs",
                        stage_names(&before)
                    ));
                }
                let later: Vec<&str> = drifted.iter().skip(1).map(|(s, _)| s.name).collect();
                if !later.is_empty() {
                    parts.push(format!("later drift in {}", stage_names(&later)));
                }
                if !output_drifted {
                    parts.push(format!("the output is identical in all {n} epochs"));
                }
            }
        }
        let fails = !broken.is_empty() || !absent.is_empty() || output_drifted;
        let mut s = if fails {
            Score::fail(&self.name, &self.criterion)
        } else {
            Score::pass(&self.name, &self.criterion)
        }
        .explain(parts.join("; "));
        for (i, (stage, clusters)) in drifted.iter().enumerate() {
            let mut e = Evidence::msg(format!(
                "stage `{}`: {}",
                stage.name,
                clusters
                    .iter()
                    .map(|c| match c.hash {
                        Some(_) => format!(
                            "{} in {}",
                            c.artifact.map_or("?", Artifact::short_hash),
                            epochs_phrase(&c.epochs)
                        ),
                        None => format!("missing in {}", epochs_phrase(&c.epochs)),
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
            if i == 0 {
                e.snippet = structural_difference(clusters);
            }
            s = s.with_evidence(e);
        }
        if output_drifted {
            s = s.with_evidence(Evidence::msg(format!(
                "output: {}",
                outputs
                    .iter()
                    .map(|(t, e)| format!("{} in {}", short_text_hash(t), epochs_phrase(e)))
                    .collect::<Vec<_>>()
                    .join("; ")
            )));
        }
        Ok(s.with_value(value))
    }
}

/// `` `a`, `b` `` for stage names.
fn stage_names(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `epochs 0,2 vs 1` (the largest group first), `missing in 1` for a group without the stage.
fn clusters_phrase(clusters: &[Cluster<'_>]) -> String {
    let parts: Vec<String> = clusters
        .iter()
        .map(|c| match c.hash {
            Some(_) => epoch_list(&c.epochs),
            None => format!("missing in {}", epoch_list(&c.epochs)),
        })
        .collect();
    format!("epochs {}", parts.join(" vs "))
}

/// How each other group's value differs from the largest group's, at the top level: the keys
/// whose values differ and the keys only one side has, as JSON paths. A finer, path-by-path
/// diff belongs to the JSON diff of the answer scorers; this is a pointer to where to look.
fn structural_difference(clusters: &[Cluster<'_>]) -> Option<String> {
    let base = clusters.first()?;
    let base_value = base.artifact.map(|a| a.value.as_ref());
    let mut lines = Vec::new();
    for other in &clusters[1..] {
        let (Some(a), Some(b)) = (base.artifact, other.artifact) else {
            continue;
        };
        let head = format!(
            "{} vs {}",
            epochs_phrase(&other.epochs),
            epochs_phrase(&base.epochs)
        );
        let line = match (base_value.flatten(), b.value.as_ref()) {
            (Some(Value::Object(x)), Some(Value::Object(y))) => {
                let path = |k: &str| Location::root().child(Step::Key(k.to_owned())).to_string();
                let (mut changed, mut only_base, mut only_other) =
                    (Vec::new(), Vec::new(), Vec::new());
                // In the largest group's key order, then the other's new keys.
                let ordered = x.keys().chain(y.keys().filter(|k| !x.contains_key(*k)));
                for k in ordered {
                    match (x.get(k), y.get(k)) {
                        (Some(p), Some(q)) if p != q => changed.push(path(k)),
                        (Some(_), None) => only_base.push(path(k)),
                        (None, Some(_)) => only_other.push(path(k)),
                        _ => {}
                    }
                }
                let mut parts = Vec::new();
                if !changed.is_empty() {
                    parts.push(format!("differ at {}", changed.join(", ")));
                }
                if !only_base.is_empty() {
                    parts.push(format!(
                        "only {} has {}",
                        epochs_phrase(&base.epochs),
                        only_base.join(", ")
                    ));
                }
                if !only_other.is_empty() {
                    parts.push(format!(
                        "only {} has {}",
                        epochs_phrase(&other.epochs),
                        only_other.join(", ")
                    ));
                }
                if parts.is_empty() {
                    // Same keys and equal values: the hashes differ below the JSON value
                    // model (a number's form, say `1` and `1.0`).
                    "equal values whose canonical text differs (number forms)".to_owned()
                } else {
                    parts.join("; ")
                }
            }
            (Some(p), Some(q)) => {
                let (tp, tq) = (json_type_phrase(p), json_type_phrase(q));
                if tp == tq {
                    format!(
                        "the values differ (both {tq}; sizes {} vs {} bytes)",
                        b.size, a.size
                    )
                } else {
                    format!("{tq} instead of {tp}")
                }
            }
            _ => format!(
                "values over {} bytes are not stored; hashes only (sizes {} vs {} bytes)",
                verity_model::MAX_ARTIFACT_VALUE_BYTES,
                b.size,
                a.size
            ),
        };
        lines.push(format!("{head}: {line}"));
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The short hash of an answer's text, the way an artifact holding that text is shown.
fn short_text_hash(text: &str) -> String {
    Artifact::new("output", Value::String(text.to_owned()))
        .short_hash()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use verity_model::{Response, ResponseError, ScoreStatus, ScorerSpec, SourceLoc, Task};

    use super::*;
    use crate::build;

    fn scorer(options: Value) -> Box<dyn Scorer> {
        build(&ScorerSpec {
            kind: "stages".into(),
            name: None,
            options: options.as_object().cloned().unwrap_or_default(),
            source: SourceLoc::default(),
        })
        .unwrap()
    }

    fn answer(stages: Value) -> Response {
        Response {
            text: "{}".into(),
            artifacts: stages
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| Artifact::new(k.clone(), v.clone()))
                .collect(),
            ..Response::default()
        }
    }

    fn score(options: Value, responses: &[Response]) -> Score {
        let task = Task::prompt("users", "p");
        let members: Vec<GroupMember<'_>> = responses
            .iter()
            .enumerate()
            .map(|(i, r)| GroupMember {
                task: &task,
                epoch: i as u32,
                response: r,
            })
            .collect();
        let s = scorer(options);
        assert_eq!(s.scope(), Scope::Epochs);
        s.score_group(&members).remove(0)
    }

    fn api_ir() -> Value {
        json!({"resources": ["users"], "ops": {"list": "GET /users"}})
    }

    fn plan(title: &str) -> Value {
        json!({"views": [{"kind": "table", "fields": ["id", "name"]}], "title": title})
    }

    #[test]
    fn no_drift_passes_with_every_stage_named() {
        let r = answer(json!({"api_ir": api_ir(), "ui_plan": plan("Users")}));
        // Key order inside a stage does not count.
        let reordered = answer(json!({
            "api_ir": {"ops": {"list": "GET /users"}, "resources": ["users"]},
            "ui_plan": plan("Users"),
        }));
        let s = score(json!({}), &[r.clone(), reordered, r]);
        assert_eq!(s.status, ScoreStatus::Pass, "{s:?}");
        assert_eq!(s.value, Some(1.0));
        assert_eq!(
            s.explanation.as_deref(),
            Some("no drift: `api_ir`, `ui_plan` and the output identical in all 3 epochs")
        );
        assert!(s.evidence.is_empty());
    }

    #[test]
    fn the_first_drifted_stage_is_named_with_its_epochs_and_keys() {
        let a = answer(json!({"api_ir": api_ir(), "ui_plan": plan("Users"), "spec": {"v": 1}}));
        let b = answer(json!({
            "api_ir": api_ir(),
            "ui_plan": {"views": [], "title": "Users", "extra": true},
            "spec": {"v": 2},
        }));
        let s = score(json!({}), &[a.clone(), b.clone(), a.clone()]);
        // Drift outside a declared deterministic stage is attributed, not failed.
        assert_eq!(s.status, ScoreStatus::Pass, "{s:?}");
        assert_eq!(
            s.explanation.as_deref(),
            Some(
                "first drift at stage `ui_plan` (epochs 0,2 vs 1); `api_ir` identical in all \
                 3 epochs; later drift in `spec`; the output is identical in all 3 epochs"
            )
        );
        assert_eq!(s.value, Some(1.0 / 3.0));
        assert_eq!(s.evidence.len(), 2);
        let plan_a = &a.artifacts[1];
        let plan_b = &b.artifacts[1];
        assert_eq!(
            s.evidence[0].message,
            format!(
                "stage `ui_plan`: {} in epochs 0,2; {} in epoch 1",
                plan_a.short_hash(),
                plan_b.short_hash()
            )
        );
        assert_eq!(
            s.evidence[0].snippet.as_deref(),
            Some("epoch 1 vs epochs 0,2: differ at $.views; only epoch 1 has $.extra")
        );
        assert!(s.evidence[1].message.starts_with("stage `spec`: "));
        assert_eq!(s.evidence[1].snippet, None);
    }

    #[test]
    fn a_declared_deterministic_stage_that_drifts_fails() {
        let a = answer(json!({"api_ir": api_ir(), "ui_plan": plan("Users")}));
        let b =
            answer(json!({"api_ir": {"resources": ["users", "admins"]}, "ui_plan": plan("Users")}));
        let s = score(json!({"deterministic": ["api_ir"]}), &[a.clone(), b]);
        assert_eq!(s.status, ScoreStatus::Fail);
        assert_eq!(
            s.explanation.as_deref(),
            Some(
                "deterministic stage `api_ir` drifted; first drift at stage `api_ir` (epochs 0 \
                 vs 1); the output is identical in all 2 epochs"
            )
        );
        assert_eq!(
            s.evidence[0].snippet.as_deref(),
            Some("epoch 1 vs epoch 0: differ at $.resources; only epoch 0 has $.ops")
        );
        // The same drift in an undeclared stage passes; a declared stage that holds passes.
        let c = answer(json!({"api_ir": api_ir(), "ui_plan": plan("People")}));
        assert_eq!(
            score(json!({"deterministic": "api_ir"}), &[a.clone(), c]).status,
            ScoreStatus::Pass
        );
        // A declared stage no epoch reports cannot hold (a typo, a stage never run).
        let s = score(json!({"deterministic": ["apiir"]}), &[a.clone(), a]);
        assert_eq!(s.status, ScoreStatus::Fail);
        assert!(
            s.explanation
                .as_deref()
                .unwrap()
                .starts_with("declared deterministic stage `apiir` is in no epoch; no drift"),
            "{s:?}"
        );
    }

    #[test]
    fn a_missing_stage_is_drift_and_an_errored_epoch_is_an_invalid_run() {
        let full = answer(json!({"api_ir": api_ir(), "ui_plan": plan("Users")}));
        let short = answer(json!({"api_ir": api_ir()}));
        let s = score(json!({}), &[full.clone(), short, full.clone()]);
        assert_eq!(
            s.explanation.as_deref(),
            Some(
                "first drift at stage `ui_plan` (epochs 0,2 vs missing in 1); `api_ir` identical \
                 in all 3 epochs; the output is identical in all 3 epochs"
            )
        );
        assert!(
            s.evidence[0].message.ends_with("; missing in epoch 1"),
            "{:?}",
            s.evidence
        );

        let errored = Response {
            error: Some(ResponseError {
                kind: "timeout".into(),
                message: "no answer within 60s".into(),
            }),
            ..Response::default()
        };
        let s = score(json!({}), &[full.clone(), errored.clone(), full]);
        assert_eq!(s.status, ScoreStatus::Fail);
        assert_eq!(
            s.explanation.as_deref(),
            Some(
                "invalid run: epoch 1 errored; over the other epochs: no drift: `api_ir`, \
                 `ui_plan` and the output identical in all 2 epochs"
            )
        );
        assert_eq!(
            s.evidence[0].message,
            "epoch 1 is an invalid run: timeout: no answer within 60s"
        );
        let s = score(json!({}), &[errored.clone(), errored]);
        assert_eq!(s.status, ScoreStatus::Fail);
        assert_eq!(
            s.explanation.as_deref(),
            Some("invalid run: epochs 0,1 errored")
        );
    }

    #[test]
    fn a_drifting_output_fails_and_is_pinned_on_a_stage_or_after_the_last() {
        let with_text = |text: &str, title: &str| Response {
            text: text.into(),
            ..answer(json!({"api_ir": api_ir(), "ui_plan": plan(title)}))
        };
        let s = score(
            json!({}),
            &[
                with_text("Users", "Users"),
                with_text("People", "People"),
                with_text("Users", "Users"),
            ],
        );
        assert_eq!(s.status, ScoreStatus::Fail);
        assert_eq!(
            s.explanation.as_deref(),
            Some(
                "the output drifted; first drift at stage `ui_plan` (epochs 0,2 vs 1); `api_ir` \
                 identical in all 3 epochs"
            )
        );
        let short = |t: &str| Artifact::new("x", json!(t)).short_hash().to_owned();
        assert_eq!(
            s.evidence.last().unwrap().message,
            format!(
                "output: {} in epochs 0,2; {} in epoch 1",
                short("Users"),
                short("People")
            )
        );
        // Every stage held: the drift came after the last one.
        let s = score(
            json!({}),
            &[with_text("Users", "Users"), with_text("users", "Users")],
        );
        assert_eq!(s.status, ScoreStatus::Fail);
        assert_eq!(
            s.explanation.as_deref(),
            Some(
                "the output drifted after the last stage; `api_ir`, `ui_plan` identical in all \
                 2 epochs"
            )
        );
        assert_eq!(s.value, Some(1.0));
    }

    #[test]
    fn not_applicable_without_artifacts_or_a_second_epoch() {
        let plain = Response {
            text: "x".into(),
            ..Response::default()
        };
        let s = score(json!({}), &[plain.clone(), plain]);
        assert_eq!(s.status, ScoreStatus::NotApplicable);
        assert!(s.explanation.unwrap().contains("no epoch has artifacts"));
        let one = answer(json!({"api_ir": api_ir()}));
        assert_eq!(score(json!({}), &[one]).status, ScoreStatus::NotApplicable);
    }

    #[test]
    fn type_changes_and_large_values_are_described() {
        let a = answer(json!({"ui_plan": plan("Users")}));
        let b = answer(json!({"ui_plan": "not a plan"}));
        let s = score(json!({}), &[a, b]);
        assert_eq!(
            s.evidence[0].snippet.as_deref(),
            Some("epoch 1 vs epoch 0: a string instead of an object")
        );
        let big = |c: &str| {
            answer(json!({"dump": c.repeat(verity_model::MAX_ARTIFACT_VALUE_BYTES as usize + 1)}))
        };
        let s = score(json!({}), &[big("a"), big("b")]);
        let snippet = s.evidence[0].snippet.clone().unwrap();
        assert!(snippet.contains("are not stored; hashes only"), "{snippet}");
    }
}
