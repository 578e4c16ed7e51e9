//! The fallback of `inject-top-k` when a suite names no `tool`: finding a server's search tool
//! and the names of its arguments from the tools' names and schemas. It guesses only when the
//! guess is safe, and otherwise says why and asks for an explicit `tool` / `arguments`.

use serde_json::{Map, Value, json};

use crate::ToolInfo;

/// Query argument names, most preferred first: the fallback puts the query only into an
/// argument named like one.
const QUERY_NAMES: [&str; 8] = [
    "query",
    "q",
    "text",
    "search",
    "search_query",
    "searchQuery",
    "keywords",
    "question",
];
/// Result-count argument names, most preferred first.
const LIMIT_NAMES: [&str; 7] = [
    "limit",
    "k",
    "top_k",
    "max_results",
    "maxResults",
    "num_results",
    "count",
];

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

/// What the fallback tells the user to do when it will not guess.
const SET_TOOL: &str = "set `tool` and `arguments` in the server's [servers.NAME] table (`verity validate --check-servers SUITE` lists its tools and their arguments)";

impl SearchBinding {
    /// Finds the search tool among `tools`.
    ///
    /// With `name`, the tool of that name; its query argument is its first string property,
    /// preferring the names the fallback looks for (below).
    ///
    /// Without, the documented fallback: the candidates are a tool named `search`, else the
    /// tools with the word "search" in their name (`search_docs`, `symbolSearch`; not
    /// `research`). A candidate fits when it has a string argument named like a query
    /// (`query`, `q`, `text`, `search`, `keywords`, `question`, …) and requires no argument
    /// besides it and a result count (`limit`, `k`, `top_k`, `max_results`, …). Exactly one
    /// fitting candidate is chosen; none, or several, is an error that names the tools and
    /// asks for an explicit `tool` and `arguments`.
    pub fn find(tools: &[ToolInfo], name: Option<&str>) -> Result<SearchBinding, String> {
        if let Some(name) = name {
            let tool = tools.iter().find(|t| t.name == name).ok_or_else(|| {
                format!(
                    "has no tool named `{}` (it has {})",
                    name,
                    crate::client::tool_list(tools)
                )
            })?;
            let properties = properties(tool);
            let query_arg = pick(properties, "string", &QUERY_NAMES, true).ok_or_else(|| {
                format!(
                    "search tool `{}` has no string argument to take the query",
                    tool.name
                )
            })?;
            return Ok(SearchBinding::with(tool, query_arg, true));
        }
        let exact: Vec<&ToolInfo> = tools
            .iter()
            .filter(|t| t.name.eq_ignore_ascii_case("search"))
            .collect();
        let candidates: Vec<&ToolInfo> = if exact.is_empty() {
            tools.iter().filter(|t| has_search_word(&t.name)).collect()
        } else {
            exact
        };
        if candidates.is_empty() {
            return Err(format!(
                "has no search tool the fallback can use (no tool is named `search` or has the word \"search\" in its name; it has {}): {}",
                crate::client::tool_list(tools),
                SET_TOOL
            ));
        }
        let mut fitting = Vec::new();
        let mut why_not = Vec::new();
        for tool in candidates {
            match fit(tool) {
                Ok(query_arg) => fitting.push(SearchBinding::with(tool, query_arg, false)),
                Err(why) => why_not.push(format!("`{}` {}", tool.name, why)),
            }
        }
        match fitting.len() {
            1 => Ok(fitting.remove(0)),
            0 => Err(format!(
                "has no search tool the fallback can call with just a query: {}; {}",
                why_not.join("; "),
                SET_TOOL
            )),
            _ => Err(format!(
                "has several search tools ({}) and the fallback will not guess which: {}",
                fitting
                    .iter()
                    .map(|b| format!("`{}`", b.tool))
                    .collect::<Vec<_>>()
                    .join(", "),
                SET_TOOL
            )),
        }
    }

