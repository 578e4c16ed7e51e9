//! suite.toml: the suite's name, where its tasks are, its variants, servers, scorers, outcome
//! rule, coverage minima, comparisons, gates, perturbed copies and run settings.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Map, Value};
use verity_model::{
    CompareSpec, ErrorPolicy, GateSpec, GenParams, GroundingMode, GroundingSpec, METRIC_FORMS,
    Metric, OutcomeMode, OutcomeRule, PromptTemplate, ProviderSpec, ReportSpec, RunSettings,
    ScorerSpec, ServerSpec, Variant,
};

use crate::diag::{Diagnostic, SourceFile, did_you_mean};
use crate::loader::{Loader, ScorerSpans, normalize};
use crate::perturb::Perturber;
use crate::tree::{Entry, Kind, Node, Span, Table, to_json};
use crate::values;

const SUITE_KEYS: &[&str] = &[
    "name",
    "description",
    "tasks",
    "epochs",
    "defaults",
    "variants",
    "servers",
    "scorers",
    "outcome",
    "coverage",
    "compare",
    "gates",
    "report",
    "quick",
    "perturb",
    "run",
];

/// Keys of `[run]`.
const RUN_KEYS: &[&str] = &["retries", "cache", "quick_epochs", "cost_warning_usd"];

/// The `[run] cache` modes a suite may default to (`replay` is a choice for one run).
const SUITE_CACHE_MODES: &[&str] = &["live", "refresh", "off"];

/// Keys of a `[[gates]]` entry.
const GATE_KEYS: &[&str] = &["metric", "variant", "min", "max", "baseline", "max_drop"];

/// The `max_drop` of the default baseline set's `pass_rate` gate when the entry sets none:
/// five percentage points.
pub(crate) const DEFAULT_MAX_DROP: f64 = 0.05;

/// Keys of `[defaults]`; a `[[variants]]` entry takes these plus `name`.
pub(crate) const VARIANT_KEYS: &[&str] = &[
    "provider",
    "model",
    "base_url",
    "api_key_env",
    "temperature",
    "top_p",
    "seed",
    "max_tokens",
    "stop",
    "prompt",
    "prompt_text",
    "system",
    "system_text",
    "response_schema",
    "options",
    "grounding",
];

/// The name of the one variant a suite without `[[variants]]` has.
pub const DEFAULT_VARIANT: &str = "default";

/// The `tasks` globs of suite.toml, each with its span in that file.
#[derive(Debug)]
pub(crate) struct TaskPatterns {
    pub(crate) file: Arc<SourceFile>,
    pub(crate) patterns: Vec<(String, Span)>,
}

/// What suite.toml says, resolved.
#[derive(Debug)]
pub(crate) struct Config {
    pub(crate) name: Option<String>,
    pub(crate) description: Option<String>,
    /// The `tasks` globs with their spans; `None` when suite.toml does not set `tasks`.
    pub(crate) task_patterns: Option<TaskPatterns>,
    pub(crate) epochs: u32,
    pub(crate) variants: Vec<Variant>,
    pub(crate) servers: BTreeMap<String, ServerSpec>,
    pub(crate) scorers: Vec<ScorerSpec>,
    pub(crate) outcome: OutcomeRule,
    pub(crate) coverage: BTreeMap<String, u32>,
    pub(crate) compare: Vec<CompareSpec>,
    pub(crate) gates: Vec<GateSpec>,
    pub(crate) report: ReportSpec,
    /// The `quick` task ids with their spans in suite.toml.
    pub(crate) quick: Vec<(String, Arc<SourceFile>, Span)>,
    /// `[perturb]`, when written and sound.
    pub(crate) perturb: Option<Perturber>,
    /// `[run]`: how the suite runs unless the command line says otherwise.
    pub(crate) run: RunSettings,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            name: None,
            description: None,
            task_patterns: None,
            epochs: 1,
            variants: Vec::new(),
            servers: BTreeMap::new(),
            scorers: Vec::new(),
            outcome: OutcomeRule::default(),
            coverage: BTreeMap::new(),
            compare: Vec::new(),
            gates: Vec::new(),
            report: ReportSpec::default(),
            quick: Vec::new(),
            perturb: None,
            run: RunSettings::default(),
        }
    }
}

/// One table of variant settings (`[defaults]` or a `[[variants]]` entry). `None` = not set
/// here; `Some(None)` = set but invalid (already reported).
#[derive(Clone, Debug, Default)]
struct Draft {
    provider: Option<String>,
    model: Option<String>,
    base_url: Option<String>,
    api_key_env: Option<String>,
    temperature: Option<f64>,
    top_p: Option<f64>,
    seed: Option<u64>,
    max_tokens: Option<u32>,
    stop: Option<Vec<String>>,
    prompt: Option<Option<PromptTemplate>>,
    system: Option<Option<PromptTemplate>>,
    response_schema: Option<Option<Value>>,
    options: Option<Map<String, Value>>,
    grounding: Option<Option<GroundingSpec>>,
}

impl Draft {
    /// A variant from `self` over `base` (the defaults). `options` merge key by key.
    fn over(&self, base: &Draft, name: String) -> Variant {
        let mut options = base.options.clone().unwrap_or_default();
        for (k, v) in self.options.clone().unwrap_or_default() {
            options.insert(k, v);
        }
        let pick = |a: &Option<String>, b: &Option<String>| a.clone().or_else(|| b.clone());
        Variant {
            name,
            provider: ProviderSpec {
                kind: pick(&self.provider, &base.provider).unwrap_or_default(),
                model: pick(&self.model, &base.model),
                base_url: pick(&self.base_url, &base.base_url),
                api_key_env: pick(&self.api_key_env, &base.api_key_env),
                options,
            },
            params: GenParams {
                temperature: self.temperature.or(base.temperature),
                top_p: self.top_p.or(base.top_p),
                seed: self.seed.or(base.seed),
                max_tokens: self.max_tokens.or(base.max_tokens),
                stop: self
                    .stop
                    .clone()
                    .or_else(|| base.stop.clone())
                    .unwrap_or_default(),
                response_schema: self
                    .response_schema
                    .clone()
                    .or_else(|| base.response_schema.clone())
                    .flatten(),
            },
            prompt: self
                .prompt
                .clone()
                .or_else(|| base.prompt.clone())
                .flatten(),
            system: self
                .system
                .clone()
                .or_else(|| base.system.clone())
                .flatten(),
            grounding: self
                .grounding
                .clone()
                .or_else(|| base.grounding.clone())
                .flatten(),
        }
    }
}

