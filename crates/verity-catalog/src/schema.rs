//! The `json-schema` scorer's options (seed 004, validity): the JSON Schema an answer must
//! satisfy, how it is compiled, and the declared integrity rules checked on the parsed answer.
//!
//! The check of a suite and the scorer compile the schema and parse the rules the same way,
//! here, so a schema the validator rejects or a rule that does not parse is a suite diagnostic
//! and never a surprise during a run.
//!
//! # The schema
//!
//! `schema` in suite.toml names a JSON file (relative to the suite directory); the suite loader
//! reads it and puts the document itself in the options (`schema`), the path as written in
//! `schema_file` and the BLAKE3 of its [`verity_model::canonical_json`] in `schema_hash`, so a run's stored
//! suite can be rescored without the file. The draft is the one the schema's `$schema` names,
//! else the `draft` option (`"2020-12"`, the default, or `"7"`).
//!
//! # Integrity rules
//!
//! `[[scorers.rules]]` entries, each one check on the parsed answer:
//!
//! * `each = PATH` and `in = PATH`: every value `each` selects equals (as JSON) some value `in`
//!   selects;
//! * `unique = PATH`: the values selected are pairwise different;
//! * `exists = PATH`: the path selects at least one value;
//! * `count = PATH` with `min` and/or `max`: how many values it selects;
//! * `command = ["prog", "arg", …]`: the user's program gets the answer's JSON on standard input;
//!   exit status 0 passes, anything else fails with the end of its standard error. It runs in
//!   the suite directory (`dir` to change it), under a timeout (`timeout`, seconds, default 10).
//!
//! Paths are RFC 9535 JSONPath ([`crate::json_path`]). `for_each = PATH` runs a rule's check
//! once per value selected (the rule's *node*); without it the node is the whole answer. Every
//! path of a rule is evaluated on its node (`$` is the node), except `in`, which is evaluated
//! on the whole answer, or on the node too when written with `@` for `$` (`in =
//! "@.fields[*].name"`: a resource's views name its own fields). `{member}` in a path is replaced by the node's member of that name
//! (`{a.b}` for a nested one): as a JSONPath literal outside quotes (`@.name == {resource}`), as
//! the text of a string inside them (`@.name == '{resource}'`); `{{` and `}}` are literal braces.

use std::time::Duration;

use serde_json::{Map, Value};
use serde_json_path::JsonPath;
use verity_model::ConfigIssue;

use crate::json_path;

/// The option keys `json-schema` accepts. `schema_file` and `schema_hash` are set by the
/// suite loader from `schema`.
pub const OPTION_KEYS: &[&str] = &[
    "schema",
    "schema_file",
    "schema_hash",
    "draft",
    "extract",
    "rules",
];

/// The criteria: `schema` always, `integrity` when the scorer has rules.
pub const CRITERIA: [&str; 2] = ["schema", "integrity"];

/// The keys an integrity rule accepts.
pub const RULE_KEYS: &[&str] = &[
    "name", "for_each", "each", "in", "unique", "exists", "count", "min", "max", "command", "dir",
    "timeout",
];

/// How long a `command` rule may run unless its `timeout` says otherwise.
pub const DEFAULT_COMMAND_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest `timeout` a `command` rule may set, in seconds.
const MAX_TIMEOUT_S: f64 = 3600.0;

/// The drafts the `draft` option names.
pub const DRAFTS: &[&str] = &["2020-12", "7"];

