//! `verity cache stats|prune`: the response cache in the run database.

use verity_model::now_rfc3339;

use super::{open_existing, open_existing_read_only};
use crate::cli::{CacheCommand, Globals};
use crate::config::Config;
use crate::{CliError, exit};

pub(super) fn cache(c: CacheCommand, config: &Config, g: &Globals) -> Result<u8, CliError> {
    match c {
        CacheCommand::Stats(_) => {
            let db = g.db.path(config);
            let store = open_existing_read_only(&db)?;
            let st = store.cache_stats()?;
            println!(
                "cache namespace {}: {} entries, {} bytes",
                st.namespace, st.entries, st.bytes
            );
            if let (Some(o), Some(n)) = (&st.oldest, &st.newest) {
                println!("  oldest {o}, newest {n}");
            }
            if st.other_namespaces > 0 {
                println!(
                    "  {} entries of older namespaces (verity cache prune --other-namespaces)",
                    st.other_namespaces
                );
            }
            for (provider, model, entries, bytes) in &st.by_model {
                println!("  {provider}/{model}: {entries} entries, {bytes} bytes");
            }
            Ok(exit::OK)
        }
        CacheCommand::Prune(a) => {
            if a.older_than.is_none() && a.model.is_none() && !a.other_namespaces && !a.all {
                return Err(CliError::usage(
                    "say what to prune: --older-than DAYS, --model M, --other-namespaces or --all",
                ));
            }
            let db = g.db.path(config);
            let mut store = open_existing(&db)?;
            let n = store.cache_prune(&verity_store::CachePrune {
                older_than_days: a.older_than,
                model: a.model.clone(),
                other_namespaces: a.other_namespaces,
                all: a.all,
                now: now_rfc3339(),
            })?;
            println!("pruned {n} cache entries");
            Ok(exit::OK)
        }
    }
}
