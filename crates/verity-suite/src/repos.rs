//! `repos.toml`: the real repositories a suite's questions are about, pinned by version and
//! sha256 (`verity corpus fetch` downloads them), with the seed's contamination facts — first
//! release against the evaluated model's training cutoff, popularity, fork — that
//! `verity validate` warns about. `suites/README.md` documents the format.
//!
//! The file is never read as a task file (like [`BASELINE_FILE`](crate::BASELINE_FILE)), and it
//! is not part of the suite's content hash: the facts files the questions are checked against
//! are.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use crate::diag::Diagnostic;

/// The file at a suite's root that pins its repositories.
pub const REPOS_FILE: &str = "repos.toml";

/// The languages a pin may name (the facts extractor's).
pub const LANGUAGES: &[&str] = &[
    "typescript",
    "tsx",
    "javascript",
    "python",
    "rust",
    "go",
    "swift",
];

/// A parsed `repos.toml`.
#[derive(Clone, Debug, PartialEq)]
pub struct Repos {
    /// `None` when the file has no `[contamination]` table.
    pub contamination: Option<Contamination>,
    /// Sorted by name.
    pub repos: Vec<RepoPin>,
}

/// The evaluated model and the thresholds of the warnings.
#[derive(Clone, Debug, PartialEq)]
pub struct Contamination {
    pub model: Option<String>,
    /// The model's declared training cutoff, `YYYY-MM-DD`.
    pub model_cutoff: String,
    /// Warn when a repository has more downloads a month than this.
    pub max_downloads_per_month: Option<u64>,
    /// Warn when a repository is a fork (default true).
    pub warn_forks: bool,
}

/// Where a repository comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Npm { package: String, version: String },
    Pypi { package: String, version: String },
    Crates { name: String, version: String },
    Git { url: String, commit: String },
}

impl Source {
    /// Parses `npm:PKG@VER`, `pypi:PKG==VER`, `crates:NAME@VER` or `git:URL#COMMIT`.
    pub fn parse(s: &str) -> Result<Source, String> {
        let bad = |why: &str| {
            Err(format!(
                "`{s}`: {why}; expected `npm:PKG@VERSION`, `pypi:PKG==VERSION`, \
                 `crates:NAME@VERSION` or `git:URL#COMMIT`"
            ))
        };
        let Some((scheme, rest)) = s.split_once(':') else {
            return bad("no registry");
        };
        let nonempty = |a: &str, b: &str| !a.is_empty() && !b.is_empty();
        match scheme {
            "npm" => match rest.rsplit_once('@') {
                Some((p, v)) if nonempty(p, v) => Ok(Source::Npm {
                    package: p.into(),
                    version: v.into(),
                }),
                _ => bad("no version"),
            },
            "pypi" => match rest.split_once("==") {
                Some((p, v)) if nonempty(p, v) => Ok(Source::Pypi {
                    package: p.into(),
                    version: v.into(),
                }),
                _ => bad("no version"),
            },
            "crates" => match rest.split_once('@') {
                Some((p, v)) if nonempty(p, v) => Ok(Source::Crates {
                    name: p.into(),
                    version: v.into(),
                }),
                _ => bad("no version"),
            },
            "git" => match rest.rsplit_once('#') {
                Some((u, c)) if nonempty(u, c) => {
                    if !(7..=64).contains(&c.len()) || !c.chars().all(|ch| ch.is_ascii_hexdigit()) {
                        return bad("the commit must be a hexadecimal commit id");
                    }
                    Ok(Source::Git {
                        url: u.into(),
                        commit: c.to_ascii_lowercase(),
                    })
                }
                _ => bad("no commit"),
            },
            _ => bad("unknown registry"),
        }
    }

    pub fn is_git(&self) -> bool {
        matches!(self, Source::Git { .. })
    }
}

/// How popular a repository is, as measured when it was pinned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Popularity {
    /// The figure, when one was measured.
    pub value: Option<u64>,
    /// Its unit (`downloads/month`, `stars`, …). Only `downloads/month` is compared with
    /// `max_downloads_per_month`.
    pub unit: String,
    /// When it was measured, `YYYY-MM-DD`.
    pub measured: Option<String>,
    pub source: Option<String>,
}

