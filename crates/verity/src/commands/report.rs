//! `verity report RUN`: a stored run rendered as a table, JSON or Markdown, and judged by its
//! gates (the suite's and the command line's, against the baseline when there is one).

use std::io::IsTerminal;

use verity_report::GateReport;
use verity_store::Store;

use super::verdict::{conclude, judge, load};
use super::{costs, open_existing_read_only, render, use_color, write_out};
use crate::cli::{GateArgs, Globals, ReportArgs, ReportFormat};
use crate::config::Config;
use crate::{CliError, exit};

pub(super) fn report(a: ReportArgs, config: &Config, g: &Globals) -> Result<u8, CliError> {
    let db = g.db.path(config);
    let store = open_existing_read_only(&db)?;
    let id = store.resolve_run(&a.run)?;
    let color = a.out.is_none() && use_color(g.color, std::io::stdout().is_terminal());
    let rendered = render_stored(&store, &id, a.scoring, &a.gating, config, a.format, color)?;
    write_out(&rendered.text, a.out.as_deref())?;
    match &rendered.gates {
        Some(r) => conclude(r),
        None => Ok(exit::OK),
    }
}

/// A stored run rendered, and its gates' report when it has gates to judge.
pub(crate) struct Rendered {
    pub(crate) text: String,
    pub(crate) gates: Option<GateReport>,
}

/// Stored run `id` (resolved) under `scoring` rendered in `format` with everything `verity
/// report` adds to it: its gates (the suite's and `gating`'s) with the baseline when there is
/// one, and its costs at verity.toml's prices. `verity report` and `verity view` both render
/// through here.
pub(crate) fn render_stored(
    store: &Store,
    id: &str,
    scoring: Option<u32>,
    gating: &GateArgs,
    config: &Config,
    format: ReportFormat,
    color: bool,
) -> Result<Rendered, CliError> {
    let run = load(store, id, scoring)?;
    let view = run.view();
    let judged = judge(store, &run, &view, gating)?;
    let costs = costs(&view, config);
    let mut extras = judged.as_ref().map(|j| j.extras()).unwrap_or_default();
    extras.costs = Some(&costs);
    let text = render(&view, format, color, &extras);
    Ok(Rendered {
        text,
        gates: judged.map(|j| j.report),
    })
}
