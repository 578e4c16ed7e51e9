//! Canonical JSON for the determinism scorers (`identical`, `similarity`): an answer parsed,
//! the values `ignore` names dropped, the arrays `sort_arrays` names sorted, and printed in one
//! canonical text — keys sorted by code point (`normalize = "json"`) or RFC 8785
//! (`normalize = "jcs"`: keys by UTF-16 code units, ECMAScript number formatting, minimal
//! escaping, via `serde_jcs`).

use std::collections::HashMap;
use std::hash::Hash;

use serde_json::Value;
use verity_catalog::determinism::{CanonOpts, Normalize};
use verity_catalog::json_path::{Location, locate};
use verity_model::{Evidence, GroupMember};

use crate::common::{excerpt, strip_fence};

/// The majority among `keys` (one per epoch, in epoch order): the indices holding the most
/// common key (ties: the key seen first), and how many distinct keys there are.
pub(crate) fn majority<K: Eq + Hash>(keys: &[K]) -> (Vec<usize>, usize) {
    let mut first: HashMap<&K, (usize, usize)> = HashMap::new();
    for (i, k) in keys.iter().enumerate() {
        first.entry(k).or_insert((i, 0)).1 += 1;
    }
    let distinct = first.len();
    let best = first
        .values()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(i, _)| &keys[*i]);
    let modal = match best {
        Some(b) => keys
            .iter()
            .enumerate()
            .filter(|(_, k)| *k == b)
            .map(|(i, _)| i)
            .collect(),
        None => Vec::new(),
    };
    (modal, distinct)
}

/// The share of epochs whose text is the most common text (1 for no epochs). Texts are
/// compared with the distinct ones seen so far (lengths first, then bytes) rather than hashed:
/// 50 answers of 1 MB are mostly told apart by their length or their first bytes.
pub(crate) fn modal_share(texts: &[&str]) -> f64 {
    if texts.is_empty() {
        return 1.0;
    }
    let mut distinct: Vec<(&str, usize)> = Vec::new();
    for t in texts {
        match distinct
            .iter_mut()
            .find(|(d, _)| d.len() == t.len() && d == t)
        {
            Some((_, n)) => *n += 1,
            None => distinct.push((t, 1)),
        }
    }
    let top = distinct.iter().map(|(_, n)| *n).max().unwrap_or(0);
    top as f64 / texts.len() as f64
}

/// Evidence for each errored epoch (seed 004 §12: an errored or timed-out epoch is an invalid
/// run); empty when none errored.
pub(crate) fn errored_evidence(members: &[GroupMember<'_>]) -> Vec<Evidence> {
    members
        .iter()
        .filter_map(|m| {
            m.response.error.as_ref().map(|e| {
                Evidence::msg(format!(
                    "epoch {} errored ({}): {} — an invalid run",
                    m.epoch,
                    e.kind,
                    excerpt(&e.message, 160)
                ))
            })
        })
        .collect()
}

/// Parses an answer as JSON (the first ```json fence when there is one).
pub(crate) fn parse_answer(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str(strip_fence(text, "json"))
}

/// Applies `ignore` (every value a path selects is removed) and then `sort_arrays` (every array a
/// path selects is sorted by its elements' canonical text, deepest arrays first, so an outer
/// array is ordered by its elements' sorted form).
pub(crate) fn apply(opts: &CanonOpts, mode: Normalize, v: &mut Value) {
    if !opts.ignore.is_empty() {
        let mut found: Vec<Location> = opts.ignore.iter().flat_map(|(_, p)| locate(p, v)).collect();
        // Last first, deepest first: removing an element never shifts a place still to remove.
        found.sort();
        found.dedup();
        for loc in found.iter().rev() {
            loc.remove(v);
        }
    }
    if !opts.sort_arrays.is_empty() {
        let mut found: Vec<Location> = opts
            .sort_arrays
            .iter()
            .flat_map(|(_, p)| locate(p, v))
            .collect();
        found.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.cmp(b)));
        found.dedup();
        for loc in &found {
            if let Some(Value::Array(items)) = loc.get_mut(v) {
                let mut keyed: Vec<(String, Value)> = items
                    .drain(..)
                    .map(|item| (canonical_text(mode, &item), item))
                    .collect();
                keyed.sort_by(|a, b| a.0.cmp(&b.0));
                items.extend(keyed.into_iter().map(|(_, item)| item));
            }
        }
    }
}

/// The canonical text of a JSON value: RFC 8785 for [`Normalize::Jcs`], keys sorted by code
/// point (compact, serde_json's number formatting) otherwise.
pub(crate) fn canonical_text(mode: Normalize, v: &Value) -> String {
    match mode {
        // A `Value` always serializes: the only errors are non-string keys and non-finite
        // floats, which a parsed `Value` cannot hold.
        Normalize::Jcs => serde_jcs::to_string(v).unwrap_or_else(|_| sorted_json(v)),
        _ => sorted_json(v),
    }
}

