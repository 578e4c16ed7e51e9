//! Checks on a resolved [`Suite`]: scorer options, task expectations, coverage minima and
//! template trial renders. The loader runs them with spans into the files it read; [`crate::check`]
//! runs them on a suite built or changed in memory, pointing at the recorded source locations.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use verity_model::{Metric, PromptTemplate, SourceLoc, Suite};

use crate::diag::{Diagnostic, SourceFile, did_you_mean};
use crate::render::{Renderer, describe, is_over_budget};
use crate::values;

/// Where a diagnostic goes.
pub(crate) enum Loc {
    Span(Arc<SourceFile>, Range<usize>),
    Point(SourceLoc),
    Nowhere,
}

impl Diagnostic {
    pub(crate) fn at_loc_of(self, loc: Loc) -> Diagnostic {
        match loc {
            Loc::Span(f, span) => self.at_span(&f, span),
            Loc::Point(p) => self.at_loc(&p),
            Loc::Nowhere => self,
        }
    }
}

/// Maps the subjects of checks to places in the suite's files.
pub(crate) trait Locator {
    /// The `[[scorers]]` entry `index`, at option `key` (`kind`, `pattern`…) when given.
    fn scorer(&self, index: usize, key: Option<&str>) -> Loc;
    /// Task `index`, at `expect.<name>` when given.
    fn task(&self, index: usize, key: Option<&str>) -> Loc;
    /// Whether task `index` is a perturbed copy the loader made of an earlier task
    /// (`[perturb]`): its expectations are the original's, checked there, and it does not
    /// count towards coverage. A suite built in memory has no such knowledge: all are tasks.
    fn is_copy(&self, _index: usize) -> bool {
        false
    }
    fn coverage(&self, category: &str) -> Loc;
    /// A criterion named in `[outcome]`.
    fn outcome(&self, criterion: &str) -> Loc;
    /// The metric of the suite's gate `index`.
    fn gate(&self, index: usize) -> Loc;
    /// A place in a template: the error's byte range in its source, or its 1-based line.
    fn template(
        &self,
        tpl: &PromptTemplate,
        range: Option<Range<usize>>,
        line: Option<usize>,
    ) -> Loc;
}

/// Runs every check on `suite`, appending diagnostics to `out`.
pub(crate) fn run(suite: &Suite, loc: &dyn Locator, out: &mut Vec<Diagnostic>) {
    let mut checks = TaskChecks::new(suite, loc, out);
    checks.tasks(suite, loc, out);
    checks.finish(suite, loc, out);
}

/// The checks of a suite whose tasks may come in several batches (a dataset streaming in):
/// what concerns the suite alone is checked once by [`TaskChecks::new`], each batch by
/// [`TaskChecks::tasks`], and what needs every task (coverage, how many samples a template
/// error spoils) by [`TaskChecks::finish`]. Diagnostics come out in the same order as one pass.
pub(crate) struct TaskChecks {
    /// Indices of the scorers whose options are sound (only these check tasks).
    sound: Vec<usize>,
    renderer: Renderer,
    /// Templates that do not compile, by hash; and their diagnostics, held for `finish`.
    broken: HashSet<String>,
    /// Templates that went over the render budget: not trial-rendered again (each try costs
    /// the whole budget).
    over_budget: HashSet<String>,
    compile_errors: Vec<Diagnostic>,
    /// (template hash, line, message) → (index in `found`, samples affected)
    seen: HashMap<(String, Option<usize>, String), (usize, usize)>,
    found: Vec<Diagnostic>,
    /// Tasks per category so far.
    counts: HashMap<String, u64>,
}

