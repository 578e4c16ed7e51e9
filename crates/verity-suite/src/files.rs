//! Finding a suite's task files and hashing everything the suite was read from.

use std::collections::BTreeMap;
use std::path::Path;

/// The file at a suite's root where the suite's baseline is kept (the results gates with
/// `baseline = true` are judged against). It is never read as a task file, even when a `tasks`
/// glob matches it, so saving a baseline never changes the suite's content hash.
pub const BASELINE_FILE: &str = "baseline.toml";

/// The task files a suite reads when suite.toml names none (whichever exist).
pub(crate) const DEFAULT_TASKS: &[&str] = &["tasks/**/*.toml", "tasks.jsonl", "tasks/**/*.jsonl"];

/// Directories deeper than this below the glob's fixed prefix are not searched.
const MAX_DEPTH: usize = 32;

pub(crate) fn is_glob(pattern: &str) -> bool {
    pattern.contains(['*', '?', '[', '{'])
}

/// The files a task pattern matches.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Matches {
    /// Suite-relative paths (with `/`), sorted.
    pub(crate) files: Vec<String>,
    /// Files the pattern matches whose path is not valid UTF-8, as lossy suite-relative paths,
    /// sorted: they cannot be named in a suite or a diagnostic, so they are reported, not read.
    pub(crate) not_utf8: Vec<String>,
}

/// The files `pattern` matches. A pattern without glob characters names one path, returned
/// whether or not it exists (reading it reports a missing file). Hidden directories and
/// symlinked directories are not searched.
pub(crate) fn expand(root: &Path, pattern: &str) -> Result<Matches, String> {
    if !is_glob(pattern) {
        return Ok(Matches {
            files: vec![pattern.to_owned()],
            not_utf8: Vec::new(),
        });
    }
    let glob = globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map_err(|e| format!("invalid glob `{pattern}`: {}", e.kind()))?
        .compile_matcher();
    // Walk only below the components that have no glob characters.
    let parts: Vec<&str> = pattern.split('/').collect();
    let fixed = parts
        .iter()
        .take_while(|p| !is_glob(p))
        .count()
        .min(parts.len().saturating_sub(1));
    let prefix = parts[..fixed].join("/");
    let start = if prefix.is_empty() {
        root.to_path_buf()
    } else {
        root.join(&prefix)
    };
    let mut found = Matches::default();
    walk(&start, Path::new(&prefix), 0, &mut |rel| {
        // globset matches the path's bytes, so a name that is not UTF-8 still matches.
        if glob.is_match(rel) {
            match rel.to_str() {
                Some(s) => found.files.push(s.to_owned()),
                None => found.not_utf8.push(rel.to_string_lossy().into_owned()),
            }
        }
    });
    found.files.sort();
    found.not_utf8.sort();
    Ok(found)
}

fn walk(dir: &Path, rel: &Path, depth: usize, visit: &mut dyn FnMut(&Path)) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name();
        // Joined with `/` on every platform, as patterns and suite paths are written.
        let child = if rel.as_os_str().is_empty() {
            std::path::PathBuf::from(&name)
        } else {
            let mut c = rel.as_os_str().to_owned();
            c.push("/");
            c.push(&name);
            std::path::PathBuf::from(c)
        };
        let Ok(ft) = entry.file_type() else { continue };
        if ft.is_dir() {
            if !name.as_encoded_bytes().starts_with(b".") {
                walk(&entry.path(), &child, depth + 1, visit);
            }
        } else if ft.is_file() || (ft.is_symlink() && entry.path().is_file()) {
            visit(&child);
        }
    }
}

/// BLAKE3 over every file, in path order: each path, a NUL, the length, then the bytes.
/// What the content hash covers of one file: its bytes, or for a file read as a stream (a
/// large dataset, never held whole) its path on disk, read again when the hash is taken, and
/// the length seen while streaming.
#[derive(Debug)]
pub(crate) enum Hashed {
    Bytes(Vec<u8>),
    Streamed { path: std::path::PathBuf, len: u64 },
}

impl From<Vec<u8>> for Hashed {
    fn from(b: Vec<u8>) -> Hashed {
        Hashed::Bytes(b)
    }
}