/// One pinned repository.
#[derive(Clone, Debug, PartialEq)]
pub struct RepoPin {
    /// The key of its table: the directory under `repos/` and the facts' repository name.
    pub name: String,
    pub language: String,
    pub source: Source,
    /// The artifact downloaded (a `.tgz`, `.tar.gz` or `.crate`); `None` for `git:` pins.
    pub url: Option<String>,
    /// Lower-case hex; `None` for `git:` pins (the commit pins them).
    pub sha256: Option<String>,
    /// The directory inside the archive that holds the repository (`package` for npm).
    pub root: Option<String>,
    pub license: String,
    /// The source repository the registry names.
    pub repository: Option<String>,
    pub fork: bool,
    pub lines: Option<u64>,
    /// `YYYY-MM-DD`.
    pub first_release: Option<String>,
    pub first_release_source: Option<String>,
    pub popularity: Option<Popularity>,
    pub notes: Option<String>,
    /// Where keys of this pin are in the file (1-based line, column), for diagnostics.
    pub at: BTreeMap<&'static str, (u32, u32)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    contamination: Option<Spanned<RawContamination>>,
    #[serde(default)]
    repos: BTreeMap<String, Spanned<RawPin>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawContamination {
    model: Option<String>,
    model_cutoff: Spanned<String>,
    max_downloads_per_month: Option<u64>,
    #[serde(default = "yes")]
    warn_forks: bool,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPin {
    language: Spanned<String>,
    source: Spanned<String>,
    url: Option<Spanned<String>>,
    sha256: Option<Spanned<String>>,
    root: Option<Spanned<String>>,
    license: String,
    repository: Option<String>,
    fork: Spanned<bool>,
    lines: Option<u64>,
    first_release: Option<Spanned<String>>,
    first_release_source: Option<String>,
    popularity: Option<Spanned<RawPopularity>>,
    notes: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPopularity {
    value: Option<u64>,
    unit: String,
    measured: Option<Spanned<String>>,
    source: Option<String>,
}

/// 1-based (line, column) of a byte offset.
fn line_col(text: &str, offset: usize) -> (u32, u32) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line as u32, col as u32)
}

/// Is `s` a `YYYY-MM-DD` date with a valid month and day?
pub fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| s.get(r).and_then(|p| p.parse::<u32>().ok());
    match (num(0..4), num(5..7), num(8..10)) {
        (Some(_), Some(m), Some(d)) => (1..=12).contains(&m) && (1..=31).contains(&d),
        _ => false,
    }
}

/// A safe directory name: letters, digits, `.`, `_`, `-`; not `.` or `..`.
pub fn is_safe_name(s: &str) -> bool {
    !s.is_empty()
        && s != "."
        && s != ".."
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// Reads `repos.toml` at `path`; `shown` names it in diagnostics.
pub fn read(path: &Path, shown: &str) -> Result<Repos, Vec<Diagnostic>> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        vec![Diagnostic::error("missing-file", format!("cannot read {shown}: {e}")).at(shown, 0, 0)]
    })?;
    parse(&text, shown)
}

