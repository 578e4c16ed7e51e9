//! `[servers.NAME]`: the grounding servers a suite's variants use — how verity reaches each
//! (a `command` it starts, or a `url`), its environment, working directory and timeouts, how
//! `inject-top-k` calls it (`tool`, `arguments` templates, `result`) and which of its tools
//! `tools` mode offers (`allow_tools`). See `suites/README.md`.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Map, Value};
use verity_model::{ResultSpec, ServerSpec};

use crate::diag::{Diagnostic, SourceFile};
use crate::loader::Loader;
use crate::render::{ARGUMENT_NAMES, check_argument_template, describe};
use crate::tree::{Entry, Kind, Node, Span, Table};

/// Keys of a `[servers.NAME]` table.
pub(crate) const SERVER_KEYS: &[&str] = &[
    "command",
    "url",
    "headers",
    "env",
    "cwd",
    "startup_timeout",
    "call_timeout",
    "tool",
    "arguments",
    "result",
    "allow_tools",
];

/// Keys of a server's `result` table.
const RESULT_KEYS: &[&str] = &["path", "top_k"];

/// The longest timeout a suite may set: a day (a longer one is a typo, not a plan).
const MAX_TIMEOUT_SECS: f64 = 86_400.0;

impl Loader<'_> {
    pub(crate) fn servers(
        &mut self,
        f: &Arc<SourceFile>,
        t: &Table,
    ) -> BTreeMap<String, ServerSpec> {
        let mut out = BTreeMap::new();
        for e in &t.entries {
            let ctx = format!("in [servers.{}]", e.key);
            let Some(st) = self.table(f, e) else { continue };
            if let Some(spec) = self.server(f, e, st, &ctx) {
                out.insert(e.key.clone(), spec);
            }
        }
        out
    }

    /// One server; `None` when it cannot be reached as written (already reported).
    fn server(
        &mut self,
        f: &Arc<SourceFile>,
        e: &Entry,
        st: &Table,
        ctx: &str,
    ) -> Option<ServerSpec> {
        self.check_keys(f, st, SERVER_KEYS, ctx);
        let mut ok = true;
        let command = match st.get("command") {
            None => None,
            Some(c) => match self.string_list(f, c) {
                Some(list) if list.is_empty() => {
                    let d = self.bad_value(f, c.value.span.clone(), "`command` must not be empty");
                    self.push(d.with_help(
                        "give the program and its arguments, e.g. [\"verity\", \"mcp\", \"serve\"]",
                    ));
                    ok = false;
                    None
                }
                Some(list) => Some(list),
                None => {
                    ok = false;
                    None
                }
            },
        };
        let url = match st.get("url") {
            None => None,
            Some(u) => match self.str(f, u) {
                Some(text) => match server_url(&text) {
                    Ok(()) => Some(text),
                    Err(why) => {
                        let d = self.bad_value(f, u.value.span.clone(), why);
                        self.push(d.with_help(
                            "give the server's Streamable HTTP endpoint, e.g. \"https://docs.example.com/mcp\"",
                        ));
                        ok = false;
                        None
                    }
                },
                None => {
                    ok = false;
                    None
                }
            },
        };
        match (st.get("command"), st.get("url")) {
            (None, None) => {
                self.push(
                    Diagnostic::error(
                        "missing-key",
                        format!("missing required key `command` or `url` {ctx}"),
                    )
                    .at_span(f, e.value.span.clone())
                    .label("`command` or `url` needed here")
                    .with_help(
                        "set `command` (a program verity starts, MCP over stdio) or `url` (an MCP Streamable HTTP endpoint)",
                    ),
                );
                ok = false;
            }
            (Some(_), Some(second)) => {
                let d = self.bad_value(
                    f,
                    second.key_span.clone(),
                    format!("set either `command` or `url` {ctx}, not both"),
                );
                self.push(d.label("second way to reach the server"));
                ok = false;
            }
            _ => {}
        }

        let mut env = BTreeMap::new();
        if let Some(ee) = st.get("env")
            && let Some(et) = self.table(f, ee)
        {
            for v in &et.entries {
                if let Some(s) = self.str(f, v) {
                    env.insert(v.key.clone(), s);
                }
            }
        }
        let mut headers = BTreeMap::new();
        if let Some(he) = st.get("headers")
            && let Some(ht) = self.table(f, he)
        {
            for h in &ht.entries {
                if !is_header_name(&h.key) {
                    let d = self.bad_value(
                        f,
                        h.key_span.clone(),
                        format!("`{}` is not an HTTP header name", h.key),
                    );
                    self.push(d.with_help(
                        "a header name is letters, digits and !#$%&'*+-.^_`|~, e.g. \"Authorization\"",
                    ));
                    continue;
                }
                let Some(var) = self.str(f, h) else { continue };
                if !is_env_name(&var) {
                    let d = self.bad_value(
                        f,
                        h.value.span.clone(),
                        format!(
                            "header `{}` must name an environment variable (letters, digits and `_`, not starting with a digit)",
                            h.key
                        ),
                    );
                    self.push(d.with_help(
                        "the value is read from that variable when verity connects and never stored, e.g. Authorization = \"DOCS_TOKEN\" (never the value itself)",
                    ));
                    continue;
                }
                headers.insert(h.key.clone(), var);
            }
            if !headers.is_empty() && st.get("command").is_some() {
                let d = self.bad_value(
                    f,
                    he.key_span.clone(),
                    "`headers` are sent to a `url`; a `command` server takes `env` instead",
                );
                self.push(d);
            }
        }
        // A relative working directory is the suite's, so a suite whose server reads files
        // of its own (`verity mcp serve --repo repos/x`) runs from any directory.
        let cwd = st.get("cwd").and_then(|c| self.str(f, c)).map(|c| {
            if Path::new(&c).is_relative() {
                let dir = self.root.join(&c);
                let dir = std::path::absolute(&dir).unwrap_or(dir);
                dir.to_string_lossy().into_owned()
            } else {
                c
            }
        });
        let timeout = |l: &mut Self, key: &str| {
            let te = st.get(key)?;
            let v = l.num(f, te, 0.0, MAX_TIMEOUT_SECS)?;
            if v <= 0.0 {
                let d = l.bad_value(
                    f,
                    te.value.span.clone(),
                    format!("`{key}` must be a positive number of seconds"),
                );
                l.push(d.label("not positive"));
                return None;
            }
            Some(v)
        };
        let startup_timeout = timeout(self, "startup_timeout");
        let call_timeout = timeout(self, "call_timeout");
        let tool = st.get("tool").and_then(|te| self.name_str(f, te));
        let arguments = st.get("arguments").and_then(|ae| self.arguments(f, ae));
        if let (Some(ae), None) = (st.get("arguments"), st.get("tool")) {
            let d = self.bad_value(
                f,
                ae.key_span.clone(),
                format!("`arguments` {ctx} needs the `tool` they are for"),
            );
            self.push(d.with_help(
                "add `tool = \"NAME\"` (verity validate --check-servers lists the server's tools)",
            ));
        }
        let result = st.get("result").and_then(|re| self.result_spec(f, re));
        let allow_tools = st.get("allow_tools").and_then(|ae| self.allow_tools(f, ae));
        if !ok {
            return None;
        }
        Some(ServerSpec {
            command: command.unwrap_or_default(),
            env,
            cwd,
            url,
            headers,
            startup_timeout,
            call_timeout,
            tool,
            arguments,
            result,
            allow_tools,
        })
    }

    /// `arguments`: a table whose strings (at any depth) are templates, compiled here.
    fn arguments(&mut self, f: &Arc<SourceFile>, e: &Entry) -> Option<Map<String, Value>> {
        let t = self.table(f, e)?;
        let before = self.error_count();
        for a in &t.entries {
            self.argument_templates(f, &a.key, &a.value);
        }
        (self.error_count() == before).then(|| crate::tree::table_to_json(t))
    }

    fn argument_templates(&mut self, f: &Arc<SourceFile>, name: &str, node: &Node) {
        match &node.kind {
            Kind::Str(src) => match check_argument_template(src) {
                Ok(unknown) => {
                    for n in unknown {
                        let at = str_span(f, &node.span, src, &n).unwrap_or(node.span.clone());
                        let d = self.bad_value(
                            f,
                            at,
                            format!("argument `{name}`: unknown template variable `{n}`"),
                        );
                        self.push(d.label("not defined").with_help(format!(
                            "argument templates see {} (e.g. {{{{ query }}}}, {{{{ task.metadata.NAME }}}})",
                            ARGUMENT_NAMES.join(", ")
                        )));
                    }
                }
                Err(err) => {
                    let at = match err.range() {
                        Some(r) if plain_string(f, &node.span, src) => {
                            node.span.start + 1 + r.start..node.span.start + 1 + r.end
                        }
                        _ => node.span.clone(),
                    };
                    let d = self.bad_value(
                        f,
                        at,
                        format!(
                            "argument `{name}` is not a valid template: {}",
                            describe(&err)
                        ),
                    );
                    self.push(d.label("template error"));
                }
            },
            Kind::Array(items) => {
                for i in items {
                    self.argument_templates(f, name, i);
                }
            }
            Kind::Table(t) => {
                for e in &t.entries {
                    self.argument_templates(f, name, &e.value);
                }
            }
            _ => {}
        }
    }

    /// `result = { path = "$.results[*]", top_k = 3 }`.
    fn result_spec(&mut self, f: &Arc<SourceFile>, e: &Entry) -> Option<ResultSpec> {
        let t = self.table(f, e)?;
        self.check_keys(f, t, RESULT_KEYS, "in `result`");
        let mut spec = ResultSpec::default();
        if let Some(pe) = t.get("path")
            && let Some(p) = self.str(f, pe)
        {
            match verity_catalog::json_path::parse(&p) {
                Ok(_) => spec.path = Some(p),
                Err(why) => {
                    let d = self.bad_value(f, pe.value.span.clone(), why);
                    self.push(d.with_help(
                        "e.g. \"$.results[*]\" (each match becomes one item of the context)",
                    ));
                }
            }
        }
        if let Some(ke) = t.get("top_k") {
            spec.top_k = self.int(f, ke, 1, i128::from(u32::MAX)).map(|n| n as u32);
        }
        Some(spec)
    }

    /// `allow_tools`: tool names, or `["*"]` alone for every tool.
    fn allow_tools(&mut self, f: &Arc<SourceFile>, e: &Entry) -> Option<Vec<String>> {
        let list = self.string_list(f, e)?;
        let Kind::Array(items) = &e.value.kind else {
            return None;
        };
        let mut bad = false;
        for (name, node) in list.iter().zip(items) {
            let why = if name.trim().is_empty() {
                Some("a tool name must not be empty".to_owned())
            } else if name == "*" && list.len() > 1 {
                Some("`\"*\"` (every tool) must be the only entry of `allow_tools`".to_owned())
            } else {
                None
            };
            if let Some(why) = why {
                let d = self.bad_value(f, node.span.clone(), why);
                self.push(d);
                bad = true;
            }
        }
        (!bad).then_some(list)
    }

    fn error_count(&self) -> usize {
        self.diags.iter().filter(|d| d.is_error()).count()
    }
}

