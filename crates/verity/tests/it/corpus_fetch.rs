//! `verity corpus fetch` against a local HTTP server serving tarballs, and
//! `verity corpus from-facts` on facts built here.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

use crate::support::{run_code, run_ok, stderr, stdout, verity};

/// A tiny HTTP/1.1 server on 127.0.0.1:0 serving fixed bodies by path (404 otherwise). It
/// answers at most `MAX_CONNECTIONS` connections, then stops by itself.
struct TarServer {
    addr: std::net::SocketAddr,
    hits: Arc<AtomicUsize>,
    bodies: Arc<Mutex<HashMap<String, Vec<u8>>>>,
}

const MAX_CONNECTIONS: usize = 50;

impl TarServer {
    fn start() -> TarServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let hits = Arc::new(AtomicUsize::new(0));
        let bodies: Arc<Mutex<HashMap<String, Vec<u8>>>> = Arc::default();
        let (h, b) = (Arc::clone(&hits), Arc::clone(&bodies));
        std::thread::spawn(move || {
            for stream in listener.incoming().take(MAX_CONNECTIONS) {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                if reader.read_line(&mut line).is_err() {
                    continue;
                }
                // Skip the headers.
                loop {
                    let mut l = String::new();
                    if reader.read_line(&mut l).unwrap_or(0) == 0 || l == "\r\n" {
                        break;
                    }
                }
                h.fetch_add(1, Ordering::SeqCst);
                let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
                let body = b.lock().unwrap().get(&path).cloned();
                let _ = match body {
                    Some(body) => stream
                        .write_all(
                            format!(
                                "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                                body.len()
                            )
                            .as_bytes(),
                        )
                        .and_then(|()| stream.write_all(&body)),
                    None => stream.write_all(
                        b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                    ),
                };
            }
        });
        TarServer { addr, hits, bodies }
    }

    fn serve(&self, path: &str, body: Vec<u8>) -> String {
        self.bodies.lock().unwrap().insert(path.to_string(), body);
        format!("http://{}{path}", self.addr)
    }

    fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

/// A .tar.gz of `files` (path, contents) plus raw entries whose names the tar builder would
/// refuse (`..`), each (name, link target or None for a file).
fn tarball(files: &[(&str, &str)], raw: &[(&str, Option<&str>)]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut b = tar::Builder::new(gz);
    for (path, text) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(text.len() as u64);
        h.set_mode(0o644);
        b.append_data(&mut h, path, text.as_bytes()).unwrap();
    }
    for (name, link) in raw {
        let mut h = tar::Header::new_old();
        {
            let old = h.as_old_mut();
            old.name[..name.len()].copy_from_slice(name.as_bytes());
            if let Some(l) = link {
                old.linkname[..l.len()].copy_from_slice(l.as_bytes());
            }
        }
        h.set_mode(0o644);
        match link {
            Some(_) => {
                h.set_entry_type(tar::EntryType::Symlink);
                h.set_size(0);
                h.set_cksum();
                b.append(&h, std::io::empty()).unwrap();
            }
            None => {
                h.set_entry_type(tar::EntryType::Regular);
                h.set_size(4);
                h.set_cksum();
                b.append(&h, &b"evil"[..]).unwrap();
            }
        }
    }
    b.into_inner().unwrap().finish().unwrap()
}