    /// The binding of `tool` with `query_arg`; its count argument is the one named like a
    /// count, else (`any`: a tool the suite named) its first integer argument.
    fn with(tool: &ToolInfo, query_arg: String, any: bool) -> SearchBinding {
        let properties = properties(tool);
        let limit_arg = pick(properties, "integer", &LIMIT_NAMES, any)
            .or_else(|| pick(properties, "number", &LIMIT_NAMES, false));
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
        SearchBinding {
            tool: tool.name.clone(),
            limit_min: bound("minimum"),
            limit_max: bound("maximum"),
            query_arg,
            limit_arg,
        }
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

/// The property of JSON type `ty` with the most preferred name; else, with `any`, the first
/// of that type.
fn pick(
    properties: &Map<String, Value>,
    ty: &str,
    preferred: &[&str],
    any: bool,
) -> Option<String> {
    let typed: Vec<&String> = properties
        .iter()
        .filter(|(_, schema)| has_type(schema, ty))
        .map(|(name, _)| name)
        .collect();
    preferred
        .iter()
        .find_map(|p| typed.iter().find(|name| name.as_str() == *p))
        .or_else(|| if any { typed.first() } else { None })
        .map(|name| (*name).clone())
}

fn properties(tool: &ToolInfo) -> &Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    tool.properties()
        .unwrap_or_else(|| EMPTY.get_or_init(Map::new))
}

/// The fallback's query argument for `tool`, or why the tool does not fit.
fn fit(tool: &ToolInfo) -> Result<String, String> {
    let properties = properties(tool);
    let Some(query_arg) = pick(properties, "string", &QUERY_NAMES, false) else {
        let strings: Vec<String> = properties
            .iter()
            .filter(|(_, s)| has_type(s, "string"))
            .map(|(n, _)| format!("`{n}`"))
            .collect();
        return Err(if strings.is_empty() {
            "has no string argument to take the query".to_owned()
        } else {
            format!(
                "has no argument named like a query (its string arguments are {})",
                strings.join(", ")
            )
        });
    };
    let limit = pick(properties, "integer", &LIMIT_NAMES, false)
        .or_else(|| pick(properties, "number", &LIMIT_NAMES, false));
    let others: Vec<String> = tool
        .required()
        .into_iter()
        .filter(|r| *r != query_arg && Some(*r) != limit.as_deref())
        .map(|r| format!("`{r}`"))
        .collect();
    if !others.is_empty() {
        return Err(format!(
            "also requires {}, which the fallback cannot fill",
            others.join(", ")
        ));
    }
    Ok(query_arg)
}

/// Whether `name` has "search" as a word: split at `_`, `-`, `.`, `/`, spaces and
/// lower-to-upper case changes (`search_docs`, `symbolSearch`, `Doc-Search`; not `research`).
fn has_search_word(name: &str) -> bool {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            words.push(std::mem::take(&mut word));
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower {
            words.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        word.extend(c.to_lowercase());
    }
    words.push(word);
    words.iter().any(|w| w == "search")
}

/// `"type": ty` or `"type": [.., ty, ..]`.
fn has_type(schema: &Value, ty: &str) -> bool {
    crate::mapping::schema_types(schema).contains(&ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(name: &str, schema: Value) -> ToolInfo {
        ToolInfo::new(name, schema)
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
    fn falls_back_to_the_one_tool_with_search_in_its_name() {
        let tools = [
            tool("read", props(&[("id", "string")])),
            tool("Symbol_Search", props(&[("q", "string")])),
            tool("research", props(&[("query", "string")])),
        ];
        let b = SearchBinding::find(&tools, None).unwrap();
        assert_eq!(b.tool, "Symbol_Search");
        assert_eq!(b.query_arg, "q");
        assert_eq!(b.limit_arg, None);
        assert_eq!(
            b.arguments("NavigationStack", 5),
            json!({"q": "NavigationStack"})
        );
        assert!(has_search_word("symbolSearch") && has_search_word("doc-search"));
        assert!(!has_search_word("simulate-research-query") && !has_search_word("searching"));
    }

    #[test]
    fn several_fitting_tools_are_not_guessed_between() {
        let tools = [
            tool("search_code", props(&[("q", "string")])),
            tool("search_docs", props(&[("query", "string")])),
        ];
        let err = SearchBinding::find(&tools, None).unwrap_err();
        assert!(
            err.contains("several search tools (`search_code`, `search_docs`)")
                && err.contains("set `tool` and `arguments`"),
            "{err}"
        );
    }

    /// The reference servers of the MCP project, as their 2026.8.31 releases list them.
    #[test]
    fn the_reference_servers_tools_are_refused_with_the_reason() {
        let mut search_files = tool(
            "search_files",
            props(&[
                ("path", "string"),
                ("pattern", "string"),
                ("excludePatterns", "array"),
            ]),
        );
        search_files.input_schema["required"] = json!(["path", "pattern"]);
        let err = SearchBinding::find(&[search_files], None).unwrap_err();
        assert!(
            err.contains("`search_files` has no argument named like a query (its string arguments are `path`, `pattern`)")
                && err.contains("--check-servers"),
            "{err}"
        );
        let mut research = tool(
            "simulate-research-query",
            props(&[("topic", "string"), ("ambiguous", "boolean")]),
        );
        research.input_schema["required"] = json!(["topic"]);
        let echo = tool("echo", props(&[("message", "string")]));
        let err = SearchBinding::find(&[echo, research], None).unwrap_err();
        assert!(err.contains("has no search tool"), "{err}");
        let mut scoped = tool("search", props(&[("query", "string"), ("repo", "string")]));
        scoped.input_schema["required"] = json!(["query", "repo"]);
        let err = SearchBinding::find(&[scoped], None).unwrap_err();
        assert!(
            err.contains("`search` also requires `repo`, which the fallback cannot fill"),
            "{err}"
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
    fn arguments_not_named_like_a_query_or_a_count_are_not_used() {
        let tools = [tool(
            "search",
            props(&[
                ("page", "integer"),
                ("needle", "string"),
                ("haystack", "string"),
            ]),
        )];
        let err = SearchBinding::find(&tools, None).unwrap_err();
        assert!(err.contains("no argument named like a query"), "{err}");
        let tools = [tool(
            "search",
            props(&[("page", "integer"), ("q", "string")]),
        )];
        let b = SearchBinding::find(&tools, None).unwrap();
        assert_eq!((b.query_arg.as_str(), b.limit_arg), ("q", None));
        // A tool the suite names takes the query in its first string argument.
        let tools = [tool("lookup", props(&[("needle", "string")]))];
        let b = SearchBinding::find(&tools, Some("lookup")).unwrap();
        assert_eq!(b.query_arg, "needle");
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