/// Compiles `schema` into a validator. The draft is the one its `$schema` names, else `draft`
/// (`"2020-12"` when `None`). External `$ref`s are never fetched: one that is not inside the
/// document is an error.
pub fn compile(schema: &Value, draft: Option<&str>) -> Result<jsonschema::Validator, String> {
    let mut options = jsonschema::options();
    let declared = schema
        .as_object()
        .is_some_and(|o| o.contains_key("$schema"));
    if !declared {
        options = options.with_draft(match draft {
            Some("7") => jsonschema::Draft::Draft7,
            None | Some("2020-12") => jsonschema::Draft::Draft202012,
            Some(other) => {
                return Err(format!(
                    "unknown draft `{other}` (known: {})",
                    DRAFTS.join(", ")
                ));
            }
        });
    }
    options
        .build(schema)
        .map_err(|e| format!("invalid JSON Schema: {}", one_line(&e.to_string())))
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Checks the options of a `json-schema` scorer: each issue names its key (`rules[1].in` for a
/// rule's).
pub fn check_options(o: &Map<String, Value>) -> Vec<ConfigIssue> {
    let mut issues = Vec::new();
    let draft = match o.get("draft") {
        None => None,
        Some(Value::String(d)) if DRAFTS.contains(&d.as_str()) => Some(d.as_str()),
        Some(_) => {
            issues.push(ConfigIssue::new(
                Some("draft"),
                "`draft` must be \"2020-12\" or \"7\" (a schema's own `$schema` wins)",
            ));
            None
        }
    };
    match o.get("extract").map(Value::as_str) {
        None | Some(Some("fence" | "raw")) => {}
        _ => issues.push(ConfigIssue::new(
            Some("extract"),
            "`extract` must be \"fence\" (the first ```json block if any) or \"raw\"",
        )),
    }
    match o.get("schema") {
        // The loader could not read `schema_file` and said why.
        None if o.contains_key("schema_file") => {}
        None => issues.push(ConfigIssue::new(
            None,
            "`schema` is required: the path of a JSON Schema file, relative to the suite \
             (a scorer does not see a variant's `response_schema`; name the same file)",
        )),
        Some(Value::String(_)) => issues.push(ConfigIssue::new(
            Some("schema"),
            "`schema` must be the schema document here; the suite loader reads the file a \
             suite.toml names",
        )),
        Some(doc @ (Value::Object(_) | Value::Bool(_))) => {
            if let Err(e) = compile(doc, draft) {
                issues.push(ConfigIssue::new(Some("schema"), e));
            }
        }
        Some(_) => issues.push(ConfigIssue::new(
            Some("schema"),
            "`schema` must be a path to a JSON Schema file",
        )),
    }
    for key in ["schema_file", "schema_hash"] {
        if o.get(key).is_some_and(|v| !v.is_string()) {
            issues.push(ConfigIssue::new(
                Some(key),
                format!("`{key}` must be a string"),
            ));
        }
    }
    if let Some(rules) = o.get("rules") {
        issues.extend(parse_rules(rules).err().unwrap_or_default());
    }
    issues
}

/// A JSONPath that may name members of the node it is evaluated for (`{resource}`).
#[derive(Clone, Debug)]
pub struct PathTemplate {
    source: String,
    parts: Vec<Part>,
    /// The path itself when it has no placeholder.
    fixed: Option<JsonPath>,
}

#[derive(Clone, Debug)]
enum Part {
    Text(String),
    /// A member path of the node; `quote` is the quote character when written inside a string
    /// literal.
    Member {
        path: Vec<String>,
        quote: Option<char>,
    },
}

impl PathTemplate {
    /// Parses a path with placeholders; the error says what is wrong.
    pub fn parse(source: &str) -> Result<PathTemplate, String> {
        let mut parts = Vec::new();
        let mut text = String::new();
        let mut quote: Option<char> = None;
        let mut chars = source.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '{' if chars.peek() == Some(&'{') => {
                    chars.next();
                    text.push('{');
                }
                '}' if chars.peek() == Some(&'}') => {
                    chars.next();
                    text.push('}');
                }
                '{' => {
                    let mut name = String::new();
                    let mut closed = false;
                    for n in chars.by_ref() {
                        if n == '}' {
                            closed = true;
                            break;
                        }
                        name.push(n);
                    }
                    let path: Vec<String> = name.split('.').map(str::to_owned).collect();
                    if !closed || path.iter().any(|p| !is_member_name(p)) {
                        return Err(format!(
                            "`{source}`: a placeholder is `{{member}}` or `{{a.b}}` (write `{{{{` for a literal brace)"
                        ));
                    }
                    parts.push(Part::Text(std::mem::take(&mut text)));
                    parts.push(Part::Member { path, quote });
                }
                '}' => {
                    return Err(format!(
                        "`{source}`: unmatched `}}` (write `}}}}` for a literal brace)"
                    ));
                }
                '\\' if quote.is_some() => {
                    text.push(c);
                    if let Some(n) = chars.next() {
                        text.push(n);
                    }
                }
                '\'' | '"' => {
                    match quote {
                        None => quote = Some(c),
                        Some(q) if q == c => quote = None,
                        Some(_) => {}
                    }
                    text.push(c);
                }
                _ => text.push(c),
            }
        }
        parts.push(Part::Text(text));
        let mut t = PathTemplate {
            source: source.to_owned(),
            parts,
            fixed: None,
        };
        if t.parts.len() == 1 {
            t.fixed = Some(json_path::parse(&t.substitute(&Value::Null)?)?);
        } else {
            // Any value a placeholder may take must give a path: try a string and a number.
            for sample in [Value::from("x"), Value::from(1)] {
                let text = t.substitute_all(&sample);
                json_path::parse(&text)
                    .map_err(|e| format!("{e} (with its placeholders filled in)"))?;
            }
        }
        Ok(t)
    }

    /// The path as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The path for `node`: placeholders replaced by its members. The error names a member
    /// the node lacks or cannot give.
    pub fn resolve(&self, node: &Value) -> Result<JsonPath, String> {
        if let Some(p) = &self.fixed {
            return Ok(p.clone());
        }
        json_path::parse(&self.substitute(node)?)
    }

    /// Every placeholder filled with `v`.
    fn substitute_all(&self, v: &Value) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Text(t) => t.clone(),
                Part::Member { quote, .. } => literal(v, *quote).unwrap_or_default(),
            })
            .collect()
    }

    fn substitute(&self, node: &Value) -> Result<String, String> {
        let mut out = String::new();
        for p in &self.parts {
            match p {
                Part::Text(t) => out.push_str(t),
                Part::Member { path, quote } => {
                    let name = path.join(".");
                    let v = path.iter().try_fold(node, |v, k| v.get(k)).ok_or_else(|| {
                        format!("the node has no member `{name}` for `{{{name}}}`")
                    })?;
                    out.push_str(&literal(v, *quote).ok_or_else(|| {
                        format!(
                            "member `{name}` is an object or an array, not a value for `{{{name}}}`"
                        )
                    })?);
                }
            }
        }
        Ok(out)
    }
}

