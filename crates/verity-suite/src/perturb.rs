//! suite.toml `[perturb]`: perturbed copies of the tasks, made as the tasks load (seed 003's
//! robust mode as data, not a mode).
//!
//! Each task the table selects is followed, in the order of `kinds`, by one copy per kind that
//! changes its text: id `<id>~<suffix>`, the text rewritten ([`crate::reformat`]),
//! `metadata.perturbation_of` the original's id and `metadata.perturbation` the kind, the rest
//! (category, target, expect, metadata, source) the original's. The original gets
//! `metadata.perturbation_of` = its own id too, so a group over that key holds the task and its
//! copies. The copies go through the same path as any task (`Loader::add_task`): duplicate ids,
//! the `quick` list, streaming in the same checked batch as their original.

use std::sync::Arc;

use globset::{Glob, GlobMatcher};
use serde_json::Value;
use verity_model::{
    Input, PERTURBATION, PERTURBATION_OF, PerturbKind, PerturbOn, PerturbSpec, Role, Task,
};

use crate::diag::{Diagnostic, SourceFile, did_you_mean};
use crate::loader::Loader;
use crate::reformat::{LANGUAGE_NAMES, Lang, perturb};
use crate::tree::{Entry, Kind, Span, Table};

const PERTURB_KEYS: &[&str] = &["kinds", "tasks", "on"];

/// The metadata key naming a task's language.
const LANGUAGE: &str = "language";

/// A `tasks` glob of `[perturb]`, and whether a task matched it.
#[derive(Debug)]
struct Pattern {
    text: String,
    matcher: GlobMatcher,
    span: Span,
    matched: bool,
}

/// `[perturb]` while the tasks load: the spec, where it is written, and what to report once
/// the last task is in.
#[derive(Debug)]
pub(crate) struct Perturber {
    pub(crate) spec: PerturbSpec,
    file: Arc<SourceFile>,
    /// The `[perturb]` key, where the table as a whole is reported.
    at: Span,
    /// The `kinds` entry, when written.
    kinds_at: Option<Span>,
    /// The `on` entry, when written.
    on_at: Option<Span>,
    patterns: Vec<Pattern>,
    /// Tasks selected that have no text to perturb.
    no_text: u64,
    /// Tasks selected whose language is missing or unknown, when a kind needs it.
    no_language: u64,
}

impl Perturber {
    /// `task`'s perturbed copies, one per kind that changes its text; `task` itself gets
    /// `metadata.perturbation_of` when it has copies. A task the `tasks` globs do not select,
    /// or that is a perturbed copy already (it has `metadata.perturbation`), has none.
    pub(crate) fn copies(&mut self, task: &mut Task) -> Vec<Task> {
        if !self.selects(&task.id) || task.metadata.contains_key(PERTURBATION) {
            return Vec::new();
        }
        let Some(text) = self.text(task) else {
            self.no_text += 1;
            return Vec::new();
        };
        let lang = match task.metadata.get(LANGUAGE) {
            Some(Value::String(name)) => Lang::from_name(name),
            _ => None,
        };
        if lang.is_none() && self.spec.kinds.iter().any(|k| k.needs_language()) {
            self.no_language += 1;
        }
        let texts: Vec<(PerturbKind, String)> = self
            .spec
            .kinds
            .iter()
            .filter_map(|&k| perturb(k, text, lang).map(|t| (k, t)))
            .collect();
        if texts.is_empty() {
            return Vec::new();
        }
        // A task in a group of its own making already (a hand-written paraphrase set) keeps
        // it, and its copies join it.
        let group = match task.metadata.get(PERTURBATION_OF) {
            Some(Value::String(g)) => g.clone(),
            _ => {
                task.metadata
                    .insert(PERTURBATION_OF.to_owned(), Value::from(task.id.clone()));
                task.id.clone()
            }
        };
        texts
            .into_iter()
            .map(|(kind, text)| {
                let mut copy = task.clone();
                copy.id = format!("{}~{}", task.id, kind.suffix());
                self.set_text(&mut copy, text);
                copy.metadata
                    .insert(PERTURBATION_OF.to_owned(), Value::from(group.clone()));
                copy.metadata
                    .insert(PERTURBATION.to_owned(), Value::from(kind.name()));
                copy
            })
            .collect()
    }

