//! `verity facts extract`: a repository's facts (verity-extract) as JSON, with a one-line
//! summary on standard error.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::time::Instant;

use verity_extract::ExtractOptions;
use verity_facts::Facts;

use crate::cli::FactsExtractArgs;
use crate::{CliError, exit};

pub(super) fn facts_extract(a: FactsExtractArgs) -> Result<u8, CliError> {
    let started = Instant::now();
    let opts = ExtractOptions {
        name: a.name,
        version: a.version,
        git: !a.no_git,
        max_commits: a.max_commits,
    };
    let extraction = verity_extract::extract_with_warnings(&a.repo, &opts)?;
    for w in &extraction.warnings {
        eprintln!("warning: {w}");
    }
    let facts = extraction.facts;
    match &a.out {
        Some(path) => facts.write(path)?,
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(facts.to_json().as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| CliError::io(format!("cannot write the facts: {e}")))?;
        }
    }
    eprintln!("{}", summary(&facts, started.elapsed().as_secs_f64()));
    Ok(exit::OK)
}

/// `tinyq: 41 files, 5210 lines, 312 symbols, 88 imports, 1204 calls, 40 commits (python 30,
/// rust 2) in 0.21 s`
fn summary(facts: &Facts, secs: f64) -> String {
    let mut per: BTreeMap<&str, u64> = BTreeMap::new();
    for (l, n) in &facts.repo.languages {
        per.insert(l, *n);
    }
    let langs = per
        .iter()
        .map(|(l, n)| format!("{l} {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "{}: {} files, {} lines, {} symbols, {} imports, {} calls, {} commits ({}) in {:.2} s",
        facts.repo.name,
        facts.files.len(),
        facts.repo.lines,
        facts.symbols.len(),
        facts.imports.len(),
        facts.calls.len(),
        facts.commits.len(),
        if langs.is_empty() {
            "no source files".to_string()
        } else {
            langs
        },
        secs
    )
}
