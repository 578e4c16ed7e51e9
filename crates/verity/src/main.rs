//! The `verity` binary: command-line parsing, wiring of the library crates, progress output and
//! exit codes. Everything that judges, stores or renders lives in the library crates; this
//! crate only connects them.

mod cli;
mod commands;
mod config;
mod docs;
mod exit;
mod progress;

use std::process::ExitCode;

use clap::Parser;

/// An error that ends the command with a specific exit code and message.
#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
}

impl Failure {
    pub fn usage(m: impl Into<String>) -> Self {
        Failure {
            code: exit::USAGE,
            message: m.into(),
        }
    }
    pub fn infra(m: impl Into<String>) -> Self {
        Failure {
            code: exit::INFRA,
            message: m.into(),
        }
    }
    /// An already-printed failure (diagnostics were rendered) that only sets the exit code.
    pub fn silent(code: u8) -> Self {
        Failure {
            code,
            message: String::new(),
        }
    }
}

impl From<verity_store::StoreError> for Failure {
    fn from(e: verity_store::StoreError) -> Self {
        use verity_store::StoreError as E;
        match e {
            E::NoSuchRun(_) | E::AmbiguousRun { .. } => Failure::usage(e.to_string()),
            other => Failure::infra(other.to_string()),
        }
    }
}

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match commands::dispatch(cli) {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            if !f.message.is_empty() {
                eprintln!("error: {}", f.message);
            }
            ExitCode::from(f.code)
        }
    }
}
