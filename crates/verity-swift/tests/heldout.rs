//! The first held-out labelled set (issue 16): `tests/heldout/` was written independently of
//! `tests/corpus/` and frozen in its own commit before the type-aware analyzer work, and
//! measured the oracles on code nobody had tuned on until its disagreements were read and
//! reported (BENCHMARKS.md keeps the numbers it recorded: symbols_exist 0.864 / 0.452 before
//! the type-aware work, 0.907 / 0.929 after; no_deprecated 0.864 / 0.905, then 0.952 / 0.952).
//!
//! **From then on it is tuning data**, like `tests/corpus/`: the general causes of its
//! disagreements may be fixed, and it can no longer measure generalisation. The second set,
//! `tests/heldout2/` (`heldout2.rs`), frozen before any change made for the causes found here,
//! measured it next, and is tuning data now as well.
//!
//! Every case runs through the same entry points as `accuracy.rs` (`check_source` /
//! `check_answer` with `CheckOptions::new(target)`), with deprecations in a future release
//! failing (`FutureMode::Fail`: the set labels `deprecated: 100000` APIs `no_deprecated:
//! fail`). The test prints the confusion table and every disagreement, and asserts the
//! structure of the set, an exact `parse` criterion, and the precision/recall floors in
//! [`HELDOUT_MIN`].
//!
//! `cargo nextest run -p verity-swift --test heldout --no-capture` prints the table.

mod common;
#[path = "common/heldout_checks.rs"]
mod heldout_checks;

use common::LabelledSet;
use heldout_checks::{Minimums, assert_floors, assert_well_formed, options};

/// Per criterion, the (precision, recall) the oracles must reach on the held-out set.
///
/// A regression guard: the values the type-aware analyzer and the typed index measure
/// (truncated to three decimals, nothing subtracted). When the set was frozen they were
/// symbols_exist 0.863 / 0.452 and no_deprecated 0.863 / 0.904; no_deprecated's precision
/// reached 1.0 once a member of an unknown receiver stopped matching types the source never
/// names, symbols_exist's with tuning round 3 (the index's missing frameworks and the C
/// structs' memberwise initializers; `tests/heldout2/` is tuning data too by then);
/// symbols_exist's recall and no_deprecated's with tuning round 4.
/// BENCHMARKS.md lists the disagreements still open.
const HELDOUT_MIN: [(&str, f64, f64); 4] = [
    ("parse", 1.0, 1.0),
    ("symbols_exist", 1.0, 0.952),
    ("availability_ok", 1.0, 1.0),
    ("no_deprecated", 1.0, 1.0),
];

/// What the set was written to cover (issue 16).
const MINIMUMS: Minimums = Minimums {
    cases: 90,
    symbol_fails: 30,
    deprecation_fails: 15,
    availability_fails: 10,
    tricky: 30,
    clean: 30,
};

#[test]
fn heldout_set_is_well_formed() {
    assert_well_formed(&LabelledSet::load("heldout"), &MINIMUMS);
}

#[test]
fn heldout_precision_and_recall() {
    let set = LabelledSet::load("heldout");
    let out = set.evaluate(&options);
    out.print("held-out Swift snippets (future deprecations fail)");
    assert_floors(&out, &HELDOUT_MIN);
}
