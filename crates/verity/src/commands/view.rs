//! `verity view`: serves the store's runs over HTTP, read-only, until Ctrl-C or SIGTERM
//! (exit 0). The server is `crate::view`.

use std::sync::Arc;

use super::{require_db, runtime};
use crate::cli::{Globals, ViewArgs};
use crate::config::Config;
use crate::view::{Site, serve};
use crate::{CliError, exit};

const WHO: &str = "verity view";

pub(super) fn view(a: ViewArgs, config: Config, g: &Globals) -> Result<u8, CliError> {
    let db = g.db.path(&config);
    require_db(&db)?;
    // Refuses now what every request would: not a verity database, or one to migrate.
    drop(verity_store::Store::open_read_only(&db)?);
    let explicit = a.host.is_some();
    let host = a.host.as_deref().unwrap_or("127.0.0.1");
    // An IPv6 literal needs its brackets in HOST:PORT.
    let addr = if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]:{}", a.port)
    } else {
        format!("{host}:{}", a.port)
    };
    let site = Arc::new(Site { db, config });
    let rt = runtime()?;
    rt.block_on(async {
        let stop = crate::serve::stop_signal(WHO);
        let listener = crate::serve::bind(WHO, "--host/--port", &addr, explicit, "/").await?;
        serve(site, listener, stop)
            .await
            .map_err(|e| CliError::io(format!("{addr}: {e}")))
    })?;
    Ok(exit::OK)
}
