//! Facts about a code repository, in one documented, versioned schema (`verity-facts/1`,
//! `docs/facts-schema.md`): its files (with line counts, content hashes and the identifiers each
//! contains), symbols (functions, methods, classes, structs, traits, …) with their line ranges,
//! signatures and written return types, inheritance, imports, exports, calls, written types and
//! the commits of its git history.
//!
//! The facts are what the citation oracles (seed 002) check an answer against, so a run
//! rescores from the database alone: the suite loader inlines a facts file into the resolved
//! suite. They are produced by `verity facts extract` (the `verity-extract` crate, tree-sitter);
//! this crate links no parser.

#![forbid(unsafe_code)]

mod index;
pub mod queries;
mod schema;
pub mod walk;

pub use index::FactsIndex;
pub use queries::{Coverage, Generated, Query, QueryOptions};
pub use schema::{
    Call, Commit, Export, FORMAT, Facts, FactsError, FileFact, Import, Inheritance,
    InheritanceKind, Language, RepoInfo, Symbol, SymbolKind, TypeFact, TypeRole, content_hash,
};
pub use walk::{ScannedFile, WalkError, repo_hash, scan};
