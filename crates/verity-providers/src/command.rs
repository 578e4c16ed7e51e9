//! The `command` provider: runs the user's own program (a pipeline, a wrapper around a local
//! model, a script) once per call.
//!
//! The protocol is documented on [`CommandProvider`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value, json};
use verity_model::{
    Artifact, BoxFuture, ChatMessage, GenParams, GenerateRequest, Generation, Input, Provider,
    ProviderError, ProviderErrorKind, ProviderSpec, SampleKey, ToolCall, Usage,
};
use verity_process::{Capture, Output, ProcessError, Quote, Spec, Stdin};

use crate::options::{Options, config_error};

const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// The variable that tells the program where the running verity executable is.
pub const VERITY_EXE: &str = "VERITY_EXE";
/// The version of the output protocol, part of the cache identity: entries cached when an
/// answer was read differently (before `output` and `artifacts`) are not reused.
const PROTOCOL: &[u8] = b"command-protocol-2";
/// The most standard output a call may produce.
pub(crate) const MAX_STDOUT: usize = 16 * 1024 * 1024;
/// How much of the end of standard error is kept for error messages.
const STDERR_TAIL_BYTES: usize = 8 * 1024;
/// How much of it an error message quotes: its last lines, at most so many characters.
const STDERR_QUOTE: Quote = Quote {
    lines: 5,
    chars: 600,
};