impl TaskChecks {
    pub(crate) fn new(suite: &Suite, loc: &dyn Locator, out: &mut Vec<Diagnostic>) -> TaskChecks {
        let mut sound = Vec::new();
        for (i, spec) in suite.scorers.iter().enumerate() {
            let issues = verity_catalog::check_spec(spec);
            for issue in &issues {
                // A scorer added on the command line has no place in a file.
                let at = match loc.scorer(i, issue.key.as_deref()) {
                    Loc::Nowhere => recorded(Some(&spec.source)),
                    at => at,
                };
                out.push(
                    Diagnostic::error(
                        "scorer",
                        format!("scorer `{}`: {}", spec.instance_name(), issue.message),
                    )
                    .at_loc_of(at),
                );
            }
            if issues.is_empty() {
                sound.push(i);
            }
        }
        if sound.len() == suite.scorers.len() {
            outcome_criteria(suite, loc, out);
            gate_criteria(suite, loc, out);
        }
        let (renderer, errors) = Renderer::build(&suite.variants);
        let mut broken = HashSet::new();
        let mut compile_errors = Vec::new();
        for (tpl, e) in errors {
            broken.insert(tpl.hash.clone());
            compile_errors.push(
                Diagnostic::error(
                    "template",
                    format!(
                        "template `{}` does not compile: {}",
                        tpl.origin,
                        describe(&e)
                    ),
                )
                .at_loc_of(loc.template(&tpl, e.range(), e.line())),
            );
        }
        TaskChecks {
            sound,
            renderer,
            broken,
            over_budget: HashSet::new(),
            compile_errors,
            seen: HashMap::new(),
            found: Vec::new(),
            counts: HashMap::new(),
        }
    }

    /// Checks `suite.tasks` (one batch; the locator's task indices are into this batch):
    /// each task's expectations against the scorers, and a trial render of every template
    /// for it.
    pub(crate) fn tasks(&mut self, suite: &Suite, loc: &dyn Locator, out: &mut Vec<Diagnostic>) {
        for (i, task) in suite.tasks.iter().enumerate() {
            if loc.is_copy(i) {
                continue;
            }
            for spec in self.sound.iter().map(|&s| &suite.scorers[s]) {
                for issue in verity_catalog::check_task(spec, task) {
                    out.push(
                        Diagnostic::error(
                            "scorer",
                            format!(
                                "task `{}` (scorer `{}`): {}",
                                task.id,
                                spec.instance_name(),
                                issue.message
                            ),
                        )
                        .at_loc_of(loc.task(i, issue.key.as_deref())),
                    );
                }
            }
            if let Some(c) = &task.category {
                match self.counts.get_mut(c.as_str()) {
                    Some(n) => *n += 1,
                    None => {
                        self.counts.insert(c.clone(), 1);
                    }
                }
            }
        }
        for variant in &suite.variants {
            let templates = [&variant.prompt, &variant.system];
            if templates
                .iter()
                .all(|t| t.as_ref().is_none_or(|t| self.broken.contains(&t.hash)))
            {
                continue;
            }
            for task in &suite.tasks {
                if templates.iter().any(|t| {
                    t.as_ref()
                        .is_some_and(|t| self.over_budget.contains(&t.hash))
                }) {
                    break;
                }
                let Err((tpl, e)) = self.renderer.try_messages(task, variant) else {
                    continue;
                };
                if self.broken.contains(&tpl.hash) {
                    continue;
                }
                let budget = is_over_budget(&e);
                if budget {
                    self.over_budget.insert(tpl.hash.clone());
                }
                let message = describe(&e);
                let key = (tpl.hash.clone(), e.line(), message.clone());
                if let Some((_, count)) = self.seen.get_mut(&key) {
                    *count += 1;
                    continue;
                }
                self.seen.insert(key, (self.found.len(), 1));
                let mut d = Diagnostic::error(
                    "template",
                    format!(
                        "template `{}` fails to render task `{}` (variant `{}`): {message}",
                        tpl.origin, task.id, variant.name
                    ),
                )
                .at_loc_of(loc.template(tpl, e.range(), e.line()));
                if budget {
                    d = d.with_help(format!(
                        "one render may run at most {} template instructions and write at most {} MiB; later tasks were not trial-rendered with this template",
                        crate::render::RENDER_FUEL,
                        crate::render::RENDER_MAX_OUTPUT >> 20
                    ));
                }
                self.found.push(d);
            }
        }
    }

