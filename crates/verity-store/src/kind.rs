//! The kind of a store error, for the exit code the command line gives it.

use verity_model::ErrorKind;

use crate::StoreError;

impl StoreError {
    /// A run that does not exist or is named ambiguously, and shards that do not belong
    /// together, are the user's to fix; everything else is the store failing.
    pub fn kind(&self) -> ErrorKind {
        match self {
            StoreError::NoSuchRun(_) => ErrorKind::NotFound,
            StoreError::AmbiguousRun { .. } | StoreError::BadRunSpec(_) | StoreError::Merge(_) => {
                ErrorKind::Usage
            }
            StoreError::Open { .. }
            | StoreError::CreateDir { .. }
            | StoreError::Sql(_)
            | StoreError::Corrupt { .. }
            | StoreError::TooNew { .. }
            | StoreError::InvalidTime { .. } => ErrorKind::Store,
        }
    }
}