/// Runs the user's program once per call.
///
/// # Configuration
///
/// * `options.command` (required): the program and its arguments, as a list of strings, or as
///   one string split the way a shell splits words — whitespace separates, `'…'` keeps text
///   literally, `"…"` keeps text with `\"`, `\\`, `\$` and `` \` `` escapes, a backslash
///   outside quotes escapes the next character. Nothing else of a shell applies: there is no
///   expansion of variables, globs or `~`, and an unquoted `|`, `&`, `;`, `<`, `>`, `(`, `)`,
///   `` ` `` or `$` is an error (write `["sh", "-c", "…"]` to get a shell).
/// * `options.cwd`: the working directory; it must exist. Relative to the suite's directory
///   when written in a suite.toml (the loader resolves it: `cwd = "."` is the suite's own
///   directory), else to verity's working directory.
/// * `options.env`: a table of variables added to the environment the program inherits from
///   verity (strings, numbers and booleans). Their values never appear in `Debug` output,
///   [`Provider::endpoint`] or an error.
/// * `VERITY_EXE` is set for the program to the path of the running verity executable
///   (`std::env::current_exe`, when it can be found), so a pipeline can call verity itself —
///   `"$VERITY_EXE" model generate …` for its model stage — without knowing where it is
///   installed. `options.env` may override it. It is not part of the cache identity: which
///   verity runs the pipeline does not decide its answer.
/// * `options.timeout_s`: how long one call may take, default 60.
/// * `model`: what [`Provider::model`] reports; default the program's file name.
///
/// The program is looked up when the provider is built: a name with a `/` is a path (relative
/// to `cwd`, else to verity's working directory); a bare name is searched on `PATH` (the one in
/// `env` if given, else verity's). A program that cannot be found, or is not an executable
/// file, is a config error before any sample runs.
///
/// # The protocol
///
/// Each call starts the program in a new process group, writes one JSON object (and a
/// newline) to its standard input and closes it:
///
/// ```json
/// {
///   "sample": {"task_id": "add-1", "variant": "pipeline", "epoch": 0},
///   "model": "my-pipeline",
///   "messages": [
///     {"role": "system", "content": "Answer with a number."},
///     {"role": "user", "content": "What is 2 + 3?"},
///     {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "name": "f", "arguments": {}}]},
///     {"role": "tool", "content": "…", "tool_call_id": "c1"}
///   ],
///   "params": {"temperature": 0.0, "top_p": 1.0, "seed": 7, "max_tokens": 256,
///              "stop": ["\n\n"], "response_schema": {"type": "object"}},
///   "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}],
///   "task": {"id": "add-1", "input": "What is 2 + 3?", "target": ["5"], "category": null,
///            "metadata": {}, "expect": {}}
/// }
/// ```
///
/// `messages` entries carry `tool_call_id` and `tool_calls` only when they have them; `params`
/// carries only the parameters that are set; `task.input` is the task's prompt as a string,
/// or its messages as a list.
///
/// The program need not read its input. What it writes to standard output is the answer:
///
/// * a JSON object with a string `text` (or `output`, its synonym), or with `artifacts`, is
///   read as `{"text": "…", "tool_calls": [{"id": "…", "name": "…", "arguments": {…}}],
///   "usage": {"input_tokens": 0, "output_tokens": 0}, "model": "…", "finish_reason": "…",
///   "artifacts": {"api_ir": {…}, "ui_plan": {…}}}` (every field but `text` / `output`
///   optional; both `text` and `output`, or a field of the wrong type, is an invalid response);
/// * anything else (plain text, or JSON of another shape) is the answer's text, less one
///   trailing newline.
///
/// `artifacts` (stage attribution) is an object of the pipeline's named intermediate results
/// in the order its stages ran, any JSON each. Every one is stored with the sample as a
/// [`verity_model::Artifact`]: its name, the BLAKE3 of its canonical text (object keys sorted,
/// so key order does not change the hash; a string is hashed as its text), its size, and the
/// value itself unless its canonical text is over 1 MiB
/// ([`verity_model::MAX_ARTIFACT_VALUE_BYTES`]: then only the hash and size are kept). The
/// `stages` scorer compares them across epochs to name the first stage that drifted.
///
/// Standard error is not part of the answer; its last lines are quoted when the call fails.
///
/// # Failures
///
/// * A non-zero exit status (or death by a signal) is an invalid response naming the status
///   and quoting the end of standard error. Invalid responses are retried by the runner, which
///   suits a flaky pipeline; a deterministic failure costs the retries.
/// * Output beyond 16 MiB, or output that is not UTF-8, is an invalid response.
/// * A call that takes longer than `timeout_s` is a timeout.
/// * A program that cannot be started at call time (deleted since the build, say) is a
///   connection error.
///
/// However a call ends — answer, failure, timeout, or the caller dropping it — the whole
/// process group is killed with `SIGKILL`, so nothing the program started outlives the call.
/// A helper meant to outlive it must start its own session (`setsid`). Background processes
/// that keep standard output open keep the call open until they exit or the timeout strikes.
pub struct CommandProvider {
    /// The program and arguments as configured.
    argv: Vec<String>,
    /// The program, resolved when the provider was built.
    program: PathBuf,
    cwd: Option<PathBuf>,
    /// Extra environment variables; the values are never shown.
    env: Vec<(String, String)>,
    timeout: Duration,
    model: String,
    command_line: String,
    /// BLAKE3 over what else decides the answers: see [`CommandProvider::cache_identity`].
    state_digest: String,
    /// The running verity executable, given to the program as `VERITY_EXE`.
    verity_exe: Option<PathBuf>,
}

impl std::fmt::Debug for CommandProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandProvider")
            .field("argv", &self.argv)
            .field("program", &self.program)
            .field("cwd", &self.cwd)
            .field(
                "env",
                &self.env.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
            )
            .field("timeout", &self.timeout)
            .field("model", &self.model)
            .finish()
    }
}

