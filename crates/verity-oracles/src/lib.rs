//! verity's mechanical scorers ("oracles").
//!
//! Every scorer here implements [`verity_model::Scorer`]: it reads a task's expectations and a
//! response and returns [`Score`](verity_model::Score)s with evidence. Oracles never call a
//! model, never touch the network and never return an error: an answer that cannot be judged is
//! a failing score that says why (a wrong answer is a result, not an `Err`).
//!
//! Which kinds exist, their options, the checks of those options and the criteria each kind
//! reports are `verity-catalog`'s: the suite loader checks a suite with it before anything
//! runs, without linking these oracles. [`build`] builds a scorer from a spec the catalog
//! checks.

#![forbid(unsafe_code)]

pub mod behaviour;
mod build;
mod canon;
pub mod citations;
pub mod claims;
mod common;
pub mod json_diff;
mod schema;
pub mod similarity;
mod stability;
mod stages;
mod text;

pub use build::build;
pub use common::strip_fence;
pub use schema::MAX_EVIDENCE;
