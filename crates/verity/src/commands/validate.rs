//! `verity validate SUITE`: every problem of a suite at once, at file:line:column.

use std::io::IsTerminal;

use super::{load_suite, use_color};
use crate::cli::{Globals, ValidateArgs};
use crate::{CliError, exit};

pub(super) fn validate(a: ValidateArgs, g: &Globals) -> Result<u8, CliError> {
    let color = use_color(g.color, std::io::stderr().is_terminal());
    let suite = load_suite(&a.suite, color)?;
    let mut by_cat: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for t in &suite.tasks {
        *by_cat
            .entry(t.category.as_deref().unwrap_or("(none)"))
            .or_default() += 1;
    }
    let cats: Vec<String> = by_cat.iter().map(|(c, n)| format!("{c} {n}")).collect();
    println!(
        "ok: suite `{}`: {} tasks ({}), {} variants, {} scorers, {} epoch(s)",
        suite.name,
        suite.tasks.len(),
        cats.join(", "),
        suite.variants.len(),
        suite.scorers.len(),
        suite.epochs
    );
    Ok(exit::OK)
}