impl CommandProvider {
    /// The options this provider understands.
    pub const OPTIONS: &'static [&'static str] = &["command", "cwd", "env", "timeout_s"];

    /// Builds the provider a spec of kind `command` names; `env` is the environment the
    /// program is looked up in (`PATH`) when `options.env` does not set `PATH`.
    pub fn from_spec(
        spec: &ProviderSpec,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<CommandProvider, ProviderError> {
        let kind = spec.kind.as_str();
        let options = Options::new(spec, Self::OPTIONS)?;
        let argv = match spec.options.get("command") {
            None => return Err(config_error(kind, "`options.command` is required")),
            Some(Value::String(line)) => split_command(line)
                .map_err(|e| config_error(kind, format!("`options.command`: {}", e)))?,
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    config_error(
                        kind,
                        "`options.command` must be a string or a list of strings",
                    )
                })?,
            Some(_) => {
                return Err(config_error(
                    kind,
                    "`options.command` must be a string or a list of strings",
                ));
            }
        };
        if argv.first().is_none_or(|p| p.trim().is_empty()) {
            return Err(config_error(kind, "`options.command` names no program"));
        }
        if argv.iter().any(|a| a.contains('\0')) {
            return Err(config_error(
                kind,
                "`options.command` contains a NUL character",
            ));
        }

        let cwd = match spec.options.get("cwd") {
            None => None,
            Some(Value::String(dir)) if !dir.is_empty() => {
                let dir = PathBuf::from(dir);
                if !dir.is_dir() {
                    return Err(config_error(
                        kind,
                        format!("`options.cwd` {} is not a directory", dir.display()),
                    ));
                }
                Some(dir)
            }
            Some(_) => return Err(config_error(kind, "`options.cwd` must be a path")),
        };

        let mut child_env = Vec::new();
        for (name, value) in options.object("env")?.into_iter().flatten() {
            if name.is_empty() || name.contains(['=', '\0']) {
                return Err(config_error(
                    kind,
                    format!("`options.env`: `{}` is not a variable name", name),
                ));
            }
            let value = match value {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => {
                    return Err(config_error(
                        kind,
                        format!("`options.env.{}` must be a string, number or boolean", name),
                    ));
                }
            };
            if value.contains('\0') {
                return Err(config_error(
                    kind,
                    format!("`options.env.{}` contains a NUL character", name),
                ));
            }
            child_env.push((name.clone(), value));
        }

        let timeout = options
            .duration("timeout_s", 1.0, true)?
            .unwrap_or(DEFAULT_TIMEOUT);

        let path_var = child_env
            .iter()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v.clone())
            .or_else(|| env("PATH"));
        let program = resolve_program(&argv[0], cwd.as_deref(), path_var.as_deref())
            .map_err(|e| config_error(kind, e))?;

        let model = match spec.model.as_deref().map(str::trim) {
            Some(m) if !m.is_empty() => m.to_owned(),
            Some(_) => return Err(config_error(kind, "`model` is empty")),
            None => Path::new(&argv[0])
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| argv[0].clone()),
        };
        // Shown in errors, observations and reports: a URL in an argument loses its
        // credentials (the program still gets them).
        let command_line = verity_model::redact_urls(
            &argv
                .iter()
                .map(|a| shell_quote(a))
                .collect::<Vec<_>>()
                .join(" "),
        );
        let state_digest = state_digest(&argv, &program, cwd.as_deref(), &child_env);
        Ok(CommandProvider {
            argv,
            program,
            cwd,
            env: child_env,
            timeout,
            model,
            command_line,
            state_digest,
            verity_exe: std::env::current_exe().ok(),
        })
    }

    fn error(&self, kind: ProviderErrorKind, detail: impl std::fmt::Display) -> ProviderError {
        let mut message = format!("command `{}`: {}", self.command_line, detail);
        for (_, value) in &self.env {
            // Values of a few characters would scrub innocent text; those are not secrets.
            if value.len() >= 8 {
                message = message.replace(value.as_str(), "[redacted]");
            }
        }
        ProviderError::new(kind, message)
    }

    fn input(&self, req: &GenerateRequest) -> Result<Vec<u8>, ProviderError> {
        let task = &req.task;
        let input = match &task.input {
            Input::Prompt(p) => json!(p),
            Input::Messages(ms) => json!(ms),
        };
        let request = WireRequest {
            sample: &req.sample,
            model: &self.model,
            messages: &req.messages,
            params: &req.params,
            tools: &req.tools,
            task: json!({
                "id": task.id,
                "input": input,
                "target": task.target,
                "category": task.category,
                "metadata": task.metadata,
                "expect": task.expect,
            }),
        };
        let mut bytes = serde_json::to_vec(&request).map_err(|e| {
            self.error(
                ProviderErrorKind::Config,
                format!("cannot encode the request: {}", e),
            )
        })?;
        bytes.push(b'\n');
        Ok(bytes)
    }

    async fn call(&self, req: &GenerateRequest) -> Result<Generation, ProviderError> {
        let input = self.input(req)?;
        let mut spec = Spec::new(&self.program)
            .args(&self.argv[1..])
            .arg0(&self.argv[0]);
        if let Some(exe) = &self.verity_exe {
            spec = spec.env(VERITY_EXE, exe);
        }
        let mut spec = spec
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdin::Bytes(input))
            .stdout(Capture::UpTo(MAX_STDOUT))
            .stderr(Capture::Tail(STDERR_TAIL_BYTES))
            .timeout(self.timeout)
            .quote(STDERR_QUOTE);
        if let Some(dir) = &self.cwd {
            spec = spec.current_dir(dir);
        }
        let output = spec
            .run_async()
            .await
            .and_then(Output::into_result)
            .map_err(|e| self.process_error(e))?;
        parse_output(output.stdout.bytes)
            .map_err(|e| self.error(ProviderErrorKind::InvalidResponse, e))
    }

    /// A run that did not answer: not started or unreadable (a connection error), too slow (a
    /// timeout), or a failed program (an invalid response, which the runner retries).
    fn process_error(&self, e: ProcessError) -> ProviderError {
        match e {
            ProcessError::TimedOut { timeout, .. } => self.error(
                ProviderErrorKind::Timeout,
                format!(
                    "no answer within {:?}; the process group was killed",
                    timeout
                ),
            ),
            e @ (ProcessError::NotFound { .. }
            | ProcessError::PermissionDenied { .. }
            | ProcessError::Start { .. }
            | ProcessError::SandboxUnavailable { .. }
            | ProcessError::Io { .. }) => self.error(ProviderErrorKind::Connection, e),
            // The provider's program is the user's own and runs unsandboxed; a `Contained`
            // cannot come from it, and would be a failed program if it did.
            e @ (ProcessError::Exited { .. }
            | ProcessError::Signaled { .. }
            | ProcessError::Ended { .. }
            | ProcessError::Contained { .. }
            | ProcessError::OutputTooLarge { .. }) => {
                self.error(ProviderErrorKind::InvalidResponse, e)
            }
        }
    }
}

