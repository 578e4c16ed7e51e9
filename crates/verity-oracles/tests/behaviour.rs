//! V3 behaviour checks against a real small Python package and JavaScript modules written into
//! a temporary directory, run in the sandbox with each backend this machine has.

#![cfg(target_os = "linux")]

use std::path::Path;

use serde_json::json;
use verity_oracles::behaviour::{
    BehaviourClaim, BehaviourEnv, BehaviourStatus, BehaviourVerdict, Language, check,
};
use verity_process::{BackendChoice, Contained, Sandbox};

fn backends() -> Vec<BackendChoice> {
    [BackendChoice::Bubblewrap, BackendChoice::Unshare]
        .into_iter()
        .filter(|c| {
            let ok = Sandbox::new("/").backend(*c).resolve_backend().is_ok();
            if !ok {
                assert!(
                    std::env::var_os("VERITY_SANDBOX_REQUIRED").is_none()
                        || *c == BackendChoice::Unshare,
                    "{c:?} is unavailable"
                );
            }
            ok
        })
        .collect()
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A repository readable by anyone (the sandbox may run as an unprivileged id).
fn repo() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

fn python_repo() -> tempfile::TempDir {
    let dir = repo();
    let root = dir.path();
    write(root, "tinyq/__init__.py", "");
    write(
        root,
        "tinyq/core.py",
        r#"
class QueueEmpty(LookupError):
    pass

def add(a, b):
    return a + b

def pair(a, b):
    return (a, b)

def describe(name, tags):
    return {"name": name, "tags": sorted(tags), "count": len(tags)}

def pop(items):
    if not items:
        raise QueueEmpty("empty queue")
    return items[0]

class Queue:
    @staticmethod
    def half(x):
        return x / 2
"#,
    );
    write(
        root,
        "tests/test_core.py",
        r#"
from tinyq.core import add

def test_add():
    assert add(2, 3) == 5

def test_add_wrong():
    assert add(2, 2) == 5
"#,
    );
    dir
}

fn status(v: &BehaviourVerdict, want: BehaviourStatus, what: &str) {
    assert_eq!(v.status, want, "{what}: {} {:?}", v.message, v.evidence);
}

fn returns(function: &str, args: serde_json::Value, value: serde_json::Value) -> BehaviourClaim {
    BehaviourClaim::FunctionReturns {
        function: function.into(),
        args: args.as_array().unwrap().clone(),
        value,
    }
}

fn throws(code: &str, error: &str) -> BehaviourClaim {
    BehaviourClaim::Throws {
        code: code.into(),
        error: error.into(),
    }
}

#[test]
fn python_function_returns() {
    let dir = python_repo();
    for backend in backends() {
        let env = BehaviourEnv {
            backend,
            ..BehaviourEnv::new(dir.path(), Language::Python)
        };
        let v = check(&returns("tinyq.core.add", json!([2, 3]), json!(5)), &env);
        status(&v, BehaviourStatus::Pass, "add");
        assert!(v.evidence.backend.is_some());
        // Tuples compare as lists; 1.5 is 1.5; a static method through its class.
        let v = check(
            &returns("tinyq.core.pair", json!([1, "a"]), json!([1, "a"])),
            &env,
        );
        status(&v, BehaviourStatus::Pass, "pair");
        let v = check(
            &returns("tinyq.core:Queue.half", json!([3]), json!(1.5)),
            &env,
        );
        status(&v, BehaviourStatus::Pass, "half");
        // Arguments that would break a spliced string stay data.
        let v = check(
            &returns(
                "tinyq.core.describe",
                json!(["x\"); import os; (\"", ["b", "a"]]),
                json!({"name": "x\"); import os; (\"", "tags": ["a", "b"], "count": 2}),
            ),
            &env,
        );
        status(&v, BehaviourStatus::Pass, "describe");

        let wrong = check(&returns("tinyq.core.add", json!([2, 3]), json!(6)), &env);
        status(&wrong, BehaviourStatus::Fail, "wrong value");
        assert_eq!(wrong.message, "expected 6, got 5");
        assert_eq!(wrong.evidence.expected, Some(json!(6)));
        assert_eq!(wrong.evidence.actual, Some(json!(5)));

        let missing = check(
            &returns("tinyq.core.subtract", json!([2, 3]), json!(-1)),
            &env,
        );
        status(&missing, BehaviourStatus::Fail, "missing function");
        assert!(
            missing.message.starts_with("wrong_structure:"),
            "{}",
            missing.message
        );
        assert!(missing.message.contains("subtract"), "{}", missing.message);
        let no_module = check(&returns("tinyq.nothere.f", json!([]), json!(1)), &env);
        status(&no_module, BehaviourStatus::Fail, "missing module");
        assert!(
            no_module.message.starts_with("wrong_structure:"),
            "{}",
            no_module.message
        );

        let raised = check(&returns("tinyq.core.pop", json!([[]]), json!(null)), &env);
        status(&raised, BehaviourStatus::Fail, "raised instead");
        assert!(raised.message.contains("QueueEmpty"), "{}", raised.message);
    }
}

#[test]
fn python_throws() {
    let dir = python_repo();
    for backend in backends() {
        let env = BehaviourEnv {
            backend,
            ..BehaviourEnv::new(dir.path(), Language::Python)
        };
        let v = check(&throws("tinyq.core.pop([])", "QueueEmpty"), &env);
        status(&v, BehaviourStatus::Pass, "exact class");
        // A base class by the MRO, bare or qualified.
        let v = check(&throws("tinyq.core.pop([])", "LookupError"), &env);
        status(&v, BehaviourStatus::Pass, "base class");
        let v = check(&throws("tinyq.core.pop([])", "tinyq.core.QueueEmpty"), &env);
        status(&v, BehaviourStatus::Pass, "qualified");
        let wrong = check(&throws("tinyq.core.pop([])", "TypeError"), &env);
        status(&wrong, BehaviourStatus::Fail, "wrong class");
        assert!(
            wrong
                .message
                .contains("expected TypeError, but it raised QueueEmpty"),
            "{}",
            wrong.message
        );
        let none = check(&throws("tinyq.core.pop([1])", "QueueEmpty"), &env);
        status(&none, BehaviourStatus::Fail, "no exception");
        assert!(none.message.contains("nothing was raised"));
        let typed = check(&throws("tinyq.core.add(1, None)", "TypeError"), &env);
        status(&typed, BehaviourStatus::Pass, "TypeError");
    }
}

#[test]
fn python_test_command() {
    let dir = python_repo();
    let has_pytest = std::process::Command::new("python3")
        .args(["-c", "import pytest"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    // pytest when installed; the standard library's unittest-free runner otherwise.
    let command: Vec<&str> = if has_pytest {
        vec![
            "python3",
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "{test}",
        ]
    } else {
        vec![
            "python3",
            "-c",
            "import sys, importlib; m, f = sys.argv[1].split('::'); getattr(importlib.import_module(m.replace('/', '.').removesuffix('.py')), f)()",
            "{test}",
        ]
    };
    for backend in backends() {
        let env = BehaviourEnv {
            backend,
            ..BehaviourEnv::new(dir.path(), Language::Python).test_command(command.clone())
        };
        let pass = check(
            &BehaviourClaim::TestPasses {
                test: "tests/test_core.py::test_add".into(),
            },
            &env,
        );
        status(&pass, BehaviourStatus::Pass, "passing test");
        let fail = check(
            &BehaviourClaim::TestPasses {
                test: "tests/test_core.py::test_add_wrong".into(),
            },
            &env,
        );
        status(&fail, BehaviourStatus::Fail, "failing test");
        assert!(fail.message.contains("failed"), "{}", fail.message);
    }
    let undeclared = check(
        &BehaviourClaim::TestPasses { test: "t".into() },
        &BehaviourEnv::new(dir.path(), Language::Python),
    );
    status(&undeclared, BehaviourStatus::Error, "no test command");
    assert!(undeclared.config_error);
}

#[test]
fn hostile_code_is_contained() {
    let dir = python_repo();
    let marker = dir.path().join("pwned");
    for backend in backends() {
        let env = BehaviourEnv {
            backend,
            ..BehaviourEnv::new(dir.path(), Language::Python)
        };
        // A shell command that writes into the repository and calls out.
        let code = format!(
            "__import__('os').system('echo pwned > {} ; curl -s http://1.1.1.1/ || wget -q -O- http://1.1.1.1/')",
            marker.display()
        );
        let v = check(&throws(&code, "RuntimeError"), &env);
        status(&v, BehaviourStatus::Fail, "os.system raises nothing");
        assert!(!marker.exists(), "the repository was written to");
        // A direct connection fails: there is no network.
        let net = check(
            &throws(
                "__import__('socket').create_connection(('1.1.1.1', 80), timeout=3)",
                "TimeoutError",
            ),
            &env,
        );
        status(&net, BehaviourStatus::Fail, "network");
        assert!(
            net.message.contains("Network is unreachable"),
            "{}",
            net.message
        );
        // An endless loop is stopped at a limit, and the verdict says which.
        let looped = check(
            &throws("while True:\n    pass", "Exception"),
            &BehaviourEnv {
                limits: verity_oracles::behaviour::BehaviourLimits {
                    cpu_seconds: 1,
                    ..Default::default()
                },
                ..env.clone()
            },
        );
        status(&looped, BehaviourStatus::Error, "endless loop");
        assert_eq!(
            looped.evidence.contained,
            Some(Contained::CpuLimit),
            "{}",
            looped.message
        );
        assert!(
            looped.message.contains("CPU-time limit"),
            "{}",
            looped.message
        );
    }
}

fn js_repo() -> tempfile::TempDir {
    let dir = repo();
    let root = dir.path();
    write(
        root,
        "lib/math.js",
        "class RangeFault extends RangeError {}\nfunction add(a, b) { return a + b; }\nfunction check(n) { if (n < 0) throw new RangeFault('negative'); return n; }\nmodule.exports = { add, check, RangeFault, obj: { twice: (x) => [x, x] } };\n",
    );
    write(
        root,
        "src/text.mjs",
        "export function shout(s) { return s.toUpperCase() + '!'; }\nexport async function later(x) { return { x }; }\nexport default function plain() { return 1; }\n",
    );
    dir
}

#[test]
fn javascript_commonjs_and_esm() {
    if std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("no node: skipped");
        return;
    }
    let dir = js_repo();
    for backend in backends() {
        let env = BehaviourEnv {
            backend,
            ..BehaviourEnv::new(dir.path(), Language::JavaScript)
        };
        let v = check(&returns("lib/math.js:add", json!([2, 3]), json!(5)), &env);
        status(&v, BehaviourStatus::Pass, "cjs add");
        let v = check(
            &returns("lib/math:obj.twice", json!([7]), json!([7, 7])),
            &env,
        );
        status(&v, BehaviourStatus::Pass, "cjs nested");
        let v = check(
            &returns("src/text.mjs:shout", json!(["hi"]), json!("HI!")),
            &env,
        );
        status(&v, BehaviourStatus::Pass, "esm");
        let v = check(
            &returns("src.text.later", json!([2]), json!({"x": 2})),
            &env,
        );
        status(&v, BehaviourStatus::Pass, "esm async, dotted");
        let wrong = check(
            &returns("src/text.mjs:shout", json!(["hi"]), json!("hi")),
            &env,
        );
        status(&wrong, BehaviourStatus::Fail, "wrong");
        assert_eq!(wrong.message, "expected \"hi\", got \"HI!\"");
        let missing = check(&returns("src/text.mjs:whisper", json!([]), json!(1)), &env);
        status(&missing, BehaviourStatus::Fail, "missing");
        assert!(
            missing.message.starts_with("wrong_structure:"),
            "{}",
            missing.message
        );

        let t = check(
            &throws("require('./lib/math.js').check(-1)", "RangeError"),
            &env,
        );
        status(&t, BehaviourStatus::Pass, "throws base class");
        let t = check(
            &throws("require('./lib/math.js').check(-1)", "TypeError"),
            &env,
        );
        status(&t, BehaviourStatus::Fail, "throws wrong class");
        let t = check(
            &throws(
                "(await importModule('src/text.mjs')).shout(null)",
                "TypeError",
            ),
            &env,
        );
        status(&t, BehaviourStatus::Pass, "esm throws");
    }
}

#[test]
fn typescript_needs_a_node_that_strips_types() {
    if std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_err()
    {
        return;
    }
    let dir = repo();
    write(
        dir.path(),
        "src/a.ts",
        "export function one(): number { return 1; }\n",
    );
    let v = check(
        &returns("src/a.ts:one", json!([]), json!(1)),
        &BehaviourEnv::new(dir.path(), Language::TypeScript),
    );
    // Either node runs it (22.6+) or the verdict says a build step is needed.
    if v.status == BehaviourStatus::Error {
        assert!(
            v.message.contains("TypeScript needs a build step"),
            "{}",
            v.message
        );
        assert!(v.config_error);
    } else {
        status(&v, BehaviourStatus::Pass, "typescript");
    }
}
