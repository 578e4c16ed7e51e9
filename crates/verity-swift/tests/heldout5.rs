//! The fifth held-out labelled set: `tests/heldout5/` was written independently, from the
//! iPhoneOS 17.4 SDK dump alone (its `.swiftinterface` files, Objective-C headers and API
//! notes), without reading the analyzer or any snippet of the earlier sets (`tests/corpus/`,
//! `tests/heldout/` .. `tests/heldout4/`), and frozen in its own commit before it was ever run
//! through the oracles. It measures whether changes made on the tuning sets generalise to code
//! nobody tuned on. The rule: the set was written before any change it is to measure, nothing is
//! tuned on it, and once its disagreements have been read after a measurement, the code is not
//! changed for them (a label may only be corrected with SDK evidence, never to agree with the
//! tool).
//!
//! 126 snippets and answers in the shapes models produce: whole SwiftUI views with view models
//! (`@Observable`, `ObservableObject`), async/await URLSession uploads and downloads, task
//! groups, actors and `AsyncStream`, Combine, SwiftData / Core Data, UIKit controllers and Core
//! Animation, AVFoundation capture and `AVAudioEngine`, CoreLocation, MapKit, StoreKit 2,
//! Charts, WidgetKit, UserNotifications, HealthKit, PhotosUI, Vision, Core Image, TipKit, App
//! Intents, the `Layout` protocol, `Grid` / `ViewThatFits`, Swift Regex, Keychain, EventKit,
//! Core Motion, SpriteKit, ten macOS 14 SwiftUI targets and six Markdown answers. 58 fail no
//! criterion (24 plain, 34 tricky: locals and parameters named like SDK members, the code's own
//! types and extensions with members named like hallucinations or deprecated modifiers, implicit
//! members through the expected type, option sets, result-builder branches, closures over known
//! APIs, property wrappers, labelled tuples, `if case` / `switch` bindings, optional chains
//! through `.first`, C structs, Objective-C calls omitting defaulted arguments, APIs newer than
//! the target behind `if #available` / `@available`); 68 carry one kind of error each (39
//! symbols that do not exist, 17 deprecated APIs of which 11 are deprecated in a future release
//! (one of them added to an availability case by a label corrected from the SDK after the first
//! measurement),
//! 10 APIs unavailable on the stated target, 3 parse errors). Every label was decided from the
//! SDK dump; each `fail` cites its line and the fact.
//!
//! Every case runs through `check_source` / `check_answer` with `CheckOptions::new(target)`
//! and deprecations in a future release failing, as in `heldout2.rs`. The test prints the
//! confusion table and every disagreement, and asserts the structure of the set, an exact
//! `parse` criterion and the precision/recall floors in [`HELDOUT5_MIN`].
//!
//! `cargo nextest run -p verity-swift --test heldout5 --no-capture` prints the table.

mod common;
#[path = "common/heldout_checks.rs"]
mod heldout_checks;

use common::LabelledSet;
use heldout_checks::{Minimums, assert_floors, assert_well_formed, options};

/// Per criterion, the (precision, recall) the oracles must reach on the fifth held-out set.
///
/// A regression guard. Once the set was frozen, the analyzer of tuning round 4 (the one on
/// `main` then) measured, with the one corrected label, symbols_exist 0.911 / 0.794 and the
/// other three criteria 1.000 / 1.000 (truncated to three decimals); after tuning round 5 (made
/// on the other five sets, this one unseen) symbols_exist 0.941 / 0.820, the values below. Its
/// disagreements have been read since: it is tuning data now. BENCHMARKS.md has both tables.
/// Tuning round 6 raised symbols_exist to 1.000 / 0.897 (its two false alarms gone; the
/// standard-library and implicit-`self` misses caught).
const HELDOUT5_MIN: [(&str, f64, f64); 4] = [
    ("parse", 1.0, 1.0),
    ("symbols_exist", 1.0, 0.897),
    ("availability_ok", 1.0, 1.0),
    ("no_deprecated", 1.0, 1.0),
];

/// What the set was written to cover.
const MINIMUMS: Minimums = Minimums {
    cases: 126,
    symbol_fails: 39,
    deprecation_fails: 17,
    availability_fails: 10,
    tricky: 34,
    clean: 58,
};

#[test]
fn heldout5_set_is_well_formed() {
    assert_well_formed(&LabelledSet::load("heldout5"), &MINIMUMS);
}

#[test]
fn heldout5_precision_and_recall() {
    let set = LabelledSet::load("heldout5");
    let out = set.evaluate(&options);
    out.print("fifth held-out Swift snippets (future deprecations fail)");
    assert_floors(&out, &HELDOUT5_MIN);
}
