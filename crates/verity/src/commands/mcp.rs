//! `verity mcp serve`: the reference documentation server, or the code-search server over
//! repositories (`--repo`), over MCP (stdio, or Streamable HTTP with `--http ADDR`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use super::runtime;
use crate::cli::McpServeArgs;
use crate::{CliError, exit};

/// Reads a JSONL document file for `verity mcp serve --docs`.
pub(super) fn read_docs(path: &Path) -> Result<Vec<verity_mcp::Doc>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::usage(format!("cannot read {}: {e}", path.display())))?;
    let mut docs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = || format!("{}:{}", path.display(), i + 1);
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| CliError::usage(format!("{}: {e}", at())))?;
        let field = |k: &str| -> Result<String, CliError> {
            v.get(k)
                .and_then(|x| x.as_str())
                .map(str::to_owned)
                .ok_or_else(|| {
                    CliError::usage(format!("{}: each document needs a string `{k}`", at()))
                })
        };
        docs.push(verity_mcp::Doc {
            id: field("id")?,
            title: field("title")?,
            body: field("body")?,
        });
    }
    Ok(docs)
}

pub(super) fn mcp_serve(a: McpServeArgs) -> Result<u8, CliError> {
    if !a.repo.is_empty() {
        let source = Arc::new(repo_source(&a.repo, &a.facts)?);
        let rt = runtime()?;
        match &a.http {
            Some(addr) => rt.block_on(async {
                let stop = stop_signal();
                let listener = bind(addr).await?;
                verity_mcp::serve_repos_http(source, listener, stop)
                    .await
                    .map_err(|e| CliError::io(format!("--http {addr}: {e}")))
            })?,
            None => rt
                .block_on(verity_mcp::serve_repos_stdio(source))
                .map_err(|e| CliError::io(e.to_string()))?,
        }
        return Ok(exit::OK);
    }
    let source: Arc<dyn verity_mcp::DocSource> = match &a.docs {
        Some(path) => {
            let name = format!("docs {}", path.display());
            Arc::new(verity_mcp::StaticDocs::new(name, read_docs(path)?))
        }
        None => match &a.index {
            Some(spec) => {
                let index = verity_swift::cli::load_index(spec).map_err(|e| {
                    CliError::usage(format!(
                        "index {spec}: {e} (build one with `verity symbols build DIR --out INDEX`)"
                    ))
                })?;
                let map = verity_swift::DeprecationMap::default_for(&index);
                let name = format!("verity-apple-docs {}", index.meta().label);
                Arc::new(crate::docs::SdkDocs::new(&index, &map, name))
            }
            None => {
                return Err(CliError::usage(
                    "name a documentation source: --docs FILE.jsonl or --index INDEX",
                ));
            }
        },
    };
    let rt = runtime()?;
    match &a.http {
        Some(addr) => rt.block_on(async {
            let stop = stop_signal();
            let listener = bind(addr).await?;
            verity_mcp::serve_http(source, listener, stop)
                .await
                .map_err(|e| CliError::io(format!("--http {addr}: {e}")))
        })?,
        None => rt
            .block_on(verity_mcp::serve_stdio(source))
            .map_err(|e| CliError::io(e.to_string()))?,
    }
    Ok(exit::OK)
}

/// Binds `--http ADDR` and says where it listens, on standard error:
/// `listening on http://HOST:PORT/mcp` (the port bound when ADDR's is 0), after a warning when
/// the address is not a loopback one (the server has no authentication; ADDR is explicit).
async fn bind(addr: &str) -> Result<tokio::net::TcpListener, CliError> {
    crate::serve::bind(
        "verity mcp serve",
        "--http",
        addr,
        true,
        verity_mcp::HTTP_PATH,
    )
    .await
}

/// Completes at the first Ctrl-C (SIGINT) or SIGTERM (which from this call on stop the server
/// cleanly instead of `interrupt`'s exit 130).
fn stop_signal() -> impl std::future::Future<Output = ()> {
    crate::serve::stop_signal("verity mcp serve")
}

