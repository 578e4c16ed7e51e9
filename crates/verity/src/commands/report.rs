//! `verity report RUN`: a stored run rendered as a table, JSON or Markdown, and judged by its
//! gates (the suite's and the command line's, against the baseline when there is one).

use std::io::IsTerminal;

use super::verdict::{conclude, judge, load};
use super::{costs, open_existing_read_only, render, use_color, write_out};
use crate::cli::{Globals, ReportArgs};
use crate::config::Config;
use crate::{CliError, exit};

pub(super) fn report(a: ReportArgs, config: &Config, g: &Globals) -> Result<u8, CliError> {
    let db = g.db.path(config);
    let store = open_existing_read_only(&db)?;
    let id = store.resolve_run(&a.run)?;
    let run = load(&store, &id, a.scoring)?;
    let view = run.view();
    let judged = judge(&store, &run, &view, &a.gating)?;
    let costs = costs(&view, config);
    let mut extras = judged.as_ref().map(|j| j.extras()).unwrap_or_default();
    extras.costs = Some(&costs);
    let color = a.out.is_none() && use_color(g.color, std::io::stdout().is_terminal());
    write_out(&render(&view, a.format, color, &extras), a.out.as_deref())?;
    match &judged {
        Some(j) => conclude(&j.report),
        None => Ok(exit::OK),
    }
}
