//! The top of loading: what a path is, reading suite.toml and the task files, assembling the
//! [`Suite`] and running the checks.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use toml::de::{DeTable, DeValue};
use verity_model::Suite;

use crate::checks;
use crate::config::{Config, TaskPatterns};
use crate::diag::{Diagnostic, Diagnostics};
use crate::files::{BASELINE_FILE, DEFAULT_TASKS, expand, is_glob};
use crate::loader::{Loader, SpanLocator, Stream, normalize};
use crate::repos::REPOS_FILE;
use crate::sink::{SinkError, TaskSink};
use crate::tree::{Kind, from_toml_doc};

const SUITE_FILE: &str = "suite.toml";

/// A suite that loaded, with the warnings found along the way.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub suite: Suite,
    pub warnings: Vec<Diagnostic>,
}

/// Loads the suite at `path`; with a sink its tasks stream to it (see [`crate::load_streaming`]).
pub(crate) fn load(path: &Path, sink: Option<&mut dyn TaskSink>) -> Result<Loaded, Diagnostics> {
    let given = path.to_string_lossy().into_owned();
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            let msg = if e.kind() == std::io::ErrorKind::NotFound {
                format!("`{given}` does not exist")
            } else {
                format!("cannot read `{given}`: {e}")
            };
            return Err(Diagnostics::new(vec![
                Diagnostic::error("missing-file", msg).at(given, 0, 0),
            ]));
        }
    };
    if meta.is_dir() {
        if !path.join(SUITE_FILE).exists() {
            return Err(Diagnostics::new(vec![
                Diagnostic::error("missing-file", format!("`{given}` has no {SUITE_FILE}"))
                    .at(given, 0, 0)
                    .with_help("pass a suite directory, a suite.toml, or a dataset file (.jsonl or a task .toml)"),
            ]));
        }
        let base = given.trim_end_matches('/').to_owned();
        let mut l = Loader::new(path.to_path_buf(), base);
        let suite = l.suite(SUITE_FILE, dir_name(path), sink);
        return finish(l, suite);
    }
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parent = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let base = parent.to_string_lossy().into_owned();
    let root = if parent.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        parent.clone()
    };
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut l = Loader::new(root, base);
    if file_name == SUITE_FILE || (file_name.ends_with(".toml") && looks_like_suite(path)) {
        let fallback = if file_name == SUITE_FILE {
            dir_name(&parent)
        } else {
            stem
        };
        let suite = l.suite(&file_name, fallback, sink);
        return finish(l, suite);
    }
    if file_name.ends_with(".toml") || file_name.ends_with(".jsonl") {
        let mut suite = Suite {
            name: stem,
            description: None,
            tasks: Vec::new(),
            variants: Vec::new(),
            scorers: Vec::new(),
            outcome: Default::default(),
            epochs: 1,
            coverage: Default::default(),
            servers: Default::default(),
            compare: Vec::new(),
            gates: Vec::new(),
            report: Default::default(),
            quick: Vec::new(),
            perturb: None,
            run: Default::default(),
            content_hash: String::new(),
        };
        let count = match sink {
            Some(sink) => {
                // The sink may add scorers and variants (command-line overrides): the tasks
                // are checked against them as in a suite.
                match l.stream_tasks(sink, suite, true, |l| l.task_file(&file_name, None)) {
                    Ok((s, checks, sent)) => {
                        suite = s;
                        if let Some(c) = checks {
                            let mut found = Vec::new();
                            c.finish(&suite, &SpanLocator { l: &l }, &mut found);
                            l.diags.extend(found);
                        }
                        sent
                    }
                    Err(s) => return finish(l, *s),
                }
            }
            None => {
                // Nothing to check the tasks against: no scorers, no templates.
                l.task_file(&file_name, None);
                suite.tasks = std::mem::take(&mut l.tasks);
                suite.tasks.len() as u64
            }
        };
        if count == 0 && !l.diags.iter().any(Diagnostic::is_error) {
            let d = no_tasks(l.display(&file_name), true);
            l.push(d);
        }
        return finish(l, suite);
    }
    Err(Diagnostics::new(vec![
        Diagnostic::error("bad-value", format!("cannot load `{given}`"))
            .at(given, 0, 0)
            .with_help(
                "pass a suite directory, a suite.toml, or a dataset file (.jsonl or a task .toml)",
            ),
    ]))
}

