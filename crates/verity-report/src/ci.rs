//! What the CI formats (`junit.rs`, `github.rs`, `summary.rs`) share: a task's result under
//! one variant folded across its epochs the way the report folds it, and a failing
//! criterion's evidence as lines of text.
//!
//! A task × variant is one test: it passes when its outcome (over every counted epoch) is
//! `pass`. Its failures are folded by criterion: one entry per failing criterion key, with the
//! epochs it failed in and the evidence of the first of them. Infrastructure errors are folded
//! by error kind the same way; under the `exclude` error policy they do not count.

use std::collections::HashMap;

use verity_model::{ErrorPolicy, Evidence, Outcome, Score, ScoreStatus};

use crate::view::{
    FailedSample, RunView, TaskOutcome, TaskVariant, TaskView, evidence_location, one_line,
};

/// How many evidence items of one score the CI formats quote.
pub(crate) const MAX_EVIDENCE: usize = 10;
/// How many characters of one message (an explanation, an evidence message, an error) they
/// quote; longer ones are cut with `…`.
pub(crate) const MESSAGE_CHARS: usize = 1_000;
/// How many lines of an evidence snippet they quote.
pub(crate) const SNIPPET_LINES: usize = 12;

/// The view's failing samples by (task, variant, epoch).
pub(crate) fn failure_index(view: &RunView) -> HashMap<(&str, &str, u32), &FailedSample> {
    view.failures
        .iter()
        .map(|f| {
            (
                (f.key.task_id.as_str(), f.key.variant.as_str(), f.key.epoch),
                f,
            )
        })
        .collect()
}

/// A criterion that failed (or whose scorer errored) in some epochs of a task.
#[derive(Debug)]
pub(crate) struct CriterionFold<'a> {
    /// The report key (`symbols_exist`, `scorer/criterion`), or `outcome` for a sample that
    /// failed with no failing criterion (none of the outcome's criteria applied).
    pub key: String,
    /// The score of the first epoch it failed in; `None` for `outcome`.
    pub score: Option<&'a Score>,
    /// `Fail`, or `Error` for a scorer error.
    pub status: ScoreStatus,
    pub epochs: Vec<u32>,
    /// Whether the epochs count under the error policy (a scorer error under `exclude` does
    /// not).
    pub counts: bool,
}

/// An infrastructure error (the provider gave no answer) in some epochs of a task.
#[derive(Debug)]
pub(crate) struct ErrorFold {
    pub kind: String,
    /// The first epoch's message, on one line.
    pub message: String,
    pub epochs: Vec<u32>,
    /// Under `fail` errors count as failures; under `exclude` they are left out.
    pub counts: bool,
}

/// One task under one variant, folded across its epochs.
#[derive(Debug)]
pub(crate) struct Folded<'a> {
    pub outcome: TaskOutcome,
    pub criteria: Vec<CriterionFold<'a>>,
    pub errors: Vec<ErrorFold>,
    pub epochs: usize,
    /// The summed latency of the stored epochs, in milliseconds.
    pub latency_ms: u64,
}

/// Folds a task's epochs under one variant. Criteria the outcome rule does not look at are
/// left out: they did not fail the task (the full report lists them).
pub(crate) fn fold<'a>(
    view: &RunView,
    index: &HashMap<(&str, &str, u32), &'a FailedSample>,
    task: &TaskView,
    tv: &TaskVariant,
) -> Folded<'a> {
    let policy = view.error_policy();
    let outside: Vec<&str> = view
        .per_criterion
        .iter()
        .filter(|c| !c.in_outcome)
        .map(|c| c.key.as_str())
        .collect();
    let mut criteria: Vec<CriterionFold<'a>> = Vec::new();
    let mut errors: Vec<ErrorFold> = Vec::new();
    let mut latency_ms = 0u64;
    for s in &tv.epochs {
        latency_ms = latency_ms.saturating_add(s.response.latency_ms);
        if s.outcome == Outcome::Pass {
            continue;
        }
        let counts = !(policy == ErrorPolicy::Exclude && s.outcome == Outcome::Error);
        let epoch = s.key.epoch;
        let Some(f) = index.get(&(task.id.as_str(), tv.variant.as_str(), epoch)) else {
            continue;
        };
        if let Some(e) = &f.error {
            match errors.iter_mut().find(|x| x.kind == e.kind) {
                Some(x) => x.epochs.push(epoch),
                None => errors.push(ErrorFold {
                    kind: e.kind.clone(),
                    message: cut(&one_line(&e.message), MESSAGE_CHARS),
                    epochs: vec![epoch],
                    counts,
                }),
            }
            continue;
        }
        if f.criteria.is_empty() {
            push_criterion(
                &mut criteria,
                "outcome",
                None,
                ScoreStatus::Fail,
                epoch,
                counts,
            );
        }
        for c in f
            .criteria
            .iter()
            .filter(|c| !outside.contains(&c.key.as_str()))
        {
            push_criterion(
                &mut criteria,
                &c.key,
                Some(&c.score),
                c.score.status,
                epoch,
                counts,
            );
        }
    }
    Folded {
        outcome: tv.outcome,
        criteria,
        errors,
        epochs: tv.epochs.len(),
        latency_ms,
    }
}

fn push_criterion<'a>(
    out: &mut Vec<CriterionFold<'a>>,
    key: &str,
    score: Option<&'a Score>,
    status: ScoreStatus,
    epoch: u32,
    counts: bool,
) {
    match out.iter_mut().find(|c| c.key == key && c.status == status) {
        Some(c) => {
            if !c.epochs.contains(&epoch) {
                c.epochs.push(epoch);
            }
        }
        None => out.push(CriterionFold {
            key: key.to_owned(),
            score,
            status,
            epochs: vec![epoch],
            counts,
        }),
    }
}

