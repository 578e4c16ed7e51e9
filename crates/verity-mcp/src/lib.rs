//! MCP grounding (seed 000 §6.2, §10).
//!
//! * [`GroundingServer`]: a documentation / tool server a run owns — spawned once from a
//!   suite's `[servers.NAME]` ([`verity_model::ServerSpec`]), shared by every sample, ended at
//!   the end of the run. `inject-top-k` variants call [`GroundingServer::search`]; `tools`
//!   variants hand [`GroundingServer::openai_tools`] to the model and run its calls through
//!   [`GroundingServer::call`]. A server that does not start aborts the run (§10.1); one that
//!   dies mid-run fails the samples that need it with [`McpError::Exited`], never a hang.
//! * [`serve_stdio`]: the reference server (`verity mcp serve`) over any [`DocSource`], with the
//!   tools `search` and `read`, and each document a resource (`verity-doc:///ID`).
//!   [`StaticDocs`] is a small in-memory source for tests.
//! * [`serve_repos_stdio`]: the code-search server (`verity mcp serve --repo`) over a
//!   [`RepoSource`] of one or more repositories ([`Repo::build`] from a directory and, optionally,
//!   its [`verity_facts::Facts`]), with the tools `search`, `read_lines` and `list_files`, and
//!   each served file a resource (`verity-repo://NAME/PATH`).
//!
//! Both serve stdio through one framing layer (`stdio.rs`) that answers unparsable lines
//! (`-32700`) and requests before `initialize` itself, so the session survives them.
//!
//! * [`serve_http`] / [`serve_repos_http`]: the same two servers over Streamable HTTP
//!   (`verity mcp serve --http ADDR`), at [`HTTP_PATH`].
//!
//! [`GroundingServer::start`] speaks stdio to a `command` and Streamable HTTP to a `url` (its
//! `headers` read from the environment variables they name, never logged).
//!
//! Both sides use the official Rust MCP SDK (`rmcp`).

#![forbid(unsafe_code)]
#![deny(clippy::print_stdout)]

mod client;
mod error;
mod http_client;
mod http_server;
mod mapping;
mod repo;
mod repo_server;
mod search;
mod server;
mod static_docs;
mod stdio;

pub use client::{GroundingServer, ToolInfo, ToolOutput, tool_list};
pub use error::McpError;
pub use http_server::{HTTP_PATH, serve_http, serve_repos_http};
pub use mapping::{Allowlist, check_arguments, coerce_arguments, is_template};
pub use repo::{
    CHUNK_LINES, CHUNK_OVERLAP, DEFAULT_HITS, DEFAULT_LIST, Hit, LINE_CHARS, Lines, MAX_FILE_BYTES,
    MAX_HITS, MAX_LIST, MAX_READ_LINES, Repo, RepoError, RepoSource, SNIPPET_LINES,
};
pub use repo_server::{REPO_URI_SCHEME, RepoServer, file_uri, serve_repos_stdio};
pub use search::SearchBinding;
pub use server::{
    DEFAULT_SEARCH_LIMIT, DOC_URI_PREFIX, Doc, DocServer, DocSource, MAX_SEARCH_LIMIT,
    RESOURCE_PAGE, doc_id, doc_uri, serve_handler_stdio, serve_stdio,
};
pub use static_docs::StaticDocs;
