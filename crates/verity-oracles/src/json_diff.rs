//! Diffs between two answers, for evidence: where a differing epoch departs from the canonical
//! answer, and how.
//!
//! JSON answers are diffed as trees ([`diff_json`]): a changed value is shown at its path with
//! old → new (`$.views[0].title: "Users" → "User list"`), a key only one side has as added or
//! removed, an array whose length changed as `n → m elements` (its common prefix is diffed
//! element by element). Object key order never counts. Other answers are diffed by line
//! ([`diff_text`], the `similar` crate). Every diff stops describing after a cap and counts the
//! rest, so a 1 MB answer that differs everywhere still yields a handful of readable lines.
//!
//! [`differs_evidence`] turns a diff into evidence lines, one per change:
//! `epoch 3 differs from the canonical answer (epochs 0,1,2) at $.views[0].title: "Users" → "User list"`,
//! then `epoch 3: and 4 more differences` past the cap. The same lines read well in the
//! terminal table, the Markdown report and the JSON report (they are the score's evidence).

use std::fmt;

use serde_json::Value;
use similar::{DiffOp, TextDiff};
use verity_catalog::json_path::{Location, Step};
use verity_model::Evidence;

use crate::common::excerpt;

/// How many changes a diff describes per epoch by default; the rest are counted.
pub const DEFAULT_CAP: usize = 10;

/// Where a change is: a JSON path, or a line of a text answer (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Path(Location),
    Line(usize),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Path(l) => write!(f, "{l}"),
            Place::Line(n) => write!(f, "line {n}"),
        }
    }
}

/// One difference, with values already rendered as short JSON text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The value at `at` is `old` on one side and `new` on the other.
    Changed { at: Place, old: String, new: String },
    /// Only the new side has a value (a key, a line) at `at`.
    Added { at: Place, new: String },
    /// Only the old side has a value at `at`.
    Removed { at: Place, old: String },
    /// The array at `at` has `old` elements on one side and `new` on the other.
    Length { at: Place, old: usize, new: usize },
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Changed { at, old, new } => write!(f, "{at}: {old} → {new}"),
            Change::Added { at, new } => write!(f, "{at}: added {new}"),
            Change::Removed { at, old } => write!(f, "{at}: removed {old}"),
            Change::Length { at, old, new } => write!(f, "{at}: {old} → {new} elements"),
        }
    }
}

/// A diff: the first `cap` changes in document order, and how many there are in all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diff {
    pub changes: Vec<Change>,
    pub total: usize,
}

impl Diff {
    fn new() -> Self {
        Diff::default()
    }

    fn push(&mut self, cap: usize, change: impl FnOnce() -> Change) {
        if self.changes.len() < cap {
            self.changes.push(change());
        }
        self.total += 1;
    }

    /// Whether the two sides are the same.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }
}

/// How long a value shown in a diff may be (characters) before it is cut with `…`.
const VALUE_CHARS: usize = 60;

fn show(v: &Value) -> String {
    excerpt(&v.to_string(), VALUE_CHARS)
}

/// The differences from `old` to `new`, describing at most `cap` of them.
pub fn diff_json(old: &Value, new: &Value, cap: usize) -> Diff {
    diff_json_at(old, new, &Location::root(), cap)
}

/// [`diff_json`] of two values found at `base` in their documents: paths are shown from the
/// documents' root (`$.users.title`, not `$.title`).
pub fn diff_json_at(old: &Value, new: &Value, base: &Location, cap: usize) -> Diff {
    let mut d = Diff::new();
    let mut at = base.0.clone();
    walk(old, new, &mut at, cap, &mut d);
    d
}

fn here(at: &[Step]) -> Place {
    Place::Path(Location(at.to_vec()))
}

fn walk(old: &Value, new: &Value, at: &mut Vec<Step>, cap: usize, d: &mut Diff) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, va) in a {
                at.push(Step::Key(k.clone()));
                match b.get(k) {
                    Some(vb) => walk(va, vb, at, cap, d),
                    None => d.push(cap, || Change::Removed {
                        at: here(at),
                        old: show(va),
                    }),
                }
                at.pop();
            }
            for (k, vb) in b {
                if !a.contains_key(k) {
                    at.push(Step::Key(k.clone()));
                    d.push(cap, || Change::Added {
                        at: here(at),
                        new: show(vb),
                    });
                    at.pop();
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                d.push(cap, || Change::Length {
                    at: here(at),
                    old: a.len(),
                    new: b.len(),
                });
            }
            for (i, (va, vb)) in a.iter().zip(b).enumerate() {
                at.push(Step::Index(i));
                walk(va, vb, at, cap, d);
                at.pop();
            }
        }
        _ if old == new => {}
        _ => d.push(cap, || Change::Changed {
            at: here(at),
            old: show(old),
            new: show(new),
        }),
    }
}

