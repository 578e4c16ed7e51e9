//! The HTML report's speed at scale (issue 18: a 20,000-sample run renders in under 2 s):
//! the test fixture's run (`tests/it/fixture.rs`: two variants, two epochs, swift and claims
//! scores with evidence at lines, an errored sample, tool calls, determinism verdicts) repeated
//! over TASKS tasks — 5,000 by default, so 20,000 samples — then `RunView::new` and
//! `render_html` timed REPS times. Prints each repetition, the medians and the page's size, and
//! writes the page to OUT when given (for the browser's time to first table).
//!
//! `cargo run --release -p verity-report --example html_bench -- [TASKS] [REPS] [OUT]`

#[allow(dead_code)]
#[path = "../tests/it/fixture.rs"]
mod fixture;

use std::time::Instant;

use verity_report::{Extras, RunView, render_html, to_json_with};

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let tasks: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5_000);
    let reps: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5);
    let out = args.get(3);

    let mut meta = fixture::meta();
    let base = meta.suite.tasks.clone();
    let base_samples = fixture::samples();
    let base_groups = fixture::groups();
    let id = |i: usize| format!("{}-{i:05}", base[i % base.len()].id);
    meta.suite.tasks = (0..tasks)
        .map(|i| {
            let mut t = base[i % base.len()].clone();
            t.id = id(i);
            t
        })
        .collect();
    let mut samples = Vec::new();
    let mut groups = Vec::new();
    for i in 0..tasks {
        let from = &base[i % base.len()].id;
        for s in base_samples.iter().filter(|s| &s.key.task_id == from) {
            let mut s = s.clone();
            s.key.task_id = id(i);
            samples.push(s);
        }
        for g in base_groups.iter().filter(|g| &g.group == from) {
            let mut g = g.clone();
            g.group = id(i);
            g.task_ids = vec![id(i)];
            groups.push(g);
        }
    }
    // The store hands samples over in task, variant, epoch order.
    let order: std::collections::HashMap<String, usize> = (0..tasks).map(|i| (id(i), i)).collect();
    samples.sort_by(|a, b| {
        (order[&a.key.task_id], &a.key.variant, a.key.epoch).cmp(&(
            order[&b.key.task_id],
            &b.key.variant,
            b.key.epoch,
        ))
    });
    meta.total_samples = samples.len() as u64;
    println!(
        "{tasks} tasks, {} samples, {} group verdicts",
        samples.len(),
        groups.len()
    );

    let (mut view_s, mut html_s, mut json_s) = (Vec::new(), Vec::new(), Vec::new());
    let mut size = 0;
    for r in 0..reps {
        let t0 = Instant::now();
        let view = RunView::new(&meta, &samples, &groups);
        let t1 = Instant::now();
        let page = render_html(&view, &Extras::default());
        let t2 = Instant::now();
        // For reference: the JSON report alone, as `--format json` builds it.
        let json = serde_json::to_string(&to_json_with(&view, &Extras::default()));
        json_s.push(t2.elapsed().as_secs_f64());
        drop(json);
        size = page.len();
        view_s.push((t1 - t0).as_secs_f64());
        html_s.push((t2 - t1).as_secs_f64());
        println!(
            "rep {}: view {:.3} s, render_html {:.3} s (the JSON report alone: {:.3} s), {} bytes",
            r + 1,
            view_s[r],
            html_s[r],
            json_s[r],
            size
        );
        if let (0, Some(out)) = (r, out) {
            std::fs::write(out, &page).expect("writing the page");
        }
    }
    println!(
        "median of {reps}: view {:.3} s, render_html {:.3} s (JSON alone {:.3} s), together {:.3} s; page {:.1} MiB",
        median(&mut view_s),
        median(&mut html_s),
        median(&mut json_s),
        median(
            &mut view_s
                .iter()
                .zip(&html_s)
                .map(|(a, b)| a + b)
                .collect::<Vec<_>>()
        ),
        size as f64 / 1048576.0
    );
}
