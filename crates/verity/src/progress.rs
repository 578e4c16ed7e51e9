//! Progress output: a bar on a terminal (indicatif), plain lines otherwise. It consumes the
//! runner's events and never influences the run. It counts stored samples: the runner
//! announces a sample only once its transaction has committed.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use tokio::sync::mpsc::UnboundedReceiver;
use verity_model::Outcome;
use verity_runner::RunEvent;

fn print_preflight_warnings(scorer: &str, info: &verity_model::PreflightInfo) {
    for w in &info.warnings {
        eprintln!("warning: scorer `{scorer}`: {w}");
    }
}

pub async fn consume(mut rx: UnboundedReceiver<RunEvent>, total: u64, quiet: bool, tty: bool) {
    if quiet {
        // Pre-flight warnings are said even then: they question the run's verdicts.
        while let Some(ev) = rx.recv().await {
            if let RunEvent::Preflight { scorer, info } = ev {
                print_preflight_warnings(&scorer, &info);
            }
        }
        return;
    }
    let bar = tty.then(|| {
        let b = ProgressBar::new(total);
        b.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b.enable_steady_tick(Duration::from_millis(120));
        b
    });
    let (mut pass, mut fail, mut err, mut done) = (0u64, 0u64, 0u64, 0u64);
    let mut last_line = Instant::now();
    let mut next_pct = 10u64;
    while let Some(ev) = rx.recv().await {
        match ev {
            RunEvent::Preflight { scorer, info } => {
                // before the bar starts counting: plain lines
                let facts: Vec<String> =
                    info.facts.iter().map(|(k, v)| format!("{k} {v}")).collect();
                if !facts.is_empty() {
                    eprintln!("pre-flight: scorer `{scorer}`: {}", facts.join(", "));
                }
                print_preflight_warnings(&scorer, &info);
            }
            RunEvent::Started {
                run_id,
                total,
                already_done,
            } => {
                done = already_done;
                let msg = format!("run {run_id}: {total} samples");
                match &bar {
                    Some(b) => {
                        b.set_length(total);
                        b.set_position(already_done);
                        b.println(msg);
                    }
                    None => eprintln!("{msg}"),
                }
            }
            RunEvent::Retrying {
                key,
                attempt,
                delay,
                error,
            } => {
                let msg = format!(
                    "retry {key} attempt {} in {:.1}s: {error}",
                    attempt + 1,
                    delay.as_secs_f64()
                );
                match &bar {
                    Some(b) => b.set_message(msg),
                    None => eprintln!("{msg}"),
                }
            }
            RunEvent::SampleFinished {
                key,
                outcome,
                error,
                ..
            } => {
                done += 1;
                match outcome {
                    Outcome::Pass => pass += 1,
                    Outcome::Fail => fail += 1,
                    Outcome::Error => err += 1,
                }
                let counts = format!("pass {pass}  fail {fail}  error {err}");
                match &bar {
                    Some(b) => {
                        b.inc(1);
                        b.set_message(counts);
                        if let Some(e) = error {
                            b.println(format!("error {key}: {e}"));
                        }
                    }
                    None => {
                        if let Some(e) = error {
                            eprintln!("error {key}: {e}");
                        }
                        let pct = (done * 100).checked_div(total).unwrap_or(100);
                        if pct >= next_pct || last_line.elapsed() > Duration::from_secs(10) {
                            eprintln!("{done}/{total} samples ({pct}%)  {counts}");
                            last_line = Instant::now();
                            while next_pct <= pct {
                                next_pct += 10;
                            }
                        }
                    }
                }
            }
            RunEvent::BudgetReached { cost, tokens } => {
                let msg = format!(
                    "budget reached ({tokens} tokens, ${cost:.4}): no new samples are scheduled"
                );
                match &bar {
                    Some(b) => b.println(msg),
                    None => eprintln!("{msg}"),
                }
            }
            RunEvent::Stopping(stop) => {
                let msg = format!(
                    "stopping: {stop}; no new samples, and the ones in flight are abandoned"
                );
                match &bar {
                    Some(b) => b.println(msg),
                    None => eprintln!("{msg}"),
                }
            }
            RunEvent::Draining => {
                let msg = "stopping: no new samples; waiting for the ones in flight";
                match &bar {
                    Some(b) => b.println(msg),
                    None => eprintln!("{msg}"),
                }
            }
            RunEvent::Finished(s) => {
                if let Some(b) = &bar {
                    b.finish_and_clear();
                }
                eprintln!(
                    "{} {}: {}/{} samples, {} pass, {} fail, {} error in {:.1}s",
                    s.status.as_str(),
                    s.run_id,
                    s.completed,
                    s.total,
                    s.passed,
                    s.failed,
                    s.errors,
                    s.elapsed.as_secs_f64()
                );
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}
