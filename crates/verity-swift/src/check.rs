//! The four oracles over one Swift source: `parse`, `symbols_exist`, `availability_ok`,
//! `no_deprecated`.

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

use serde::Serialize;
use verity_model::{Evidence, ScoreStatus};

use crate::analyze::{Analysis, Analyzer, Decls, Use};
use crate::deprecations::{DeprecationMap, graph_claim, graph_claim_unconstrained};
use crate::extract::extract_code;
use crate::index::{Index, IndexError};
use crate::syntax;
use crate::toolchain::{Limits, ToolchainChoice, run_compiler};
use crate::version::{Domain, Target, Version};

/// The index built from `shared/data/apple-sdk-symbols/ios17.4` (see `data/README.md`).
pub const DEFAULT_INDEX_BYTES: &[u8] = include_bytes!("../data/ios17.4.vidx");
/// The name of the shipped index in options (`index = "default:ios17.4"`).
pub use verity_catalog::swift::DEFAULT_INDEX_NAME;

/// The shipped index, decoded once.
pub fn default_index() -> Result<Arc<Index>, IndexError> {
    static CELL: OnceLock<Result<Arc<Index>, String>> = OnceLock::new();
    CELL.get_or_init(|| {
        Index::load_bytes(DEFAULT_INDEX_BYTES)
            .map(Arc::new)
            .map_err(|e| e.to_string())
    })
    .clone()
    .map_err(IndexError::Format)
}

/// The shipped deprecation map resolved against the shipped index, built once.
pub fn default_map() -> Result<Arc<DeprecationMap>, IndexError> {
    static CELL: OnceLock<Result<Arc<DeprecationMap>, String>> = OnceLock::new();
    CELL.get_or_init(|| {
        default_index()
            .map(|ix| Arc::new(DeprecationMap::default_for(&ix)))
            .map_err(|e| e.to_string())
    })
    .clone()
    .map_err(IndexError::Format)
}

/// What to do with "deprecated in a future release" (`API_TO_BE_DEPRECATED`, `deprecated:
/// 100000.0`: `NavigationView`, `foregroundColor(_:)`, `navigationBarTitle`). Apple's
/// documentation marks these Deprecated with a named replacement, which is seed 000's
/// "deprecated when a current alternative is documented": they fail by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FutureMode {
    /// Pass, with a warning in the evidence.
    Warn,
    /// Fail `no_deprecated` like any other deprecation (the default).
    #[default]
    Fail,
}

impl FutureMode {
    /// `"warn"` or `"fail"` (the option's and the flag's spelling), else `None`.
    pub fn parse(s: &str) -> Option<FutureMode> {
        match s {
            "warn" => Some(FutureMode::Warn),
            "fail" => Some(FutureMode::Fail),
            _ => None,
        }
    }

    /// The evidence prefix of a future deprecation under this mode.
    fn label(self) -> &'static str {
        match self {
            FutureMode::Warn => "warning",
            FutureMode::Fail => "future deprecation",
        }
    }
}

/// How to check a source.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    pub target: Target,
    /// The Swift language version (for `@available(swift, …)`); default 5.10.
    pub swift: Version,
    pub index: Arc<Index>,
    pub deprecations: Arc<DeprecationMap>,
    pub future: FutureMode,
    pub toolchain: ToolchainChoice,
    pub require_toolchain: bool,
    pub limits: Limits,
}

impl CheckOptions {
    /// The shipped index and map, tree-sitter parsing, for `target`.
    pub fn new(target: Target) -> Result<CheckOptions, IndexError> {
        Ok(CheckOptions {
            target,
            swift: Version::new(5, 10, 0),
            index: default_index()?,
            deprecations: default_map()?,
            future: FutureMode::default(),
            toolchain: ToolchainChoice::TreeSitter,
            require_toolchain: false,
            limits: Limits::default(),
        })
    }

