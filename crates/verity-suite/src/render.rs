//! Prompt templates: what one sample sends to the model.
//!
//! A variant's `prompt` template replaces the task's last user message (or its prompt) and its
//! `system` template becomes a leading system message. Templates are minijinja; they see
//!
//! | name       | value                                                    |
//! |------------|----------------------------------------------------------|
//! | `prompt`   | the task's prompt, or the text of its last user message  |
//! | `id`       | the task id                                              |
//! | `category` | the task's category, or none                             |
//! | `target`   | the task's targets (a list)                              |
//! | `metadata` | the task's metadata (a map)                              |
//! | `expect`   | the task's expectations (a map)                          |
//! | `variant`  | the variant's name                                       |
//! | `messages` | the task's messages, each with `role` and `content`      |
//!
//! Printing or iterating an undefined value is an error; testing one (`{% if metadata.hint %}`)
//! is allowed and false.
//!
//! Every render has a budget: at most [`RENDER_FUEL`] template instructions (minijinja's fuel:
//! a deterministic stand-in for time, the same on every machine) and [`RENDER_MAX_OUTPUT`]
//! bytes of output. A template over budget fails like any other template error, so `verity
//! validate`'s trial renders catch it before a run, and a run never waits on one.
//!
//! [`Renderer`] compiles a suite's templates once and is meant to be built once per run and
//! shared (it is `Send + Sync`); [`messages`] is the one-off form.

use std::collections::HashSet;

use minijinja::{AutoEscape, Environment, UndefinedBehavior, Value};
use verity_model::{ChatMessage, Input, PromptTemplate, Role, Suite, Task, Variant};

/// A template that does not compile.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("template `{origin}`{}: {message}", line.map(|l| format!(" line {l}")).unwrap_or_default())]
pub struct TemplateError {
    /// The template's path inside the suite, or `inline`.
    pub origin: String,
    pub line: Option<usize>,
    pub message: String,
}

/// Template instructions one render may execute. A prompt template takes tens to thousands;
/// this allows loops over tens of thousands of items and stops runaway ones (nested loops of
/// 10,000) in well under a second.
pub const RENDER_FUEL: u64 = 5_000_000;

/// Bytes one render may produce: more than any model's context window holds.
pub const RENDER_MAX_OUTPUT: usize = 8 << 20;

/// minijinja's error without the `(in name:line)` suffix, which names the template by hash.
pub(crate) fn describe(e: &minijinja::Error) -> String {
    use minijinja::ErrorKind;
    match e.kind() {
        ErrorKind::OutOfFuel => format!(
            "render budget exceeded: more than {RENDER_FUEL} template instructions (is a loop too long?)"
        ),
        // The only writer that fails is the one enforcing the output budget.
        ErrorKind::WriteFailure => format!(
            "render budget exceeded: the output is larger than {} MiB",
            RENDER_MAX_OUTPUT >> 20
        ),
        _ => match e.detail() {
            Some(d) => format!("{}: {d}", e.kind()),
            None => e.kind().to_string(),
        },
    }
}

/// Whether a render failed on its budget (see the module docs).
pub(crate) fn is_over_budget(e: &minijinja::Error) -> bool {
    matches!(
        e.kind(),
        minijinja::ErrorKind::OutOfFuel | minijinja::ErrorKind::WriteFailure
    )
}

/// Collects a render's output, failing once it would pass [`RENDER_MAX_OUTPUT`].
struct CappedOutput(Vec<u8>);

impl std::io::Write for CappedOutput {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.0.len().saturating_add(buf.len()) > RENDER_MAX_OUTPUT {
            return Err(std::io::Error::other("render output budget exceeded"));
        }
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A suite's templates, compiled once.
pub struct Renderer {
    env: Environment<'static>,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer")
            .field("templates", &self.env.templates().count())
            .finish()
    }
}

fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::SemiStrict);
    env.set_auto_escape_callback(|_| AutoEscape::None);
    env.set_fuel(Some(RENDER_FUEL));
    env
}

