//! Finding a server's search tool and the names of its arguments, from the tools' schemas.

use serde_json::{Map, Value, json};

use crate::ToolInfo;

/// Query argument names, most preferred first.
const QUERY_NAMES: [&str; 3] = ["query", "q", "text"];
/// Result-count argument names, most preferred first.
const LIMIT_NAMES: [&str; 4] = ["limit", "k", "top_k", "max_results"];

/// How `inject-top-k` calls a server's search tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchBinding {
    /// The tool's name.
    pub tool: String,
    /// The string argument that takes the query.
    pub query_arg: String,
    /// The integer argument that takes the number of results, if the tool has one.
    pub limit_arg: Option<String>,
    /// The bounds the schema puts on that argument (`minimum`, `maximum`); `k` is clamped to them.
    pub limit_min: Option<u64>,
    pub limit_max: Option<u64>,
}

impl SearchBinding {
    /// Finds the search tool among `tools`: the one named `name` if given; else a tool named
    /// `search`, else the first whose name contains "search" (in any case). Its query argument is
    /// the first string property of its input schema, preferring `query`, `q`, `text`; its
    /// result-count argument the first integer property, preferring `limit`, `k`, `top_k`,
    /// `max_results`. The error says why no tool fits.
    pub fn find(tools: &[ToolInfo], name: Option<&str>) -> Result<SearchBinding, String> {
        let tool = match name {
            Some(name) => tools
                .iter()
                .find(|t| t.name == name)
                .ok_or_else(|| format!("has no tool named `{}` (it has {})", name, list(tools)))?,
            None => tools
                .iter()
                .find(|t| t.name == "search")
                .or_else(|| {
                    tools
                        .iter()
                        .find(|t| t.name.to_lowercase().contains("search"))
                })
                .ok_or_else(|| {
                    format!(
                        "has no search tool (no tool is named or contains `search`; it has {})",
                        list(tools)
                    )
                })?,
        };
        let empty = Map::new();
        let properties = tool
            .input_schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let query_arg = pick(properties, "string", &QUERY_NAMES).ok_or_else(|| {
            format!(
                "search tool `{}` has no string argument to take the query",
                tool.name
            )
        })?;
        let limit_arg = pick(properties, "integer", &LIMIT_NAMES);
        let bound = |key: &str| {
            let arg = limit_arg.as_deref()?;
            let n = properties.get(arg)?.get(key)?.as_f64()?;
            if !n.is_finite() || n < 0.0 {
                return None;
            }
            // `minimum: 1.5` admits 2; `maximum: 7.5` admits 7.
            let n = if key == "minimum" {
                n.ceil()
            } else {
                n.floor()
            };
            Some(n as u64)
        };
        Ok(SearchBinding {
            tool: tool.name.clone(),
            limit_min: bound("minimum"),
            limit_max: bound("maximum"),
            query_arg,
            limit_arg,
        })
    }

    /// The arguments for a search for `query` with `k` results (clamped to the schema's bounds).
    pub fn arguments(&self, query: &str, k: u32) -> Value {
        let mut args = Map::new();
        args.insert(self.query_arg.clone(), json!(query));
        if let Some(limit) = &self.limit_arg {
            let mut k = u64::from(k);
            if let Some(max) = self.limit_max {
                k = k.min(max);
            }
            if let Some(min) = self.limit_min {
                k = k.max(min);
            }
            args.insert(limit.clone(), json!(k));
        }
        Value::Object(args)
    }
}

/// The property of JSON type `ty` with the most preferred name, else the first of that type.
fn pick(properties: &Map<String, Value>, ty: &str, preferred: &[&str]) -> Option<String> {
    let typed: Vec<&String> = properties
        .iter()
        .filter(|(_, schema)| has_type(schema, ty))
        .map(|(name, _)| name)
        .collect();
    preferred
        .iter()
        .find_map(|p| typed.iter().find(|name| name.as_str() == *p))
        .or_else(|| typed.first())
        .map(|name| (*name).clone())
}

/// `"type": ty` or `"type": [.., ty, ..]`.
fn has_type(schema: &Value, ty: &str) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == ty,
        Some(Value::Array(ts)) => ts.iter().any(|t| t.as_str() == Some(ty)),
        _ => false,
    }
}

