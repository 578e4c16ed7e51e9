//! The seventh held-out labelled set: `tests/heldout7/` was written independently from the
//! iPhoneOS 17.4 SDK dump (its `.swiftinterface` files and Objective-C headers) without
//! reading the analyzer or the other sets' snippets, and frozen in its own commit before it
//! was ever run through the oracles. It measures whether the changes made on the tuning sets
//! (`tests/corpus/`, `tests/heldout/` … `tests/heldout6/`) generalise to code nobody tuned on.
//! The rule: the set was written before any change it is to measure, nothing is tuned on it,
//! and once its disagreements have been read after a measurement, the code is not changed for
//! them (a label may only be corrected with SDK evidence, never to agree with the tool).
//!
//! 128 snippets and answers in the shapes models produce: SwiftUI views with `@Observable` /
//! `ObservableObject` view models, async/await networking, task groups, actors and
//! `AsyncStream`, Combine, SwiftData, UIKit controllers and diffable collection views,
//! AVFoundation / AVFAudio, CoreLocation, MapKit for SwiftUI, StoreKit 2, Charts, WidgetKit,
//! ActivityKit, UserNotifications, HealthKit, PhotosUI, Vision, Core Image, EventKit,
//! Contacts, CoreMotion, SpriteKit, GameKit, PencilKit, Core Animation, TextKit, the
//! Keychain, TipKit, AppIntents, Swift Regex, Foundation formatting, `Layout` / `Grid` /
//! `ViewThatFits`, 13 macOS targets and 6 Markdown answers. 55 fail no criterion (16 plain,
//! 39 tricky: locals and own types named like SDK members, the file's own extensions,
//! implicit members through the expected type, option sets, result-builder content, closures
//! over known APIs, property wrappers, tuple destructuring, `if case` / `switch` bindings,
//! `.first?` chains, C structs, Objective-C calls omitting defaulted arguments, APIs newer
//! than the target behind `if #available` / `@available`); 73 carry the errors models make
//! (41 symbols_exist: a member missing on an inferred type, an implicit member that is not
//! one of the expected type's, a wrong argument label; 18 no_deprecated, 9 of them
//! deprecated in a future release; 11 availability_ok; 3 parse). Every label was decided from
//! the SDK dump; each `fail` cites its line and the fact.
//!
//! Every case runs through `check_source` / `check_answer` with `CheckOptions::new(target)`
//! and deprecations in a future release failing, as in the other held-out tests. The test
//! prints the confusion table and every disagreement, and asserts the structure of the set,
//! an exact `parse` criterion and the precision/recall floors in [`HELDOUT7_MIN`].
//!
//! `cargo nextest run -p verity-swift --test heldout7 --no-capture` prints the table.

mod common;
#[path = "common/heldout_checks.rs"]
mod heldout_checks;

use common::LabelledSet;
use heldout_checks::{Minimums, assert_floors, assert_well_formed, options};

/// Per criterion, the (precision, recall) the oracles must reach on the seventh held-out set.
///
/// A regression guard. Once the set was frozen, the analyzer of tuning round 6 (the one on
/// `main` then) measured, with the one label corrected from the SDK afterwards, symbols_exist
/// 0.968 / 0.731, no_deprecated 1.000 / 0.947 and the other two criteria 1.000 / 1.000
/// (truncated to three decimals); after tuning round 7 (made on the other seven sets, this one
/// unseen) symbols_exist 0.968 / 0.756 and no_deprecated 1.000 / 0.894. Its disagreements
/// have been read since: it is tuning data now, and the static-member rule made for one of
/// them lifted no_deprecated to 1.000 / 0.947 (the values below). BENCHMARKS.md has the tables.
const HELDOUT7_MIN: [(&str, f64, f64); 4] = [
    ("parse", 1.0, 1.0),
    ("symbols_exist", 0.968, 0.756),
    ("availability_ok", 1.0, 1.0),
    ("no_deprecated", 1.0, 0.947),
];

/// What the set was written to cover.
const MINIMUMS: Minimums = Minimums {
    cases: 128,
    symbol_fails: 41,
    deprecation_fails: 18,
    availability_fails: 11,
    tricky: 39,
    clean: 55,
};

#[test]
fn heldout7_set_is_well_formed() {
    assert_well_formed(&LabelledSet::load("heldout7"), &MINIMUMS);
}

#[test]
fn heldout7_precision_and_recall() {
    let set = LabelledSet::load("heldout7");
    let out = set.evaluate(&options);
    out.print("seventh held-out Swift snippets (future deprecations fail)");
    assert_floors(&out, &HELDOUT7_MIN);
}
