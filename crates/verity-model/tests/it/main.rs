//! The model's pure functions, from outside the crate.

mod redact;