    /// Whether a miss in the index is evidence of a hallucination for this target: the index
    /// describes the target's SDK (iOS, or Mac Catalyst on an iOS index) at or after the
    /// target version.
    pub fn index_authoritative(&self) -> Result<(), String> {
        let Some(p) = self.index.meta().platform else {
            return Ok(());
        };
        let same = p.domain == self.target.domain
            || (p.domain == Domain::Ios && self.target.domain == Domain::MacCatalyst);
        if !same {
            return Err(format!(
                "the index describes the {} SDK; a symbol missing from it may still exist on {}",
                self.index.meta().label,
                self.target
            ));
        }
        if self.target.version > p.version {
            return Err(format!(
                "target {} is newer than the index ({}): a missing symbol may be newer API",
                self.target,
                self.index.meta().label
            ));
        }
        Ok(())
    }
}

/// One criterion's verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CriterionReport {
    pub status: ScoreStatus,
    pub explanation: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<Evidence>,
    /// Counts (`references`, `missing`, `violations`, `warnings`, …).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub metrics: std::collections::BTreeMap<String, f64>,
}

impl CriterionReport {
    fn new(status: ScoreStatus, explanation: impl Into<String>) -> Self {
        CriterionReport {
            status,
            explanation: explanation.into(),
            evidence: Vec::new(),
            metrics: Default::default(),
        }
    }

    fn metric(mut self, k: &str, v: usize) -> Self {
        self.metrics.insert(k.to_owned(), v as f64);
        self
    }

    /// How many references were resolved against a known type, could not be (`unresolved`:
    /// checked by name only), and are missing: in the metrics and the explanation.
    fn resolution(mut self, resolved: usize, unresolved: usize, missing: usize) -> Self {
        self.explanation.push_str(&format!(
            " [{resolved} resolved, {unresolved} unverifiable, {missing} missing]"
        ));
        self.metric("resolved", resolved)
            .metric("unresolved", unresolved)
            .metric("missing", missing)
    }

    /// Pass or not applicable.
    pub fn ok(&self) -> bool {
        matches!(self.status, ScoreStatus::Pass | ScoreStatus::NotApplicable)
    }
}

/// The four verdicts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Criteria {
    pub parse: CriterionReport,
    pub symbols_exist: CriterionReport,
    pub availability_ok: CriterionReport,
    pub no_deprecated: CriterionReport,
}

/// What `verity check swift FILE` prints for one file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileReport {
    /// `tree-sitter` or the compiler command that ran.
    pub parser: String,
    pub target_platform: String,
    pub index: String,
    pub parse: bool,
    pub symbols_exist: bool,
    pub availability_ok: bool,
    pub no_deprecated: bool,
    /// Every criterion passed or did not apply.
    pub outcome: bool,
    pub criteria: Criteria,
}

impl FileReport {
    fn from_criteria(parser: String, opts: &CheckOptions, c: Criteria) -> FileReport {
        FileReport {
            parser,
            target_platform: opts.target.to_string(),
            index: opts.index.meta().label.clone(),
            parse: c.parse.ok(),
            symbols_exist: c.symbols_exist.ok(),
            availability_ok: c.availability_ok.ok(),
            no_deprecated: c.no_deprecated.ok(),
            outcome: c.parse.ok()
                && c.symbols_exist.ok()
                && c.availability_ok.ok()
                && c.no_deprecated.ok(),
            criteria: c,
        }
    }
}

/// Checks a Swift source file (the whole text is code).
pub fn check_source(src: &str, opts: &CheckOptions) -> FileReport {
    let (parser, c) = evaluate(src, opts);
    FileReport::from_criteria(parser, opts, c)
}