fn dir_name(path: &Path) -> String {
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    abs.file_name()
        .map_or_else(|| "suite".to_owned(), |n| n.to_string_lossy().into_owned())
}

/// A .toml not named suite.toml is a suite file when it has a `name` and nothing a task file
/// has at its top (`id`, `[input]`, `[[tasks]]`).
fn looks_like_suite(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    let (doc, _) = DeTable::parse_recoverable(&text);
    let top = |key: &str| {
        doc.get_ref()
            .iter()
            .find(|(k, _)| k.get_ref() == key)
            .map(|(_, v)| v.get_ref())
    };
    let tasks_table = matches!(top("tasks"), Some(DeValue::Array(items))
        if items.iter().any(|i| matches!(i.get_ref(), DeValue::Table(_))));
    top("name").is_some() && top("id").is_none() && top("input").is_none() && !tasks_table
}

fn finish(mut l: Loader<'_>, mut suite: Suite) -> Result<Loaded, Diagnostics> {
    // The task list grew by doubling; a large dataset would otherwise keep up to twice its size.
    suite.tasks.shrink_to_fit();
    suite.content_hash = l.content_hash();
    let mut diags = l.diags;
    if diags.iter().any(Diagnostic::is_error) {
        Err(Diagnostics::new(diags))
    } else {
        diags.sort_by_key(|d| d.severity);
        Ok(Loaded {
            suite,
            warnings: diags,
        })
    }
}

impl<'s> Loader<'s> {
    /// Streams the tasks `load` reads to `sink`, after the sink has had its say on `suite`
    /// (configured, no tasks yet), checking them against it when `checked`. Returns the suite
    /// (still without tasks), the checks that still need finishing and how many tasks the sink
    /// took; or, when the sink refuses the suite (its reason reported), the suite unloaded.
    fn stream_tasks(
        &mut self,
        sink: &'s mut dyn TaskSink,
        mut suite: Suite,
        checked: bool,
        load: impl FnOnce(&mut Self),
    ) -> Result<(Suite, Option<checks::TaskChecks>, u64), Box<Suite>> {
        if let Err(e) = sink.start(&mut suite) {
            let message = match e {
                SinkError::Refused(e) | SinkError::Failed(e) => e.to_string(),
                SinkError::Duplicate { first } => format!("a duplicate task, first at {first}"),
            };
            self.push(Diagnostic::error("plan", message));
            return Err(Box::new(suite));
        }
        let checks = if checked {
            let mut found = Vec::new();
            let c = checks::TaskChecks::new(&suite, &SpanLocator { l: self }, &mut found);
            self.diags.extend(found);
            Some(c)
        } else {
            None
        };
        self.stream = Some(Stream {
            sink,
            suite,
            checks,
            sent: 0,
            failed: false,
        });
        load(self);
        self.flush_tasks();
        match self.stream.take() {
            Some(stream) => Ok((stream.suite, stream.checks, stream.sent)),
            // `flush_tasks` always puts the stream back; fail loudly rather than load nothing.
            None => {
                self.push(Diagnostic::error("read-error", "the task stream was lost"));
                Err(Box::default())
            }
        }
    }