impl Renderer {
    /// Compiles every template of every variant; fails on the first that does not compile.
    pub fn new(suite: &Suite) -> Result<Renderer, TemplateError> {
        let (renderer, errors) = Renderer::build(&suite.variants);
        match errors.into_iter().next() {
            Some((tpl, e)) => Err(TemplateError {
                origin: tpl.origin,
                line: e.line(),
                message: describe(&e),
            }),
            None => Ok(renderer),
        }
    }

    /// Compiles what it can, returning every template that failed alongside.
    pub(crate) fn build(
        variants: &[Variant],
    ) -> (Renderer, Vec<(PromptTemplate, minijinja::Error)>) {
        let mut env = environment();
        let mut errors = Vec::new();
        let mut seen = HashSet::new();
        for tpl in variants
            .iter()
            .flat_map(|v| [&v.prompt, &v.system])
            .flatten()
        {
            if seen.insert(tpl.hash.clone())
                && let Err(e) = env.add_template_owned(tpl.hash.clone(), tpl.source.clone())
            {
                errors.push((tpl.clone(), e));
            }
        }
        (Renderer { env }, errors)
    }

    /// The messages one sample of `task` under `variant` sends (see the module docs).
    pub fn messages(&self, task: &Task, variant: &Variant) -> Result<Vec<ChatMessage>, String> {
        self.try_messages(task, variant).map_err(|(tpl, e)| {
            let line = e.line().map(|l| format!(" line {l}")).unwrap_or_default();
            format!("template `{}`{line}: {}", tpl.origin, describe(&e))
        })
    }

    pub(crate) fn try_messages<'v>(
        &self,
        task: &Task,
        variant: &'v Variant,
    ) -> Result<Vec<ChatMessage>, (&'v PromptTemplate, minijinja::Error)> {
        let mut msgs = match &task.input {
            Input::Prompt(p) => vec![ChatMessage::new(Role::User, p.clone())],
            Input::Messages(ms) => ms.clone(),
        };
        if variant.prompt.is_none() && variant.system.is_none() {
            return Ok(msgs);
        }
        let ctx = context(task, variant);
        if let Some(tpl) = &variant.prompt {
            let text = self.render(tpl, &ctx).map_err(|e| (tpl, e))?;
            match msgs.iter().rposition(|m| m.role == Role::User) {
                Some(i) => msgs[i].content = text,
                None => msgs.push(ChatMessage::new(Role::User, text)),
            }
        }
        if let Some(tpl) = &variant.system {
            let text = self.render(tpl, &ctx).map_err(|e| (tpl, e))?;
            msgs.insert(0, ChatMessage::new(Role::System, text));
        }
        Ok(msgs)
    }

    /// Renders within the budget (see the module docs).
    fn render(&self, tpl: &PromptTemplate, ctx: &Value) -> Result<String, minijinja::Error> {
        let t = match self.env.get_template(&tpl.hash) {
            Ok(t) => t,
            // A variant built after the renderer (say, from CLI overrides): compile it now.
            Err(_) => self.env.template_from_named_str(&tpl.origin, &tpl.source)?,
        };
        let mut out = CappedOutput(Vec::new());
        t.render_captured_to(ctx, &mut out)?;
        Ok(String::from_utf8(out.0)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
    }
}

/// The messages one sample sends, compiling the variant's templates on the spot. Prefer a
/// [`Renderer`] when rendering many samples.
pub fn messages(task: &Task, variant: &Variant) -> Result<Vec<ChatMessage>, String> {
    let (renderer, errors) = Renderer::build(std::slice::from_ref(variant));
    if let Some((tpl, e)) = errors.into_iter().next() {
        let line = e.line().map(|l| format!(" line {l}")).unwrap_or_default();
        return Err(format!("template `{}`{line}: {}", tpl.origin, describe(&e)));
    }
    renderer.messages(task, variant)
}

/// The names a `[servers.NAME] arguments` template may use (see [`render_arguments`]).
pub const ARGUMENT_NAMES: &[&str] = &["query", "k", "task", "variant"];