fn sha(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn pins(entries: &[(&str, &str, &str)]) -> String {
    let mut s = String::from("[contamination]\nmodel_cutoff = \"2024-06-30\"\n");
    for (name, url, sha) in entries {
        s.push_str(&format!(
            "\n[repos.{name}]\nlanguage = \"python\"\nsource = \"pypi:{name}==1.0\"\nurl = \"{url}\"\nsha256 = \"{sha}\"\nroot = \"{name}-1.0\"\nlicense = \"MIT\"\nfork = false\nfirst_release = \"2025-01-01\"\n"
        ));
    }
    s
}

fn fetch(suite: &Path, cache: &Path) -> std::process::Command {
    let mut c = verity(suite);
    c.args(["corpus", "fetch", "."])
        .arg("--cache-dir")
        .arg(cache);
    c
}

#[test]
fn fetch_verifies_caches_is_idempotent_and_works_offline() {
    let server = TarServer::start();
    let body = tarball(
        &[
            ("good-1.0/pkg/__init__.py", "from .core import run\n"),
            ("good-1.0/pkg/core.py", "def run():\n    return 1\n"),
            ("other/ignored.txt", "outside the root\n"),
        ],
        &[],
    );
    let url = server.serve("/good-1.0.tar.gz", body.clone());
    let dir = tempfile::tempdir().unwrap();
    let (suite, cache) = (dir.path().join("suite"), dir.path().join("cache"));
    std::fs::create_dir_all(&suite).unwrap();
    std::fs::write(
        suite.join("repos.toml"),
        pins(&[("good", &url, &sha(&body))]),
    )
    .unwrap();

    let out = run_ok(&mut fetch(&suite, &cache));
    assert!(stdout(&out).contains("2 files"), "{}", stdout(&out));
    assert!(stdout(&out).contains("downloaded"), "{}", stdout(&out));
    let core = suite.join("repos/good/pkg/core.py");
    assert_eq!(
        std::fs::read_to_string(&core).unwrap(),
        "def run():\n    return 1\n"
    );
    assert!(!suite.join("repos/good/other").exists());
    assert!(!suite.join("repos/other").exists());
    assert!(cache.join(sha(&body)).is_file());
    assert_eq!(server.hits(), 1);

    // Again: nothing to do, no request.
    let out = run_ok(&mut fetch(&suite, &cache));
    assert!(stdout(&out).contains("up to date"), "{}", stdout(&out));
    assert_eq!(server.hits(), 1);

    // The directory removed: unpacked again from the cache, offline.
    std::fs::remove_dir_all(suite.join("repos")).unwrap();
    let out = run_ok(fetch(&suite, &cache).arg("--offline"));
    assert!(stdout(&out).contains("from the cache"), "{}", stdout(&out));
    assert!(core.is_file());
    assert_eq!(server.hits(), 1);

    // A changed pin replaces the directory.
    let body2 = tarball(
        &[("good-1.0/pkg/core.py", "def run():\n    return 2\n")],
        &[],
    );
    let url2 = server.serve("/good-1.1.tar.gz", body2.clone());
    std::fs::write(
        suite.join("repos.toml"),
        pins(&[("good", &url2, &sha(&body2))]),
    )
    .unwrap();
    // Offline, the new artifact is not cached: a clear error, the old tree left alone.
    let out = run_code(fetch(&suite, &cache).arg("--offline"), 2);
    assert!(stderr(&out).contains("--offline"), "{}", stderr(&out));
    assert!(suite.join("repos/good/pkg/__init__.py").is_file());
    run_ok(&mut fetch(&suite, &cache));
    assert_eq!(
        std::fs::read_to_string(&core).unwrap(),
        "def run():\n    return 2\n"
    );
    assert!(!suite.join("repos/good/pkg/__init__.py").exists());
    assert_eq!(server.hits(), 2);
}

#[test]
fn fetch_refuses_a_wrong_sha_and_hostile_archives() {
    let server = TarServer::start();
    let body = tarball(&[("bad-1.0/a.py", "x = 1\n")], &[]);
    let url = server.serve("/bad-1.0.tar.gz", body.clone());
    let dir = tempfile::tempdir().unwrap();
    let (suite, cache) = (dir.path().join("suite"), dir.path().join("cache"));
    std::fs::create_dir_all(&suite).unwrap();
    let wrong = "0".repeat(64);
    std::fs::write(suite.join("repos.toml"), pins(&[("bad", &url, &wrong)])).unwrap();
    let out = run_code(&mut fetch(&suite, &cache), 2);
    let err = stderr(&out);
    assert!(err.contains(&sha(&body)) && err.contains(&wrong), "{err}");
    assert!(err.contains("deleted"), "{err}");
    assert!(!suite.join("repos/bad").exists());
    let cached: Vec<_> = std::fs::read_dir(&cache).unwrap().collect();
    assert!(cached.is_empty(), "nothing kept in the cache: {cached:?}");

    // A `..` entry and a link out of the tree are refused, and nothing is left behind.
    for (name, raw) in [
        ("trav", ("trav-1.0/../../evil.py", None)),
        ("link", ("link-1.0/escape", Some("../../../etc"))),
    ] {
        let body = tarball(&[(&format!("{name}-1.0/ok.py"), "ok = 1\n")], &[raw]);
        let url = server.serve(&format!("/{name}.tar.gz"), body.clone());
        std::fs::write(suite.join("repos.toml"), pins(&[(name, &url, &sha(&body))])).unwrap();
        let out = run_code(&mut fetch(&suite, &cache), 2);
        assert!(
            stderr(&out).contains("outside the destination"),
            "{}",
            stderr(&out)
        );
        assert!(!suite.join("repos").join(name).exists());
        assert!(!dir.path().join("evil.py").exists());
        assert!(!suite.join("evil.py").exists());
        let leftovers: Vec<String> = std::fs::read_dir(suite.join("repos"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
}

#[test]
fn validate_warns_on_contamination_facts() {
    let dir = tempfile::tempdir().unwrap();
    crate::support::write_tree(
        dir.path(),
        &[
            (
                "suite.toml",
                "name = \"c\"\n[defaults]\nprovider = \"mock\"\n",
            ),
            ("tasks/a.toml", "id = \"a\"\nprompt = \"p\"\n"),
            (
                "repos.toml",
                "[contamination]\nmodel_cutoff = \"2024-06-30\"\nmax_downloads_per_month = 100\n\n[repos.old]\nlanguage = \"rust\"\nsource = \"crates:old@1.0\"\nurl = \"https://example.invalid/old.crate\"\nsha256 = \"0000000000000000000000000000000000000000000000000000000000000000\"\nlicense = \"MIT\"\nfork = true\nfirst_release = \"2019-01-01\"\npopularity = { value = 5000, unit = \"downloads/month\" }\n",
            ),
        ],
    );
    let out = run_ok(verity(dir.path()).args(["validate", "."]));
    let err = stderr(&out);
    assert!(
        stdout(&out).starts_with("ok: suite `c`: 1 tasks"),
        "{}",
        stdout(&out)
    );
    for want in [
        "warning[contamination]",
        "repos.toml:12:17",
        "first released on 2019-01-01",
        "5000 downloads a month",
        "is a fork",
    ] {
        assert!(err.contains(want), "missing {want:?} in:\n{err}");
    }
    // A malformed pin is an error at its position.
    std::fs::write(
        dir.path().join("repos.toml"),
        "[repos.x]\nlanguage = \"rust\"\nsource = \"crates:x\"\nlicense = \"MIT\"\nfork = false\n",
    )
    .unwrap();
    let out = run_code(verity(dir.path()).args(["validate", "."]), 2);
    assert!(stderr(&out).contains("repos.toml:3:10"), "{}", stderr(&out));
}

/// Facts of a small repository, built here (the extractor is another crate).
fn facts_json(name: &str) -> String {
    use verity_facts::{
        Call, Commit, Facts, FileFact, Import, Inheritance, InheritanceKind, Language, RepoInfo,
        Symbol, SymbolKind,
    };
    let file = |p: &str| FileFact {
        path: p.into(),
        language: Language::of_path(p),
        lines: 50,
        bytes: 500,
        hash: format!("h-{p}"),
        identifiers: vec![],
    };
    let sym = |n: &str, k: SymbolKind, f: &str, l: u32, c: Option<&str>| Symbol {
        name: n.into(),
        kind: k,
        file: f.into(),
        start_line: l,
        end_line: l + 3,
        container: c.map(Into::into),
        signature: None,
        return_type: (k == SymbolKind::Function).then(|| "int".to_string()),
        exported: true,
    };
    let mut f = Facts {
        repo: RepoInfo {
            name: name.into(),
            extractor: "test".into(),
            ..RepoInfo::default()
        },
        files: vec![file("pkg/core.py"), file("pkg/cli.py")],
        symbols: vec![
            sym("run", SymbolKind::Function, "pkg/core.py", 1, None),
            sym("main", SymbolKind::Function, "pkg/cli.py", 5, None),
            sym("helper", SymbolKind::Function, "pkg/core.py", 10, None),
            sym("Engine", SymbolKind::Class, "pkg/core.py", 20, None),
            sym(
                "start",
                SymbolKind::Method,
                "pkg/core.py",
                22,
                Some("Engine"),
            ),
        ],
        inherits: vec![Inheritance {
            child: "Engine".into(),
            parent: "Base".into(),
            kind: InheritanceKind::Extends,
            file: "pkg/core.py".into(),
            line: 20,
        }],
        imports: vec![Import {
            file: "pkg/cli.py".into(),
            module: "pkg.core".into(),
            resolved: Some("pkg/core.py".into()),
            symbols: vec!["run".into()],
            line: 1,
        }],
        calls: vec![Call {
            caller: "main".into(),
            callee: "run".into(),
            file: "pkg/cli.py".into(),
            line: 6,
        }],
        commits: vec![Commit {
            id: "abcdef0123456789abcdef0123456789abcdef01".into(),
            summary: "Start".into(),
            date: None,
            files: vec!["pkg/core.py".into()],
        }],
        ..Facts::default()
    };
    f.normalize();
    f.to_json()
}

#[test]
fn from_facts_writes_tasks_suite_and_coverage() {
    let dir = tempfile::tempdir().unwrap();
    for n in ["alpha", "beta"] {
        std::fs::write(dir.path().join(format!("{n}.json")), facts_json(n)).unwrap();
    }
    let out_dir = dir.path().join("suite");
    let cmd = |extra: &[&str]| {
        let mut c = verity(dir.path());
        c.args([
            "corpus",
            "from-facts",
            "alpha.json",
            "beta.json",
            "--out",
            "suite",
        ])
        .args(extra);
        c
    };
    let out = run_ok(&mut cmd(&["--no-scorers"]));
    let text = stdout(&out);
    assert!(text.contains("fact coverage"), "{text}");
    assert!(
        text.contains("repositories    2 (target >= 5) below target"),
        "{text}"
    );
    let alpha = std::fs::read_to_string(out_dir.join("tasks/alpha.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(alpha.lines().next().unwrap()).unwrap();
    assert_eq!(first["metadata"]["repo"], "alpha");
    assert!(first["expect"]["citations"]["relation"].is_string());
    let cov: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("coverage.json")).unwrap())
            .unwrap();
    assert_eq!(cov["metrics"]["repositories"], 2);
    assert_eq!(cov["met"]["repositories"], false);
    assert!(cov["metrics"]["fact_coverage"].as_f64().unwrap() > 0.8);
    // The suite written loads: its tasks and the local variant (no scorers asked for).
    let suite_toml = std::fs::read_to_string(out_dir.join("suite.toml")).unwrap();
    assert!(suite_toml.contains("provider = \"local\""));
    assert!(!suite_toml.contains("citations\""));
    let v = run_ok(verity(&out_dir).args(["validate", "."]));
    assert!(stdout(&v).contains("variants"), "{}", stdout(&v));

    // Existing task files are kept unless --force; the output is the same on a re-run.
    let out = run_code(&mut cmd(&[]), 2);
    assert!(stderr(&out).contains("--force"), "{}", stderr(&out));
    run_ok(&mut cmd(&["--force", "--no-scorers"]));
    assert_eq!(
        std::fs::read_to_string(out_dir.join("tasks/alpha.jsonl")).unwrap(),
        alpha
    );

    // With the scorers, suite.toml names both citation scorers.
    let fresh = dir.path().join("fresh");
    run_ok(verity(dir.path()).args(["corpus", "from-facts", "alpha.json", "--out", "fresh"]));
    let toml = std::fs::read_to_string(fresh.join("suite.toml")).unwrap();
    assert!(toml.contains("kind = \"citations\"") && toml.contains("facts = \"facts\""));
    assert!(
        toml.contains("kind = \"citation-consistency\"")
            && toml.contains("group_by = \"paraphrase_of\"")
    );

    // A facts file that is not one is a clear error.
    std::fs::write(dir.path().join("bad.json"), "{}").unwrap();
    let out = run_code(
        verity(dir.path()).args(["corpus", "from-facts", "bad.json", "--out", "x"]),
        2,
    );
    assert!(stderr(&out).contains("bad.json"), "{}", stderr(&out));
}

#[test]
fn fetch_checks_out_a_git_pin_at_its_commit() {
    let dir = tempfile::tempdir().unwrap();
    let origin = dir.path().join("origin");
    std::fs::create_dir_all(&origin).unwrap();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@e",
                "-c",
                "init.defaultBranch=main",
            ])
            .args(args)
            .current_dir(&origin)
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    git(&["init", "--quiet"]);
    std::fs::write(origin.join("a.rs"), "fn one() {}\n").unwrap();
    git(&["add", "."]);
    git(&["commit", "--quiet", "-m", "one"]);
    let first = git(&["rev-parse", "HEAD"]);
    std::fs::write(origin.join("a.rs"), "fn two() {}\n").unwrap();
    git(&["commit", "--quiet", "-am", "two"]);

    let (suite, cache) = (dir.path().join("suite"), dir.path().join("cache"));
    std::fs::create_dir_all(&suite).unwrap();
    std::fs::write(
        suite.join("repos.toml"),
        format!(
            "[contamination]\nmodel_cutoff = \"2024-06-30\"\n\n[repos.g]\nlanguage = \"rust\"\nsource = \"git:file://{}#{first}\"\nlicense = \"MIT\"\nfork = false\nfirst_release = \"2025-01-01\"\n",
            origin.display()
        ),
    )
    .unwrap();
    let out = run_ok(&mut fetch(&suite, &cache));
    assert!(stdout(&out).contains("checked out"), "{}", stdout(&out));
    assert_eq!(
        std::fs::read_to_string(suite.join("repos/g/a.rs")).unwrap(),
        "fn one() {}\n"
    );
    // The history comes along (the facts' commits are read from it).
    assert!(suite.join("repos/g/.git").exists());
    let out = run_ok(&mut fetch(&suite, &cache));
    assert!(stdout(&out).contains("up to date"), "{}", stdout(&out));
    // Offline, from the cached clone.
    std::fs::remove_dir_all(suite.join("repos")).unwrap();
    std::fs::remove_dir_all(&origin).unwrap();
    run_ok(fetch(&suite, &cache).arg("--offline"));
    assert!(suite.join("repos/g/a.rs").is_file());
}
