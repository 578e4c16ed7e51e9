//! The options of the text scorers (`equals`, `contains`, `regex`): how answers are compared
//! and how patterns compile. The check of a `pattern` and the scorer that matches it compile it
//! the same way, here.

use regex::{Regex, RegexBuilder};
use serde_json::{Map, Value};

/// Text-comparison options shared by the text scorers.
#[derive(Clone, Debug)]
pub struct TextOpts {
    pub ignore_case: bool,
    pub trim: bool,
    pub normalize_whitespace: bool,
    pub multiline: bool,
    pub dot_all: bool,
}

impl TextOpts {
    /// The options a scorer's table sets, defaults for the rest (values of the wrong type count
    /// as unset: [`crate::check_spec`] reports them).
    pub fn from_options(o: &Map<String, Value>) -> Self {
        TextOpts {
            ignore_case: flag(o, "ignore_case", false),
            trim: flag(o, "trim", true),
            normalize_whitespace: flag(o, "normalize_whitespace", false),
            multiline: flag(o, "multiline", true),
            dot_all: flag(o, "dot_all", false),
        }
    }

    /// Compiles `pattern` with these options; the error is one line.
    pub fn regex(&self, pattern: &str) -> Result<Regex, String> {
        RegexBuilder::new(pattern)
            .case_insensitive(self.ignore_case)
            .multi_line(self.multiline)
            .dot_matches_new_line(self.dot_all)
            .size_limit(1 << 22)
            .build()
            .map_err(|e| format!("invalid regex: {}", one_line(&e.to_string())))
    }
}

/// Turns the regex crate's multi-line parse error (pattern, caret, `error: …`) into one line:
/// "unclosed group at column 1 of the pattern".
fn one_line(s: &str) -> String {
    let lines: Vec<&str> = s.lines().collect();
    let what = lines
        .iter()
        .rev()
        .find_map(|l| l.trim().strip_prefix("error: "));
    let caret = lines.iter().find_map(|l| {
        let t = l.trim_end();
        (!t.trim().is_empty() && t.trim().chars().all(|c| c == '^')).then(|| t.find('^'))
    });
    let pattern_indent = lines.get(1).map(|l| l.len() - l.trim_start().len());
    match (what, caret.flatten(), pattern_indent) {
        (Some(w), Some(c), Some(indent)) if c >= indent => {
            format!("{w} at column {} of the pattern", c - indent + 1)
        }
        (Some(w), _, _) => w.to_owned(),
        _ => s
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// A string or a list of strings, as a list.
pub fn string_list(v: &Value) -> Option<Vec<String>> {
    match v {
        Value::String(s) => Some(vec![s.clone()]),
        Value::Array(items) => items
            .iter()
            .map(|i| i.as_str().map(str::to_owned))
            .collect(),
        _ => None,
    }
}

fn flag(o: &Map<String, Value>, key: &str, default: bool) -> bool {
    o.get(key).and_then(Value::as_bool).unwrap_or(default)
}