/// Checks a model's answer: its fenced Swift blocks (see [`crate::extract`]); evidence line
/// numbers point into the answer.
pub fn check_answer(answer: &str, opts: &CheckOptions) -> FileReport {
    let code = extract_code(answer);
    if code.is_empty() {
        let na = |what: &str| {
            CriterionReport::new(
                ScoreStatus::NotApplicable,
                format!("no code to check for {what}"),
            )
        };
        let c = Criteria {
            parse: CriterionReport::new(ScoreStatus::Fail, "no code produced"),
            symbols_exist: na("symbols"),
            availability_ok: na("availability"),
            no_deprecated: na("deprecations"),
        };
        return FileReport::from_criteria("none".into(), opts, c);
    }
    check_source(&code.source, opts)
}

fn ev(message: String, line: u32, column: u32) -> Evidence {
    Evidence::msg(message).at(line, column)
}

/// Runs the four oracles; returns the parser that ran and the verdicts.
pub fn evaluate(src: &str, opts: &CheckOptions) -> (String, Criteria) {
    let parsed = syntax::parse(src);
    let (parser, parse) = parse_criterion(src, &parsed, opts);
    let Some(tree) = &parsed.tree else {
        let why = parsed
            .gave_up
            .clone()
            .unwrap_or_else(|| "no syntax tree".into());
        let na = || {
            CriterionReport::new(
                ScoreStatus::NotApplicable,
                format!("not checked: the source could not be parsed ({why})"),
            )
        };
        return (
            parser,
            Criteria {
                parse,
                symbols_exist: na(),
                availability_ok: na(),
                no_deprecated: na(),
            },
        );
    };
    let root = tree.root_node();
    let decls = Decls::collect(root, src);
    let mut analysis = analyze(root, src, &decls, opts);
    if !analysis.unknown_imports.is_empty() {
        // names found by name alone may belong to the modules the index does not cover
        analysis.uses.retain(|u| u.resolved);
    }
    if !parsed.error_spans.is_empty() {
        // references inside broken regions are the parser's guesses
        analysis.misses.retain(|m| !parsed.in_error(m.line));
        analysis.uses.retain(|u| !parsed.in_error(u.line));
    }
    let criteria = Criteria {
        parse,
        symbols_exist: symbols_criterion(&analysis, opts),
        availability_ok: availability_criterion(&analysis, opts),
        no_deprecated: deprecation_criterion(&analysis, opts),
    };
    (parser, criteria)
}

/// Trees deeper than this are analyzed on a thread with a large stack.
const INLINE_DEPTH: usize = 120;
const DEEP_STACK: usize = 256 << 20;

fn analyze(root: tree_sitter::Node<'_>, src: &str, decls: &Decls, opts: &CheckOptions) -> Analysis {
    let run = || Analyzer::new(&opts.index, src, decls, opts.target).run(root);
    if decls.max_depth <= INLINE_DEPTH {
        return run();
    }
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("verity-swift-deep".into())
            .stack_size(DEEP_STACK)
            .spawn_scoped(s, run)
            .ok()
            .and_then(|h| h.join().ok())
    })
    .unwrap_or_else(|| Analysis {
        truncated: true,
        ..Analysis::default()
    })
}

fn tree_sitter_verdict(parsed: &syntax::Parsed) -> CriterionReport {
    if parsed.issue_count == 0 && parsed.tree.is_some() {
        return CriterionReport::new(
            ScoreStatus::Pass,
            "tree-sitter parse check: no syntax errors",
        );
    }
    let mut r = CriterionReport::new(
        ScoreStatus::Fail,
        format!(
            "tree-sitter parse check: {} syntax problem{}",
            parsed.issue_count,
            if parsed.issue_count == 1 { "" } else { "s" }
        ),
    )
    .metric("syntax_errors", parsed.issue_count);
    for i in &parsed.issues {
        r.evidence.push(ev(
            format!("tree-sitter parse check: {}", i.message),
            i.line,
            i.column,
        ));
    }
    r
}