/// Whether `text` is an absolute http(s) URL with a host. The message never repeats the URL:
/// it may hold credentials.
fn server_url(text: &str) -> Result<(), String> {
    let why = match url::Url::parse(text.trim()) {
        Err(e) => e.to_string(),
        Ok(u) if !matches!(u.scheme(), "http" | "https") => {
            format!("its scheme is `{}`", u.scheme())
        }
        Ok(u) if u.host_str().is_none_or(str::is_empty) => "it has no host".to_owned(),
        Ok(_) => return Ok(()),
    };
    Err(format!(
        "`url` must be an absolute http:// or https:// URL ({why})"
    ))
}

/// An HTTP header name (RFC 9110 token).
fn is_header_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// An environment variable name: letters, digits and `_`, not starting with a digit.
fn is_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether the string at `span` is written as `"src"` or `'src'` (no escapes), so offsets in
/// `src` are offsets in the file after the quote.
fn plain_string(f: &SourceFile, span: &Span, src: &str) -> bool {
    let written = f.text.get(span.clone()).unwrap_or_default();
    written.len() == src.len() + 2 && written.get(1..written.len() - 1) == Some(src)
}

/// The span of the first `needle` inside a plainly written string.
fn str_span(f: &SourceFile, span: &Span, src: &str, needle: &str) -> Option<Span> {
    if !plain_string(f, span, src) {
        return None;
    }
    let at = src.find(needle)?;
    Some(span.start + 1 + at..span.start + 1 + at + needle.len())
}

