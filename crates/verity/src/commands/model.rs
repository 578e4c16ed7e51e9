//! `verity model pull|list`: the embedded model's weights.

use std::path::PathBuf;

use crate::cli::ModelCommand;
use crate::{CliError, exit};

pub(super) fn model(c: ModelCommand) -> Result<u8, CliError> {
    let dir_or_default = |d: Option<PathBuf>| d.unwrap_or_else(verity_local::default_models_dir);
    match c {
        ModelCommand::Pull { name, models_dir } => {
            let dir = dir_or_default(models_dir);
            let name = name.as_deref().unwrap_or(verity_local::DEFAULT_MODEL);
            let path = verity_local::pull(name, &dir, &mut |line| eprintln!("verity: {line}"))?;
            println!("{name}: {}", path.display());
            Ok(exit::OK)
        }
        ModelCommand::List { models_dir } => {
            let dir = dir_or_default(models_dir);
            println!("models directory: {}", dir.display());
            for m in verity_local::list(&dir) {
                let state = match (m.present, m.expected_size) {
                    (false, _) => "absent".to_owned(),
                    (true, Some(want)) if m.size != want => {
                        format!("incomplete ({} of {want} bytes)", m.size)
                    }
                    (true, _) => format!("{:.0} MB", m.size as f64 / 1e6),
                };
                let default = if m.name == verity_local::DEFAULT_MODEL {
                    " (default)"
                } else {
                    ""
                };
                println!("{:<32} {:<24} {}{default}", m.name, state, m.description);
            }
            Ok(exit::OK)
        }
    }
}