/// `epoch #2 of 3`, `epochs #0, #2 of 3` (epochs are numbered from 0, as stored); empty for
/// a one-epoch task.
pub(crate) fn epochs_phrase(epochs: &[u32], of: usize) -> String {
    if of <= 1 {
        return String::new();
    }
    let list: Vec<String> = epochs.iter().map(|e| format!("#{e}")).collect();
    format!(
        "epoch{} {} of {of}",
        if epochs.len() == 1 { "" } else { "s" },
        list.join(", ")
    )
}

/// A criterion's one-line message: its explanation, else its first evidence message, else
/// what it is.
pub(crate) fn headline(c: &CriterionFold<'_>) -> String {
    let Some(score) = c.score else {
        return "failed: none of the outcome's criteria applied".into();
    };
    let text = score
        .explanation
        .as_deref()
        .map(one_line)
        .filter(|e| !e.is_empty())
        .or_else(|| {
            score
                .evidence
                .first()
                .map(|e| one_line(&e.message))
                .filter(|m| !m.is_empty())
        });
    let text = match (text, c.status) {
        (Some(t), ScoreStatus::Error) => format!("scorer error: {t}"),
        (Some(t), _) => t,
        (None, ScoreStatus::Error) => "scorer error".into(),
        (None, _) => "failed".into(),
    };
    cut(&text, MESSAGE_CHARS)
}

/// A criterion's evidence as lines: `criterion: …`, the explanation, each evidence item with
/// where it points in the answer and its snippet, indented.
pub(crate) fn evidence_lines(c: &CriterionFold<'_>, epochs_of: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut head = format!("criterion: {}", c.key);
    if let Some(s) = c.score {
        head.push_str(&format!(" (scorer {}, {})", s.scorer, s.status.as_str()));
    }
    let ep = epochs_phrase(&c.epochs, epochs_of);
    if !ep.is_empty() {
        head.push_str(&format!(", {ep}"));
    }
    out.push(head);
    let Some(s) = c.score else {
        out.push("none of the outcome's criteria applied to the answer".into());
        return out;
    };
    if let Some(e) = s
        .explanation
        .as_deref()
        .map(one_line)
        .filter(|e| !e.is_empty())
    {
        out.push(format!("explanation: {}", cut(&e, MESSAGE_CHARS)));
    }
    for ev in s.evidence.iter().take(MAX_EVIDENCE) {
        let msg = cut(&one_line(&ev.message), MESSAGE_CHARS);
        match place(ev) {
            Some(l) => out.push(format!("evidence: {msg} ({l})")),
            None => out.push(format!("evidence: {msg}")),
        }
        if let Some(snippet) = ev.snippet.as_deref().filter(|s| !s.trim().is_empty()) {
            let lines: Vec<&str> = snippet.lines().collect();
            for l in lines.iter().take(SNIPPET_LINES) {
                out.push(format!("    {}", cut(l, MESSAGE_CHARS)));
            }
            if lines.len() > SNIPPET_LINES {
                out.push(format!("    … {} more lines", lines.len() - SNIPPET_LINES));
            }
        }
    }
    if s.evidence.len() > MAX_EVIDENCE {
        out.push(format!(
            "… and {} more evidence items",
            s.evidence.len() - MAX_EVIDENCE
        ));
    }
    out
}

/// Where an evidence item points: `answer line 3, column 9` when it points into the answer,
/// `at FILE:LINE:COL` when it names a file (a cited repository file).
pub(crate) fn place(ev: &Evidence) -> Option<String> {
    if ev.file.is_some() {
        return evidence_location(ev).map(|l| format!("at {l}"));
    }
    match (ev.line, ev.column) {
        (Some(l), Some(c)) => Some(format!("answer line {l}, column {c}")),
        (Some(l), None) => Some(format!("answer line {l}")),
        _ => None,
    }
}

/// At most `max` characters of `s`, cut with `…`.
pub(crate) fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
    t.push('…');
    t
}

/// The repository-relative path of a file given relative to the suite's root: `base/file`
/// (`base` empty: the file as it is).
pub(crate) fn join_base(base: &str, file: &str) -> String {
    let base = base.trim_end_matches('/');
    if base.is_empty() || base == "." || file.starts_with('/') {
        file.to_owned()
    } else {
        format!("{base}/{file}")
    }
}

/// `suite.toml:12:3` → (`suite.toml`, 12, 3); `None` for a source that names no line
/// (`--gate`, `--fail-on-regression`).
pub(crate) fn split_source(s: &str) -> Option<(&str, u32, u32)> {
    let mut it = s.rsplitn(3, ':');
    let col = it.next()?.parse().ok()?;
    let line = it.next()?.parse().ok()?;
    let file = it.next()?;
    (line > 0).then_some((file, line, col))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(epochs_phrase(&[1], 1), "");
        assert_eq!(epochs_phrase(&[2], 3), "epoch #2 of 3");
        assert_eq!(epochs_phrase(&[0, 2], 3), "epochs #0, #2 of 3");
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abc", 4), "abc");
        assert_eq!(
            join_base("suites/x/", "tasks.jsonl"),
            "suites/x/tasks.jsonl"
        );
        assert_eq!(join_base("", "tasks.jsonl"), "tasks.jsonl");
        assert_eq!(join_base(".", "t.toml"), "t.toml");
        assert_eq!(split_source("suite.toml:12:3"), Some(("suite.toml", 12, 3)));
        assert_eq!(
            split_source("a:b/suite.toml:2:1"),
            Some(("a:b/suite.toml", 2, 1))
        );
        assert_eq!(split_source("--gate"), None);
        assert_eq!(split_source("x.toml:0:0"), None);
    }
}
