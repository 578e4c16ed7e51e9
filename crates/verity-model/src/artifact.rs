//! Named intermediate results of a pipeline (stage attribution, seed 004): what each stage of a
//! program behind the `command` provider produced, identified by a hash that ignores key order.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The largest canonical text (bytes) whose value is stored with an [`Artifact`]; a larger
/// one keeps only its hash and size, so a stage that dumps megabytes does not bloat the store.
pub const MAX_ARTIFACT_VALUE_BYTES: u64 = 1024 * 1024;

/// One named intermediate result of a sample (`api_ir`, `ui_plan`, …), in the order the
/// pipeline's stages ran.
///
/// `hash` is the BLAKE3 (hex) of the value's canonical text ([`canonical_text`]): object keys
/// sorted, so two values that differ only in key order hash alike; a string value is hashed as
/// its text (so `b3sum` of the file a stage wrote gives the same hash).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Artifact {
    pub name: String,
    /// BLAKE3 of the canonical text, 64 hex digits.
    pub hash: String,
    /// Bytes of the canonical text.
    pub size: u64,
    /// The value itself; `None` when its canonical text is over [`MAX_ARTIFACT_VALUE_BYTES`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
}

impl Artifact {
    /// Hashes `value` and keeps it when it is small enough.
    pub fn new(name: impl Into<String>, value: Value) -> Artifact {
        let mut sink = HashSink {
            hasher: blake3::Hasher::new(),
            size: 0,
        };
        // Writing to a hasher cannot fail.
        let _ = canonical_write(&value, &mut sink);
        Artifact {
            name: name.into(),
            hash: sink.hasher.finalize().to_hex().to_string(),
            size: sink.size,
            value: (sink.size <= MAX_ARTIFACT_VALUE_BYTES).then_some(value),
        }
    }

    /// The first 12 hex digits of the hash, for evidence and tables.
    pub fn short_hash(&self) -> &str {
        &self.hash[..self.hash.len().min(12)]
    }
}

/// The text an artifact's hash is computed over: a string is its own text; anything else is
/// compact JSON (serde_json's number and string forms) with every object's keys sorted by
/// their UTF-8 bytes, at every depth.
pub fn canonical_text(value: &Value) -> String {
    let mut out = Vec::new();
    let _ = canonical_write(value, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// A JSON value as compact JSON with every object's keys sorted by their UTF-8 bytes, at every
/// depth (serde_json's number and string forms): the text verity hashes and compares when key
/// order must not count (schemas, artifacts, `normalize = "json"`). Unlike
/// [`canonical_text`], a string is JSON too (quoted).
pub fn canonical_json(value: &Value) -> String {
    let mut out = Vec::new();
    let _ = write_canonical_json(value, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// The BLAKE3 (hex) of [`canonical_json`]: a JSON document's identity whatever its key order
/// and whitespace (a schema's `schema_hash`, the report header's schema hashes).
pub fn canonical_hash(value: &Value) -> String {
    blake3::hash(canonical_json(value).as_bytes())
        .to_hex()
        .to_string()
}

/// A value's JSON type with its article, for a sentence ("a string", "an object", "null").
pub fn json_type_phrase(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn canonical_write(value: &Value, out: &mut impl std::io::Write) -> std::io::Result<()> {
    match value {
        Value::String(s) => out.write_all(s.as_bytes()),
        other => write_canonical_json(other, out),
    }
}

fn write_canonical_json(value: &Value, out: &mut impl std::io::Write) -> std::io::Result<()> {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.write_all(b"{")?;
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                serde_json::to_writer(&mut *out, k)?;
                out.write_all(b":")?;
                write_canonical_json(&map[k], out)?;
            }
            out.write_all(b"}")
        }
        Value::Array(items) => {
            out.write_all(b"[")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                write_canonical_json(item, out)?;
            }
            out.write_all(b"]")
        }
        scalar => serde_json::to_writer(&mut *out, scalar).map_err(std::io::Error::other),
    }
}

/// Feeds the hasher and counts the bytes, so no copy of a large value's text is made.
struct HashSink {
    hasher: blake3::Hasher,
    size: u64,
}

impl std::io::Write for HashSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.hasher.update(buf);
        self.size += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn key_order_does_not_count_values_do() {
        let a = Artifact::new("api_ir", json!({"b": [1, {"y": 2, "x": "s"}], "a": null}));
        let b: Value =
            serde_json::from_str(r#"{"a": null, "b": [1, {"x": "s", "y": 2}]}"#).unwrap();
        let b = Artifact::new("api_ir", b);
        assert_eq!(a.hash, b.hash);
        assert_eq!(a.hash.len(), 64);
        assert_eq!(
            canonical_text(a.value.as_ref().unwrap()),
            r#"{"a":null,"b":[1,{"x":"s","y":2}]}"#
        );
        assert_eq!(a.size, 34);
        // Any change of a value, of array order or of a number's form is a new hash.
        for other in [
            json!({"a": null, "b": [1, {"x": "s", "y": 3}]}),
            json!({"a": null, "b": [{"x": "s", "y": 2}, 1]}),
            json!({"a": null, "b": [1.0, {"x": "s", "y": 2}]}),
            json!({"a": null, "b": [1, {"x": "s", "y": 2}], "c": 0}),
        ] {
            assert_ne!(Artifact::new("api_ir", other).hash, a.hash);
        }
    }

    #[test]
    fn a_string_is_hashed_as_its_text() {
        let a = Artifact::new("yaml", json!("openapi: 3.1.0\n"));
        assert_eq!(
            a.hash,
            blake3::hash(b"openapi: 3.1.0\n").to_hex().to_string()
        );
        assert_eq!(a.size, 15);
        assert_eq!(a.short_hash().len(), 12);
    }

    #[test]
    fn large_values_keep_only_hash_and_size() {
        let big = "x".repeat(MAX_ARTIFACT_VALUE_BYTES as usize + 1);
        let a = Artifact::new("dump", json!(big));
        assert_eq!(a.value, None);
        assert_eq!(a.size, MAX_ARTIFACT_VALUE_BYTES + 1);
        assert_eq!(a.hash, blake3::hash(big.as_bytes()).to_hex().to_string());
        let stored = serde_json::to_string(&a).unwrap();
        assert!(!stored.contains("\"value\""), "{stored}");
        let back: Artifact = serde_json::from_str(&stored).unwrap();
        assert_eq!(back, a);
    }
}