impl Provider for CommandProvider {
    /// The program's own `timeout_s` (default 60 s): a pipeline that legitimately runs for
    /// minutes says so once, in its options, and the run's per-call limit follows it.
    fn default_call_timeout(&self) -> Duration {
        self.timeout
    }

    fn kind(&self) -> &str {
        "command"
    }

    fn model(&self) -> &str {
        &self.model
    }

    fn endpoint(&self) -> String {
        self.command_line.clone()
    }

    /// The command line plus a digest of the working directory, the extra environment
    /// (values included, hashed), and the contents of the program and of every argument that
    /// names an existing file (`python pipeline.py`: the interpreter and the script). Editing
    /// the pipeline's code or settings therefore misses the cache; state the program reads on
    /// its own (other files, the network) is invisible to it: use `--cache refresh` or `off`.
    fn cache_identity(&self) -> String {
        format!("{} #{}", self.command_line, self.state_digest)
    }

    /// The program is given the task (target, metadata, expectations) and may answer from it.
    fn answer_depends_on_task(&self) -> bool {
        true
    }

    fn generate<'a>(
        &'a self,
        req: &'a GenerateRequest,
    ) -> BoxFuture<'a, Result<Generation, ProviderError>> {
        Box::pin(self.call(req))
    }
}

/// BLAKE3 over the protocol version, the working directory, the extra environment and the
/// contents of the program and of every argument naming an existing file (each part
/// length-prefixed).
fn state_digest(
    argv: &[String],
    program: &Path,
    cwd: Option<&Path>,
    env: &[(String, String)],
) -> String {
    let mut h = blake3::Hasher::new();
    let mut part = |b: &[u8]| {
        h.update(&(b.len() as u64).to_le_bytes());
        h.update(b);
    };
    let base = match cwd {
        Some(d) => d.to_path_buf(),
        None => std::env::current_dir().unwrap_or_default(),
    };
    let base = base.canonicalize().unwrap_or(base);
    part(PROTOCOL);
    part(base.as_os_str().as_encoded_bytes());
    let mut vars: Vec<&(String, String)> = env.iter().collect();
    vars.sort();
    for (k, v) in vars {
        part(k.as_bytes());
        part(v.as_bytes());
    }
    let files = std::iter::once(program.to_path_buf()).chain(
        argv.iter()
            .skip(1)
            .map(|a| base.join(a))
            .filter(|p| p.is_file()),
    );
    for f in files {
        part(f.as_os_str().as_encoded_bytes());
        match std::fs::read(&f) {
            Ok(bytes) => part(blake3::hash(&bytes).as_bytes()),
            Err(_) => part(b"unreadable"),
        }
    }
    h.finalize().to_hex()[..16].to_owned()
}

