//! JSON paths, one syntax for every scorer option that names places in a JSON answer
//! (`ignore`, `sort_arrays`, `resources`, integrity rules): RFC 9535 JSONPath
//! (`$.views[*].fields`, `$..id`, `$.specs.*`), parsed by `serde_json_path`.
//!
//! A place that was found is a [`Location`] (keys and indices from the root), shown to users
//! as `$.views[0].fields` (`$["odd key"]` when a key is not an identifier): the form of every
//! JSON path in evidence, whether it came from a query, a JSON Schema error (a JSON pointer) or
//! a diff.

use std::fmt;

use serde_json::Value;
pub use serde_json_path::JsonPath;
use serde_json_path::PathElement;

/// One step from a JSON value to one inside it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// Where a value sits inside a JSON document: the steps from the root.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location(pub Vec<Step>);

impl Location {
    pub fn root() -> Self {
        Location(Vec::new())
    }

    /// This location one step further.
    pub fn child(&self, step: Step) -> Self {
        let mut steps = self.0.clone();
        steps.push(step);
        Location(steps)
    }

    /// A location from an RFC 6901 JSON pointer (`/views/0/fields`), the form JSON Schema
    /// validators report. An all-digit segment is an index.
    pub fn from_pointer(pointer: &str) -> Self {
        Location(
            pointer
                .split('/')
                .skip(1)
                .map(|seg| {
                    let seg = seg.replace("~1", "/").replace("~0", "~");
                    match seg.parse::<usize>() {
                        Ok(i) if !seg.starts_with('0') || seg == "0" => Step::Index(i),
                        _ => Step::Key(seg),
                    }
                })
                .collect(),
        )
    }

    /// The value at this location in `root`, if there is one.
    pub fn get<'v>(&self, root: &'v Value) -> Option<&'v Value> {
        self.0.iter().try_fold(root, |v, step| match (step, v) {
            (Step::Key(k), Value::Object(m)) => m.get(k),
            (Step::Index(i), Value::Array(a)) => a.get(*i),
            _ => None,
        })
    }

    /// The value at this location in `root`, mutably.
    pub fn get_mut<'v>(&self, root: &'v mut Value) -> Option<&'v mut Value> {
        self.0.iter().try_fold(root, |v, step| match (step, v) {
            (Step::Key(k), Value::Object(m)) => m.get_mut(k),
            (Step::Index(i), Value::Array(a)) => a.get_mut(*i),
            _ => None,
        })
    }

    /// Removes the value at this location from `root` (object members by key, array elements
    /// by index); the root itself cannot be removed.
    pub fn remove(&self, root: &mut Value) -> Option<Value> {
        let (last, parent) = self.0.split_last()?;
        let parent = Location(parent.to_vec()).get_mut(root)?;
        match (last, parent) {
            (Step::Key(k), Value::Object(m)) => m.shift_remove(k),
            (Step::Index(i), Value::Array(a)) if *i < a.len() => Some(a.remove(*i)),
            _ => None,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("$")?;
        for step in &self.0 {
            match step {
                Step::Index(i) => write!(f, "[{i}]")?,
                Step::Key(k) if is_identifier(k) => write!(f, ".{k}")?,
                Step::Key(k) => write!(f, "[{}]", Value::String(k.clone()))?,
            }
        }
        Ok(())
    }
}

fn is_identifier(k: &str) -> bool {
    let mut chars = k.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Parses a JSONPath expression; the error says what is wrong, for a suite diagnostic.
pub fn parse(expr: &str) -> Result<JsonPath, String> {
    JsonPath::parse(expr).map_err(|e| format!("`{expr}` is not a JSONPath (RFC 9535): {e}"))
}

/// Every place `path` selects in `root`, in document order.
pub fn locate(path: &JsonPath, root: &Value) -> Vec<Location> {
    path.query_located(root)
        .into_iter()
        .map(|node| {
            Location(
                node.location()
                    .iter()
                    .map(|el| match el {
                        PathElement::Name(k) => Step::Key(k.to_string()),
                        PathElement::Index(i) => Step::Index(*i),
                    })
                    .collect(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn locations_display_as_paths_users_can_paste() {
        let loc = Location(vec![
            Step::Key("views".into()),
            Step::Index(0),
            Step::Key("fields".into()),
            Step::Key("a b".into()),
        ]);
        assert_eq!(loc.to_string(), r#"$.views[0].fields["a b"]"#);
        assert_eq!(Location::root().to_string(), "$");
        assert_eq!(
            Location::from_pointer("/views/0/a~1b/007").to_string(),
            r#"$.views[0]["a/b"]["007"]"#
        );
    }

    #[test]
    fn located_queries_find_get_and_remove() {
        let mut doc = json!({"a": [{"id": 1, "x": 2}, {"id": 3}], "id": 9});
        let path = parse("$..id").unwrap();
        let found = locate(&path, &doc);
        let shown: Vec<String> = found.iter().map(ToString::to_string).collect();
        assert_eq!(shown.len(), 3);
        assert!(shown.contains(&"$.a[1].id".to_owned()));
        assert!(
            found
                .iter()
                .all(|loc| loc.get(&doc).is_some_and(Value::is_number))
        );
        for loc in found.iter().rev() {
            loc.remove(&mut doc);
        }
        assert_eq!(doc, json!({"a": [{"x": 2}, {}]}));
        assert!(parse("$[").unwrap_err().contains("not a JSONPath"));
    }
}