impl Loader<'_> {
    /// Reads a parsed suite.toml (`rel` is its path inside the suite).
    pub(crate) fn suite_config(&mut self, f: &Arc<SourceFile>, rel: &str, doc: &Table) -> Config {
        let mut cfg = Config::default();
        self.check_keys(f, doc, SUITE_KEYS, "in suite.toml");

        match doc.get("name") {
            Some(e) => cfg.name = self.name_str(f, e),
            None => self.missing(f, 0..0, "name", "in suite.toml"),
        }
        if let Some(e) = doc.get("description") {
            cfg.description = self.str(f, e);
        }
        if let Some(e) = doc.get("tasks") {
            let patterns = match &e.value.kind {
                Kind::Str(s) => Some(vec![(s.clone(), e.value.span.clone())]),
                Kind::Array(items) => {
                    let mut out = Vec::new();
                    for item in items {
                        if let Some(s) = self.node_str(f, item, "each entry of `tasks`") {
                            out.push((s, item.span.clone()));
                        }
                    }
                    Some(out)
                }
                _ => {
                    self.push(
                        Diagnostic::error(
                            "wrong-type",
                            "`tasks` must be a glob or a list of globs",
                        )
                        .at_span(f, e.value.span.clone())
                        .label("expected a string or a list of strings"),
                    );
                    None
                }
            };
            cfg.task_patterns = patterns.map(|patterns| TaskPatterns {
                file: Arc::clone(f),
                patterns,
            });
        }
        if let Some(e) = doc.get("quick") {
            match &e.value.kind {
                Kind::Array(items) => {
                    for item in items {
                        if let Some(s) = self.node_str(f, item, "each entry of `quick`") {
                            cfg.quick.push((s, Arc::clone(f), item.span.clone()));
                        }
                    }
                }
                _ => self.push(
                    Diagnostic::error("wrong-type", "`quick` must be a list of task ids")
                        .at_span(f, e.value.span.clone())
                        .label("expected a list of strings"),
                ),
            }
        }
        if let Some(e) = doc.get("epochs") {
            cfg.epochs = self
                .int(f, e, 1, i128::from(u32::MAX))
                .map_or(1, |n| n as u32);
        }

        if let Some(e) = doc.get("servers")
            && let Some(t) = self.table(f, e)
        {
            cfg.servers = self.servers(f, t);
        }

        let defaults = match doc.get("defaults").and_then(|e| self.table(f, e)) {
            Some(t) => {
                self.check_keys(f, t, VARIANT_KEYS, "in [defaults]");
                self.draft(f, t, &cfg.servers)
            }
            None => Draft::default(),
        };
        cfg.variants = self.variants(f, doc, &defaults, &cfg.servers);

        if let Some(e) = doc.get("scorers")
            && let Some(items) = self.array(f, e)
        {
            cfg.scorers = self.scorers(f, rel, items);
        }
        if let Some(e) = doc.get("outcome")
            && let Some(t) = self.table(f, e)
        {
            cfg.outcome = self.outcome(f, t);
        }
        if let Some(e) = doc.get("coverage")
            && let Some(t) = self.table(f, e)
        {
            for c in &t.entries {
                if let Some(n) = self.int(f, c, 0, i128::from(u32::MAX)) {
                    cfg.coverage.insert(c.key.clone(), n as u32);
                    self.coverage_spans.insert(
                        c.key.clone(),
                        (Arc::clone(f), c.key_span.start..c.value.span.end),
                    );
                }
            }
        }
        if let Some(e) = doc.get("compare")
            && let Some(items) = self.array(f, e)
        {
            let names: Vec<&str> = cfg.variants.iter().map(|v| v.name.as_str()).collect();
            cfg.compare = self.compare(f, items, &names);
        }
        if let Some(e) = doc.get("gates")
            && let Some(items) = self.array(f, e)
        {
            let names: Vec<&str> = cfg.variants.iter().map(|v| v.name.as_str()).collect();
            cfg.gates = self.gates(f, rel, items, &names);
        }
        if let Some(e) = doc.get("perturb")
            && let Some(t) = self.table(f, e)
        {
            cfg.perturb = self.perturb_table(f, e, t);
        }
        if let Some(e) = doc.get("run")
            && let Some(t) = self.table(f, e)
        {
            cfg.run = self.run_table(f, t, !cfg.quick.is_empty());
        }
        if let Some(e) = doc.get("report")
            && let Some(t) = self.table(f, e)
        {
            self.check_keys(f, t, &["markdown", "json", "toolcalls"], "in [report]");
            cfg.report.markdown = t.get("markdown").and_then(|e| self.report_path(f, e));
            cfg.report.json = t.get("json").and_then(|e| self.report_path(f, e));
            if let Some(e) = t.get("toolcalls") {
                match &e.value.kind {
                    Kind::Bool(b) => cfg.report.toolcalls = *b,
                    _ => {
                        let d = self.bad_value(
                            f,
                            e.value.span.clone(),
                            "`toolcalls` must be true or false",
                        );
                        self.push(d);
                    }
                }
            }
            if cfg.report.toolcalls && cfg.report.json.is_none() {
                let d = self.bad_value(
                    f,
                    e.value.span.clone(),
                    "`toolcalls = true` needs a `json` path to write beside",
                );
                self.push(d);
            }
        }
        cfg
    }

    /// `[run]`: the retries, cache mode, quick epochs and cost-warning threshold the suite
    /// runs with unless the command line sets them. `has_quick`: the suite declares a `quick` subset.
    fn run_table(&mut self, f: &Arc<SourceFile>, t: &Table, has_quick: bool) -> RunSettings {
        self.check_keys(f, t, RUN_KEYS, "in [run]");
        let mut run = RunSettings::default();
        if let Some(e) = t.get("retries") {
            run.retries = self.int(f, e, 0, 100).map(|n| n as u32);
        }
        if let Some(e) = t.get("cache") {
            if matches!(&e.value.kind, Kind::Str(s) if s == "replay") {
                let d = self.bad_value(
                    f,
                    e.value.span.clone(),
                    "`cache = \"replay\"` answers from the cache only: a choice for one run, not a suite's default",
                );
                self.push(d.with_help(
                    "pass --cache replay (or --provider replay) to the run instead; a suite may default to \"live\", \"refresh\" or \"off\"",
                ));
            } else {
                run.cache = self
                    .choice(f, e, SUITE_CACHE_MODES)
                    .and_then(|m| verity_model::CacheMode::parse(&m));
            }
        }
        if let Some(e) = t.get("cost_warning_usd") {
            run.cost_warning_usd = self.num(f, e, 0.0, f64::INFINITY);
        }
        if let Some(e) = t.get("quick_epochs") {
            run.quick_epochs = self.int(f, e, 1, i128::from(u32::MAX)).map(|n| n as u32);
            if run.quick_epochs.is_some() && !has_quick {
                self.push(
                    Diagnostic::warning(
                        "unused",
                        "`quick_epochs` has no effect: the suite declares no `quick` subset",
                    )
                    .at_span(f, e.key_span.start..e.value.span.end)
                    .with_help("add `quick = [\"task-id\", …]` at the top of suite.toml"),
                );
            }
        }
        run
    }

    /// Reports `problem`, if any, at `span`; returns whether there was one.
    fn value_problem(
        &mut self,
        f: &Arc<SourceFile>,
        span: Span,
        problem: Option<values::Problem>,
    ) -> bool {
        let Some(p) = problem else { return false };
        let d = self.bad_value(f, span, p.message).with_help_if(p.help);
        self.push(d);
        true
    }

    /// A `[report]` path; each placeholder verity does not fill is an error at the placeholder.
    fn report_path(&mut self, f: &Arc<SourceFile>, e: &Entry) -> Option<String> {
        let path = self.str(f, e)?;
        let problems = values::report_placeholders(&path);
        if problems.is_empty() {
            return Some(path);
        }
        let span = &e.value.span;
        // Inside a string written without escapes, point at the placeholder itself.
        let written = f.text.get(span.clone()).unwrap_or_default();
        let plain =
            written.len() == path.len() + 2 && written.get(1..written.len() - 1) == Some(&path);
        for (range, p) in problems {
            let at = if plain {
                span.start + 1 + range.start..span.start + 1 + range.end
            } else {
                span.clone()
            };
            let d = self
                .bad_value(f, at, format!("`{}`: {}", e.key, p.message))
                .with_help_if(p.help);
            self.push(d.label("unknown placeholder"));
        }
        None
    }

    fn draft(
        &mut self,
        f: &Arc<SourceFile>,
        t: &Table,
        servers: &BTreeMap<String, ServerSpec>,
    ) -> Draft {
        let mut d = Draft::default();
        for e in &t.entries {
            let span = e.value.span.clone();
            match e.key.as_str() {
                "provider" => {
                    d.provider = self.name_str(f, e);
                    if let Some(kind) = &d.provider {
                        // Kept even when unknown: the variant is not also "without a provider".
                        self.value_problem(f, span.clone(), values::provider_kind(kind));
                    }
                }
                "model" => d.model = self.str(f, e),
                "base_url" => {
                    d.base_url = self
                        .str(f, e)
                        .filter(|u| !self.value_problem(f, span.clone(), values::base_url(u)));
                }
                "api_key_env" => {
                    d.api_key_env = self
                        .str(f, e)
                        .filter(|n| !self.value_problem(f, span.clone(), values::env_var_name(n)));
                }
                "temperature" => d.temperature = self.num(f, e, 0.0, f64::INFINITY),
                "top_p" => d.top_p = self.num(f, e, 0.0, 1.0),
                "seed" => d.seed = self.int(f, e, 0, i128::from(u64::MAX)).map(|n| n as u64),
                "max_tokens" => {
                    d.max_tokens = self.int(f, e, 1, i128::from(u32::MAX)).map(|n| n as u32)
                }
                "stop" => d.stop = self.strings(f, e),
                "prompt" => {
                    d.prompt = Some(self.str(f, e).and_then(|p| self.template_file(f, &p, span)))
                }
                "prompt_text" => {
                    d.prompt = Some(self.str(f, e).map(|s| self.inline_template(f, s, span)))
                }
                "system" => {
                    d.system = Some(self.str(f, e).and_then(|p| self.template_file(f, &p, span)))
                }
                "system_text" => {
                    d.system = Some(self.str(f, e).map(|s| self.inline_template(f, s, span)))
                }
                "response_schema" => {
                    d.response_schema =
                        Some(self.str(f, e).and_then(|p| self.schema_file(f, &p, span)));
                }
                "options" => d.options = self.json_map(f, e),
                "grounding" => d.grounding = Some(self.grounding(f, e, servers)),
                _ => {}
            }
        }
        for (file_key, text_key, what) in [
            ("prompt", "prompt_text", "prompt"),
            ("system", "system_text", "system"),
        ] {
            if let (Some(_), Some(second)) = (t.get(file_key), t.get(text_key)) {
                let d = self.bad_value(
                    f,
                    second.key_span.clone(),
                    format!("set either `{file_key}` (a template file) or `{text_key}` (an inline template), not both"),
                );
                self.push(d.label(format!("second {what} template")));
            }
        }
        d
    }

    fn grounding(
        &mut self,
        f: &Arc<SourceFile>,
        e: &Entry,
        servers: &BTreeMap<String, ServerSpec>,
    ) -> Option<GroundingSpec> {
        let t = self.table(f, e)?;
        self.check_keys(f, t, &["server", "mode", "k", "preamble"], "in `grounding`");
        let server = match t.get("server") {
            None => {
                self.missing(f, e.value.span.clone(), "server", "in `grounding`");
                None
            }
            Some(se) => self.str(f, se).and_then(|s| {
                if servers.contains_key(&s) {
                    return Some(s);
                }
                let mut d = self.bad_value(
                    f,
                    se.value.span.clone(),
                    format!("grounding server `{s}` is not defined"),
                );
                d = match did_you_mean(&s, servers.keys().map(String::as_str)) {
                    Some(m) => d.with_help(format!("did you mean `{m}`?")),
                    None => d.with_help(format!(
                        "define it in a [servers.{s}] table with a `command` or a `url`"
                    )),
                };
                self.push(d.label("no such server"));
                None
            }),
        };
        let mode = match t.get("mode") {
            None => Some(GroundingMode::InjectTopK),
            Some(me) => self.choice(f, me, &["inject-top-k", "tools"]).map(|m| {
                if m == "tools" {
                    GroundingMode::Tools
                } else {
                    GroundingMode::InjectTopK
                }
            }),
        };
        let k = match t.get("k") {
            None => Some(5),
            Some(ke) => self.int(f, ke, 1, i128::from(u32::MAX)).map(|n| n as u32),
        };
        let preamble = t.get("preamble").and_then(|p| self.str(f, p));
        Some(GroundingSpec {
            server: server?,
            mode: mode?,
            k: k?,
            preamble,
        })
    }

    fn variants(
        &mut self,
        f: &Arc<SourceFile>,
        doc: &Table,
        defaults: &Draft,
        servers: &BTreeMap<String, ServerSpec>,
    ) -> Vec<Variant> {
        let defaults_span = doc.get("defaults").map_or(0..0, |e| e.value.span.clone());
        let mut out: Vec<Variant> = Vec::new();
        let mut spans: Vec<Span> = Vec::new();
        let items = doc
            .get("variants")
            .and_then(|e| self.array(f, e))
            .unwrap_or(&[]);
        let mut names: Vec<(String, Span)> = Vec::new();
        for item in items {
            let Some(t) = self.node_table(f, item, "each [[variants]] entry") else {
                continue;
            };
            self.check_keys(f, t, &[&["name"], VARIANT_KEYS].concat(), "in [[variants]]");
            let draft = self.draft(f, t, servers);
            let Some(ne) = t.get("name") else {
                self.missing(f, item.span.clone(), "name", "in [[variants]]");
                continue;
            };
            let Some(name) = self.name_str(f, ne) else {
                continue;
            };
            if let Some((_, first)) = names.iter().find(|(n, _)| *n == name) {
                let (l, c) = f.line_col(first.start);
                self.push(
                    Diagnostic::error("duplicate-name", format!("duplicate variant name `{name}`"))
                        .at_span(f, ne.value.span.clone())
                        .label("used again here")
                        .with_note(format!("first defined at {}:{l}:{c}", f.name)),
                );
                continue;
            }
            names.push((name.clone(), ne.value.span.clone()));
            out.push(draft.over(defaults, name));
            spans.push(item.span.clone());
        }
        if items.is_empty() {
            out.push(Draft::default().over(defaults, DEFAULT_VARIANT.to_owned()));
            spans.push(defaults_span.clone());
        }
        let unset: Vec<usize> = (0..out.len())
            .filter(|&i| out[i].provider.kind.is_empty())
            .collect();
        if let Some(&first) = unset.first() {
            let list: Vec<String> = unset
                .iter()
                .map(|&i| format!("`{}`", out[i].name))
                .collect();
            let (what, verb) = if list.len() == 1 {
                ("variant", "has")
            } else {
                ("variants", "have")
            };
            self.push(
                Diagnostic::warning("no-provider", format!("{what} {} {verb} no provider", list.join(", ")))
                    .at_span(f, spans[first].clone())
                    .with_help("set `provider` (e.g. \"mock\" or \"openai\") in [defaults] or the variant, or pass --provider"),
            );
        }
        // A command provider's relative working directory is the suite's (`cwd = "."`: the
        // suite directory), so a suite that ships its pipeline runs from any directory.
        for v in &mut out {
            if v.provider.kind != "command" {
                continue;
            }
            if let Some(Value::String(cwd)) = v.provider.options.get("cwd")
                && Path::new(cwd).is_relative()
            {
                let dir = self.root.join(cwd);
                let dir = std::path::absolute(&dir).unwrap_or(dir);
                v.provider.options.insert(
                    "cwd".to_owned(),
                    Value::String(dir.to_string_lossy().into_owned()),
                );
            }
        }
        out
    }

    fn scorers(&mut self, f: &Arc<SourceFile>, rel: &str, items: &[Node]) -> Vec<ScorerSpec> {
        let mut out: Vec<ScorerSpec> = Vec::new();
        for item in items {
            let Some(t) = self.node_table(f, item, "each [[scorers]] entry") else {
                continue;
            };
            let kind = match t.get("kind") {
                Some(e) => self.name_str(f, e),
                None => {
                    self.missing(f, item.span.clone(), "kind", "in [[scorers]]");
                    None
                }
            };
            let name = t.get("name").and_then(|e| self.name_str(f, e));
            let mut options = Map::new();
            for e in &t.entries {
                if e.key != "kind" && e.key != "name" {
                    options.insert(e.key.clone(), to_json(&e.value));
                }
            }
            let Some(kind) = kind else { continue };
            if kind == "json-schema" {
                self.json_schema_options(f, t, &mut options);
            }
            if kind == "citations" || kind == "citation-consistency" {
                self.facts_options(f, t, &mut options);
            }
            let spec = ScorerSpec {
                kind,
                name,
                options,
                source: self.loc(f, rel, item.span.start),
            };
            let instance = spec.instance_name().to_owned();
            if let Some(first) = out.iter().find(|s| s.instance_name() == instance) {
                let at = t
                    .get("name")
                    .or_else(|| t.get("kind"))
                    .map_or(item.span.clone(), |e| e.value.span.clone());
                self.push(
                    Diagnostic::error(
                        "duplicate-name",
                        format!("two scorers are named `{instance}`"),
                    )
                    .at_span(f, at)
                    .label("used again here")
                    .with_note(format!(
                        "first defined at {}:{}:{}",
                        f.name, first.source.line, first.source.column
                    ))
                    .with_help("give each scorer a distinct `name`"),
                );
                continue;
            }
            out.push(spec);
            self.scorer_spans.push(ScorerSpans {
                file: Arc::clone(f),
                span: item.span.clone(),
                table: t.clone(),
            });
        }
        out
    }

    /// A `json-schema` scorer's files, read into its options so a stored run needs none of
    /// them: the schema file `schema` names becomes the document itself (`schema`), the path as
    /// written (`schema_file`) and the BLAKE3 of its canonical text (`schema_hash`); a command
    /// rule's directory becomes absolute (the suite directory, or its `dir` under it). Every
    /// file read (the schema, and the files a command rule's arguments name in the suite) is
    /// part of the suite's content hash.
    fn json_schema_options(
        &mut self,
        f: &Arc<SourceFile>,
        t: &Table,
        options: &mut Map<String, Value>,
    ) {
        for key in ["schema_file", "schema_hash"] {
            if let Some(e) = t.get(key) {
                let d = self.bad_value(
                    f,
                    e.key_span.clone(),
                    format!("`{key}` is set by verity from `schema`; write `schema = \"path/to/schema.json\"`"),
                );
                self.push(d.label("not an option to set"));
                options.remove(key);
            }
        }
        if let Some(e) = t.get("schema") {
            let doc = match &e.value.kind {
                Kind::Str(path) => {
                    options.remove("schema");
                    options.insert("schema_file".into(), Value::String(path.clone()));
                    self.schema_file(f, path, e.value.span.clone())
                }
                Kind::Table(_) => Some(to_json(&e.value)),
                // The catalog's check says what `schema` must be.
                _ => None,
            };
            if let Some(doc) = doc {
                let hash = verity_model::canonical_hash(&doc);
                options.insert("schema_hash".into(), Value::String(hash));
                options.insert("schema".into(), doc);
            }
        }
        let Some(Value::Array(rules)) = options.get_mut("rules") else {
            return;
        };
        for rule in rules.iter_mut() {
            let Some(rule) = rule.as_object_mut() else {
                continue;
            };
            let Some(Value::Array(argv)) = rule.get("command") else {
                continue;
            };
            let rel_dir = match rule.get("dir") {
                None => Some(String::new()),
                Some(Value::String(d)) => Some(normalize(d)),
                Some(_) => None,
            };
            let Some(rel_dir) = rel_dir else { continue };
            let dir = self.root.join(&rel_dir);
            for arg in argv.iter().filter_map(Value::as_str) {
                let rel = if rel_dir.is_empty() {
                    normalize(arg)
                } else {
                    normalize(&format!("{}/{arg}", rel_dir.trim_end_matches('/')))
                };
                let inside = !std::path::Path::new(arg).is_absolute()
                    && !rel.split('/').any(|seg| seg == "..");
                if inside && self.root.join(&rel).is_file() {
                    self.read_file(&rel, None);
                }
            }
            let abs = std::path::absolute(&dir).unwrap_or(dir);
            rule.insert(
                "dir".into(),
                Value::String(abs.to_string_lossy().into_owned()),
            );
        }
    }

    /// A citation scorer's facts, read into its options so a stored run needs no file: the
    /// facts file `facts` names, or every `*.json` file of the directory it names (in name
    /// order), become `facts_data` (repository name → the facts), `facts_files` (the files
    /// read, relative to the suite) and `facts_hash` (BLAKE3 of `facts_data`'s canonical
    /// text). The files are part of the suite's content hash. A missing, unreadable or invalid
    /// facts file, and two files describing one repository, are errors at the option.
    fn facts_options(&mut self, f: &Arc<SourceFile>, t: &Table, options: &mut Map<String, Value>) {
        for key in verity_catalog::citations::LOADED_KEYS {
            if let Some(e) = t.get(key) {
                let d = self.bad_value(
                    f,
                    e.key_span.clone(),
                    format!("`{key}` is set by verity from `facts`; write `facts = \"facts\"` (a facts file or a directory of them)"),
                );
                self.push(d.label("not an option to set"));
                options.remove(key);
            }
        }
        let Some(e) = t.get("facts") else { return };
        // The catalog's check says what `facts` must be.
        let Kind::Str(path) = &e.value.kind else {
            return;
        };
        let span = e.value.span.clone();
        let rel = normalize(path);
        let on_disk = self.root.join(&rel);
        let files: Vec<String> = if on_disk.is_dir() {
            let mut names: Vec<String> = match std::fs::read_dir(&on_disk) {
                Ok(entries) => entries
                    .filter_map(Result::ok)
                    .filter(|d| d.path().is_file())
                    .filter_map(|d| d.file_name().to_str().map(str::to_owned))
                    .filter(|n| n.ends_with(".json"))
                    .collect(),
                Err(err) => {
                    let d = self.bad_value(
                        f,
                        span,
                        format!("cannot read the facts directory `{rel}`: {err}"),
                    );
                    self.push(d.label("named here"));
                    return;
                }
            };
            names.sort();
            if names.is_empty() {
                let d = self.bad_value(
                    f,
                    span,
                    format!("the facts directory `{rel}` has no *.json facts file"),
                );
                self.push(
                    d.label("named here")
                        .with_help("write one with `verity facts extract REPO --out FILE.json`"),
                );
                return;
            }
            names
                .into_iter()
                .map(|n| format!("{}/{n}", rel.trim_end_matches('/')))
                .collect()
        } else {
            vec![rel]
        };
        let mut data = Map::new();
        let mut read = Vec::new();
        let mut first_of: BTreeMap<String, String> = BTreeMap::new();
        for file in files {
            let Some(bytes) = self.read_file(&file, Some((f, span.clone()))) else {
                continue;
            };
            let shown = self.display(&file);
            let text = match String::from_utf8(bytes) {
                Ok(t) => t,
                Err(_) => {
                    let d = self.bad_value(
                        f,
                        span.clone(),
                        format!("facts file `{shown}` is not valid UTF-8"),
                    );
                    self.push(d.label("named here"));
                    continue;
                }
            };
            match verity_facts::Facts::from_json(&text, &shown) {
                Ok(facts) => {
                    let name = facts.repo.name.clone();
                    if let Some(first) = first_of.get(&name) {
                        let d = self.bad_value(
                            f,
                            span.clone(),
                            format!("facts files `{first}` and `{file}` both describe repository `{name}`"),
                        );
                        self.push(d.label("named here"));
                        continue;
                    }
                    first_of.insert(name.clone(), file.clone());
                    match serde_json::to_value(&facts) {
                        Ok(v) => {
                            data.insert(name, v);
                            read.push(Value::String(file));
                        }
                        Err(err) => {
                            let d = self.bad_value(
                                f,
                                span.clone(),
                                format!("facts of `{name}`: {err}"),
                            );
                            self.push(d);
                        }
                    }
                }
                Err(err) => {
                    let d = self.bad_value(f, span.clone(), err.to_string());
                    self.push(d.label("facts named here").with_help(
                        "re-extract it with `verity facts extract REPO --out FILE.json`",
                    ));
                }
            }
        }
        if data.is_empty() {
            return;
        }
        self.checkouts(f, t, &data, options);
        let data = Value::Object(data);
        options.insert(
            "facts_hash".into(),
            Value::String(verity_model::canonical_hash(&data)),
        );
        options.insert("facts_files".into(), Value::Array(read));
        options.insert("facts_data".into(), data);
    }

    /// A citation scorer's `checkouts` (a directory holding each repository as `NAME/`, where
    /// behaviour claims run) made absolute against the suite directory, and each checkout that
    /// exists compared with its facts: a checkout whose content hash differs was edited after
    /// the facts were extracted, and answers would be judged against code that is not there.
    fn checkouts(
        &mut self,
        f: &Arc<SourceFile>,
        t: &Table,
        data: &Map<String, Value>,
        options: &mut Map<String, Value>,
    ) {
        let Some(e) = t.get("checkouts") else { return };
        let Some(rel) = self.str(f, e) else { return };
        let dir = self.root.join(&rel);
        let dir = std::path::absolute(&dir).unwrap_or(dir);
        let mut missing = Vec::new();
        for (name, facts) in data {
            let repo = dir.join(name);
            if !repo.is_dir() {
                missing.push(name.as_str());
                continue;
            }
            let stated = facts["repo"]["content_hash"].as_str().unwrap_or_default();
            match verity_facts::repo_hash(&repo) {
                Ok(hash) if hash == stated => {}
                Ok(hash) => {
                    let d = self.bad_value(
                        f,
                        e.value.span.clone(),
                        format!(
                            "the checkout `{rel}/{name}` is not the repository its facts describe (content hash {hash}, the facts say {stated}): it was edited after `verity facts extract`"
                        ),
                    );
                    self.push(d.label("checkouts named here").with_help(format!(
                        "restore it (delete it and run `verity corpus fetch`) or re-extract its facts: verity facts extract {rel}/{name} --name {name} --out FILE.json"
                    )));
                }
                Err(err) => {
                    let d = self.bad_value(
                        f,
                        e.value.span.clone(),
                        format!("cannot read the checkout `{rel}/{name}`: {err}"),
                    );
                    self.push(d);
                }
            }
        }
        if !missing.is_empty() {
            let fetch = if self.root.join(crate::REPOS_FILE).is_file() {
                "`verity corpus fetch` downloads the pinned repositories of repos.toml into it"
            } else {
                "put each repository's checkout there as NAME/"
            };
            self.push(
                Diagnostic::warning(
                    "missing-checkout",
                    format!(
                        "no checkout of {} in `{rel}`: behaviour claims about {} will not be run",
                        missing.join(", "),
                        if missing.len() == 1 { "it" } else { "them" }
                    ),
                )
                .at_span(f, e.value.span.clone())
                .with_help(fetch),
            );
        }
        options.insert(
            "checkouts".into(),
            Value::String(dir.to_string_lossy().into_owned()),
        );
    }

    fn outcome(&mut self, f: &Arc<SourceFile>, t: &Table) -> OutcomeRule {
        self.check_keys(f, t, &["all", "any", "errors"], "in [outcome]");
        let mut rule = OutcomeRule::default();
        match (t.get("all"), t.get("any")) {
            (Some(_), Some(any)) => {
                let d = self.bad_value(
                    f,
                    any.key_span.clone(),
                    "set either `all` or `any` in [outcome], not both",
                );
                self.push(d);
            }
            (Some(e), None) | (None, Some(e)) => {
                if e.key == "any" {
                    rule.mode = OutcomeMode::Any;
                }
                rule.criteria = self.string_list(f, e);
                if let (Some(names), Kind::Array(items)) = (&rule.criteria, &e.value.kind) {
                    for (name, item) in names.iter().zip(items) {
                        self.outcome_spans
                            .entry(name.clone())
                            .or_insert_with(|| (Arc::clone(f), item.span.clone()));
                    }
                }
                if rule.criteria.as_ref().is_some_and(Vec::is_empty) {
                    let d = self.bad_value(
                        f,
                        e.value.span.clone(),
                        format!("`{}` needs at least one criterion", e.key),
                    );
                    self.push(d.with_help(
                        "leave out [outcome] to count every criterion the scorers report",
                    ));
                    rule.criteria = None;
                }
            }
            (None, None) => {}
        }
        if let Some(e) = t.get("errors") {
            match self.choice(f, e, &["fail", "exclude"]).as_deref() {
                Some("exclude") => rule.errors = ErrorPolicy::Exclude,
                _ => rule.errors = ErrorPolicy::Fail,
            }
        }
        rule
    }

    fn compare(
        &mut self,
        f: &Arc<SourceFile>,
        items: &[Node],
        variants: &[&str],
    ) -> Vec<CompareSpec> {
        let mut out = Vec::new();
        for item in items {
            let Some(t) = self.node_table(f, item, "each [[compare]] entry") else {
                continue;
            };
            self.check_keys(f, t, &["test", "pair", "alternative"], "in [[compare]]");
            let test = match t.get("test") {
                None => Some("mcnemar".to_owned()),
                Some(e) => self.choice(f, e, &["mcnemar"]),
            };
            let alternative = match t.get("alternative") {
                None => Some("two-sided".to_owned()),
                Some(e) => self.choice(f, e, &["two-sided", "greater", "less"]),
            };
            let pair = match t.get("pair") {
                None => {
                    self.missing(f, item.span.clone(), "pair", "in [[compare]]");
                    None
                }
                Some(e) => self.pair(f, e, variants),
            };
            if let (Some(test), Some(alternative), Some(pair)) = (test, alternative, pair) {
                out.push(CompareSpec {
                    test,
                    pair,
                    alternative,
                });
            }
        }
        out
    }

    fn pair(&mut self, f: &Arc<SourceFile>, e: &Entry, variants: &[&str]) -> Option<[String; 2]> {
        let items = match &e.value.kind {
            Kind::Array(items) if items.len() == 2 => items,
            _ => {
                self.push(
                    Diagnostic::error(
                        "wrong-type",
                        "`pair` must be two variant names: [treatment, control]",
                    )
                    .at_span(f, e.value.span.clone())
                    .label("expected two strings"),
                );
                return None;
            }
        };
        let mut names = Vec::new();
        for item in items {
            let name = self.node_str(f, item, "each entry of `pair`")?;
            if !variants.contains(&name.as_str()) {
                self.unknown_variant(f, item.span.clone(), &name, variants);
                return None;
            }
            names.push(name);
        }
        let [first, second]: [String; 2] = names.try_into().ok()?;
        if first == second {
            let d = self.bad_value(
                f,
                e.value.span.clone(),
                "`pair` compares a variant with itself",
            );
            self.push(d);
            return None;
        }
        Some([first, second])
    }

    /// Reports that `name` (at `span`) is not one of `variants`, with the closest suggested.
    fn unknown_variant(&mut self, f: &Arc<SourceFile>, span: Span, name: &str, variants: &[&str]) {
        let mut d = self.bad_value(f, span, format!("`{name}` is not a variant of this suite"));
        d = match did_you_mean(name, variants.iter().copied()) {
            Some(m) => d.with_help(format!("did you mean `{m}`?")),
            None => d.with_help(format!("variants: {}", variants.join(", "))),
        };
        self.push(d.label("unknown variant"));
    }

    /// `[[gates]]`: each entry one [`GateSpec`], its `source` the entry's `[[gates]]` line.
    ///
    /// Keys: `metric` (the text form of a [`Metric`]; `pass_rate` when absent), `variant` (a
    /// variant of the suite; every variant when absent), `min` and `max` (fixed bounds),
    /// `baseline` (judged against the suite's baseline) and `max_drop` (with `baseline`: the
    /// largest move in the bad direction, in the metric's units). `metric = "regressions"`
    /// implies `baseline = true`.
    ///
    /// **The default baseline set.** An entry with `baseline = true` and no `metric`, `min`
    /// or `max` stands for two gates, both with the entry's `variant` and source:
    /// - `pass_rate` may drop at most `max_drop` from the baseline (default
    ///   [`DEFAULT_MAX_DROP`], five percentage points);
    /// - `regressions` (tasks that passed in the baseline and fail now) has `max = 0`.
    ///
    /// The bounds of each gate are checked with [`GateSpec::check`], a problem reported at the
    /// entry. Whether the criteria a metric names are reported by a scorer is checked with
    /// the other checks of the suite (`checks.rs`), which know every scorer.
    fn gates(
        &mut self,
        f: &Arc<SourceFile>,
        rel: &str,
        items: &[Node],
        variants: &[&str],
    ) -> Vec<GateSpec> {
        let mut out = Vec::new();
        for item in items {
            let Some(t) = self.node_table(f, item, "each [[gates]] entry") else {
                continue;
            };
            self.check_keys(f, t, GATE_KEYS, "in [[gates]]");
            // Each: `Err` = written but invalid (already reported), `Ok(None)` = not written.
            let metric = match t.get("metric") {
                None => Ok(None),
                Some(e) => self
                    .metric(f, e)
                    .map(|m| Some((m, e.value.span.clone())))
                    .ok_or(()),
            };
            let variant = match t.get("variant") {
                None => Ok(None),
                Some(e) => self.str(f, e).ok_or(()).and_then(|name| {
                    if variants.contains(&name.as_str()) {
                        Ok(Some(name))
                    } else {
                        self.unknown_variant(f, e.value.span.clone(), &name, variants);
                        Err(())
                    }
                }),
            };
            let mut number = |key: &str, min: f64| match t.get(key) {
                None => Ok(None),
                Some(e) => self.num(f, e, min, f64::INFINITY).map(Some).ok_or(()),
            };
            let min = number("min", f64::NEG_INFINITY);
            let max = number("max", f64::NEG_INFINITY);
            let max_drop = number("max_drop", 0.0);
            let baseline = match t.get("baseline") {
                None => Ok(None),
                Some(e) => self.bool(f, e).map(Some).ok_or(()),
            };
            let (Ok(metric), Ok(variant), Ok(min), Ok(max), Ok(max_drop), Ok(baseline)) =
                (metric, variant, min, max, max_drop, baseline)
            else {
                continue;
            };
            let base = GateSpec {
                metric: Metric::PassRate,
                variant,
                min,
                max,
                baseline: baseline.unwrap_or(false),
                max_drop,
                source: self.loc(f, rel, item.span.start),
            };
            let (gates, metric_span) = match metric {
                None if baseline == Some(true) && min.is_none() && max.is_none() => (
                    vec![
                        GateSpec {
                            max_drop: Some(max_drop.unwrap_or(DEFAULT_MAX_DROP)),
                            ..base.clone()
                        },
                        GateSpec {
                            metric: Metric::Regressions,
                            max: Some(0.0),
                            max_drop: None,
                            ..base
                        },
                    ],
                    item.span.clone(),
                ),
                None => (vec![base], item.span.clone()),
                Some((metric, span)) => {
                    let baseline = baseline.unwrap_or_else(|| metric.needs_baseline());
                    (
                        vec![GateSpec {
                            metric,
                            baseline,
                            ..base
                        }],
                        span,
                    )
                }
            };
            for gate in gates {
                if let Err(message) = gate.check() {
                    let d = self.bad_value(f, item.span.clone(), message);
                    self.push(d.label("in this gate"));
                    continue;
                }
                self.gate_spans.push((Arc::clone(f), metric_span.clone()));
                out.push(gate);
            }
        }
        out
    }

    /// A `metric`: the text form of a [`Metric`]. An unknown one is reported with the closest
    /// metric suggested.
    fn metric(&mut self, f: &Arc<SourceFile>, e: &Entry) -> Option<Metric> {
        let text = self.str(f, e)?;
        let message = match Metric::parse(&text) {
            Ok(m) => return Some(m),
            Err(message) => message,
        };
        let written = text.trim();
        let (head, arg) = match written.split_once(':') {
            Some((h, a)) => (h.trim(), Some(a.trim())),
            None => (written, None),
        };
        let heads: Vec<&str> = METRIC_FORMS
            .iter()
            .map(|form| form.split_once(':').map_or(*form, |(h, _)| h))
            .fold(Vec::new(), |mut heads, h| {
                if !heads.contains(&h) {
                    heads.push(h);
                }
                heads
            });
        let span = e.value.span.clone();
        let list = METRIC_FORMS.join(", ");
        let d = if heads.contains(&head) {
            // A known metric written wrong (`criterion` without a name, `pass_rate:x`).
            self.bad_value(f, span, message).label("bad metric")
        } else {
            let takes_arg = |h: &str| {
                METRIC_FORMS
                    .iter()
                    .any(|form| form.starts_with(&format!("{h}:")))
            };
            let help = match did_you_mean(head, heads.iter().copied()) {
                Some(m) => {
                    let suggestion = match arg {
                        Some(a) if !a.is_empty() && takes_arg(m) => format!("{m}:{a}"),
                        _ => m.to_owned(),
                    };
                    format!("did you mean `{suggestion}`? (metrics: {list})")
                }
                None => format!("metrics: {list}"),
            };
            self.bad_value(f, span, format!("unknown metric `{written}`"))
                .label("unknown metric")
                .with_help(help)
        };
        self.push(d);
        None
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use verity_model::{GroundingMode, OutcomeMode};

    use crate::testing::{assert_found, errors, mismatch, suite};

    const TASK: (&str, &str) = (
        "tasks/t.toml",
        "id = \"t\"\ncategory = \"c\"\nprompt = \"p\"\n",
    );

    #[test]
    fn a_command_providers_relative_cwd_is_the_suites() {
        let l = suite(&[
            (
                "suite.toml",
                r#"name = "s"
[defaults]
provider = "command"
options = { command = ["sh", "run.sh"] }
[[variants]]
name = "here"
options = { cwd = "." }
[[variants]]
name = "sub"
options = { cwd = "pipe" }
[[variants]]
name = "absolute"
options = { cwd = "/" }
[[variants]]
name = "unset"
"#,
            ),
            ("pipe/run.sh", "echo hi"),
            TASK,
        ]);
        let s = l.suite;
        let cwd = |v: &str| {
            s.variant(v)
                .unwrap()
                .provider
                .options
                .get("cwd")
                .and_then(|c| c.as_str())
                .map(std::path::PathBuf::from)
        };
        let here = cwd("here").unwrap();
        assert!(here.is_absolute(), "{}", here.display());
        assert!(!here.ends_with("."), "{}", here.display());
        assert_eq!(cwd("sub").unwrap(), here.join("pipe"));
        assert_eq!(cwd("absolute").unwrap(), std::path::PathBuf::from("/"));
        assert_eq!(cwd("unset"), None);
    }

    #[test]
    fn a_servers_relative_cwd_is_the_suites() {
        let l = suite(&[
            (
                "suite.toml",
                r#"name = "s"
[servers.here]
command = ["verity", "mcp", "serve"]
cwd = "."
[servers.sub]
command = ["verity", "mcp", "serve", "--repo", "x"]
cwd = "repos"
[servers.absolute]
command = ["verity", "mcp", "serve"]
cwd = "/"
[servers.unset]
command = ["verity", "mcp", "serve"]
"#,
            ),
            TASK,
        ]);
        let s = l.suite;
        let cwd = |n: &str| s.servers[n].cwd.as_deref().map(std::path::PathBuf::from);
        let here = cwd("here").unwrap();
        assert!(here.is_absolute(), "{}", here.display());
        assert_eq!(cwd("sub").unwrap(), here.join("repos"));
        assert_eq!(cwd("absolute").unwrap(), std::path::PathBuf::from("/"));
        assert_eq!(cwd("unset"), None);
    }

    #[test]
    fn variants_override_defaults_and_merge_options() {
        let l = suite(&[
            (
                "suite.toml",
                r#"name = "s"
[defaults]
provider = "openai"
model = "m"
api_key_env = "KEY"
temperature = 1
stop = "END"
prompt = "prompts/a.j2"
options = { a = 1, b = 2 }
grounding = { server = "docs", k = 3 }
[servers.docs]
command = ["srv", "--x"]
env = { K = "v" }
[[variants]]
name = "plain"
[[variants]]
name = "tuned"
model = "m2"
top_p = 0.5
seed = 9
max_tokens = 10
prompt_text = "inline {{ prompt }}"
system = "prompts/sys.j2"
options = { b = 3, c = 4 }
grounding = { server = "docs", mode = "tools" }
response_schema = "schemas/x.json"
"#,
            ),
            ("prompts/a.j2", "A {{ prompt }}"),
            ("prompts/sys.j2", "S"),
            ("schemas/x.json", r#"{"type": "object"}"#),
            TASK,
        ]);
        assert!(l.warnings.is_empty(), "{:?}", l.warnings);
        let s = l.suite;
        let plain = s.variant("plain").unwrap();
        assert_eq!(plain.provider.kind, "openai");
        assert_eq!(plain.provider.model.as_deref(), Some("m"));
        assert_eq!(plain.provider.api_key_env.as_deref(), Some("KEY"));
        assert_eq!(plain.params.temperature, Some(1.0));
        assert_eq!(plain.params.stop, ["END"]);
        assert_eq!(plain.prompt.as_ref().unwrap().origin, "prompts/a.j2");
        assert_eq!(
            serde_json::Value::Object(plain.provider.options.clone()),
            json!({"a": 1, "b": 2})
        );
        let g = plain.grounding.as_ref().unwrap();
        assert_eq!(
            (g.server.as_str(), g.mode, g.k),
            ("docs", GroundingMode::InjectTopK, 3)
        );
        assert_eq!(plain.system, None);
        assert_eq!(plain.params.response_schema, None);

        let tuned = s.variant("tuned").unwrap();
        assert_eq!(tuned.provider.model.as_deref(), Some("m2"));
        assert_eq!(
            (
                tuned.params.top_p,
                tuned.params.seed,
                tuned.params.max_tokens
            ),
            (Some(0.5), Some(9), Some(10))
        );
        assert_eq!(tuned.params.temperature, Some(1.0));
        let p = tuned.prompt.as_ref().unwrap();
        assert_eq!(
            (p.origin.as_str(), p.source.as_str()),
            ("inline", "inline {{ prompt }}")
        );
        assert_eq!(tuned.system.as_ref().unwrap().origin, "prompts/sys.j2");
        assert_eq!(
            serde_json::Value::Object(tuned.provider.options.clone()),
            json!({"a": 1, "b": 3, "c": 4})
        );
        let g = tuned.grounding.as_ref().unwrap();
        assert_eq!((g.mode, g.k), (GroundingMode::Tools, 5));
        assert_eq!(
            tuned.params.response_schema,
            Some(json!({"type": "object"}))
        );
        assert_eq!(s.servers["docs"].command, ["srv", "--x"]);
        assert_eq!(s.servers["docs"].env["K"], "v");
    }

    #[test]
    fn without_variants_there_is_one_default_and_a_missing_provider_warns() {
        let l = suite(&[
            ("suite.toml", "name = \"s\"\n[defaults]\nmodel = \"m\"\n"),
            TASK,
        ]);
        assert_eq!(l.suite.variants.len(), 1);
        let v = &l.suite.variants[0];
        assert_eq!((v.name.as_str(), v.provider.kind.as_str()), ("default", ""));
        assert_eq!(v.provider.model.as_deref(), Some("m"));
        assert_eq!(l.warnings.len(), 1);
        assert_eq!(l.warnings[0].code, "no-provider");
        assert_eq!((l.warnings[0].line, l.warnings[0].column), (2, 1));
        assert_eq!(l.suite.epochs, 1);
        assert_eq!(l.suite.outcome, Default::default());
    }

    #[test]
    fn scorers_outcome_coverage_compare() {
        let s = suite(&[
            (
                "suite.toml",
                r#"name = "s"
description = "d"
epochs = 3
quick = ["t"]
[defaults]
provider = "mock"
[[variants]]
name = "a"
[[variants]]
name = "b"
[[scorers]]
kind = "contains"
values = ["x"]
ignore_case = true
[[scorers]]
kind = "contains"
name = "second"
[outcome]
any = ["contains", "second"]
errors = "exclude"
[coverage]
c = 1
[[compare]]
pair = ["a", "b"]
alternative = "greater"
"#,
            ),
            TASK,
        ])
        .suite;
        assert_eq!((s.description.as_deref(), s.epochs), (Some("d"), 3));
        assert_eq!(s.scorers.len(), 2);
        assert_eq!(s.scorers[0].name, None);
        assert_eq!(
            serde_json::Value::Object(s.scorers[0].options.clone()),
            json!({"values": ["x"], "ignore_case": true})
        );
        assert_eq!(s.scorers[0].source.to_string(), "suite.toml:11:1");
        assert_eq!(s.scorers[1].instance_name(), "second");
        assert_eq!(s.outcome.mode, OutcomeMode::Any);
        assert_eq!(s.outcome.errors, verity_model::ErrorPolicy::Exclude);
        assert_eq!(s.coverage["c"], 1);
        assert_eq!(s.compare[0].test, "mcnemar");
        assert_eq!(s.compare[0].alternative, "greater");
        assert_eq!(s.quick, ["t"]);
    }

    /// Each case: suite.toml, then the diagnostics expected (`code@file:line:col: message…`).
    #[test]
    fn suite_toml_problems() {
        let cases: &[(&str, &[&str])] = &[
            (
                "description = \"x\"\n",
                &["missing-key@suite.toml:1:1: missing required key `name`"],
            ),
            (
                "name = \"s\"\nepochs = 0\n",
                &["bad-value@suite.toml:2:10: `epochs` must be at least 1"],
            ),
            (
                "name = \"s\"\nquick = [\"t\", \"nope\"]\n",
                &["unknown-task@suite.toml:2:15: `quick` names no task `nope`"],
            ),
            (
                "name = \"s\"\nquick = \"t\"\n",
                &["wrong-type@suite.toml:2:9: `quick` must be a list of task ids"],
            ),
            (
                "name = \"s\"\nepochs = 1.5\n",
                &["wrong-type@suite.toml:2:10: `epochs` must be an integer, found a float"],
            ),
            (
                "name = \"s\"\nnmae = 1\n",
                &["unknown-key@suite.toml:2:1: unknown key `nmae` in suite.toml"],
            ),
            (
                "name = \"s\"\n[defaults]\ntemperature = \"hot\"\n",
                &["wrong-type@suite.toml:3:15: `temperature` must be a number"],
            ),
            (
                "name = \"s\"\n[defaults]\ntop_p = 1.5\n",
                &["bad-value@suite.toml:3:9: `top_p` must be between 0 and 1"],
            ),
            (
                "name = \"s\"\n[defaults]\nmax_tokens = 0\n",
                &["bad-value@suite.toml:3:14: `max_tokens` must be at least 1"],
            ),
            (
                "name = \"s\"\n[defaults]\nseed = -1\n",
                &["bad-value@suite.toml:3:8: `seed` must be at least 0"],
            ),
            (
                "name = \"s\"\n[defaults]\nprompt_text = \"a\"\nsystem_text = \"b\"\nprompt = \"p.j2\"\n",
                &[
                    "missing-file@suite.toml:5:10: file `p.j2` does not exist",
                    "bad-value@suite.toml:3:1: set either `prompt`",
                ],
            ),
            (
                "name = \"s\"\n[defaults]\ngrounding = { server = \"dcos\" }\n[servers.docs]\ncommand = [\"x\"]\n",
                &["bad-value@suite.toml:3:24: grounding server `dcos` is not defined"],
            ),
            (
                "name = \"s\"\n[defaults]\ngrounding = { server = \"docs\", mode = \"tool\" }\n[servers.docs]\ncommand = [\"x\"]\n",
                &["bad-value@suite.toml:3:39: `mode` must be one of \"inject-top-k\" or \"tools\""],
            ),
            (
                "name = \"s\"\n[servers.docs]\ncommand = []\n",
                &["bad-value@suite.toml:3:11: `command` must not be empty"],
            ),
            (
                "name = \"s\"\n[servers.docs]\nenv = { A = 1 }\n",
                &[
                    "missing-key@suite.toml:2:1: missing required key `command` or `url` in [servers.docs]",
                    "wrong-type@suite.toml:3:13: `A` must be a string",
                ],
            ),
            (
                "name = \"s\"\n[[variants]]\nname = \"a\"\n[[variants]]\nname = \"a\"\n[[variants]]\nmodel = \"m\"\n",
                &[
                    "duplicate-name@suite.toml:5:8: duplicate variant name `a`",
                    "missing-key@suite.toml:6:1: missing required key `name` in [[variants]]",
                ],
            ),
            (
                "name = \"s\"\n[[scorers]]\nkind = \"equals\"\n[[scorers]]\nkind = \"equals\"\n[[scorers]]\nname = \"x\"\n",
                &[
                    "duplicate-name@suite.toml:5:8: two scorers are named `equals`",
                    "missing-key@suite.toml:6:1: missing required key `kind` in [[scorers]]",
                ],
            ),
            (
                "name = \"s\"\n[[scorers]]\nkind = \"equal\"\n",
                &["scorer@suite.toml:3:1: scorer `equal`: unknown scorer kind `equal`"],
            ),
            (
                "name = \"s\"\n[[scorers]]\nkind = \"regex\"\npatern = \"x\"\n",
                &["scorer@suite.toml:4:1: scorer `regex`: unknown option `patern`"],
            ),
            (
                "name = \"s\"\n[[variants]]\nname = \"a\"\n[[compare]]\ntest = \"t-test\"\npair = [\"a\", \"b\"]\n[[compare]]\npair = [\"a\", \"a\"]\n[[compare]]\npair = \"a\"\n",
                &[
                    "bad-value@suite.toml:5:8: `test` must be one of \"mcnemar\"",
                    "bad-value@suite.toml:6:14: `b` is not a variant of this suite",
                    "bad-value@suite.toml:8:8: `pair` compares a variant with itself",
                    "wrong-type@suite.toml:10:8: `pair` must be two variant names",
                ],
            ),
            (
                "name = \"s\"\n[outcome]\nall = [\"a\"]\nany = [\"b\"]\nerrors = \"ignore\"\n",
                &[
                    "bad-value@suite.toml:4:1: set either `all` or `any`",
                    "bad-value@suite.toml:5:10: `errors` must be one of \"fail\" or \"exclude\"",
                ],
            ),
            (
                "name = \"s\"\n[outcome]\nall = []\n",
                &["bad-value@suite.toml:3:7: `all` needs at least one criterion"],
            ),
            (
                "name = \"s\"\n[coverage]\nc = -1\n",
                &["bad-value@suite.toml:3:5: `c` must be at least 0"],
            ),
            (
                "name = \"s\"\ngates = { min = 1 }\n",
                &["wrong-type@suite.toml:2:9: `gates` must be an array, found a table"],
            ),
            (
                "name = \"s\"\ntasks = 3\n",
                &["wrong-type@suite.toml:2:9: `tasks` must be a glob"],
            ),
            (
                "name = \"s\"\ntasks = [\"nothing/*.toml\", \"absent.jsonl\", \"tasks/[x\"]\n",
                &[
                    "missing-file@suite.toml:2:10: `nothing/*.toml` matches no files",
                    "missing-file@suite.toml:2:28: file `absent.jsonl` does not exist",
                    "bad-value@suite.toml:2:44: invalid glob",
                ],
            ),
            (
                "name = \"s\"\n[defaults]\nresponse_schema = \"x.json\"\n",
                &["missing-file@suite.toml:3:19"],
            ),
            (
                "name = \"s\"\n[defaults\nmodel = 1\n",
                &["toml-syntax@suite.toml:2:10: invalid TOML"],
            ),
            (
                "name = \"s\"\nname = \"t\"\n",
                &["toml-syntax@suite.toml:2:1: invalid TOML: duplicate key"],
            ),
            // Integers past their type: the bound crossed, not the other one.
            (
                "name = \"s\"\nepochs = 4294967297\n",
                &["bad-value@suite.toml:2:10: `epochs` must be at most 4294967295"],
            ),
            (
                "name = \"s\"\nepochs = -3\n",
                &["bad-value@suite.toml:2:10: `epochs` must be at least 1"],
            ),
            (
                "name = \"s\"\n[coverage]\nc = 9999999999\n",
                &["bad-value@suite.toml:3:5: `c` must be at most 4294967295"],
            ),
            (
                "name = \"s\"\n[defaults]\nseed = 18446744073709551616\n",
                &["bad-value@suite.toml:3:8: `seed` must be at most 18446744073709551615"],
            ),
            (
                "name = \"s\"\n[defaults]\nmax_tokens = 4294967296\n",
                &["bad-value@suite.toml:3:14: `max_tokens` must be at most 4294967295"],
            ),
            (
                "name = \"s\"\n[defaults]\ngrounding = { server = \"docs\", k = 4294967296 }\n[servers.docs]\ncommand = [\"x\"]\n",
                &["bad-value@suite.toml:3:36: `k` must be at most 4294967295"],
            ),
            // Parameters that are not finite or out of their range.
            (
                "name = \"s\"\n[defaults]\ntemperature = inf\n",
                &["bad-value@suite.toml:3:15: `temperature` must be a finite number, found inf"],
            ),
            (
                "name = \"s\"\n[defaults]\ntemperature = -inf\n",
                &["bad-value@suite.toml:3:15: `temperature` must be a finite number, found -inf"],
            ),
            (
                "name = \"s\"\n[defaults]\ntemperature = nan\n",
                &["bad-value@suite.toml:3:15: `temperature` must be a finite number, found nan"],
            ),
            (
                "name = \"s\"\n[defaults]\ntemperature = -0.5\n",
                &["bad-value@suite.toml:3:15: `temperature` must be at least 0"],
            ),
            (
                "name = \"s\"\n[[variants]]\nname = \"a\"\ntop_p = -0.1\n[[variants]]\nname = \"b\"\ntop_p = nan\n",
                &[
                    "bad-value@suite.toml:4:9: `top_p` must be between 0 and 1",
                    "bad-value@suite.toml:7:9: `top_p` must be a finite number, found nan",
                ],
            ),
            // Provider settings.
            (
                "name = \"s\"\n[defaults]\nprovider = \"skynet\"\n",
                &["bad-value@suite.toml:3:12: unknown provider kind `skynet`"],
            ),
            (
                "name = \"s\"\n[[variants]]\nname = \"a\"\nprovider = \"opnai\"\n",
                &["bad-value@suite.toml:4:12: unknown provider kind `opnai`"],
            ),
            (
                "name = \"s\"\n[defaults]\nprovider = \"openai\"\nbase_url = \"not a url\"\n",
                &[
                    "bad-value@suite.toml:4:12: `base_url` must be an absolute http:// or https:// URL (relative URL without a base)",
                ],
            ),
            (
                "name = \"s\"\n[defaults]\nprovider = \"openai\"\nbase_url = \"ftp://example.com/v1\"\n",
                &[
                    "bad-value@suite.toml:4:12: `base_url` must be an absolute http:// or https:// URL (its scheme is `ftp`)",
                ],
            ),
            (
                "name = \"s\"\n[defaults]\nprovider = \"openai\"\napi_key_env = \"\"\n",
                &["bad-value@suite.toml:4:15: `api_key_env` must not be empty"],
            ),
            (
                "name = \"s\"\n[defaults]\nprovider = \"openai\"\napi_key_env = \"sk-live-123\"\n",
                &["bad-value@suite.toml:4:15: `api_key_env` is not an environment variable name"],
            ),
            // `[report]` paths take only the placeholders verity fills.
            (
                "name = \"s\"\n[report]\nmarkdown = \"out/{nope}-{ts}.md\"\njson = '{tmp}/{sutie}.json'\n",
                &[
                    "bad-value@suite.toml:3:17: `markdown`: unknown placeholder `{nope}` in a report path",
                    "bad-value@suite.toml:4:15: `json`: unknown placeholder `{sutie}` in a report path",
                ],
            ),
            (
                "name = \"s\"\n[report]\njson = \"\\u0041/{x}.json\"\n",
                &["bad-value@suite.toml:3:8: `json`: unknown placeholder `{x}` in a report path"],
            ),
            // `[outcome]` names only criteria the scorers report.
            (
                "name = \"s\"\n[[scorers]]\nkind = \"equals\"\n[outcome]\nall = [\"equals\", \"nope\"]\n",
                &[
                    "unknown-criterion@suite.toml:5:18: [outcome] names criterion `nope`, which no scorer reports",
                ],
            ),
            (
                "name = \"s\"\n[outcome]\nany = [\"x\", \"x\"]\n",
                &[
                    "unknown-criterion@suite.toml:3:8: [outcome] names criterion `x`, but the suite has no scorers",
                ],
            ),
            (
                // A scorer that is itself wrong: its criteria are unknown, so only it is reported.
                "name = \"s\"\n[[scorers]]\nkind = \"equal\"\n[outcome]\nall = [\"equal\"]\n",
                &["scorer@suite.toml:3:1: scorer `equal`: unknown scorer kind `equal`"],
            ),
        ];
        let problems: Vec<String> = cases
            .iter()
            .filter_map(|(toml, expected)| {
                let found = errors(&[("suite.toml", toml), TASK]);
                mismatch(&found, expected).map(|m| format!("--- {toml}\n{m}"))
            })
            .collect();
        assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    }

    /// What the new value checks suggest, and what they accept.
    #[test]
    fn value_problems_say_what_would_be_valid() {
        let (_dir, result) = crate::testing::load_files(&[
            (
                "suite.toml",
                r#"name = "s"
[[variants]]
name = "a"
provider = "opnai"
[[variants]]
name = "b"
provider = "skynet"
[[scorers]]
kind = "contains"
name = "exact"
[[scorers]]
kind = "swift"
criteria = { parse = "compiles" }
[outcome]
all = ["exact", "compile", "exactly"]
[report]
json = "{tmp}/{run}-{sute}.json"
"#,
            ),
            TASK,
        ]);
        let diags = result.unwrap_err();
        let help = |needle: &str| {
            let d = diags
                .0
                .iter()
                .find(|d| d.message.contains(needle))
                .unwrap_or_else(|| panic!("no `{needle}` in {diags}"));
            d.help.clone().unwrap_or_default()
        };
        assert_eq!(
            help("`opnai`"),
            "did you mean `openai`? (known kinds: local, mock, openai, anthropic, gemini, command)"
        );
        assert_eq!(
            help("`skynet`"),
            "known kinds: local, mock, openai, anthropic, gemini, command"
        );
        let reported = "`exact`, `compiles`, `symbols_exist`, `availability_ok`, `no_deprecated`";
        assert_eq!(
            help("criterion `compile`"),
            format!("did you mean `compiles`? The scorers report {reported}")
        );
        assert_eq!(
            help("criterion `exactly`"),
            format!("did you mean `exact`? The scorers report {reported}")
        );
        assert_eq!(
            help("`{sute}`"),
            "did you mean `{suite}`? (known: {ts}, {run}, {suite}, {tmp})"
        );
        assert_eq!(diags.error_count(), 5, "{diags}");

        // Everything valid loads.
        let l = suite(&[
            (
                "suite.toml",
                r#"name = "s"
[defaults]
provider = "openai"
base_url = "http://127.0.0.1:8080/v1"
api_key_env = "MY_KEY_2"
temperature = 0
top_p = 1
[[scorers]]
kind = "json-valid"
[[scorers]]
kind = "identical"
[outcome]
any = ["json_valid", "identical"]
[report]
markdown = "{tmp}/{suite}-{run}-{ts}.md"
json = "out/{} {x y}.json"
"#,
            ),
            TASK,
        ]);
        assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    }

    #[test]
    fn bad_schema_json_points_into_the_schema_file() {
        let found = errors(&[
            (
                "suite.toml",
                "name = \"s\"\n[defaults]\nresponse_schema = \"x.json\"\n",
            ),
            ("x.json", "{\n  \"type\": objec\n}\n"),
            TASK,
        ]);
        assert_found(
            &found,
            &["json-syntax@x.json:2:11: invalid JSON schema: expected value"],
        );
    }

    /// `[run]` is read into the suite's run settings; a suite without it has none.
    #[test]
    fn run_settings_parse() {
        let l = suite(&[
            (
                "suite.toml",
                "name = \"s\"\nquick = [\"t\"]\n[defaults]\nprovider = \"mock\"\n[run]\nretries = 1\ncache = \"off\"\nquick_epochs = 3\ncost_warning_usd = 0.5\n",
            ),
            TASK,
        ]);
        assert!(l.warnings.is_empty(), "{:?}", l.warnings);
        assert_eq!(
            l.suite.run,
            verity_model::RunSettings {
                retries: Some(1),
                cache: Some(verity_model::CacheMode::Off),
                quick_epochs: Some(3),
                cost_warning_usd: Some(0.5),
            }
        );
        let plain = suite(&[("suite.toml", "name = \"s\"\n"), TASK]);
        assert!(plain.suite.run.is_empty());
        // `quick_epochs` without a quick subset loads, with a warning at the setting.
        let (dir, loaded) = crate::testing::load_files(&[
            (
                "suite.toml",
                "name = \"s\"\n[defaults]\nprovider = \"mock\"\n[run]\nquick_epochs = 2\n",
            ),
            TASK,
        ]);
        let loaded = loaded.unwrap();
        assert_eq!(loaded.suite.run.quick_epochs, Some(2));
        assert_eq!(
            crate::testing::list(&dir, &loaded.warnings),
            [
                "unused@suite.toml:5:1: `quick_epochs` has no effect: the suite declares no `quick` subset"
            ]
        );
    }

    /// Every `[run]` problem at its line and column.
    #[test]
    fn run_settings_problems() {
        let found = errors(&[
            (
                "suite.toml",
                "name = \"s\"\n[run]\nretries = -1\ncache = \"of\"\nquick_epochs = 0\nepochs = 2\ncost_warning_usd = -1\n",
            ),
            TASK,
        ]);
        assert_found(
            &found,
            &[
                "unknown-key@suite.toml:6:1: unknown key `epochs` in [run]",
                "bad-value@suite.toml:3:11: `retries` must be between 0 and 100",
                "bad-value@suite.toml:4:9: `cache` must be one of \"live\", \"refresh\" or \"off\"; found `of`",
                "bad-value@suite.toml:5:16: `quick_epochs` must be at least 1",
                "bad-value@suite.toml:7:20: `cost_warning_usd` must be at least 0",
            ],
        );
        let found = errors(&[
            (
                "suite.toml",
                "name = \"s\"\n[run]\ncache = \"replay\"\nretries = \"2\"\n",
            ),
            TASK,
        ]);
        assert_found(
            &found,
            &[
                "bad-value@suite.toml:3:9: `cache = \"replay\"` answers from the cache only",
                "wrong-type@suite.toml:4:11: `retries` must be an integer, found a string",
            ],
        );
        let found = errors(&[("suite.toml", "name = \"s\"\nrun = 3\n"), TASK]);
        assert_found(
            &found,
            &["wrong-type@suite.toml:2:7: `run` must be a table"],
        );
    }

    const UI_SCHEMA: &str = "{\n  \"type\": \"object\",\n  \"required\": [\"views\"]\n}\n";

    fn json_schema_suite(extra: &str) -> String {
        format!(
            "name = \"s\"\n[[scorers]]\nkind = \"json-schema\"\nschema = \"schemas/ui.json\"\n{extra}"
        )
    }

    /// The schema file is read into the suite (a stored run rescored needs no file), with the
    /// path as written and the hash of its canonical text; a command rule's directory is made
    /// absolute, and the files its arguments name count in the content hash.
    #[test]
    fn json_schema_files_are_inlined_and_hashed() {
        let toml = json_schema_suite(
            "[[scorers.rules]]\nname = \"ok\"\ncommand = [\"python3\", \"check.py\"]\n",
        );
        let files = |schema: &'static str, check: &'static str| {
            [
                ("suite.toml", toml.clone()),
                ("schemas/ui.json", schema.to_owned()),
                ("check.py", check.to_owned()),
                (TASK.0, TASK.1.to_owned()),
            ]
        };
        let load = |files: &[(&str, String)]| {
            let refs: Vec<(&str, &str)> = files.iter().map(|(p, c)| (*p, c.as_str())).collect();
            let (dir, result) = crate::testing::load_files(&refs);
            (dir, result.unwrap_or_else(|e| panic!("{e}")).suite)
        };
        let (dir, s) = load(&files(UI_SCHEMA, "exit(0)\n"));
        let o = &s.scorers[0].options;
        assert_eq!(
            o["schema"],
            json!({"type": "object", "required": ["views"]})
        );
        assert_eq!(o["schema_file"], "schemas/ui.json");
        let canonical = r#"{"required":["views"],"type":"object"}"#;
        assert_eq!(
            o["schema_hash"].as_str().unwrap(),
            blake3::hash(canonical.as_bytes()).to_hex().as_str()
        );
        let rule_dir = o["rules"][0]["dir"].as_str().unwrap();
        assert!(std::path::Path::new(rule_dir).is_absolute());
        assert_eq!(
            std::fs::canonicalize(rule_dir).unwrap(),
            std::fs::canonicalize(dir.path()).unwrap()
        );
        // Re-indenting the schema changes the file (the content hash) but not the schema's hash;
        // changing what it says changes both; so does editing the command's script.
        let (_, reindented) = load(&files(
            "{\"required\": [\"views\"], \"type\": \"object\"}",
            "exit(0)\n",
        ));
        assert_ne!(reindented.content_hash, s.content_hash);
        assert_eq!(
            reindented.scorers[0].options["schema_hash"],
            o["schema_hash"]
        );
        let (_, edited) = load(&files(
            "{\"type\": \"array\", \"required\": [\"views\"]}",
            "exit(0)\n",
        ));
        assert_ne!(edited.content_hash, s.content_hash);
        assert_ne!(edited.scorers[0].options["schema_hash"], o["schema_hash"]);
        let (_, script) = load(&files(UI_SCHEMA, "exit(1)\n"));
        assert_ne!(script.content_hash, s.content_hash);
    }

    #[test]
    fn json_schema_problems_point_at_the_option() {
        // A missing file: reported once, where it is named.
        let missing = json_schema_suite("");
        assert_found(
            &errors(&[("suite.toml", missing.as_str()), TASK]),
            &["missing-file@suite.toml:4:10: file `schemas/ui.json` does not exist"],
        );
        // Invalid JSON: in the schema file, at its line and column.
        assert_found(
            &errors(&[
                ("suite.toml", missing.as_str()),
                ("schemas/ui.json", "{\n  \"type\": objec\n}\n"),
                TASK,
            ]),
            &["json-syntax@schemas/ui.json:2:11: invalid JSON schema: expected value"],
        );
        // JSON the validator rejects: at the option.
        assert_found(
            &errors(&[
                ("suite.toml", missing.as_str()),
                ("schemas/ui.json", "{\"type\": 12}"),
                TASK,
            ]),
            &["scorer@suite.toml:4:1: scorer `json-schema`: invalid JSON Schema: "],
        );
        // A bad rule: at its key inside [[scorers.rules]].
        let rules = json_schema_suite(
            "[[scorers.rules]]\nexists = \"$.views\"\n[[scorers.rules]]\neach = \"$.a\"\nin = \"$.b[\"\n",
        );
        assert_found(
            &errors(&[
                ("suite.toml", rules.as_str()),
                ("schemas/ui.json", UI_SCHEMA),
                TASK,
            ]),
            &["scorer@suite.toml:9:1: scorer `json-schema`: `$.b[` is not a JSONPath"],
        );
        // No schema at all; a hash written by hand.
        assert_found(
            &errors(&[
                (
                    "suite.toml",
                    "name = \"s\"\n[[scorers]]\nkind = \"json-schema\"\nschema_hash = \"x\"\n",
                ),
                TASK,
            ]),
            &[
                "bad-value@suite.toml:4:1: `schema_hash` is set by verity from `schema`",
                "scorer@suite.toml:2:1: scorer `json-schema`: `schema` is required",
            ],
        );
    }

    /// Where a gate was declared, as `file:line:column`.
    fn at(g: &verity_model::GateSpec) -> String {
        g.source.to_string()
    }

    const GATED: &str = r#"name = "s"
[defaults]
provider = "mock"
[[variants]]
name = "plain"
[[variants]]
name = "grounded"
[[scorers]]
kind = "equals"
name = "exact"
[[scorers]]
kind = "regex"
name = "format"
pattern = "."
"#;

    #[test]
    fn gates_parse_into_gate_specs() {
        let toml = format!(
            "{GATED}{}",
            r#"[[gates]]
min = 0.8
[[gates]]
metric = "criterion:exact"
variant = "grounded"
min = 0.9
max = 1
[[gates]]
metric = "latency_p95_ms"
max = 2000
[[gates]]
metric = "pass_rate"
variant = "plain"
baseline = true
max_drop = 0.02
[[gates]]
metric = "regressions"
max = 0
[[gates]]
metric = "f1"
min = 0.5
[[gates]]
metric = "f1:format"
min = 0.5
[[gates]]
metric = "mcnemar_p"
variant = "grounded"
max = 0.05
"#
        );
        let l = suite(&[("suite.toml", &toml), TASK]);
        assert!(l.warnings.is_empty(), "{:?}", l.warnings);
        let g = &l.suite.gates;
        let summary: Vec<(String, Option<&str>, String, bool, String)> = g
            .iter()
            .map(|g| {
                (
                    g.metric.name(),
                    g.variant.as_deref(),
                    g.describe(),
                    g.baseline,
                    at(g),
                )
            })
            .collect();
        let expected = [
            (
                "pass_rate",
                None,
                "pass_rate >= 0.8",
                false,
                "suite.toml:15:1",
            ),
            (
                "criterion:exact",
                Some("grounded"),
                "criterion:exact >= 0.9, <= 1",
                false,
                "suite.toml:17:1",
            ),
            (
                "latency_p95_ms",
                None,
                "latency_p95_ms <= 2000",
                false,
                "suite.toml:22:1",
            ),
            (
                "pass_rate",
                Some("plain"),
                "pass_rate drop < 0.02 from baseline",
                true,
                "suite.toml:25:1",
            ),
            (
                "regressions",
                None,
                "regressions <= 0",
                true,
                "suite.toml:30:1",
            ),
            ("f1", None, "f1 >= 0.5", false, "suite.toml:33:1"),
            (
                "f1:format",
                None,
                "f1:format >= 0.5",
                false,
                "suite.toml:36:1",
            ),
            (
                "mcnemar_p",
                Some("grounded"),
                "mcnemar_p <= 0.05",
                false,
                "suite.toml:39:1",
            ),
        ]
        .map(|(m, v, d, b, s)| (m.to_owned(), v, d.to_owned(), b, s.to_owned()));
        assert_eq!(summary, expected);
        assert_eq!(
            g[1],
            verity_model::GateSpec {
                metric: verity_model::Metric::Criterion("exact".into()),
                variant: Some("grounded".into()),
                min: Some(0.9),
                max: Some(1.0),
                baseline: false,
                max_drop: None,
                source: verity_model::SourceLoc {
                    file: "suite.toml".into(),
                    line: 17,
                    column: 1,
                },
            }
        );
    }

    /// `baseline = true` alone is the default baseline set: `pass_rate` may drop 0.05 (or
    /// the entry's `max_drop`), and no task may regress.
    #[test]
    fn the_default_baseline_set_expands() {
        let toml = format!(
            "{GATED}{}",
            "[[gates]]\nbaseline = true\n[[gates]]\nbaseline = true\nvariant = \"grounded\"\nmax_drop = 0.1\n"
        );
        let g = suite(&[("suite.toml", &toml), TASK]).suite.gates;
        let found: Vec<(String, Option<&str>, bool, String)> = g
            .iter()
            .map(|g| (g.describe(), g.variant.as_deref(), g.baseline, at(g)))
            .collect();
        let expected = [
            (
                "pass_rate drop < 0.05 from baseline",
                None,
                true,
                "suite.toml:15:1",
            ),
            ("regressions <= 0", None, true, "suite.toml:15:1"),
            (
                "pass_rate drop < 0.1 from baseline",
                Some("grounded"),
                true,
                "suite.toml:17:1",
            ),
            (
                "regressions <= 0",
                Some("grounded"),
                true,
                "suite.toml:17:1",
            ),
        ]
        .map(|(d, v, b, s)| (d.to_owned(), v, b, s.to_owned()));
        assert_eq!(found, expected);
        assert_eq!(g[0].max_drop, Some(crate::config::DEFAULT_MAX_DROP));
        assert_eq!((g[1].min, g[1].max, g[1].max_drop), (None, Some(0.0), None));
    }

    /// Each case: the `[[gates]]` entries after [`GATED`] (its line 15 on), then every error
    /// expected, exactly.
    #[test]
    fn gate_problems() {
        let cases: &[(&str, &[&str])] = &[
            (
                "[[gates]]\nmetric = \"acuracy\"\nmin = 0.5\n",
                &["bad-value@suite.toml:16:10: unknown metric `acuracy`"],
            ),
            (
                "[[gates]]\nmetric = \"criterion\"\nmin = 0.5\n",
                &["bad-value@suite.toml:16:10: `criterion` needs a criterion: `criterion:NAME`"],
            ),
            (
                "[[gates]]\nvariant = \"grounde\"\nmin = 0.5\n",
                &["bad-value@suite.toml:16:11: `grounde` is not a variant of this suite"],
            ),
            (
                "[[gates]]\nmetric = \"f1\"\nmin = 0.5\nmax_drop = 0.1\n",
                &[
                    "bad-value@suite.toml:15:1: `max_drop` is measured from the baseline: add `baseline = true`",
                ],
            ),
            (
                "[[gates]]\nmin = 0.9\nmax = 0.5\n",
                &["bad-value@suite.toml:15:1: `min = 0.9` is above `max = 0.5`"],
            ),
            (
                "[[gates]]\nmin = 1.5\n",
                &[
                    "bad-value@suite.toml:15:1: `pass_rate` is a fraction from 0 to 1; `min = 1.5` can never be decided by it",
                ],
            ),
            (
                "[[gates]]\nmetric = \"latency_p50_ms\"\nmax = -1\n",
                &["bad-value@suite.toml:15:1: `latency_p50_ms` is never negative; `max = -1`"],
            ),
            (
                "[[gates]]\nmetric = \"criterion:exactt\"\nmin = 0.5\n[[gates]]\nmetric = \"group_mean:formt\"\nmin = 0.5\n",
                &[
                    "unknown-criterion@suite.toml:16:10: gate `criterion:exactt` names criterion `exactt`, which no scorer reports",
                    "unknown-criterion@suite.toml:19:10: gate `group_mean:formt` names criterion `formt`, which no scorer reports",
                ],
            ),
            (
                "[[gates]]\nminimum = 0.5\n",
                &[
                    "unknown-key@suite.toml:16:1: unknown key `minimum` in [[gates]]",
                    "bad-value@suite.toml:15:1: the gate on `pass_rate` sets no bound: give `min`, `max` or (with `baseline = true`) `max_drop`",
                ],
            ),
            (
                "[[gates]]\nmetric = \"regressions\"\nbaseline = false\nmax = 0\n",
                &[
                    "bad-value@suite.toml:15:1: `regressions` is counted against the baseline: add `baseline = true`",
                ],
            ),
            (
                "[[gates]]\nbaseline = \"yes\"\nmax_drop = -0.1\nmin = \"high\"\n",
                &[
                    "wrong-type@suite.toml:16:12: `baseline` must be true or false, found a string",
                    "bad-value@suite.toml:17:12: `max_drop` must be at least 0",
                    "wrong-type@suite.toml:18:7: `min` must be a number, found a string",
                ],
            ),
        ];
        let problems: Vec<String> = cases
            .iter()
            .filter_map(|(gates, expected)| {
                let toml = format!("{GATED}{gates}");
                let mut found = errors(&[("suite.toml", &toml), TASK]);
                let mut expected: Vec<&str> = expected.to_vec();
                found.sort();
                expected.sort_unstable();
                (found != expected)
                    .then(|| format!("--- {gates}\nexpected {expected:#?}\nfound {found:#?}"))
            })
            .collect();
        assert!(problems.is_empty(), "{}", problems.join("\n\n"));

        // Without scorers, a criterion can be named by no one.
        let found = errors(&[
            (
                "suite.toml",
                "name = \"s\"\n[defaults]\nprovider = \"mock\"\n[[gates]]\nmetric = \"criterion:x\"\nmin = 1\n",
            ),
            TASK,
        ]);
        assert_eq!(
            found,
            [
                "unknown-criterion@suite.toml:5:10: gate `criterion:x` names criterion `x`, but the suite has no scorers to report it"
            ]
        );
    }

    /// What a gate's errors suggest.
    #[test]
    fn gate_problems_suggest_what_would_be_valid() {
        let toml = format!(
            "{GATED}{}",
            r#"[[gates]]
metric = "pass-rate"
min = 0.5
[[gates]]
metric = "recal:format"
min = 0.5
[[gates]]
metric = "accuracy"
min = 0.5
[[gates]]
variant = "grounde"
min = 0.5
[[gates]]
variant = "nothing-like-it"
min = 0.5
[[gates]]
metric = "criterion:exat"
min = 0.5
"#
        );
        let (_dir, result) = crate::testing::load_files(&[("suite.toml", &toml), TASK]);
        let diags = result.unwrap_err();
        let helps: Vec<String> = diags
            .0
            .iter()
            .map(|d| d.help.clone().unwrap_or_default())
            .collect();
        let metrics = verity_model::METRIC_FORMS.join(", ");
        assert_eq!(
            helps,
            [
                format!("did you mean `pass_rate`? (metrics: {metrics})"),
                format!("did you mean `recall:format`? (metrics: {metrics})"),
                format!("metrics: {metrics}"),
                "did you mean `grounded`?".to_owned(),
                "variants: plain, grounded".to_owned(),
                "did you mean `exact`? The scorers report `exact`, `format`".to_owned(),
            ]
        );
    }

    /// A facts file as `verity facts extract` writes it, for repository `name`.
    fn facts_json(name: &str, file: &str) -> String {
        let mut f = verity_facts::Facts {
            repo: verity_facts::RepoInfo {
                name: name.into(),
                extractor: "test".into(),
                ..Default::default()
            },
            files: vec![verity_facts::FileFact {
                path: file.into(),
                language: None,
                lines: 3,
                bytes: 9,
                hash: "h".into(),
                identifiers: vec![],
            }],
            ..Default::default()
        };
        f.normalize();
        f.to_json()
    }

    const CITE_TASKS: (&str, &str) = (
        "tasks/t.jsonl",
        "{\"id\": \"a\", \"input\": \"q\", \"metadata\": {\"repo\": \"one\"}, \"expect\": {\"citations\": {\"relation\": \"defined_in\", \"subject\": \"x\"}}}\n",
    );

    /// The facts a citation scorer names are read into its options (a file or a directory),
    /// hashed, and count in the suite's content hash.
    #[test]
    fn citation_facts_are_inlined_and_hashed() {
        let toml = "name = \"s\"\n[[scorers]]\nkind = \"citations\"\nfacts = \"facts\"\n[[scorers]]\nkind = \"citation-consistency\"\nfacts = \"facts/one.json\"\n";
        let load = |one: &str| {
            let files = [
                ("suite.toml", toml.to_owned()),
                ("facts/one.json", one.to_owned()),
                ("facts/two.json", facts_json("two", "b.py")),
                ("facts/notes.txt", "not facts".to_owned()),
                (CITE_TASKS.0, CITE_TASKS.1.to_owned()),
            ];
            let refs: Vec<(&str, &str)> = files.iter().map(|(p, c)| (*p, c.as_str())).collect();
            let (_dir, result) = crate::testing::load_files(&refs);
            result.unwrap_or_else(|e| panic!("{e}")).suite
        };
        let s = load(&facts_json("one", "a.py"));
        let o = &s.scorers[0].options;
        assert_eq!(o["facts"], "facts");
        assert_eq!(
            o["facts_files"],
            json!(["facts/one.json", "facts/two.json"])
        );
        let data = o["facts_data"].as_object().unwrap();
        assert_eq!(data.keys().collect::<Vec<_>>(), ["one", "two"]);
        assert_eq!(data["one"]["files"][0]["path"], "a.py");
        assert!(o["facts_hash"].as_str().unwrap().len() == 64);
        let c = &s.scorers[1].options;
        assert_eq!(c["facts_files"], json!(["facts/one.json"]));
        // Another repository content: another facts hash and content hash.
        let other = load(&facts_json("one", "c.py"));
        assert_ne!(other.content_hash, s.content_hash);
        assert_ne!(other.scorers[0].options["facts_hash"], o["facts_hash"]);
    }

    #[test]
    fn citation_facts_problems_point_at_the_option() {
        let toml = |facts: &str| {
            format!("name = \"s\"\n[[scorers]]\nkind = \"citations\"\nfacts = \"{facts}\"\n")
        };
        let missing = toml("facts/one.json");
        assert_found(
            &errors(&[("suite.toml", missing.as_str()), CITE_TASKS]),
            &["missing-file@suite.toml:4:9: file `facts/one.json` does not exist"],
        );
        let bad = errors(&[
            ("suite.toml", missing.as_str()),
            (
                "facts/one.json",
                "{\"format\": \"verity-facts/1\", \"repo\": 3}",
            ),
            CITE_TASKS,
        ]);
        assert_eq!(bad.len(), 1, "{bad:?}");
        assert!(bad[0].starts_with("bad-value@suite.toml:4:9: "), "{bad:?}");
        assert!(
            bad[0].contains("facts/one.json:1:38: not a facts file"),
            "{bad:?}"
        );
        let dir = toml("facts");
        assert_found(
            &errors(&[
                ("suite.toml", dir.as_str()),
                ("facts/x.txt", ""),
                CITE_TASKS,
            ]),
            &["bad-value@suite.toml:4:9: the facts directory `facts` has no *.json facts file"],
        );
        let two = facts_json("one", "a.py");
        assert_found(
            &errors(&[
                ("suite.toml", dir.as_str()),
                ("facts/a.json", two.as_str()),
                ("facts/b.json", two.as_str()),
                CITE_TASKS,
            ]),
            &[
                "bad-value@suite.toml:4:9: facts files `facts/a.json` and `facts/b.json` both describe repository `one`",
            ],
        );
        // A task about a repository no facts describe: at the task.
        let other = facts_json("other", "a.py");
        assert_found(
            &errors(&[
                ("suite.toml", missing.as_str()),
                ("facts/one.json", other.as_str()),
                CITE_TASKS,
            ]),
            &[
                "scorer@tasks/t.jsonl:1:2: task `a` (scorer `citations`): `metadata.repo` names `one`, a repository no loaded facts file describes (loaded: other)",
            ],
        );
        // The loaded keys are verity's.
        let set = format!("{}facts_hash = \"x\"\n", toml("facts/one.json"));
        let one = facts_json("one", "a.py");
        assert_found(
            &errors(&[
                ("suite.toml", set.as_str()),
                ("facts/one.json", one.as_str()),
                CITE_TASKS,
            ]),
            &["bad-value@suite.toml:5:1: `facts_hash` is set by verity from `facts`"],
        );
    }
}