    /// What needs every task: coverage minima, then the template diagnostics with how many
    /// samples each spoils.
    pub(crate) fn finish(self, suite: &Suite, loc: &dyn Locator, out: &mut Vec<Diagnostic>) {
        for (category, &min) in &suite.coverage {
            let n = self.counts.get(category.as_str()).copied().unwrap_or(0);
            if n < u64::from(min) {
                let tasks = if n == 1 { "task" } else { "tasks" };
                out.push(
                    Diagnostic::error(
                        "coverage",
                        format!(
                            "category `{category}` has {n} {tasks}; [coverage] requires at least {min}"
                        ),
                    )
                    .at_loc_of(loc.coverage(category)),
                );
            }
        }
        out.extend(self.compile_errors);
        let mut found = self.found;
        for (index, count) in self.seen.into_values() {
            if count > 1 {
                let more = count - 1;
                let d = &mut found[index];
                d.note = Some(format!(
                    "{more} more sample{} fail{} the same way",
                    plural(more),
                    if more == 1 { "s" } else { "" }
                ));
            }
        }
        out.extend(found);
    }
}

/// Every criterion `[outcome]` names must be one a scorer reports: a name none reports is
/// silently never met. Run only when every scorer's options are sound (their criteria known).
fn outcome_criteria(suite: &Suite, loc: &dyn Locator, out: &mut Vec<Diagnostic>) {
    let Some(named) = &suite.outcome.criteria else {
        return;
    };
    let reported = reported_criteria(suite);
    let mut seen = HashSet::new();
    for name in named {
        if reported.contains(name) || !seen.insert(name.as_str()) {
            continue;
        }
        out.push(unknown_criterion(
            "[outcome]",
            name,
            &reported,
            "add [[scorers]] that report it, or leave out [outcome] to count every criterion",
            loc.outcome(name),
        ));
    }
}

/// Every criterion a gate's metric names (`criterion:NAME`, `f1:NAME`, `group:NAME`…) must be
/// one a scorer reports, or the gate could never be decided. Bare `precision`, `recall`, `f1`
/// and `macro_f1` name none. Run only when every scorer's options are sound.
fn gate_criteria(suite: &Suite, loc: &dyn Locator, out: &mut Vec<Diagnostic>) {
    let mut reported = None;
    for (i, gate) in suite.gates.iter().enumerate() {
        let Some(name) = named_criterion(&gate.metric) else {
            continue;
        };
        let reported = reported.get_or_insert_with(|| reported_criteria(suite));
        if reported.iter().any(|c| c == name) {
            continue;
        }
        // A gate added on the command line has no place in a file.
        let at = match loc.gate(i) {
            Loc::Nowhere => recorded(Some(&gate.source)),
            at => at,
        };
        out.push(unknown_criterion(
            &format!("gate `{}`", gate.metric),
            name,
            reported,
            "add [[scorers]] that report it",
            at,
        ));
    }
}

/// The criterion a metric reads, when it names one.
fn named_criterion(metric: &Metric) -> Option<&str> {
    match metric {
        Metric::Criterion(c) | Metric::Group(c) | Metric::GroupMean(c) => Some(c),
        Metric::Precision(c) | Metric::Recall(c) | Metric::F1(c) | Metric::MacroF1(c) => {
            c.as_deref()
        }
        _ => None,
    }
}

/// The criteria the suite's scorers report, each once, in scorer order.
fn reported_criteria(suite: &Suite) -> Vec<String> {
    let mut reported: Vec<String> = Vec::new();
    for spec in &suite.scorers {
        for c in verity_catalog::criteria(spec).unwrap_or_default() {
            if !reported.contains(&c) {
                reported.push(c);
            }
        }
    }
    reported
}

/// `who` (`[outcome]`, a gate) names criterion `name` (at `at`), which none of `reported` is;
/// without scorers, `no_scorers_help` says what to do.
fn unknown_criterion(
    who: &str,
    name: &str,
    reported: &[String],
    no_scorers_help: &str,
    at: Loc,
) -> Diagnostic {
    let (message, help) = if reported.is_empty() {
        (
            format!("{who} names criterion `{name}`, but the suite has no scorers to report it"),
            no_scorers_help.to_owned(),
        )
    } else {
        let list = reported
            .iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let help = match did_you_mean(name, reported.iter().map(String::as_str)) {
            Some(m) => format!("did you mean `{m}`? The scorers report {list}"),
            None => format!("the scorers report {list}"),
        };
        (
            format!("{who} names criterion `{name}`, which no scorer reports"),
            help,
        )
    };
    Diagnostic::error("unknown-criterion", message)
        .at_loc_of(at)
        .label("no scorer reports this")
        .with_help(help)
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Locations for a suite built in memory: the sources recorded on tasks and scorers.
pub(crate) struct RecordedLocator<'a> {
    pub(crate) suite: &'a Suite,
}

