//! Schema-constrained decoding on the embedded model (numbers for BENCHMARKS.md): how often an
//! answer asked for JSON of a given schema fails to parse or validate, and the decode speed,
//! with and without the schema enforced (`response_schema`).
//!
//! ```text
//! cargo build --release -p verity-local --example schema
//! target/release/examples/schema qwen2.5-coder-0.5b-instruct [--reps 3] [--tokens 512] [--batch 8] [--show 2]
//! ```
//!
//! 24 prompts, each a short code snippet and the request to extract its claims as JSON of the
//! claims schema below (the schema is in the prompt both times). Greedy. First the one-off
//! costs: the vocabulary's tables (once per model) and compiling the schema (once per
//! request). Single stream (`batch = 1`, one request at a time): decode tokens/s (tokens after
//! the first over the time from the first token to the last, summed over the 24 answers) and
//! the time spent computing masks, medians over `--reps` runs. Batched (`--batch`, all 24
//! submitted at once): output tokens/s over the wall time. Answers are checked once (greedy:
//! every run gives the same text, which is checked too): strictly (the whole answer is one
//! JSON document) and, for the free answers, after taking the first fenced block out (what a
//! lenient scorer does); a parsed answer must then match the schema (checked by hand: the
//! workspace has no JSON Schema validator).

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{arg, median};
use serde_json::{Value, json};
use verity_local::LocalProvider;
use verity_model::{
    ChatMessage, GenParams, GenerateRequest, Generation, Provider, ProviderSpec, Role, SampleKey,
    Task,
};

const SNIPPETS: &[(&str, &str)] = &[
    (
        "python",
        "def area(r):\n    return 3.14159 * r * r\n\nprint(area(2))",
    ),
    (
        "python",
        "MAX_RETRIES = 5\n\ndef fetch(url, timeout=30):\n    for i in range(MAX_RETRIES):\n        pass",
    ),
    (
        "python",
        "class Stack:\n    def __init__(self):\n        self.items = []\n    def push(self, x):\n        self.items.append(x)",
    ),
    (
        "python",
        "import math\n\ndef hyp(a, b):\n    return math.sqrt(a * a + b * b)",
    ),
    (
        "python",
        "users = {\"alice\": 31, \"bob\": 27}\noldest = max(users, key=users.get)",
    ),
    (
        "python",
        "def is_even(n: int) -> bool:\n    return n % 2 == 0",
    ),
    (
        "rust",
        "const PORT: u16 = 8080;\n\nfn main() {\n    println!(\"listening on {}\", PORT);\n}",
    ),
    ("rust", "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}"),
    (
        "rust",
        "struct Point {\n    x: f64,\n    y: f64,\n}\n\nimpl Point {\n    fn norm(&self) -> f64 { (self.x * self.x + self.y * self.y).sqrt() }\n}",
    ),
    (
        "rust",
        "let v = vec![3, 1, 2];\nlet mut s = v.clone();\ns.sort();\nassert_eq!(s, [1, 2, 3]);",
    ),
    (
        "rust",
        "#[derive(Debug)]\nenum Color { Red, Green, Blue }\n\nfn is_warm(c: Color) -> bool { matches!(c, Color::Red) }",
    ),
    (
        "rust",
        "fn fib(n: u64) -> u64 {\n    if n < 2 { n } else { fib(n - 1) + fib(n - 2) }\n}",
    ),
    (
        "go",
        "package main\n\nconst Timeout = 10\n\nfunc Double(x int) int {\n\treturn x * 2\n}",
    ),
    (
        "go",
        "type User struct {\n\tName string\n\tAge  int\n}\n\nfunc (u User) Adult() bool { return u.Age >= 18 }",
    ),
    (
        "go",
        "func Sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}",
    ),
    (
        "go",
        "var version = \"1.4.2\"\n\nfunc Version() string { return version }",
    ),
    (
        "javascript",
        "const TAX = 0.2;\nfunction gross(net) {\n  return net * (1 + TAX);\n}",
    ),
    (
        "javascript",
        "async function load(id) {\n  const res = await fetch(`/api/items/${id}`);\n  return res.json();\n}",
    ),
    (
        "javascript",
        "export default function greet(name = \"world\") {\n  return `Hello, ${name}!`;\n}",
    ),
    (
        "javascript",
        "const sizes = [\"S\", \"M\", \"L\"];\nconsole.log(sizes.length);",
    ),
    (
        "swift",
        "let maxUsers = 100\n\nfunc isFull(count: Int) -> Bool {\n    return count >= maxUsers\n}",
    ),
    (
        "swift",
        "struct Temperature {\n    var celsius: Double\n    var fahrenheit: Double { celsius * 9 / 5 + 32 }\n}",
    ),
    (
        "java",
        "public class Counter {\n    private int count = 0;\n    public void increment() { count++; }\n}",
    ),
    (
        "c",
        "#define BUFFER_SIZE 256\n\nint square(int x) {\n    return x * x;\n}",
    ),
];

