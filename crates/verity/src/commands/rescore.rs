//! `verity rescore RUN`: a new scoring of a stored run, without calling a model.

use std::io::IsTerminal;

use verity_store::Store;

use super::{load_suite, require_db, use_color};
use crate::cli::{ColorChoice, Globals, RescoreArgs};
use crate::config::Config;
use crate::{CliError, exit};

pub(super) fn rescore(a: RescoreArgs, config: &Config, g: &Globals) -> Result<u8, CliError> {
    let db = g.db.path(config);
    require_db(&db)?;
    let suite = match &a.suite {
        Some(p) => Some(load_suite(
            p,
            use_color(ColorChoice::Auto, std::io::stderr().is_terminal()),
        )?),
        None => None,
    };
    let mut store = Store::open(&db)?;
    let id = store.resolve_run(&a.run)?;
    let r = verity_runner::rescore(&mut store, &id, suite)?;
    println!(
        "rescored run {id}: scoring {} over {} samples, {} changed verdicts (no model was called)",
        r.scoring, r.samples, r.changed
    );
    Ok(exit::OK)
}
