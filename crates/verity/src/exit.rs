//! verity's exit codes: the one place they are chosen. `docs/exit-codes.md` and the README
//! repeat this table; a test checks they agree.
//!
//! | code | meaning |
//! |-----:|---------|
//! | 0 | success: the command did what it was asked (a run finished; failing samples are results, not errors) |
//! | 1 | a gate failed: the verdict is `regression` (suite `[[gates]]`, `--gate`, `--fail-under`, `--fail-on-regression`) |
//! | 2 | usage or suite error: bad flags, a suite that does not validate, an unknown run, a provider misconfigured (missing API key) |
//! | 3 | infrastructure error: the store could not be read or written (a run stops at the first failed commit), a file could not be written, the provider refused the key or never answered, every sample errored, the run engine failed |
//! | 130 | interrupted (Ctrl-C): the run stopped early; everything finished is stored and `verity run --resume` can continue it |

use verity_model::ErrorKind;

/// Success.
pub const OK: u8 = 0;
/// A gate judged the results not good enough.
pub const GATE_FAILED: u8 = 1;
/// Bad flags, an invalid suite, an unknown run, a misconfigured provider.
pub const USAGE: u8 = 2;
/// The store, the file system or the engine failed.
pub const INFRA: u8 = 3;
/// Interrupted by Ctrl-C / SIGTERM; finished work is stored.
pub const INTERRUPTED: u8 = 130;

/// Every code with its one-line meaning, as `verity help exit-codes` prints it.
pub const TABLE: &[(u8, &str)] = &[
    (OK, "success (failing samples are results, not errors)"),
    (GATE_FAILED, "a gate failed: the verdict is regression"),
    (
        USAGE,
        "usage or suite error, unknown run, misconfigured provider",
    ),
    (INFRA, "infrastructure error (store, file system, engine)"),
    (INTERRUPTED, "interrupted; finished samples are stored"),
];

/// The exit code of a failure of `kind`: the one table from error kinds to codes. What the
/// user must fix (the request, the suite, a name, the configuration, a refusal to start) is
/// [`USAGE`], and nothing was run; what failed around them is [`INFRA`].
pub fn code(kind: ErrorKind) -> u8 {
    match kind {
        ErrorKind::Usage
        | ErrorKind::Suite
        | ErrorKind::NotFound
        | ErrorKind::Config
        | ErrorKind::Refused => USAGE,
        ErrorKind::Store | ErrorKind::Io | ErrorKind::Provider | ErrorKind::Internal => INFRA,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `docs/exit-codes.md` lists every error kind in the row of the code it maps to.
    #[test]
    fn the_documented_kinds_match_the_table() {
        let doc = include_str!("../../../docs/exit-codes.md");
        let kinds_table = doc
            .split("## Error kinds")
            .nth(1)
            .expect("docs/exit-codes.md has an `## Error kinds` section");
        for kind in ErrorKind::ALL {
            let row = kinds_table
                .lines()
                .find(|l| l.starts_with(&format!("| `{}` |", kind.as_str())))
                .unwrap_or_else(|| panic!("docs/exit-codes.md lacks a row for kind `{kind}`"));
            let documented: u8 = row
                .split('|')
                .nth(2)
                .and_then(|c| c.trim().parse().ok())
                .unwrap_or_else(|| panic!("no exit code in the row `{row}`"));
            assert_eq!(documented, code(kind), "kind `{kind}`: {row}");
        }
        let rows = kinds_table.lines().filter(|l| l.starts_with("| `")).count();
        assert_eq!(rows, ErrorKind::ALL.len(), "one row per kind, no more");
    }

    /// Every kind maps to a failure code, never to success, a gate or an interruption.
    #[test]
    fn every_kind_is_a_failure() {
        for kind in ErrorKind::ALL {
            assert!(matches!(code(kind), USAGE | INFRA), "{kind}");
        }
    }
}
