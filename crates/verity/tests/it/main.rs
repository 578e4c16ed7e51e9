//! CLI integration tests: the real binary, a real SQLite file, real HTTP to a fake server.

mod engine;
mod grounding;
mod kill;
mod model;
mod openai;
mod run;
mod support;
mod swift;
mod validate;
