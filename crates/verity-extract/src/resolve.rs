//! Resolving an import's module to a repository file, once every file is known.

use std::collections::{BTreeMap, HashSet};

use crate::walker::Resolve;

/// The repository's files, and what resolution needs from them.
pub(crate) struct Repo<'a> {
    files: HashSet<&'a str>,
    /// Directories holding at least one file (`""` for the root).
    dirs: HashSet<String>,
    /// Go modules: module path → the directory of its go.mod (`""` for the root).
    go_modules: BTreeMap<String, String>,
}

const JS_EXTS: [&str; 9] = [
    ".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts",
];

fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

fn join(dir: &str, rest: &str) -> String {
    if dir.is_empty() {
        rest.to_string()
    } else if rest.is_empty() {
        dir.to_string()
    } else {
        format!("{dir}/{rest}")
    }
}

/// `a/./b/../c` → `a/c`; `None` when it climbs above the root.
fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

impl<'a> Repo<'a> {
    /// `go_mods`: (path of a go.mod, its text).
    pub fn new(paths: &[&'a str], go_mods: &[(&str, &str)]) -> Repo<'a> {
        let mut dirs = HashSet::new();
        for p in paths {
            let mut d = dir_of(p);
            loop {
                if !dirs.insert(d.to_string()) || d.is_empty() {
                    break;
                }
                d = dir_of(d);
            }
        }
        let mut go_modules = BTreeMap::new();
        for (path, text) in go_mods {
            let module = text.lines().find_map(|l| {
                let l = l.trim();
                l.strip_prefix("module")
                    .filter(|r| r.starts_with([' ', '\t']))
                    .map(|r| r.trim().trim_matches('"').to_string())
            });
            if let Some(m) = module.filter(|m| !m.is_empty()) {
                go_modules.insert(m, dir_of(path).to_string());
            }
        }
        Repo {
            files: paths.iter().copied().collect(),
            dirs,
            go_modules,
        }
    }

    fn has(&self, p: &str) -> bool {
        self.files.contains(p)
    }

    fn first(&self, candidates: impl IntoIterator<Item = String>) -> Option<String> {
        candidates.into_iter().find(|c| self.has(c))
    }

    pub fn resolve(
        &self,
        file: &str,
        module: &str,
        symbols: &[String],
        how: &Resolve,
    ) -> Option<String> {
        match how {
            Resolve::None => None,
            Resolve::Js => self.js(file, module),
            Resolve::PyAbsolute => self.py_absolute(file, module).or_else(|| match symbols {
                // `from ns import mod` where `ns` is a namespace package (no __init__.py).
                [one] => self.py_absolute(file, &format!("{module}.{one}")),
                _ => None,
            }),
            Resolve::PyRelative { level, rest } => self
                .py_relative(file, *level, rest, symbols)
                .or_else(|| match symbols {
                    [one] if !rest.is_empty() => {
                        self.py_relative(file, *level, &format!("{rest}.{one}"), &[])
                    }
                    _ => None,
                }),
            Resolve::RustPath => self.rust_path(file, module, symbols),
            Resolve::RustMod => {
                let (root, segs) = self.rust_module(file);
                let mut segs = segs;
                segs.push(module.to_string());
                self.rust_exact(&root, &segs)
            }
            Resolve::Go => self.go(module),
        }
    }

    fn js(&self, file: &str, module: &str) -> Option<String> {
        let base = normalize(&join(dir_of(file), module))?;
        let mut cands = vec![base.clone()];
        // TypeScript's ESM convention: `./x.js` names `x.ts`.
        for (js, ts) in [
            (".js", [".ts", ".tsx"]),
            (".jsx", [".tsx", ".tsx"]),
            (".mjs", [".mts", ".mts"]),
            (".cjs", [".cts", ".cts"]),
        ] {
            if let Some(stem) = base.strip_suffix(js) {
                cands.extend(ts.iter().map(|e| format!("{stem}{e}")));
            }
        }
        cands.extend(JS_EXTS.iter().map(|e| format!("{base}{e}")));
        cands.extend(JS_EXTS.iter().map(|e| join(&base, &format!("index{e}"))));
        self.first(cands)
    }

    fn py_module(&self, dir: &str, dotted: &str) -> Option<String> {
        let rel = dotted.replace('.', "/");
        let p = join(dir, &rel);
        self.first([
            format!("{p}.py"),
            format!("{p}.pyi"),
            join(&p, "__init__.py"),
            join(&p, "__init__.pyi"),
        ])
    }

    fn py_absolute(&self, file: &str, module: &str) -> Option<String> {
        if module.is_empty() {
            return None;
        }
        // The roots a package is imported from: the repository's root, the usual source
        // directories, and every ancestor of the importing file (a package inside a subdirectory).
        let mut roots: Vec<String> = vec![String::new(), "src".into(), "lib".into()];
        let mut d = dir_of(file);
        while !d.is_empty() {
            roots.push(d.to_string());
            d = dir_of(d);
        }
        roots
            .iter()
            .filter(|r| r.is_empty() || self.dirs.contains(r.as_str()))
            .find_map(|r| self.py_module(r, module))
    }

    fn py_relative(
        &self,
        file: &str,
        level: usize,
        rest: &str,
        symbols: &[String],
    ) -> Option<String> {
        let mut dir = dir_of(file).to_string();
        for _ in 1..level {
            if dir.is_empty() {
                return None;
            }
            dir = dir_of(&dir).to_string();
        }
        if rest.is_empty() {
            // `from . import x`: the submodule `x` when there is one, else the package.
            if let [one] = symbols
                && let Some(m) = self.py_module(&dir, one)
            {
                return Some(m);
            }
            return self.first([join(&dir, "__init__.py"), join(&dir, "__init__.pyi")]);
        }
        self.py_module(&dir, rest)
    }

    /// The directory a Rust file's crate root lives in, and the file's module path below it:
    /// `src/a/b.rs` → (`src`, [a, b]); `src/a/mod.rs` → (`src`, [a]); `src/lib.rs` → (`src`, []).
    /// A file outside a `src/` directory next to a Cargo.toml (`tests/x.rs`) is its own root.
    fn rust_module(&self, file: &str) -> (String, Vec<String>) {
        let mut d = dir_of(file);
        loop {
            if self.has(&join(d, "Cargo.toml")) {
                let src = join(d, "src");
                if let Some(rest) = file.strip_prefix(&format!("{src}/")) {
                    let stem = rest.strip_suffix(".rs").unwrap_or(rest);
                    let mut segs: Vec<String> = stem.split('/').map(str::to_string).collect();
                    if segs.last().is_some_and(|s| s == "mod")
                        || (segs.len() == 1 && matches!(segs[0].as_str(), "lib" | "main"))
                    {
                        segs.pop();
                    }
                    return (src, segs);
                }
                break;
            }
            if d.is_empty() {
                break;
            }
            d = dir_of(d);
        }
        // Not in a crate's src/ (`tests/x.rs`, `build.rs`): a crate root of its own.
        (dir_of(file).to_string(), Vec::new())
    }

    fn rust_exact(&self, root: &str, segs: &[String]) -> Option<String> {
        if segs.is_empty() {
            return self.first([join(root, "lib.rs"), join(root, "main.rs")]);
        }
        let p = join(root, &segs.join("/"));
        self.first([format!("{p}.rs"), join(&p, "mod.rs")])
    }

    fn rust_path(&self, file: &str, module: &str, symbols: &[String]) -> Option<String> {
        let (root, cur) = self.rust_module(file);
        let mut parts = module.split("::");
        let mut segs: Vec<String> = match parts.next()? {
            "crate" => Vec::new(),
            "self" => cur,
            "super" => {
                let mut s = cur;
                s.pop()?;
                s
            }
            _ => return None,
        };
        for p in parts {
            match p {
                "super" => {
                    segs.pop()?;
                }
                "self" => {}
                _ => segs.push(p.to_string()),
            }
        }
        // `use crate::a::b;` imports the module `b` when it is a file.
        if let [one] = symbols {
            let mut with = segs.clone();
            with.push(one.clone());
            if let Some(f) = self.rust_exact(&root, &with) {
                return Some(f);
            }
        }
        // The longest prefix that is a file: `crate::a::Item` lives in `a.rs`.
        (0..=segs.len())
            .rev()
            .find_map(|k| self.rust_exact(&root, &segs[..k]))
    }

    /// A Go import path inside one of the repository's modules: the package's directory.
    fn go(&self, path: &str) -> Option<String> {
        self.go_modules.iter().rev().find_map(|(module, dir)| {
            let rest = if path == module {
                ""
            } else {
                path.strip_prefix(module.as_str())?.strip_prefix('/')?
            };
            let d = join(dir, rest);
            let shown = if d.is_empty() {
                ".".to_string()
            } else {
                d.clone()
            };
            self.dirs.contains(&d).then_some(shown)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes() {
        assert_eq!(normalize("a/./b/../c").as_deref(), Some("a/c"));
        assert_eq!(normalize("../x"), None);
    }

    #[test]
    fn rust_modules() {
        let files = [
            "Cargo.toml",
            "src/lib.rs",
            "src/a/mod.rs",
            "src/a/b.rs",
            "src/c.rs",
            "tests/t.rs",
            "tests/common/mod.rs",
        ];
        let r = Repo::new(&files, &[]);
        assert_eq!(
            r.rust_module("src/a/b.rs"),
            ("src".to_string(), vec!["a".to_string(), "b".to_string()])
        );
        assert_eq!(r.rust_module("src/a/mod.rs").1, vec!["a".to_string()]);
        assert!(r.rust_module("src/lib.rs").1.is_empty());
        let res = |file: &str, m: &str, syms: &[&str], how| {
            let syms: Vec<String> = syms.iter().map(|s| s.to_string()).collect();
            r.resolve(file, m, &syms, &how)
        };
        assert_eq!(
            res("src/c.rs", "crate::a::b", &["X"], Resolve::RustPath).as_deref(),
            Some("src/a/b.rs")
        );
        assert_eq!(
            res("src/c.rs", "crate::a", &["b"], Resolve::RustPath).as_deref(),
            Some("src/a/b.rs")
        );
        assert_eq!(
            res("src/c.rs", "crate::a", &["X", "Y"], Resolve::RustPath).as_deref(),
            Some("src/a/mod.rs")
        );
        assert_eq!(
            res("src/a/b.rs", "super", &["X", "Y"], Resolve::RustPath).as_deref(),
            Some("src/a/mod.rs")
        );
        assert_eq!(
            res("src/lib.rs", "c", &[], Resolve::RustMod).as_deref(),
            Some("src/c.rs")
        );
        assert_eq!(
            res("src/a/mod.rs", "b", &[], Resolve::RustMod).as_deref(),
            Some("src/a/b.rs")
        );
        assert_eq!(
            res("tests/t.rs", "common", &[], Resolve::RustMod).as_deref(),
            Some("tests/common/mod.rs")
        );
        assert_eq!(res("src/c.rs", "std::io", &["Read"], Resolve::None), None);
    }
}
