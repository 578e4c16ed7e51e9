//! How a suite uses a server's tools, checked against what the server lists: the `tools`-mode
//! allowlist ([`Allowlist`]) and an `inject-top-k` tool's arguments against its input schema
//! ([`check_arguments`], [`coerce_arguments`]).

use std::collections::BTreeSet;

use serde_json::{Map, Value};
use verity_model::ServerSpec;

use crate::ToolInfo;

/// The tools `tools` mode offers a model: a call to any other is refused without reaching the
/// server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Allowlist {
    /// `allow_tools = ["*"]`: every tool the server has.
    All,
    /// These tools only.
    Only(BTreeSet<String>),
}

impl Allowlist {
    /// The allowlist of a server as the suite configures it, against the tools it listed:
    /// `allow_tools` when set (`["*"]`: every tool; each name must be one of the server's), else
    /// the suite's `tool` plus every tool the server marks read-only and not destructive
    /// ([`ToolInfo::is_read_only`]). An allowlist that names a tool the server lacks, or that
    /// would offer nothing, is an error.
    pub fn resolve(spec: &ServerSpec, tools: &[ToolInfo]) -> Result<Allowlist, String> {
        let has = |name: &str| tools.iter().any(|t| t.name == name);
        let all_names = || {
            if tools.is_empty() {
                "no tools".to_owned()
            } else {
                tools
                    .iter()
                    .map(|t| format!("`{}`", t.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        match &spec.allow_tools {
            Some(names) if names.len() == 1 && names[0] == "*" => Ok(Allowlist::All),
            Some(names) => {
                let missing: Vec<String> = names
                    .iter()
                    .filter(|n| !has(n))
                    .map(|n| format!("`{n}`"))
                    .collect();
                if !missing.is_empty() {
                    return Err(format!(
                        "`allow_tools` names {}, which the server does not have (it has {})",
                        missing.join(", "),
                        all_names()
                    ));
                }
                Ok(Allowlist::Only(names.iter().cloned().collect()))
            }
            None => {
                let mut names: BTreeSet<String> = tools
                    .iter()
                    .filter(|t| t.is_read_only())
                    .map(|t| t.name.clone())
                    .collect();
                if let Some(tool) = &spec.tool {
                    if !has(tool) {
                        return Err(format!(
                            "`tool` names `{tool}`, which the server does not have (it has {})",
                            all_names()
                        ));
                    }
                    names.insert(tool.clone());
                }
                if names.is_empty() {
                    return Err(format!(
                        "no tool would be offered to the model: the suite names no `tool` and the server marks none read-only (it has {}); list the tools to offer in `allow_tools` (or `[\"*\"]` for every one)",
                        all_names()
                    ));
                }
                Ok(Allowlist::Only(names))
            }
        }
    }

    /// Whether a call of `tool` may go to the server.
    pub fn admits(&self, tool: &str) -> bool {
        match self {
            Allowlist::All => true,
            Allowlist::Only(names) => names.contains(tool),
        }
    }

    /// The names of `tools` it admits, in the server's order.
    pub fn names<'t>(&self, tools: &'t [ToolInfo]) -> Vec<&'t str> {
        tools
            .iter()
            .filter(|t| self.admits(&t.name))
            .map(|t| t.name.as_str())
            .collect()
    }
}

/// Whether a string holds template syntax (and so is only known once rendered).
pub fn is_template(s: &str) -> bool {
    s.contains("{{") || s.contains("{%")
}

/// What is wrong with calling `tool` with `arguments` as a suite writes them (string values
/// may be templates): a name its schema does not have, a required argument not given, a
/// literal value of the wrong JSON type. A template whose argument takes a number, a boolean,
/// an array or an object is converted after rendering ([`coerce_arguments`]), so it is not a
/// problem here.
pub fn check_arguments(tool: &ToolInfo, arguments: &Map<String, Value>) -> Vec<String> {
    let mut problems = Vec::new();
    if let Some(properties) = tool.properties() {
        let known: Vec<String> = properties.keys().map(|k| format!("`{k}`")).collect();
        for (name, value) in arguments {
            let Some(schema) = properties.get(name) else {
                problems.push(format!(
                    "argument `{name}` is not one of tool `{}`'s (it takes {})",
                    tool.name,
                    if known.is_empty() {
                        "no arguments".to_owned()
                    } else {
                        known.join(", ")
                    }
                ));
                continue;
            };
            let types = schema_types(schema);
            if types.is_empty() {
                continue;
            }
            let literal = match value {
                Value::String(s) if is_template(s) => continue,
                other => other,
            };
            if !types.iter().any(|t| type_matches(t, literal)) {
                problems.push(format!(
                    "argument `{name}` of tool `{}` takes {}, but the suite gives {}",
                    tool.name,
                    types.join(" or "),
                    verity_model::json_type_phrase(literal)
                ));
            }
        }
    }
    for required in tool.required() {
        if !arguments.contains_key(required) {
            problems.push(format!(
                "tool `{}` requires argument `{required}`, which `arguments` does not give",
                tool.name
            ));
        }
    }
    problems
}

/// Converts each rendered string argument whose schema takes no string but a number, integer,
/// boolean, array or object, when the text parses as JSON of that type (`limit = "{{ k }}"`
/// becomes the number). Anything else is left for the server to judge.
pub fn coerce_arguments(tool: &ToolInfo, arguments: &mut Map<String, Value>) {
    let Some(properties) = tool.properties() else {
        return;
    };
    for (name, value) in arguments.iter_mut() {
        let (Some(schema), Value::String(text)) = (properties.get(name), &*value) else {
            continue;
        };
        let types = schema_types(schema);
        if types.is_empty() || types.contains(&"string") {
            continue;
        }
        if let Ok(parsed) = serde_json::from_str::<Value>(text.trim())
            && types.iter().any(|t| type_matches(t, &parsed))
        {
            *value = parsed;
        }
    }
}

/// The JSON Schema `type`s of a property (empty when it says none).
pub(crate) fn schema_types(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn type_matches(ty: &str, v: &Value) -> bool {
    match ty {
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        "null" => v.is_null(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn fs_tools() -> Vec<ToolInfo> {
        let mut read = ToolInfo::new(
            "read_text_file",
            json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
        );
        read.read_only_hint = Some(true);
        let mut search = ToolInfo::new(
            "search_files",
            json!({"type": "object", "properties": {
                "path": {"type": "string"}, "pattern": {"type": "string"},
                "excludePatterns": {"type": "array", "items": {"type": "string"}}
            }, "required": ["path", "pattern"]}),
        );
        search.read_only_hint = Some(true);
        let mut write = ToolInfo::new(
            "write_file",
            json!({"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}}),
        );
        write.read_only_hint = Some(false);
        write.destructive_hint = Some(true);
        let mut odd = ToolInfo::new("odd", json!({}));
        odd.read_only_hint = Some(true);
        odd.destructive_hint = Some(true);
        let create = ToolInfo::new("create_directory", json!({}));
        vec![read, search, write, odd, create]
    }

    #[test]
    fn the_default_allowlist_is_the_named_tool_and_the_read_only_ones() {
        let tools = fs_tools();
        let spec = ServerSpec::default();
        let a = Allowlist::resolve(&spec, &tools).unwrap();
        assert_eq!(a.names(&tools), ["read_text_file", "search_files"]);
        assert!(!a.admits("write_file") && !a.admits("odd"));
        let spec = ServerSpec {
            tool: Some("create_directory".into()),
            ..ServerSpec::default()
        };
        let a = Allowlist::resolve(&spec, &tools).unwrap();
        assert_eq!(
            a.names(&tools),
            ["read_text_file", "search_files", "create_directory"]
        );
        let spec = ServerSpec {
            allow_tools: Some(vec!["*".into()]),
            ..ServerSpec::default()
        };
        assert_eq!(Allowlist::resolve(&spec, &tools).unwrap(), Allowlist::All);
        let spec = ServerSpec {
            allow_tools: Some(vec!["write_file".into(), "rm".into()]),
            ..ServerSpec::default()
        };
        let err = Allowlist::resolve(&spec, &tools).unwrap_err();
        assert!(
            err.starts_with(
                "`allow_tools` names `rm`, which the server does not have (it has `read_text_file`"
            ),
            "{err}"
        );
        let err = Allowlist::resolve(&ServerSpec::default(), &tools[2..3]).unwrap_err();
        assert!(err.contains("no tool would be offered"), "{err}");
    }

    #[test]
    fn arguments_are_checked_against_the_schema() {
        let tools = fs_tools();
        let search = &tools[1];
        let args = |v: Value| v.as_object().unwrap().clone();
        assert!(
            check_arguments(
                search,
                &args(json!({"pattern": "{{ query }}", "path": "{{ task.metadata.root }}"}))
            )
            .is_empty()
        );
        let problems = check_arguments(
            search,
            &args(json!({"query": "{{ query }}", "excludePatterns": "x"})),
        );
        assert_eq!(
            problems,
            [
                "argument `query` is not one of tool `search_files`'s (it takes `path`, `pattern`, `excludePatterns`)",
                "argument `excludePatterns` of tool `search_files` takes array, but the suite gives a string",
                "tool `search_files` requires argument `path`, which `arguments` does not give",
                "tool `search_files` requires argument `pattern`, which `arguments` does not give",
            ]
        );
    }

    #[test]
    fn rendered_strings_become_the_type_the_schema_takes() {
        let tool = ToolInfo::new(
            "search",
            json!({"properties": {"q": {"type": "string"}, "limit": {"type": "integer"},
                "exact": {"type": "boolean"}, "tags": {"type": "array"}, "n": {}}}),
        );
        let mut args =
            json!({"q": "5", "limit": "5", "exact": "true", "tags": "[\"a\"]", "n": "7"})
                .as_object()
                .unwrap()
                .clone();
        coerce_arguments(&tool, &mut args);
        assert_eq!(
            Value::Object(args),
            json!({"q": "5", "limit": 5, "exact": true, "tags": ["a"], "n": "7"})
        );
        let mut bad = json!({"limit": "five"}).as_object().unwrap().clone();
        coerce_arguments(&tool, &mut bad);
        assert_eq!(bad["limit"], "five");
    }
}
