//! Where `unsafe` may be (ARCHITECTURE.md, "`unsafe` lives in one module"): the workspace lints
//! set `unsafe_code = "deny"` so that verity-local's `src/kernels/vnni.rs` can allow it; these
//! tests keep everything else as strict as `forbid`. They read the repository's files, so a
//! crate added under `crates/` is checked without being listed here.

use std::fs;
use std::path::{Path, PathBuf};

/// The one file allowed to hold `unsafe`, relative to verity-local's directory.
const UNSAFE_MODULE: &str = "src/kernels/vnni.rs";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// Every crate directory under `crates/` (one holding a `Cargo.toml`), sorted.
fn crate_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(repo_root().join("crates"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|dir| dir.join("Cargo.toml").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// The crate roots of a package's library and binaries: `src/lib.rs`, `src/main.rs`,
/// `src/bin/*.rs` and `src/bin/*/main.rs`.
fn crate_roots(dir: &Path) -> Vec<PathBuf> {
    let src = dir.join("src");
    let mut roots: Vec<PathBuf> = ["lib.rs", "main.rs"]
        .iter()
        .map(|name| src.join(name))
        .filter(|p| p.is_file())
        .collect();
    if let Ok(entries) = fs::read_dir(src.join("bin")) {
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|ext| ext == "rs") {
                roots.push(path);
            } else if path.join("main.rs").is_file() {
                roots.push(path.join("main.rs"));
            }
        }
    }
    roots.sort();
    roots
}

/// Every `.rs` file under `dir`, sorted (`target` directories skipped).
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|name| name != "target") {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Rust source with comments, string literals and char literals blanked out (each replaced by
/// a space), so that what remains is code: a word in a doc comment or a string is not code.
fn code_only(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            out.push(' ');
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if let Some(len) = raw_string_start(&chars[i..]) {
            // r"…", r#"…"#, br#"…"#: ends at the quote followed by as many hashes.
            let hashes = chars[i..i + len].iter().filter(|&&c| c == '#').count();
            i += len;
            while i < chars.len() {
                if chars[i] == '"'
                    && chars[i + 1..].iter().take_while(|&&c| c == '#').count() >= hashes
                {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            out.push(' ');
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else if c == '\'' && next == Some('\\') {
            // An escaped char literal: '\n', '\'', '\u{..}'.
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push(' ');
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            i += 3;
            out.push(' ');
        } else {
            // Identifiers are copied whole, so that an `r` or `b` inside one never starts a
            // raw string.
            if c.is_alphanumeric() || c == '_' {
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    out.push(chars[i]);
                    i += 1;
                }
            } else {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// The length of a raw string's opening (`r"`, `r#"`, `br##"`, …) at the start of `chars`.
fn raw_string_start(chars: &[char]) -> Option<usize> {
    let mut i = 0;
    if chars.first() == Some(&'b') {
        i += 1;
    }
    if chars.get(i) != Some(&'r') {
        return None;
    }
    i += 1;
    while chars.get(i) == Some(&'#') {
        i += 1;
    }
    (chars.get(i) == Some(&'"')).then_some(i + 1)
}

/// Whether `word` occurs in `code` as a whole identifier.
fn has_word(code: &str, word: &str) -> bool {
    code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|token| token == word)
}

#[test]
fn every_other_crate_root_forbids_unsafe_code() {
    let mut checked = 0;
    let mut missing = Vec::new();
    for dir in crate_dirs() {
        if dir.file_name().is_some_and(|name| name == "verity-local") {
            continue;
        }
        for root in crate_roots(&dir) {
            checked += 1;
            let src = fs::read_to_string(&root).unwrap();
            if !src
                .lines()
                .any(|line| line.trim() == "#![forbid(unsafe_code)]")
            {
                missing.push(root);
            }
        }
    }
    // verity's own binary is one of them: an empty walk must not pass.
    assert!(
        checked >= 2,
        "found only {checked} crate roots under crates/"
    );
    assert!(
        missing.is_empty(),
        "these crate roots lack `#![forbid(unsafe_code)]` (the workspace only denies it, for \
         verity-local's {UNSAFE_MODULE}): {missing:#?}"
    );
}

#[test]
fn unsafe_is_only_in_the_vnni_module() {
    let local = repo_root().join("crates/verity-local");
    let allowed = local.join(UNSAFE_MODULE);
    assert!(
        allowed.is_file(),
        "{} is gone: update this test and ARCHITECTURE.md",
        allowed.display()
    );
    let offenders: Vec<PathBuf> = rust_files(&local)
        .into_iter()
        .filter(|path| *path != allowed)
        .filter(|path| has_word(&code_only(&fs::read_to_string(path).unwrap()), "unsafe"))
        .collect();
    assert!(
        offenders.is_empty(),
        "`unsafe` outside verity-local's {UNSAFE_MODULE}: {offenders:#?}"
    );
}

#[test]
fn no_other_file_allows_unsafe_code() {
    // The workspace's `deny` can be lifted by `#[allow(unsafe_code)]` in a test or an example
    // (targets whose root carries no `forbid`): only the VNNI module may do so.
    let allowed = repo_root().join("crates/verity-local").join(UNSAFE_MODULE);
    let offenders: Vec<PathBuf> = crate_dirs()
        .iter()
        .flat_map(|dir| rust_files(dir))
        .filter(|path| *path != allowed)
        .filter(|path| {
            let code: String = code_only(&fs::read_to_string(path).unwrap())
                .split_whitespace()
                .collect();
            [
                "allow(unsafe_code",
                "expect(unsafe_code",
                "warn(unsafe_code",
            ]
            .iter()
            .any(|lift| code.contains(lift))
        })
        .collect();
    assert!(
        offenders.is_empty(),
        "files that lift the `unsafe_code` lint: {offenders:#?}"
    );
}

#[test]
fn the_code_filter_sees_code_only() {
    let src = r##"
        //! unsafe in a doc comment
        /* unsafe /* nested */ unsafe */
        let a = "unsafe \" unsafe";
        let b = r#"unsafe " unsafe"#;
        let c = br"unsafe";
        let d = '"'; let e = '\''; fn f<'a>(x: &'a str) {}
        let for_r = 1;
        let unsafe_ish = 2;
    "##;
    let code = code_only(src);
    assert!(!has_word(&code, "unsafe"), "{code}");
    assert!(
        has_word(&code, "unsafe_ish") && has_word(&code, "for_r"),
        "{code}"
    );
    assert!(has_word(&code_only("let x = 1; unsafe { f() }"), "unsafe"));
    assert!(has_word(
        &code_only("'a: loop { unsafe { f() } }"),
        "unsafe"
    ));
}
