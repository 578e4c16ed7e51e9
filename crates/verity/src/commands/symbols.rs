//! `verity symbols build|lookup`: the Swift symbol index.

use std::io::Write;

use crate::cli::SymbolsCommand;
use crate::{CliError, exit};

pub(super) fn symbols(c: SymbolsCommand) -> Result<u8, CliError> {
    match c {
        SymbolsCommand::Build { dirs, sdk, out } => {
            let s = verity_swift::cli::build(&dirs, sdk.as_deref(), &out)
                .map_err(|e| CliError::usage(e.to_string()))?;
            if let Some(m) = &s.merge {
                eprint!("{m}");
            }
            println!(
                "{} symbols from {} modules ({} typed) -> {} ({} bytes, {:.1}s)",
                s.symbols,
                s.modules,
                s.typed,
                s.out.display(),
                s.bytes,
                s.elapsed.as_secs_f64()
            );
            Ok(exit::OK)
        }
        SymbolsCommand::Lookup { name, index, json } => {
            let ix = verity_swift::cli::load_index(&index)
                .map_err(|e| CliError::usage(format!("index {index}: {e}")))?;
            let found = verity_swift::cli::lookup(&ix, &name);
            if found.is_empty() {
                eprintln!(
                    "`{name}` is not in index {} ({} symbols)",
                    ix.meta().label,
                    ix.symbol_count()
                );
                return Ok(exit::GATE_FAILED);
            }
            let mut out = std::io::stdout().lock();
            for f in found {
                let line = if json {
                    serde_json::to_string(&f).unwrap_or_default()
                } else {
                    verity_swift::cli::facts_line(&f)
                };
                match writeln!(out, "{line}") {
                    Ok(()) => {}
                    // A reader that stopped early (`| head`) wants no more lines: not an error.
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(exit::OK),
                    Err(e) => return Err(CliError::io(format!("cannot write the lookup: {e}"))),
                }
            }
            match out.flush() {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(CliError::io(format!("cannot write the lookup: {e}")))
                }
                _ => Ok(exit::OK),
            }
        }
    }
}
