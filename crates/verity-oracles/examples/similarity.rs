//! Speed of the `similarity` scorer (issue 14: 50 epochs of a 1 MB JSON answer in well under a
//! second): 50 answers of about 1 MiB each — 20 resources of ~120 fields — where every epoch
//! differs from every other in every resource (a renamed label per resource, and in some
//! epochs a changed enum value or a dropped field), so no pair of fingerprints is equal and
//! every pair of epochs is compared for every resource. Times `score_group` (parse, normalize,
//! fingerprint, compare, diff) REPS times and prints each time and the median.
//!
//! usage: cargo run --release -p verity-oracles --example similarity [EPOCHS] [REPS]

use std::time::Instant;

use serde_json::{Map, Value, json};
use verity_model::{GroupMember, Response, ScorerSpec, Task};

const RESOURCES: usize = 20;
const TYPES: [&str; 4] = ["string", "integer", "boolean", "date-time"];

fn answer(epoch: usize, fields: usize) -> String {
    let mut doc = Map::new();
    for r in 0..RESOURCES {
        let n = if epoch % 3 == 1 && r % 2 == 0 {
            fields - 1
        } else {
            fields
        };
        let items: Vec<Value> = (0..n)
            .map(|i| {
                let label = if i == epoch % fields {
                    format!("Field {i} of resource {r} (epoch {epoch})")
                } else {
                    format!("Field {i} of resource {r}")
                };
                let ty = if epoch % 5 == 2 && i == r { "number" } else { TYPES[(i + r) % 4] };
                json!({
                    "name": format!("field_{r}_{i}"),
                    "label": label,
                    "type": ty,
                    "required": (i + r) % 3 == 0,
                    "description": format!("The {i}th attribute of resource {r}, as the API documents it."),
                    "validation": {"min_length": i % 7, "max_length": 64 + i},
                })
            })
            .collect();
        doc.insert(
            format!("resource_{r}"),
            json!({"title": format!("Resource {r}"), "kind": "table", "fields": items}),
        );
    }
    Value::Object(doc).to_string()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let epochs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let reps: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    // Grow the field count until an answer is about 1 MiB.
    let mut fields = 50;
    while answer(0, fields).len() < 1 << 20 {
        fields += 5;
    }
    let responses: Vec<Response> = (0..epochs)
        .map(|e| Response {
            text: answer(e, fields),
            ..Response::default()
        })
        .collect();
    let total: usize = responses.iter().map(|r| r.text.len()).sum();
    let task = Task::prompt("bench", "p");
    let members: Vec<GroupMember<'_>> = responses
        .iter()
        .enumerate()
        .map(|(e, r)| GroupMember {
            task: &task,
            epoch: e as u32,
            response: r,
        })
        .collect();
    println!(
        "{epochs} answers of {:.2} MiB ({RESOURCES} resources of {fields} fields), {:.1} MiB in all",
        responses[0].text.len() as f64 / f64::from(1 << 20),
        total as f64 / f64::from(1 << 20)
    );
    // For reference: parsing alone, the floor under any scorer that reads the answers as JSON.
    let start = Instant::now();
    for r in &responses {
        let v: Value = serde_json::from_str(&r.text).expect("the answers are JSON");
        std::hint::black_box(v);
    }
    println!(
        "parsing the {epochs} answers alone: {:.3} s",
        start.elapsed().as_secs_f64()
    );
    // The default threshold (the task passes), then threshold 1 (it fails: every epoch is
    // also diffed against the canonical answer for the evidence).
    for threshold in [None, Some(1.0)] {
        let mut options = Map::new();
        if let Some(t) = threshold {
            options.insert("threshold".into(), json!(t));
        }
        let spec = ScorerSpec {
            kind: "similarity".into(),
            name: None,
            options,
            source: Default::default(),
        };
        let scorer = verity_oracles::build(&spec).expect("the similarity scorer builds");
        let mut times = Vec::with_capacity(reps);
        for rep in 0..reps {
            let start = Instant::now();
            let scores = scorer.score_group(&members);
            let secs = start.elapsed().as_secs_f64();
            let s = &scores[0];
            println!(
                "threshold {}, rep {}: {secs:.3} s — {} {:.4}, {} evidence lines: {}",
                threshold.map_or("0.9 (default)".to_owned(), |t| t.to_string()),
                rep + 1,
                s.status.as_str(),
                s.value.unwrap_or(f64::NAN),
                s.evidence.len(),
                s.explanation.as_deref().unwrap_or("")
            );
            times.push(secs);
        }
        times.sort_by(f64::total_cmp);
        println!("median of {reps}: {:.3} s", times[reps / 2]);
    }
}
