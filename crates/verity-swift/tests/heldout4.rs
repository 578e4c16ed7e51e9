//! The fourth held-out labelled set: `tests/heldout4/` was written independently, from the
//! iPhoneOS 17.4 SDK dump alone, by a writer who did not read the analyzer's source, the
//! Swift sections of BENCHMARKS.md or the snippets of the other sets (`tests/corpus/`,
//! `tests/heldout/`, `tests/heldout2/`, `tests/heldout3/`), and frozen in its own commit before
//! it was ever run through the oracles. It measures whether changes made on the tuning sets
//! generalise to code nobody tuned on. The rule: the set was written before any change it is to
//! measure, nothing is tuned on it, and once its disagreements have been read after a
//! measurement, the code is not changed for them (a label may only be corrected with SDK
//! evidence, never to agree with the tool).
//!
//! 149 snippets and Markdown answers (7 answers) in the shapes models produce: SwiftUI views
//! with view models (`@Observable`, `ObservableObject`), async/await networking, task groups
//! and actors, Combine, SwiftData and Core Data, UIKit controllers with table and collection
//! views, AVFoundation capture and playback, CoreLocation, MapKit for SwiftUI, StoreKit 2,
//! Charts, WidgetKit, UserNotifications, HealthKit, PhotosUI, Vision, Core Image, FileManager /
//! URL, Codable strategies, Foundation formatting, TipKit, App Intents, navigation, sheets,
//! gestures and animations, and macOS SwiftUI targets (11 on macOS 14.0, one on 13.0). 70 fail
//! no criterion (7 plain, 63 tricky: locals and user types named like SDK members or
//! hallucinations, user extensions, implicit members resolved through the expected type,
//! closure parameters of known APIs, property wrappers, tuple elements, `if case` / `switch`
//! bindings, `.first?` chains, C structs, Objective-C calls omitting importer-defaulted
//! arguments, APIs newer than the target behind `if #available`); the other 79 each carry one
//! kind of error models make — a member, implicit member, type or label that does not exist
//! (42 symbols_exist fails), an API newer than the stated target without a guard (12
//! availability_ok fails), a deprecated API (22 no_deprecated fails, 12 of them deprecations in
//! a future release: `deprecated: 100000` / `API_TO_BE_DEPRECATED`) or a parse error (3).
//! Every label was decided from the dump's `.swiftinterface` files and Objective-C headers;
//! each `fail` cites its line and the SDK fact.
//!
//! Every case runs through `check_source` / `check_answer` with `CheckOptions::new(target)`
//! and deprecations in a future release failing, as in the other held-out tests. The test
//! prints the confusion table and every disagreement, and asserts the structure of the set, an
//! exact `parse` criterion and the precision/recall floors in [`HELDOUT4_MIN`].
//!
//! `cargo nextest run -p verity-swift --test heldout4 --no-capture` prints the table.

mod common;
#[path = "common/heldout_checks.rs"]
mod heldout_checks;

use common::LabelledSet;
use heldout_checks::{Minimums, assert_floors, assert_well_formed, options};

/// Per criterion, the (precision, recall) the oracles must reach on the fourth held-out set.
///
/// A regression guard. Once the set was frozen, the analyzer of tuning round 3 (the one on
/// `main` then) measured symbols_exist 0.888 / 0.761, availability_ok 0.923 / 1.000,
/// no_deprecated 1.000 / 0.909 (truncated to three decimals); after tuning round 4 (made on
/// the other four sets, this one unseen) 0.969 / 0.761, 1.000 / 1.000 and 1.000 / 1.000, the
/// values below. Its disagreements have been read since: it is tuning data now.
/// BENCHMARKS.md has both tables and the disagreements; tuning round 5 raised the
/// symbols_exist floor to its after values (1.000 / 0.905, truncated), tuning round 6 to
/// 1.000 / 0.928 (`tags.unique()` on an `Array` reached through `flatMap` and `map`).
const HELDOUT4_MIN: [(&str, f64, f64); 4] = [
    ("parse", 1.0, 1.0),
    ("symbols_exist", 1.0, 0.928),
    ("availability_ok", 1.0, 1.0),
    ("no_deprecated", 1.0, 1.0),
];

/// What the set was written to cover.
const MINIMUMS: Minimums = Minimums {
    cases: 149,
    symbol_fails: 42,
    deprecation_fails: 22,
    availability_fails: 12,
    tricky: 63,
    clean: 70,
};

#[test]
fn heldout4_set_is_well_formed() {
    assert_well_formed(&LabelledSet::load("heldout4"), &MINIMUMS);
}

#[test]
fn heldout4_precision_and_recall() {
    let set = LabelledSet::load("heldout4");
    let out = set.evaluate(&options);
    out.print("fourth held-out Swift snippets (future deprecations fail)");
    assert_floors(&out, &HELDOUT4_MIN);
}