    /// Loads a suite from its suite.toml (`rel`), then its task files, then checks it. With a
    /// sink the tasks stream to it in checked batches instead of collecting in the suite.
    fn suite(
        &mut self,
        rel: &str,
        fallback_name: String,
        sink: Option<&'s mut dyn TaskSink>,
    ) -> Suite {
        let cfg = self.read_config(rel);
        let quick = cfg.quick;
        self.quick_wanted = quick.iter().map(|(id, _, _)| id.clone()).collect();
        let mut suite = Suite {
            name: cfg.name.unwrap_or(fallback_name),
            description: cfg.description,
            tasks: Vec::new(),
            variants: cfg.variants,
            scorers: cfg.scorers,
            outcome: cfg.outcome,
            epochs: cfg.epochs,
            coverage: cfg.coverage,
            servers: cfg.servers,
            compare: cfg.compare,
            gates: cfg.gates,
            report: cfg.report,
            quick: quick.iter().map(|(id, _, _)| id.clone()).collect(),
            perturb: cfg.perturb.as_ref().map(|p| p.spec.clone()),
            run: cfg.run.clone(),
            content_hash: String::new(),
        };
        self.perturb = cfg.perturb;
        self.read_repos();
        let checks;
        let count;
        match sink {
            Some(sink) => {
                let patterns = cfg.task_patterns.as_ref();
                let streamed = self.stream_tasks(sink, suite, true, |l| l.load_tasks(patterns));
                (suite, checks, count) = match streamed {
                    Ok((suite, c, sent)) => (suite, c, sent),
                    Err(suite) => return *suite,
                };
            }
            None => {
                self.load_tasks(cfg.task_patterns.as_ref());
                suite.tasks = std::mem::take(&mut self.tasks);
                count = suite.tasks.len() as u64;
                checks = None;
            }
        }
        if let Some(p) = self.perturb.take() {
            let found = p.finish();
            self.diags.extend(found);
        }
        for (id, f, span) in &quick {
            if !self.quick_found.contains(id) {
                self.push(
                    Diagnostic::error("unknown-task", format!("`quick` names no task `{id}`"))
                        .at_span(f, span.clone())
                        .label("no task has this id"),
                );
            }
        }
        if count == 0 && !self.diags.iter().any(Diagnostic::is_error) {
            let d = no_tasks(self.display(rel), false);
            self.push(d);
        }
        let mut found = Vec::new();
        let loc = SpanLocator { l: self };
        match checks {
            Some(c) => c.finish(&suite, &loc, &mut found),
            None => checks::run(&suite, &loc, &mut found),
        }
        self.diags.extend(found);
        suite
    }

    fn read_config(&mut self, rel: &str) -> Config {
        let Some(f) = self.read_file(rel, None).and_then(|b| self.decode(rel, b)) else {
            return Config::default();
        };
        let text = Arc::clone(&f.text);
        let (doc, errors) = DeTable::parse_recoverable(&text);
        if !errors.is_empty() {
            self.toml_errors(&f, errors);
            return Config::default();
        }
        let node = from_toml_doc(&doc);
        match &node.kind {
            Kind::Table(t) => self.suite_config(&f, rel, t),
            _ => Config::default(),
        }
    }

    /// Reads `repos.toml` when the suite has one: its format problems are errors, what its
    /// contamination facts suggest is a warning.
    fn read_repos(&mut self) {
        let path = self.root.join(REPOS_FILE);
        if !path.is_file() {
            return;
        }
        let shown = self.display(REPOS_FILE);
        match crate::repos::read(&path, &shown) {
            Ok(r) => {
                for d in crate::repos::contamination_warnings(&r, &shown) {
                    self.push(d);
                }
            }
            Err(diags) => {
                for d in diags {
                    self.push(d);
                }
            }
        }
    }