fn parse_criterion(
    src: &str,
    parsed: &syntax::Parsed,
    opts: &CheckOptions,
) -> (String, CriterionReport) {
    let compiler = opts.toolchain.resolve();
    let Some(compiler) = compiler else {
        if opts.require_toolchain {
            let r = CriterionReport::new(
                ScoreStatus::Error,
                "a Swift toolchain is required (require_toolchain) but none was found: no swiftc or swift-frontend on PATH",
            );
            return ("none".into(), r);
        }
        return ("tree-sitter".into(), tree_sitter_verdict(parsed));
    };
    match run_compiler(&compiler, src, opts.limits) {
        Ok(run) => {
            let mut r = if run.ok() {
                CriterionReport::new(ScoreStatus::Pass, format!("{}: no errors", run.parser))
            } else if run.timed_out {
                CriterionReport::new(
                    ScoreStatus::Error,
                    format!(
                        "{}: killed after {}s",
                        run.parser,
                        opts.limits.wall.as_secs()
                    ),
                )
            } else {
                CriterionReport::new(
                    ScoreStatus::Fail,
                    format!(
                        "{}: exit {}, {} error(s)",
                        run.parser,
                        run.exit_code.map_or("by signal".into(), |c| c.to_string()),
                        run.diagnostics
                            .iter()
                            .filter(|d| d.severity == "error")
                            .count()
                    ),
                )
            };
            for d in &run.diagnostics {
                let mut e = Evidence::msg(d.text.clone());
                e.line = d.line;
                e.column = d.column;
                r.evidence.push(e);
            }
            if r.status == ScoreStatus::Fail && run.diagnostics.is_empty() {
                let out: String = run.output.chars().take(4000).collect();
                r.evidence.push(Evidence::msg(out));
            }
            (run.parser, r)
        }
        Err(e) => {
            if opts.require_toolchain {
                let r = CriterionReport::new(
                    ScoreStatus::Error,
                    format!("cannot run {}: {e}", compiler.display()),
                );
                (compiler.display().to_string(), r)
            } else {
                let mut r = tree_sitter_verdict(parsed);
                r.explanation = format!(
                    "{} (fell back to tree-sitter: cannot run {}: {e})",
                    r.explanation,
                    compiler.display()
                );
                ("tree-sitter".into(), r)
            }
        }
    }
}

fn symbols_criterion(a: &Analysis, opts: &CheckOptions) -> CriterionReport {
    let refs = a.references;
    let mut unverifiable: Vec<String> = Vec::new();
    if let Err(why) = opts.index_authoritative() {
        unverifiable.push(why);
    }
    if !a.unknown_imports.is_empty() {
        unverifiable.push(format!(
            "the source imports module(s) the index does not cover ({}): a missing name may come from them",
            a.unknown_imports.join(", ")
        ));
    }
    if a.misses.is_empty() {
        let mut r = CriterionReport::new(
            ScoreStatus::Pass,
            format!(
                "{refs} reference(s) checked against the {} index; none missing",
                opts.index.meta().label
            ),
        )
        .metric("references", refs)
        .resolution(a.resolved, a.unresolved, 0);
        if a.truncated {
            r.explanation
                .push_str(" (nesting too deep: part of the source was not analyzed)");
        }
        unverified_evidence(&mut r, a);
        return r;
    }
    let mut r = if unverifiable.is_empty() {
        CriterionReport::new(
            ScoreStatus::Fail,
            format!(
                "{} of {refs} reference(s) not found in the {} index",
                a.misses.len(),
                opts.index.meta().label
            ),
        )
    } else {
        CriterionReport::new(
            ScoreStatus::NotApplicable,
            format!(
                "unverifiable: {} reference(s) not in the {} index, but {}",
                a.misses.len(),
                opts.index.meta().label,
                unverifiable.join("; ")
            ),
        )
    }
    .metric("references", refs)
    .resolution(a.resolved, a.unresolved, a.misses.len());
    let prefix = if unverifiable.is_empty() {
        ""
    } else {
        "unverifiable: "
    };
    for m in &a.misses {
        r.evidence
            .push(ev(format!("{prefix}{}", m.message), m.line, m.column));
    }
    unverified_evidence(&mut r, a);
    r
}

