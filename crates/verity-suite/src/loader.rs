//! The loader's state and the typed readers every part of a suite goes through.
//!
//! Every reader records what is wrong as a [`Diagnostic`] and returns `None`, so one pass over
//! a suite reports every problem instead of stopping at the first.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Map, Value};
use verity_model::{PromptTemplate, SourceLoc, Suite, Task};

use crate::checks::{Loc, Locator, TaskChecks, template_loc, template_span};
use crate::diag::{Diagnostic, SourceFile, did_you_mean};
use crate::files::{Hashed, content_hash};
use crate::perturb::Perturber;
use crate::sink::{SinkError, TaskSink};
use crate::tree::{Entry, Kind, Node, Span, Table, table_to_json};

/// Where a task's parts are in its file, for diagnostics found after loading.
#[derive(Clone, Debug)]
pub(crate) struct TaskSpans {
    pub(crate) file: Arc<SourceFile>,
    /// The `id` entry (or the task's start when it has none).
    pub(crate) at: Span,
    /// `expect` keys → the `key = value` span.
    pub(crate) expect: HashMap<String, Span>,
    /// A perturbed copy the loader made (`[perturb]`) of the task before it: its spans are
    /// the original's, and so are its expectations (checked once, on the original).
    pub(crate) copy: bool,
}

/// Where a `[[scorers]]` entry is in suite.toml.
#[derive(Clone, Debug)]
pub(crate) struct ScorerSpans {
    pub(crate) file: Arc<SourceFile>,
    pub(crate) span: Span,
    pub(crate) table: Table,
}

/// Tasks checked and handed to a [`TaskSink`] at a time when loading streams.
pub(crate) const STREAM_CHUNK: usize = 1024;

/// Where a streaming load sends its tasks, and what it keeps between chunks.
pub(crate) struct Stream<'s> {
    pub(crate) sink: &'s mut dyn TaskSink,
    /// The suite as configured (no tasks): each chunk is checked against it.
    pub(crate) suite: Suite,
    /// Checks that span chunks; `None` when the load runs no checks (a bare dataset file).
    pub(crate) checks: Option<TaskChecks>,
    /// Tasks the sink took.
    pub(crate) sent: u64,
    /// The sink failed; no more tasks are offered to it.
    pub(crate) failed: bool,
}

pub(crate) struct Loader<'s> {
    /// The suite directory on disk.
    pub(crate) root: PathBuf,
    /// The suite directory as the user named it, prefixed to every path diagnostics show.
    base: String,
    pub(crate) diags: Vec<Diagnostic>,
    /// Every file read, by path relative to the suite: the content hash covers them all.
    pub(crate) hashed: BTreeMap<String, Hashed>,
    pub(crate) tasks: Vec<Task>,
    /// Parallel to `tasks`.
    pub(crate) task_spans: Vec<TaskSpans>,
    task_ids: HashMap<String, SourceLoc>,
    /// Parallel to the suite's scorers.
    pub(crate) scorer_spans: Vec<ScorerSpans>,
    pub(crate) coverage_spans: HashMap<String, (Arc<SourceFile>, Span)>,
    /// `[outcome]` criteria → where each is written.
    pub(crate) outcome_spans: HashMap<String, (Arc<SourceFile>, Span)>,
    /// Parallel to the suite's gates: where each gate's `metric` is written (its entry when
    /// the metric is implied).
    pub(crate) gate_spans: Vec<(Arc<SourceFile>, Span)>,
    /// Template files by origin.
    pub(crate) template_files: HashMap<String, Arc<SourceFile>>,
    /// Inline templates by hash → where their text is written.
    pub(crate) inline_templates: HashMap<String, (Arc<SourceFile>, Span)>,
    template_cache: HashMap<String, Option<PromptTemplate>>,
    schema_cache: HashMap<String, Option<Value>>,
    /// The ids of the suite's `quick` subset, and those a task has been seen for.
    pub(crate) quick_wanted: HashSet<String>,
    pub(crate) quick_found: HashSet<String>,
    /// Set when tasks stream to a sink instead of collecting in `tasks`.
    pub(crate) stream: Option<Stream<'s>>,
    /// `[perturb]`, while the tasks load: each task added gets its perturbed copies.
    pub(crate) perturb: Option<Perturber>,
}