    fn load_tasks(&mut self, task_patterns: Option<&TaskPatterns>) {
        let mut done = HashSet::new();
        done.insert(SUITE_FILE.to_owned());
        // The baseline is the suite's record of past results, not part of the suite: a glob
        // that matches it skips it.
        done.insert(BASELINE_FILE.to_owned());
        // The repository pins are not tasks either.
        done.insert(REPOS_FILE.to_owned());
        match task_patterns {
            Some(TaskPatterns { file: f, patterns }) => {
                for (pattern, span) in patterns {
                    let pattern = normalize(pattern);
                    let from = Some((f, span.clone()));
                    if pattern == BASELINE_FILE || pattern == REPOS_FILE {
                        let what = if pattern == BASELINE_FILE {
                            "the suite's baseline"
                        } else {
                            "the suite's repository pins"
                        };
                        let d = Diagnostic::error(
                            "bad-value",
                            format!("`{pattern}` holds {what}; it is never read as a task file"),
                        )
                        .at_span(f, span.clone())
                        .label("not a task file")
                        .with_help("keep tasks in another file");
                        self.push(d);
                        continue;
                    }
                    match expand(&self.root, &pattern) {
                        Err(msg) => {
                            let d = Diagnostic::error("bad-value", msg).at_span(f, span.clone());
                            self.push(d);
                        }
                        Ok(m) if m.files.is_empty() && m.not_utf8.is_empty() => self.push(
                            Diagnostic::error(
                                "missing-file",
                                format!("`{pattern}` matches no files"),
                            )
                            .at_span(f, span.clone())
                            .label("no such files"),
                        ),
                        Ok(m) => {
                            for file in m.not_utf8 {
                                if done.insert(file.clone()) {
                                    let d = not_utf8_name(&file).at_span(f, span.clone());
                                    self.push(d.label("matches it"));
                                }
                            }
                            for file in m.files {
                                if done.insert(file.clone()) {
                                    self.task_file(&file, from.clone());
                                }
                            }
                        }
                    }
                }
            }
            None => {
                for pattern in DEFAULT_TASKS {
                    let m = expand(&self.root, pattern).unwrap_or_default();
                    for file in m.not_utf8 {
                        if done.insert(file.clone()) {
                            let d = not_utf8_name(&file).at(self.display(&file), 0, 0);
                            self.push(d);
                        }
                    }
                    for file in m.files {
                        let exists = is_glob(pattern) || self.root.join(&file).exists();
                        if exists && done.insert(file.clone()) {
                            self.task_file(&file, None);
                        }
                    }
                }
            }
        }
    }
}

/// A task file that cannot be read because its name is not UTF-8 (`lossy` shows it).
fn not_utf8_name(lossy: &str) -> Diagnostic {
    Diagnostic::error(
        "encoding",
        format!("the name of task file `{lossy}` is not valid UTF-8, so it cannot be read"),
    )
    .with_help("rename the file (\u{fffd} marks the bytes that are not UTF-8)")
}

/// The warning for a suite without tasks, at `file` (a suite.toml, or a bare dataset).
fn no_tasks(file: String, dataset: bool) -> Diagnostic {
    let help = if dataset {
        "the file holds no task: a JSONL dataset has one JSON object per line"
    } else {
        "add tasks/*.toml or tasks.jsonl, or set `tasks` in suite.toml"
    };
    Diagnostic::warning("no-tasks", "the suite has no tasks")
        .at(file, 0, 0)
        .with_help(help)
}

#[cfg(test)]
mod tests {
    use crate::testing::{Collect, errors, list, load_files, suite};

