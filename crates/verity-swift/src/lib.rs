//! Swift code oracles for verity (issue #5): does a model's Swift parse, does every SDK symbol
//! it uses exist, is each available on the task's target platform, and does it avoid
//! deprecated API?
//!
//! * [`index`]: a compact index of SymbolKit symbol graphs ([`build_index`], [`Index`]);
//!   the iOS 17.4 SDK index ships inside the crate ([`check::default_index`]).
//! * [`extract`]: Swift code out of a model's answer, line numbers kept.
//! * [`syntax`]: the tree-sitter-swift parse check; [`toolchain`]: a real `swiftc -parse`.
//! * [`check`]: the four oracles over a source ([`check_source`], [`check_answer`]).
//! * [`deprecations`]: the curated deprecation map and its disagreements with the graphs.
//! * [`scorer`]: [`SwiftScorer`], the verity scorer of kind `swift`.
//!
//! Nothing here panics on any input: garbage Swift, huge files and damaged index files are
//! failing verdicts or errors, never crashes.

#![forbid(unsafe_code)]

mod analyze;
mod builtins;
pub mod check;
pub mod cli;
pub mod deprecations;
pub mod extract;
pub mod index;
pub mod scorer;
pub mod syntax;
pub mod toolchain;
pub mod version;

pub use check::{
    CheckOptions, CriterionReport, FileReport, FutureMode, check_answer, check_source,
    default_index, default_map,
};
pub use deprecations::{DeprecationMap, MapDisagreement};
pub use extract::{ExtractedCode, extract_code};
pub use index::{
    Availability, Index, IndexError, IndexMeta, SymbolFacts, SymbolKind, SymbolStatus, base_name,
    build_index,
};
pub use scorer::{CRITERIA, OPTION_KEYS, SwiftScorer, check_options, check_task};
pub use toolchain::{
    CompilerVersion, Limits, ToolchainChoice, compiler_version, parse_version_banner,
};
pub use version::{Domain, Target, Version};