/// BLAKE3 over every file, in path order: each as its path, a zero byte, its length and its
/// bytes. A streamed file that is no longer the length it had when it was read is an error
/// naming it (it changed while the suite loaded).
pub(crate) fn content_hash(files: &BTreeMap<String, Hashed>) -> Result<String, String> {
    use std::io::Read;

    let mut h = blake3::Hasher::new();
    for (path, part) in files {
        h.update(path.as_bytes());
        h.update(&[0]);
        match part {
            Hashed::Bytes(bytes) => {
                h.update(&(bytes.len() as u64).to_le_bytes());
                h.update(bytes);
            }
            Hashed::Streamed { path: disk, len } => {
                h.update(&len.to_le_bytes());
                let changed = || format!("`{path}` changed while the suite was loading");
                let file = std::fs::File::open(disk)
                    .map_err(|e| format!("cannot read `{path}` again: {e}"))?;
                let mut seen = 0u64;
                let mut buf = vec![0u8; 64 * 1024];
                let mut r = std::io::BufReader::new(file);
                loop {
                    let n = r
                        .read(&mut buf)
                        .map_err(|e| format!("cannot read `{path}` again: {e}"))?;
                    if n == 0 {
                        break;
                    }
                    seen += n as u64;
                    if seen > *len {
                        return Err(changed());
                    }
                    h.update(&buf[..n]);
                }
                if seen != *len {
                    return Err(changed());
                }
            }
        }
    }
    Ok(h.finalize().to_hex().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_relative_paths_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("tasks/sub")).unwrap();
        std::fs::create_dir_all(root.join("tasks/.hidden")).unwrap();
        for p in [
            "tasks/b.toml",
            "tasks/a.toml",
            "tasks/sub/c.toml",
            "tasks/x.jsonl",
            "tasks/.hidden/d.toml",
            "top.toml",
        ] {
            std::fs::write(root.join(p), "").unwrap();
        }
        let files = |pattern: &str| expand(root, pattern).unwrap().files;
        assert_eq!(files("tasks/*.toml"), ["tasks/a.toml", "tasks/b.toml"]);
        assert_eq!(
            files("tasks/**/*.toml"),
            ["tasks/a.toml", "tasks/b.toml", "tasks/sub/c.toml"]
        );
        assert_eq!(files("*.toml"), ["top.toml"]);
        assert_eq!(files("nothing/*.toml"), Vec::<String>::new());
        assert_eq!(files("named.jsonl"), ["named.jsonl"]);
        assert!(expand(root, "tasks/[.toml").is_err());
    }

    /// A file (or directory) whose name is not UTF-8 is matched by its bytes and set apart.
    #[cfg(unix)]
    #[test]
    fn names_that_are_not_utf8_are_set_apart() {
        use std::os::unix::ffi::OsStrExt;

        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let bad_dir = root
            .join("tasks")
            .join(std::ffi::OsStr::from_bytes(b"d\xff"));
        std::fs::create_dir_all(&bad_dir).unwrap();
        std::fs::write(root.join("tasks/ok.toml"), "").unwrap();
        std::fs::write(
            root.join("tasks")
                .join(std::ffi::OsStr::from_bytes(b"caf\xe9.toml")),
            "",
        )
        .unwrap();
        std::fs::write(bad_dir.join("x.toml"), "").unwrap();
        std::fs::write(
            root.join("tasks")
                .join(std::ffi::OsStr::from_bytes(b"n\xe9.md")),
            "",
        )
        .unwrap();
        let m = expand(root, "tasks/**/*.toml").unwrap();
        assert_eq!(m.files, ["tasks/ok.toml"]);
        assert_eq!(
            m.not_utf8,
            ["tasks/caf\u{fffd}.toml", "tasks/d\u{fffd}/x.toml"]
        );
    }

    #[test]
    fn hash_depends_on_paths_and_bytes() {
        let mut a = BTreeMap::new();
        a.insert("x".to_owned(), Hashed::from(b"1".to_vec()));
        let h1 = content_hash(&a).unwrap();
        a.insert("x".to_owned(), b"2".to_vec().into());
        let h2 = content_hash(&a).unwrap();
        let mut b = BTreeMap::new();
        b.insert("y".to_owned(), b"2".to_vec().into());
        assert_ne!(h1, h2);
        assert_ne!(h2, content_hash(&b).unwrap());
        assert_eq!(h2.len(), 64);
    }

    #[test]
    fn a_streamed_file_hashes_like_its_bytes_and_must_not_change() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("d.jsonl");
        std::fs::write(&p, "abc\n").unwrap();
        let mut a = BTreeMap::new();
        a.insert("d.jsonl".to_owned(), Hashed::from(b"abc\n".to_vec()));
        let mut b = BTreeMap::new();
        b.insert(
            "d.jsonl".to_owned(),
            Hashed::Streamed {
                path: p.clone(),
                len: 4,
            },
        );
        assert_eq!(content_hash(&a).unwrap(), content_hash(&b).unwrap());
        std::fs::write(&p, "abcd\n").unwrap();
        let e = content_hash(&b).unwrap_err();
        assert!(e.contains("changed while"), "{e}");
    }
}