/// Compiles one string of a server's `arguments` as a template (at load time), returning the
/// top-level names it uses that [`ARGUMENT_NAMES`] does not offer.
pub(crate) fn check_argument_template(src: &str) -> Result<Vec<String>, minijinja::Error> {
    let env = environment();
    let tpl = env.template_from_str(src)?;
    let mut unknown: Vec<String> = tpl
        .undeclared_variables(false)
        .into_iter()
        .filter(|n| !ARGUMENT_NAMES.contains(&n.as_str()))
        .collect();
    unknown.sort();
    Ok(unknown)
}

/// The context of a server's `arguments` templates for one grounded sample: `query` (the
/// search text: the task's prompt, or the text of its last user message), `k` (the variant's
/// `k`), `task` (`id`, `category`, `metadata`, `target`, `input`: the prompt text) and
/// `variant` (`name`, `model`).
pub fn argument_context(query: &str, k: u32, task: &Task, variant: &Variant) -> Value {
    Value::from_pairs([
        ("query", Value::from(query)),
        ("k", Value::from(k)),
        (
            "task",
            Value::from_pairs([
                ("id", Value::from(task.id.as_str())),
                ("category", category_value(task)),
                ("metadata", json_map(&task.metadata)),
                ("target", target_value(task)),
                ("input", Value::from(task.input.prompt_text())),
            ]),
        ),
        (
            "variant",
            Value::from_pairs([
                ("name", Value::from(variant.name.as_str())),
                (
                    "model",
                    variant
                        .provider
                        .model
                        .as_deref()
                        .map_or(Value::from(()), Value::from),
                ),
            ]),
        ),
    ])
}

/// A server's `arguments` with every string inside (at any depth; keys stay as written)
/// rendered as a template over `ctx` ([`argument_context`]), each within the render budget.
/// Other values are kept as they are. The error names the argument and says what failed.
pub fn render_arguments(
    arguments: &serde_json::Map<String, serde_json::Value>,
    ctx: &Value,
) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    let env = environment();
    let mut out = serde_json::Map::new();
    for (name, value) in arguments {
        let v = render_json(&env, value, ctx)
            .map_err(|e| format!("argument `{name}`: {}", describe(&e)))?;
        out.insert(name.clone(), v);
    }
    Ok(out)
}

fn render_json(
    env: &Environment<'static>,
    value: &serde_json::Value,
    ctx: &Value,
) -> Result<serde_json::Value, minijinja::Error> {
    use serde_json::Value as J;
    Ok(match value {
        J::String(src) => {
            let tpl = env.template_from_str(src)?;
            let mut out = CappedOutput(Vec::new());
            tpl.render_captured_to(ctx, &mut out)?;
            J::String(
                String::from_utf8(out.0)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            )
        }
        J::Array(items) => J::Array(
            items
                .iter()
                .map(|i| render_json(env, i, ctx))
                .collect::<Result<_, _>>()?,
        ),
        J::Object(m) => J::Object(
            m.iter()
                .map(|(k, v)| Ok((k.clone(), render_json(env, v, ctx)?)))
                .collect::<Result<_, minijinja::Error>>()?,
        ),
        other => other.clone(),
    })
}

/// The template context of one sample.
fn context(task: &Task, variant: &Variant) -> Value {
    let messages: Vec<Value> = match &task.input {
        Input::Prompt(p) => vec![message_value(Role::User, p)],
        Input::Messages(ms) => ms
            .iter()
            .map(|m| message_value(m.role, &m.content))
            .collect(),
    };
    Value::from_pairs([
        ("prompt", Value::from(task.input.prompt_text())),
        ("id", Value::from(task.id.as_str())),
        ("category", category_value(task)),
        ("target", target_value(task)),
        ("metadata", json_map(&task.metadata)),
        ("expect", json_map(&task.expect)),
        ("variant", Value::from(variant.name.as_str())),
        ("messages", Value::from(messages)),
    ])
}

/// A task's category for templates (`none` when it has none).
fn category_value(task: &Task) -> Value {
    task.category
        .as_deref()
        .map_or(Value::from(()), Value::from)
}

