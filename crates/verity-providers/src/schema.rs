//! JSON Schema → the OpenAPI 3.0 subset Gemini takes as `responseSchema` and as function
//! `parameters`.
//!
//! Gemini rejects keys outside its subset (`$schema`, `additionalProperties`, `$defs`, …), so
//! the conversion keeps what it understands and drops the rest:
//!
//! * kept as they are: `description`, `title`, `nullable`, `required`, `minItems`, `maxItems`,
//!   `minLength`, `maxLength`, `pattern`, `minimum`, `maximum`, `minProperties`,
//!   `maxProperties`, `example`, `default`, `propertyOrdering`;
//! * `type` is upper-cased (`"string"` → `"STRING"`); a list of types loses `"null"` to
//!   `nullable: true`, and several remaining types become an `anyOf` of one type each;
//! * `properties`, `items` and `anyOf` are converted recursively, and `propertyOrdering` is
//!   added in the order the schema lists its properties (Gemini otherwise orders them
//!   alphabetically);
//! * `oneOf` becomes `anyOf`; each `allOf` member is merged into its schema (keys it lacks,
//!   `properties` and `required` joined);
//! * `const` of a string becomes a one-value `enum`; `enum` is kept when every value is a
//!   string (Gemini's enums are strings) and dropped otherwise; `format` is kept only where
//!   Gemini supports it (`enum` and `date-time` on strings, `int32`/`int64` on integers,
//!   `float`/`double` on numbers);
//! * local references (`#/$defs/…`, `#/definitions/…`) are inlined, sibling keys taking
//!   precedence; a recursive reference or any other `$ref` is an error, since Gemini's
//!   schemas must be `$ref`-free;
//! * everything else (`$schema`, `$id`, `$defs`, `additionalProperties`, `examples`,
//!   `multipleOf`, `exclusiveMinimum`, `not`, `if`/`then`/`else`, tuple `items`, …) is dropped,
//!   so the model may be given a looser schema than the one a scorer checks.

use serde_json::{Map, Value, json};

/// How deeply schemas may nest (references included) before the conversion gives up.
const MAX_DEPTH: usize = 64;

const KEPT: &[&str] = &[
    "description",
    "title",
    "nullable",
    "required",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "minProperties",
    "maxProperties",
    "example",
    "default",
    "propertyOrdering",
];

/// Converts `schema`; the error describes what cannot be converted.
pub(crate) fn to_gemini(schema: &Value) -> Result<Value, String> {
    Converter {
        root: schema,
        expanding: Vec::new(),
    }
    .convert(schema, 0)
}

struct Converter<'a> {
    root: &'a Value,
    /// The references being inlined, outermost first, to catch recursion.
    expanding: Vec<String>,
}