/// Parses the text of a `repos.toml`; every problem is an error diagnostic at its position.
pub fn parse(text: &str, shown: &str) -> Result<Repos, Vec<Diagnostic>> {
    let raw: RawFile = toml::from_str(text).map_err(|e| {
        let (line, col) = e.span().map_or((1, 1), |s| line_col(text, s.start));
        vec![
            Diagnostic::error("bad-value", e.message().trim().to_string())
                .at(shown, line, col)
                .with_help("suites/README.md documents repos.toml"),
        ]
    })?;
    let mut diags = Vec::new();
    let pos = |offset: usize| line_col(text, offset);
    let mut err = |at: (u32, u32), msg: String| {
        diags.push(Diagnostic::error("bad-value", msg).at(shown, at.0, at.1));
    };

    let contamination = raw.contamination.map(|c| {
        let c = c.into_inner();
        if !is_date(c.model_cutoff.get_ref()) {
            err(
                pos(c.model_cutoff.span().start),
                format!(
                    "model_cutoff `{}` is not a date (YYYY-MM-DD)",
                    c.model_cutoff.get_ref()
                ),
            );
        }
        Contamination {
            model: c.model,
            model_cutoff: c.model_cutoff.into_inner(),
            max_downloads_per_month: c.max_downloads_per_month,
            warn_forks: c.warn_forks,
        }
    });

    let mut repos = Vec::new();
    for (name, pin) in raw.repos {
        let table_at = pos(pin.span().start);
        let p = pin.into_inner();
        let mut at = BTreeMap::new();
        at.insert("table", table_at);
        if !is_safe_name(&name) {
            err(
                table_at,
                format!(
                    "repository name `{name}` is not a directory name (letters, digits, `.`, `_`, `-`)"
                ),
            );
        }
        let lang_at = pos(p.language.span().start);
        if !LANGUAGES.contains(&p.language.get_ref().as_str()) {
            err(
                lang_at,
                format!(
                    "language `{}` is not one of {}",
                    p.language.get_ref(),
                    LANGUAGES.join(", ")
                ),
            );
        }
        let source_at = pos(p.source.span().start);
        at.insert("source", source_at);
        let source = match Source::parse(p.source.get_ref()) {
            Ok(s) => s,
            Err(e) => {
                err(source_at, e);
                continue;
            }
        };
        let url = p.url.map(|u| {
            let at_u = pos(u.span().start);
            let v = u.into_inner();
            if !(v.starts_with("https://") || v.starts_with("http://")) {
                err(at_u, format!("url `{v}` is not an http(s) URL"));
            }
            v
        });
        let sha256 = p.sha256.map(|s| {
            let at_s = pos(s.span().start);
            let v = s.into_inner().to_ascii_lowercase();
            if v.len() != 64 || !v.chars().all(|c| c.is_ascii_hexdigit()) {
                err(at_s, format!("sha256 `{v}` is not 64 hexadecimal digits"));
            }
            v
        });
        if !source.is_git() {
            if url.is_none() {
                err(
                    table_at,
                    format!("repository `{name}` has no `url` (the artifact to download)"),
                );
            }
            if sha256.is_none() {
                err(
                    table_at,
                    format!("repository `{name}` has no `sha256` (of the artifact)"),
                );
            }
        }
        let root = p.root.map(|r| {
            let at_r = pos(r.span().start);
            let v = r.into_inner();
            let bad = v.starts_with('/')
                || v.contains('\\')
                || v.split('/').any(|seg| seg == ".." || seg == ".");
            if bad {
                err(
                    at_r,
                    format!(
                        "root `{v}` must be a relative path inside the archive, without `.` or `..`"
                    ),
                );
            }
            v.trim_end_matches('/').to_string()
        });
        let first_release = p.first_release.map(|d| {
            let at_d = pos(d.span().start);
            at.insert("first_release", at_d);
            let v = d.into_inner();
            if !is_date(&v) {
                err(
                    at_d,
                    format!("first_release `{v}` is not a date (YYYY-MM-DD)"),
                );
            }
            v
        });
        let popularity = p.popularity.map(|pop| {
            at.insert("popularity", pos(pop.span().start));
            let pop = pop.into_inner();
            let measured = pop.measured.map(|m| {
                let at_m = pos(m.span().start);
                let v = m.into_inner();
                if !is_date(&v) {
                    err(
                        at_m,
                        format!("popularity.measured `{v}` is not a date (YYYY-MM-DD)"),
                    );
                }
                v
            });
            Popularity {
                value: pop.value,
                unit: pop.unit,
                measured,
                source: pop.source,
            }
        });
        at.insert("fork", pos(p.fork.span().start));
        repos.push(RepoPin {
            name,
            language: p.language.into_inner(),
            source,
            url,
            sha256,
            root,
            license: p.license,
            repository: p.repository,
            fork: p.fork.into_inner(),
            lines: p.lines,
            first_release,
            first_release_source: p.first_release_source,
            popularity,
            notes: p.notes,
            at,
        });
    }
    if diags.is_empty() {
        Ok(Repos {
            contamination,
            repos,
        })
    } else {
        Err(diags)
    }
}

