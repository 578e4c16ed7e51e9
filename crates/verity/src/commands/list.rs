//! `verity list SUITE`: a suite's tasks.

use std::io::IsTerminal;

use super::{load_suite, use_color, write_out};
use crate::cli::{Format, Globals, ListArgs};
use crate::{CliError, exit};

pub(super) fn list(a: ListArgs, g: &Globals) -> Result<u8, CliError> {
    let suite = load_suite(
        &a.suite,
        use_color(g.color, std::io::stderr().is_terminal()),
    )?;
    let tasks: Vec<_> = suite
        .tasks
        .iter()
        .filter(|t| {
            a.category
                .as_deref()
                .is_none_or(|c| t.category.as_deref() == Some(c))
        })
        .collect();
    let out = match a.format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&verity_report::task_list_json(&tasks))
                .unwrap_or_default();
            s.push('\n');
            s
        }
        Format::Table | Format::Md => verity_report::render_task_list(&tasks),
    };
    write_out(&out, None)?;
    Ok(exit::OK)
}