/// The claims schema (seed 003): what a piece of code says, one claim per fact.
fn claims_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "claims": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "subject": {"type": "string"},
                        "predicate": {"type": "string"},
                        "value": {"type": ["string", "number", "boolean"]},
                        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                        "line": {"type": "integer", "minimum": 1}
                    },
                    "required": ["subject", "predicate", "value", "confidence", "line"],
                    "additionalProperties": false
                }
            }
        },
        "required": ["claims"],
        "additionalProperties": false
    })
}

/// Whether `v` is a document [`claims_schema`] accepts.
fn valid_claims(v: &Value) -> bool {
    let Some(o) = v.as_object() else { return false };
    let Some(claims) = o.get("claims").and_then(Value::as_array) else {
        return false;
    };
    o.len() == 1
        && claims.iter().all(|c| {
            let Some(c) = c.as_object() else { return false };
            c.len() == 5
                && c.get("subject").is_some_and(Value::is_string)
                && c.get("predicate").is_some_and(Value::is_string)
                && c.get("value")
                    .is_some_and(|v| v.is_string() || v.is_number() || v.is_boolean())
                && c.get("confidence")
                    .and_then(Value::as_f64)
                    .is_some_and(|x| (0.0..=1.0).contains(&x))
                && c.get("line")
                    .and_then(Value::as_i64)
                    .is_some_and(|n| n >= 1)
        })
}

fn prompt(lang: &str, code: &str) -> String {
    format!(
        "List the factual claims this code makes (names, parameters, types, constants, return \
         values), as JSON that matches this JSON Schema:\n{}\n\nAnswer with the JSON only.\n\n\
         ```{lang}\n{code}\n```",
        claims_schema()
    )
}

fn spec(model: &str, batch: usize) -> ProviderSpec {
    ProviderSpec {
        kind: "local".into(),
        model: Some(model.into()),
        base_url: None,
        api_key_env: None,
        options: json!({"batch": batch})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    }
}

fn request(i: usize, text: String, max_tokens: u32, constrained: bool) -> GenerateRequest {
    GenerateRequest {
        sample: SampleKey {
            task_id: format!("t{i}"),
            variant: "schema".into(),
            epoch: 1,
        },
        task: Arc::new(Task::prompt(format!("t{i}"), text.clone())),
        messages: vec![ChatMessage::new(Role::User, text)],
        params: GenParams {
            temperature: Some(0.0),
            max_tokens: Some(max_tokens),
            response_schema: constrained.then(claims_schema),
            ..GenParams::default()
        },
        tools: Vec::new(),
    }
}

fn raw(g: &Generation, key: &str) -> f64 {
    serde_json::from_str::<Value>(&g.raw).unwrap()[key]
        .as_f64()
        .unwrap_or(0.0)
}

/// Runs `reqs` one at a time, or all at once, on a fresh runtime.
fn run(p: &LocalProvider, reqs: &[GenerateRequest], at_once: bool) -> (Vec<Generation>, Duration) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let start = Instant::now();
    let gens = rt.block_on(async {
        if at_once {
            futures::future::join_all(reqs.iter().map(|r| p.generate(r))).await
        } else {
            let mut out = Vec::new();
            for r in reqs {
                out.push(p.generate(r).await);
            }
            out
        }
    });
    let wall = start.elapsed();
    (
        gens.into_iter().map(|g| g.expect("generation")).collect(),
        wall,
    )
}

/// Parse and validation counts of a set of answers: (strict parse failures, strict invalid,
/// lenient parse failures, lenient invalid, cut by max_tokens).
fn check(gens: &[Generation]) -> [usize; 5] {
    let mut n = [0; 5];
    for g in gens {
        let strict = serde_json::from_str::<Value>(g.text.trim());
        match &strict {
            Err(_) => n[0] += 1,
            Ok(v) if !valid_claims(v) => n[1] += 1,
            Ok(_) => {}
        }
        let lenient =
            serde_json::from_str::<Value>(verity_oracles::strip_fence(&g.text, "").trim());
        match &lenient {
            Err(_) => n[2] += 1,
            Ok(v) if !valid_claims(v) => n[3] += 1,
            Ok(_) => {}
        }
        if g.finish_reason.as_deref() == Some("length") {
            n[4] += 1;
        }
    }
    n
}

/// Per mode: decode rates, mask ms per token, batched rates, and the first run's answers.
#[derive(Default)]
struct Mode {
    rates: Vec<f64>,
    masks: Vec<f64>,
    batched: Vec<f64>,
    /// Share of the batched runs' wall time spent computing masks (on the engine thread).
    batched_masks: Vec<f64>,
    answers: Option<Vec<Generation>>,
}