impl Locator for RecordedLocator<'_> {
    fn scorer(&self, index: usize, _key: Option<&str>) -> Loc {
        recorded(self.suite.scorers.get(index).map(|s| &s.source))
    }

    fn task(&self, index: usize, _key: Option<&str>) -> Loc {
        recorded(self.suite.tasks.get(index).map(|t| &t.source))
    }

    fn coverage(&self, _category: &str) -> Loc {
        Loc::Nowhere
    }

    fn outcome(&self, _criterion: &str) -> Loc {
        Loc::Nowhere
    }

    fn gate(&self, index: usize) -> Loc {
        recorded(self.suite.gates.get(index).map(|g| &g.source))
    }

    fn template(
        &self,
        tpl: &PromptTemplate,
        range: Option<Range<usize>>,
        line: Option<usize>,
    ) -> Loc {
        template_loc(tpl, range, line)
    }
}

/// A place in a template known only from its text.
pub(crate) fn template_loc(
    tpl: &PromptTemplate,
    range: Option<Range<usize>>,
    line: Option<usize>,
) -> Loc {
    let f = SourceFile::new(tpl.origin.clone(), tpl.source.clone());
    let span = template_span(&f, range, line);
    Loc::Span(f, span)
}

fn recorded(loc: Option<&SourceLoc>) -> Loc {
    match loc {
        Some(l) if !l.file.is_empty() => Loc::Point(l.clone()),
        _ => Loc::Nowhere,
    }
}

/// The span of a template error: its range when minijinja has one, else its line.
pub(crate) fn template_span(
    f: &SourceFile,
    range: Option<Range<usize>>,
    line: Option<usize>,
) -> Range<usize> {
    match (range, line) {
        (Some(r), _) => r,
        (None, Some(l)) => f.line_span(l),
        (None, None) => 0..0,
    }
}

