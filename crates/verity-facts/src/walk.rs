//! The repository walk every extraction and every freshness check shares, so the suite loader
//! can tell an edited repository from the one its facts describe without linking a parser.
//!
//! What is kept: every regular file under the directory that
//! - is not ignored by a `.gitignore` or `.ignore` inside the directory (read whether or not the
//!   directory is a git work tree: an unpacked tarball is walked like a checkout; ignore files
//!   *above* the directory, git's global excludes and `.git/info/exclude` are not read, so the
//!   same tree gives the same files wherever it lies),
//! - is not hidden and not under a hidden directory (`.git` included),
//! - is at most [`MAX_FILE_BYTES`] (2 MiB) long, and
//! - has no NUL byte in its first 8 KiB (binary files are left out).
//!
//! Symbolic links are not followed.

use std::path::{Path, PathBuf};

use verity_model::ErrorKind;

use crate::schema::{FileFact, Language, content_hash};

/// Files longer than this are left out of the walk (generated bundles, data dumps).
pub const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;

/// How much of a file is searched for a NUL byte to call it binary.
pub const BINARY_PROBE_BYTES: usize = 8 * 1024;

/// One file the walk kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScannedFile {
    /// Relative to the walked directory, `/` separators.
    pub path: String,
    pub bytes: Vec<u8>,
    /// BLAKE3 of `bytes`, hex.
    pub hash: String,
    /// Lines (a last line without a newline counts).
    pub lines: u32,
}

impl ScannedFile {
    /// The file as a [`FileFact`], without identifiers.
    pub fn fact(&self) -> FileFact {
        FileFact {
            path: self.path.clone(),
            language: Language::of_path(&self.path),
            lines: self.lines,
            bytes: self.bytes.len() as u64,
            hash: self.hash.clone(),
            identifiers: Vec::new(),
        }
    }
}

/// A directory that could not be walked.
#[derive(Debug, thiserror::Error)]
pub enum WalkError {
    #[error("{path}: no such directory")]
    NotFound { path: String },
    #[error("{path}: not a directory")]
    NotADirectory { path: String },
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot walk {path}: {message}")]
    Walk { path: String, message: String },
}

impl WalkError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            WalkError::NotFound { .. } => ErrorKind::NotFound,
            WalkError::NotADirectory { .. } => ErrorKind::Usage,
            WalkError::Read { .. } | WalkError::Walk { .. } => ErrorKind::Io,
        }
    }
}

/// Lines in `bytes`: newlines, plus one for a last line without one.
pub fn count_lines(bytes: &[u8]) -> u32 {
    let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
    let extra = usize::from(bytes.last().is_some_and(|&b| b != b'\n'));
    u32::try_from(newlines + extra).unwrap_or(u32::MAX)
}

/// Whether `bytes` looks binary: a NUL byte in its first [`BINARY_PROBE_BYTES`].
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(BINARY_PROBE_BYTES)].contains(&0)
}

/// Walk `dir` (see the module documentation for what is kept) and read every file kept, sorted
/// by path.
pub fn scan(dir: &Path) -> Result<Vec<ScannedFile>, WalkError> {
    let shown = dir.display().to_string();
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(WalkError::NotFound { path: shown });
        }
        Err(source) => {
            return Err(WalkError::Read {
                path: shown,
                source,
            });
        }
        Ok(m) if !m.is_dir() => return Err(WalkError::NotADirectory { path: shown }),
        Ok(_) => {}
    }
    let walker = ignore::WalkBuilder::new(dir)
        .hidden(true)
        .ignore(true)
        .git_ignore(true)
        .git_global(false)
        .git_exclude(false)
        .require_git(false)
        .parents(false)
        .follow_links(false)
        .build();
    let mut paths: Vec<(String, PathBuf)> = Vec::new();
    for entry in walker {
        let entry = entry.map_err(|e| WalkError::Walk {
            path: shown.clone(),
            message: e.to_string(),
        })?;
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let full = entry.path();
        let Ok(rel) = full.strip_prefix(dir) else {
            continue;
        };
        let rel = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        let len = entry.metadata().map(|m| m.len()).unwrap_or(0);
        if len > MAX_FILE_BYTES {
            continue;
        }
        paths.push((rel, full.to_path_buf()));
    }
    paths.sort();
    let mut files = Vec::with_capacity(paths.len());
    for (rel, full) in paths {
        let bytes = std::fs::read(&full).map_err(|source| WalkError::Read {
            path: full.display().to_string(),
            source,
        })?;
        // Checked again on the bytes read: the file may have grown since its metadata.
        if bytes.len() as u64 > MAX_FILE_BYTES || is_binary(&bytes) {
            continue;
        }
        files.push(ScannedFile {
            path: rel,
            hash: blake3::hash(&bytes).to_hex().to_string(),
            lines: count_lines(&bytes),
            bytes,
        });
    }
    Ok(files)
}

