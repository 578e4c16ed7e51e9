//! Whatever is on disk, `load` returns: Ok or Err, never a panic.

use std::path::Path;

use verity_suite::load;

use crate::{copy_dir, example_dir, write_files};

/// xorshift64*: deterministic, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// Bytes that TOML, JSON and templates care about, to make mutations bite.
const INTERESTING: &[u8] = b"[]{}\"'=,:.\n\\#%-0129 \xff\xc3";

fn mutate(rng: &mut Rng, original: &[u8]) -> Vec<u8> {
    let mut v = original.to_vec();
    for _ in 0..1 + rng.below(3) {
        let len = v.len();
        let at = rng.below(len + 1);
        match rng.below(6) {
            0 => v.truncate(at),
            1 if at < len => v[at] = rng.next() as u8,
            2 => v.insert(at, INTERESTING[rng.below(INTERESTING.len())]),
            3 => {
                let end = (at + rng.below(16)).min(len);
                v.drain(at..end);
            }
            4 => {
                let end = (at + rng.below(32)).min(len);
                let copy = v[at..end].to_vec();
                let to = rng.below(v.len() + 1);
                v.splice(to..to, copy);
            }
            _ => {
                let n = 1 + rng.below(8);
                let junk = rng.bytes(n);
                v.splice(at..at, junk);
            }
        }
    }
    v
}

/// Loads, and renders every diagnostic (rendering walks the spans too).
fn survive(path: &Path) {
    match load(path) {
        Ok(l) => {
            for w in &l.warnings {
                let _ = w.render(false);
            }
        }
        Err(e) => {
            assert!(!e.0.is_empty());
            let _ = e.render(true);
        }
    }
}

#[test]
fn mutated_copies_of_the_example_never_panic() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_dir(), dir.path());
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    for file in [
        "suite.toml",
        "tasks/arithmetic.toml",
        "tasks.jsonl",
        "prompts/verbose.j2",
    ] {
        let path = dir.path().join(file);
        let original = std::fs::read(&path).unwrap();
        for _ in 0..700 {
            std::fs::write(&path, mutate(&mut rng, &original)).unwrap();
            survive(dir.path());
        }
        std::fs::write(&path, &original).unwrap();
    }
    // Untouched again, the copy loads.
    assert!(load(dir.path()).is_ok());
}

#[test]
fn random_bytes_never_panic() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_dir(), dir.path());
    let mut rng = Rng(42);
    for round in 0..200 {
        let file = [
            "suite.toml",
            "tasks/arithmetic.toml",
            "tasks.jsonl",
            "prompts/terse.j2",
        ][round % 4];
        let len = rng.below(400);
        std::fs::write(dir.path().join(file), rng.bytes(len)).unwrap();
        survive(dir.path());
        survive(&dir.path().join(file));
    }
}

#[test]
fn pathological_inputs_never_panic() {
    let deep_toml = format!(
        "name = \"x\"\ndeep = {}1{}\n",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    let deep_table = format!(
        "id = \"t\"\nprompt = \"p\"\nmetadata = {}{}\n",
        "{ a = ".repeat(3000),
        "}".repeat(3000)
    );
    let deep_json = format!(
        "{{\"input\": {}1{}}}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let huge_line = format!(
        "{{\"id\": \"big\", \"input\": \"{}\"}}\n",
        "a".repeat(1 << 20)
    );
    let huge_garbage = "{".to_owned() + &"x".repeat(1 << 20) + "\n";
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("suite.toml", deep_toml.into_bytes()),
        ("tasks/deep.toml", deep_table.into_bytes()),
        ("tasks.jsonl", deep_json.into_bytes()),
        ("tasks.jsonl", huge_line.into_bytes()),
        ("tasks.jsonl", huge_garbage.into_bytes()),
        (
            "tasks.jsonl",
            b"{\"id\": \"a\xff\", \"input\": \"x\"}\n{\"id\": \"b\", \"input\": \"y\"}\n".to_vec(),
        ),
        ("suite.toml", b"name = \"\xc3\x28\"\n".to_vec()),
        ("prompts/terse.j2", b"{{ prompt \xff }}".to_vec()),
        (
            "tasks/arithmetic.toml",
            b"\xef\xbb\xbfid = \"bom\"\nprompt = \"x\"\r\n".to_vec(),
        ),
        (
            "tasks/arithmetic.toml",
            b"[[tasks]]\n[[tasks]]\nid = 1\nmessages = [{ role = \"robot\" }]\n".to_vec(),
        ),
    ];
    for (file, bytes) in cases {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&example_dir(), dir.path());
        std::fs::write(dir.path().join(file), &bytes).unwrap();
        survive(dir.path());
        survive(&dir.path().join(file));
    }
}

#[test]
fn directories_where_files_are_expected() {
    for file in ["suite.toml", "tasks.jsonl", "prompts/terse.j2"] {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&example_dir(), dir.path());
        let p = dir.path().join(file);
        let _ = std::fs::remove_file(&p);
        std::fs::create_dir_all(&p).unwrap();
        let err = load(dir.path()).expect_err(file);
        assert!(
            err.0.iter().any(|d| d.code == "missing-file"),
            "{file}: {err}"
        );
    }
    // A directory that merely looks like a task file is not one: globs match files only.
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_dir(), dir.path());
    std::fs::create_dir_all(dir.path().join("tasks/zzz.toml")).unwrap();
    assert_eq!(load(dir.path()).unwrap().suite.tasks.len(), 10);
    // Named explicitly, it is a missing file.
    let err = load(&dir.path().join("tasks/zzz.toml")).unwrap_err();
    assert_eq!(err.0[0].code, "missing-file", "{err}");
    // Paths that are nothing loadable.
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("notes.txt", "hello")]);
    assert_eq!(
        load(&dir.path().join("notes.txt")).unwrap_err().0[0].code,
        "bad-value"
    );
    assert_eq!(
        load(&dir.path().join("absent")).unwrap_err().0[0].code,
        "missing-file"
    );
    assert_eq!(load(dir.path()).unwrap_err().0[0].code, "missing-file");
}
