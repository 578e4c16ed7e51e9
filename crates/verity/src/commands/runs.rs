//! `verity runs`: the runs in a database.

use verity_store::Store;

use super::{is_missing, write_out};
use crate::cli::{Format, Globals, RunsArgs};
use crate::config::Config;
use crate::{CliError, exit};

pub(super) fn runs(a: RunsArgs, config: &Config, g: &Globals) -> Result<u8, CliError> {
    let db = g.db.path(config);
    if is_missing(&db) {
        if a.format == Format::Json {
            println!("[]");
        } else {
            println!("no runs yet ({} does not exist)", db.display());
        }
        return Ok(exit::OK);
    }
    let store = Store::open_read_only(&db)?;
    let runs = store.list_runs()?;
    let out = if a.format == Format::Json {
        let mut s =
            serde_json::to_string_pretty(&verity_report::runs_json(&runs)).unwrap_or_default();
        s.push('\n');
        s
    } else {
        verity_report::render_runs(&runs, &db.display().to_string())
    };
    write_out(&out, None)?;
    Ok(exit::OK)
}
