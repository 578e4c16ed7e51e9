//! Building a [`RunView`] from a stored run: the canonical sample order, the criteria and their
//! report keys, and every summary, percentile and comparison.

use std::collections::{BTreeMap, HashMap};

use verity_model::{
    ErrorPolicy, GroupRecord, RunMeta, RunStatus, SampleRecord, Score, ScoreStatus,
};
use verity_stats::{Alternative, mcnemar, prf};

use super::detail::counts_as_failure;
use super::types::*;

/// The metric names a score carries when it measures precision / recall.
const PRF_METRICS: [&str; 3] = ["tp", "fp", "fn"];

pub(super) struct Builder<'a> {
    meta: &'a RunMeta,
    /// Suite tasks by id (a run may hold tens of thousands: never scan for one).
    pub(super) suite_tasks: HashMap<&'a str, &'a verity_model::Task>,
    pub(super) samples: Vec<&'a SampleRecord>,
    groups: &'a [GroupRecord],
    pub(super) variant_names: Vec<String>,
    pub(super) task_ids: Vec<String>,
    /// `(scorer, criterion)` -> report key.
    keys: HashMap<(String, String), String>,
    /// `(scorer, criterion)` in first-appearance order.
    criteria: Vec<(String, String)>,
    /// Task id -> category, for suite tasks that have one.
    categories: HashMap<String, String>,
    notes: Vec<String>,
    /// `(variant, task id)` -> the failing or errored scores of the groups the task is in, so
    /// a sample that failed on a group verdict (drift across epochs, a paraphrase) says so.
    pub(super) group_fails: HashMap<(&'a str, &'a str), Vec<&'a Score>>,
}

impl<'a> Builder<'a> {
    pub(super) fn new(
        meta: &'a RunMeta,
        samples: &'a [SampleRecord],
        groups: &'a [GroupRecord],
    ) -> Self {
        let suite = &meta.suite;
        let mut notes = Vec::new();
        let suite_tasks: HashMap<&str, &verity_model::Task> =
            suite.tasks.iter().map(|t| (t.id.as_str(), t)).collect();

        // Variants: the ones the run was asked for (else the suite's), then strays from the
        // samples and groups.
        let mut variant_names: Vec<String> = if meta.options.variants.is_empty() {
            suite.variants.iter().map(|v| v.name.clone()).collect()
        } else {
            meta.options.variants.clone()
        };
        let mut stray_variants: Vec<String> = samples
            .iter()
            .map(|s| &s.key.variant)
            .chain(groups.iter().map(|g| &g.variant))
            .filter(|v| !variant_names.contains(v))
            .cloned()
            .collect();
        stray_variants.sort();
        stray_variants.dedup();
        if !stray_variants.is_empty() {
            notes.push(format!(
                "results for variants not in the run's variant list: {}",
                stray_variants.join(", ")
            ));
        }
        variant_names.extend(stray_variants);

        let mut task_ids: Vec<String> = suite.tasks.iter().map(|t| t.id.clone()).collect();
        let mut stray_tasks: Vec<String> = samples
            .iter()
            .map(|s| &s.key.task_id)
            .filter(|t| !suite_tasks.contains_key(t.as_str()))
            .cloned()
            .collect();
        stray_tasks.sort();
        stray_tasks.dedup();
        if !stray_tasks.is_empty() {
            notes.push(format!(
                "samples for tasks not in the stored suite: {}",
                stray_tasks.join(", ")
            ));
        }
        task_ids.extend(stray_tasks);

        // Canonical sample order: task, variant, epoch.
        let task_pos: HashMap<&str, usize> = task_ids
            .iter()
            .enumerate()
            .map(|(i, t)| (t.as_str(), i))
            .collect();
        let variant_pos: HashMap<&str, usize> = variant_names
            .iter()
            .enumerate()
            .map(|(i, v)| (v.as_str(), i))
            .collect();
        let mut sorted: Vec<&SampleRecord> = samples.iter().collect();
        sorted.sort_by_key(|s| {
            (
                task_pos
                    .get(s.key.task_id.as_str())
                    .copied()
                    .unwrap_or(usize::MAX),
                variant_pos
                    .get(s.key.variant.as_str())
                    .copied()
                    .unwrap_or(usize::MAX),
                s.key.epoch,
            )
        });

        // Criteria in first-appearance order; keys disambiguated when two scorers share a name.
        let mut criteria: Vec<(String, String)> = Vec::new();
        for s in &sorted {
            for sc in &s.scores {
                let pair = (sc.scorer.clone(), sc.criterion.clone());
                if !criteria.contains(&pair) {
                    criteria.push(pair);
                }
            }
        }
        let mut by_name: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, c) in &criteria {
            *by_name.entry(c.as_str()).or_default() += 1;
        }
        let keys = criteria
            .iter()
            .map(|(s, c)| {
                let key = if by_name[c.as_str()] > 1 {
                    format!("{s}/{c}")
                } else {
                    c.clone()
                };
                ((s.clone(), c.clone()), key)
            })
            .collect();