fn is_member_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// `v` as JSONPath text: a literal outside quotes, the inside of a string literal within them.
fn literal(v: &Value, quote: Option<char>) -> Option<String> {
    let escape = |s: &str, q: char| {
        let mut out = String::new();
        for c in s.chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                c if c == q => {
                    out.push('\\');
                    out.push(c);
                }
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out
    };
    match (v, quote) {
        (Value::Object(_) | Value::Array(_), _) => None,
        (Value::String(s), Some(q)) => Some(escape(s, q)),
        (other, Some(q)) => Some(escape(&other.to_string(), q)),
        (Value::String(s), None) => Some(format!("'{}'", escape(s, '\''))),
        (other, None) => Some(other.to_string()),
    }
}

/// One declared integrity rule.
#[derive(Clone, Debug)]
pub struct Rule {
    /// What evidence calls it (`rule N`, 1-based, when unnamed).
    pub name: String,
    /// The nodes the check runs on; `None`: the whole answer.
    pub for_each: Option<PathTemplate>,
    pub check: Check,
}

/// What a rule checks on each node.
#[derive(Clone, Debug)]
pub enum Check {
    /// Every value `each` selects (on the node) is among those `among` selects: on the whole
    /// answer, or on the node when `in` was written `@…` (`among_node`).
    Members {
        each: PathTemplate,
        among: PathTemplate,
        among_node: bool,
    },
    /// No two values selected are equal.
    Unique(PathTemplate),
    /// At least one value is selected.
    Exists(PathTemplate),
    /// How many values are selected.
    Count {
        path: PathTemplate,
        min: Option<u64>,
        max: Option<u64>,
    },
    /// The user's program, with the answer on standard input.
    Command {
        argv: Vec<String>,
        /// Its working directory (the loader makes it absolute: the suite directory, or `dir`
        /// under it); `None` for a suite built in memory: verity's own.
        dir: Option<String>,
        timeout: Duration,
    },
}