/// [`crate::check`]: the loader's cross-references re-checked on a suite built or changed in
/// memory, then every check of [`run`].
pub(crate) fn check_suite(suite: &Suite) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut ids: HashMap<&str, &SourceLoc> = HashMap::new();
    for t in &suite.tasks {
        match ids.get(t.id.as_str()) {
            Some(first) => out.push(
                Diagnostic::error("duplicate-id", format!("duplicate task id `{}`", t.id))
                    .at_loc_of(recorded(Some(&t.source)))
                    .with_note(format!("first defined at {first}")),
            ),
            None => {
                ids.insert(&t.id, &t.source);
            }
        }
    }
    let mut variants = HashSet::new();
    let mut no_provider = Vec::new();
    for v in &suite.variants {
        if !variants.insert(v.name.as_str()) {
            out.push(Diagnostic::error(
                "duplicate-name",
                format!("duplicate variant name `{}`", v.name),
            ));
        }
        if v.provider.kind.is_empty() {
            no_provider.push(format!("`{}`", v.name));
        }
        for problem in variant_problems(v) {
            out.push(
                Diagnostic::error(
                    "bad-value",
                    format!("variant `{}`: {}", v.name, problem.message),
                )
                .with_help_if(problem.help),
            );
        }
        if let Some(g) = &v.grounding
            && !suite.servers.contains_key(&g.server)
        {
            out.push(Diagnostic::error(
                "bad-value",
                format!(
                    "variant `{}` is grounded on server `{}`, which the suite does not define",
                    v.name, g.server
                ),
            ));
        }
    }
    if !no_provider.is_empty() {
        let (what, verb) = if no_provider.len() == 1 {
            ("variant", "has")
        } else {
            ("variants", "have")
        };
        out.push(
            Diagnostic::warning(
                "no-provider",
                format!("{what} {} {verb} no provider", no_provider.join(", ")),
            )
            .with_help("set a provider in the suite or pass --provider"),
        );
    }
    let mut scorers: HashMap<&str, &SourceLoc> = HashMap::new();
    for s in &suite.scorers {
        match scorers.get(s.instance_name()) {
            Some(first) => out.push(
                Diagnostic::error(
                    "duplicate-name",
                    format!("two scorers are named `{}`", s.instance_name()),
                )
                .at_loc_of(recorded(Some(&s.source)))
                .with_note(format!("first defined at {first}"))
                .with_help("give each scorer a distinct `name`"),
            ),
            None => {
                scorers.insert(s.instance_name(), &s.source);
            }
        }
    }
    for c in &suite.compare {
        if c.test != "mcnemar" {
            out.push(Diagnostic::error(
                "bad-value",
                format!("unknown comparison test `{}` (known: mcnemar)", c.test),
            ));
        }
        if !matches!(c.alternative.as_str(), "two-sided" | "greater" | "less") {
            out.push(Diagnostic::error(
                "bad-value",
                format!(
                    "comparison alternative `{}` must be two-sided, greater or less",
                    c.alternative
                ),
            ));
        }
        for name in &c.pair {
            if !variants.contains(name.as_str()) {
                out.push(Diagnostic::error(
                    "bad-value",
                    format!("comparison names `{name}`, which is not a variant"),
                ));
            }
        }
    }
    for g in &suite.gates {
        let at = || recorded(Some(&g.source));
        if let Some(v) = &g.variant
            && !variants.contains(v.as_str())
        {
            out.push(
                Diagnostic::error(
                    "bad-value",
                    format!(
                        "gate `{}` reads variant `{v}`, which is not a variant",
                        g.metric
                    ),
                )
                .at_loc_of(at()),
            );
        }
        if let Err(message) = g.check() {
            out.push(
                Diagnostic::error("bad-value", format!("gate `{}`: {message}", g.metric))
                    .at_loc_of(at()),
            );
        }
    }
    for path in [&suite.report.markdown, &suite.report.json]
        .into_iter()
        .flatten()
    {
        for (_, problem) in values::report_placeholders(path) {
            out.push(
                Diagnostic::error("bad-value", format!("[report]: {}", problem.message))
                    .with_help_if(problem.help),
            );
        }
    }
    if suite.epochs == 0 {
        out.push(Diagnostic::error(
            "bad-value",
            "`epochs` must be at least 1",
        ));
    }
    run(suite, &RecordedLocator { suite }, &mut out);
    out.sort_by_key(|d| d.severity);
    out
}

