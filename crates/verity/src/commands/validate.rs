//! `verity validate SUITE`: every problem of a suite at once, at file:line:column.

use std::io::IsTerminal;

use verity_model::ErrorKind;

use super::{load_suite, runtime, use_color};
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
    if a.check_servers {
        return check_servers(&suite);
    }
    Ok(exit::OK)
}

/// `--check-servers`: starts each server, prints its tools and how each grounded variant uses
/// them; a wrong mapping is a suite error, a server that does not start an infrastructure one.
fn check_servers(suite: &verity_model::Suite) -> Result<u8, CliError> {
    if suite.servers.is_empty() {
        println!("no [servers] to check");
        return Ok(exit::OK);
    }
    let checks = runtime()?.block_on(verity_runner::grounding::check_servers(suite));
    let (mut wrong, mut down) = (0, 0);
    for c in &checks {
        if let Some(why) = &c.start_error {
            down += 1;
            println!("server `{}`: did not start", c.name);
            eprintln!("error: {why}");
            continue;
        }
        println!(
            "server `{}`{}: {} tool(s)",
            c.name,
            c.version
                .as_deref()
                .map(|v| format!(" ({v})"))
                .unwrap_or_default(),
            c.tools.len()
        );
        for t in &c.tools {
            let mut marks = Vec::new();
            if t.read_only_hint == Some(true) {
                marks.push("read-only");
            }
            if t.destructive_hint == Some(true) {
                marks.push("destructive");
            }
            let required = t.required();
            println!(
                "  {}{}{}",
                t.name,
                if marks.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", marks.join(", "))
                },
                if required.is_empty() {
                    String::new()
                } else {
                    format!(" (requires {})", required.join(", "))
                }
            );
        }
        for u in &c.uses {
            println!("  uses: {u}");
        }
        for p in &c.problems {
            wrong += 1;
            eprintln!("error: server `{}`: {p}", c.name);
        }
    }
    if wrong > 0 {
        return Err(CliError::new(
            ErrorKind::Suite,
            format!("{wrong} problem(s) with how the suite uses its servers"),
        ));
    }
    if down > 0 {
        return Err(CliError::new(
            ErrorKind::Provider,
            format!("{down} server(s) did not start"),
        ));
    }
    println!("ok: every server started and every mapping fits its tools");
    Ok(exit::OK)
}