/// The first few references that could only be checked by name (receiver or expected type
/// unknown), marked unverifiable: never a failure.
fn unverified_evidence(r: &mut CriterionReport, a: &Analysis) {
    for u in &a.unverified {
        r.evidence
            .push(ev(format!("unverifiable: {}", u.message), u.line, u.column));
    }
    if a.unresolved > a.unverified.len() {
        r.evidence.push(Evidence::msg(format!(
            "unverifiable: {} more reference(s) whose receiver's type is unknown",
            a.unresolved - a.unverified.len()
        )));
    }
}

/// Uses resolved against a known type and uses found by name only.
fn use_counts(a: &Analysis) -> (usize, usize) {
    let resolved = a.uses.iter().filter(|u| u.resolved).count();
    (resolved, a.uses.len() - resolved)
}

/// The availability problem of a use, if every candidate has one.
fn availability_problem(u: &Use, opts: &CheckOptions) -> Option<String> {
    let eff = match u.guard {
        Some(g) if g > opts.target.version => g,
        _ => opts.target.version,
    };
    let mut best_intro: Option<Version> = None;
    let mut unusable: Option<String> = None;
    for &id in &u.ids {
        let st = opts.index.status_id(id, opts.target, opts.swift);
        match (&st.unusable, st.introduced) {
            (Some(why), _) => {
                unusable.get_or_insert_with(|| why.clone());
            }
            (None, Some(i)) if i > eff => {
                best_intro = Some(best_intro.map_or(i, |b: Version| b.min(i)));
            }
            (None, _) => return None,
        }
    }
    let dom = match opts.target.domain {
        Domain::MacCatalyst => "Mac Catalyst".to_owned(),
        d => d.to_string(),
    };
    Some(match best_intro {
        Some(i) => format!(
            "`{}` requires {dom} {i} (target {}{})",
            u.what,
            opts.target,
            match u.guard {
                Some(g) => format!(", guarded for {g}"),
                None => String::new(),
            }
        ),
        None => format!("`{}` is {}", u.what, unusable.unwrap_or_default()),
    })
}

fn availability_criterion(a: &Analysis, opts: &CheckOptions) -> CriterionReport {
    let mut seen: HashSet<(u32, u32)> = HashSet::new();
    let mut evidence = Vec::new();
    for u in &a.uses {
        if seen.contains(&(u.line, u.column)) {
            continue;
        }
        if let Some(msg) = availability_problem(u, opts) {
            seen.insert((u.line, u.column));
            evidence.push(ev(msg, u.line, u.column));
        }
    }
    let n = a.uses.len();
    if evidence.is_empty() {
        let (res, unres) = use_counts(a);
        return CriterionReport::new(
            ScoreStatus::Pass,
            format!("{n} symbol use(s) available on {}", opts.target),
        )
        .metric("checked", n)
        .metric("violations", 0)
        .resolution(res, unres, a.misses.len());
    }
    let mut r = CriterionReport::new(
        ScoreStatus::Fail,
        format!(
            "{} availability violation(s) on {}",
            evidence.len(),
            opts.target
        ),
    )
    .metric("checked", n)
    .metric("violations", evidence.len());
    let (res, unres) = use_counts(a);
    r = r.resolution(res, unres, a.misses.len());
    r.evidence = evidence;
    r
}

