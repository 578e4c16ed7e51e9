//! CLI integration tests: the real binary, a real SQLite file, real HTTP to a fake server.

mod citations;
mod claims;
mod corpus;
mod corpus_fetch;
mod determinism;
mod engine;
mod facts;
mod faults;
mod gates;
mod grounding;
mod kill;
mod librarian;
mod mcp_http;
mod mcp_serve;
mod model;
mod openai;
mod preflight;
mod readonly;
mod reports;
mod run;
mod runflags;
mod secrets;
mod stages;
mod support;
mod swift;
mod validate;
