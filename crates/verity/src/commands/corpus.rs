//! `verity corpus generate` (seed 003 §10): a claim-extraction suite's model and prompt read
//! every source file of a codebase — one ordinary run, stored, cached, budgeted and
//! interruptible like `verity run` — then a sample of the files, stratified by the category of
//! their claims, is written as fixtures for a human to review. Walking, sampling and the
//! fixtures' text are in `crate::corpus`.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use verity_model::{ErrorKind, Input, OutcomeRule, Suite, Task, Variant};
use verity_oracles::claims::{Claim, parse_claims};
use verity_runner::{Overrides, PlanOptions, PrepareError, RunRequest};
use verity_store::Store;

use super::execute::{Output, exec_settings, execute_plan, replay_provider};
use super::{load_suite, use_color};
use crate::cli::{
    CorpusCommand, CorpusFetchArgs, CorpusFromFactsArgs, CorpusGenerateArgs, Globals,
};
use crate::config::Config;
use crate::corpus::{self, Scan};
use crate::{CliError, exit};

pub(super) fn corpus(c: CorpusCommand, config: &Config, g: &Globals) -> Result<u8, CliError> {
    match c {
        CorpusCommand::Generate(a) => generate(*a, config, g),
        CorpusCommand::Fetch(a) => fetch(a),
        CorpusCommand::FromFacts(a) => from_facts(a),
    }
}

