//! A small spanned document tree shared by the TOML and JSONL readers.
//!
//! TOML comes from `toml::de::DeTable` (which keeps byte spans for keys and values); JSON lines
//! are first validated by `serde_json` (which reports syntax errors with line and column) and
//! then scanned again here to recover the spans `serde_json::Value` does not keep. Both end up
//! as [`Node`]s, so one set of readers checks keys, types and values for either format.

use std::ops::Range;

use serde_json::{Map, Value};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

pub(crate) type Span = Range<usize>;

#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub(crate) span: Span,
    pub(crate) kind: Kind,
}

#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Null,
    Bool(bool),
    /// Wide enough for any TOML or JSON integer that fits in `u64`; larger ones saturate.
    Int(i128),
    Float(f64),
    Str(String),
    Datetime(String),
    Array(Vec<Node>),
    Table(Table),
}

/// A table's entries in source order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Table {
    pub(crate) entries: Vec<Entry>,
}

#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) key: String,
    pub(crate) key_span: Span,
    pub(crate) value: Node,
}

impl Table {
    pub(crate) fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }

    pub(crate) fn contains(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

impl Kind {
    /// The type's name with an article, for messages (`a string`, `an array`…).
    pub(crate) fn describe(&self, json: bool) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool(_) => "a boolean",
            Kind::Int(_) => "an integer",
            Kind::Float(_) => "a float",
            Kind::Str(_) => "a string",
            Kind::Datetime(_) => "a datetime",
            Kind::Array(_) => "an array",
            Kind::Table(_) if json => "an object",
            Kind::Table(_) => "a table",
        }
    }
}

/// The node as JSON: datetimes become strings, and so do floats JSON cannot hold (`nan`, `inf`).
pub(crate) fn to_json(node: &Node) -> Value {
    match &node.kind {
        Kind::Null => Value::Null,
        Kind::Bool(b) => Value::Bool(*b),
        Kind::Int(i) => match (i64::try_from(*i), u64::try_from(*i)) {
            (Ok(v), _) => Value::from(v),
            (_, Ok(v)) => Value::from(v),
            _ => Value::from(*i as f64),
        },
        Kind::Float(f) => serde_json::Number::from_f64(*f)
            .map_or_else(|| Value::String(f.to_string()), Value::Number),
        Kind::Str(s) | Kind::Datetime(s) => Value::String(s.clone()),
        Kind::Array(items) => Value::Array(items.iter().map(to_json).collect()),
        Kind::Table(t) => Value::Object(table_to_json(t)),
    }
}

pub(crate) fn table_to_json(t: &Table) -> Map<String, Value> {
    t.entries
        .iter()
        .map(|e| (e.key.clone(), to_json(&e.value)))
        .collect()
}

/// Converts a parsed TOML document; `toml` sorts keys, so entries are put back in source order.
pub(crate) fn from_toml_doc(doc: &Spanned<DeTable<'_>>) -> Node {
    Node {
        span: doc.span(),
        kind: Kind::Table(toml_table(doc.get_ref())),
    }
}

fn toml_table(t: &DeTable<'_>) -> Table {
    let mut entries: Vec<Entry> = t
        .iter()
        .map(|(k, v)| Entry {
            key: k.get_ref().to_string(),
            key_span: k.span(),
            value: from_toml(v),
        })
        .collect();
    entries.sort_by_key(|e| e.key_span.start);
    Table { entries }
}

fn from_toml(v: &Spanned<DeValue<'_>>) -> Node {
    let kind = match v.get_ref() {
        DeValue::String(s) => Kind::Str(s.to_string()),
        DeValue::Integer(i) => Kind::Int(i128::from_str_radix(i.as_str(), i.radix()).unwrap_or(
            if i.as_str().starts_with('-') {
                i128::MIN
            } else {
                i128::MAX
            },
        )),
        DeValue::Float(f) => Kind::Float(f.as_str().parse().unwrap_or(f64::NAN)),
        DeValue::Boolean(b) => Kind::Bool(*b),
        DeValue::Datetime(d) => Kind::Datetime(d.to_string()),
        DeValue::Array(a) => Kind::Array(a.iter().map(from_toml).collect()),
        DeValue::Table(t) => Kind::Table(toml_table(t)),
    };
    Node {
        span: v.span(),
        kind,
    }
}

/// Nesting deeper than this is not scanned (serde_json itself stops at 128).
const MAX_JSON_DEPTH: usize = 256;

/// Builds a spanned tree from one JSON text that `serde_json` already accepted. Spans are
/// offset by `base` (the text's position in its file). Returns `None` if the text is not JSON
/// after all; it never panics.
pub(crate) fn json_tree(text: &str, base: usize) -> Option<Node> {
    let mut p = JsonScan { text, i: 0, base };
    let node = p.value(0)?;
    p.ws();
    if p.i == text.len() { Some(node) } else { None }
}

struct JsonScan<'a> {
    text: &'a str,
    i: usize,
    base: usize,
}