/// Parses `rules` (an array of tables). The issues name `rules[i].key`.
pub fn parse_rules(v: &Value) -> Result<Vec<Rule>, Vec<ConfigIssue>> {
    let Value::Array(items) = v else {
        return Err(vec![ConfigIssue::new(
            Some("rules"),
            "`rules` must be an array of tables ([[scorers.rules]])",
        )]);
    };
    let mut rules = Vec::new();
    let mut issues = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match parse_rule(i, item) {
            Ok(r) => rules.push(r),
            Err(mut e) => issues.append(&mut e),
        }
    }
    if issues.is_empty() {
        Ok(rules)
    } else {
        Err(issues)
    }
}

fn parse_rule(i: usize, item: &Value) -> Result<Rule, Vec<ConfigIssue>> {
    let at = |k: &str| format!("rules[{i}].{k}");
    let issue = |k: &str, msg: String| ConfigIssue::new(Some(&at(k)), msg);
    let Value::Object(t) = item else {
        return Err(vec![ConfigIssue::new(
            Some(&format!("rules[{i}]")),
            "each rule must be a table",
        )]);
    };
    let mut issues = Vec::new();
    for key in t.keys() {
        if !RULE_KEYS.contains(&key.as_str()) {
            issues.push(issue(
                key,
                format!(
                    "unknown key `{key}` in a rule; it takes: {}",
                    RULE_KEYS.join(", ")
                ),
            ));
        }
    }
    let name = match t.get("name") {
        None => format!("rule {}", i + 1),
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        Some(_) => {
            issues.push(issue("name", "`name` must be a non-empty string".into()));
            String::new()
        }
    };
    let path = |key: &str, issues: &mut Vec<ConfigIssue>| -> Option<PathTemplate> {
        match t.get(key)? {
            Value::String(s) => PathTemplate::parse(s)
                .map_err(|e| issues.push(issue(key, e)))
                .ok(),
            _ => {
                issues.push(issue(key, format!("`{key}` must be a JSONPath string")));
                None
            }
        }
    };
    let forms: Vec<&str> = ["each", "unique", "exists", "count", "command"]
        .into_iter()
        .filter(|k| t.contains_key(*k))
        .collect();
    if forms.len() != 1 {
        let msg = if forms.is_empty() {
            "a rule needs one of `each` (with `in`), `unique`, `exists`, `count` or `command`"
                .to_owned()
        } else {
            format!(
                "a rule checks one thing; it has {}",
                forms
                    .iter()
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            )
        };
        issues.push(ConfigIssue::new(
            Some(&format!("rules[{i}]")),
            format!("rule `{name}`: {msg}"),
        ));
        return Err(issues);
    }
    let form = forms[0];
    let only = |keys: &[&str], form: &str, issues: &mut Vec<ConfigIssue>| {
        for k in keys {
            if t.contains_key(*k) {
                issues.push(issue(
                    k,
                    format!("`{k}` does not go with `{form}` in rule `{name}`"),
                ));
            }
        }
    };
    let for_each = path("for_each", &mut issues);
    let check = match form {
        "each" => {
            only(&["min", "max", "dir", "timeout"], form, &mut issues);
            let each = path("each", &mut issues);
            // `in = "@.fields[*].name"`: relative to the node (written `$` inside).
            let among_node = t
                .get("in")
                .and_then(Value::as_str)
                .is_some_and(|s| s.trim_start().starts_with('@'));
            let among = match t.get("in") {
                Some(Value::String(s)) if among_node => {
                    let rooted = format!("${}", &s.trim_start()[1..]);
                    PathTemplate::parse(&rooted)
                        .map(|mut p| {
                            // Evidence quotes the path as written.
                            p.source = s.clone();
                            p
                        })
                        .map_err(|e| issues.push(issue("in", e)))
                        .ok()
                }
                Some(_) => path("in", &mut issues),
                None => {
                    issues.push(issue(
                        "each",
                        format!("rule `{name}`: `each` needs `in`, the values allowed"),
                    ));
                    None
                }
            };
            each.zip(among).map(|(each, among)| Check::Members {
                each,
                among,
                among_node,
            })
        }
        "unique" | "exists" | "count" => {
            only(&["in", "dir", "timeout"], form, &mut issues);
            if form != "count" {
                only(&["min", "max"], form, &mut issues);
            }
            let p = path(form, &mut issues);
            match form {
                "unique" => p.map(Check::Unique),
                "exists" => p.map(Check::Exists),
                _ => {
                    let mut bound = |k: &str| match t.get(k) {
                        None => None,
                        Some(v) => match v.as_u64() {
                            Some(n) => Some(n),
                            None => {
                                issues.push(issue(k, format!("`{k}` must be a whole number ≥ 0")));
                                None
                            }
                        },
                    };
                    let (min, max) = (bound("min"), bound("max"));
                    if !t.contains_key("min") && !t.contains_key("max") {
                        issues.push(issue(
                            "count",
                            format!("rule `{name}`: `count` needs `min`, `max` or both"),
                        ));
                    }
                    if let (Some(lo), Some(hi)) = (min, max)
                        && lo > hi
                    {
                        issues.push(issue("min", format!("`min` ({lo}) is above `max` ({hi})")));
                    }
                    p.map(|path| Check::Count { path, min, max })
                }
            }
        }
        _ => {
            only(&["in", "min", "max", "for_each"], form, &mut issues);
            let argv: Option<Vec<String>> = match t.get("command") {
                Some(Value::Array(a)) if !a.is_empty() => a
                    .iter()
                    .map(|x| x.as_str().filter(|s| !s.is_empty()).map(str::to_owned))
                    .collect(),
                _ => None,
            };
            if argv.is_none() {
                issues.push(issue(
                    "command",
                    "`command` must be a non-empty list of strings: the program and its arguments"
                        .into(),
                ));
            }
            let dir = match t.get("dir") {
                None => None,
                Some(Value::String(d)) => Some(d.clone()),
                Some(_) => {
                    issues.push(issue("dir", "`dir` must be a path".into()));
                    None
                }
            };
            let timeout = match t.get("timeout") {
                None => Some(DEFAULT_COMMAND_TIMEOUT),
                Some(v) => match v.as_f64() {
                    Some(s) if s > 0.0 && s <= MAX_TIMEOUT_S => Some(Duration::from_secs_f64(s)),
                    _ => {
                        issues.push(issue(
                            "timeout",
                            format!(
                                "`timeout` must be a number of seconds above 0 and at most {MAX_TIMEOUT_S}"
                            ),
                        ));
                        None
                    }
                },
            };
            match (argv, timeout) {
                (Some(argv), Some(timeout)) => Some(Check::Command { argv, dir, timeout }),
                _ => None,
            }
        }
    };
    match check {
        Some(check) if issues.is_empty() => Ok(Rule {
            name,
            for_each,
            check,
        }),
        _ => Err(issues),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn keys(issues: &[ConfigIssue]) -> Vec<String> {
        issues
            .iter()
            .map(|i| i.key.clone().unwrap_or_default())
            .collect()
    }

    #[test]
    fn schemas_compile_by_their_draft() {
        // `exclusiveMinimum` is a boolean in draft 4 and a number since draft 6: `prefixItems`
        // exists only in 2020-12, where `items: [..]` (draft 7's tuple form) is invalid.
        let tuple = json!({"type": "array", "items": [{"type": "string"}]});
        assert!(compile(&tuple, Some("7")).is_ok());
        let e = compile(&tuple, None).unwrap_err();
        assert!(e.starts_with("invalid JSON Schema"), "{e}");
        let declared = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "array", "items": [{"type": "string"}]});
        assert!(compile(&declared, None).is_ok());
        assert!(compile(&json!({"type": 12}), None).is_err());
        assert!(compile(&json!(true), None).is_ok());
        // No network, no files: a remote `$ref` is an error, not a fetch.
        let remote = json!({"$ref": "https://example.invalid/s.json"});
        assert!(compile(&remote, None).is_err());
        assert_eq!(
            verity_model::canonical_json(
                &json!({"b": 1, "a": {"d": [1, {"f": 0, "e": 0}], "c": 2}})
            ),
            r#"{"a":{"c":2,"d":[1,{"e":0,"f":0}]},"b":1}"#
        );
    }

    #[test]
    fn options_are_checked() {
        let o = |v: Value| v.as_object().cloned().unwrap();
        assert_eq!(check_options(&o(json!({"schema": {"type": "object"}}))), []);
        let missing = check_options(&o(json!({})));
        assert_eq!(missing.len(), 1);
        assert!(missing[0].message.contains("`schema` is required"));
        assert!(missing[0].message.contains("response_schema"));
        // The loader failed to read the file and reported it: nothing more to say.
        assert_eq!(check_options(&o(json!({"schema_file": "s.json"}))), []);
        let bad = check_options(&o(json!({
            "schema": {"type": "nope"}, "draft": "4", "extract": "auto",
        })));
        assert_eq!(keys(&bad), ["draft", "extract", "schema"]);
        assert_eq!(
            keys(&check_options(&o(json!({"schema": "s.json"})))),
            ["schema"]
        );
    }

    #[test]
    fn rules_parse_and_bad_rules_name_their_key() {
        let rules = parse_rules(&json!([
            {"name": "view fields exist", "for_each": "$.views[*]", "each": "$.fields[*]",
             "in": "$.resources[?@.name == '{resource}'].fields[*].name"},
            {"unique": "$.views[*].id"},
            {"exists": "$.views[0]"},
            {"count": "$.views[*]", "min": 1, "max": 9},
            {"command": ["python3", "check.py"], "timeout": 2.5},
        ]))
        .unwrap();
        assert_eq!(rules.len(), 5);
        assert_eq!(rules[1].name, "rule 2");
        assert!(matches!(
            rules[4].check,
            Check::Command { ref argv, timeout, .. }
                if argv[1] == "check.py" && timeout == Duration::from_millis(2500)
        ));
        let issues = parse_rules(&json!([
            {"each": "$.a[", "in": "$.b"},
            {"unique": "$.a", "exists": "$.b"},
            {"count": "$.a"},
            {"each": "$.a"},
            {"command": [], "for_each": "$.x"},
            {"exists": "$.a", "colour": 1},
            {"exists": "$[?@.n == {a b}]"},
            {"count": "$.a", "min": 3, "max": 1},
            {"command": ["x"], "timeout": 0},
        ]))
        .unwrap_err();
        assert_eq!(
            keys(&issues),
            [
                "rules[0].each",
                "rules[1]",
                "rules[2].count",
                "rules[3].each",
                "rules[4].for_each",
                "rules[4].command",
                "rules[5].colour",
                "rules[6].exists",
                "rules[7].min",
                "rules[8].timeout",
            ]
        );
        assert!(
            issues[0].message.contains("not a JSONPath"),
            "{}",
            issues[0].message
        );
        assert_eq!(
            issues[1].message,
            "rule `rule 2`: a rule checks one thing; it has `unique` and `exists`"
        );
        let o = json!({"schema": true, "rules": [{"exists": "$["}]});
        assert_eq!(
            keys(&check_options(o.as_object().unwrap())),
            ["rules[0].exists"]
        );
    }

    #[test]
    fn placeholders_become_literals_or_string_text() {
        let node = json!({"resource": "it's", "n": 3, "meta": {"k": "v"}, "list": [1]});
        let show = |t: &str| PathTemplate::parse(t).unwrap().substitute(&node);
        assert_eq!(
            show("$[?@.name == {resource}]").unwrap(),
            r"$[?@.name == 'it\'s']"
        );
        assert_eq!(
            show("$[?@.name == '{resource}']").unwrap(),
            r"$[?@.name == 'it\'s']"
        );
        assert_eq!(show("$[?@.n == {n}]").unwrap(), "$[?@.n == 3]");
        assert_eq!(show("$[\"{meta.k}\"]").unwrap(), "$[\"v\"]");
        assert_eq!(show("$['{{lit}}']").unwrap(), "$['{lit}']");
        assert!(
            show("$[?@ == {gone}]")
                .unwrap_err()
                .contains("no member `gone`")
        );
        assert!(show("$[?@ == {list}]").unwrap_err().contains("not a value"));
        let t = PathTemplate::parse("$.r[?@.name == {resource}].f").unwrap();
        let doc = json!({"r": [{"name": "it's", "f": 1}, {"name": "x", "f": 2}]});
        let found = json_path::locate(&t.resolve(&node).unwrap(), &doc);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].to_string(), "$.r[0].f");
    }
}
