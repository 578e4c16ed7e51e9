//! Task files: TOML (one task, `[[tasks]]`, or the claim-extraction fixture shape of seed 003)
//! and JSONL (inspect_ai samples, one per line).

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value};
use toml::de::DeTable;
use verity_model::{ChatMessage, Input, Role, Task};

use crate::diag::{Diagnostic, SourceFile, did_you_mean};
use crate::loader::{Loader, TaskSpans, json_message};
use crate::tree::{
    Entry, Kind, Node, Span, Table, from_toml_doc, json_tree, table_to_json, to_json,
};

const TASK_KEYS: &[&str] = &[
    "id", "category", "prompt", "messages", "target", "metadata", "expect",
];
const SAMPLE_KEYS: &[&str] = &[
    "id", "input", "target", "metadata", "choices", "category", "expect",
];
const ROLES: &[&str] = &["system", "user", "assistant", "tool"];

/// A task's `expect` keys → their `key = value` spans.
fn expect_spans(t: &Table) -> HashMap<String, Span> {
    t.entries
        .iter()
        .map(|e| (e.key.clone(), e.key_span.start..e.value.span.end))
        .collect()
}

/// Where a top-level table's first entry starts (a `[header]` starts at its bracket).
fn table_start(t: &Table) -> usize {
    t.entries
        .iter()
        .map(|e| e.key_span.start.min(e.value.span.start))
        .min()
        .unwrap_or(0)
}

fn entry_span(e: &Entry) -> Span {
    e.key_span.start..e.value.span.end
}