    /// Whether the `tasks` globs select `id` (all ids when there are none); every glob that
    /// matches is marked.
    fn selects(&mut self, id: &str) -> bool {
        if self.patterns.is_empty() {
            return true;
        }
        let mut any = false;
        for p in &mut self.patterns {
            if p.matcher.is_match(id) {
                p.matched = true;
                any = true;
            }
        }
        any
    }

    /// The text `on` names: the prompt, the last user message, or a metadata string.
    fn text<'t>(&self, task: &'t Task) -> Option<&'t str> {
        match &self.spec.on {
            PerturbOn::Input => match &task.input {
                Input::Prompt(p) => Some(p),
                Input::Messages(ms) => ms
                    .iter()
                    .rev()
                    .find(|m| m.role == Role::User)
                    .map(|m| m.content.as_str()),
            },
            PerturbOn::Metadata(key) => task.metadata.get(key).and_then(Value::as_str),
        }
    }

    fn set_text(&self, task: &mut Task, text: String) {
        match &self.spec.on {
            PerturbOn::Input => match &mut task.input {
                Input::Prompt(p) => *p = text,
                Input::Messages(ms) => {
                    if let Some(m) = ms.iter_mut().rev().find(|m| m.role == Role::User) {
                        m.content = text;
                    }
                }
            },
            PerturbOn::Metadata(key) => {
                task.metadata.insert(key.clone(), Value::from(text));
            }
        }
    }

    /// What the whole load found: globs that selected no task (errors), and tasks some kinds
    /// had to skip (one warning each).
    pub(crate) fn finish(self) -> Vec<Diagnostic> {
        let f = &self.file;
        let mut out = Vec::new();
        for p in self.patterns.iter().filter(|p| !p.matched) {
            out.push(
                Diagnostic::error(
                    "unknown-task",
                    format!("[perturb] `tasks` pattern `{}` matches no task", p.text),
                )
                .at_span(f, p.span.clone())
                .label("no task id matches"),
            );
        }
        if self.no_text > 0 {
            let (what, at) = match &self.spec.on {
                PerturbOn::Input => ("no user message".to_owned(), self.at.clone()),
                PerturbOn::Metadata(key) => (
                    format!("no string `metadata.{key}`"),
                    self.on_at.clone().unwrap_or(self.at.clone()),
                ),
            };
            out.push(
                Diagnostic::warning(
                    "perturb",
                    format!(
                        "{} {} {what} to perturb; {} no perturbed copies",
                        count(self.no_text),
                        have(self.no_text),
                        if self.no_text == 1 {
                            "it gets"
                        } else {
                            "they get"
                        },
                    ),
                )
                .at_span(f, at),
            );
        }
        if self.no_language > 0 {
            let n = self.no_language;
            out.push(
                Diagnostic::warning(
                    "perturb",
                    format!(
                        "{} {} no known `metadata.language`: `comment` and `no-comments` skip {}",
                        count(n),
                        have(n),
                        if n == 1 { "it" } else { "them" },
                    ),
                )
                .at_span(f, self.kinds_at.clone().unwrap_or(self.at.clone()))
                .with_help(format!("set `metadata.language` to {LANGUAGE_NAMES}")),
            );
        }
        out
    }
}

/// `1 task`, `3 tasks`.
fn count(n: u64) -> String {
    format!("{n} task{}", if n == 1 { "" } else { "s" })
}

fn have(n: u64) -> &'static str {
    if n == 1 { "has" } else { "have" }
}

