//! `verity mcp serve`: the reference documentation server over MCP (stdio).

use std::path::Path;
use std::sync::Arc;

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
    rt.block_on(verity_mcp::serve_stdio(source))
        .map_err(|e| CliError::io(e.to_string()))?;
    Ok(exit::OK)
}
