//! `response_schema` on the real models: answers parse and validate, invalid schemas are config
//! errors, and constrained greedy answers are the same alone and batched.

use serde_json::{Value, json};
use verity_model::{GenParams, Generation, Provider, ProviderErrorKind};

use crate::{QWEN, SMOL, generate_all, greedy, provider, request};

fn raw(g: &Generation) -> Value {
    serde_json::from_str(&g.raw).unwrap()
}

/// A person: a name, an age and a flag, nothing else.
fn person() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": 40},
            "age": {"type": "integer", "minimum": 0, "maximum": 150},
            "student": {"type": "boolean"}
        },
        "required": ["name", "age", "student"],
        "additionalProperties": false
    })
}

/// What [`person`] accepts, checked by hand (the workspace has no JSON Schema validator).
fn is_person(v: &Value) -> bool {
    let Some(o) = v.as_object() else { return false };
    o.len() == 3
        && o.get("name")
            .and_then(Value::as_str)
            .is_some_and(|s| s.chars().count() <= 40)
        && o.get("age")
            .and_then(Value::as_u64)
            .is_some_and(|n| n <= 150)
        && o.get("student").is_some_and(Value::is_boolean)
}

const PEOPLE: &[&str] = &[
    "Describe Ada, a 36-year-old engineer, as JSON with the keys name, age and student.",
    "Give me a JSON object for a student named Li who is 19.",
    "Alan Turing died at 41. Output JSON: name, age, student.",
    "Invent a person and describe them in JSON.",
];

fn with_schema(schema: Value, max_tokens: u32) -> GenParams {
    GenParams {
        response_schema: Some(schema),
        ..greedy(max_tokens)
    }
}

fn answers_parse_and_validate(name: &str) {
    let p = provider(name, 4);
    let reqs: Vec<_> = PEOPLE
        .iter()
        .map(|q| request(q, with_schema(person(), 128)))
        .collect();
    for (q, g) in PEOPLE.iter().zip(generate_all(&p, &reqs)) {
        assert_eq!(
            g.finish_reason.as_deref(),
            Some("stop"),
            "{q}: {:?}",
            g.text
        );
        let v: Value =
            serde_json::from_str(&g.text).unwrap_or_else(|e| panic!("{q}: {e}: {:?}", g.text));
        assert!(is_person(&v), "{q}: {v}");
        assert!(raw(&g)["mask_ms"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn smollm2_answers_with_a_schema_parse_and_validate() {
    answers_parse_and_validate(SMOL);
}

#[test]
#[ignore = "needs qwen2.5-coder-0.5b-instruct (491 MB): verity model pull qwen2.5-coder-0.5b-instruct"]
fn qwen_answers_with_a_schema_parse_and_validate() {
    answers_parse_and_validate(QWEN);
}

#[test]
fn smollm2_invalid_schemas_are_config_errors_naming_the_problem() {
    let p = provider(SMOL, 4);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    for (schema, says) in [
        (json!({"type": "strin"}), "strin"),
        (json!("schemas/person.json"), "not a string"),
        (json!({"$ref": "#/$defs/nowhere"}), "nowhere"),
    ] {
        let req = request("Hello", with_schema(schema.clone(), 16));
        let e = rt.block_on(p.generate(&req)).unwrap_err();
        assert_eq!(e.kind, ProviderErrorKind::Config, "{schema}: {e:?}");
        assert!(
            e.message.contains("invalid `response_schema`") && e.message.contains(says),
            "{schema}: {}",
            e.message
        );
    }
}

/// With a schema, a greedy answer is the same alone, twice, and batched with other
/// constrained and unconstrained requests; the unconstrained ones in that batch are the same
/// as alone too (the mask is per sequence).
fn batch_invariance_with_a_schema(name: &str) {
    let p = provider(name, 4);
    let mut reqs: Vec<_> = PEOPLE[..3]
        .iter()
        .map(|q| request(q, with_schema(person(), 64)))
        .collect();
    reqs.push(request(PEOPLE[3], greedy(48)));
    let alone: Vec<Generation> = reqs
        .iter()
        .map(|r| generate_all(&p, std::slice::from_ref(r)).remove(0))
        .collect();
    let again = generate_all(&p, &reqs[..1]).remove(0);
    assert_eq!(
        again.text, alone[0].text,
        "the same constrained request twice"
    );
    let batched = generate_all(&p, &reqs);
    let sizes: Vec<u64> = batched
        .iter()
        .map(|g| raw(g)["max_batch"].as_u64().unwrap())
        .collect();
    assert!(
        sizes.iter().any(|&s| s > 1),
        "the requests were not batched: {sizes:?}"
    );
    for (i, g) in batched.iter().enumerate() {
        assert_eq!(g.text, alone[i].text, "request {i} alone vs batched");
        assert_eq!(g.usage.output_tokens, alone[i].usage.output_tokens);
    }
    // Different prompts give different answers (the test above is not vacuous).
    assert!(alone[1..3].iter().any(|g| g.text != alone[0].text));
    assert_eq!(raw(&batched[3])["mask_ms"].as_f64(), Some(0.0));
}

#[test]
fn smollm2_constrained_greedy_output_is_identical_alone_twice_and_in_a_batch() {
    batch_invariance_with_a_schema(SMOL);
}

#[test]
#[ignore = "needs qwen2.5-coder-0.5b-instruct (491 MB): verity model pull qwen2.5-coder-0.5b-instruct"]
fn qwen_constrained_greedy_output_is_identical_alone_twice_and_in_a_batch() {
    batch_invariance_with_a_schema(QWEN);
}

/// `max_tokens` cuts a constrained answer like any other: an incomplete document and
/// `length`, not an error.
#[test]
fn smollm2_max_tokens_cuts_a_constrained_answer_without_an_error() {
    let p = provider(SMOL, 4);
    let g = generate_all(&p, &[request(PEOPLE[0], with_schema(person(), 3))]).remove(0);
    assert_eq!(g.finish_reason.as_deref(), Some("length"));
    assert_eq!(g.usage.output_tokens, 3);
    assert!(g.text.starts_with('{'), "{:?}", g.text);
    assert!(serde_json::from_str::<Value>(&g.text).is_err());
}