/// `[NAME=]DIR`: the name before the first `=` when there is one that is a repository name
/// (letters, digits, `.`, `_`, `-`), else the directory's own name.
pub(super) fn parse_repo_arg(arg: &str) -> Result<(String, PathBuf), CliError> {
    let named = arg.split_once('=').filter(|(name, _)| {
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'))
    });
    let (name, dir) = match named {
        Some((name, dir)) => (Some(name.to_owned()), PathBuf::from(dir)),
        None => (None, PathBuf::from(arg)),
    };
    if dir.as_os_str().is_empty() {
        return Err(CliError::usage(format!(
            "--repo {arg}: name a directory, as [NAME=]DIR"
        )));
    }
    let name = match name {
        Some(name) => name,
        None => {
            let real = dir.canonicalize().map_err(|e| {
                CliError::new(
                    if e.kind() == std::io::ErrorKind::NotFound {
                        verity_model::ErrorKind::NotFound
                    } else {
                        verity_model::ErrorKind::Io
                    },
                    format!("--repo {}: {e}", dir.display()),
                )
            })?;
            real.file_name()
                .and_then(|n| n.to_str())
                .map(str::to_owned)
                .ok_or_else(|| {
                    CliError::usage(format!(
                        "--repo {arg}: the directory has no usable name; give one as NAME=DIR"
                    ))
                })?
        }
    };
    Ok((name, dir))
}

/// The repositories of `--repo`, each with the `--facts` file whose `repo.name` is its name.
/// Logs what it indexed, and how long it took, on standard error.
pub(super) fn repo_source(
    repos: &[String],
    facts_files: &[PathBuf],
) -> Result<verity_mcp::RepoSource, CliError> {
    let specs = repos
        .iter()
        .map(|r| parse_repo_arg(r))
        .collect::<Result<Vec<_>, _>>()?;
    let mut facts: Vec<Option<verity_facts::Facts>> = specs.iter().map(|_| None).collect();
    for path in facts_files {
        let f =
            verity_facts::Facts::read(path).map_err(|e| CliError::new(e.kind(), e.to_string()))?;
        let Some(i) = specs.iter().position(|(name, _)| *name == f.repo.name) else {
            return Err(CliError::usage(format!(
                "--facts {}: its repo.name `{}` is none of the --repo names ({})",
                path.display(),
                f.repo.name,
                specs
                    .iter()
                    .map(|(n, _)| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        if facts[i].is_some() {
            return Err(CliError::usage(format!(
                "--facts {}: repository `{}` already has a facts file",
                path.display(),
                f.repo.name
            )));
        }
        facts[i] = Some(f);
    }
    let started = Instant::now();
    // A repository without a facts file gets its facts extracted here (tree-sitter, well
    // under a second for tens of thousands of lines), so definitions rank first either way.
    for ((name, dir), slot) in specs.iter().zip(facts.iter_mut()) {
        if slot.is_none() {
            let opts = verity_extract::ExtractOptions {
                name: Some(name.clone()),
                git: false,
                ..verity_extract::ExtractOptions::default()
            };
            let extracted = verity_extract::extract(dir, &opts)
                .map_err(|e| CliError::new(e.kind(), e.to_string()))?;
            *slot = Some(extracted);
        }
    }
    let mut built = Vec::with_capacity(specs.len());
    for ((name, dir), facts) in specs.iter().zip(&facts) {
        let repo = verity_mcp::Repo::build(name, dir, facts.as_ref())
            .map_err(|e| CliError::new(e.kind(), e.to_string()))?;
        let stale = if repo.stale_symbols() > 0 {
            format!(
                "; {} symbols of the facts left out (their file or lines are not in the directory: are the facts for this version?)",
                repo.stale_symbols()
            )
        } else {
            String::new()
        };
        eprintln!(
            "verity mcp serve: repository `{}` ({}): {} files, {} lines, {} symbols{}",
            repo.name(),
            dir.display(),
            repo.file_count(),
            repo.line_count(),
            repo.symbol_count(),
            stale
        );
        built.push(repo);
    }
    let source =
        verity_mcp::RepoSource::new(built).map_err(|e| CliError::new(e.kind(), e.to_string()))?;
    eprintln!(
        "verity mcp serve: {} documents indexed in {} ms",
        source.document_count(),
        started.elapsed().as_millis()
    );
    Ok(source)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repo_arguments_name_the_repository() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("tinyq");
        std::fs::create_dir(&sub).unwrap();
        let (name, path) = parse_repo_arg(&format!("q={}", sub.display())).unwrap();
        assert_eq!((name.as_str(), path.as_path()), ("q", sub.as_path()));
        let (name, _) = parse_repo_arg(&sub.display().to_string()).unwrap();
        assert_eq!(name, "tinyq");
        // `=` in a directory path whose prefix is not a name.
        let odd = dir.path().join("a=b");
        std::fs::create_dir(&odd).unwrap();
        let (name, path) = parse_repo_arg(&odd.display().to_string()).unwrap();
        assert_eq!((name.as_str(), path.as_path()), ("a=b", odd.as_path()));
        assert!(parse_repo_arg("q=").is_err());
        assert_eq!(
            parse_repo_arg("/no/such/verity/dir").unwrap_err().kind,
            verity_model::ErrorKind::NotFound
        );
    }
}