    /// A dataset several batches long, with problems in different batches: the streaming
    /// load reports exactly what the whole load reports (template errors counted across
    /// batches, coverage over every task, duplicates, quick ids) and hands over the same tasks.
    #[test]
    fn streaming_reports_what_a_whole_load_reports() {
        let n = crate::loader::STREAM_CHUNK * 2 + 300;
        let mut lines = String::new();
        for i in 0..n {
            let hint = if i % 500 == 7 {
                ""
            } else {
                ", \"metadata\": {\"hint\": \"h\"}"
            };
            let category = if i < 3 { "rare" } else { "common" };
            lines.push_str(&format!(
                "{{\"id\": \"t{i}\", \"input\": \"q{i}\", \"target\": \"a\", \"category\": \"{category}\"{hint}}}\n"
            ));
        }
        lines.push_str("{\"id\": \"t5\", \"input\": \"dup\"}\n");
        lines.push_str("{\"id\": \"tx\", \"input\": \"regex\", \"expect\": {\"regex\": \"([\"}}\n");
        let toml = r#"
name = "big"
tasks = "data.jsonl"
quick = ["t1", "nope"]
[coverage]
rare = 4
[[variants]]
name = "v"
provider = "mock"
prompt_text = "Q: {{ prompt }}\nHint: {{ metadata.hint }}\n"
[[scorers]]
kind = "regex"
pattern = "a"
"#;
        let files = [("suite.toml", toml), ("data.jsonl", lines.as_str())];
        let (dir, whole) = load_files(&files);
        let whole = whole.expect_err("the suite has errors");
        let mut want = list(&dir, &whole.0);
        let mut sink = Collect::default();
        let streamed = crate::load_streaming(dir.path(), &mut sink).expect_err("same errors");
        let mut got = list(&dir, &streamed.0);
        want.sort();
        got.sort();
        assert!(got.len() < 20, "{got:#?}");
        assert_eq!(got, want);
        for expected in [
            "duplicate-id@data.jsonl:2349:",
            "unknown-task@suite.toml:",
            "coverage@suite.toml:",
            "scorer@data.jsonl:2350:",
            "template@",
        ] {
            assert!(
                got.iter().any(|g| g.starts_with(expected)),
                "{expected} not in {got:#?}"
            );
        }
        // Five dataset lines without a hint and the `tx` line: counted across batches.
        let notes = |ds: &[crate::Diagnostic]| {
            let mut n: Vec<_> = ds.iter().filter_map(|d| d.note.clone()).collect();
            n.sort();
            n
        };
        assert_eq!(notes(&streamed.0), notes(&whole.0));
        assert!(
            notes(&streamed.0).contains(&"5 more samples fail the same way".to_owned()),
            "{:?}",
            notes(&streamed.0)
        );
        assert_eq!(sink.started, 1);
        assert_eq!(sink.tasks.len(), n + 1, "every task but the duplicate");
        assert_eq!(sink.tasks[2000].id, "t2000");
        assert_eq!(sink.tasks[2000].source.line, 2001);
    }