/// The JSON object a program reads.
#[derive(Serialize)]
struct WireRequest<'a> {
    sample: &'a SampleKey,
    model: &'a str,
    messages: &'a [ChatMessage],
    params: &'a GenParams,
    tools: &'a [Value],
    task: Value,
}

/// Reads what the program wrote; the error is a description for an `InvalidResponse`.
pub(crate) fn parse_output(stdout: Vec<u8>) -> Result<Generation, String> {
    let raw = String::from_utf8(stdout).map_err(|e| {
        format!(
            "standard output is not UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    // Only a JSON object with a string `text` or `output`, or with `artifacts`, is the
    // structured form.
    let object = raw
        .trim_start()
        .starts_with('{')
        .then(|| serde_json::from_str::<Value>(&raw).ok())
        .flatten()
        .filter(|v| {
            v.get("text").is_some_and(Value::is_string)
                || v.get("output").is_some_and(Value::is_string)
                || v.get("artifacts").is_some()
        });
    if let Some(Value::Object(object)) = object {
        let mut generation = structured(object)?;
        generation.raw = raw;
        return Ok(generation);
    }
    let text = raw
        .strip_suffix('\n')
        .map(|t| t.strip_suffix('\r').unwrap_or(t))
        .unwrap_or(&raw)
        .to_owned();
    Ok(Generation {
        text,
        tool_calls: Vec::new(),
        usage: Usage::default(),
        model: None,
        finish_reason: None,
        raw,
        artifacts: Vec::new(),
    })
}

/// The `{"text": …}` (or `{"output": …}`) form of an answer.
fn structured(mut object: Map<String, Value>) -> Result<Generation, String> {
    let (key, text) = match (object.remove("text"), object.remove("output")) {
        (Some(_), Some(_)) => {
            return Err(
                "the answer has both `text` and `output`: give one (they are synonyms)".into(),
            );
        }
        (Some(t), None) => ("text", t),
        (None, Some(o)) => ("output", o),
        (None, None) => {
            return Err("an answer with `artifacts` needs a string `output` (or `text`)".into());
        }
    };
    let text = match text {
        Value::String(s) => s,
        other => return Err(format!("`{}` must be a string, not `{}`", key, other)),
    };
    let artifacts = match object.remove("artifacts") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Object(stages)) => stages
            .into_iter()
            .map(|(name, value)| {
                if name.trim().is_empty() {
                    Err("`artifacts` has a stage with an empty name".to_owned())
                } else {
                    Ok(Artifact::new(name, value))
                }
            })
            .collect::<Result<_, String>>()?,
        Some(other) => {
            return Err(format!(
                "`artifacts` must be an object of named stage results \
                 ({{\"api_ir\": …, \"ui_plan\": …}}), not `{}`",
                short(&other)
            ));
        }
    };
    let tool_calls = match object.remove("tool_calls") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(calls)) => calls
            .into_iter()
            .map(|call| {
                let name = call.get("name").and_then(Value::as_str).ok_or_else(|| {
                    format!("each of `tool_calls` needs a string `name`: {}", call)
                })?;
                let id = match call.get("id") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(id)) => Some(id.clone()),
                    Some(other) => return Err(format!("a tool call `id` is `{}`", other)),
                };
                Ok(ToolCall {
                    id,
                    name: name.to_owned(),
                    arguments: call.get("arguments").cloned().unwrap_or(json!({})),
                    result: None,
                    error: None,
                })
            })
            .collect::<Result<_, String>>()?,
        Some(other) => return Err(format!("`tool_calls` must be a list, not `{}`", other)),
    };
    let usage = match object.remove("usage") {
        None | Some(Value::Null) => Usage::default(),
        Some(Value::Object(u)) => {
            let count = |key: &str| match u.get(key) {
                None | Some(Value::Null) => Ok(0),
                Some(v) => v
                    .as_u64()
                    .ok_or_else(|| format!("`usage.{}` must be a whole number, not `{}`", key, v)),
            };
            Usage {
                input_tokens: count("input_tokens")?,
                output_tokens: count("output_tokens")?,
            }
        }
        Some(other) => return Err(format!("`usage` must be an object, not `{}`", other)),
    };
    let string = |object: &mut Map<String, Value>, key: &str| match object.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(format!("`{}` must be a string, not `{}`", key, other)),
    };
    let model = string(&mut object, "model")?;
    let finish_reason = string(&mut object, "finish_reason")?;
    Ok(Generation {
        text,
        tool_calls,
        usage,
        model,
        finish_reason,
        raw: String::new(),
        artifacts,
    })
}