/// The [`content_hash`] of the files [`scan`] keeps: what `repo.content_hash` of facts
/// extracted from `dir` is, as long as nobody edited the tree.
pub fn repo_hash(dir: &Path) -> Result<String, WalkError> {
    let facts: Vec<FileFact> = scan(dir)?.iter().map(ScannedFile::fact).collect();
    Ok(content_hash(&facts))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, rel: &str, bytes: &[u8]) {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }

    #[test]
    fn keeps_what_a_developer_sees() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        write(d, "src/a.ts", b"export const a = 1;\n");
        write(d, "src/b/c.py", b"x = 1\ny = 2");
        write(d, ".gitignore", b"dist/\n*.log\n");
        write(d, "dist/bundle.js", b"var x;\n");
        write(d, "debug.log", b"noise\n");
        write(d, "src/.ignore", b"generated.rs\n");
        write(d, "src/generated.rs", b"fn g() {}\n");
        write(d, ".git/config", b"[core]\n");
        write(d, ".hidden/x.rs", b"fn h() {}\n");
        write(d, "img.png", b"\x89PNG\r\n\x1a\n\0\0\0");
        write(d, "big.txt", &vec![b'a'; MAX_FILE_BYTES as usize + 1]);
        write(d, "empty.txt", b"");
        let files = scan(d).unwrap();
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["empty.txt", "src/a.ts", "src/b/c.py"]);
        assert_eq!(files[0].lines, 0);
        assert_eq!(files[1].lines, 1);
        assert_eq!(files[2].lines, 2);
        assert_eq!(
            files[2].hash,
            blake3::hash(b"x = 1\ny = 2").to_hex().to_string()
        );
        assert_eq!(files[1].fact().language, Some(Language::TypeScript));
    }

    #[test]
    fn an_ignore_file_above_the_directory_is_not_read() {
        let t = tempfile::tempdir().unwrap();
        write(t.path(), ".gitignore", b"repos/\n");
        write(t.path(), "repos/x/main.go", b"package main\n");
        let files = scan(&t.path().join("repos/x")).unwrap();
        assert_eq!(files.len(), 1, "{files:?}");
    }

    #[test]
    fn repo_hash_is_stable_and_sees_edits() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        write(d, "a.rs", b"fn a() {}\n");
        write(d, "b/c.rs", b"fn c() {}\n");
        let h1 = repo_hash(d).unwrap();
        assert_eq!(h1, repo_hash(d).unwrap());
        assert!(h1.starts_with("blake3:"));
        write(d, "b/c.rs", b"fn c() { }\n");
        let h2 = repo_hash(d).unwrap();
        assert_ne!(h1, h2);
        write(d, "target.log", b"x\n");
        assert_ne!(h2, repo_hash(d).unwrap(), "an added file changes it");
        write(d, ".gitignore", b"*.log\n");
        // The .gitignore is hidden (not listed itself) and leaves the log out: back to h2.
        assert_eq!(h2, repo_hash(d).unwrap());
    }

    #[test]
    fn missing_directory_is_not_found() {
        let err = scan(Path::new("/nonexistent/verity/dir")).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound);
        let t = tempfile::tempdir().unwrap();
        write(t.path(), "f", b"x");
        let err = scan(&t.path().join("f")).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Usage);
    }
}