        if meta.status != RunStatus::Completed {
            notes.push(format!(
                "the run is {}: {} of {} samples are stored and every figure covers stored \
                 samples only",
                meta.status.shown(meta.liveness),
                samples.len(),
                meta.total_samples
            ));
        }

        let mut group_fails: HashMap<(&str, &str), Vec<&Score>> = HashMap::new();
        for g in groups {
            let failing: Vec<&Score> = g
                .scores
                .iter()
                .filter(|sc| matches!(sc.status, ScoreStatus::Fail | ScoreStatus::Error))
                .collect();
            if failing.is_empty() {
                continue;
            }
            for t in &g.task_ids {
                group_fails
                    .entry((g.variant.as_str(), t.as_str()))
                    .or_default()
                    .extend(failing.iter().copied());
            }
        }
        Builder {
            group_fails,
            meta,
            suite_tasks,
            samples: sorted,
            groups,
            variant_names,
            task_ids,
            keys,
            criteria,
            categories: suite
                .tasks
                .iter()
                .filter_map(|t| Some((t.id.clone(), t.category.clone()?)))
                .collect(),
            notes,
        }
    }

    pub(super) fn policy(&self) -> ErrorPolicy {
        self.meta.suite.outcome.errors
    }

    pub(super) fn key(&self, scorer: &str, criterion: &str) -> String {
        self.keys
            .get(&(scorer.to_owned(), criterion.to_owned()))
            .cloned()
            .unwrap_or_else(|| criterion.to_owned())
    }

    fn of_variant<'s>(&'s self, v: &'s str) -> impl Iterator<Item = &'a SampleRecord> + 's {
        self.samples
            .iter()
            .copied()
            .filter(move |s| s.key.variant == v)
    }

    pub(super) fn build(mut self) -> RunView {
        let header = self.header();
        let variants = self.variant_infos();
        let per_variant = self.per_variant();
        let per_criterion = self.per_criterion();
        let per_category = self.per_category();
        let prf = self.prf();
        let (groups, group_scores) = self.groups();
        let group_failures = group_scores
            .iter()
            .filter(|g| matches!(g.score.status, ScoreStatus::Fail | ScoreStatus::Error))
            .cloned()
            .collect();
        let tasks = self.tasks();
        let comparisons = self.comparisons(&tasks);
        let failures = self.failures();
        for c in &comparisons {
            self.notes.extend(c.notes.iter().cloned());
        }
        let determinism =
            super::drift::summarize(&self.meta.suite, &self.variant_names, &tasks, self.groups);
        let citations = super::citations::summarize(
            &self.meta.suite,
            &self.variant_names,
            &tasks,
            self.groups,
            self.policy(),
        );
        let seed_criteria = seed_criteria(&self.meta.suite, &per_criterion);
        RunView {
            seed_criteria,
            citations,
            determinism,
            header,
            variants,
            per_variant,
            per_criterion,
            per_category,
            prf,
            groups,
            group_failures,
            group_scores,
            comparisons,
            tasks,
            failures,
            notes: self.notes,
        }
    }

    fn header(&self) -> Header {
        let m = self.meta;
        Header {
            run_id: m.id.clone(),
            suite_name: m.suite.name.clone(),
            suite_path: m.suite_path.clone(),
            suite_description: m.suite.description.clone(),
            suite_hash: m.suite.content_hash.clone(),
            status: m.status,
            liveness: m.liveness,
            started_at: m.started_at.clone(),
            finished_at: m.finished_at.clone(),
            duration_ms: m
                .finished_at
                .as_deref()
                .and_then(|f| duration_ms(&m.started_at, f)),
            verity_version: m.verity_version.clone(),
            scoring: m.scoring,
            samples_completed: self.samples.len() as u64,
            samples_total: m.total_samples,
            epochs: m.suite.epochs,
            outcome: m.suite.outcome.clone(),
            schemas: schemas(&m.suite),
            preflight: m.preflight.clone(),
            toolchain: toolchain(&m.suite, &m.preflight),
        }
    }

    fn variant_infos(&self) -> Vec<VariantInfo> {
        self.variant_names
            .iter()
            .map(|name| {
                let v = self.meta.suite.variant(name);
                VariantInfo {
                    name: name.clone(),
                    model: self
                        .meta
                        .models
                        .get(name)
                        .cloned()
                        .or_else(|| v.map(|v| v.provider.display_id()))
                        .unwrap_or_else(|| "-".into()),
                    prompt_hash: self
                        .meta
                        .prompt_hashes
                        .get(name)
                        .cloned()
                        .or_else(|| v.and_then(|v| v.prompt.as_ref()).map(|p| p.hash.clone()))
                        .unwrap_or_else(|| "-".into()),
                    grounding: v.and_then(|v| v.grounding.clone()),
                    in_suite: v.is_some(),
                }
            })
            .collect()
    }

    fn per_variant(&self) -> Vec<VariantSummary> {
        let expected = self.meta.suite.tasks.len() as u64 * u64::from(self.meta.suite.epochs);
        self.variant_names
            .iter()
            .map(|v| {
                let mut counts = OutcomeCounts::default();
                let mut latencies = Vec::new();
                let (mut tin, mut tout, mut hits) = (0u64, 0u64, 0u64);
                for s in self.of_variant(v) {
                    counts.add(s.outcome);
                    latencies.push(s.response.latency_ms);
                    tin = tin.saturating_add(s.response.usage.input_tokens);
                    tout = tout.saturating_add(s.response.usage.output_tokens);
                    hits += u64::from(s.response.cache_hit);
                }
                latencies.sort_unstable();
                let latency = Latency {
                    mean_ms: (!latencies.is_empty()).then(|| {
                        latencies.iter().map(|&l| l as f64).sum::<f64>() / latencies.len() as f64
                    }),
                    p50_ms: nearest_rank(&latencies, 0.50),
                    p95_ms: nearest_rank(&latencies, 0.95),
                };
                VariantSummary {
                    variant: v.clone(),
                    samples: counts.total(),
                    expected,
                    counts,
                    rate: counts.rate(self.policy()),
                    latency,
                    tokens_in: tin,
                    tokens_out: tout,
                    cache_hits: hits,
                }
            })
            .collect()
    }

    fn per_criterion(&self) -> Vec<CriterionSummary> {
        let rule = &self.meta.suite.outcome;
        self.criteria
            .iter()
            .map(|(scorer, criterion)| {
                let per_variant = self
                    .variant_names
                    .iter()
                    .map(|v| {
                        let mut c = StatusCounts::default();
                        for s in self.of_variant(v) {
                            for sc in &s.scores {
                                if &sc.scorer == scorer && &sc.criterion == criterion {
                                    c.add(sc.status);
                                }
                            }
                        }
                        (v.clone(), c)
                    })
                    .collect();
                CriterionSummary {
                    key: self.key(scorer, criterion),
                    scorer: scorer.clone(),
                    criterion: criterion.clone(),
                    in_outcome: rule.counts(criterion),
                    per_variant,
                }
            })
            .collect()
    }

    fn category_of(&self, task_id: &str) -> String {
        self.categories
            .get(task_id)
            .cloned()
            .unwrap_or_else(|| NO_CATEGORY.to_owned())
    }

    fn per_category(&self) -> Vec<CategorySummary> {
        let mut cats: BTreeMap<String, u64> = BTreeMap::new();
        for id in &self.task_ids {
            let in_suite = u64::from(self.suite_tasks.contains_key(id.as_str()));
            *cats.entry(self.category_of(id)).or_default() += in_suite;
        }
        // Alphabetical, with the no-category bucket last.
        let mut order: Vec<(String, u64)> = cats.into_iter().collect();
        order.sort_by_key(|(c, _)| (c == NO_CATEGORY, c.clone()));
        order
            .into_iter()
            .map(|(category, tasks)| {
                let per_variant = self
                    .variant_names
                    .iter()
                    .map(|v| {
                        let mut c = OutcomeCounts::default();
                        for s in self.of_variant(v) {
                            if self.category_of(&s.key.task_id) == category {
                                c.add(s.outcome);
                            }
                        }
                        (v.clone(), c)
                    })
                    .collect();
                CategorySummary {
                    category,
                    tasks,
                    per_variant,
                }
            })
            .collect()
    }

    fn prf(&self) -> Vec<PrfSummary> {
        let counting: Vec<&(String, String)> = self
            .criteria
            .iter()
            .filter(|(scorer, criterion)| {
                self.samples
                    .iter()
                    .flat_map(|s| &s.scores)
                    .any(|sc| &sc.scorer == scorer && &sc.criterion == criterion && carries(sc))
            })
            .collect();
        let mut categories: Vec<String> =
            self.task_ids.iter().map(|t| self.category_of(t)).collect();
        categories.sort();
        categories.dedup();
        counting
            .into_iter()
            .map(|(scorer, criterion)| {
                let per_variant = self
                    .variant_names
                    .iter()
                    .map(|v| (v.clone(), prf_counts(self.of_variant(v), scorer, criterion)))
                    .collect();
                let per_category = categories
                    .iter()
                    .map(|c| {
                        let per_variant = self
                            .variant_names
                            .iter()
                            .map(|v| {
                                let of = self
                                    .of_variant(v)
                                    .filter(|s| &self.category_of(&s.key.task_id) == c);
                                (v.clone(), prf_counts(of, scorer, criterion))
                            })
                            .collect();
                        (c.clone(), per_variant)
                    })
                    .collect();
                PrfSummary {
                    key: self.key(scorer, criterion),
                    scorer: scorer.clone(),
                    criterion: criterion.clone(),
                    per_variant,
                    per_category,
                }
            })
            .collect()
    }

    fn groups(&self) -> (Vec<GroupSummary>, Vec<GroupFailure>) {
        let mut keys: Vec<(String, String, String)> = Vec::new();
        for g in self.groups {
            for sc in &g.scores {
                let k = (g.scope.clone(), sc.scorer.clone(), sc.criterion.clone());
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        let summaries = keys
            .into_iter()
            .map(|(scope, scorer, criterion)| {
                let per_variant = self
                    .variant_names
                    .iter()
                    .map(|v| {
                        let mut c = GroupCounts::default();
                        let mut values = Vec::new();
                        for g in self
                            .groups
                            .iter()
                            .filter(|g| &g.variant == v && g.scope == scope)
                        {
                            let mut seen = false;
                            for sc in &g.scores {
                                if sc.scorer == scorer && sc.criterion == criterion {
                                    seen = true;
                                    c.status.add(sc.status);
                                    values.extend(sc.value.filter(|x| x.is_finite()));
                                }
                            }
                            c.groups += u64::from(seen);
                        }
                        c.mean_value = (!values.is_empty())
                            .then(|| values.iter().sum::<f64>() / values.len() as f64);
                        (v.clone(), c)
                    })
                    .collect();
                GroupSummary {
                    scope,
                    scorer,
                    criterion,
                    per_variant,
                }
            })
            .collect();
        let variant_pos = |v: &str| self.variant_names.iter().position(|n| n == v);
        let mut failing: Vec<&GroupRecord> = self.groups.iter().collect();
        failing.sort_by_key(|g| (variant_pos(&g.variant), g.scope.clone(), g.group.clone()));
        let verdicts = failing
            .into_iter()
            .flat_map(|g| {
                g.scores.iter().map(move |s| GroupFailure {
                    variant: g.variant.clone(),
                    scope: g.scope.clone(),
                    group: g.group.clone(),
                    task_ids: g.task_ids.clone(),
                    score: s.clone(),
                })
            })
            .collect();
        (summaries, verdicts)
    }

    fn comparisons(&self, tasks: &[TaskView]) -> Vec<Comparison> {
        let specs: Vec<(String, String, String, String, bool)> =
            if self.meta.suite.compare.is_empty() {
                if self.variant_names.len() == 2 {
                    // Implicit: the second variant against the first (the baseline), two-sided.
                    vec![(
                        "mcnemar".into(),
                        self.variant_names[1].clone(),
                        self.variant_names[0].clone(),
                        "two-sided".into(),
                        false,
                    )]
                } else {
                    Vec::new()
                }
            } else {
                self.meta
                    .suite
                    .compare
                    .iter()
                    .map(|c| {
                        let [t, ctl] = c.pair.clone();
                        (c.test.clone(), t, ctl, c.alternative.clone(), true)
                    })
                    .collect()
            };
        specs
            .into_iter()
            .map(|(test, treatment, control, alternative, declared)| {
                self.compare(tasks, test, treatment, control, alternative, declared)
            })
            .collect()
    }

    fn compare(
        &self,
        tasks: &[TaskView],
        test: String,
        treatment: String,
        control: String,
        alternative: String,
        declared: bool,
    ) -> Comparison {
        let policy = self.policy();
        let label = format!("comparison {treatment} vs {control}");
        let mut notes = Vec::new();
        for v in [&treatment, &control] {
            if !self.variant_names.contains(v) {
                notes.push(format!("{label}: variant `{v}` is not part of this run"));
            }
        }
        let alt = Alternative::parse(&alternative).unwrap_or_else(|| {
            notes.push(format!(
                "{label}: unknown alternative `{alternative}`; treated as two-sided"
            ));
            Alternative::TwoSided
        });
        let mut cells = [[0u64; 2]; 2];
        let mut unpaired = Vec::new();
        let mut discordant = Vec::new();
        for t in tasks {
            let (tv, cv) = (t.variant(&treatment), t.variant(&control));
            let (Some(tv), Some(cv)) = (tv, cv) else {
                unpaired.push(t.id.clone());
                continue;
            };
            if tv.outcome == TaskOutcome::Excluded || cv.outcome == TaskOutcome::Excluded {
                unpaired.push(t.id.clone());
                continue;
            }
            let tp = tv.outcome == TaskOutcome::Pass;
            let cp = cv.outcome == TaskOutcome::Pass;
            cells[usize::from(!cp)][usize::from(!tp)] += 1;
            let loser = match (cp, tp) {
                (true, false) => Some((Winner::Control, tv)),
                (false, true) => Some((Winner::Treatment, cv)),
                _ => None,
            };
            if let Some((winner, side)) = loser {
                let failing = side
                    .epochs
                    .iter()
                    .find(|s| counts_as_failure(s, policy))
                    .or_else(|| side.epochs.first());
                if let Some(s) = failing {
                    discordant.push(Discordant {
                        task_id: t.id.clone(),
                        winner,
                        failing_variant: side.variant.clone(),
                        failing_epoch: s.key.epoch,
                        failing_criteria: self.failing_keys(s),
                        reason: self.sample_reason(s),
                    });
                }
            }
        }
        let (mc, quoted) = if test == "mcnemar" {
            let m = mcnemar(cells[0][1], cells[1][0]);
            (Some(m), Some(m.quoted(alt)))
        } else {
            notes.push(format!(
                "{label}: test `{test}` is not implemented (only `mcnemar` is); the contingency \
                 table is shown without a test"
            ));
            (None, None)
        };
        Comparison {
            test,
            treatment,
            control,
            alternative,
            declared,
            contingency: cells,
            unpaired,
            mcnemar: mc,
            quoted,
            discordant,
            notes,
        }
    }
}

/// Whether a score carries precision / recall counts.
fn carries(sc: &Score) -> bool {
    PRF_METRICS.iter().any(|m| sc.metrics.contains_key(*m))
}

/// Precision / recall counts of one counting criterion over `samples`: micro from the summed
/// counts, macro as the mean of the per-sample values.
pub(super) fn prf_counts<'s>(
    samples: impl Iterator<Item = &'s SampleRecord>,
    scorer: &str,
    criterion: &str,
) -> PrfCounts {
    let (mut tp, mut fp, mut fn_) = (0.0, 0.0, 0.0);
    let mut per_sample = Vec::new();
    for s in samples {
        let mut found = false;
        let (mut stp, mut sfp, mut sfn) = (0.0, 0.0, 0.0);
        for sc in &s.scores {
            if sc.scorer == scorer && sc.criterion == criterion && carries(sc) {
                found = true;
                stp += metric(sc, "tp");
                sfp += metric(sc, "fp");
                sfn += metric(sc, "fn");
            }
        }
        if found {
            tp += stp;
            fp += sfp;
            fn_ += sfn;
            per_sample.push(prf(stp, sfp, sfn));
        }
    }
    let samples = per_sample.len() as u64;
    let mean = |f: fn(&verity_stats::Prf) -> f64| {
        (samples > 0).then(|| per_sample.iter().map(f).sum::<f64>() / samples as f64)
    };
    PrfCounts {
        samples,
        tp,
        fp,
        fn_,
        micro: (samples > 0).then(|| prf(tp, fp, fn_)),
        macro_precision: mean(|p| p.precision),
        macro_recall: mean(|p| p.recall),
        macro_f1: mean(|p| p.f1),
    }
}

