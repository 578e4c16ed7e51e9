//! The `verity` binary: command-line parsing, wiring of the library crates, progress output and
//! exit codes. Everything that judges, stores or renders lives in the library crates; this
//! crate only connects them.

#![forbid(unsafe_code)]

mod cli;
mod commands;
mod config;
mod corpus;
mod docs;
mod exit;
mod fetch;
mod fromfacts;
mod interrupt;
mod progress;
mod serve;
mod view;

use std::process::ExitCode;

use clap::Parser;
use verity_model::ErrorKind;

/// An error that ends the command: what kind of failure it is (the exit code follows from
/// it, [`exit::code`]) and what to tell the user.
#[derive(Debug)]
pub struct CliError {
    pub kind: ErrorKind,
    pub message: String,
}

impl CliError {
    pub fn new(kind: ErrorKind, m: impl Into<String>) -> Self {
        CliError {
            kind,
            message: m.into(),
        }
    }

    /// A bad flag or request.
    pub fn usage(m: impl Into<String>) -> Self {
        CliError::new(ErrorKind::Usage, m)
    }

    /// A file outside the store could not be read or written.
    pub fn io(m: impl Into<String>) -> Self {
        CliError::new(ErrorKind::Io, m)
    }

    /// An already-printed failure (diagnostics were rendered): only its kind remains.
    pub fn silent(kind: ErrorKind) -> Self {
        CliError::new(kind, String::new())
    }
}

/// Library errors convert with `?`, keeping the kind they say they are.
macro_rules! from_kinded {
    ($($t:ty => $kind:ident),* $(,)?) => {$(
        impl From<$t> for CliError {
            fn from(e: $t) -> Self {
                CliError::new(e.$kind(), e.to_string())
            }
        }
    )*};
}

from_kinded! {
    verity_store::StoreError => kind,
    verity_runner::RunError => kind,
    verity_runner::PlanError => kind,
    verity_runner::PrepareError => kind,
    verity_model::ProviderError => error_kind,
    verity_local::ModelStoreError => kind,
    verity_extract::ExtractError => kind,
    verity_facts::FactsError => kind,
}

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    interrupt::install();
    match commands::dispatch(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            if !e.message.is_empty() {
                eprintln!("error: {}", e.message);
            }
            ExitCode::from(exit::code(e.kind))
        }
    }
}