fn runs(v: &[f64]) -> String {
    v.iter()
        .map(|r| format!("{r:.1}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let model = args
        .get(1)
        .filter(|a| !a.starts_with("--"))
        .cloned()
        .unwrap_or_else(|| verity_local::DEFAULT_MODEL.into());
    let reps = arg(&args, "--reps", 3);
    let max_tokens = arg(&args, "--tokens", 512) as u32;
    let batch = arg(&args, "--batch", 8);
    let show = arg(&args, "--show", 2);
    let prompts: Vec<String> = SNIPPETS.iter().map(|(l, c)| prompt(l, c)).collect();
    let reqs = |constrained| -> Vec<GenerateRequest> {
        prompts
            .iter()
            .enumerate()
            .map(|(i, p)| request(i, p.clone(), max_tokens, constrained))
            .collect()
    };
    let modes = [("free", reqs(false)), ("schema", reqs(true))];
    println!(
        "model {model}, {} prompts, max_tokens {max_tokens}, greedy, {reps} runs",
        prompts.len()
    );

    let single = LocalProvider::from_spec(&spec(&model, 1)).expect("load");
    let t = Instant::now();
    let grammars = single.loaded().grammars().expect("grammars");
    let tables = t.elapsed();
    let mut compile = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        grammars.json_schema(&claims_schema()).expect("schema");
        compile.push(t.elapsed().as_secs_f64() * 1e3);
    }
    println!(
        "vocabulary tables ({} tokens, once per model): {:.2} s; compiling the claims schema: median {:.2} ms",
        grammars.vocab_size(),
        tables.as_secs_f64(),
        median(compile)
    );

    // The two modes alternate within each run, so a change in the machine's load hits both.
    let mut stats: [Mode; 2] = Default::default();
    for rep in 0..reps {
        for ((_, reqs), st) in modes.iter().zip(&mut stats) {
            let (gens, _) = run(&single, reqs, false);
            let decoded: f64 = gens.iter().map(|g| raw(g, "completion_tokens") - 1.0).sum();
            let secs: f64 = gens.iter().map(|g| raw(g, "decode_ms")).sum::<f64>() / 1e3;
            let mask_ms: f64 = gens.iter().map(|g| raw(g, "mask_ms")).sum();
            let all: f64 = gens.iter().map(|g| raw(g, "completion_tokens")).sum();
            st.rates.push(decoded / secs);
            st.masks.push(mask_ms / all);
            match &st.answers {
                None => st.answers = Some(gens),
                Some(first) => {
                    for (a, b) in first.iter().zip(&gens) {
                        assert_eq!(a.text, b.text, "greedy answers differ between runs ({rep})");
                    }
                }
            }
        }
    }
    drop(single);
    let batched = LocalProvider::from_spec(&spec(&model, batch)).expect("load");
    for _ in 0..reps {
        for ((_, reqs), st) in modes.iter().zip(&mut stats) {
            let (gens, wall) = run(&batched, reqs, true);
            let tokens: f64 = gens.iter().map(|g| raw(g, "completion_tokens")).sum();
            let mask_ms: f64 = gens.iter().map(|g| raw(g, "mask_ms")).sum();
            st.batched.push(tokens / wall.as_secs_f64());
            st.batched_masks
                .push(100.0 * mask_ms / 1e3 / wall.as_secs_f64());
        }
    }

    let n = prompts.len();
    for ((label, _), st) in modes.iter().zip(&stats) {
        let answers = st.answers.as_deref().unwrap_or_default();
        for (i, g) in answers.iter().take(show).enumerate() {
            println!(
                "--- {label} answer {i} ({}):\n{}",
                g.finish_reason.as_deref().unwrap_or("?"),
                g.text
            );
        }
        for (i, g) in answers.iter().enumerate() {
            let text = verity_oracles::strip_fence(&g.text, "").trim();
            let ok = serde_json::from_str::<Value>(text).is_ok_and(|v| valid_claims(&v));
            if !ok {
                let cut: String = g.text.chars().take(300).collect();
                println!(
                    "--- {label} answer {i} fails ({}, {} tokens): {cut:?}",
                    g.finish_reason.as_deref().unwrap_or("?"),
                    g.usage.output_tokens
                );
            }
        }
        let c = check(answers);
        let tokens: u64 = answers.iter().map(|g| g.usage.output_tokens).sum();
        println!(
            "{label:6}: {tokens} output tokens; strict: {} of {n} do not parse, {} more do not \
             validate; fence stripped: {} do not parse, {} more do not validate; {} cut by \
             max_tokens",
            c[0], c[1], c[2], c[3], c[4],
        );
        println!(
            "{label:6}: single stream decode median {:.1} tok/s (runs: {}); masks {:.3} ms/token; \
             all {n} at once, batch {batch}: median {:.1} output tok/s (runs: {}), masks {:.1} % of the \
             wall time",
            median(st.rates.clone()),
            runs(&st.rates),
            median(st.masks.clone()),
            median(st.batched.clone()),
            runs(&st.batched),
            median(st.batched_masks.clone()),
        );
    }
}