/// [`PrfCounts`] of one counting criterion over some samples (one task's epochs: the
/// fixture's own precision / recall / F1).
pub fn prf_of(samples: &[SampleRecord], scorer: &str, criterion: &str) -> PrfCounts {
    prf_counts(samples.iter(), scorer, criterion)
}

/// A `tp` / `fp` / `fn` metric; missing, negative or non-finite values count as 0.
fn metric(s: &Score, name: &str) -> f64 {
    s.metrics
        .get(name)
        .copied()
        .filter(|v| v.is_finite() && *v > 0.0)
        .unwrap_or(0.0)
}

/// The nearest-rank percentile of sorted values: the smallest value with at least `q` of the
/// data at or below it.
fn nearest_rank(sorted: &[u64], q: f64) -> Option<u64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// Milliseconds between two RFC 3339 timestamps, when both parse and `end >= start`.
fn duration_ms(start: &str, end: &str) -> Option<u64> {
    let s: jiff::Timestamp = start.parse().ok()?;
    let e: jiff::Timestamp = end.parse().ok()?;
    u64::try_from(e.as_millisecond() - s.as_millisecond()).ok()
}

/// The run's JSON Schemas: each variant's `response_schema` (hashed here, the way the loader
/// hashes a scorer's), then each `json-schema` scorer's (its file and hash, from the loader).
fn schemas(suite: &verity_model::Suite) -> Vec<super::types::SchemaInfo> {
    let variants = suite.variants.iter().filter_map(|v| {
        let schema = v.params.response_schema.as_ref()?;
        Some(super::types::SchemaInfo {
            used_by: format!("variant {}", v.name),
            file: None,
            hash: verity_model::canonical_hash(schema),
        })
    });
    let scorers = suite
        .scorers
        .iter()
        .filter(|s| s.kind == "json-schema")
        .filter_map(|s| {
            let text = |k: &str| s.options.get(k).and_then(|v| v.as_str()).map(str::to_owned);
            Some(super::types::SchemaInfo {
                used_by: format!("scorer {}", s.instance_name()),
                file: text("schema_file"),
                hash: text("schema_hash")?,
            })
        });
    variants.chain(scorers).collect()
}