#[cfg(test)]
mod tests {
    use crate::testing::*;

    const TASK: (&str, &str) = ("tasks.jsonl", "{\"id\": \"t\", \"input\": \"q\"}\n");

    #[test]
    fn every_key_loads() {
        let l = suite(&[
            (
                "suite.toml",
                r#"name = "s"
tasks = "tasks.jsonl"
[servers.fs]
command = ["npx", "-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "."]
env = { NODE_OPTIONS = "--no-warnings" }
cwd = "data"
startup_timeout = 180
call_timeout = 12.5
tool = "search_files"
arguments = { pattern = "{{ query }}", path = "{{ task.metadata.root }}", excludePatterns = ["{{ variant.name }}"] }
result = { path = "$.results[*]", top_k = 3 }
allow_tools = ["read_text_file", "search_files"]
[servers.remote]
url = "https://docs.example.com/mcp"
headers = { Authorization = "DOCS_TOKEN" }
allow_tools = ["*"]
"#,
            ),
            TASK,
        ]);
        let fs = &l.suite.servers["fs"];
        assert_eq!(fs.command[0], "npx");
        assert_eq!(fs.env["NODE_OPTIONS"], "--no-warnings");
        assert!(fs.cwd.as_deref().unwrap().ends_with("data"));
        assert_eq!(fs.startup_timeout, Some(180.0));
        assert_eq!(fs.call_timeout, Some(12.5));
        assert_eq!(fs.tool.as_deref(), Some("search_files"));
        let args = fs.arguments.as_ref().unwrap();
        assert_eq!(args["pattern"], "{{ query }}");
        assert_eq!(args["excludePatterns"][0], "{{ variant.name }}");
        let result = fs.result.as_ref().unwrap();
        assert_eq!(result.path.as_deref(), Some("$.results[*]"));
        assert_eq!(result.top_k, Some(3));
        assert_eq!(
            fs.allow_tools.as_deref(),
            Some(&["read_text_file".to_owned(), "search_files".to_owned()][..])
        );
        let remote = &l.suite.servers["remote"];
        assert!(remote.command.is_empty() && remote.is_http());
        assert_eq!(remote.headers["Authorization"], "DOCS_TOKEN");
        assert_eq!(remote.allow_tools.as_deref(), Some(&["*".to_owned()][..]));
    }

    #[test]
    fn bad_servers_are_reported_where_they_are_written() {
        let cases: &[(&str, &[&str])] = &[
            (
                "name = \"s\"\n[servers.docs]\nenv = { A = \"1\" }\n",
                &[
                    "missing-key@suite.toml:2:1: missing required key `command` or `url` in [servers.docs]",
                ],
            ),
            (
                "name = \"s\"\n[servers.docs]\ncommand = [\"x\"]\nurl = \"https://h/mcp\"\n",
                &[
                    "bad-value@suite.toml:4:1: set either `command` or `url` in [servers.docs], not both",
                ],
            ),
            (
                "name = \"s\"\n[servers.docs]\nurl = \"ftp://user:secret@h/x\"\n",
                &[
                    "bad-value@suite.toml:3:7: `url` must be an absolute http:// or https:// URL (its scheme is `ftp`)",
                ],
            ),
            (
                "name = \"s\"\n[servers.docs]\nurl = \"https://h\"\nheaders = { \"Bad Name\" = \"X\", Authorization = \"my token\" }\n",
                &[
                    "bad-value@suite.toml:4:13: `Bad Name` is not an HTTP header name",
                    "bad-value@suite.toml:4:47: header `Authorization` must name an environment variable",
                ],
            ),
            (
                "name = \"s\"\n[servers.docs]\ncommand = [\"x\"]\nstartup_timeout = 0\ncall_timeout = \"5\"\n",
                &[
                    "bad-value@suite.toml:4:19: `startup_timeout` must be a positive number of seconds",
                    "wrong-type@suite.toml:5:16: `call_timeout` must be a number",
                ],
            ),
            (
                "name = \"s\"\n[servers.docs]\ncommand = [\"x\"]\ntool = \"t\"\narguments = { a = \"{{ query \", b = \"{{ metadata.repo }}\", c = [\"{{ nope }}\"] }\n",
                &[
                    "bad-value@suite.toml:5:23: argument `a` is not a valid template: syntax error",
                    "bad-value@suite.toml:5:40: argument `b`: unknown template variable `metadata`",
                    "bad-value@suite.toml:5:68: argument `c`: unknown template variable `nope`",
                ],
            ),
            (
                "name = \"s\"\n[servers.docs]\ncommand = [\"x\"]\narguments = { q = \"{{ query }}\" }\n",
                &[
                    "bad-value@suite.toml:4:1: `arguments` in [servers.docs] needs the `tool` they are for",
                ],
            ),
            (
                "name = \"s\"\n[servers.docs]\ncommand = [\"x\"]\nresult = { path = \"results[*]\", top_k = 0, limit = 2 }\n",
                &[
                    "unknown-key@suite.toml:4:44: unknown key `limit` in `result`",
                    "bad-value@suite.toml:4:19: `results[*]` is not a JSONPath",
                    "bad-value@suite.toml:4:41: `top_k` must be at least 1",
                ],
            ),
            (
                "name = \"s\"\n[servers.docs]\ncommand = [\"x\"]\nallow_tools = [\"*\", \"read\"]\n",
                &["bad-value@suite.toml:4:16: `\"*\"` (every tool) must be the only entry"],
            ),
            (
                "name = \"s\"\n[servers.docs]\ncommand = [\"x\"]\nallow_tool = [\"read\"]\n",
                &["unknown-key@suite.toml:4:1: unknown key `allow_tool` in [servers.docs]"],
            ),
        ];
        let mut problems = Vec::new();
        for (toml, expected) in cases {
            let found = errors(&[("suite.toml", toml), TASK]);
            if let Some(p) = mismatch(&found, expected) {
                problems.push(format!("{toml}\n{p}"));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    }

    #[test]
    fn an_unknown_key_suggests_the_right_one() {
        let (dir, result) = load_files(&[
            (
                "suite.toml",
                "name = \"s\"\n[servers.docs]\ncommand = [\"x\"]\ncall_timout = 5\n",
            ),
            TASK,
        ]);
        let d = result.unwrap_err();
        let found = list(&dir, &d.0);
        assert!(found[0].contains("unknown key `call_timout`"), "{found:?}");
        assert_eq!(d.0[0].help.as_deref(), Some("did you mean `call_timeout`?"));
    }
}