/// `./a\b` → `a/b`: the form paths take in origins, sources and the content hash.
pub(crate) fn normalize(rel: &str) -> String {
    let rel = rel.replace('\\', "/");
    let mut rel = rel.as_str();
    while let Some(rest) = rel.strip_prefix("./") {
        rel = rest;
    }
    rel.to_owned()
}

pub(crate) fn blake3_hex(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

/// Where `key` is written in `t`: `kind`, or a nested one like `rules[1].in` (an entry, then
/// an index into its array, then a key of that table…): the `key = value` span, or the item's
/// span when the key ends with an index.
fn key_span(t: &Table, key: &str) -> Option<Span> {
    let mut table = Some(t);
    let mut found: Option<Span> = None;
    for seg in key.split('.') {
        let (name, indices) = match seg.find('[') {
            Some(i) => (&seg[..i], &seg[i..]),
            None => (seg, ""),
        };
        let entry = table?.get(name)?;
        found = Some(entry.key_span.start..entry.value.span.end);
        let mut node = &entry.value;
        for idx in indices.split('[').skip(1) {
            let i: usize = idx.strip_suffix(']')?.parse().ok()?;
            let Kind::Array(items) = &node.kind else {
                return None;
            };
            node = items.get(i)?;
            found = Some(node.span.clone());
        }
        table = match &node.kind {
            Kind::Table(t) => Some(t),
            _ => None,
        };
    }
    found
}

/// Locations inside the files the loader read.
pub(crate) struct SpanLocator<'a, 's> {
    pub(crate) l: &'a Loader<'s>,
}

impl Locator for SpanLocator<'_, '_> {
    fn scorer(&self, index: usize, key: Option<&str>) -> Loc {
        let Some(s) = self.l.scorer_spans.get(index) else {
            return Loc::Nowhere;
        };
        let span = key
            .and_then(|k| key_span(&s.table, k))
            .unwrap_or_else(|| s.span.clone());
        Loc::Span(Arc::clone(&s.file), span)
    }

    fn is_copy(&self, index: usize) -> bool {
        self.l.task_spans.get(index).is_some_and(|t| t.copy)
    }

    fn task(&self, index: usize, key: Option<&str>) -> Loc {
        let Some(t) = self.l.task_spans.get(index) else {
            return Loc::Nowhere;
        };
        let span = key
            .and_then(|k| k.strip_prefix("expect."))
            .and_then(|k| t.expect.get(k))
            .map_or(t.at.clone(), Range::clone);
        Loc::Span(Arc::clone(&t.file), span)
    }

    fn coverage(&self, category: &str) -> Loc {
        match self.l.coverage_spans.get(category) {
            Some((f, span)) => Loc::Span(Arc::clone(f), span.clone()),
            None => Loc::Nowhere,
        }
    }

    fn outcome(&self, criterion: &str) -> Loc {
        match self.l.outcome_spans.get(criterion) {
            Some((f, span)) => Loc::Span(Arc::clone(f), span.clone()),
            None => Loc::Nowhere,
        }
    }

    fn gate(&self, index: usize) -> Loc {
        match self.l.gate_spans.get(index) {
            Some((f, span)) => Loc::Span(Arc::clone(f), span.clone()),
            None => Loc::Nowhere,
        }
    }

    fn template(
        &self,
        tpl: &PromptTemplate,
        range: Option<Range<usize>>,
        line: Option<usize>,
    ) -> Loc {
        if let Some(f) = self.l.template_files.get(&tpl.origin)
            && f.text.as_ref() == tpl.source
        {
            return Loc::Span(Arc::clone(f), template_span(f, range, line));
        }
        if let Some((f, span)) = self.l.inline_templates.get(&tpl.hash) {
            return Loc::Span(Arc::clone(f), span.clone());
        }
        template_loc(tpl, range, line)
    }
}

impl<'s> Loader<'s> {
    pub(crate) fn new(root: PathBuf, base: String) -> Loader<'s> {
        Loader {
            root,
            base,
            diags: Vec::new(),
            hashed: BTreeMap::new(),
            tasks: Vec::new(),
            task_spans: Vec::new(),
            task_ids: HashMap::new(),
            scorer_spans: Vec::new(),
            coverage_spans: HashMap::new(),
            outcome_spans: HashMap::new(),
            gate_spans: Vec::new(),
            template_files: HashMap::new(),
            inline_templates: HashMap::new(),
            template_cache: HashMap::new(),
            schema_cache: HashMap::new(),
            quick_wanted: HashSet::new(),
            quick_found: HashSet::new(),
            stream: None,
            perturb: None,
        }
    }

    /// Checks the tasks collected so far against the streamed suite and hands them to the
    /// sink, leaving `tasks` empty. Without a stream it does nothing.
    pub(crate) fn flush_tasks(&mut self) {
        let Some(mut stream) = self.stream.take() else {
            return;
        };
        // The sink sees each task first, as the whole load's duplicate check does: a duplicate
        // is reported and dropped, not checked; so are the perturbed copies of a duplicate,
        // which the whole load never makes (they follow it in the same batch).
        let tasks = std::mem::take(&mut self.tasks);
        let mut kept = Vec::with_capacity(tasks.len());
        let mut kept_spans = Vec::with_capacity(tasks.len());
        let mut dropped_original = false;
        for (task, spans) in tasks.into_iter().zip(std::mem::take(&mut self.task_spans)) {
            if stream.failed {
                break;
            }
            if spans.copy && dropped_original {
                continue;
            }
            if !spans.copy {
                dropped_original = false;
            }
            match stream.sink.put(&task) {
                Ok(()) => {
                    stream.sent += 1;
                    kept.push(task);
                    kept_spans.push(spans);
                }
                Err(SinkError::Duplicate { first }) => {
                    dropped_original = !spans.copy;
                    let d = self.duplicate(&task.id, &spans, &first);
                    self.push(d);
                }
                Err(SinkError::Failed(e) | SinkError::Refused(e)) => {
                    stream.failed = true;
                    self.push(Diagnostic::error(
                        "read-error",
                        format!("cannot store the suite's tasks: {e}"),
                    ));
                }
            }
        }
        if let Some(checks) = stream.checks.as_mut() {
            stream.suite.tasks = kept;
            self.task_spans = kept_spans;
            let mut found = Vec::new();
            checks.tasks(&stream.suite, &SpanLocator { l: self }, &mut found);
            self.diags.extend(found);
            stream.suite.tasks.clear();
            self.task_spans.clear();
        }
        self.stream = Some(stream);
    }

    /// The content hash of every file read; a streamed file that changed meanwhile is an error.
    pub(crate) fn content_hash(&mut self) -> String {
        match content_hash(&self.hashed) {
            Ok(h) => h,
            Err(message) => {
                self.push(Diagnostic::error("read-error", message));
                String::new()
            }
        }
    }

    /// A suite-relative path as diagnostics show it.
    pub(crate) fn display(&self, rel: &str) -> String {
        if self.base.is_empty() || self.base == "." || rel.starts_with('/') {
            rel.to_owned()
        } else {
            format!("{}/{}", self.base.trim_end_matches('/'), rel)
        }
    }

    pub(crate) fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// The source location of byte `at` of `f`, with the path relative to the suite.
    pub(crate) fn loc(&self, f: &SourceFile, rel: &str, at: usize) -> SourceLoc {
        let (line, column) = f.line_col(at);
        SourceLoc {
            file: rel.to_owned(),
            line,
            column,
        }
    }

    /// Reads a file of the suite; a missing or unreadable file is reported at `from` (the place
    /// that names it) when given.
    pub(crate) fn read_file(
        &mut self,
        rel: &str,
        from: Option<(&Arc<SourceFile>, Span)>,
    ) -> Option<Vec<u8>> {
        let path = self.root.join(rel);
        match std::fs::read(&path) {
            Ok(bytes) => {
                self.hashed.insert(rel.to_owned(), bytes.clone().into());
                Some(bytes)
            }
            Err(e) => {
                self.read_error(rel, &path, &e, from);
                None
            }
        }
    }

    /// Reports that `rel` (at `path`) cannot be read, at `from` when given.
    pub(crate) fn read_error(
        &mut self,
        rel: &str,
        path: &std::path::Path,
        e: &std::io::Error,
        from: Option<(&Arc<SourceFile>, Span)>,
    ) {
        {
            {
                let (code, msg) = if e.kind() == std::io::ErrorKind::NotFound {
                    ("missing-file", format!("file `{rel}` does not exist"))
                } else if path.is_dir() {
                    (
                        "missing-file",
                        format!("`{rel}` is a directory, not a file"),
                    )
                } else {
                    ("read-error", format!("cannot read `{rel}`: {e}"))
                };
                let d = Diagnostic::error(code, msg);
                let d = match from {
                    Some((f, span)) => d.at_span(f, span).label("named here"),
                    None => d.at(self.display(rel), 0, 0),
                };
                self.push(d);
            }
        }
    }

    /// Decodes a file's bytes; invalid UTF-8 is reported at the first bad byte.
    pub(crate) fn decode(&mut self, rel: &str, bytes: Vec<u8>) -> Option<Arc<SourceFile>> {
        match String::from_utf8(bytes) {
            Ok(text) => Some(SourceFile::new(self.display(rel), text)),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let f = SourceFile::new(self.display(rel), lossy);
                self.push(
                    Diagnostic::error("encoding", format!("`{rel}` is not valid UTF-8"))
                        .at_span(&f, at..at + 1)
                        .label("invalid byte"),
                );
                None
            }
        }
    }

    /// Reports the first TOML syntax error of a file (later ones are usually its echoes).
    pub(crate) fn toml_errors(&mut self, f: &Arc<SourceFile>, mut errors: Vec<toml::de::Error>) {
        errors.sort_by_key(|e| e.span().map_or(0, |s| s.start));
        let Some(first) = errors.first() else { return };
        let span = first.span().unwrap_or(0..0);
        let mut d = Diagnostic::error(
            "toml-syntax",
            format!("invalid TOML: {}", first.message().trim()),
        )
        .at_span(f, span)
        .label("here");
        if errors.len() > 1 {
            let n = errors.len() - 1;
            d = d.with_note(format!(
                "{n} more syntax error{} in this file may follow from this one",
                if n == 1 { "" } else { "s" }
            ));
        }
        self.push(d);
    }

    /// Adds a task unless its id is taken, then its perturbed copies (`[perturb]`) the same
    /// way; a duplicate points at the second with a note naming the first. A duplicate gets no
    /// copies. When streaming, a task and its copies go to the sink in the same batch.
    pub(crate) fn add_task(&mut self, mut task: Task, spans: TaskSpans) {
        // A duplicate is perturbed too, so what `[perturb]` reports (tasks without a language…)
        // does not depend on streaming, where the sink finds duplicates later (and
        // `flush_tasks` drops their copies): nothing here grows with the dataset.
        let copies = match self.perturb.as_mut() {
            Some(p) => p.copies(&mut task),
            None => Vec::new(),
        };
        let duplicate = self.stream.is_none() && self.task_ids.contains_key(&task.id);
        if !copies.is_empty() && !duplicate {
            self.keep_task(task, spans.clone());
            for copy in copies {
                let spans = TaskSpans {
                    copy: true,
                    ..spans.clone()
                };
                self.keep_task(copy, spans);
            }
        } else {
            self.keep_task(task, spans);
        }
        if self.stream.is_some() && self.tasks.len() >= STREAM_CHUNK {
            self.flush_tasks();
        }
    }

    /// [`Loader::add_task`] for one task, without its copies.
    fn keep_task(&mut self, task: Task, spans: TaskSpans) {
        if self.quick_wanted.contains(&task.id) {
            self.quick_found.insert(task.id.clone());
        }
        if self.stream.is_none() {
            if let Some(first) = self.task_ids.get(&task.id) {
                let d = self.duplicate(&task.id, &spans, first);
                self.push(d);
                return;
            }
            self.task_ids.insert(task.id.clone(), task.source.clone());
        }
        self.tasks.push(task);
        self.task_spans.push(spans);
    }

    /// Task id `id` used again at `spans`, first defined at `first`.
    fn duplicate(&self, id: &str, spans: &TaskSpans, first: &SourceLoc) -> Diagnostic {
        Diagnostic::error("duplicate-id", format!("duplicate task id `{id}`"))
            .at_span(&spans.file, spans.at.clone())
            .label("used again here")
            .with_note(format!("first defined at {}", self.display_loc(first)))
            .with_help("task ids must be unique across the whole suite")
    }

    fn display_loc(&self, loc: &SourceLoc) -> String {
        format!("{}:{}:{}", self.display(&loc.file), loc.line, loc.column)
    }

    /// Reads a template file once; later references reuse it (and its error, reported once).
    pub(crate) fn template_file(
        &mut self,
        f: &Arc<SourceFile>,
        path: &str,
        span: Span,
    ) -> Option<PromptTemplate> {
        let rel = normalize(path);
        if let Some(cached) = self.template_cache.get(&rel) {
            return cached.clone();
        }
        let src = self
            .read_file(&rel, Some((f, span)))
            .and_then(|b| self.decode(&rel, b));
        let tpl = src.map(|src| {
            self.template_files.insert(rel.clone(), Arc::clone(&src));
            PromptTemplate {
                source: src.text.to_string(),
                origin: rel.clone(),
                hash: blake3_hex(src.text.as_bytes()),
            }
        });
        self.template_cache.insert(rel, tpl.clone());
        tpl
    }

    pub(crate) fn inline_template(
        &mut self,
        f: &Arc<SourceFile>,
        text: String,
        span: Span,
    ) -> PromptTemplate {
        let hash = blake3_hex(text.as_bytes());
        self.inline_templates
            .entry(hash.clone())
            .or_insert_with(|| (Arc::clone(f), span));
        PromptTemplate {
            source: text,
            origin: "inline".to_owned(),
            hash,
        }
    }

    /// Reads a JSON schema file once.
    pub(crate) fn schema_file(
        &mut self,
        f: &Arc<SourceFile>,
        path: &str,
        span: Span,
    ) -> Option<Value> {
        let rel = normalize(path);
        if let Some(cached) = self.schema_cache.get(&rel) {
            return cached.clone();
        }
        let src = self
            .read_file(&rel, Some((f, span)))
            .and_then(|b| self.decode(&rel, b));
        let value = src.and_then(|src| match serde_json::from_str::<Value>(&src.text) {
            Ok(v) => Some(v),
            Err(e) => {
                let at = src.line_start(e.line()) + e.column().saturating_sub(1);
                self.push(
                    Diagnostic::error(
                        "json-syntax",
                        format!("invalid JSON schema: {}", json_message(&e)),
                    )
                    .at_span(&src, at..at + 1)
                    .label("here"),
                );
                None
            }
        });
        self.schema_cache.insert(rel, value.clone());
        value
    }

    // ---- typed readers -------------------------------------------------------------------

    /// Reports every key of `t` not in `allowed` (with a did-you-mean), and repeated keys.
    pub(crate) fn check_keys(
        &mut self,
        f: &Arc<SourceFile>,
        t: &Table,
        allowed: &[&str],
        ctx: &str,
    ) {
        let mut seen: Vec<&str> = Vec::new();
        for e in &t.entries {
            if seen.contains(&e.key.as_str()) {
                self.push(
                    Diagnostic::error(
                        "duplicate-key",
                        format!("key `{}` appears twice {ctx}", e.key),
                    )
                    .at_span(f, e.key_span.clone())
                    .label("repeated key"),
                );
                continue;
            }
            seen.push(&e.key);
            if allowed.contains(&e.key.as_str()) {
                continue;
            }
            let help = match did_you_mean(&e.key, allowed.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("expected one of: {}", allowed.join(", ")),
            };
            self.push(
                Diagnostic::error("unknown-key", format!("unknown key `{}` {ctx}", e.key))
                    .at_span(f, e.key_span.clone())
                    .label("unknown key")
                    .with_help(help),
            );
        }
    }

    pub(crate) fn missing(&mut self, f: &Arc<SourceFile>, span: Span, key: &str, ctx: &str) {
        self.push(
            Diagnostic::error("missing-key", format!("missing required key `{key}` {ctx}"))
                .at_span(f, span)
                .label(format!("`{key}` needed here")),
        );
    }

    pub(crate) fn bad_value(
        &mut self,
        f: &Arc<SourceFile>,
        span: Span,
        msg: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::error("bad-value", msg).at_span(f, span)
    }

    fn wrong_type(&mut self, f: &Arc<SourceFile>, node: &Node, what: &str, expected: &str) {
        let json = f.name.ends_with(".jsonl") || f.name.ends_with(".json");
        let found = node.kind.describe(json);
        self.push(
            Diagnostic::error(
                "wrong-type",
                format!("{what} must be {expected}, found {found}"),
            )
            .at_span(f, node.span.clone())
            .label(format!("expected {expected}")),
        );
    }

    pub(crate) fn node_str(
        &mut self,
        f: &Arc<SourceFile>,
        node: &Node,
        what: &str,
    ) -> Option<String> {
        match &node.kind {
            Kind::Str(s) => Some(s.clone()),
            _ => {
                self.wrong_type(f, node, what, "a string");
                None
            }
        }
    }

    pub(crate) fn str(&mut self, f: &Arc<SourceFile>, e: &Entry) -> Option<String> {
        self.node_str(f, &e.value, &format!("`{}`", e.key))
    }

    /// A string that must not be empty.
    pub(crate) fn name_str(&mut self, f: &Arc<SourceFile>, e: &Entry) -> Option<String> {
        let s = self.str(f, e)?;
        if s.trim().is_empty() {
            let d = self.bad_value(
                f,
                e.value.span.clone(),
                format!("`{}` must not be empty", e.key),
            );
            self.push(d);
            return None;
        }
        Some(s)
    }

    /// A string or a list of strings.
    pub(crate) fn strings(&mut self, f: &Arc<SourceFile>, e: &Entry) -> Option<Vec<String>> {
        let what = format!("`{}`", e.key);
        match &e.value.kind {
            Kind::Str(s) => Some(vec![s.clone()]),
            Kind::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(self.node_str(f, item, &format!("each entry of {what}"))?);
                }
                Some(out)
            }
            _ => {
                self.wrong_type(f, &e.value, &what, "a string or a list of strings");
                None
            }
        }
    }

    /// A list of strings only.
    pub(crate) fn string_list(&mut self, f: &Arc<SourceFile>, e: &Entry) -> Option<Vec<String>> {
        match &e.value.kind {
            Kind::Array(_) => self.strings(f, e),
            _ => {
                self.wrong_type(f, &e.value, &format!("`{}`", e.key), "a list of strings");
                None
            }
        }
    }

    /// `true` or `false`.
    pub(crate) fn bool(&mut self, f: &Arc<SourceFile>, e: &Entry) -> Option<bool> {
        match e.value.kind {
            Kind::Bool(b) => Some(b),
            _ => {
                self.wrong_type(f, &e.value, &format!("`{}`", e.key), "true or false");
                None
            }
        }
    }

    /// An integer within `min..=max`.
    pub(crate) fn int(
        &mut self,
        f: &Arc<SourceFile>,
        e: &Entry,
        min: i128,
        max: i128,
    ) -> Option<i128> {
        match e.value.kind {
            Kind::Int(i) if (min..=max).contains(&i) => Some(i),
            Kind::Int(i) => {
                // Small ranges read best whole; a type's limits only on the side crossed.
                let (range, label) = if max < i128::from(u32::MAX) {
                    (format!("between {min} and {max}"), "out of range")
                } else if i < min {
                    (format!("at least {min}"), "too small")
                } else {
                    (format!("at most {max}"), "too large")
                };
                let d = self.bad_value(
                    f,
                    e.value.span.clone(),
                    format!("`{}` must be {range}", e.key),
                );
                self.push(d.label(label));
                None
            }
            _ => {
                self.wrong_type(f, &e.value, &format!("`{}`", e.key), "an integer");
                None
            }
        }
    }

    /// A number (integer or float) within `min..=max`.
    pub(crate) fn num(
        &mut self,
        f: &Arc<SourceFile>,
        e: &Entry,
        min: f64,
        max: f64,
    ) -> Option<f64> {
        let v = match e.value.kind {
            Kind::Int(i) => i as f64,
            Kind::Float(x) => x,
            _ => {
                self.wrong_type(f, &e.value, &format!("`{}`", e.key), "a number");
                return None;
            }
        };
        if !v.is_finite() {
            let found = if v.is_nan() {
                "nan"
            } else if v > 0.0 {
                "inf"
            } else {
                "-inf"
            };
            let d = self.bad_value(
                f,
                e.value.span.clone(),
                format!("`{}` must be a finite number, found {found}", e.key),
            );
            self.push(d.label("not a finite number"));
            None
        } else if v >= min && v <= max {
            Some(v)
        } else {
            let range = if max == f64::INFINITY {
                format!("at least {min}")
            } else {
                format!("between {min} and {max}")
            };
            let d = self.bad_value(
                f,
                e.value.span.clone(),
                format!("`{}` must be {range}", e.key),
            );
            self.push(d.label("out of range"));
            None
        }
    }

    pub(crate) fn table<'t>(&mut self, f: &Arc<SourceFile>, e: &'t Entry) -> Option<&'t Table> {
        self.node_table(f, &e.value, &format!("`{}`", e.key))
    }

    pub(crate) fn node_table<'t>(
        &mut self,
        f: &Arc<SourceFile>,
        node: &'t Node,
        what: &str,
    ) -> Option<&'t Table> {
        match &node.kind {
            Kind::Table(t) => Some(t),
            _ => {
                let json = f.name.ends_with(".jsonl") || f.name.ends_with(".json");
                self.wrong_type(f, node, what, if json { "an object" } else { "a table" });
                None
            }
        }
    }

    pub(crate) fn array<'t>(&mut self, f: &Arc<SourceFile>, e: &'t Entry) -> Option<&'t [Node]> {
        match &e.value.kind {
            Kind::Array(items) => Some(items),
            _ => {
                self.wrong_type(f, &e.value, &format!("`{}`", e.key), "an array");
                None
            }
        }
    }

    /// A table converted to a JSON map.
    pub(crate) fn json_map(
        &mut self,
        f: &Arc<SourceFile>,
        e: &Entry,
    ) -> Option<Map<String, Value>> {
        self.table(f, e).map(table_to_json)
    }

    /// One of a fixed set of string values.
    pub(crate) fn choice(
        &mut self,
        f: &Arc<SourceFile>,
        e: &Entry,
        allowed: &[&str],
    ) -> Option<String> {
        let s = self.str(f, e)?;
        if allowed.contains(&s.as_str()) {
            return Some(s);
        }
        let mut d = self.bad_value(
            f,
            e.value.span.clone(),
            format!(
                "`{}` must be one of {}; found `{s}`",
                e.key,
                quoted(allowed)
            ),
        );
        if let Some(m) = did_you_mean(&s, allowed.iter().copied()) {
            d = d.with_help(format!("did you mean `{m}`?"));
        }
        self.push(d);
        None
    }
}

/// `"a", "b" or "c"`.
pub(crate) fn quoted(items: &[&str]) -> String {
    let q: Vec<String> = items.iter().map(|s| format!("\"{s}\"")).collect();
    match q.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// serde_json's message without its ` at line L column C` suffix (the diagnostic has both).
pub(crate) fn json_message(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_owned(),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(normalize("./prompts\\a.j2"), "prompts/a.j2");
        assert_eq!(quoted(&["a", "b", "c"]), "\"a\", \"b\" or \"c\"");
        assert_eq!(quoted(&["a"]), "\"a\"");
        let l = Loader::new(PathBuf::from("x"), "suites/x/".into());
        assert_eq!(l.display("suite.toml"), "suites/x/suite.toml");
        let l = Loader::new(PathBuf::from("."), ".".into());
        assert_eq!(l.display("suite.toml"), "suite.toml");
    }
}