/// A value for an error message, cut to a readable length.
fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 80 {
        return text;
    }
    let cut: String = text.chars().take(80).collect();
    format!("{cut}…")
}

/// Splits a command line into words the way a POSIX shell would, without any expansion.
pub(crate) fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a single quote is not closed".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("a double quote is not closed".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("a double quote is not closed".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => {
                    in_word = true;
                    word.push(c);
                }
                None => return Err("the line ends with a lone backslash".into()),
            },
            '|' | '&' | ';' | '<' | '>' | '(' | ')' | '`' | '$' => {
                return Err(format!(
                    "`{}` needs a shell, and verity runs the program directly: quote it, or \
                     use [\"sh\", \"-c\", \"…\"]",
                    c
                ));
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// A word as a POSIX shell would read it back: bare when it is plainly safe, else single-quoted.
fn shell_quote(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c));
    if safe {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Finds the program: a path (relative to `cwd`, else to the current directory) or a name on
/// `path_var`.
fn resolve_program(
    program: &str,
    cwd: Option<&Path>,
    path_var: Option<&str>,
) -> Result<PathBuf, String> {
    if program.contains('/') {
        let path = Path::new(program);
        let path = if path.is_absolute() {
            path.to_path_buf()
        } else {
            let base = match cwd {
                Some(dir) => dir.to_path_buf(),
                None => PathBuf::from("."),
            };
            let joined = base.join(path);
            std::path::absolute(&joined).unwrap_or(joined)
        };
        return match executable(&path) {
            Ok(()) => Ok(path),
            Err(why) => Err(format!("the program {} {}", path.display(), why)),
        };
    }
    let Some(path_var) = path_var else {
        return Err(format!(
            "`{}` cannot be looked up: PATH is not set",
            program
        ));
    };
    for dir in std::env::split_paths(path_var) {
        // An empty entry means the current directory, as in a shell.
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        let candidate = dir.join(program);
        if executable(&candidate).is_ok() {
            return Ok(std::path::absolute(&candidate).unwrap_or(candidate));
        }
    }
    Err(format!("`{}` was not found on PATH", program))
}

/// Whether `path` is a file this process may execute; the error says why not.
fn executable(path: &Path) -> Result<(), &'static str> {
    let meta = std::fs::metadata(path).map_err(|_| "does not exist")?;
    if !meta.is_file() {
        return Err("is not a file");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        if meta.permissions().mode() & 0o111 == 0 {
            return Err("is not executable");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell_without_expansion() {
        let ok = |line: &str| split_command(line).unwrap();
        assert_eq!(ok("prog a  b\tc"), ["prog", "a", "b", "c"]);
        assert_eq!(
            ok("  python3 'my script.py' --x=1 "),
            ["python3", "my script.py", "--x=1"]
        );
        assert_eq!(
            ok(r#"echo "a \"b\" \\ \$HOME \n" 'it''s'"#),
            ["echo", r#"a "b" \ $HOME \n"#, "its"]
        );
        assert_eq!(ok(r"a\ b c\\d"), ["a b", r"c\d"]);
        assert_eq!(ok("a \"\" ''"), ["a", "", ""]);
        assert_eq!(ok("x'y'\"z\""), ["xyz"]);
        assert_eq!(ok("a \\\nb"), ["a", "b"]);
        assert_eq!(ok("'a | b' \"$x\""), ["a | b", "$x"]);
        assert!(ok("   ").is_empty());
        for (bad, needle) in [
            ("echo 'open", "single quote"),
            ("echo \"open", "double quote"),
            ("echo \"open\\", "double quote"),
            ("echo \\", "backslash"),
            ("a | b", "`|` needs a shell"),
            ("a && b", "`&`"),
            ("a > out", "`>`"),
            ("echo $HOME", "`$`"),
            ("a; b", "`;`"),
        ] {
            let err = split_command(bad).unwrap_err();
            assert!(err.contains(needle), "{bad:?}: {err}");
        }
    }

    #[test]
    fn quoting_round_trips() {
        for words in [
            vec!["prog", "a b", "it's", "", "--x=1", "ünï"],
            vec!["/usr/bin/env", "python3", "-c", "print('hi')"],
        ] {
            let line = words.iter().map(|w| shell_quote(w)).collect::<Vec<_>>();
            let line = line.join(" ");
            assert_eq!(split_command(&line).unwrap(), words, "{line}");
        }
        assert_eq!(shell_quote("a/b.c-d"), "a/b.c-d");
        assert_eq!(shell_quote("a b"), "'a b'");
    }

    #[test]
    fn output_forms() {
        let out = |s: &str| parse_output(s.as_bytes().to_vec());
        let g = out("42\n").unwrap();
        assert_eq!((g.text.as_str(), g.raw.as_str()), ("42", "42\n"));
        assert_eq!(out("a\n\n").unwrap().text, "a\n");
        assert_eq!(out("a\r\n").unwrap().text, "a");
        assert_eq!(out("no newline").unwrap().text, "no newline");
        assert_eq!(out("").unwrap().text, "");
        // JSON of another shape is an answer like any other.
        assert_eq!(out("{\"answer\": 5}\n").unwrap().text, "{\"answer\": 5}");
        assert_eq!(out("{\"text\": 5}").unwrap().text, "{\"text\": 5}");
        assert_eq!(out("[1]").unwrap().text, "[1]");
        assert_eq!(out("{not json").unwrap().text, "{not json");

        let g = out(
            r#" {"text": "hi", "tool_calls": [{"id": "c1", "name": "f", "arguments": {"a": 1}},
                {"name": "g"}], "usage": {"input_tokens": 3, "output_tokens": null},
                "model": "m", "finish_reason": "stop", "extra": true}"#,
        )
        .unwrap();
        assert_eq!(g.text, "hi");
        assert_eq!(g.tool_calls.len(), 2);
        assert_eq!(g.tool_calls[0].id.as_deref(), Some("c1"));
        assert_eq!(g.tool_calls[1].arguments, json!({}));
        assert_eq!(
            g.usage,
            Usage {
                input_tokens: 3,
                output_tokens: 0
            }
        );
        assert_eq!(g.model.as_deref(), Some("m"));
        assert_eq!(g.finish_reason.as_deref(), Some("stop"));
        assert!(g.raw.contains("\"extra\""));

        for (bad, needle) in [
            (
                r#"{"text": "", "tool_calls": {}}"#,
                "`tool_calls` must be a list",
            ),
            (
                r#"{"text": "", "tool_calls": [{"id": 1, "name": "f"}]}"#,
                "`id`",
            ),
            (r#"{"text": "", "tool_calls": [{}]}"#, "string `name`"),
            (r#"{"text": "", "usage": 3}"#, "`usage` must be an object"),
            (
                r#"{"text": "", "usage": {"input_tokens": -1}}"#,
                "usage.input_tokens",
            ),
            (r#"{"text": "", "model": 1}"#, "`model` must be a string"),
            (r#"{"text": "", "finish_reason": []}"#, "`finish_reason`"),
        ] {
            let err = out(bad).unwrap_err();
            assert!(err.contains(needle), "{bad}: {err}");
        }
        let err = parse_output(vec![b'o', b'k', 0xff]).unwrap_err();
        assert!(
            err.contains("not UTF-8") && err.contains("offset 2"),
            "{err}"
        );
    }

    #[test]
    fn output_is_a_synonym_of_text_and_artifacts_are_hashed_in_order() {
        let out = |s: &str| parse_output(s.as_bytes().to_vec());
        assert_eq!(out(r#"{"output": "ok"}"#).unwrap().text, "ok");
        assert_eq!(out(r#"{"text": "ok"}"#).unwrap().text, "ok");
        assert!(out(r#"{"output": "ok"}"#).unwrap().artifacts.is_empty());

        let g = out(
            r#"{"output": "{\"users\": {}}", "artifacts": {"api_ir": {"b": 1, "a": [1, 2]},
               "ui_plan": {"views": ["table"]}, "note": "text"}, "usage": {"input_tokens": 2}}"#,
        )
        .unwrap();
        assert_eq!(g.text, r#"{"users": {}}"#);
        assert_eq!(g.usage.input_tokens, 2);
        let names: Vec<&str> = g.artifacts.iter().map(|a| a.name.as_str()).collect();
        // The order the stages ran, not sorted.
        assert_eq!(names, ["api_ir", "ui_plan", "note"]);
        assert_eq!(g.artifacts[0].value, Some(json!({"b": 1, "a": [1, 2]})));
        assert_eq!(
            g.artifacts[0].hash,
            blake3::hash(br#"{"a":[1,2],"b":1}"#).to_hex().to_string()
        );
        assert_eq!(
            g.artifacts[2].hash,
            blake3::hash(b"text").to_hex().to_string()
        );
        assert!(g.raw.contains("\"artifacts\""));

        // Key order does not change a hash; a value does.
        let hash = |s: &str| out(s).unwrap().artifacts[0].hash.clone();
        let base =
            hash(r#"{"output": "", "artifacts": {"s": {"x": 1, "y": {"p": true, "q": null}}}}"#);
        assert_eq!(
            hash(r#"{"artifacts": {"s": {"y": {"q": null, "p": true}, "x": 1}}, "text": "z"}"#),
            base
        );
        assert_ne!(
            hash(r#"{"output": "", "artifacts": {"s": {"x": 2, "y": {"p": true, "q": null}}}}"#),
            base
        );
        assert_ne!(
            hash(r#"{"output": "", "artifacts": {"s": {"x": 1, "y": {"p": false, "q": null}}}}"#),
            base
        );

        for (bad, needle) in [
            (
                r#"{"text": "a", "output": "b"}"#,
                "both `text` and `output`",
            ),
            (r#"{"output": "a", "text": 1}"#, "both `text` and `output`"),
            (
                r#"{"output": "a", "artifacts": ["api_ir"]}"#,
                "`artifacts` must be an object of named stage results",
            ),
            (
                r#"{"output": "a", "artifacts": "api_ir"}"#,
                "not `\"api_ir\"`",
            ),
            (r#"{"output": "a", "artifacts": {"": 1}}"#, "an empty name"),
            (
                r#"{"output": 5, "artifacts": {}}"#,
                "`output` must be a string, not `5`",
            ),
            (
                r#"{"artifacts": {"a": 1}}"#,
                "needs a string `output` (or `text`)",
            ),
        ] {
            let err = out(bad).unwrap_err();
            assert!(err.contains(needle), "{bad}: {err}");
        }
        // Without `artifacts`, JSON whose `output` is not a string is an answer like any other.
        assert_eq!(out(r#"{"output": 5}"#).unwrap().text, r#"{"output": 5}"#);
    }
}