impl Loader<'_> {
    /// Reads one task file by its extension.
    pub(crate) fn task_file(&mut self, rel: &str, from: Option<(&Arc<SourceFile>, Span)>) {
        if rel.ends_with(".jsonl") {
            self.jsonl_tasks(rel, from);
        } else if rel.ends_with(".toml") {
            self.toml_tasks(rel, from);
        } else {
            let msg = format!("task file `{rel}` is neither .toml nor .jsonl");
            let d = Diagnostic::error("bad-value", msg);
            let d = match from {
                Some((f, span)) => d.at_span(f, span),
                None => d.at(self.display(rel), 0, 0),
            };
            self.push(d);
        }
    }

    pub(crate) fn toml_tasks(&mut self, rel: &str, from: Option<(&Arc<SourceFile>, Span)>) {
        let Some(bytes) = self.read_file(rel, from) else {
            return;
        };
        let Some(f) = self.decode(rel, bytes) else {
            return;
        };
        let text = Arc::clone(&f.text);
        let (doc, errors) = DeTable::parse_recoverable(&text);
        if !errors.is_empty() {
            self.toml_errors(&f, errors);
            return;
        }
        let node = from_toml_doc(&doc);
        let Kind::Table(top) = &node.kind else { return };
        if let Some(e) = top.get("tasks") {
            self.check_keys(
                &f,
                top,
                &["tasks"],
                "in a file of [[tasks]] (it holds only [[tasks]] entries)",
            );
            let Some(items) = self.array(&f, e) else {
                return;
            };
            for item in items {
                let Some(t) = self.node_table(&f, item, "each [[tasks]] entry") else {
                    continue;
                };
                if let Some((task, spans)) = self.toml_task(&f, rel, t, item.span.clone()) {
                    self.add_task(task, spans);
                }
            }
        } else if matches!(
            top.get("input").map(|e| &e.value.kind),
            Some(Kind::Table(_))
        ) {
            if let Some((task, spans)) = self.fixture_task(&f, rel, top) {
                self.add_task(task, spans);
            }
        } else if top.entries.is_empty() {
            self.push(
                Diagnostic::error("missing-key", format!("`{rel}` defines no task"))
                    .at_span(&f, 0..0)
                    .with_help("a task file holds one task at its top level (`id`, `prompt`…) or [[tasks]] entries"),
            );
        } else {
            let start = table_start(top);
            if let Some((task, spans)) = self.toml_task(&f, rel, top, start..start) {
                self.add_task(task, spans);
            }
        }
    }

    /// A task table: `id`, `category`, `prompt` or `messages`, `target`, `metadata`, `expect`.
    fn toml_task(
        &mut self,
        f: &Arc<SourceFile>,
        rel: &str,
        t: &Table,
        span: Span,
    ) -> Option<(Task, TaskSpans)> {
        self.check_keys(f, t, TASK_KEYS, "in a task");
        let id_entry = t.get("id");
        let id = match id_entry {
            Some(e) => self.name_str(f, e),
            None => {
                self.missing(f, span.clone(), "id", "in a task");
                None
            }
        };
        let at = id_entry.map_or(span.clone(), entry_span);
        let what = id
            .as_ref()
            .map_or_else(|| "a task".to_owned(), |id| format!("task `{id}`"));
        let input = match (t.get("prompt"), t.get("messages")) {
            (Some(p), None) => self.str(f, p).map(Input::Prompt),
            (None, Some(m)) => self
                .messages(f, &m.value, "`messages`")
                .map(Input::Messages),
            (Some(_), Some(m)) => {
                let d = self.bad_value(
                    f,
                    m.key_span.clone(),
                    format!("{what} has both `prompt` and `messages`"),
                );
                self.push(
                    d.with_help("give either a `prompt` string or a list of `messages`, not both"),
                );
                None
            }
            (None, None) => {
                self.push(
                    Diagnostic::error(
                        "missing-key",
                        format!("{what} has neither `prompt` nor `messages`"),
                    )
                    .at_span(f, at.clone())
                    .label("task without input"),
                );
                None
            }
        };
        let target = t
            .get("target")
            .and_then(|e| self.strings(f, e))
            .unwrap_or_default();
        let category = t.get("category").and_then(|e| self.name_str(f, e));
        let metadata = t
            .get("metadata")
            .and_then(|e| self.json_map(f, e))
            .unwrap_or_default();
        let (expect, expect_at) = match t.get("expect").and_then(|e| self.table(f, e)) {
            Some(et) => (table_to_json(et), expect_spans(et)),
            None => (Map::new(), HashMap::new()),
        };
        let source = self.loc(f, rel, span.start);
        let task = Task {
            id: id?,
            input: input?,
            target,
            category,
            metadata,
            expect,
            source,
        };
        Some((
            task,
            TaskSpans {
                file: Arc::clone(f),
                at,
                expect: expect_at,
                copy: false,
            },
        ))
    }

    /// Seed 003's claim-extraction fixture: `[metadata] id/category/…`, `[input] content`,
    /// `[expected] must_contain/must_not_contain`, `[scoring] weight/min_confidence`.
    fn fixture_task(
        &mut self,
        f: &Arc<SourceFile>,
        rel: &str,
        top: &Table,
    ) -> Option<(Task, TaskSpans)> {
        self.check_keys(
            f,
            top,
            &["metadata", "input", "expected", "scoring"],
            "in a fixture file",
        );
        let mut id = None;
        let mut at = 0..0;
        let mut category = None;
        let mut metadata = Map::new();
        match top.get("metadata") {
            None => self.missing(
                f,
                0..0,
                "metadata",
                "in a fixture file (it holds the fixture's `id`)",
            ),
            Some(me) => {
                if let Some(mt) = self.table(f, me) {
                    for e in &mt.entries {
                        match e.key.as_str() {
                            "id" => {
                                id = self.name_str(f, e);
                                at = entry_span(e);
                            }
                            "category" => category = self.name_str(f, e),
                            _ => {
                                metadata.insert(e.key.clone(), to_json(&e.value));
                            }
                        }
                    }
                    if !mt.contains("id") {
                        self.missing(f, me.value.span.clone(), "id", "in [metadata]");
                    }
                }
            }
        }
        let mut input = None;
        if let Some(ie) = top.get("input")
            && let Some(it) = self.table(f, ie)
        {
            self.check_keys(f, it, &["content"], "in [input]");
            match it.get("content") {
                Some(c) => input = self.str(f, c).map(Input::Prompt),
                None => self.missing(f, ie.value.span.clone(), "content", "in [input]"),
            }
        }
        let mut expect = Map::new();
        let mut expect_at = HashMap::new();
        if let Some(ee) = top.get("expected")
            && let Some(et) = self.table(f, ee)
        {
            self.check_keys(
                f,
                et,
                &["must_contain", "must_not_contain"],
                "in [expected]",
            );
            for e in &et.entries {
                if !matches!(e.key.as_str(), "must_contain" | "must_not_contain") {
                    continue;
                }
                let Some(items) = self.array(f, e) else {
                    continue;
                };
                let mut ok = true;
                for item in items {
                    ok &= self
                        .node_table(f, item, &format!("each entry of `{}`", e.key))
                        .is_some();
                }
                if ok {
                    expect.insert(e.key.clone(), to_json(&e.value));
                    expect_at.insert(e.key.clone(), entry_span(e));
                }
            }
        }
        if let Some(se) = top.get("scoring")
            && let Some(st) = self.table(f, se)
        {
            self.check_keys(f, st, &["weight", "min_confidence"], "in [scoring]");
            if let Some(e) = st.get("weight")
                && let Some(w) = self.num(f, e, 0.0, f64::INFINITY)
            {
                expect.insert("weight".to_owned(), Value::from(w));
                expect_at.insert("weight".to_owned(), entry_span(e));
            }
            if let Some(e) = st.get("min_confidence")
                && let Some(c) = self.num(f, e, 0.0, 1.0)
            {
                expect.insert("min_confidence".to_owned(), Value::from(c));
                expect_at.insert("min_confidence".to_owned(), entry_span(e));
            }
        }
        let source = self.loc(f, rel, table_start(top));
        let task = Task {
            id: id?,
            input: input?,
            target: Vec::new(),
            category,
            metadata,
            expect,
            source,
        };
        Some((
            task,
            TaskSpans {
                file: Arc::clone(f),
                at,
                expect: expect_at,
                copy: false,
            },
        ))
    }

    /// Chat messages: a non-empty list of `{role, content}` (content may also be a list of
    /// inspect_ai text parts `{type = "text", text}`).
    fn messages(
        &mut self,
        f: &Arc<SourceFile>,
        node: &Node,
        what: &str,
    ) -> Option<Vec<ChatMessage>> {
        let Kind::Array(items) = &node.kind else {
            self.push(
                Diagnostic::error("wrong-type", format!("{what} must be a list of messages"))
                    .at_span(f, node.span.clone())
                    .label("expected an array"),
            );
            return None;
        };
        if items.is_empty() {
            let d = self.bad_value(
                f,
                node.span.clone(),
                format!("{what} needs at least one message"),
            );
            self.push(d);
            return None;
        }
        let mut out = Vec::with_capacity(items.len());
        let mut ok = true;
        for item in items {
            match self.message(f, item) {
                Some(m) => out.push(m),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn message(&mut self, f: &Arc<SourceFile>, item: &Node) -> Option<ChatMessage> {
        let t = self.node_table(f, item, "each message")?;
        self.check_keys(f, t, &["role", "content", "tool_call_id"], "in a message");
        let role = match t.get("role") {
            None => {
                self.missing(f, item.span.clone(), "role", "in a message");
                None
            }
            Some(e) => self.str(f, e).and_then(|r| {
                let role = Role::parse(&r);
                if role.is_none() {
                    let mut d = self.bad_value(
                        f,
                        e.value.span.clone(),
                        format!("unknown role `{r}`; expected system, user, assistant or tool"),
                    );
                    if let Some(m) = did_you_mean(&r, ROLES.iter().copied()) {
                        d = d.with_help(format!("did you mean `{m}`?"));
                    }
                    self.push(d);
                }
                role
            }),
        };
        let content = match t.get("content") {
            None => {
                self.missing(f, item.span.clone(), "content", "in a message");
                None
            }
            Some(e) => self.content(f, e),
        };
        let tool_call_id = t.get("tool_call_id").and_then(|e| self.str(f, e));
        Some(ChatMessage {
            role: role?,
            content: content?,
            tool_call_id,
            tool_calls: Vec::new(),
        })
    }

    fn content(&mut self, f: &Arc<SourceFile>, e: &Entry) -> Option<String> {
        let Kind::Array(parts) = &e.value.kind else {
            return self.str(f, e);
        };
        let mut texts = Vec::with_capacity(parts.len());
        for part in parts {
            let t = self.node_table(f, part, "each content part")?;
            self.check_keys(f, t, &["type", "text"], "in a content part");
            if let Some(ty) = t.get("type")
                && let Some(ty) = self.str(f, ty)
                && ty != "text"
            {
                let d = self.bad_value(
                    f,
                    part.span.clone(),
                    format!("content parts of type `{ty}` are not supported"),
                );
                self.push(
                    d.with_help("only text parts ({\"type\": \"text\", \"text\": \"…\"}) are"),
                );
                return None;
            }
            match t.get("text") {
                Some(te) => texts.push(self.str(f, te)?),
                None => {
                    self.missing(f, part.span.clone(), "text", "in a content part");
                    return None;
                }
            }
        }
        Some(texts.join("\n"))
    }

    /// One task per non-blank line. A broken line is reported and the next lines still load.
    ///
    /// The file is read as a stream, a line at a time, and never held whole: a dataset of any
    /// size loads in the memory of its longest line. A line a diagnostic points into is kept
    /// (numbered as in the file) as long as the diagnostic lives.
    pub(crate) fn jsonl_tasks(&mut self, rel: &str, from: Option<(&Arc<SourceFile>, Span)>) {
        use std::io::BufRead;

        let path = self.root.join(rel);
        let file = match std::fs::File::open(&path) {
            Ok(f) if path.is_dir() => {
                drop(f);
                let e = std::io::Error::other("is a directory");
                self.read_error(rel, &path, &e, from);
                return;
            }
            Ok(f) => f,
            Err(e) => {
                self.read_error(rel, &path, &e, from);
                return;
            }
        };
        let name = self.display(rel);
        let mut reader = std::io::BufReader::with_capacity(64 * 1024, file);
        let mut raw = Vec::new();
        let mut len = 0u64;
        let mut line_no = 0usize;
        let mut index = 0usize;
        loop {
            raw.clear();
            match reader.read_until(b'\n', &mut raw) {
                Ok(0) => break,
                Ok(n) => len += n as u64,
                Err(e) => {
                    self.read_error(rel, &path, &e, from);
                    return;
                }
            }
            line_no += 1;
            if raw.last() == Some(&b'\n') {
                raw.pop();
            }
            if raw.last() == Some(&b'\r') {
                raw.pop();
            }
            if raw.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            index += 1;
            let (text, bad) = match std::str::from_utf8(&raw) {
                Ok(s) => (s.to_owned(), None),
                Err(e) => (
                    String::from_utf8_lossy(&raw).into_owned(),
                    Some(e.valid_up_to()),
                ),
            };
            let f = SourceFile::part(name.clone(), text, line_no - 1);
            let line: &str = &f.text;
            if let Some(at) = bad {
                self.push(
                    Diagnostic::error("json-syntax", "line is not valid UTF-8")
                        .at_span(&f, at..at + 1)
                        .label("invalid byte"),
                );
                continue;
            }
            if line.trim().is_empty() {
                index -= 1;
                continue;
            }
            if let Err(e) = serde_json::from_str::<Value>(line) {
                let at = e.column().saturating_sub(1);
                self.push(
                    Diagnostic::error("json-syntax", format!("invalid JSON: {}", json_message(&e)))
                        .at_span(&f, at..at + 1)
                        .label("here"),
                );
                continue;
            }
            match json_tree(line, 0) {
                Some(node) => {
                    if let Some((task, spans)) = self.sample(&f, rel, &node, index) {
                        self.add_task(task, spans);
                    }
                }
                None => self.push(
                    Diagnostic::error("json-syntax", "could not read this line as JSON")
                        .at_span(&f, 0..line.len()),
                ),
            }
        }
        self.hashed
            .insert(rel.to_owned(), crate::files::Hashed::Streamed { path, len });
    }

    /// An inspect_ai sample: `id`, `input`, `target`, `metadata`, `choices`, plus verity's
    /// `category` and `expect`.
    fn sample(
        &mut self,
        f: &Arc<SourceFile>,
        rel: &str,
        node: &Node,
        index: usize,
    ) -> Option<(Task, TaskSpans)> {
        let t = self.node_table(f, node, "each line")?;
        self.check_keys(f, t, SAMPLE_KEYS, "in a sample");
        let start = node.span.start..node.span.start + 1;
        let (id, at) = match t.get("id") {
            None => (Some(index.to_string()), start.clone()),
            Some(e) => {
                let id = match &e.value.kind {
                    Kind::Int(i) => Some(i.to_string()),
                    Kind::Str(_) => self.name_str(f, e),
                    _ => {
                        self.push(
                            Diagnostic::error("wrong-type", "`id` must be a string or an integer")
                                .at_span(f, e.value.span.clone())
                                .label("expected a string or an integer"),
                        );
                        None
                    }
                };
                (id, entry_span(e))
            }
        };
        let input = match t.get("input") {
            None => {
                self.missing(f, start.clone(), "input", "in a sample");
                None
            }
            Some(e) => match &e.value.kind {
                Kind::Str(s) => Some(Input::Prompt(s.clone())),
                Kind::Array(_) => self.messages(f, &e.value, "`input`").map(Input::Messages),
                _ => {
                    self.push(
                        Diagnostic::error(
                            "wrong-type",
                            "`input` must be a string or a list of chat messages",
                        )
                        .at_span(f, e.value.span.clone())
                        .label("expected a string or an array"),
                    );
                    None
                }
            },
        };
        let target = t
            .get("target")
            .and_then(|e| self.strings(f, e))
            .unwrap_or_default();
        let category = t.get("category").and_then(|e| self.name_str(f, e));
        let mut metadata = t
            .get("metadata")
            .and_then(|e| self.json_map(f, e))
            .unwrap_or_default();
        if let Some(e) = t.get("choices")
            && self.array(f, e).is_some()
        {
            metadata.insert("choices".to_owned(), to_json(&e.value));
        }
        let (expect, expect_at) = match t.get("expect").and_then(|e| self.table(f, e)) {
            Some(et) => (table_to_json(et), expect_spans(et)),
            None => (Map::new(), HashMap::new()),
        };
        let source = self.loc(f, rel, node.span.start);
        let task = Task {
            id: id?,
            input: input?,
            target,
            category,
            metadata,
            expect,
            source,
        };
        Some((
            task,
            TaskSpans {
                file: Arc::clone(f),
                at,
                expect: expect_at,
                copy: false,
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use verity_model::{ChatMessage, Input, Role};

    use crate::testing::{errors, mismatch, suite};

    const SUITE: (&str, &str) = (
        "suite.toml",
        "name = \"s\"\n[defaults]\nprovider = \"mock\"\n",
    );

    #[test]
    fn toml_task_shapes() {
        let s = suite(&[
            SUITE,
            (
                "tasks/a.toml",
                r#"id = "single"
category = "c"
messages = [
  { role = "system", content = "be brief" },
  { role = "user", content = "hi" },
]
target = ["a", "b"]
[metadata]
n = 1
[expect]
contains = "x"
"#,
            ),
            (
                "tasks/b.toml",
                r#"[[tasks]]
id = "m1"
prompt = "one"

[[tasks]]
id = "m2"
prompt = "two"
target = "t"
"#,
            ),
            (
                "tasks/sub/fixture.toml",
                r#"[metadata]
id = "tls-001"
name = "TLS verification disabled"
category = "tls"
language = "python"
created = 2026-02-05

[input]
content = '''
requests.get(url, verify=False)
'''

[expected]
must_contain = [
    { subject = "tls/cert_verification", predicate = "enabled", value = false },
]
must_not_contain = [
    { subject = "tls/cert_verification", predicate = "enabled", value = true },
]

[scoring]
weight = 1
min_confidence = 0.8
"#,
            ),
        ])
        .suite;
        let ids: Vec<&str> = s.tasks.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["single", "m1", "m2", "tls-001"]);
        let single = &s.tasks[0];
        assert_eq!(
            single.input,
            Input::Messages(vec![
                ChatMessage::new(Role::System, "be brief"),
                ChatMessage::new(Role::User, "hi")
            ])
        );
        assert_eq!(single.target, ["a", "b"]);
        assert_eq!(single.metadata["n"], 1);
        assert_eq!(single.expect["contains"], "x");
        assert_eq!(single.source.to_string(), "tasks/a.toml:1:1");
        assert_eq!(s.tasks[2].source.to_string(), "tasks/b.toml:5:1");
        assert_eq!(s.tasks[2].target, ["t"]);
        let fx = &s.tasks[3];
        assert_eq!(fx.category.as_deref(), Some("tls"));
        assert_eq!(
            fx.input,
            Input::Prompt("requests.get(url, verify=False)\n".into())
        );
        assert_eq!(
            serde_json::Value::Object(fx.metadata.clone()),
            json!({"name": "TLS verification disabled", "language": "python", "created": "2026-02-05"})
        );
        assert_eq!(fx.expect["must_contain"][0]["value"], false);
        assert_eq!(fx.expect["must_not_contain"][0]["predicate"], "enabled");
        assert_eq!(fx.expect["weight"], 1.0);
        assert_eq!(fx.expect["min_confidence"], 0.8);
        assert_eq!(fx.source.to_string(), "tasks/sub/fixture.toml:1:1");
    }

    #[test]
    fn jsonl_samples() {
        let jsonl = concat!(
            "{\"input\": \"first\", \"target\": \"A\", \"choices\": [\"A\", \"B\"]}\r\n",
            "\n",
            "  {\"id\": 42, \"input\": [{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"p1\"}, {\"type\": \"text\", \"text\": \"p2\"}]}], \"metadata\": {\"k\": [1, 2]}, \"expect\": {\"regex\": \"\\\\d\"}, \"category\": \"c\"}\n",
            "{\"id\": \"named\", \"input\": \"third\", \"target\": [\"x\", \"y\"]}\n",
        );
        let s = suite(&[SUITE, ("tasks.jsonl", jsonl)]).suite;
        let ids: Vec<&str> = s.tasks.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["1", "42", "named"]);
        assert_eq!(s.tasks[0].metadata["choices"], json!(["A", "B"]));
        assert_eq!(s.tasks[0].target, ["A"]);
        assert_eq!(
            s.tasks[1].input,
            Input::Messages(vec![ChatMessage::new(Role::User, "p1\np2")])
        );
        assert_eq!(s.tasks[1].expect["regex"], "\\d");
        assert_eq!(s.tasks[1].metadata["k"], json!([1, 2]));
        assert_eq!(s.tasks[1].source.to_string(), "tasks.jsonl:3:3");
        assert_eq!(s.tasks[2].target, ["x", "y"]);
    }

    /// Task files, then the errors expected (`code@file:line:col: message…`).
    type Case = (
        &'static [(&'static str, &'static str)],
        &'static [&'static str],
    );

    /// Each case: task files, then the errors expected.
    #[test]
    fn task_problems() {
        let cases: &[Case] = &[
            (
                &[("tasks/a.toml", "")],
                &["missing-key@tasks/a.toml:1:1: `tasks/a.toml` defines no task"],
            ),
            (
                &[("tasks/a.toml", "prompt = \"p\"\n")],
                &["missing-key@tasks/a.toml:1:1: missing required key `id` in a task"],
            ),
            (
                &[("tasks/a.toml", "id = \"a\"\n")],
                &["missing-key@tasks/a.toml:1:1: task `a` has neither `prompt` nor `messages`"],
            ),
            (
                &[(
                    "tasks/a.toml",
                    "id = \"a\"\nprompt = \"p\"\nmessages = []\n",
                )],
                &["bad-value@tasks/a.toml:3:1: task `a` has both `prompt` and `messages`"],
            ),
            (
                &[("tasks/a.toml", "id = 1\nprompt = \"p\"\n")],
                &["wrong-type@tasks/a.toml:1:6: `id` must be a string, found an integer"],
            ),
            (
                &[("tasks/a.toml", "id = \"\"\nprompt = \"p\"\n")],
                &["bad-value@tasks/a.toml:1:6: `id` must not be empty"],
            ),
            (
                &[(
                    "tasks/a.toml",
                    "id = \"a\"\nprompt = \"p\"\ntraget = \"x\"\n",
                )],
                &["unknown-key@tasks/a.toml:3:1: unknown key `traget` in a task"],
            ),
            (
                &[(
                    "tasks/a.toml",
                    "id = \"a\"\nmessages = [{ role = \"robot\", content = \"x\" }, { role = \"user\" }, 3]\n",
                )],
                &[
                    "bad-value@tasks/a.toml:2:22: unknown role `robot`",
                    "missing-key@tasks/a.toml:2:48: missing required key `content` in a message",
                    "wrong-type@tasks/a.toml:2:67: each message must be a table, found an integer",
                ],
            ),
            (
                &[("tasks/a.toml", "id = \"a\"\nmessages = []\n")],
                &["bad-value@tasks/a.toml:2:12: `messages` needs at least one message"],
            ),
            (
                &[(
                    "tasks/a.toml",
                    "stray = 1\n[[tasks]]\nid = \"a\"\nprompt = \"p\"\n",
                )],
                &["unknown-key@tasks/a.toml:1:1: unknown key `stray` in a file of [[tasks]]"],
            ),
            (
                &[(
                    "tasks/a.toml",
                    "[[tasks]]\nid = \"a\"\nprompt = \"p\"\n[[tasks]]\nid = \"a\"\nprompt = \"q\"\n",
                )],
                &["duplicate-id@tasks/a.toml:5:1: duplicate task id `a`"],
            ),
            (
                &[(
                    "tasks/a.toml",
                    "[metadata]\nname = \"n\"\n[input]\ncontent = 1\nextra = 2\n[scoring]\nweight = -1\n",
                )],
                &[
                    "missing-key@tasks/a.toml:1:1: missing required key `id` in [metadata]",
                    "wrong-type@tasks/a.toml:4:11: `content` must be a string",
                    "unknown-key@tasks/a.toml:5:1: unknown key `extra` in [input]",
                    "bad-value@tasks/a.toml:7:10: `weight` must be at least 0",
                ],
            ),
            (
                &[("tasks/a.toml", "id = \"a\"\nprompt = \"p\"\nx = [1,\n")],
                &["toml-syntax@tasks/a.toml:3:8: invalid TOML: unclosed array"],
            ),
            (
                &[(
                    "tasks.jsonl",
                    concat!(
                        "{\"id\": \"a\", \"input\": \"x\", \"sandbox\": \"docker\"}\n",
                        "{\"id\": \"b\" \"input\": \"x\"}\n",
                        "[1, 2]\n",
                        "{\"id\": 1.5, \"input\": \"x\"}\n",
                        "{\"id\": \"c\"}\n",
                        "{\"id\": \"d\", \"input\": 7, \"target\": [1]}\n",
                        "{\"id\": \"e\", \"input\": [{\"role\": \"user\", \"content\": [{\"type\": \"image\", \"image\": \"x\"}]}]}\n",
                        "{\"id\": \"a\", \"input\": \"again\"}\n",
                        "{\"id\": \"f\", \"input\": \"ok\"}\n",
                        "{\"id\": \"g\", \"input\": \"tr\u{e9}s\"",
                    ),
                )],
                &[
                    "unknown-key@tasks.jsonl:1:27: unknown key `sandbox` in a sample",
                    "json-syntax@tasks.jsonl:2:12: invalid JSON: expected `,` or `}`",
                    "wrong-type@tasks.jsonl:3:1: each line must be an object, found an array",
                    "wrong-type@tasks.jsonl:4:8: `id` must be a string or an integer",
                    "missing-key@tasks.jsonl:5:1: missing required key `input` in a sample",
                    "wrong-type@tasks.jsonl:6:22: `input` must be a string or a list of chat messages",
                    "wrong-type@tasks.jsonl:6:36: each entry of `target` must be a string, found an integer",
                    "unknown-key@tasks.jsonl:7:70: unknown key `image` in a content part",
                    "bad-value@tasks.jsonl:7:52: content parts of type `image` are not supported",
                    "duplicate-id@tasks.jsonl:8:2: duplicate task id `a`",
                    "json-syntax@tasks.jsonl:10:27: invalid JSON: EOF while parsing an object",
                ],
            ),
        ];
        let problems: Vec<String> = cases
            .iter()
            .filter_map(|(files, expected)| {
                let mut all = vec![SUITE];
                all.extend_from_slice(files);
                let found = errors(&all);
                mismatch(&found, expected).map(|m| format!("--- {files:?}\n{m}"))
            })
            .collect();
        assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    }

    #[test]
    fn invalid_utf8_spoils_only_its_line() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("suite.toml"), SUITE.1).unwrap();
        std::fs::write(
            dir.path().join("tasks.jsonl"),
            b"{\"id\": \"a\xff\", \"input\": \"x\"}\n{\"id\": \"b\", \"input\": \"y\"}\n",
        )
        .unwrap();
        let err = crate::load(dir.path()).unwrap_err();
        let found = crate::testing::list(&dir, &err.0);
        assert_eq!(
            found,
            ["json-syntax@tasks.jsonl:1:10: line is not valid UTF-8"]
        );
        std::fs::write(
            dir.path().join("tasks.jsonl"),
            b"{\"id\": \"b\", \"input\": \"y\"}\n",
        )
        .unwrap();
        std::fs::create_dir_all(dir.path().join("tasks")).unwrap();
        std::fs::write(dir.path().join("tasks/x.toml"), b"id = \"\xc3\x28\"\n").unwrap();
        let err = crate::load(dir.path()).unwrap_err();
        let found = crate::testing::list(&dir, &err.0);
        assert_eq!(
            found,
            ["encoding@tasks/x.toml:1:7: `tasks/x.toml` is not valid UTF-8"]
        );
    }
}