fn list(tools: &[ToolInfo]) -> String {
    if tools.is_empty() {
        return "no tools".to_owned();
    }
    tools
        .iter()
        .map(|t| format!("`{}`", t.name))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(name: &str, schema: Value) -> ToolInfo {
        ToolInfo {
            name: name.into(),
            description: String::new(),
            input_schema: schema,
        }
    }

    fn props(pairs: &[(&str, &str)]) -> Value {
        let mut p = Map::new();
        for (name, ty) in pairs {
            p.insert((*name).to_owned(), json!({ "type": ty }));
        }
        json!({ "type": "object", "properties": p })
    }

    #[test]
    fn prefers_the_tool_named_search() {
        let tools = [
            tool("doc_search", props(&[("query", "string")])),
            tool("search", props(&[("query", "string")])),
        ];
        assert_eq!(SearchBinding::find(&tools, None).unwrap().tool, "search");
    }

    #[test]
    fn falls_back_to_a_name_containing_search() {
        let tools = [
            tool("read", props(&[("id", "string")])),
            tool("Symbol_Search", props(&[("q", "string")])),
            tool("search_docs", props(&[("q", "string")])),
        ];
        let b = SearchBinding::find(&tools, None).unwrap();
        assert_eq!(b.tool, "Symbol_Search");
        assert_eq!(b.query_arg, "q");
        assert_eq!(b.limit_arg, None);
        assert_eq!(
            b.arguments("NavigationStack", 5),
            json!({"q": "NavigationStack"})
        );
    }

    #[test]
    fn a_configured_name_must_exist() {
        let tools = [tool("search", props(&[("query", "string")]))];
        let err = SearchBinding::find(&tools, Some("lookup")).unwrap_err();
        assert!(err.contains("no tool named `lookup`"), "{}", err);
        assert!(err.contains("`search`"), "{}", err);
        let tools = [
            tool("search", props(&[("query", "string")])),
            tool("lookup", props(&[("term", "string"), ("n", "integer")])),
        ];
        let b = SearchBinding::find(&tools, Some("lookup")).unwrap();
        assert_eq!((b.tool.as_str(), b.query_arg.as_str()), ("lookup", "term"));
        assert_eq!(b.limit_arg.as_deref(), Some("n"));
    }

    #[test]
    fn no_search_tool_is_an_error_naming_the_tools() {
        let tools = [tool("read", props(&[("id", "string")]))];
        let err = SearchBinding::find(&tools, None).unwrap_err();
        assert!(
            err.contains("no search tool") && err.contains("`read`"),
            "{}",
            err
        );
        let err = SearchBinding::find(&[], None).unwrap_err();
        assert!(err.contains("no tools"), "{}", err);
    }

    #[test]
    fn preferred_argument_names_win_over_order() {
        let tools = [tool(
            "search",
            props(&[
                ("platform", "string"),
                ("text", "string"),
                ("q", "string"),
                ("offset", "integer"),
                ("top_k", "integer"),
                ("k", "integer"),
            ]),
        )];
        let b = SearchBinding::find(&tools, None).unwrap();
        assert_eq!(b.query_arg, "q");
        assert_eq!(b.limit_arg.as_deref(), Some("k"));
        assert_eq!(b.arguments("x", 3), json!({"q": "x", "k": 3}));
    }

    #[test]
    fn otherwise_the_first_property_of_the_type() {
        let tools = [tool(
            "search",
            props(&[
                ("page", "integer"),
                ("needle", "string"),
                ("haystack", "string"),
                ("count", "integer"),
            ]),
        )];
        let b = SearchBinding::find(&tools, None).unwrap();
        assert_eq!(b.query_arg, "needle");
        assert_eq!(b.limit_arg.as_deref(), Some("page"));
    }

    #[test]
    fn nullable_types_count() {
        let tools = [tool(
            "search",
            json!({"type": "object", "properties": {
                "query": {"type": ["string", "null"]},
                "max_results": {"type": ["integer", "null"]}
            }}),
        )];
        let b = SearchBinding::find(&tools, None).unwrap();
        assert_eq!(b.query_arg, "query");
        assert_eq!(b.limit_arg.as_deref(), Some("max_results"));
    }

    #[test]
    fn a_tool_without_a_string_argument_does_not_fit() {
        let tools = [tool("search", props(&[("limit", "integer")]))];
        let err = SearchBinding::find(&tools, None).unwrap_err();
        assert!(err.contains("no string argument"), "{}", err);
        let tools = [tool("search", json!({"type": "object"}))];
        assert!(SearchBinding::find(&tools, None).is_err());
    }

    #[test]
    fn k_is_clamped_to_the_schema_bounds() {
        let tools = [tool(
            "search",
            json!({"type": "object", "properties": {
                "query": {"type": "string"},
                "limit": {"type": "integer", "minimum": 2, "maximum": 50}
            }}),
        )];
        let b = SearchBinding::find(&tools, None).unwrap();
        assert_eq!((b.limit_min, b.limit_max), (Some(2), Some(50)));
        assert_eq!(b.arguments("q", 100), json!({"query": "q", "limit": 50}));
        assert_eq!(b.arguments("q", 1), json!({"query": "q", "limit": 2}));
        assert_eq!(b.arguments("q", 7), json!({"query": "q", "limit": 7}));
    }
}
