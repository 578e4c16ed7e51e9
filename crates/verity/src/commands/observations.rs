//! `verity observations prune`: retention of the per-attempt log.

use verity_model::now_rfc3339;

use super::open_existing;
use crate::cli::{Globals, ObservationsCommand};
use crate::config::Config;
use crate::{CliError, exit};

pub(super) fn observations(
    c: ObservationsCommand,
    config: &Config,
    g: &Globals,
) -> Result<u8, CliError> {
    match c {
        ObservationsCommand::Prune(a) => {
            let db = g.db.path(config);
            let mut store = open_existing(&db)?;
            let keep_last = a.keep_last.unwrap_or(config.observations.keep_last);
            let keep_days = a.keep_days.unwrap_or(config.observations.keep_days);
            let n = store.prune_observations(keep_last, keep_days, &now_rfc3339())?;
            println!(
                "pruned {n} observations (kept the newest {keep_last} or the last {keep_days} days, whichever is more)"
            );
            Ok(exit::OK)
        }
    }
}