/// The differences from `old` to `new` line by line, describing at most `cap` of them. A
/// changed or added line is numbered as in `new`, a removed one as in `old`.
pub fn diff_text(old: &str, new: &str, cap: usize) -> Diff {
    let mut d = Diff::new();
    let text = TextDiff::from_lines(old, new);
    let (a, b) = (text.old_slices(), text.new_slices());
    let line = |s: &str| {
        excerpt(
            &Value::String(s.trim_end_matches(['\n', '\r']).to_owned()).to_string(),
            VALUE_CHARS,
        )
    };
    for op in text.ops() {
        let (oi, ol, ni, nl) = match *op {
            DiffOp::Equal { .. } => continue,
            DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => (old_index, old_len, new_index, 0),
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => (old_index, 0, new_index, new_len),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => (old_index, old_len, new_index, new_len),
        };
        for k in 0..ol.max(nl) {
            match (k < ol, k < nl) {
                (true, true) => d.push(cap, || Change::Changed {
                    at: Place::Line(ni + k + 1),
                    old: line(a[oi + k]),
                    new: line(b[ni + k]),
                }),
                (true, false) => d.push(cap, || Change::Removed {
                    at: Place::Line(oi + k + 1),
                    old: line(a[oi + k]),
                }),
                _ => d.push(cap, || Change::Added {
                    at: Place::Line(ni + k + 1),
                    new: line(b[ni + k]),
                }),
            }
        }
    }
    d
}

/// The epochs of a group as users read them: `0,1,2`.
pub fn epoch_list(epochs: &[u32]) -> String {
    epochs
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Evidence that `epoch` differs from `against` (e.g. "the canonical answer (epochs 0,1,2)"),
/// one line per described change, then one counting the rest.
pub fn differs_evidence(epoch: u32, against: &str, diff: &Diff) -> Vec<Evidence> {
    let mut out: Vec<Evidence> = diff
        .changes
        .iter()
        .map(|c| Evidence::msg(format!("epoch {epoch} differs from {against} at {c}")))
        .collect();
    let more = diff.total - diff.changes.len();
    if more > 0 {
        out.push(Evidence::msg(format!(
            "epoch {epoch}: and {more} more difference{} from {against}",
            if more == 1 { "" } else { "s" }
        )));
    }
    if diff.is_empty() {
        out.push(Evidence::msg(format!(
            "epoch {epoch} differs from {against}"
        )));
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn lines(d: &Diff) -> Vec<String> {
        d.changes.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn json_changes_name_paths_and_values() {
        let old = json!({
            "views": [{"title": "Users", "fields": ["name", "email"], "sort": "asc"}],
            "version": 1
        });
        let new = json!({
            "version": 1,
            "views": [{"title": "User list", "fields": ["name", "email", "role"], "page size": 20}]
        });
        let d = diff_json(&old, &new, DEFAULT_CAP);
        assert_eq!(
            lines(&d),
            [
                r#"$.views[0].title: "Users" → "User list""#,
                "$.views[0].fields: 2 → 3 elements",
                r#"$.views[0].sort: removed "asc""#,
                r#"$.views[0]["page size"]: added 20"#,
            ]
        );
        assert_eq!(d.total, 4);
        assert!(diff_json(&old, &old.clone(), DEFAULT_CAP).is_empty());
        let typed = diff_json(&json!({"a": {"b": 1}}), &json!({"a": [1]}), DEFAULT_CAP);
        assert_eq!(lines(&typed), [r#"$.a: {"b":1} → [1]"#]);
    }

    #[test]
    fn diffs_are_capped_and_counted() {
        let old = json!((0..30).collect::<Vec<_>>());
        let new = json!((0..30).map(|i| i + 1).collect::<Vec<_>>());
        let d = diff_json(&old, &new, 3);
        assert_eq!(lines(&d), ["$[0]: 0 → 1", "$[1]: 1 → 2", "$[2]: 2 → 3"]);
        assert_eq!(d.total, 30);
        let ev = differs_evidence(3, "the canonical answer (epochs 0,1,2)", &d);
        assert_eq!(ev.len(), 4);
        assert_eq!(
            ev[0].message,
            "epoch 3 differs from the canonical answer (epochs 0,1,2) at $[0]: 0 → 1"
        );
        assert_eq!(
            ev[3].message,
            "epoch 3: and 27 more differences from the canonical answer (epochs 0,1,2)"
        );
        let long = diff_json(&json!("x"), &json!("y".repeat(100)), 1);
        assert!(long.changes[0].to_string().ends_with("yyy…"));
    }

    #[test]
    fn text_diffs_are_by_line() {
        let d = diff_text("a\nb\nc\nd\n", "a\nB\nc\nd\ne\n", DEFAULT_CAP);
        assert_eq!(lines(&d), [r#"line 2: "b" → "B""#, r#"line 5: added "e""#]);
        let d = diff_text("a\nb\nc\n", "a\nc\n", DEFAULT_CAP);
        assert_eq!(lines(&d), [r#"line 2: removed "b""#]);
        assert_eq!(epoch_list(&[0, 1, 2]), "0,1,2");
    }
}
