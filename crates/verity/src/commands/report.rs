//! `verity report RUN`: a stored run rendered as a table, JSON or Markdown.

use std::io::IsTerminal;

use super::gate::gate;
use super::{open_existing_read_only, render, use_color, write_out};
use crate::CliError;
use crate::cli::ReportArgs;
use crate::config::Config;

pub(super) fn report(a: ReportArgs, config: &Config) -> Result<u8, CliError> {
    if let Some(r) = a.fail_under
        && !(0.0..=1.0).contains(&r)
    {
        return Err(CliError::usage(format!(
            "--fail-under takes a fraction from 0 to 1, got {r}"
        )));
    }
    let db = a.db.path(config);
    let store = open_existing_read_only(&db)?;
    let id = store.resolve_run(&a.run)?;
    let meta = store.load_run(&id)?;
    if let Some(s) = a.scoring
        && (s == 0 || s > meta.scoring)
    {
        return Err(CliError::usage(format!(
            "run {id} has scorings 1..={}, not {s}",
            meta.scoring
        )));
    }
    let samples = store.load_samples(&id, a.scoring)?;
    let groups = store.load_groups(&id, a.scoring)?;
    let view = verity_report::RunView::new(&meta, &samples, &groups);
    let color = a.out.is_none() && use_color(a.color, std::io::stdout().is_terminal());
    write_out(&render(&view, a.format, color), a.out.as_deref())?;
    gate(&store, &id, a.scoring, a.fail_under)
}