    #[test]
    fn default_task_files_are_found_wherever_they_exist() {
        let l = suite(&[
            (
                "suite.toml",
                "name = \"s\"\n[defaults]\nprovider = \"mock\"\n",
            ),
            ("tasks/a.toml", "id = \"a\"\nprompt = \"p\"\n"),
            ("tasks/deeper/b.toml", "id = \"b\"\nprompt = \"p\"\n"),
            ("tasks/c.jsonl", "{\"id\": \"c\", \"input\": \"p\"}\n"),
            ("tasks/notes.md", "not a task"),
            ("tasks.jsonl", "{\"id\": \"d\", \"input\": \"p\"}\n"),
        ]);
        let ids: Vec<&str> = l.suite.tasks.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "d", "c"]);
        assert!(l.warnings.is_empty());
    }

    #[test]
    fn a_suite_without_tasks_warns() {
        let l = suite(&[(
            "suite.toml",
            "name = \"s\"\n[defaults]\nprovider = \"mock\"\n",
        )]);
        assert_eq!(
            l.warnings.iter().map(|w| w.code).collect::<Vec<_>>(),
            ["no-tasks"]
        );
    }

    #[test]
    fn an_empty_dataset_warns_like_a_suite_without_tasks() {
        let (dir, _) = load_files(&[("empty.jsonl", "\n")]);
        let l = crate::load(&dir.path().join("empty.jsonl")).unwrap();
        let w: Vec<String> = list(&dir, &l.warnings);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].starts_with("no-tasks@empty.jsonl: the suite has no tasks"),
            "{w:?}"
        );
        let mut sink = Collect::default();
        let l = crate::load_streaming(&dir.path().join("empty.jsonl"), &mut sink).unwrap();
        assert_eq!(list(&dir, &l.warnings), w);
    }

    /// A sink that adds scorers before the tasks come, as `verity run --scorer` does.
    struct WithScorers(Collect, Vec<&'static str>);

    impl crate::TaskSink for WithScorers {
        fn start(&mut self, suite: &mut verity_model::Suite) -> Result<(), crate::SinkError> {
            for kind in &self.1 {
                suite.scorers.push(verity_model::ScorerSpec {
                    kind: (*kind).to_owned(),
                    name: None,
                    options: Default::default(),
                    source: verity_model::SourceLoc {
                        file: "--scorer".into(),
                        line: 0,
                        column: 0,
                    },
                });
            }
            self.0.start(suite)
        }
        fn put(&mut self, task: &verity_model::Task) -> Result<(), crate::SinkError> {
            self.0.put(task)
        }
    }

    /// Scorers added by the sink check every task, in a bare dataset as in a suite: a bad
    /// `expect.regex` is found before any model call. A scorer the sink adds that is itself
    /// wrong is reported at its recorded source.
    #[test]
    fn scorers_added_while_streaming_check_every_task() {
        let data = "{\"id\": \"a\", \"input\": \"p\", \"expect\": {\"regex\": \"ok\"}}\n{\"id\": \"b\", \"input\": \"p\", \"expect\": {\"regex\": \"([\"}}\n";
        let (dir, _) = load_files(&[
            ("data.jsonl", data),
            (
                "s/suite.toml",
                "name = \"s\"\ntasks = \"../data.jsonl\"\n[defaults]\nprovider = \"mock\"\n",
            ),
        ]);
        for target in ["data.jsonl", "s"] {
            let mut sink = WithScorers(Collect::default(), vec!["regex", "nope"]);
            let err = crate::load_streaming(&dir.path().join(target), &mut sink)
                .expect_err("a bad regex and an unknown scorer");
            let found = list(&dir, &err.0);
            let shown = if target == "s" {
                "s/../data.jsonl"
            } else {
                "data.jsonl"
            };
            crate::testing::assert_found(
                &found,
                &[
                    "scorer@--scorer: scorer `nope`: unknown scorer kind `nope`",
                    &format!("scorer@{shown}:2:38: task `b` (scorer `regex`): invalid regex"),
                ],
            );
        }
        // Without the sink's scorers the dataset is fine.
        assert!(crate::load(&dir.path().join("data.jsonl")).is_ok());
    }

    /// A task file whose name is not UTF-8 is an error naming it, whether a default pattern
    /// or the suite's own `tasks` matches it.
    #[cfg(unix)]
    #[test]
    fn task_files_whose_names_are_not_utf8_are_errors() {
        use std::os::unix::ffi::OsStrExt;

        for toml in [
            "name = \"s\"\n[defaults]\nprovider = \"mock\"\n",
            "name = \"s\"\ntasks = [\"tasks/*.toml\"]\n[defaults]\nprovider = \"mock\"\n",
        ] {
            let (dir, _) = load_files(&[
                ("suite.toml", toml),
                ("tasks/ok.toml", "id = \"ok\"\nprompt = \"p\"\n"),
            ]);
            let bad = dir
                .path()
                .join("tasks")
                .join(std::ffi::OsStr::from_bytes(b"caf\xe9.toml"));
            std::fs::write(&bad, "id = \"x\"\nprompt = \"p\"\n").unwrap();
            let err = crate::load(dir.path()).expect_err("the file cannot be read");
            let found = list(&dir, &err.0);
            let at = if toml.contains("tasks =") {
                "suite.toml:2:10"
            } else {
                "tasks/caf\u{fffd}.toml"
            };
            crate::testing::assert_found(
                &found,
                &[&format!(
                    "encoding@{at}: the name of task file `tasks/caf\u{fffd}.toml` is not valid UTF-8"
                )],
            );
        }
    }

    /// A template over its render budget is reported once at the template, and validating
    /// many tasks does not pay the budget for each.
    #[test]
    fn a_runaway_template_fails_fast_at_the_template() {
        let mut lines = String::new();
        for i in 0..100 {
            lines.push_str(&format!("{{\"id\": \"t{i}\", \"input\": \"q\"}}\n"));
        }
        let start = std::time::Instant::now();
        let found = errors(&[
            (
                "suite.toml",
                "name = \"s\"\n[defaults]\nprovider = \"mock\"\nprompt = \"p.j2\"\n",
            ),
            (
                "p.j2",
                "Q: {{ prompt }}\n{% for i in range(10000) %}{% for j in range(10000) %}.{% endfor %}{% endfor %}\n",
            ),
            ("tasks.jsonl", &lines),
        ]);
        let took = start.elapsed();
        crate::testing::assert_found(&found, &["template@p.j2:2:"]);
        assert!(
            found[0].contains(
                "fails to render task `t0` (variant `default`): render budget exceeded: more than"
            ),
            "{found:?}"
        );
        // One budget's worth (under half a second in a debug build), not a hundred.
        assert!(took.as_secs_f64() < 8.0, "took {took:?}");
    }

    #[test]
    fn a_suite_file_under_another_name_loads_as_a_suite() {
        let (dir, _) = load_files(&[
            (
                "my-suite.toml",
                "name = \"renamed\"\ntasks = \"t.jsonl\"\n[defaults]\nprovider = \"mock\"\n",
            ),
            ("t.jsonl", "{\"input\": \"p\"}\n"),
            ("task.toml", "id = \"x\"\nprompt = \"p\"\n"),
        ]);
        let s = crate::load(&dir.path().join("my-suite.toml"))
            .unwrap()
            .suite;
        assert_eq!(
            (s.name.as_str(), s.tasks.len(), s.variants.len()),
            ("renamed", 1, 1)
        );
        let bare = crate::load(&dir.path().join("task.toml")).unwrap().suite;
        assert_eq!(
            (bare.name.as_str(), bare.tasks.len(), bare.variants.len()),
            ("task", 1, 0)
        );
        assert_eq!(bare.content_hash.len(), 64);
    }

    /// `baseline.toml` beside suite.toml is never a task file, even when `tasks` would match
    /// `repos.toml` is read for its pins (format errors fail the load, contamination facts
    /// warn), never as a task file, and leaves the content hash alone.
    #[test]
    fn repos_toml_is_checked_and_never_a_task_file() {
        let toml = "name = \"s\"\ntasks = [\"*.toml\"]\n[defaults]\nprovider = \"mock\"\n";
        let task = "id = \"a\"\nprompt = \"p\"\n";
        let (dir, before) = load_files(&[("suite.toml", toml), ("a.toml", task)]);
        let before = before.unwrap();
        assert!(before.warnings.is_empty());
        let pins = "[contamination]\nmodel_cutoff = \"2024-06-30\"\n\n[repos.old]\nlanguage = \"python\"\nsource = \"git:https://x/y#abcdef0\"\nlicense = \"MIT\"\nfork = false\nfirst_release = \"2019-05-01\"\n";
        std::fs::write(dir.path().join(crate::REPOS_FILE), pins).unwrap();
        let after = crate::load(dir.path()).unwrap();
        assert_eq!(after.suite.tasks.len(), 1);
        assert_eq!(after.suite.content_hash, before.suite.content_hash);
        assert_eq!(after.warnings.len(), 1, "{:?}", after.warnings);
        let w = &after.warnings[0];
        assert_eq!(w.code, "contamination");
        assert!(w.file.ends_with("repos.toml"), "{}", w.file);
        assert_eq!((w.line, w.column), (9, 17));
        std::fs::write(
            dir.path().join(crate::REPOS_FILE),
            "[repos.x]\nlanguage = 3\n",
        )
        .unwrap();
        let err = crate::load(dir.path()).unwrap_err();
        let e = err.errors().next().unwrap();
        assert!(e.file.ends_with("repos.toml") && e.line == 2, "{e:?}");
        // Naming it as a task file is an error.
        std::fs::write(dir.path().join(crate::REPOS_FILE), pins).unwrap();
        std::fs::write(
            dir.path().join("suite.toml"),
            toml.replace("\"*.toml\"", "\"repos.toml\""),
        )
        .unwrap();
        let err = crate::load(dir.path()).unwrap_err();
        assert!(
            err.errors()
                .any(|d| d.message.contains("never read as a task file")),
            "{err:?}"
        );
    }

    /// it: saving a baseline changes neither the tasks nor the content hash.
    #[test]
    fn the_baseline_file_is_not_part_of_the_suite() {
        let toml = "name = \"s\"\ntasks = [\"*.toml\"]\n[defaults]\nprovider = \"mock\"\n";
        let (dir, before) = load_files(&[
            ("suite.toml", toml),
            ("a.toml", "id = \"a\"\nprompt = \"p\"\n"),
            ("b.toml", "id = \"b\"\nprompt = \"p\"\n"),
        ]);
        let before = before.unwrap().suite;
        let ids = |s: &verity_model::Suite| -> Vec<String> {
            s.tasks.iter().map(|t| t.id.clone()).collect()
        };
        assert_eq!(ids(&before), ["a", "b"]);
        // A baseline that would load as a task (and one that would not) if it were read.
        for baseline in ["id = \"c\"\nprompt = \"p\"\n", "[runs]\nnot = \"a task\"\n"] {
            std::fs::write(dir.path().join(crate::BASELINE_FILE), baseline).unwrap();
            let after = crate::load(dir.path()).unwrap().suite;
            assert_eq!(ids(&after), ids(&before));
            assert_eq!(after.content_hash, before.content_hash);
            let mut sink = Collect::default();
            let streamed = crate::load_streaming(dir.path(), &mut sink).unwrap().suite;
            assert_eq!(streamed.content_hash, before.content_hash);
            assert_eq!(sink.tasks.len(), 2);
        }
        // A subdirectory's baseline.toml is an ordinary file.
        std::fs::create_dir(dir.path().join("more")).unwrap();
        std::fs::write(
            dir.path().join("more").join(crate::BASELINE_FILE),
            "id = \"d\"\nprompt = \"p\"\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("suite.toml"),
            toml.replace("\"*.toml\"", "\"**/*.toml\""),
        )
        .unwrap();
        assert_eq!(
            ids(&crate::load(dir.path()).unwrap().suite),
            ["a", "b", "d"]
        );
        // Named as a task file, it is an error rather than silently skipped.
        let found = errors(&[
            (
                "suite.toml",
                "name = \"s\"\ntasks = [\"a.toml\", \"./baseline.toml\"]\n",
            ),
            ("a.toml", "id = \"a\"\nprompt = \"p\"\n"),
            ("baseline.toml", ""),
        ]);
        assert_eq!(
            found,
            [
                "bad-value@suite.toml:2:20: `baseline.toml` holds the suite's baseline; it is never read as a task file"
            ]
        );
    }

    #[test]
    fn problems_in_many_files_are_all_reported() {
        let found = errors(&[
            ("suite.toml", "name = \"s\"\n[defaults\n"),
            ("tasks/a.toml", "id = 1\nprompt = \"p\"\n"),
            ("tasks.jsonl", "{\"id\": \"x\"}\n{\n"),
        ]);
        crate::testing::assert_found(
            &found,
            &[
                "toml-syntax@suite.toml:2:10",
                "wrong-type@tasks/a.toml:1:6",
                "missing-key@tasks.jsonl:1:1",
                "json-syntax@tasks.jsonl:2:1",
            ],
        );
    }

    #[test]
    fn diagnostics_name_files_as_the_user_gave_the_suite() {
        let (dir, result) = load_files(&[("suite.toml", "nam = \"s\"\n")]);
        let err = result.unwrap_err();
        let shown = format!("{}/suite.toml", dir.path().display());
        assert!(err.0.iter().all(|d| d.file == shown), "{err}");
        assert!(err.to_string().ends_with("2 errors, 1 warning"), "{err}");
    }

    #[test]
    fn renderer_is_shareable_across_threads() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<crate::Renderer>();
        assert_send_sync::<crate::Diagnostics>();
    }
}
