//! verity's exit codes: the one place they are chosen. `docs/exit-codes.md` and the README
//! repeat this table; a test checks they agree.
//!
//! | code | meaning |
//! |-----:|---------|
//! | 0 | success: the command did what it was asked (a run finished; failing samples are results, not errors) |
//! | 1 | a gate failed: `--fail-under` (or a later gate) judged the results not good enough |
//! | 2 | usage or suite error: bad flags, a suite that does not validate, an unknown run, a provider misconfigured (missing API key) |
//! | 3 | infrastructure error: the store could not be read or written (a run stops at the first failed commit), a file could not be written, the provider refused the key or never answered, every sample errored, the run engine failed |
//! | 130 | interrupted (Ctrl-C): the run stopped early; everything finished is stored and `verity run --resume` can continue it |

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
    (GATE_FAILED, "a gate failed (--fail-under)"),
    (
        USAGE,
        "usage or suite error, unknown run, misconfigured provider",
    ),
    (INFRA, "infrastructure error (store, file system, engine)"),
    (INTERRUPTED, "interrupted; finished samples are stored"),
];