impl Converter<'_> {
    fn convert(&mut self, node: &Value, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err(format!("the schema nests deeper than {} levels", MAX_DEPTH));
        }
        let node = match node {
            Value::Bool(true) => return Ok(Value::Object(Map::new())),
            Value::Object(map) => map,
            other => return Err(format!("`{}` is not a schema", other)),
        };
        if let Some(reference) = node.get("$ref") {
            return self.inline(reference, node, depth);
        }
        let mut merged;
        let node = match node.get("allOf").and_then(Value::as_array) {
            Some(members) => {
                merged = node.clone();
                merged.remove("allOf");
                for member in members {
                    let member = self.resolved(member)?;
                    merge_into(&mut merged, &member);
                }
                &merged
            }
            None => node,
        };

        let mut out = Map::new();
        let mut any_of: Vec<Value> = Vec::new();
        let type_name = match node.get("type") {
            None => None,
            Some(Value::String(t)) if t == "null" => {
                out.insert("nullable".into(), json!(true));
                None
            }
            Some(Value::String(t)) => Some(gemini_type(t)?),
            Some(Value::Array(types)) => {
                let mut names = Vec::new();
                for t in types {
                    match t.as_str() {
                        Some("null") => {
                            out.insert("nullable".into(), json!(true));
                        }
                        Some(t) => names.push(gemini_type(t)?),
                        None => return Err(format!("`type` lists `{}`", t)),
                    }
                }
                match names.len() {
                    0 => None,
                    1 => Some(names[0]),
                    _ => {
                        any_of.extend(names.into_iter().map(|n| json!({"type": n})));
                        None
                    }
                }
            }
            Some(other) => return Err(format!("`type` is `{}`", other)),
        };
        if let Some(t) = type_name {
            out.insert("type".into(), json!(t));
        }
        for (key, value) in node {
            match key.as_str() {
                "properties" => {
                    let Some(props) = value.as_object() else {
                        return Err("`properties` is not an object".into());
                    };
                    let mut converted = Map::new();
                    for (name, prop) in props {
                        converted.insert(name.clone(), self.convert(prop, depth + 1)?);
                    }
                    if !node.contains_key("propertyOrdering") && converted.len() > 1 {
                        let order: Vec<&String> = props.keys().collect();
                        out.insert("propertyOrdering".into(), json!(order));
                    }
                    out.insert("properties".into(), Value::Object(converted));
                }
                "items" if value.is_object() || value.is_boolean() => {
                    out.insert("items".into(), self.convert(value, depth + 1)?);
                }
                "anyOf" | "oneOf" => {
                    let Some(members) = value.as_array() else {
                        return Err(format!("`{}` is not a list", key));
                    };
                    for member in members {
                        any_of.push(self.convert(member, depth + 1)?);
                    }
                }
                // Gemini's enums are strings; other enums and consts are dropped.
                "enum"
                    if value
                        .as_array()
                        .is_some_and(|vs| vs.iter().all(Value::is_string)) =>
                {
                    out.insert("enum".into(), value.clone());
                }
                "const" if value.is_string() => {
                    out.insert("enum".into(), json!([value]));
                    out.entry("type").or_insert_with(|| json!("STRING"));
                }
                "format" => {
                    let keep = matches!(
                        (type_name, value.as_str()),
                        (Some("STRING"), Some("enum" | "date-time"))
                            | (Some("INTEGER"), Some("int32" | "int64"))
                            | (Some("NUMBER"), Some("float" | "double"))
                    );
                    if keep {
                        out.insert("format".into(), value.clone());
                    }
                }
                "nullable" => {
                    // `type: [.., "null"]` already set it; an explicit value wins.
                    out.insert(key.clone(), value.clone());
                }
                k if KEPT.contains(&k) => {
                    out.insert(key.clone(), value.clone());
                }
                _ => {}
            }
        }
        if !any_of.is_empty() {
            out.insert("anyOf".into(), Value::Array(any_of));
        }
        Ok(Value::Object(out))
    }

    /// A member of `allOf` with its reference (if any) resolved, not yet converted.
    fn resolved(&self, member: &Value) -> Result<Map<String, Value>, String> {
        let Some(map) = member.as_object() else {
            return Ok(Map::new());
        };
        match map.get("$ref") {
            None => Ok(map.clone()),
            Some(reference) => {
                let (_, target) = self.lookup(reference)?;
                let mut out = target.as_object().cloned().unwrap_or_default();
                for (k, v) in map {
                    if k != "$ref" {
                        out.insert(k.clone(), v.clone());
                    }
                }
                Ok(out)
            }
        }
    }

    fn lookup(&self, reference: &Value) -> Result<(String, Value), String> {
        let Some(text) = reference.as_str() else {
            return Err(format!("`$ref` is `{}`", reference));
        };
        let local = text.starts_with("#/$defs/") || text.starts_with("#/definitions/");
        let target = if local {
            self.root.pointer(&text[1..])
        } else {
            None
        };
        match target {
            Some(t) => Ok((text.to_owned(), t.clone())),
            None => Err(format!(
                "`$ref: {}` cannot be inlined (only local `#/$defs/…` and `#/definitions/…` \
                 references can)",
                text
            )),
        }
    }

    /// Inlines a reference: the target's keys with the referring node's siblings over them.
    fn inline(
        &mut self,
        reference: &Value,
        node: &Map<String, Value>,
        depth: usize,
    ) -> Result<Value, String> {
        let (name, target) = self.lookup(reference)?;
        if self.expanding.contains(&name) {
            return Err(format!(
                "`$ref: {}` is recursive, which Gemini's schemas cannot express",
                name
            ));
        }
        let mut merged = match target {
            Value::Object(m) => m,
            Value::Bool(true) => Map::new(),
            other => return Err(format!("`{}` points at `{}`, not a schema", name, other)),
        };
        for (k, v) in node {
            if k != "$ref" {
                merged.insert(k.clone(), v.clone());
            }
        }
        self.expanding.push(name);
        let out = self.convert(&Value::Object(merged), depth + 1);
        self.expanding.pop();
        out
    }
}