fn deprecation_criterion(a: &Analysis, opts: &CheckOptions) -> CriterionReport {
    let mut seen: HashSet<(u32, u32)> = HashSet::new();
    let mut real = Vec::new();
    let mut future = Vec::new();
    let mut notes = Vec::new();
    for u in &a.uses {
        if seen.contains(&(u.line, u.column)) {
            continue;
        }
        let entries = opts.deprecations.matching(&u.ids, &u.key);
        // the curated map corroborates the unconstrained overloads' verdict
        let graph = graph_claim(&opts.index, &u.ids, opts.target, opts.swift).or_else(|| {
            if entries.iter().any(|e| !e.ids.is_empty()) {
                graph_claim_unconstrained(&opts.index, &u.ids, opts.target, opts.swift)
            } else {
                None
            }
        });
        let alt = entries
            .iter()
            .find_map(|e| e.alternative.clone())
            .map(|a| format!("; use {a}"))
            .unwrap_or_default();
        let renamed = u.ids.iter().find_map(|&id| {
            opts.index
                .status_id(id, opts.target, opts.swift)
                .deprecation
                .and_then(|d| d.renamed.or(d.message))
        });
        match graph {
            Some(since) => {
                seen.insert((u.line, u.column));
                let is_future = since == "a future release";
                let extra = match (&renamed, alt.is_empty()) {
                    (Some(r), true) => format!(" ({r})"),
                    (Some(r), false) => format!(" ({r}){alt}"),
                    (None, _) => alt.clone(),
                };
                if is_future {
                    future.push(ev(
                        format!(
                            "{}: `{}` will be deprecated in a future release{extra}",
                            opts.future.label(),
                            u.what
                        ),
                        u.line,
                        u.column,
                    ));
                } else {
                    real.push(ev(
                        format!("`{}` is deprecated since {since}{extra}", u.what),
                        u.line,
                        u.column,
                    ));
                }
            }
            None => {
                for e in entries {
                    let Some(claim) = DeprecationMap::claim(e, opts.target, opts.swift) else {
                        continue;
                    };
                    if e.ids.is_empty() {
                        // the index does not know it: the map decides
                        seen.insert((u.line, u.column));
                        let alt = e
                            .alternative
                            .as_deref()
                            .map(|a| format!("; use {a}"))
                            .unwrap_or_default();
                        let msg = format!(
                            "`{}` is deprecated since {claim} (deprecation map `{}`){alt}",
                            u.what, e.key
                        );
                        if claim == "a future release" {
                            future.push(ev(
                                format!("{}: {msg}", opts.future.label()),
                                u.line,
                                u.column,
                            ));
                        } else {
                            real.push(ev(msg, u.line, u.column));
                        }
                    } else if graph_claim(&opts.index, &e.ids, opts.target, opts.swift).is_none()
                        && graph_claim_unconstrained(&opts.index, &e.ids, opts.target, opts.swift)
                            .is_none()
                    {
                        notes.push(ev(
                            format!(
                                "note: the deprecation map lists `{}` (deprecated since {claim}) but the symbol graph does not deprecate it on {}; the symbol graph wins",
                                e.key, opts.target
                            ),
                            u.line,
                            u.column,
                        ));
                    }
                }
            }
        }
    }
    let checked = a.uses.len();
    let fail = !real.is_empty() || (opts.future == FutureMode::Fail && !future.is_empty());
    let r = if fail {
        CriterionReport::new(
            ScoreStatus::Fail,
            format!(
                "{} deprecated API use(s){}",
                real.len()
                    + if opts.future == FutureMode::Fail {
                        future.len()
                    } else {
                        0
                    },
                if future.is_empty() {
                    String::new()
                } else {
                    format!(" ({} deprecated in a future release)", future.len())
                }
            ),
        )
    } else if future.is_empty() {
        CriterionReport::new(
            ScoreStatus::Pass,
            format!(
                "no deprecated API among {checked} symbol use(s) on {}",
                opts.target
            ),
        )
    } else {
        CriterionReport::new(
            ScoreStatus::Pass,
            format!(
                "no deprecated API on {}; {} warning(s) for deprecation in a future release",
                opts.target,
                future.len()
            ),
        )
    }
    .metric("checked", checked)
    .metric("deprecated", real.len())
    .metric("future", future.len());
    let (res, unres) = use_counts(a);
    let mut r = r.resolution(res, unres, a.misses.len());
    r.evidence.extend(real);
    r.evidence.extend(future);
    r.evidence.extend(notes);
    r
}