/// JSON with object keys sorted, so key order does not count as a difference.
pub(crate) fn sorted_json(v: &Value) -> String {
    verity_model::canonical_json(v)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn jcs(text: &str) -> String {
        canonical_text(Normalize::Jcs, &serde_json::from_str(text).unwrap())
    }

    /// RFC 8785 §3.2.2.3 and Appendix B: ECMAScript number formatting. A serializer that
    /// prints Rust's or serde_json's forms (`1e21`, `1e-7`, `-0.0`, `333333333.3333333`) fails.
    #[test]
    fn jcs_formats_numbers_as_ecmascript_does() {
        let cases = [
            ("1e21", "1e+21"),
            ("1E-7", "1e-7"),
            ("-0", "0"),
            ("-0.0", "0"),
            ("0.000001", "0.000001"),
            ("333333333.33333329", "333333333.3333333"),
            ("1E30", "1e+30"),
            ("4.50", "4.5"),
            ("2e-3", "0.002"),
            ("0.000001234", "0.000001234"),
            ("1e-7", "1e-7"),
            ("100000000000000000000", "100000000000000000000"),
            ("9007199254740992", "9007199254740992"),
            // Every number is an IEEE double (§3.2.2.3): integers past 2^53 round like doubles.
            ("9007199254740993", "9007199254740992"),
            ("5e-324", "5e-324"),
            ("1.7976931348623157e308", "1.7976931348623157e+308"),
        ];
        for (input, want) in cases {
            assert_eq!(jcs(&format!("[{input}]")), format!("[{want}]"), "{input}");
        }
        // RFC 8785 §3.2.2.3's example document.
        assert_eq!(
            jcs(
                r#"{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001]}"#
            ),
            r#"{"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27]}"#
        );
    }

    /// RFC 8785 §3.2.3: properties sorted by their UTF-16 code units, not by UTF-8 bytes or
    /// code points ("\ud83d\ude00" sorts before "\ufb33" in UTF-16, after it by code point).
    #[test]
    fn jcs_orders_keys_by_utf16_code_units() {
        let doc = r#"{
            "\u20ac": "Euro Sign",
            "\r": "Carriage Return",
            "\ufb33": "Hebrew Letter Dalet With Dagesh",
            "1": "One",
            "\ud83d\ude00": "Emoji: Grinning Face",
            "\u0080": "Control",
            "\u00f6": "Latin Small Letter O With Diaeresis"
        }"#;
        let values: Vec<String> = serde_json::from_str::<Value>(&jcs(doc))
            .unwrap()
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(
            values,
            [
                "Carriage Return",
                "One",
                "Control",
                "Latin Small Letter O With Diaeresis",
                "Euro Sign",
                "Emoji: Grinning Face",
                "Hebrew Letter Dalet With Dagesh"
            ]
        );
        // The code-point order `normalize = "json"` uses differs exactly there.
        let by_code_point = sorted_json(&serde_json::from_str(doc).unwrap());
        assert!(by_code_point.find("Hebrew").unwrap() < by_code_point.find("Emoji").unwrap());
    }

    /// RFC 8785 §3.2.2.2: strings with the fewest escapes (`\n`, `\u000f`, literal non-ASCII,
    /// `/` unescaped); the RFC's §3.2.4 sample output, byte for byte.
    #[test]
    fn jcs_escapes_minimally() {
        let input = r#"{
          "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
          "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
          "literals": [null, true, false]
        }"#;
        assert_eq!(
            jcs(input),
            "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],\"string\":\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}"
        );
    }

    #[test]
    fn ignore_and_sort_arrays_apply_before_comparing() {
        let opts = CanonOpts::from_options(
            json!({"ignore": ["$..id", "$.meta.generated_at"], "sort_arrays": ["$.views[*].fields"]})
                .as_object()
                .unwrap(),
        );
        let mut a = json!({
            "meta": {"generated_at": "2024-01-01", "v": 1},
            "views": [{"id": 7, "fields": ["name", "email", {"id": 1, "k": "x"}]}]
        });
        let mut b = json!({
            "views": [{"fields": [{"k": "x", "id": 2}, "email", "name"], "id": 9}],
            "meta": {"v": 1, "generated_at": "2025-06-30"}
        });
        apply(&opts, Normalize::Jcs, &mut a);
        apply(&opts, Normalize::Jcs, &mut b);
        assert_eq!(
            canonical_text(Normalize::Jcs, &a),
            canonical_text(Normalize::Jcs, &b)
        );
        assert_eq!(
            canonical_text(Normalize::Jcs, &a),
            r#"{"meta":{"v":1},"views":[{"fields":["email","name",{"k":"x"}]}]}"#
        );
        // Without the options the two differ.
        let plain = CanonOpts::default();
        let (mut c, mut d) = (json!({"a": [2, 1], "id": 1}), json!({"a": [1, 2], "id": 1}));
        apply(&plain, Normalize::Json, &mut c);
        apply(&plain, Normalize::Json, &mut d);
        assert_ne!(c, d);
    }
}