/// `verity corpus fetch SUITE_DIR`: every pin of repos.toml into SUITE_DIR/repos/NAME/.
fn fetch(a: CorpusFetchArgs) -> Result<u8, CliError> {
    let path = a.suite.join(verity_suite::REPOS_FILE);
    if !path.is_file() {
        return Err(CliError::usage(format!(
            "{} has no {} (suites/README.md documents its format)",
            a.suite.display(),
            verity_suite::REPOS_FILE
        )));
    }
    let shown = path.display().to_string();
    let repos = verity_suite::repos::read(&path, &shown).map_err(|diags| {
        let text: Vec<String> = diags.iter().map(|d| d.render(false)).collect();
        eprintln!("{}", text.join("\n"));
        CliError::silent(ErrorKind::Suite)
    })?;
    for w in verity_suite::repos::contamination_warnings(&repos, &shown) {
        eprintln!(
            "{}",
            w.render(use_color(
                crate::cli::ColorChoice::Auto,
                std::io::stderr().is_terminal()
            ))
        );
    }
    let unknown: Vec<&String> = a
        .repos
        .iter()
        .filter(|n| !repos.repos.iter().any(|r| &r.name == *n))
        .collect();
    if !unknown.is_empty() {
        return Err(CliError::usage(format!(
            "{shown} pins no repository {}",
            unknown
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let cache = a
        .cache_dir
        .clone()
        .unwrap_or_else(crate::fetch::default_cache_dir);
    let repos_dir = a.suite.join("repos");
    let mut failed = 0;
    // The exit code follows the first failure's kind (a network failure is not a bad pin).
    let mut first_kind = None;
    for pin in &repos.repos {
        if !a.repos.is_empty() && !a.repos.contains(&pin.name) {
            continue;
        }
        match crate::fetch::fetch_pin(pin, &repos_dir, &cache, a.offline) {
            Ok(crate::fetch::Outcome::UpToDate) => {
                println!("{:<20} up to date", pin.name);
            }
            Ok(crate::fetch::Outcome::Unpacked { downloaded, files }) => {
                let from = if downloaded {
                    "downloaded"
                } else {
                    "from the cache"
                };
                let what = if files > 0 {
                    format!("{files} files")
                } else {
                    "checked out".into()
                };
                println!(
                    "{:<20} {what} into {} ({from})",
                    pin.name,
                    repos_dir.join(&pin.name).display()
                );
            }
            Err(e) => {
                failed += 1;
                first_kind.get_or_insert(e.kind);
                eprintln!("error: {}", e.message);
            }
        }
    }
    if failed > 0 {
        let n = if failed == 1 {
            "repository"
        } else {
            "repositories"
        };
        return Err(CliError::new(
            first_kind.unwrap_or(ErrorKind::Refused),
            format!("{failed} {n} could not be fetched"),
        ));
    }
    Ok(exit::OK)
}

/// `verity corpus from-facts FACTS... --out SUITE_DIR`.
fn from_facts(a: CorpusFromFactsArgs) -> Result<u8, CliError> {
    let opts = verity_facts::QueryOptions {
        per_pattern: a.per_pattern,
        max: a.max,
        seed: a.seed,
    };
    let w = crate::fromfacts::write_suite(&a.facts, &a.out, &opts, a.force, !a.no_scorers)?;
    for (path, n) in &w.task_files {
        println!("wrote {} ({n} tasks)", path.display());
    }
    if let Some(p) = &w.suite_toml {
        println!("wrote {}", p.display());
    }
    println!("wrote {}\n", w.coverage_json.display());
    for line in crate::fromfacts::coverage_lines(&w.generated.coverage) {
        println!("{line}");
    }
    Ok(exit::OK)
}

/// A scanned file and what the extractor said about it.
struct Finding {
    slug: String,
    rel: String,
    language: String,
    content: String,
    category: String,
    claims: Vec<Claim>,
    /// `provider/model` that answered.
    by: String,
}

/// The README that marks a directory as holding a generated batch.
const README: &str = "README.md";

fn generate(a: CorpusGenerateArgs, config: &Config, g: &Globals) -> Result<u8, CliError> {
    if a.sample_size == 0 {
        return Err(CliError::usage("--sample-size must be at least 1"));
    }
    if a.max_file_bytes == 0 {
        return Err(CliError::usage("--max-file-bytes must be at least 1"));
    }
    if !a.scan_path.exists() {
        return Err(CliError::usage(format!(
            "--scan-path {}: no such file or directory",
            a.scan_path.display()
        )));
    }
    if a.out.exists() && !a.out.is_dir() {
        return Err(CliError::usage(format!(
            "--out {} is not a directory",
            a.out.display()
        )));
    }
    // A directory that already holds a batch is refused before any model is called.
    let readme = a.out.join(README);
    if readme.exists() && !a.force {
        return Err(CliError::new(
            ErrorKind::Refused,
            format!(
                "{} already holds generated fixtures ({} exists); choose another --out, or pass \
                 --force to replace the files this batch writes",
                a.out.display(),
                readme.display()
            ),
        ));
    }
    if !a.suite.exists() {
        return Err(CliError::usage(format!(
            "no suite at {}: pass --suite with a claim-extraction suite (verity's own is \
             suites/claims-security in its repository)",
            a.suite.display()
        )));
    }
    let err_tty = std::io::stderr().is_terminal();
    let color = use_color(g.color, err_tty);
    let mut settings = exec_settings(&a.exec, a.concurrency, config)?;
    replay_provider(a.provider.as_deref(), &a.exec, &mut settings)?;

    let extractor = load_suite(&a.suite, color)?;
    if a.variant.is_none() && extractor.variants.len() > 1 {
        return Err(CliError::usage(format!(
            "suite `{}` has {} variants ({}); choose the one that extracts with --variant NAME",
            extractor.name,
            extractor.variants.len(),
            extractor
                .variants
                .iter()
                .map(|v| v.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let scan = corpus::scan(&a.scan_path, a.max_file_bytes);
    if scan.files.is_empty() {
        return Err(CliError::usage(format!(
            "no source files to read under {} ({})",
            a.scan_path.display(),
            scanned_line(&scan, a.max_file_bytes)
        )));
    }
    if !g.quiet {
        // The summary's first line, printed before the run starts.
        println!(
            "scanned {}: {}",
            a.scan_path.display(),
            scanned_line(&scan, a.max_file_bytes)
        );
    }
    let scanned = scan.files.len();
    let suite = corpus_suite(extractor, scan);

    let request = RunRequest {
        options: PlanOptions {
            variants: a.variant.iter().cloned().collect(),
            concurrency: settings.concurrency,
            ..Default::default()
        },
        overrides: Overrides {
            provider: a.provider.clone(),
            model: a.model.clone(),
            base_url: a.base_url.clone(),
            api_key_env: a.api_key_env.clone(),
            command: a.command.clone(),
            scorers: Vec::new(),
        },
    };
    let db = g.db.path(config);
    let mut store = Store::open(&db)?;
    let plan = match verity_runner::prepare_suite(
        suite,
        &a.scan_path.display().to_string(),
        &request,
        &mut store,
    ) {
        Ok(p) => p,
        Err(PrepareError::Suite(diags)) => {
            eprintln!("{}", diags.render(color));
            return Err(CliError::silent(ErrorKind::Suite));
        }
        Err(e) => return Err(e.into()),
    };
    settings.apply_suite(&plan.suite.run);
    let variant = plan.suite.variants[0].clone();
    let run_id = plan.run_id.clone();
    let result = execute_plan(
        plan,
        settings,
        config,
        &mut store,
        false,
        None,
        Output {
            quiet: g.quiet,
            color: g.color,
            err_tty,
            format: None,
            out: None,
            force: false,
            gating: Default::default(),
            table: false,
        },
    );
    if result.is_err() {
        // A run that failed before it started leaves nothing behind (as `verity run`).
        let _ = store.discard_unstarted_run(&run_id);
    }
    if result? == exit::INTERRUPTED {
        eprintln!(
            "no fixtures written: run the same command again to finish (answers already received \
             come from the response cache)"
        );
        return Ok(exit::INTERRUPTED);
    }

    let read = read_findings(&store, &run_id, &variant)?;
    if read.findings.is_empty() {
        return Err(CliError::new(
            ErrorKind::Provider,
            format!(
                "no answer of run {run_id} could be read as claims ({} unparseable, {} errors); \
                 `verity report {run_id}` shows them",
                read.unparseable.len(),
                read.errored
            ),
        ));
    }
    let picks = corpus::stratified_sample(
        &read.findings,
        a.sample_size,
        a.seed,
        |f| f.category.as_str(),
        |f| f.rel.as_str(),
    );
    let written = write_fixtures(&a, &read.findings, &picks, &run_id, scanned)?;
    if !g.quiet {
        summary(&a, &run_id, &variant, &read, &picks, &written);
    }
    Ok(exit::OK)
}

/// `12 source files (python 8, go 4); skipped 2 (1 larger than … bytes, 1 empty); 30 other files`.
fn scanned_line(scan: &Scan, max_bytes: u64) -> String {
    let mut langs: BTreeMap<&str, usize> = BTreeMap::new();
    for f in &scan.files {
        *langs.entry(f.language).or_default() += 1;
    }
    let mut s = format!("{} source files", scan.files.len());
    if !langs.is_empty() {
        let l: Vec<String> = langs.iter().map(|(k, n)| format!("{k} {n}")).collect();
        s.push_str(&format!(" ({})", l.join(", ")));
    }
    let k = &scan.skipped;
    if k.total() > 0 {
        s.push_str(&format!(
            "; skipped {} ({})",
            k.total(),
            k.describe(max_bytes)
        ));
    }
    match k.other {
        0 => {}
        1 => s.push_str("; 1 file in no known language"),
        n => s.push_str(&format!("; {n} files in no known language")),
    }
    for e in &k.errors {
        s.push_str(&format!("\n  cannot read {e}"));
    }
    s
}

/// The suite the run executes: the extractor's variants (model, prompt, system message,
/// response schema) and how it calls them (`[run]` retries and cache), one task per scanned file, one epoch, and nothing that judges — no
/// scorers, gates, quick subset, coverage, comparisons or report files. Its content hash is its
/// own, so its runs never count as earlier runs of the extractor suite.
fn corpus_suite(extractor: Suite, scan: Scan) -> Suite {
    let mut hash = blake3::Hasher::new();
    hash.update(b"verity corpus generate v1\0");
    hash.update(extractor.content_hash.as_bytes());
    let tasks: Vec<Task> = scan
        .files
        .into_iter()
        .map(|f| {
            for part in [f.slug.as_str(), f.rel.as_str(), f.language, f.text.as_str()] {
                hash.update(&(part.len() as u64).to_le_bytes());
                hash.update(part.as_bytes());
            }
            let mut metadata = serde_json::Map::new();
            metadata.insert("language".into(), f.language.into());
            metadata.insert("path".into(), f.rel.clone().into());
            Task {
                id: f.slug,
                input: Input::Prompt(f.text),
                target: Vec::new(),
                category: None,
                metadata,
                expect: Default::default(),
                source: verity_model::SourceLoc {
                    file: f.rel,
                    line: 1,
                    column: 1,
                },
            }
        })
        .collect();
    Suite {
        name: format!("{}-corpus", extractor.name),
        description: Some(format!(
            "verity corpus generate: claims extracted from {} source files by suite `{}`",
            tasks.len(),
            extractor.name
        )),
        tasks,
        variants: extractor.variants,
        scorers: Vec::new(),
        outcome: OutcomeRule::default(),
        epochs: 1,
        coverage: Default::default(),
        servers: extractor.servers,
        compare: Vec::new(),
        gates: Vec::new(),
        perturb: None,
        run: extractor.run,
        report: Default::default(),
        quick: Vec::new(),
        content_hash: hash.finalize().to_hex().to_string(),
    }
}

/// What the stored run's answers say.
struct Read {
    findings: Vec<Finding>,
    /// (task id, why) of answers that are not a claim list.
    unparseable: Vec<(String, String)>,
    /// Samples that ended in an infrastructure error.
    errored: usize,
}

/// Reads the run's tasks and answers back from the store and parses each answer's claims.
fn read_findings(store: &Store, run_id: &str, variant: &Variant) -> Result<Read, CliError> {
    let mut tasks: HashMap<String, Task> = store
        .load_tasks(run_id)?
        .into_iter()
        .map(|t| (t.id.clone(), t))
        .collect();
    let mut read = Read {
        findings: Vec::new(),
        unparseable: Vec::new(),
        errored: 0,
    };
    for s in store.load_samples(run_id, None)? {
        if s.response.is_error() {
            read.errored += 1;
            continue;
        }
        let Some(task) = tasks.remove(&s.key.task_id) else {
            continue;
        };
        let claims = match parse_claims(&s.response.text, false) {
            Ok(c) => c,
            Err(p) => {
                read.unparseable.push((task.id, p.message));
                continue;
            }
        };
        let meta = |k: &str| {
            task.metadata
                .get(k)
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_owned()
        };
        let model = s
            .response
            .model
            .clone()
            .or_else(|| variant.provider.model.clone());
        let by = match model {
            Some(m) => format!("{}/{m}", variant.provider.kind),
            None => variant.provider.kind.clone(),
        };
        read.findings.push(Finding {
            rel: meta("path"),
            language: meta("language"),
            content: match task.input {
                Input::Prompt(p) => p,
                Input::Messages(_) => String::new(),
            },
            category: corpus::category(&claims),
            claims,
            by,
            slug: task.id,
        });
    }
    read.findings.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(read)
}

/// A fixture written: its path and what it holds.
struct Written {
    path: PathBuf,
    listed: corpus::Listed,
}

/// Writes the sampled fixtures and the README. Nothing is written when any of those files
/// exists, unless --force.
fn write_fixtures(
    a: &CorpusGenerateArgs,
    findings: &[Finding],
    picks: &[usize],
    run_id: &str,
    scanned: usize,
) -> Result<Vec<Written>, CliError> {
    // Grouped by category, each in the order the sample took it.
    let mut by_category: BTreeMap<&str, Vec<&Finding>> = BTreeMap::new();
    for &i in picks {
        let f = &findings[i];
        by_category.entry(f.category.as_str()).or_default().push(f);
    }
    let path_of = |f: &Finding| a.out.join(&f.category).join(format!("{}.toml", f.slug));
    let readme = a.out.join(README);
    let existing: Vec<PathBuf> = picks
        .iter()
        .map(|&i| path_of(&findings[i]))
        .chain(std::iter::once(readme.clone()))
        .filter(|p| p.exists())
        .collect();
    if !existing.is_empty() && !a.force {
        let list: Vec<String> = existing
            .iter()
            .map(|p| format!("  {}", p.display()))
            .collect();
        return Err(CliError::new(
            ErrorKind::Refused,
            format!(
                "refusing to replace {} existing files (pass --force to replace them, or choose \
                 another --out; run {run_id} is stored and its answers cached, so running again \
                 calls no model):\n{}",
                existing.len(),
                list.join("\n")
            ),
        ));
    }
    let replaced: HashSet<PathBuf> = existing.into_iter().collect();
    let created = &verity_model::now_rfc3339()[..10];
    let mut written = Vec::new();
    for (category, files) in &by_category {
        let dir = a.out.join(category);
        std::fs::create_dir_all(&dir)
            .map_err(|e| CliError::io(format!("cannot create {}: {e}", dir.display())))?;
        let mut n = corpus::highest_generated(&dir, category, &replaced);
        for f in files {
            n += 1;
            let id = corpus::generated_id(category, n);
            let text = corpus::fixture_toml(&corpus::Fixture {
                id: id.clone(),
                category,
                language: &f.language,
                rel: &f.rel,
                created,
                content: &f.content,
                claims: &f.claims,
                by: &f.by,
            });
            let path = path_of(f);
            write_new(&path, &text, a.force)?;
            written.push(Written {
                listed: corpus::Listed {
                    file: format!("{category}/{}.toml", f.slug),
                    id,
                    category: category.to_string(),
                    language: f.language.clone(),
                    source: f.rel.clone(),
                    claims: f.claims.len(),
                },
                path,
            });
        }
    }
    let listed: Vec<corpus::Listed> = written.iter().map(|w| w.listed.clone()).collect();
    let by: Vec<&str> = {
        let mut b: Vec<&str> = findings.iter().map(|f| f.by.as_str()).collect();
        b.sort_unstable();
        b.dedup();
        b
    };
    let text = corpus::readme(&corpus::Batch {
        run_id,
        suite: &a.suite.display().to_string(),
        by: &by.join(", "),
        created,
        seed: a.seed,
        scanned,
        listed: &listed,
    });
    write_new(&readme, &text, a.force)?;
    Ok(written)
}

/// Writes `text` to `path`; without `replace`, a file that appeared since the check is not
/// replaced either.
fn write_new(path: &Path, text: &str, replace: bool) -> Result<(), CliError> {
    use std::io::Write as _;
    let mut o = std::fs::OpenOptions::new();
    o.write(true);
    if replace {
        o.create(true).truncate(true);
    } else {
        o.create_new(true);
    }
    o.open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| CliError::io(format!("cannot write {}: {e}", path.display())))
}

fn summary(
    a: &CorpusGenerateArgs,
    run_id: &str,
    variant: &Variant,
    read: &Read,
    picks: &[usize],
    written: &[Written],
) {
    println!(
        "run {run_id} ({}): {} answers read as claims, {} unparseable, {} errors",
        variant.provider.display_id(),
        read.findings.len(),
        read.unparseable.len(),
        read.errored
    );
    for (id, why) in read.unparseable.iter().take(3) {
        println!("  unparseable {id}: {why}");
    }
    let mut found: BTreeMap<&str, usize> = BTreeMap::new();
    for f in &read.findings {
        *found.entry(f.category.as_str()).or_default() += 1;
    }
    let mut taken: HashMap<&str, usize> = HashMap::new();
    for &i in picks {
        *taken.entry(read.findings[i].category.as_str()).or_default() += 1;
    }
    println!("\n{:<16} {:>6} {:>8}", "category", "files", "sampled");
    for (c, n) in &found {
        println!(
            "{c:<16} {n:>6} {:>8}",
            taken.get(c).copied().unwrap_or_default()
        );
    }
    println!(
        "\nwrote {} fixtures and {} (seed {}):",
        written.len(),
        a.out.join(README).display(),
        a.seed
    );
    for w in written {
        let n = w.listed.claims;
        println!(
            "  {}  {}  ({n} claim{})",
            w.path.display(),
            w.listed.id,
            if n == 1 { "" } else { "s" }
        );
    }
    println!(
        "\nnext: review every fixture — fix or delete wrong claims, add must_not_contain, remove \
         the \"auto-generated\" markers (grep -rl auto-generated {}) — then commit.",
        a.out.display()
    );
}