/// Seed 000's criterion names in its order, beside the `swift` scorer's default names.
const SEED_CRITERIA: [(&str, &str); 4] = [
    ("compile", "parse"),
    ("symbol_exists", "symbols_exist"),
    ("availability", "availability_ok"),
    ("no_deprecated", "no_deprecated"),
];

/// The first `swift` scorer's criteria under seed 000's names: each default name (or its
/// rename in the scorer's `criteria` table) as the report keys it.
fn seed_criteria(
    suite: &verity_model::Suite,
    per_criterion: &[CriterionSummary],
) -> Vec<(String, String)> {
    let Some(spec) = suite.scorers.iter().find(|s| s.kind == "swift") else {
        return Vec::new();
    };
    let scorer = spec.instance_name();
    let renames = spec.options.get("criteria").and_then(|v| v.as_object());
    SEED_CRITERIA
        .iter()
        .map(|(seed, default)| {
            let name = renames
                .and_then(|m| m.get(*default))
                .and_then(|v| v.as_str())
                .unwrap_or(default);
            let key = per_criterion
                .iter()
                .find(|c| c.scorer == scorer && c.criterion == name)
                .map_or_else(|| name.to_owned(), |c| c.key.clone());
            ((*seed).to_owned(), key)
        })
        .collect()
}

