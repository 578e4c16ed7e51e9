//! The second held-out labelled set (issue 16): `tests/heldout2/` was written after the first
//! held-out set's disagreements were known (so that set could no longer measure
//! generalisation) and frozen in its own commit before any further change to the analyzer or
//! the index. It measured the oracles on code nobody tuned on (BENCHMARKS.md keeps those
//! numbers: symbols_exist 0.853 / 0.644, availability_ok 0.917 / 1.000, no_deprecated
//! 0.947 / 0.900).
//!
//! **Since its disagreements were read it is tuning data**, like `tests/heldout/` and
//! `tests/corpus/`: the general causes of its disagreements are fixed (never per snippet), and
//! it can no longer measure generalisation; a third held-out set, written elsewhere, does.
//!
//! 142 snippets in the shapes models produce (whole SwiftUI views, view models, async/await,
//! Combine, Core Data / SwiftData, UIKit controllers, AVFoundation, CoreLocation, MapKit,
//! StoreKit, Charts, UserNotifications, FileManager / URL code, Codable), 64 of them clean
//! (29 plain, 35 tricky: locals shadowing SDK members, implicit members through expected
//! types, option sets, closures over known APIs, extensions of SDK types), 78 with the
//! hallucinations models make (a member that does not exist reached through an inferred type,
//! a wrong enum case, an API unavailable on the stated target, a deprecated API). Every label
//! was decided from the iPhoneOS 17.4 SDK's `.swiftinterface` files and headers.
//!
//! Every case runs through `check_source` / `check_answer` with `CheckOptions::new(target)`
//! and deprecations in a future release failing, as in `heldout.rs`. The test prints the
//! confusion table and every disagreement, and asserts the structure of the set, an exact
//! `parse` criterion and the precision/recall floors in [`HELDOUT2_MIN`].
//!
//! `cargo nextest run -p verity-swift --test heldout2 --no-capture` prints the table.

mod common;
#[path = "common/heldout_checks.rs"]
mod heldout_checks;

use common::LabelledSet;
use heldout_checks::{Minimums, assert_floors, assert_well_formed, options};

/// Per criterion, the (precision, recall) the oracles must reach on the second held-out set.
///
/// A regression guard set to what the oracles measure (truncated to three decimals, nothing
/// subtracted). When the set was frozen they were symbols_exist 0.853 / 0.644,
/// availability_ok 0.917 / 1.000, no_deprecated 0.947 / 0.900; after tuning round 3 (this set
/// being tuning data by then) symbols_exist 0.976 / 0.911 and no_deprecated 1.000 / 1.000;
/// after tuning round 4 symbols_exist 0.977 / 0.955 and availability_ok 1.000 / 1.000;
/// after tuning round 6 (the objc reader reads `SecTrustResultType`) symbols_exist
/// 1.000 / 0.955.
/// BENCHMARKS.md has the tables and the disagreements still open.
const HELDOUT2_MIN: [(&str, f64, f64); 4] = [
    ("parse", 1.0, 1.0),
    ("symbols_exist", 1.0, 0.955),
    ("availability_ok", 1.0, 1.0),
    ("no_deprecated", 1.0, 1.0),
];

/// What the set was written to cover.
const MINIMUMS: Minimums = Minimums {
    cases: 90,
    symbol_fails: 40,
    deprecation_fails: 15,
    availability_fails: 10,
    tricky: 30,
    clean: 60,
};

#[test]
fn heldout2_set_is_well_formed() {
    assert_well_formed(&LabelledSet::load("heldout2"), &MINIMUMS);
}

#[test]
fn heldout2_precision_and_recall() {
    let set = LabelledSet::load("heldout2");
    let out = set.evaluate(&options);
    out.print("second held-out Swift snippets (future deprecations fail)");
    assert_floors(&out, &HELDOUT2_MIN);
}
