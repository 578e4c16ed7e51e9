//! More connections to a store that is already open: SQLite wants one connection per thread,
//! and a run has three users of its database at once (the scheduler, the single writer thread
//! and the cache reader). They share the file the first open checked and migrated.

use rusqlite::Connection;

use crate::{Access, Result, Store, open_error};

impl Store {
    /// Another connection to this store's database file, for another thread. The file was
    /// checked, and migrated, when `self` was opened: this opens it again with the same
    /// settings (busy timeout, `synchronous = NORMAL`, foreign keys) and nothing else.
    pub fn sibling(&self) -> Result<Store> {
        let path = &self.path;
        let conn = Connection::open(path).map_err(|e| open_error(path, e, Access::ReadWrite))?;
        conn.busy_timeout(std::time::Duration::from_secs(30))?;
        conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")?;
        Ok(Store {
            conn,
            path: path.clone(),
        })
    }
}