/// The first `swift` scorer's toolchain as its pre-flight recorded it: `swift-frontend 6.0.3`
/// (name and version), `tree-sitter`.
fn toolchain(
    suite: &verity_model::Suite,
    preflight: &BTreeMap<String, verity_model::PreflightInfo>,
) -> Option<String> {
    let spec = suite.scorers.iter().find(|s| s.kind == "swift")?;
    let facts = &preflight.get(spec.instance_name())?.facts;
    let name = facts.get("toolchain")?;
    Some(match facts.get("toolchain_version") {
        Some(v) => format!("{name} {v}"),
        None => name.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        assert_eq!(nearest_rank(&[], 0.5), None);
        assert_eq!(nearest_rank(&[7], 0.95), Some(7));
        let v: Vec<u64> = (1..=20).collect();
        assert_eq!(nearest_rank(&v, 0.50), Some(10));
        assert_eq!(nearest_rank(&v, 0.95), Some(19));
        assert_eq!(nearest_rank(&[1, 2, 3, 4], 0.5), Some(2));
    }

    #[test]
    fn durations() {
        assert_eq!(
            duration_ms("2026-05-20T10:00:00Z", "2026-05-20T10:01:23.5Z"),
            Some(83_500)
        );
        assert_eq!(
            duration_ms("2026-05-20T10:00:00+02:00", "2026-05-20T08:00:01Z"),
            Some(1000)
        );
        assert_eq!(
            duration_ms("2026-05-20T10:00:01Z", "2026-05-20T10:00:00Z"),
            None
        );
        assert_eq!(duration_ms("yesterday", "2026-05-20T10:00:00Z"), None);
    }
}