impl JsonScan<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn span(&self, start: usize) -> Span {
        self.base + start..self.base + self.i
    }

    fn eat(&mut self, b: u8) -> Option<()> {
        self.ws();
        if self.peek()? == b {
            self.i += 1;
            Some(())
        } else {
            None
        }
    }

    fn value(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_JSON_DEPTH {
            return None;
        }
        self.ws();
        let start = self.i;
        let kind = match self.peek()? {
            b'{' => {
                self.i += 1;
                let mut entries = Vec::new();
                self.ws();
                if self.peek()? == b'}' {
                    self.i += 1;
                } else {
                    loop {
                        self.ws();
                        let key_start = self.i;
                        let key = self.string()?;
                        let key_span = self.span(key_start);
                        self.eat(b':')?;
                        let value = self.value(depth + 1)?;
                        entries.push(Entry {
                            key,
                            key_span,
                            value,
                        });
                        self.ws();
                        match self.peek()? {
                            b',' => self.i += 1,
                            b'}' => {
                                self.i += 1;
                                break;
                            }
                            _ => return None,
                        }
                    }
                }
                Kind::Table(Table { entries })
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.peek()? == b']' {
                    self.i += 1;
                } else {
                    loop {
                        items.push(self.value(depth + 1)?);
                        self.ws();
                        match self.peek()? {
                            b',' => self.i += 1,
                            b']' => {
                                self.i += 1;
                                break;
                            }
                            _ => return None,
                        }
                    }
                }
                Kind::Array(items)
            }
            b'"' => Kind::Str(self.string()?),
            b't' => self.word("true", Kind::Bool(true))?,
            b'f' => self.word("false", Kind::Bool(false))?,
            b'n' => self.word("null", Kind::Null)?,
            _ => {
                while matches!(
                    self.peek(),
                    Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                ) {
                    self.i += 1;
                }
                let raw = self.text.get(start..self.i)?;
                match serde_json::from_str::<serde_json::Number>(raw).ok()? {
                    n if n.is_i64() => Kind::Int(i128::from(n.as_i64()?)),
                    n if n.is_u64() => Kind::Int(i128::from(n.as_u64()?)),
                    n => Kind::Float(n.as_f64()?),
                }
            }
        };
        Some(Node {
            span: self.span(start),
            kind,
        })
    }

    fn word(&mut self, w: &str, kind: Kind) -> Option<Kind> {
        if self.text.get(self.i..)?.starts_with(w) {
            self.i += w.len();
            Some(kind)
        } else {
            None
        }
    }

    /// A string token, decoded by serde_json (escapes, surrogate pairs).
    fn string(&mut self) -> Option<String> {
        let start = self.i;
        if self.peek()? != b'"' {
            return None;
        }
        self.i += 1;
        loop {
            match self.peek()? {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    break;
                }
                _ => self.i += 1,
            }
        }
        serde_json::from_str(self.text.get(start..self.i)?).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(n: &Node) -> Vec<(String, Span)> {
        match &n.kind {
            Kind::Table(t) => t
                .entries
                .iter()
                .map(|e| (e.key.clone(), e.key_span.clone()))
                .collect(),
            _ => panic!("not a table"),
        }
    }

    #[test]
    fn toml_entries_come_back_in_source_order() {
        let src = "zeta = 1\nalpha = \"a\"\n[mid]\nx = 1.5\n";
        let doc = DeTable::parse(src).unwrap();
        let node = from_toml_doc(&doc);
        let k = keys(&node);
        assert_eq!(
            k.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
            ["zeta", "alpha", "mid"]
        );
        assert_eq!(&src[k[1].1.clone()], "alpha");
        let json = to_json(&node);
        assert_eq!(json["mid"]["x"], 1.5);
        assert_eq!(json["zeta"], 1);
    }

    #[test]
    fn toml_numbers_and_dates() {
        let doc = DeTable::parse(
            "a = 0x1F\nb = 1_000\nc = -5\nd = nan\ne = 1979-05-27\nf = 99999999999999999999\n",
        )
        .unwrap();
        let j = to_json(&from_toml_doc(&doc));
        assert_eq!(j["a"], 31);
        assert_eq!(j["b"], 1000);
        assert_eq!(j["c"], -5);
        assert_eq!(j["d"], "NaN");
        assert_eq!(j["e"], "1979-05-27");
        assert!(j["f"].is_f64());
    }

    #[test]
    fn json_scan_finds_key_spans() {
        let line = r#"{"id": 7, "in\"put": [1, -2.5e3, {"k": null}], "t": "é"}"#;
        let node = json_tree(line, 100).unwrap();
        let k = keys(&node);
        assert_eq!(k[0], ("id".to_owned(), 101..105));
        assert_eq!(k[1].0, "in\"put");
        assert_eq!(&line[k[1].1.start - 100..k[1].1.end - 100], r#""in\"put""#);
        let v = to_json(&node);
        assert_eq!(v, serde_json::from_str::<Value>(line).unwrap());
    }

    #[test]
    fn json_scan_rejects_garbage_without_panicking() {
        for bad in [
            "",
            "{",
            "{\"a\" 1}",
            "[1,",
            "\"\\",
            "\"é\\",
            "tru",
            "{\"a\":1,}",
            "1 2",
            "-",
        ] {
            assert!(json_tree(bad, 0).is_none(), "{bad:?}");
        }
        let deep = "[".repeat(1000) + &"]".repeat(1000);
        assert!(json_tree(&deep, 0).is_none());
    }
}