/// Merges an `allOf` member into a schema: keys it lacks, `properties` and `required` joined.
fn merge_into(schema: &mut Map<String, Value>, member: &Map<String, Value>) {
    for (k, v) in member {
        match (k.as_str(), schema.get_mut(k)) {
            ("properties", Some(Value::Object(existing))) => {
                if let Value::Object(more) = v {
                    for (name, prop) in more {
                        existing.entry(name.clone()).or_insert_with(|| prop.clone());
                    }
                }
            }
            ("required", Some(Value::Array(existing))) => {
                if let Value::Array(more) = v {
                    for r in more {
                        if !existing.contains(r) {
                            existing.push(r.clone());
                        }
                    }
                }
            }
            (_, Some(_)) => {}
            (_, None) => {
                schema.insert(k.clone(), v.clone());
            }
        }
    }
}

fn gemini_type(t: &str) -> Result<&'static str, String> {
    Ok(match t {
        "string" => "STRING",
        "number" => "NUMBER",
        "integer" => "INTEGER",
        "boolean" => "BOOLEAN",
        "array" => "ARRAY",
        "object" => "OBJECT",
        other => return Err(format!("`type: {}` has no Gemini equivalent", other)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_unsupported_keys_and_uppercases_types() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "x",
            "type": "object",
            "title": "Answer",
            "additionalProperties": false,
            "properties": {
                "n": {"type": "integer", "format": "int64", "minimum": 0, "multipleOf": 2},
                "email": {"type": "string", "format": "email", "maxLength": 10},
                "when": {"type": "string", "format": "date-time"},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]},
                         "uniqueItems": true, "minItems": 1},
                "maybe": {"type": ["number", "null"], "format": "double"},
                "either": {"type": ["string", "integer"], "description": "d"},
                "kind": {"const": "fixed"},
                "level": {"enum": [1, 2, 3]},
            },
            "required": ["n"],
        });
        assert_eq!(
            to_gemini(&schema).unwrap(),
            json!({
                "type": "OBJECT",
                "title": "Answer",
                "propertyOrdering": ["n", "email", "when", "tags", "maybe", "either", "kind", "level"],
                "properties": {
                    "n": {"type": "INTEGER", "format": "int64", "minimum": 0},
                    "email": {"type": "STRING", "maxLength": 10},
                    "when": {"type": "STRING", "format": "date-time"},
                    "tags": {"type": "ARRAY", "items": {"type": "STRING", "enum": ["a", "b"]},
                             "minItems": 1},
                    "maybe": {"type": "NUMBER", "nullable": true, "format": "double"},
                    "either": {"anyOf": [{"type": "STRING"}, {"type": "INTEGER"}], "description": "d"},
                    "kind": {"enum": ["fixed"], "type": "STRING"},
                    "level": {},
                },
                "required": ["n"],
            })
        );
    }

    #[test]
    fn local_refs_are_inlined_and_one_of_becomes_any_of() {
        let schema = json!({
            "type": "object",
            "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}}}},
            "definitions": {"Name": {"type": "string"}},
            "properties": {
                "p": {"$ref": "#/$defs/Point", "description": "where"},
                "q": {"allOf": [{"$ref": "#/$defs/Point"}, {"required": ["x"]}]},
                "who": {"oneOf": [{"$ref": "#/definitions/Name"}, {"type": "null"}]},
            },
        });
        assert_eq!(
            to_gemini(&schema).unwrap(),
            json!({
                "type": "OBJECT",
                "propertyOrdering": ["p", "q", "who"],
                "properties": {
                    "p": {"type": "OBJECT", "properties": {"x": {"type": "NUMBER"}},
                          "description": "where"},
                    "q": {"type": "OBJECT", "properties": {"x": {"type": "NUMBER"}},
                          "required": ["x"]},
                    "who": {"anyOf": [{"type": "STRING"}, {"nullable": true}]},
                },
            })
        );
    }

    #[test]
    fn what_cannot_be_converted_is_an_error() {
        for (schema, needle) in [
            (
                json!({"$defs": {"N": {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}}}},
                       "$ref": "#/$defs/N"}),
                "recursive",
            ),
            (
                json!({"$ref": "https://example.com/s.json"}),
                "cannot be inlined",
            ),
            (json!({"$ref": "#/$defs/Missing"}), "cannot be inlined"),
            (json!({"type": "decimal"}), "no Gemini equivalent"),
            (json!(false), "not a schema"),
            (json!({"properties": {"a": 3}}), "not a schema"),
            (json!({"properties": []}), "not an object"),
        ] {
            let err = to_gemini(&schema).unwrap_err();
            assert!(err.contains(needle), "{schema}: {err}");
        }
        let mut deep = json!({"type": "string"});
        for _ in 0..100 {
            deep = json!({"type": "array", "items": deep});
        }
        assert!(to_gemini(&deep).unwrap_err().contains("deeper"));
    }
}