impl Loader<'_> {
    /// Reads `[perturb]` (entry `e`, table `t`). `None` when anything in it is wrong (each
    /// problem reported), so a broken table makes no copies.
    pub(crate) fn perturb_table(
        &mut self,
        f: &Arc<SourceFile>,
        e: &Entry,
        t: &Table,
    ) -> Option<Perturber> {
        let errors = self.diags.iter().filter(|d| d.is_error()).count();
        self.check_keys(f, t, PERTURB_KEYS, "in [perturb]");
        let mut spec = PerturbSpec::default();
        if let Some(ke) = t.get("kinds") {
            spec.kinds = self.perturb_kinds(f, ke).unwrap_or_default();
        }
        let mut patterns = Vec::new();
        if let Some(te) = t.get("tasks") {
            patterns = self.perturb_patterns(f, te);
            spec.tasks = patterns.iter().map(|p| p.text.clone()).collect();
        }
        if let Some(oe) = t.get("on") {
            spec.on = self.perturb_on(f, oe).unwrap_or_default();
        }
        if self.diags.iter().filter(|d| d.is_error()).count() > errors {
            return None;
        }
        Some(Perturber {
            spec,
            file: Arc::clone(f),
            at: e.key_span.clone(),
            kinds_at: t.get("kinds").map(|k| k.key_span.start..k.value.span.end),
            on_at: t.get("on").map(|o| o.key_span.start..o.value.span.end),
            patterns,
            no_text: 0,
            no_language: 0,
        })
    }

    fn perturb_kinds(&mut self, f: &Arc<SourceFile>, e: &Entry) -> Option<Vec<PerturbKind>> {
        let names = self.string_list(f, e)?;
        let Kind::Array(items) = &e.value.kind else {
            return None;
        };
        if names.is_empty() {
            let d = self.bad_value(f, e.value.span.clone(), "`kinds` needs at least one kind");
            self.push(d.with_help("leave out `kinds` for every kind"));
            return None;
        }
        let all: Vec<&str> = PerturbKind::ALL.iter().map(|k| k.name()).collect();
        let mut kinds = Vec::new();
        let mut ok = true;
        for (name, item) in names.iter().zip(items) {
            let Some(kind) = PerturbKind::parse(name) else {
                let help = if matches!(name.as_str(), "tabs-to-spaces" | "spaces-to-tabs") {
                    "`indent` swaps tabs and spaces, whichever way the text allows".to_owned()
                } else {
                    match did_you_mean(name, all.iter().copied()) {
                        Some(m) => format!("did you mean `{m}`?"),
                        None => format!("kinds: {}", all.join(", ")),
                    }
                };
                let d = self.bad_value(
                    f,
                    item.span.clone(),
                    format!("unknown perturbation kind `{name}`"),
                );
                self.push(d.label("unknown kind").with_help(help));
                ok = false;
                continue;
            };
            if kinds.contains(&kind) {
                let d = self.bad_value(
                    f,
                    item.span.clone(),
                    format!("`kinds` names `{name}` twice"),
                );
                self.push(d.label("repeated"));
                ok = false;
                continue;
            }
            kinds.push(kind);
        }
        ok.then_some(kinds)
    }

    fn perturb_patterns(&mut self, f: &Arc<SourceFile>, e: &Entry) -> Vec<Pattern> {
        let items: Vec<(String, Span)> = match &e.value.kind {
            Kind::Str(s) => vec![(s.clone(), e.value.span.clone())],
            Kind::Array(items) => {
                if items.is_empty() {
                    let d = self.bad_value(
                        f,
                        e.value.span.clone(),
                        "`tasks` needs at least one pattern",
                    );
                    self.push(d.with_help("leave out `tasks` to perturb every task"));
                }
                items
                    .iter()
                    .filter_map(|item| {
                        let s = self.node_str(f, item, "each entry of `tasks`")?;
                        Some((s, item.span.clone()))
                    })
                    .collect()
            }
            _ => {
                self.push(
                    Diagnostic::error(
                        "wrong-type",
                        "`tasks` must be a glob or a list of globs over task ids",
                    )
                    .at_span(f, e.value.span.clone())
                    .label("expected a string or a list of strings"),
                );
                Vec::new()
            }
        };
        let mut out = Vec::new();
        for (text, span) in items {
            match Glob::new(&text) {
                Ok(g) => out.push(Pattern {
                    matcher: g.compile_matcher(),
                    text,
                    span,
                    matched: false,
                }),
                Err(err) => {
                    let d =
                        self.bad_value(f, span, format!("invalid glob `{text}`: {}", err.kind()));
                    self.push(d);
                }
            }
        }
        out
    }

    fn perturb_on(&mut self, f: &Arc<SourceFile>, e: &Entry) -> Option<PerturbOn> {
        let s = self.str(f, e)?;
        if s == "input" {
            return Some(PerturbOn::Input);
        }
        if let Some(key) = s.strip_prefix("metadata.")
            && !key.trim().is_empty()
        {
            return Some(PerturbOn::Metadata(key.to_owned()));
        }
        let mut d = self.bad_value(
            f,
            e.value.span.clone(),
            format!("`on` must be \"input\" or \"metadata.KEY\"; found `{s}`"),
        );
        if did_you_mean(&s, ["input"]).is_some() {
            d = d.with_help("did you mean `input`?");
        }
        self.push(d);
        None
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use verity_model::{PerturbKind, PerturbOn, PerturbSpec, Suite, Task};

    use crate::testing::{Collect, assert_found, errors, list, load_files, suite};

    const SUITE: &str = "name = \"robust\"\n[defaults]\nprovider = \"mock\"\n[perturb]\n";

    /// Seed 003's fixture shape: the language is in `[metadata]`.
    const FIXTURE: &str = r#"[metadata]
id = "tls-001"
category = "tls"
language = "python"

[input]
content = '''
import requests

def fetch_data(url):
    # Disable SSL verification for internal services
    response = requests.get(url, verify=False)
    return response.json()
'''

[expected]
must_contain = [{ subject = "tls/cert_verification", predicate = "enabled", value = false }]
"#;

    /// JavaScript (a URL string, a block comment, no indentation), Rust, Go (tabs), shell with a
    /// shebang, an unknown language, and a chat without a language.
    const DATASET: &str = r##"{"id": "js", "input": "/* Fetch config.\n * Over TLS. */\nconst url = \"http://x\"; // plain HTTP\nfetch(url)\n", "metadata": {"language": "JavaScript"}}
{"id": "rs", "input": "fn main() {\n    // TLS off\n    let c = builder().danger_accept_invalid_certs(true);\n}\n", "metadata": {"language": "rust"}}
{"id": "go", "input": "package main\n\nfunc main() {\n\ttr := &tls.Config{InsecureSkipVerify: true} // test only\n}\n", "metadata": {"language": "go"}}
{"id": "sh", "input": "#!/bin/sh\ncurl -k https://x # insecure\n", "metadata": {"language": "bash"}}
{"id": "hs", "input": "main = do\n    -- a comment\n    print 1\n", "metadata": {"language": "haskell"}}
{"id": "chat", "input": [{"role": "system", "content": "Be terse."}, {"role": "user", "content": "first\n    kept"}, {"role": "assistant", "content": "ok"}, {"role": "user", "content": "x = 1\n    y\n"}], "target": "A", "category": "c", "expect": {"regex": "A"}}
"##;

    /// Loads `files` (which must fail) whole and streaming: the same diagnostics, warnings
    /// included. Returns what the sink took.
    fn assert_same_when_streaming(files: &[(&str, &str)]) -> Collect {
        let (dir, whole) = load_files(files);
        let mut want = list(&dir, &whole.unwrap_err().0);
        let mut sink = Collect::default();
        let streamed = crate::load_streaming(dir.path(), &mut sink).unwrap_err();
        let mut got = list(&dir, &streamed.0);
        want.sort();
        got.sort();
        assert_eq!(got, want);
        sink
    }

    fn ids(tasks: &[Task]) -> Vec<&str> {
        tasks.iter().map(|t| t.id.as_str()).collect()
    }

    fn task<'a>(s: &'a Suite, id: &str) -> &'a Task {
        s.task(id).unwrap_or_else(|| panic!("no task `{id}`"))
    }

    fn prompt<'a>(s: &'a Suite, id: &str) -> &'a str {
        task(s, id).input.prompt_text()
    }

    #[test]
    fn every_kind_on_every_language_family() {
        let files = [
            ("suite.toml", SUITE),
            ("tasks/tls.toml", FIXTURE),
            ("tasks.jsonl", DATASET),
        ];
        let (dir, loaded) = load_files(&files);
        let l = loaded.unwrap_or_else(|e| panic!("{e}"));
        let s = &l.suite;
        assert_eq!(s.perturb, Some(PerturbSpec::default()));
        assert_eq!(
            ids(&s.tasks),
            [
                "tls-001",
                "tls-001~ws",
                "tls-001~indent",
                "tls-001~comment",
                "tls-001~nocomment",
                "js",
                "js~ws",
                "js~comment",
                "js~nocomment",
                "rs",
                "rs~ws",
                "rs~indent",
                "rs~comment",
                "rs~nocomment",
                "go",
                "go~ws",
                "go~indent",
                "go~comment",
                "go~nocomment",
                "sh",
                "sh~ws",
                "sh~comment",
                "sh~nocomment",
                "hs",
                "hs~ws",
                "hs~indent",
                "chat",
                "chat~ws",
                "chat~indent",
            ]
        );
        // Python, from the fixture file.
        let code = prompt(s, "tls-001");
        assert!(code.starts_with("import requests\n\ndef fetch_data(url):\n    # Disable"));
        assert_eq!(
            prompt(s, "tls-001~ws"),
            "import requests  \n\ndef fetch_data(url):  \n    # Disable SSL verification for internal services  \n    response = requests.get(url, verify=False)  \n    return response.json()  \n"
        );
        assert_eq!(
            prompt(s, "tls-001~indent"),
            "import requests\n\ndef fetch_data(url):\n\t# Disable SSL verification for internal services\n\tresponse = requests.get(url, verify=False)\n\treturn response.json()\n"
        );
        assert_eq!(
            prompt(s, "tls-001~comment"),
            format!("# NOTE: formatting only\n{code}")
        );
        assert_eq!(
            prompt(s, "tls-001~nocomment"),
            "import requests\n\ndef fetch_data(url):\n    response = requests.get(url, verify=False)\n    return response.json()\n"
        );
        // JavaScript: the URL survives, the block goes; no indentation, so no `indent` copy.
        assert_eq!(
            prompt(s, "js~nocomment"),
            "const url = \"http://x\";\nfetch(url)\n"
        );
        assert_eq!(
            prompt(s, "js~comment"),
            format!("// NOTE: formatting only\n{}", prompt(s, "js"))
        );
        // Rust and Go.
        assert_eq!(
            prompt(s, "rs~nocomment"),
            "fn main() {\n    let c = builder().danger_accept_invalid_certs(true);\n}\n"
        );
        assert_eq!(
            prompt(s, "rs~indent"),
            "fn main() {\n\t// TLS off\n\tlet c = builder().danger_accept_invalid_certs(true);\n}\n"
        );
        assert_eq!(
            prompt(s, "go~indent"),
            "package main\n\nfunc main() {\n    tr := &tls.Config{InsecureSkipVerify: true} // test only\n}\n"
        );
        assert_eq!(
            prompt(s, "go~nocomment"),
            "package main\n\nfunc main() {\n\ttr := &tls.Config{InsecureSkipVerify: true}\n}\n"
        );
        // Shell: the shebang stays first and is not a comment to remove.
        assert_eq!(
            prompt(s, "sh~comment"),
            "#!/bin/sh\n# NOTE: formatting only\ncurl -k https://x # insecure\n"
        );
        assert_eq!(prompt(s, "sh~nocomment"), "#!/bin/sh\ncurl -k https://x\n");
        assert_eq!(
            prompt(s, "sh~ws"),
            "#!/bin/sh  \ncurl -k https://x # insecure  \n"
        );
        // An unknown language gets the kinds that need none.
        assert_eq!(
            prompt(s, "hs~indent"),
            "main = do\n\t-- a comment\n\tprint 1\n"
        );
        // A chat: the last user message changes, nothing else.
        let chat = task(s, "chat~indent");
        let verity_model::Input::Messages(ms) = &chat.input else {
            panic!("{chat:?}")
        };
        let contents: Vec<&str> = ms.iter().map(|m| m.content.as_str()).collect();
        assert_eq!(
            contents,
            ["Be terse.", "first\n    kept", "ok", "x = 1\n\ty\n"]
        );
        // Two tasks have no language: one warning for the suite.
        assert_eq!(
            list(&dir, &l.warnings),
            [
                "perturb@suite.toml:4:2: 2 tasks have no known `metadata.language`: `comment` and `no-comments` skip them"
            ]
        );
    }

    /// A copy is its task but for the id, the text and two metadata keys; the task names
    /// itself as the group.
    #[test]
    fn copies_keep_everything_else() {
        let s = suite(&[
            ("suite.toml", SUITE),
            ("tasks/tls.toml", FIXTURE),
            ("tasks.jsonl", DATASET),
        ])
        .suite;
        let original = task(&s, "tls-001");
        assert_eq!(
            serde_json::Value::Object(original.metadata.clone()),
            json!({"language": "python", "perturbation_of": "tls-001"})
        );
        for kind in PerturbKind::ALL {
            let copy = task(&s, &format!("tls-001~{}", kind.suffix()));
            assert_eq!(
                serde_json::Value::Object(copy.metadata.clone()),
                json!({"language": "python", "perturbation_of": "tls-001", "perturbation": kind.name()})
            );
            assert_eq!(copy.category, original.category);
            assert_eq!(copy.target, original.target);
            assert_eq!(copy.expect, original.expect);
            assert_eq!(copy.source, original.source);
            assert_ne!(copy.input, original.input);
        }
        let chat = task(&s, "chat");
        let copy = task(&s, "chat~ws");
        assert_eq!(
            (copy.category.as_deref(), &copy.target, &copy.expect),
            (Some("c"), &chat.target, &chat.expect)
        );
        assert_eq!(copy.metadata["perturbation_of"], "chat");
        assert_eq!(copy.metadata["perturbation"], "trailing-whitespace");
    }

    /// `load_streaming` hands over exactly the tasks `load` returns, copies right after their
    /// task, with the same warnings; and the content hash covers the suite's files, nothing
    /// else.
    #[test]
    fn streaming_gives_the_same_tasks_and_the_hash_is_over_files() {
        let files = [
            ("suite.toml", SUITE),
            ("tasks/tls.toml", FIXTURE),
            ("tasks.jsonl", DATASET),
        ];
        let (dir, whole) = load_files(&files);
        let whole = whole.unwrap();
        let mut sink = Collect::default();
        let streamed = crate::load_streaming(dir.path(), &mut sink).unwrap();
        assert_eq!(sink.tasks, whole.suite.tasks);
        assert_eq!(list(&dir, &streamed.warnings), list(&dir, &whole.warnings));
        assert_eq!(streamed.suite.perturb, whole.suite.perturb);
        assert_eq!(streamed.suite.content_hash, whole.suite.content_hash);
        let on_disk: std::collections::BTreeMap<String, crate::files::Hashed> = files
            .iter()
            .map(|(p, c)| ((*p).to_owned(), c.as_bytes().to_vec().into()))
            .collect();
        assert_eq!(
            crate::files::content_hash(&on_disk).unwrap(),
            whole.suite.content_hash
        );
    }

    #[test]
    fn kinds_tasks_and_on_choose_what_is_perturbed() {
        let toml = r#"name = "s"
[defaults]
provider = "mock"
prompt_text = "Review:\n{{ metadata.code or prompt }}"
[perturb]
kinds = ["no-comments", "trailing-whitespace"]
tasks = ["a*", "c*"]
on = "metadata.code"
"#;
        let data = r#"{"id": "a1", "input": "review", "metadata": {"code": "x = 1  # one\n", "language": "py"}}
{"id": "a2", "input": "review"}
{"id": "b1", "input": "review", "metadata": {"code": "x = 1  # one\n", "language": "py"}}
{"id": "c", "input": "review", "metadata": {"code": "y\n", "language": "py", "perturbation_of": "a1"}}
{"id": "c-para", "input": "review", "metadata": {"code": "z  # z\n", "language": "py", "perturbation_of": "c", "perturbation": "paraphrase"}}
"#;
        let (dir, loaded) = load_files(&[("suite.toml", toml), ("tasks.jsonl", data)]);
        let l = loaded.unwrap();
        let s = &l.suite;
        assert_eq!(
            s.perturb,
            Some(PerturbSpec {
                kinds: vec![PerturbKind::NoComments, PerturbKind::TrailingWhitespace],
                tasks: vec!["a*".into(), "c*".into()],
                on: PerturbOn::Metadata("code".into()),
            })
        );
        // In the order of `kinds`; `c` has no comment to remove; a copy written by hand (it
        // has `metadata.perturbation`) is not perturbed again.
        assert_eq!(
            ids(&s.tasks),
            [
                "a1",
                "a1~nocomment",
                "a1~ws",
                "a2",
                "b1",
                "c",
                "c~ws",
                "c-para"
            ]
        );
        assert_eq!(task(s, "a1~nocomment").metadata["code"], "x = 1\n");
        assert_eq!(task(s, "a1~ws").metadata["code"], "x = 1  # one  \n");
        assert_eq!(prompt(s, "a1~ws"), "review");
        // A task already in a group keeps it, and its copies join it.
        assert!(!task(s, "b1").metadata.contains_key("perturbation_of"));
        assert_eq!(task(s, "c").metadata["perturbation_of"], "a1");
        assert_eq!(task(s, "c~ws").metadata["perturbation_of"], "a1");
        assert_eq!(task(s, "c-para").metadata["perturbation_of"], "c");
        assert_eq!(
            list(&dir, &l.warnings),
            [
                "perturb@suite.toml:8:1: 1 task has no string `metadata.code` to perturb; it gets no perturbed copies"
            ]
        );
    }

    #[test]
    fn table_problems_are_reported_where_they_are_written() {
        let toml = r#"name = "s"
[defaults]
provider = "mock"
[perturb]
kinds = ["trailing-whitespace", "tabs-to-spaces", "indnet", "indent", "indent"]
tasks = ["[", "ok*", "nope*"]
on = "inptu"
colour = 1
"#;
        let task = ("tasks.jsonl", "{\"id\": \"ok\", \"input\": \"a\\nb\"}\n");
        let found = errors(&[("suite.toml", toml), task]);
        // The table is broken: no copies, so nothing about `nope*` matching nothing.
        assert_found(
            &found,
            &[
                "unknown-key@suite.toml:8:1: unknown key `colour` in [perturb]",
                "bad-value@suite.toml:5:33: unknown perturbation kind `tabs-to-spaces`",
                "bad-value@suite.toml:5:51: unknown perturbation kind `indnet`",
                "bad-value@suite.toml:5:71: `kinds` names `indent` twice",
                "bad-value@suite.toml:6:10: invalid glob `[`: ",
                "bad-value@suite.toml:7:6: `on` must be \"input\" or \"metadata.KEY\"; found `inptu`",
            ],
        );
        let (_dir, loaded) = load_files(&[("suite.toml", toml), task]);
        let helps: Vec<String> = loaded
            .unwrap_err()
            .0
            .iter()
            .filter_map(|d| d.help.clone())
            .collect();
        assert_eq!(
            helps,
            [
                "expected one of: kinds, tasks, on",
                "`indent` swaps tabs and spaces, whichever way the text allows",
                "did you mean `indent`?",
                "did you mean `input`?",
            ]
        );

        let found = errors(&[(
            "suite.toml",
            "name = \"s\"\n[perturb]\nkinds = \"indent\"\ntasks = 3\non = \"metadata.\"\n",
        )]);
        assert_found(
            &found,
            &[
                "wrong-type@suite.toml:3:9: `kinds` must be a list of strings, found a string",
                "wrong-type@suite.toml:4:9: `tasks` must be a glob or a list of globs over task ids",
                "bad-value@suite.toml:5:6: `on` must be \"input\" or \"metadata.KEY\"; found `metadata.`",
            ],
        );
        let found = errors(&[(
            "suite.toml",
            "name = \"s\"\n[perturb]\nkinds = []\ntasks = []\n",
        )]);
        assert_found(
            &found,
            &[
                "bad-value@suite.toml:3:9: `kinds` needs at least one kind",
                "bad-value@suite.toml:4:9: `tasks` needs at least one pattern",
            ],
        );
        let found = errors(&[("suite.toml", "name = \"s\"\nperturb = 1\n")]);
        assert_found(
            &found,
            &["wrong-type@suite.toml:2:11: `perturb` must be a table, found an integer"],
        );
        // A sound table whose glob selects no task.
        let found = errors(&[
            (
                "suite.toml",
                "name = \"s\"\n[defaults]\nprovider = \"mock\"\n[perturb]\ntasks = [\"o*\", \"zz*\"]\n",
            ),
            task,
        ]);
        assert_found(
            &found,
            &["unknown-task@suite.toml:5:16: [perturb] `tasks` pattern `zz*` matches no task"],
        );
    }

    /// A copy whose id a written task already has (or takes later) is the loader's ordinary
    /// duplicate, streaming or not.
    #[test]
    fn copies_with_taken_ids_are_duplicates() {
        for data in [
            "{\"id\": \"x\", \"input\": \"p\"}\n{\"id\": \"x~ws\", \"input\": \"q\"}\n",
            "{\"id\": \"x~ws\", \"input\": \"q\"}\n{\"id\": \"x\", \"input\": \"p\"}\n",
        ] {
            let files = [("suite.toml", SUITE), ("tasks.jsonl", data)];
            let found = errors(&files);
            assert_eq!(
                found,
                ["duplicate-id@tasks.jsonl:2:2: duplicate task id `x~ws`"]
            );
            assert_same_when_streaming(&files);
        }
    }

    /// A task and its copies go to the sink in one batch: a duplicate whose copies would
    /// cross a batch boundary takes them along, as in a whole load.
    #[test]
    fn a_duplicate_at_a_batch_boundary_takes_its_copies_along() {
        // `dup` and its copy, then plain tasks up to one short of a batch.
        let mut data = String::from("{\"id\": \"dup\", \"input\": \"a\"}\n");
        for i in 1..crate::loader::STREAM_CHUNK - 2 {
            data.push_str(&format!("{{\"id\": \"t{i}\", \"input\": \"q\"}}\n"));
        }
        // The batch's last task; its copy would be the next batch's first.
        data.push_str("{\"id\": \"dup\", \"input\": \"a\"}\n");
        let toml = format!("{SUITE}tasks = \"dup\"\n");
        let files = [
            ("suite.toml", toml.as_str()),
            ("tasks.jsonl", data.as_str()),
        ];
        let line = crate::loader::STREAM_CHUNK - 1;
        let found = errors(&files);
        assert_eq!(
            found,
            [format!(
                "duplicate-id@tasks.jsonl:{line}:2: duplicate task id `dup`"
            )]
        );
        let sink = assert_same_when_streaming(&files);
        assert_eq!(ids(&sink.tasks[..2]), ["dup", "dup~ws"]);
        assert_eq!(sink.tasks.len(), crate::loader::STREAM_CHUNK - 1);
    }

    /// A copy's expectations are its task's: a problem with them is reported once, and copies
    /// do not count towards coverage. `quick` may name a copy.
    #[test]
    fn copies_are_checked_once_and_do_not_cover() {
        let toml = "name = \"s\"\nquick = [\"t~ws\"]\n[defaults]\nprovider = \"mock\"\n[[scorers]]\nkind = \"regex\"\n[coverage]\nc = 2\n[perturb]\n";
        let data = "{\"id\": \"t\", \"input\": \"a\\n    b\", \"category\": \"c\", \"expect\": {\"regex\": \"([\"}}\n";
        let files = [("suite.toml", toml), ("tasks.jsonl", data)];
        let found = errors(&files);
        assert_found(
            &found,
            &[
                "coverage@suite.toml:8:1: category `c` has 1 task; [coverage] requires at least 2",
                "scorer@tasks.jsonl:1:62: task `t` (scorer `regex`): invalid regex: unclosed character class",
            ],
        );
        let sink = assert_same_when_streaming(&files);
        assert_eq!(ids(&sink.tasks), ["t", "t~ws", "t~indent"]);
    }
}