/// What the loader checks of a variant's values, for a variant built in memory.
fn variant_problems(v: &verity_model::Variant) -> Vec<values::Problem> {
    let p = &v.provider;
    let mut out: Vec<values::Problem> = [
        (!p.kind.is_empty())
            .then(|| values::provider_kind(&p.kind))
            .flatten(),
        p.base_url.as_deref().and_then(values::base_url),
        p.api_key_env.as_deref().and_then(values::env_var_name),
    ]
    .into_iter()
    .flatten()
    .collect();
    let range = |what: &str, ok: bool, rule: &str| {
        (!ok).then(|| values::Problem {
            message: format!("`{what}` must be {rule}"),
            help: None,
        })
    };
    let g = &v.params;
    out.extend(
        [
            g.temperature.and_then(|t| {
                range(
                    "temperature",
                    t.is_finite() && t >= 0.0,
                    "a finite number, at least 0",
                )
            }),
            g.top_p
                .and_then(|t| range("top_p", (0.0..=1.0).contains(&t), "between 0 and 1")),
            g.max_tokens
                .and_then(|m| range("max_tokens", m >= 1, "at least 1")),
        ]
        .into_iter()
        .flatten(),
    );
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use verity_model::{
        CompareSpec, GroundingMode, GroundingSpec, ProviderSpec, ScorerSpec, SourceLoc, Task,
        Variant,
    };

    use super::*;

    fn at(file: &str, line: u32) -> SourceLoc {
        SourceLoc {
            file: file.into(),
            line,
            column: 1,
        }
    }

    fn task(id: &str, line: u32) -> Task {
        let mut t = Task::prompt(id, "p");
        t.source = at("tasks.jsonl", line);
        t.category = Some("c".into());
        t
    }

    fn variant(name: &str, prompt: Option<&str>) -> Variant {
        Variant {
            name: name.into(),
            provider: ProviderSpec {
                kind: "mock".into(),
                ..Default::default()
            },
            params: Default::default(),
            prompt: prompt.map(|p| PromptTemplate {
                source: p.into(),
                origin: "prompts/p.j2".into(),
                hash: blake3::hash(p.as_bytes()).to_hex().to_string(),
            }),
            system: None,
            grounding: None,
        }
    }

    fn scorer(kind: &str, options: serde_json::Value, line: u32) -> ScorerSpec {
        ScorerSpec {
            kind: kind.into(),
            name: None,
            options: options.as_object().cloned().unwrap_or_default(),
            source: at("suite.toml", line),
        }
    }

    fn base() -> Suite {
        Suite {
            quick: Vec::new(),
            perturb: None,
            run: Default::default(),
            name: "s".into(),
            description: None,
            tasks: vec![task("a", 1), task("b", 2)],
            variants: vec![variant("v", None)],
            scorers: vec![],
            outcome: Default::default(),
            epochs: 1,
            coverage: Default::default(),
            servers: Default::default(),
            compare: vec![],
            gates: vec![],
            report: Default::default(),
            content_hash: String::new(),
        }
    }

    fn found(s: &Suite) -> Vec<String> {
        crate::check(s)
            .iter()
            .map(|d| format!("{}@{}: {}", d.code, d.location(), d.message))
            .collect()
    }

    #[test]
    fn a_sound_suite_has_nothing_to_report() {
        assert!(found(&base()).is_empty());
    }

    #[test]
    fn in_memory_changes_are_checked_against_recorded_locations() {
        let mut s = base();
        s.tasks.push(task("a", 3));
        s.tasks[1].expect.insert("regex".into(), json!("(["));
        s.variants.push(variant("v", None));
        let mut grounded = variant("g", None);
        grounded.grounding = Some(GroundingSpec {
            server: "docs".into(),
            mode: GroundingMode::Tools,
            k: 5,
            preamble: None,
        });
        grounded.provider.kind.clear();
        s.variants.push(grounded);
        s.scorers = vec![
            scorer("regex", json!({"pattern": "x"}), 7),
            scorer("regex", json!({"pattern": "(["}), 9),
        ];
        s.scorers[1].name = Some("broken".into());
        s.compare.push(CompareSpec {
            test: "t".into(),
            pair: ["v".into(), "w".into()],
            alternative: "up".into(),
        });
        s.coverage.insert("c".into(), 5);
        s.epochs = 0;
        let f = found(&s);
        let expected = [
            "duplicate-id@tasks.jsonl:3:1: duplicate task id `a`",
            "duplicate-name@: duplicate variant name `v`",
            "bad-value@: variant `g` is grounded on server `docs`",
            "bad-value@: unknown comparison test `t`",
            "bad-value@: comparison alternative `up`",
            "bad-value@: comparison names `w`",
            "bad-value@: `epochs` must be at least 1",
            "scorer@suite.toml:9:1: scorer `broken`: invalid regex",
            "scorer@tasks.jsonl:2:1: task `b` (scorer `regex`): invalid regex",
            "coverage@: category `c` has 3 tasks; [coverage] requires at least 5",
            "no-provider@: variant `g` has no provider",
        ];
        if let Some(m) = crate::testing::mismatch(&f, &expected) {
            panic!("{m}");
        }
        // Errors come first.
        assert!(f.last().unwrap().starts_with("no-provider"));
    }

    /// What the loader checks of suite.toml's values is checked again on a suite built in
    /// memory: provider settings, parameters, report paths and `[outcome]` criteria.
    #[test]
    fn in_memory_values_and_outcome_are_checked() {
        let mut s = base();
        let v = &mut s.variants[0];
        v.provider.kind = "skynet".into();
        v.provider.base_url = Some("not a url".into());
        v.provider.api_key_env = Some(String::new());
        v.params.temperature = Some(f64::INFINITY);
        v.params.top_p = Some(f64::NAN);
        v.params.max_tokens = Some(0);
        s.report.json = Some("{tmp}/{nope}.json".into());
        s.scorers = vec![scorer("equals", json!({}), 3)];
        s.outcome.criteria = Some(vec!["equals".into(), "nope".into()]);
        let f = found(&s);
        let expected = [
            "bad-value@: variant `v`: unknown provider kind `skynet`",
            "bad-value@: variant `v`: `base_url` must be an absolute http:// or https:// URL",
            "bad-value@: variant `v`: `api_key_env` must not be empty",
            "bad-value@: variant `v`: `temperature` must be a finite number, at least 0",
            "bad-value@: variant `v`: `top_p` must be between 0 and 1",
            "bad-value@: variant `v`: `max_tokens` must be at least 1",
            "bad-value@: [report]: unknown placeholder `{nope}` in a report path",
            "unknown-criterion@: [outcome] names criterion `nope`, which no scorer reports",
        ];
        if let Some(m) = crate::testing::mismatch(&f, &expected) {
            panic!("{m}");
        }
        // A scorer that does not check out: its criteria are unknown, the outcome unchecked.
        s = base();
        s.scorers = vec![scorer("equals", json!({"colour": 1}), 3)];
        s.outcome.criteria = Some(vec!["nope".into()]);
        let f = found(&s);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].starts_with("scorer@suite.toml:3:1"), "{f:?}");
    }

    /// Gates on a suite built in memory (the command line's `--gate`) are checked like the
    /// suite's own: their variant, their bounds and the criteria they name, at their source.
    #[test]
    fn in_memory_gates_are_checked() {
        let mut s = base();
        s.scorers = vec![scorer("equals", json!({}), 3)];
        let gate = |expr: &str| verity_model::GateSpec::parse_expr(expr, "--gate").unwrap();
        s.gates = vec![
            gate("criterion:equals>=0.5"),
            gate("criterion:equal>=0.5"),
            gate("f1@w>=0.5"),
            gate("f1>=0.5"),
        ];
        s.gates[3].min = Some(2.0);
        let f = found(&s);
        let expected = [
            "unknown-criterion@--gate: gate `criterion:equal` names criterion `equal`, which no scorer reports",
            "bad-value@--gate: gate `f1` reads variant `w`, which is not a variant",
            "bad-value@--gate: gate `f1`: `f1` is a fraction from 0 to 1; `min = 2` can never be decided by it",
        ];
        if let Some(m) = crate::testing::mismatch(&f, &expected) {
            panic!("{m}");
        }
    }

    #[test]
    fn template_errors_point_into_the_template_and_count_samples() {
        let mut s = base();
        s.tasks.push(task("c", 3));
        s.tasks[0].metadata.insert("hint".into(), json!("h"));
        s.variants = vec![variant(
            "v",
            Some("Q: {{ prompt }}\nHint: {{ metadata.hint }}\n"),
        )];
        let ds = crate::check(&s);
        assert_eq!(ds.len(), 1, "{ds:?}");
        let d = &ds[0];
        assert_eq!(d.code, "template");
        assert_eq!(d.location(), "prompts/p.j2:2:10");
        assert_eq!(
            d.message,
            "template `prompts/p.j2` fails to render task `b` (variant `v`): undefined value: `metadata.hint` is undefined"
        );
        assert_eq!(d.note.as_deref(), Some("1 more sample fails the same way"));
        assert!(
            d.render(false).contains("Hint: {{ metadata.hint }}"),
            "{}",
            d.render(false)
        );

        s.variants = vec![variant("v", Some("{% if %}"))];
        let ds = crate::check(&s);
        assert_eq!(ds.len(), 1, "{ds:?}");
        assert!(
            ds[0]
                .message
                .starts_with("template `prompts/p.j2` does not compile: syntax error"),
            "{}",
            ds[0].message
        );
        assert_eq!(ds[0].location(), "prompts/p.j2:1:7");
    }
}