/// The warnings the contamination facts call for: a first release before the model's cutoff
/// (or none recorded), more downloads than the threshold, a fork; and a file with no
/// `[contamination]` table to compare with.
pub fn contamination_warnings(repos: &Repos, shown: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(c) = &repos.contamination else {
        out.push(
            Diagnostic::warning(
                "contamination",
                "repos.toml has no [contamination] table: no model cutoff to compare first releases with",
            )
            .at(shown, 1, 1)
            .with_help("add [contamination] with model_cutoff = \"YYYY-MM-DD\" (the evaluated model's training cutoff)"),
        );
        return out;
    };
    let model = c.model.as_deref().unwrap_or("the evaluated model");
    for r in &repos.repos {
        let at = |k: &str| {
            r.at.get(k)
                .or_else(|| r.at.get("table"))
                .copied()
                .unwrap_or((1, 1))
        };
        match &r.first_release {
            Some(d) if d.as_str() < c.model_cutoff.as_str() => {
                let (l, col) = at("first_release");
                out.push(
                    Diagnostic::warning(
                        "contamination",
                        format!(
                            "repository `{}` was first released on {d}, before {model}'s training cutoff ({}): the model may have seen it",
                            r.name, c.model_cutoff
                        ),
                    )
                    .at(shown, l, col),
                );
            }
            Some(_) => {}
            None => {
                let (l, col) = at("table");
                out.push(
                    Diagnostic::warning(
                        "contamination",
                        format!(
                            "repository `{}` records no first_release: contamination cannot be ruled out",
                            r.name
                        ),
                    )
                    .at(shown, l, col),
                );
            }
        }
        if let (Some(max), Some(p)) = (c.max_downloads_per_month, &r.popularity)
            && p.unit == "downloads/month"
            && let Some(v) = p.value
            && v > max
        {
            let (l, col) = at("popularity");
            out.push(
                Diagnostic::warning(
                    "contamination",
                    format!(
                        "repository `{}` has {v} downloads a month (more than {max}): popular code is likely in training data",
                        r.name
                    ),
                )
                .at(shown, l, col),
            );
        }
        if r.fork && c.warn_forks {
            let (l, col) = at("fork");
            out.push(
                Diagnostic::warning(
                    "contamination",
                    format!(
                        "repository `{}` is a fork: its code may predate it and the model's cutoff",
                        r.name
                    ),
                )
                .at(shown, l, col),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
[contamination]
model = "m"
model_cutoff = "2024-06-30"
max_downloads_per_month = 1000

[repos.fresh]
language = "python"
source = "pypi:fresh==1.0"
url = "https://example.org/fresh-1.0.tar.gz"
sha256 = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
root = "fresh-1.0/"
license = "MIT"
fork = false
first_release = "2025-01-02"
popularity = { value = 10, unit = "downloads/month", measured = "2026-01-01" }

[repos.old]
language = "rust"
source = "git:https://example.org/old.git#0123456789abcdef0123456789abcdef01234567"
license = "MIT"
fork = true
first_release = "2020-01-01"
popularity = { value = 99999, unit = "downloads/month" }
"#;

    #[test]
    fn parses_pins_and_warns_on_contamination() {
        let r = parse(GOOD, "repos.toml").unwrap();
        assert_eq!(r.repos.len(), 2);
        let fresh = &r.repos[0];
        assert_eq!(fresh.name, "fresh");
        assert_eq!(fresh.root.as_deref(), Some("fresh-1.0"));
        assert_eq!(fresh.sha256.as_deref().unwrap(), &"a".repeat(64));
        assert_eq!(
            fresh.source,
            Source::Pypi {
                package: "fresh".into(),
                version: "1.0".into()
            }
        );
        assert!(r.repos[1].source.is_git());
        let w = contamination_warnings(&r, "repos.toml");
        let lines: Vec<String> = w
            .iter()
            .map(|d| format!("{}:{}:{} {}", d.file, d.line, d.column, d.message))
            .collect();
        assert_eq!(w.len(), 3, "{lines:#?}");
        assert!(w.iter().all(|d| !d.is_error()));
        assert!(
            lines[0].starts_with("repos.toml:23:17 ") && lines[0].contains("2020-01-01"),
            "{lines:#?}"
        );
        assert!(
            lines[1].starts_with("repos.toml:24:14 ") && lines[1].contains("99999"),
            "{lines:#?}"
        );
        assert!(
            lines[2].starts_with("repos.toml:22:8 ") && lines[2].contains("fork"),
            "{lines:#?}"
        );
    }

    #[test]
    fn no_contamination_table_or_no_first_release_warns() {
        let text = "[repos.x]\nlanguage = \"go\"\nsource = \"crates:x@1\"\nurl = \"https://e/x.crate\"\nsha256 = \"".to_string()
            + &"0".repeat(64)
            + "\"\nlicense = \"MIT\"\nfork = false\n";
        let r = parse(&text, "repos.toml").unwrap();
        let w = contamination_warnings(&r, "repos.toml");
        assert_eq!(w.len(), 1);
        assert!(w[0].message.contains("no [contamination]"));
        let with = format!("[contamination]\nmodel_cutoff = \"2024-06-30\"\n{text}");
        let w = contamination_warnings(&parse(&with, "repos.toml").unwrap(), "repos.toml");
        assert_eq!(w.len(), 1);
        assert!(
            w[0].message.contains("no first_release"),
            "{}",
            w[0].message
        );
        assert_eq!((w[0].line, w[0].column), (3, 1));
    }

    #[test]
    fn format_errors_point_at_the_value() {
        let errs = |t: &str| -> Vec<String> {
            parse(t, "r.toml")
                .unwrap_err()
                .iter()
                .map(|d| format!("{}:{} {}", d.line, d.column, d.message))
                .collect()
        };
        let e = errs(
            "[repos.a]\nlanguage = \"cobol\"\nsource = \"npm:a\"\nlicense = \"MIT\"\nfork = false\n",
        );
        assert_eq!(e.len(), 2, "{e:?}");
        assert!(e[0].starts_with("2:12 ") && e[0].contains("cobol"), "{e:?}");
        assert!(
            e[1].starts_with("3:10 ") && e[1].contains("no version"),
            "{e:?}"
        );
        let e = errs(
            "[repos.a]\nlanguage = \"go\"\nsource = \"npm:a@1\"\nlicense = \"MIT\"\nfork = false\nroot = \"../x\"\nsha256 = \"xyz\"\n",
        );
        assert!(e.iter().any(|m| m.contains("no `url`")), "{e:?}");
        assert!(
            e.iter()
                .any(|m| m.starts_with("6:8 ") && m.contains("root")),
            "{e:?}"
        );
        assert!(
            e.iter()
                .any(|m| m.starts_with("7:10 ") && m.contains("sha256")),
            "{e:?}"
        );
        let e = errs("[repos.a]\nlanguage = \"go\"\nsource = \"git:u#abc\"\nlicense = \"MIT\"\n");
        assert!(e[0].contains("fork"), "{e:?}");
        let e = errs("[repos.a]\nlanguge = \"go\"\n");
        assert!(
            e[0].starts_with("2:1 ") && e[0].contains("languge"),
            "{e:?}"
        );
        let e = errs("[contamination]\nmodel_cutoff = \"June 2024\"\n");
        assert!(
            e[0].starts_with("2:16 ") && e[0].contains("not a date"),
            "{e:?}"
        );
        let e = errs(
            "[repos.\"../x\"]\nlanguage = \"go\"\nsource = \"git:u#abcdef0\"\nlicense = \"MIT\"\nfork = false\n",
        );
        assert!(e[0].contains("not a directory name"), "{e:?}");
    }

    #[test]
    fn sources_and_dates() {
        assert_eq!(
            Source::parse("npm:@scope/pkg@1.2.3").unwrap(),
            Source::Npm {
                package: "@scope/pkg".into(),
                version: "1.2.3".into()
            }
        );
        assert!(Source::parse("git:https://x/y.git#main").is_err());
        assert!(Source::parse("cargo:x@1").is_err());
        assert!(is_date("2024-06-30"));
        assert!(!is_date("2024-13-01"));
        assert!(!is_date("2024-6-30"));
        assert!(is_safe_name("scuffle-flv"));
        assert!(!is_safe_name(".."));
        assert!(!is_safe_name("a/b"));
    }
}
