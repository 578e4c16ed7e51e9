//! `verity check swift FILE…`: the Swift oracles on files, without a run.

use serde_json::json;

use crate::cli::{CheckSwiftArgs, Format};
use crate::{CliError, exit};

pub(super) fn check_swift(a: CheckSwiftArgs) -> Result<u8, CliError> {
    let target = verity_swift::Target::parse(&a.platform).ok_or_else(|| {
        CliError::usage(format!(
            "--platform {:?}: expected e.g. ios17.0, macos14.0",
            a.platform
        ))
    })?;
    let mut opts =
        verity_swift::cli::check_options_for(target, &a.index, a.deprecations.as_deref())
            .map_err(|e| CliError::new(e.kind(), e.to_string()))?;
    opts.toolchain = verity_swift::ToolchainChoice::parse(&a.toolchain);
    opts.require_toolchain = a.require_toolchain;
    let mut all_ok = true;
    for f in &a.files {
        let report = if f.as_os_str() == "-" {
            let mut src = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut src)
                .map_err(|e| CliError::io(format!("reading standard input: {e}")))?;
            verity_swift::check_source(&src, &opts)
        } else {
            verity_swift::cli::check_file(f, &opts)
                .map_err(|e| CliError::usage(format!("{}: {e}", f.display())))?
        };
        all_ok &= report.outcome;
        let mut v = serde_json::to_value(&report).unwrap_or_default();
        if let Some(o) = v.as_object_mut() {
            o.insert("file".into(), json!(f.display().to_string()));
        }
        match a.format {
            Format::Json | Format::Md => {
                println!("{}", serde_json::to_string(&v).unwrap_or_default())
            }
            Format::Table => {
                let mark = |b: bool| if b { "pass" } else { "FAIL" };
                println!(
                    "{}  parse {}  symbols {}  availability {}  deprecated {}  ({})",
                    f.display(),
                    mark(report.parse),
                    mark(report.symbols_exist),
                    mark(report.availability_ok),
                    mark(report.no_deprecated),
                    report.parser
                );
            }
        }
    }
    Ok(if all_ok { exit::OK } else { exit::GATE_FAILED })
}