/// A task's targets for templates, as a list.
fn target_value(task: &Task) -> Value {
    task.target
        .iter()
        .map(String::as_str)
        .map(Value::from)
        .collect()
}

fn message_value(role: Role, content: &str) -> Value {
    Value::from_pairs([
        ("role", Value::from(role.as_str())),
        ("content", Value::from(content)),
    ])
}

fn json_map(m: &serde_json::Map<String, serde_json::Value>) -> Value {
    Value::from_pairs(m.iter().map(|(k, v)| (k.as_str(), json_value(v))))
}

fn json_value(v: &serde_json::Value) -> Value {
    use serde_json::Value as J;
    match v {
        J::Null => Value::from(()),
        J::Bool(b) => Value::from(*b),
        J::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Value::from(i),
            (_, Some(u)) => Value::from(u),
            _ => Value::from(n.as_f64().unwrap_or(f64::NAN)),
        },
        J::String(s) => Value::from(s.as_str()),
        J::Array(items) => items.iter().map(json_value).collect::<Value>(),
        J::Object(m) => json_map(m),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use verity_model::ProviderSpec;

    use super::*;

    fn tpl(src: &str, origin: &str) -> PromptTemplate {
        PromptTemplate {
            source: src.to_owned(),
            origin: origin.to_owned(),
            hash: blake3::hash(src.as_bytes()).to_hex().to_string(),
        }
    }

    fn variant(prompt: Option<&str>, system: Option<&str>) -> Variant {
        Variant {
            name: "v1".into(),
            provider: ProviderSpec {
                kind: "mock".into(),
                ..Default::default()
            },
            params: Default::default(),
            prompt: prompt.map(|p| tpl(p, "prompts/p.j2")),
            system: system.map(|s| tpl(s, "inline")),
            grounding: None,
        }
    }

    fn task() -> Task {
        let mut t = Task::prompt("t1", "What is 2+2?");
        t.category = Some("arithmetic".into());
        t.target = vec!["4".into(), "four".into()];
        t.metadata.insert(
            "hint".into(),
            json!({"level": 2, "tags": ["easy", true, null, 1.5]}),
        );
        t
    }

    #[test]
    fn without_templates_the_input_goes_as_is() {
        let v = variant(None, None);
        assert_eq!(
            messages(&task(), &v).unwrap(),
            vec![ChatMessage::new(Role::User, "What is 2+2?")]
        );
        let mut t = task();
        let convo = vec![
            ChatMessage::new(Role::System, "s"),
            ChatMessage::new(Role::User, "u"),
        ];
        t.input = Input::Messages(convo.clone());
        assert_eq!(messages(&t, &v).unwrap(), convo);
    }

    #[test]
    fn templates_see_the_whole_context() {
        let v = variant(
            Some(
                "[{{ variant }}/{{ id }}/{{ category }}] {{ prompt }} ({{ target|join(',') }}) h={{ metadata.hint.level }} {{ metadata.hint.tags|length }} {{ messages[0].role }}\n",
            ),
            Some("Answer {{ category|upper }} questions."),
        );
        let got = messages(&task(), &v).unwrap();
        assert_eq!(
            got,
            vec![
                ChatMessage::new(Role::System, "Answer ARITHMETIC questions."),
                ChatMessage::new(
                    Role::User,
                    "[v1/t1/arithmetic] What is 2+2? (4,four) h=2 4 user"
                ),
            ]
        );
    }

    #[test]
    fn prompt_template_replaces_the_last_user_message() {
        let mut t = task();
        t.input = Input::Messages(vec![
            ChatMessage::new(Role::User, "first"),
            ChatMessage::new(Role::Assistant, "ok"),
            ChatMessage::new(Role::User, "second"),
        ]);
        let v = variant(Some("<{{ prompt }}> of {{ messages|length }}"), None);
        let got = messages(&t, &v).unwrap();
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].content, "first");
        assert_eq!(got[2].content, "<second> of 3");
        t.input = Input::Messages(vec![ChatMessage::new(Role::Assistant, "only")]);
        let got = messages(&t, &v).unwrap();
        assert_eq!(got[1], ChatMessage::new(Role::User, "<> of 1"));
    }

    #[test]
    fn undefined_values_are_errors_but_tests_are_not() {
        let v = variant(Some("{{ metadata.missing }}"), None);
        let err = messages(&task(), &v).unwrap_err();
        assert!(
            err.contains("prompts/p.j2") && err.contains("undefined"),
            "{err}"
        );
        let v = variant(
            Some("{% if metadata.missing %}x{% else %}y{% endif %}"),
            None,
        );
        assert_eq!(messages(&task(), &v).unwrap()[0].content, "y");
        let v = variant(Some("{{ nope }}"), None);
        assert!(messages(&task(), &v).is_err());
    }

    /// Runaway templates stop at the budget, fast, with a message that says so; templates
    /// under it are untouched.
    #[test]
    fn renders_stop_at_the_budget() {
        let nested =
            "{% for i in range(10000) %}{% for j in range(10000) %}{{ i }}{% endfor %}{% endfor %}";
        let start = std::time::Instant::now();
        let err = messages(&task(), &variant(Some(nested), None)).unwrap_err();
        let took = start.elapsed();
        assert!(
            err.contains("render budget exceeded: more than 5000000 template instructions"),
            "{err}"
        );
        assert!(took.as_secs_f64() < 5.0, "took {took:?}");
        eprintln!("fuel ran out after {took:?}");

        // Few instructions, much output: `x` repeated is one value.
        let wide = "{% for i in range(100) %}{{ 'x' * 1000000 }}{% endfor %}";
        let err = messages(&task(), &variant(Some(wide), None)).unwrap_err();
        assert!(
            err.contains("render budget exceeded: the output is larger than 8 MiB"),
            "{err}"
        );
        let under = format!("{{{{ 'x' * {} }}}}", RENDER_MAX_OUTPUT);
        let got = messages(&task(), &variant(Some(&under), None)).unwrap();
        assert_eq!(got[0].content.len(), RENDER_MAX_OUTPUT);
        let over = format!("{{{{ 'x' * {} }}}}", RENDER_MAX_OUTPUT + 1);
        assert!(messages(&task(), &variant(Some(&over), None)).is_err());

        // Ten thousand items, a few instructions each, are well within the budget.
        let many = "{% for i in range(10000) %}{{ i }},{% endfor %}";
        assert!(messages(&task(), &variant(Some(many), None)).is_ok());
    }

    #[test]
    fn renderer_compiles_once_and_reports_syntax_errors() {
        let good = variant(Some("Q: {{ prompt }}"), None);
        let suite = Suite {
            quick: Vec::new(),
            perturb: None,
            run: Default::default(),
            name: "s".into(),
            description: None,
            tasks: vec![task()],
            variants: vec![good.clone()],
            scorers: vec![],
            outcome: Default::default(),
            epochs: 1,
            coverage: Default::default(),
            servers: Default::default(),
            compare: vec![],
            gates: vec![],
            report: Default::default(),
            content_hash: String::new(),
        };
        let r = Renderer::new(&suite).unwrap();
        assert_eq!(
            r.messages(&task(), &good).unwrap()[0].content,
            "Q: What is 2+2?"
        );
        // A variant the renderer has not seen still renders.
        let other = variant(Some("other {{ id }}"), None);
        assert_eq!(r.messages(&task(), &other).unwrap()[0].content, "other t1");
        let mut broken = suite.clone();
        broken.variants = vec![variant(Some("line one\n{{ prompt "), None)];
        let e = Renderer::new(&broken).unwrap_err();
        assert_eq!(e.origin, "prompts/p.j2");
        assert_eq!(e.line, Some(2));
        assert!(
            e.to_string()
                .starts_with("template `prompts/p.j2` line 2: syntax error"),
            "{e}"
        );
        assert!(messages(&task(), &broken.variants[0]).is_err());
    }
}
