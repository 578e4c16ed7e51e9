//! The Swift oracles through the CLI, including the real-toolchain path: Debian trixie's
//! swift-frontend 6.0.3 (fetched by scripts/fetch-swift-toolchain.sh into the user cache,
//! or named by $VERITY_SWIFT_FRONTEND) must agree with the tree-sitter parse check.

use serde_json::Value;

use crate::support::*;

fn swift_frontend() -> std::path::PathBuf {
    if let Some(p) = std::env::var_os("VERITY_SWIFT_FRONTEND").filter(|p| !p.is_empty()) {
        return p.into();
    }
    let script = repo_root().join("scripts/fetch-swift-toolchain.sh");
    let out = std::process::Command::new("bash")
        .arg(&script)
        .output()
        .expect("run the toolchain script");
    assert!(
        out.status.success(),
        "scripts/fetch-swift-toolchain.sh failed (it needs apt-get and Debian's registry):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .lines()
        .last()
        .unwrap()
        .into()
}

fn check(file: &std::path::Path, toolchain: &str) -> Value {
    let out = verity(&repo_root())
        .args(["check", "swift"])
        .arg(file)
        .args(["--toolchain", toolchain])
        .output()
        .unwrap();
    serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim())
        .unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)))
}

#[test]
fn real_swift_parser_agrees_with_tree_sitter_on_the_corpus() {
    let fe = swift_frontend();
    let corpus = repo_root().join("crates/verity-swift/tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "swift"))
        .collect();
    files.sort();
    let (mut agree, mut syntax_errors) = (0, 0);
    for f in &files {
        let ts = check(f, "tree-sitter");
        let real = check(f, &fe.display().to_string());
        assert!(
            real["parser"].as_str().unwrap().contains("swift-frontend"),
            "{real}"
        );
        if !real["parse"].as_bool().unwrap() {
            syntax_errors += 1;
            // The compiler's diagnostics are kept verbatim, with their positions. (For a brace
            // missing at the end of a file swift-frontend 6.0.3 prints only a `note:`.)
            let ev = &real["criteria"]["parse"]["evidence"];
            assert!(
                ev.as_array()
                    .is_some_and(|e| !e.is_empty() && e.iter().all(|d| d["line"].is_u64())),
                "{ev}"
            );
        }
        if ts["parse"] == real["parse"] {
            agree += 1;
        } else {
            eprintln!(
                "disagreement on {}: tree-sitter {} vs swift-frontend {}",
                f.display(),
                ts["parse"],
                real["parse"]
            );
        }
    }
    eprintln!(
        "tree-sitter and swift-frontend agree on {agree} of {} files ({syntax_errors} with syntax errors)",
        files.len()
    );
    assert!(files.len() >= 60 && syntax_errors >= 5);
    assert!(
        agree * 100 >= files.len() * 95,
        "agreement {agree}/{}",
        files.len()
    );
}

#[test]
fn check_swift_and_symbols_commands() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[
            (
                "good.swift",
                "import SwiftUI\nstruct V: View {\n    var body: some View { Text(\"hi\").padding() }\n}\n",
            ),
            (
                "bad.swift",
                "import Foundation\nlet c = NSURLConnection(request: URLRequest(url: URL(string: \"x\")!), delegate: nil)\nlet d = URLSession.shared.fancyFetch()\n",
            ),
        ],
    );
    let out = verity(dir.path())
        .args([
            "check",
            "swift",
            "good.swift",
            "bad.swift",
            "--platform",
            "ios17.0",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "a failing file gates: {}",
        stderr(&out)
    );
    let reports: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(reports[0]["outcome"], true);
    assert_eq!(
        (
            reports[1]["symbols_exist"].as_bool(),
            reports[1]["no_deprecated"].as_bool()
        ),
        (Some(false), Some(false))
    );
    assert!(
        reports[1]["criteria"]["symbols_exist"]["evidence"]
            .to_string()
            .contains("fancyFetch")
    );
    let out = run_ok(verity(dir.path()).args([
        "symbols",
        "lookup",
        "View.navigationDestination(for:destination:)",
    ]));
    assert!(stdout(&out).contains("iOS 16.0+"), "{}", stdout(&out));
    let out = verity(dir.path())
        .args(["symbols", "lookup", "URLSession.fancyFetch"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    // Build an index from real symbol graphs (one module, to keep it quick) and look up in it.
    let graphs = repo_root().join("../shared/data/apple-sdk-symbols/ios17.4");
    if graphs.is_dir() {
        let g = dir.path().join("graphs");
        std::fs::create_dir_all(&g).unwrap();
        std::fs::copy(
            graphs.join("WidgetKit.symbols.json"),
            g.join("WidgetKit.symbols.json"),
        )
        .unwrap();
        let out =
            run_ok(verity(dir.path()).args(["symbols", "build", "graphs", "--out", "w.vidx"]));
        assert!(
            stdout(&out).contains("symbols from 1 modules"),
            "{}",
            stdout(&out)
        );
        let out = run_ok(verity(dir.path()).args([
            "symbols",
            "lookup",
            "TimelineProvider",
            "--index",
            "w.vidx",
        ]));
        assert!(stdout(&out).contains("WidgetKit"), "{}", stdout(&out));
    }
}

/// `verity symbols build --sdk` on a tiny SDK-shaped directory: a fake framework with an
/// interface written here, alone and merged with a graph of the same module.
#[test]
fn symbols_build_from_an_sdk_directory() {
    let dir = tempfile::tempdir().unwrap();
    let interface = "// swift-interface-format-version: 1.0\nimport Swift\n@available(iOS 16.0, *)\npublic struct Gadget : Swift.Sendable {\n  public var name: Swift.String { get }\n  public init?(name: Swift.String, count: Swift.Int = 1)\n  public func spin(times: Swift.Int) async throws -> [Swift.Double]\n}\n";
    let module = "sdk/System/Library/Frameworks/Gadgets.framework/Modules/Gadgets.swiftmodule";
    write_tree(
        dir.path(),
        &[(
            &format!("{module}/arm64-apple-ios.swiftinterface"),
            interface,
        )],
    );
    let out =
        run_ok(verity(dir.path()).args(["symbols", "build", "--sdk", "sdk", "--out", "g.vidx"]));
    assert!(stdout(&out).contains("typed"), "{}", stdout(&out));
    let out = run_ok(verity(dir.path()).args([
        "symbols",
        "lookup",
        "Gadget.spin(times:)",
        "--index",
        "g.vidx",
    ]));
    let line = stdout(&out);
    assert!(line.contains("iOS 16.0+"), "{line}");
    assert!(
        line.contains("(times: Int) async throws -> [Double]"),
        "{line}"
    );
    let out = run_ok(verity(dir.path()).args([
        "symbols",
        "lookup",
        "Gadget.init(name:count:)",
        "--index",
        "g.vidx",
    ]));
    assert!(
        stdout(&out).contains("(name: String, count: Int = default) -> Self?"),
        "{}",
        stdout(&out)
    );
    // graphs + SDK: the graph's facts, the SDK's types, the merge counts on stderr
    let graph = r#"{"metadata":{"formatVersion":{"major":0,"minor":6,"patch":0},"generator":"test"},"module":{"name":"Gadgets","platform":{"operatingSystem":{"name":"ios","minimumVersion":{"major":17,"minor":4,"patch":0}}}},"symbols":[{"kind":{"identifier":"swift.struct"},"identifier":{"precise":"g:Gadget"},"pathComponents":["Gadget"],"names":{"title":"Gadget"},"accessLevel":"public"},{"kind":{"identifier":"swift.property"},"identifier":{"precise":"g:Gadget.name"},"pathComponents":["Gadget","name"],"names":{"title":"name"},"accessLevel":"public"}],"relationships":[]}"#;
    write_tree(dir.path(), &[("graphs/Gadgets.symbols.json", graph)]);
    let out = run_ok(verity(dir.path()).args([
        "symbols", "build", "graphs", "--sdk", "sdk", "--out", "m.vidx",
    ]));
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(err.contains("Gadgets"), "{err}");
    let out =
        run_ok(verity(dir.path()).args(["symbols", "lookup", "Gadget.name", "--index", "m.vidx"]));
    assert!(stdout(&out).contains("-> String"), "{}", stdout(&out));
    // only what the graphs declare: the SDK's other members are counted, not added
    run_code(
        verity(dir.path()).args([
            "symbols",
            "lookup",
            "Gadget.spin(times:)",
            "--index",
            "m.vidx",
        ]),
        1,
    );
    // a directory with no interfaces is a clear error
    std::fs::create_dir_all(dir.path().join("empty")).unwrap();
    let out = run_code(
        verity(dir.path()).args(["symbols", "build", "--sdk", "empty", "--out", "e.vidx"]),
        2,
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no `.swiftinterface` file"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// APIs deprecated "in a future release" (`NavigationView`, `foregroundColor(_:)`) fail
/// `no_deprecated` by default; `--future-deprecations warn` lets them pass with a warning.
#[test]
fn future_deprecations_fail_by_default_and_warn_on_request() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[(
            "nav.swift",
            "import SwiftUI\nstruct V: View {\n    var body: some View {\n        NavigationView { Text(\"hi\").foregroundColor(.red) }\n    }\n}\n",
        )],
    );
    let run = |extra: &[&str]| {
        let out = verity(dir.path())
            .args(["check", "swift", "nav.swift", "--toolchain", "tree-sitter"])
            .args(extra)
            .output()
            .unwrap();
        let v: Value = serde_json::from_str(stdout(&out).trim())
            .unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)));
        (out.status.code(), v)
    };
    let (code, v) = run(&[]);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(v["no_deprecated"], false);
    let ev = v["criteria"]["no_deprecated"]["evidence"].to_string();
    assert!(ev.contains("future deprecation: `NavigationView`"), "{ev}");
    assert_eq!(run(&["--future-deprecations", "fail"]).1, v);
    let (code, v) = run(&["--future-deprecations", "warn"]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["no_deprecated"], true);
    assert_eq!(v["criteria"]["no_deprecated"]["metrics"]["future"], 2.0);
    let ev = v["criteria"]["no_deprecated"]["evidence"].to_string();
    assert!(ev.contains("warning: `NavigationView`"), "{ev}");
    let out = verity(dir.path())
        .args([
            "check",
            "swift",
            "nav.swift",
            "--future-deprecations",
            "maybe",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn symbols_lookup_into_a_closed_pipe_exits_quietly() {
    // `verity symbols lookup X | head`: the reader is gone before the first line is written.
    let dir = tempfile::tempdir().unwrap();
    let mut child = verity(dir.path())
        .args([
            "symbols",
            "lookup",
            "View.navigationDestination(for:destination:)",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}
