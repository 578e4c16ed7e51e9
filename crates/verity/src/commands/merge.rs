//! `verity merge SHARD.db…`: shard databases into one run.

use verity_store::Store;

use crate::cli::{Globals, MergeArgs};
use crate::config::Config;
use crate::{CliError, exit};

pub(super) fn merge(a: MergeArgs, config: &Config, g: &Globals) -> Result<u8, CliError> {
    let db = g.db.path(config);
    for s in &a.sources {
        if !s.is_file() {
            return Err(CliError::usage(format!(
                "no shard database at {}",
                s.display()
            )));
        }
    }
    let mut store = Store::open(&db)?;
    let id = verity_runner::new_run_id();
    let m = store.merge_shards(&a.sources, &id)?;
    println!(
        "merged {} shards into run {} in {}: {} samples, {} observations",
        m.shards,
        m.run_id,
        db.display(),
        m.samples,
        m.observations
    );
    if m.split_groups > 0 {
        eprintln!(
            "warning: {} cross-task groups were split across shards and judged in parts; `verity rescore {}` judges them whole",
            m.split_groups, m.run_id
        );
    }
    Ok(exit::OK)
}
