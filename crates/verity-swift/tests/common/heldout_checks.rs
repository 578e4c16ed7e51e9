//! What the two held-out tests (`heldout.rs`, `heldout2.rs`) share beyond `common`: the
//! structural checks of a held-out manifest and the per-criterion floors.

use std::collections::BTreeSet;

use crate::common::{CRITERIA, LabelledSet, Outcome};
use verity_swift::{CheckOptions, FutureMode, Target};

/// The options every held-out case runs with: the default index, future deprecations failing
/// (the sets label `deprecated: 100000` APIs `no_deprecated: fail`).
pub fn options(target: Target) -> CheckOptions {
    let mut opts = CheckOptions::new(target).expect("default index");
    opts.future = FutureMode::Fail;
    opts
}

/// The least a held-out set must hold.
pub struct Minimums {
    pub cases: usize,
    pub symbol_fails: usize,
    pub deprecation_fails: usize,
    pub availability_fails: usize,
    /// Cases of the `tricky` subset.
    pub tricky: usize,
    /// Cases that fail no criterion (`tricky` + `clean`).
    pub clean: usize,
}

fn count_fails(set: &LabelledSet, criterion: &str) -> usize {
    set.cases
        .iter()
        .filter(|c| c.want(criterion) == "fail")
        .count()
}

/// `criterion: line N` in a label's `why`, with N a line of the file.
fn cites_line(why: &str, criterion: &str, lines: usize) -> bool {
    let prefix = format!("{criterion}: line ");
    why.match_indices(&prefix).any(|(at, _)| {
        let digits: String = why[at + prefix.len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits
            .parse::<usize>()
            .is_ok_and(|n| (1..=lines).contains(&n))
    })
}

/// Checks the structure of a held-out set: every file listed once and present, known targets,
/// subsets and verdicts, a class and a why per case, every `fail` citing its line, and the
/// minimum counts.
pub fn assert_well_formed(set: &LabelledSet, min: &Minimums) {
    assert!(
        set.cases.len() >= min.cases,
        "the held-out set has {} snippets, fewer than {}",
        set.cases.len(),
        min.cases
    );

    let mut problems = Vec::new();
    let mut listed = BTreeSet::new();
    for case in &set.cases {
        let f = &case.file;
        if !listed.insert(f.clone()) {
            problems.push(format!("{f}: listed twice"));
        }
        if Target::parse(&case.target).is_none() {
            problems.push(format!("{f}: bad target {}", case.target));
        }
        if case.class.as_deref().is_none_or(|c| c.trim().is_empty()) {
            problems.push(format!("{f}: no class"));
        }
        let keys: BTreeSet<&str> = case.expect.keys().map(String::as_str).collect();
        if keys != CRITERIA.into_iter().collect() {
            problems.push(format!("{f}: expect must label exactly {CRITERIA:?}"));
        }
        for (c, v) in &case.expect {
            if !matches!(v.as_str(), "pass" | "fail" | "na") {
                problems.push(format!("{f}: {c} = {v}"));
            }
        }
        let fails: Vec<&str> = CRITERIA
            .into_iter()
            .filter(|c| case.want(c) == "fail")
            .collect();
        match case.subset.as_str() {
            "positive" if fails.is_empty() => {
                problems.push(format!("{f}: positive but no criterion fails"));
            }
            "tricky" | "clean" if !fails.is_empty() => {
                problems.push(format!(
                    "{f}: {} but expects {fails:?} to fail",
                    case.subset
                ));
            }
            "positive" | "tricky" | "clean" => {}
            other => problems.push(format!("{f}: unknown subset {other}")),
        }
        let why = case.why.as_deref().unwrap_or("");
        if why.trim().is_empty() {
            problems.push(format!("{f}: no why"));
        }
        match std::fs::read_to_string(set.dir.join(f)) {
            Ok(src) => {
                let lines = src.lines().count();
                for c in &fails {
                    if !cites_line(why, c, lines) {
                        problems.push(format!(
                            "{f}: the why of `{c}: fail` must cite `{c}: line N` (N in 1..={lines})"
                        ));
                    }
                }
            }
            Err(e) => problems.push(format!("{f}: {e}")),
        }
    }
    let on_disk = std::fs::read_dir(&set.dir).expect("held-out dir");
    for entry in on_disk {
        let name = entry.expect("dir entry").file_name();
        let name = name.to_string_lossy();
        if name != "manifest.json" && !listed.contains(name.as_ref()) {
            problems.push(format!("{name}: not in the manifest"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    let tricky = set.cases.iter().filter(|c| c.subset == "tricky").count();
    let clean = set.cases.iter().filter(|c| c.subset != "positive").count();
    for (what, n, at_least) in [
        (
            "symbols_exist fails",
            count_fails(set, "symbols_exist"),
            min.symbol_fails,
        ),
        (
            "no_deprecated fails",
            count_fails(set, "no_deprecated"),
            min.deprecation_fails,
        ),
        (
            "availability_ok fails",
            count_fails(set, "availability_ok"),
            min.availability_fails,
        ),
        ("tricky clean cases", tricky, min.tricky),
        ("cases failing no criterion", clean, min.clean),
    ] {
        assert!(n >= at_least, "{n} {what}, fewer than {at_least}");
    }
}

/// Asserts an exact `parse` criterion and every other criterion at or above its
/// (precision, recall) floor.
pub fn assert_floors(out: &Outcome, floors: &[(&str, f64, f64)]) {
    let parse: Vec<String> = out
        .disagreements
        .iter()
        .filter(|d| d.criterion == "parse")
        .map(ToString::to_string)
        .collect();
    assert!(
        parse.is_empty(),
        "the parse criterion must be exact:\n{}",
        parse.join("\n")
    );

    let mut below = Vec::new();
    for &(c, min_p, min_r) in floors {
        let e = out.of(c);
        let (p, r) = (e.precision(), e.recall());
        if p < min_p || r < min_r {
            below.push(format!(
                "{c}: precision {p:.3} (floor {min_p}), recall {r:.3} (floor {min_r})"
            ));
        }
    }
    assert!(
        below.is_empty(),
        "held-out precision/recall below the floors:\n{}",
        below.join("\n")
    );
}
