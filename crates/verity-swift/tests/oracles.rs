//! Index round trip, lookups, guards, deprecations, the toolchain runner, the scorer, and
//! garbage that must never panic.

use std::path::Path;
use std::sync::Arc;

use serde_json::{Map, Value, json};
use verity_model::{Response, ScoreStatus, Scorer, Task};
use verity_swift::{
    CheckOptions, DeprecationMap, Domain, FutureMode, Index, SwiftScorer, Target, ToolchainChoice,
    Version, build_index, check_answer, check_options, check_source,
};

fn t(s: &str) -> Target {
    Target::parse(s).expect("target")
}

fn opts(target: &str) -> CheckOptions {
    CheckOptions::new(t(target)).expect("default index")
}

/// A tiny symbol-graph directory: a facts-only graph plus a `symbolgraph-extract`-style
/// extension file (`Kit@Swift.symbols.json`) with an extension block.
fn tiny_graphs(dir: &Path) {
    let kit = json!({
        "metadata": {"formatVersion": {"major": 0, "minor": 6, "patch": 0}, "generator": "test"},
        "module": {"name": "Kit", "platform": {"operatingSystem": {"name": "ios", "minimumVersion": {"major": 17, "minor": 4}}}},
        "symbols": [
            {"kind": {"identifier": "swift.class"}, "identifier": {"precise": "s:3Kit4BaseC"}, "pathComponents": ["Base"], "names": {"title": "Base"}, "accessLevel": "open",
             "availability": [{"domain": "iOS", "introduced": {"major": 13}}]},
            {"kind": {"identifier": "swift.method"}, "identifier": {"precise": "s:3Kit4BaseC5hello"}, "pathComponents": ["Base", "hello(to:)"], "names": {"title": "hello(to:)"}, "accessLevel": "public"},
            {"kind": {"identifier": "swift.property"}, "identifier": {"precise": "c:objc(cs)Base(py)HTTPBody"}, "pathComponents": ["Base", "HTTPBody"], "names": {"title": "HTTPBody"}, "accessLevel": "public"},
            {"kind": {"identifier": "swift.class"}, "identifier": {"precise": "s:3Kit5ChildC"}, "pathComponents": ["Child"], "names": {"title": "Child"}, "accessLevel": "public",
             "availability": [{"domain": "iOS", "introduced": {"major": 16, "minor": 0}}, {"domain": "macOS", "introduced": {"major": 13}}]},
            {"kind": {"identifier": "swift.method"}, "identifier": {"precise": "s:3Kit5ChildC3new"}, "pathComponents": ["Child", "shiny()"], "names": {"title": "shiny()"}, "accessLevel": "public",
             "availability": [{"domain": "iOS", "introduced": {"major": 17, "minor": 0}}]},
            {"kind": {"identifier": "swift.method"}, "identifier": {"precise": "s:3Kit5ChildC3old"}, "pathComponents": ["Child", "rusty()"], "names": {"title": "rusty()"}, "accessLevel": "public",
             "availability": [{"domain": "iOS", "introduced": {"major": 13}, "deprecated": {"major": 15}, "renamed": "shiny()"}]},
            {"kind": {"identifier": "swift.method"}, "identifier": {"precise": "s:3Kit5ChildC4soon"}, "pathComponents": ["Child", "dusty()"], "names": {"title": "dusty()"}, "accessLevel": "public",
             "availability": [{"domain": "iOS", "introduced": {"major": 13}, "deprecated": {"major": 100000}, "willEventuallyBeDeprecated": true}]},
            {"kind": {"identifier": "swift.protocol"}, "identifier": {"precise": "s:3Kit5GreetP"}, "pathComponents": ["Greeter"], "names": {"title": "Greeter"}, "accessLevel": "public"},
            {"kind": {"identifier": "swift.method"}, "identifier": {"precise": "s:3Kit5GreetP4wave"}, "pathComponents": ["Greeter", "wave()"], "names": {"title": "wave()"}, "accessLevel": "public"},
            {"kind": {"identifier": "swift.method"}, "identifier": {"precise": "s:3Kit5GreetP4priv"}, "pathComponents": ["Greeter", "secret()"], "names": {"title": "secret()"}, "accessLevel": "internal"}
        ],
        "relationships": [
            {"kind": "inheritsFrom", "source": "s:3Kit5ChildC", "target": "s:3Kit4BaseC"},
            {"kind": "conformsTo", "source": "s:3Kit4BaseC", "target": "s:3Kit5GreetP"},
            {"kind": "memberOf", "source": "s:3Kit4BaseC5hello", "target": "s:3Kit4BaseC"}
        ]
    });
    let ext = json!({
        "metadata": {"formatVersion": {"major": 0, "minor": 6, "patch": 0}, "generator": "swift symbolgraph-extract"},
        "module": {"name": "Kit"},
        "symbols": [
            {"kind": {"identifier": "swift.extension"}, "identifier": {"precise": "s:e:s:SS3KitE"}, "pathComponents": ["String"], "names": {"title": "String"}, "accessLevel": "public"},
            {"kind": {"identifier": "swift.property"}, "identifier": {"precise": "s:SS3KitE5shout"}, "pathComponents": ["String", "shouted"], "names": {"title": "shouted"}, "accessLevel": "public"}
        ],
        "relationships": [
            {"kind": "extensionTo", "source": "s:e:s:SS3KitE", "target": "s:SS", "targetFallback": "Swift.String"},
            {"kind": "memberOf", "source": "s:SS3KitE5shout", "target": "s:e:s:SS3KitE"},
            {"kind": "conformsTo", "source": "s:e:s:SS3KitE", "target": "s:3Kit5GreetP"}
        ]
    });
    std::fs::write(dir.join("Kit.symbols.json"), kit.to_string()).expect("write");
    std::fs::write(dir.join("Kit@Swift.symbols.json"), ext.to_string()).expect("write");
}

#[test]
fn index_round_trip_and_inherited_members() {
    let dir = tempfile::tempdir().expect("tempdir");
    tiny_graphs(dir.path());
    let ix = build_index(&[dir.path()]).expect("build");
    assert_eq!(ix.meta().platform, Some(t("ios17.4")));
    // internal symbols are left out
    assert!(ix.lookup("Greeter.secret()").is_empty());
    // save / load equality
    let file = dir.path().join("kit.vidx");
    ix.save(&file).expect("save");
    let back = Index::load(&file).expect("load");
    assert_eq!(back, ix);
    // inherited members: Child → Base → Greeter
    let members: Vec<String> = back
        .members("Child")
        .iter()
        .map(|m| m.dotted_path())
        .collect();
    for want in ["Child.shiny()", "Base.hello(to:)", "Greeter.wave()"] {
        assert!(members.contains(&want.to_owned()), "{want} in {members:?}");
    }
    assert_eq!(
        back.supertypes("Child"),
        vec!["Base".to_owned(), "Greeter".to_owned()]
    );
    assert_eq!(
        back.lookup("Child.hello(to:)").len(),
        1,
        "found through the superclass"
    );
    assert_eq!(back.lookup("Child.hello").len(), 1, "by base name");
    assert!(back.lookup("Child.hello(from:)").is_empty());
    assert_eq!(
        back.lookup("hello(to:)")[0].path,
        vec!["Base", "hello(to:)"]
    );
    assert_eq!(back.lookup("Kit.Child")[0].title, "Child");
    // an imported Objective-C property's leading initialism is lowercased, as in Swift
    assert_eq!(back.lookup("Base.httpBody").len(), 1);
    assert!(back.lookup("Base.HTTPBody").is_empty());
    // an extension file: String gets `shouted` and conforms to Greeter
    assert_eq!(back.lookup("String.shouted").len(), 1);
    assert!(
        back.lookup("String.wave").len() == 1,
        "{:?}",
        back.supertypes("String")
    );
    // availability per domain
    let child = &back.lookup("Child")[0];
    assert_eq!(
        child
            .availability_for(Domain::MacOs)
            .and_then(|a| a.introduced),
        Some(Version::new(13, 0, 0))
    );
    let st = back.status(
        &back.lookup("Child.rusty()")[0],
        t("ios16.0"),
        Version::new(5, 10, 0),
    );
    assert_eq!(
        st.deprecation.as_ref().map(|d| d.since.as_str()),
        Some("iOS 15.0")
    );
    assert_eq!(
        st.deprecation.and_then(|d| d.renamed).as_deref(),
        Some("shiny()")
    );
    let st = back.status(
        &back.lookup("Child.dusty()")[0],
        t("ios16.0"),
        Version::new(5, 10, 0),
    );
    assert!(st.deprecation.is_some_and(|d| d.future));
    // nothing there
    assert!(build_index(&[dir.path().join("nope")]).is_err());
}

#[test]
fn default_index_facts() {
    let ix = verity_swift::default_index().expect("index");
    assert!(ix.symbol_count() > 70_000);
    assert!(ix.has_module("SwiftUI") && ix.has_module("Swift"));
    let nd = ix.lookup("View.navigationDestination(for:destination:)");
    assert_eq!(nd.len(), 1);
    assert_eq!(nd[0].module, "SwiftUI");
    assert!(
        ix.lookup("View.navigationDestination(for:content:)")
            .is_empty()
    );
    assert!(ix.lookup("NavigationStackView").is_empty());
    // inherited: UIButton gets UIView's addSubview through UIControl
    assert!(ix.lookup("UIButton.addSubview(_:)").len() == 1);
    // protocol extension member through conformsTo: String.data(using:allowLossyConversion:)
    assert!(
        !ix.lookup("String.data(using:allowLossyConversion:)")
            .is_empty()
    );
    // an imported ObjC spelling found through x-alternateTitles
    assert!(
        !ix.lookup("UINavigationController.pushViewController(_:animated:)")
            .is_empty()
    );
}

#[test]
fn default_index_is_up_to_date() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/apple-sdk-symbols/ios17.4");
    if !data.is_dir() {
        eprintln!("skipped: {} is not present", data.display());
        return;
    }
    let regenerate = "regenerate it with `cargo run --release -p verity-swift --example build_index -- ../shared/data/apple-sdk-symbols/ios17.4 --sdk PATH/TO/iPhoneOS17.4.sdk --out crates/verity-swift/data/ios17.4.vidx` (see crates/verity-swift/data/README.md)";
    let shipped = Index::load_bytes(verity_swift::check::DEFAULT_INDEX_BYTES).expect("shipped");
    if let Some(sdk) = std::env::var_os("VERITY_IOS_SDK") {
        // with the SDK at hand: everything, types included
        let mut base = verity_swift::index::read_graphs(&[data.as_path()]).expect("graphs");
        let from_sdk = verity_swift::index::sdk::read_sdk(Path::new(&sdk)).expect("VERITY_IOS_SDK");
        verity_swift::index::sdk::attach_types(&mut base, &from_sdk);
        base.sources.extend(from_sdk.sources);
        let built = base.into_index();
        assert!(
            built == shipped,
            "crates/verity-swift/data/ios17.4.vidx is stale: {regenerate}"
        );
        return;
    }
    // without it: the graphs' facts (names, kinds, paths, availability, relations) must be
    // the shipped index's, type facts aside, but for what the SDK's headers add: the
    // declarations of modules whose headers the graphs did not read (none of their
    // declarations is imported), imported properties the graphs missed, and `swift_wrapper`
    // constants renamed by the importer's rule; an approximated imported method may gain
    // alternate spellings (the SDK reader's), never lose one
    let built = build_index(&[data.as_path()]).expect("build");
    let gains_alternates = |f: &verity_swift::index::SymbolFacts| {
        f.objc
            && f.approximate_name
            && matches!(
                f.kind,
                verity_swift::index::SymbolKind::Method
                    | verity_swift::index::SymbolKind::TypeMethod
            )
    };
    let fact = |f: &verity_swift::index::SymbolFacts| -> String {
        let alternates = if gains_alternates(f) {
            Vec::new()
        } else {
            f.alternate_titles.clone()
        };
        format!(
            "{} {} {} {:?} {} {:?}",
            f.module,
            f.kind,
            f.dotted_path(),
            f.availability,
            f.approximate_name,
            alternates
        )
    };
    let shipped_alternates: std::collections::HashMap<String, Vec<Vec<String>>> = shipped
        .iter()
        .filter(|f| gains_alternates(f))
        .fold(std::collections::HashMap::new(), |mut m, f| {
            m.entry(fact(&f))
                .or_default()
                .push(f.alternate_titles.clone());
            m
        });
    let lost: Vec<String> = built
        .iter()
        .filter(|f| gains_alternates(f) && !f.alternate_titles.is_empty())
        .filter(|f| {
            !shipped_alternates.get(&fact(f)).is_some_and(|all| {
                all.iter()
                    .any(|a| f.alternate_titles.iter().all(|t| a.contains(t)))
            })
        })
        .map(|f| format!("{} {:?}", fact(&f), f.alternate_titles))
        .take(3)
        .collect();
    assert!(
        lost.is_empty(),
        "crates/verity-swift/data/ios17.4.vidx is stale (alternate titles it lacks: {lost:?}): {regenerate}"
    );
    let renamable = |f: &verity_swift::index::SymbolFacts| {
        f.objc && f.approximate_name && f.kind == verity_swift::index::SymbolKind::TypeProperty
    };
    let shipped_facts: std::collections::HashSet<String> =
        shipped.iter().map(|f| fact(&f)).collect();
    let built_facts: std::collections::HashSet<String> = built.iter().map(|f| fact(&f)).collect();
    let missing: Vec<String> = built
        .iter()
        .filter(|f| !renamable(f) && !shipped_facts.contains(&fact(f)))
        .map(|f| fact(&f))
        .take(3)
        .collect();
    assert!(
        missing.is_empty(),
        "crates/verity-swift/data/ios17.4.vidx is stale (graph facts it lacks: {missing:?}): {regenerate}"
    );
    let read_headers: std::collections::HashSet<String> = built
        .iter()
        .filter(|f| f.objc && !f.synthesized)
        .map(|f| f.module.clone())
        .collect();
    let extra: Vec<String> = shipped
        .iter()
        .filter(|f| {
            let sdk_may_add = f.objc
                && (!read_headers.contains(&f.module)
                    || matches!(
                        f.kind,
                        verity_swift::index::SymbolKind::Property
                            | verity_swift::index::SymbolKind::TypeProperty
                    ));
            !f.synthesized && !renamable(f) && !sdk_may_add && !built_facts.contains(&fact(f))
        })
        .map(|f| fact(&f))
        .take(3)
        .collect();
    assert!(
        extra.is_empty(),
        "crates/verity-swift/data/ios17.4.vidx is stale (facts the graphs do not give: {extra:?}): {regenerate}"
    );
    for t in ["View", "URLSession", "Text"] {
        assert_eq!(
            built.supertypes(t),
            shipped.supertypes(t),
            "supertypes of {t}"
        );
    }
}

#[test]
fn damaged_index_files_are_errors() {
    let bytes = verity_swift::check::DEFAULT_INDEX_BYTES;
    assert!(Index::load_bytes(&[]).is_err());
    assert!(Index::load_bytes(b"VIDX").is_err());
    assert!(Index::load_bytes(&bytes[..bytes.len() / 2]).is_err());
    let mut flipped = bytes.to_vec();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0xff;
    assert!(Index::load_bytes(&flipped).is_err());
    let mut wrong_version = bytes.to_vec();
    wrong_version[4] = 99;
    let e = Index::load_bytes(&wrong_version).expect_err("version");
    assert!(e.to_string().contains("verity symbols build"));
}

#[test]
fn availability_guards() {
    let src = r#"
import SwiftUI
struct A: View {
    var body: some View {
        if #available(iOS 17, *) {
            ContentUnavailableView("x", systemImage: "y")
        } else {
            ContentUnavailableView("x", systemImage: "y")
        }
    }
}
"#;
    let r = check_source(src, &opts("ios16.0"));
    let ev = &r.criteria.availability_ok.evidence;
    assert_eq!(ev.len(), 1, "only the else branch: {ev:?}");
    assert_eq!(ev[0].line, Some(8));
    assert!(ev[0].message.contains("requires iOS 17.0"));
    // a macOS guard does not cover iOS
    let src = "import SwiftUI\nfunc f() {\n  if #available(macOS 14, *) { _ = ContentUnavailableView.search }\n}\n";
    assert!(!check_source(src, &opts("ios16.0")).availability_ok);
    assert!(check_source(src, &opts("macos14.0")).availability_ok);
    // the same code is fine on a target that has the API
    assert!(check_source(src, &opts("ios17.0")).availability_ok);
    // #unavailable: the else branch is the guarded one
    let src = "import SwiftUI\nfunc f() {\n  if #unavailable(iOS 17) { print(1) } else { _ = ContentUnavailableView.search }\n}\n";
    assert!(check_source(src, &opts("ios16.0")).availability_ok);
}

#[test]
fn future_deprecations_fail_by_default_or_warn() {
    let src = "import SwiftUI\nstruct A: View {\n  var body: some View { NavigationView { Text(\"x\") } }\n}\n";
    let mut o = opts("ios17.0");
    assert_eq!(o.future, FutureMode::Fail);
    let r = check_source(src, &o);
    assert_eq!(r.criteria.no_deprecated.status, ScoreStatus::Fail);
    assert_eq!(r.criteria.no_deprecated.evidence[0].line, Some(3));
    assert!(
        r.criteria.no_deprecated.evidence[0]
            .message
            .starts_with("future deprecation:")
    );
    o.future = FutureMode::Warn;
    let r = check_source(src, &o);
    assert_eq!(r.criteria.no_deprecated.status, ScoreStatus::Pass);
    assert!(
        r.criteria.no_deprecated.evidence[0]
            .message
            .starts_with("warning:")
    );
    assert_eq!(FutureMode::parse("warn"), Some(FutureMode::Warn));
    assert_eq!(FutureMode::parse("fail"), Some(FutureMode::Fail));
    assert_eq!(FutureMode::parse(" warn"), None);
}

#[test]
fn deprecation_versus_target() {
    // onChange(of:perform:) is deprecated in iOS 17: not yet for an iOS 16 target
    let src = "import SwiftUI\nstruct A: View {\n  @State var x = 0\n  var body: some View { Text(\"a\").onChange(of: x, perform: { v in print(v) }) }\n}\n";
    assert!(check_source(src, &opts("ios16.0")).no_deprecated);
    assert!(!check_source(src, &opts("ios17.0")).no_deprecated);
}

#[test]
fn map_and_graph_disagreements() {
    let ix = verity_swift::default_index().expect("index");
    // A deliberately wrong entry: the map says Text is deprecated; the graph says it is not.
    let map = DeprecationMap::from_json(
        r#"{"Text": {"alternative": "Label", "deprecated_since": "iOS 15.0", "sdk_symbol": "SwiftUI.Text"},
            "NSURLConnection": {"alternative": "URLSession", "deprecated_since": "iOS 9.0"},
            "madeUpThing": {"alternative": "nothing", "deprecated_since": "iOS 1.0"}}"#,
        &ix,
    )
    .expect("map");
    let d = map.disagreements(&ix, t("ios17.0"), Version::new(5, 10, 0));
    let keys: Vec<&str> = d.iter().map(|x| x.key.as_str()).collect();
    assert!(keys.contains(&"Text"), "{d:?}");
    assert!(keys.contains(&"madeUpThing"), "{d:?}");
    let text = d.iter().find(|x| x.key == "Text").expect("Text");
    assert!(text.graph_says.contains("not deprecated"));
    // the graph wins when checking: Text is not flagged, and the evidence notes why
    let mut o = opts("ios17.0");
    o.deprecations = Arc::new(map);
    let r = check_source("import SwiftUI\nlet t = Text(\"hi\")\n", &o);
    assert!(r.no_deprecated, "{:?}", r.criteria.no_deprecated);
    assert!(
        r.criteria
            .no_deprecated
            .evidence
            .iter()
            .any(|e| e.message.contains("symbol graph wins")),
        "{:?}",
        r.criteria.no_deprecated
    );
    // the shipped map against the shipped index
    let shipped = verity_swift::default_map().expect("map");
    assert_eq!(shipped.len(), 69);
    let d = shipped.disagreements(&ix, t("ios17.4"), Version::new(5, 10, 0));
    for x in &d {
        println!(
            "map disagreement: {} — map: {}; graph: {}",
            x.key, x.map_says, x.graph_says
        );
    }
}

#[test]
fn no_code_and_target_newer_than_index() {
    let r = check_answer("I can't help with that.", &opts("ios17.0"));
    assert!(!r.parse && !r.outcome);
    assert_eq!(r.criteria.parse.explanation, "no code produced");
    assert_eq!(r.criteria.symbols_exist.status, ScoreStatus::NotApplicable);
    let src = "import SwiftUI\nstruct A: View {\n  var body: some View { MeshGradient(width: 2, height: 2, points: [], colors: []) }\n}\n";
    let r = check_source(src, &opts("ios18.0"));
    assert_eq!(r.criteria.symbols_exist.status, ScoreStatus::NotApplicable);
    assert!(
        r.criteria
            .symbols_exist
            .explanation
            .contains("newer than the index")
    );
    let r = check_source(src, &opts("ios17.0"));
    assert_eq!(r.criteria.symbols_exist.status, ScoreStatus::Fail);
}

/// A deterministic byte soup.
fn soup(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

#[test]
fn garbage_never_panics() {
    let o = opts("ios17.0");
    for seed in 1..40u64 {
        let bytes = soup(2000 + seed as usize * 37, seed);
        let s = String::from_utf8_lossy(&bytes);
        let r = check_source(&s, &o);
        let _ = serde_json::to_string(&r).expect("serializes");
        let _ = check_answer(&format!("```swift\n{s}\n```"), &o);
    }
    // Swift-flavoured garbage: keywords and punctuation at random
    let words = [
        "struct",
        "{",
        "}",
        "(",
        ")",
        ".",
        "var",
        "let",
        "func",
        "View",
        "Text",
        "@State",
        "#Preview",
        "\\.",
        "in",
        ":",
        ",",
        "if",
        "#available(iOS 17, *)",
        "\"",
        "$0",
        "<",
        ">",
        "?",
        "!",
        "extension",
        "init",
        "=",
        "->",
        "\n",
    ];
    for seed in 1..60u64 {
        let picks = soup(400, seed);
        let s: String = picks
            .iter()
            .map(|b| words[*b as usize % words.len()])
            .collect::<Vec<_>>()
            .join(" ");
        let _ = check_source(&s, &o);
    }
    for s in [
        "", " ", "\0", "```", "```swift", "}}}}", "@", "#", "\\", ".", "...",
    ] {
        let _ = check_source(s, &o);
        let _ = check_answer(s, &o);
    }
}

#[test]
fn a_megabyte_of_braces_never_panics() {
    let o = opts("ios17.0");
    let s = "{".repeat(1 << 20);
    let r = check_source(&s, &o);
    assert!(!r.parse);
    let deep = format!(
        "{}Text(\"x\"){}",
        "VStack { ".repeat(3000),
        " }".repeat(3000)
    );
    let r = check_source(&deep, &o);
    let _ = serde_json::to_string(&r).expect("serializes");
    let huge = "let x = 1\n".repeat(500_000);
    let r = check_source(&huge, &o);
    assert!(!r.parse, "over the size limit is a parse failure");
}

fn fake_compiler(dir: &Path, name: &str, body: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).expect("write");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    p
}

#[test]
fn toolchain_check_with_a_fake_swiftc() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = fake_compiler(
        dir.path(),
        "swiftc",
        "[ \"$1\" = -parse ] || exit 3\n[ -f \"$2\" ] || exit 4\necho \"$2:2:9: error: expected expression after operator\" >&2\nexit 1",
    );
    let mut o = opts("ios17.0");
    o.toolchain = ToolchainChoice::Path(bad);
    let r = check_source("import Foundation\nlet x = 1 +\n", &o);
    assert_eq!(
        r.criteria.parse.status,
        ScoreStatus::Fail,
        "{:?}",
        r.criteria.parse
    );
    assert!(r.parser.starts_with("swiftc -parse"), "{}", r.parser);
    let e = &r.criteria.parse.evidence[0];
    assert_eq!((e.line, e.column), (Some(2), Some(9)));
    assert_eq!(
        e.message,
        "main.swift:2:9: error: expected expression after operator"
    );

    let good = fake_compiler(
        dir.path(),
        "swift-frontend",
        "[ \"$1\" = -frontend ] && [ \"$2\" = -parse ] || exit 3\nexit 0",
    );
    o.toolchain = ToolchainChoice::Path(good);
    let r = check_source("let x = 1\n", &o);
    assert_eq!(
        r.criteria.parse.status,
        ScoreStatus::Pass,
        "{:?}",
        r.criteria.parse
    );

    let slow = fake_compiler(dir.path(), "swiftc-slow", "sleep 30");
    o.toolchain = ToolchainChoice::Path(slow);
    o.limits.wall = std::time::Duration::from_millis(300);
    let started = std::time::Instant::now();
    let r = check_source("let x = 1\n", &o);
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(
        r.criteria.parse.status,
        ScoreStatus::Error,
        "{:?}",
        r.criteria.parse
    );

    // a compiler that cannot run: tree-sitter takes over, unless one is required
    o.toolchain = ToolchainChoice::Path(dir.path().join("missing-swiftc"));
    let r = check_source("let x = 1\n", &o);
    assert_eq!(r.parser, "tree-sitter");
    assert!(r.parse);
    o.require_toolchain = true;
    let r = check_source("let x = 1\n", &o);
    assert_eq!(r.criteria.parse.status, ScoreStatus::Error);
}

#[test]
fn scorer_is_a_shareable_trait_object() {
    fn shareable<T: Send + Sync + 'static>() {}
    shareable::<SwiftScorer>();
    shareable::<Index>();
    let s: Box<dyn Scorer> =
        Box::new(SwiftScorer::from_options("swift", &Map::new()).expect("defaults"));
    assert_eq!(s.name(), "swift");
    assert_eq!(s.scope(), verity_model::Scope::Sample);
}

#[test]
fn scorer_options_and_scores() {
    let mut o = Map::new();
    o.insert("index".into(), json!("/no/such/ios.vidx"));
    o.insert("future_deprecations".into(), json!("sometimes"));
    o.insert("target_platform".into(), json!("android14"));
    o.insert(
        "criteria".into(),
        json!({"parse": "compiles", "bogus": "x"}),
    );
    let issues = check_options(&o);
    let keys: Vec<_> = issues.iter().filter_map(|i| i.key.clone()).collect();
    for k in [
        "index",
        "future_deprecations",
        "target_platform",
        "criteria.bogus",
    ] {
        assert!(keys.contains(&k.to_owned()), "{k} in {issues:?}");
    }
    let idx = issues
        .iter()
        .find(|i| i.key.as_deref() == Some("index"))
        .expect("index issue");
    assert!(
        idx.message
            .contains("verity symbols build DIR --out /no/such/ios.vidx")
    );
    assert!(SwiftScorer::from_options("swift", &o).is_err());

    let mut o = Map::new();
    o.insert("toolchain".into(), json!("tree-sitter"));
    o.insert("criteria".into(), json!({"parse": "compiles"}));
    o.insert("target_platform".into(), json!("ios17.0"));
    assert!(check_options(&o).is_empty());
    let s = SwiftScorer::from_options("swift-oracles", &o).expect("scorer");
    assert_eq!(s.kind(), "swift");
    let mut task = Task::prompt("t1", "write a view");
    task.metadata
        .insert("target_platform".into(), Value::String("ios16.0".into()));
    let resp = Response {
        text: "```swift\nimport SwiftUI\nstruct A: View {\n  var body: some View { ContentUnavailableView(\"x\", systemImage: \"y\") }\n}\n```".into(),
        ..Response::default()
    };
    let scores = s.score(&task, &resp);
    let names: Vec<&str> = scores.iter().map(|x| x.criterion.as_str()).collect();
    assert_eq!(
        names,
        [
            "compiles",
            "symbols_exist",
            "availability_ok",
            "no_deprecated"
        ]
    );
    assert!(scores.iter().all(|x| x.scorer == "swift-oracles"));
    assert_eq!(scores[0].status, ScoreStatus::Pass);
    assert_eq!(
        scores[2].status,
        ScoreStatus::Fail,
        "ios16.0 from the task metadata"
    );
    assert_eq!(scores[2].evidence[0].line, Some(4));
    // the scorer's default target applies without metadata
    let plain = Task::prompt("t2", "x");
    assert_eq!(s.score(&plain, &resp)[2].status, ScoreStatus::Pass);
    // a bad target in a task is an error score, not a panic
    let mut bad = Task::prompt("t3", "x");
    bad.metadata
        .insert("target_platform".into(), Value::String("nope".into()));
    assert!(
        s.score(&bad, &resp)
            .iter()
            .all(|x| x.status == ScoreStatus::Error)
    );
    assert_eq!(verity_swift::check_task(&bad).len(), 1);
}

#[test]
fn cli_helpers() {
    let dir = tempfile::tempdir().expect("tempdir");
    tiny_graphs(dir.path());
    let out = dir.path().join("kit.vidx");
    let summary = verity_swift::cli::build(&[dir.path().to_path_buf()], None, &out).expect("build");
    assert_eq!(summary.symbols, 11);
    let ix = verity_swift::cli::load_index(out.to_str().expect("utf8")).expect("load");
    let lines: Vec<String> = verity_swift::cli::lookup(&ix, "Child.rusty")
        .iter()
        .map(verity_swift::cli::facts_line)
        .collect();
    assert_eq!(
        lines,
        ["Kit swift.method Child.rusty() [iOS 13.0+, deprecated 15.0, renamed shiny()]"]
    );
    assert!(verity_swift::cli::load_index("/nope.vidx").is_err());
    let o =
        verity_swift::cli::check_options_for(t("ios17.0"), "default:ios17.4", None).expect("opts");
    let f = dir.path().join("a.md");
    std::fs::write(&f, "```swift\nlet s = URLSession.shared.fetchJSON()\n```\n").expect("write");
    let r = verity_swift::cli::check_file(&f, &o).expect("check");
    assert!(!r.symbols_exist);
    assert_eq!(r.criteria.symbols_exist.evidence[0].line, Some(2));
    let bad = verity_swift::cli::check_options_for(t("ios17.0"), "/nope.vidx", None)
        .expect_err("missing");
    assert!(
        bad.to_string()
            .contains("verity symbols build DIR --out /nope.vidx"),
        "{bad}"
    );
    assert_eq!(bad.kind(), verity_model::ErrorKind::Usage);
}

/// A graph in the shape `swift symbolgraph-extract` writes (mangled USRs, declaration
/// fragments, function signatures, generics): the index keeps each symbol's types.
#[test]
fn symbol_graph_types_reach_the_index() {
    let frag = |kind: &str, s: &str| serde_json::json!({"kind": kind, "spelling": s});
    let graph = serde_json::json!({
        "metadata": {"formatVersion": {"major": 0, "minor": 6, "patch": 0}, "generator": "Apple Swift version 6.0"},
        "module": {"name": "Demo", "platform": {"operatingSystem": {"name": "ios", "minimumVersion": {"major": 17, "minor": 0}}}},
        "symbols": [
            {"kind": {"identifier": "swift.struct"}, "identifier": {"precise": "s:4Demo3BoxV"},
             "pathComponents": ["Box"], "names": {"title": "Box"}, "accessLevel": "public",
             "swiftGenerics": {"parameters": [{"name": "T", "index": 0, "depth": 0}],
                               "constraints": [{"kind": "conformance", "lhs": "T", "rhs": "Swift.Sendable"}]}},
            {"kind": {"identifier": "swift.property"}, "identifier": {"precise": "s:4Demo3BoxV5valuexvp"},
             "pathComponents": ["Box", "value"], "names": {"title": "value"}, "accessLevel": "public",
             "declarationFragments": [frag("keyword", "var"), frag("text", " "), frag("identifier", "value"),
                                      frag("text", ": "), frag("typeIdentifier", "Swift.Optional"), frag("text", "<"),
                                      frag("genericParameter", "T"), frag("text", ">"), frag("text", " { get }")]},
            {"kind": {"identifier": "swift.method"}, "identifier": {"precise": "s:4Demo3BoxV4send2to7retries7timeoutSbSS_SiSdtYaKF"},
             "pathComponents": ["Box", "send(to:retries:timeout:)"], "names": {"title": "send(to:retries:timeout:)"},
             "accessLevel": "public",
             "declarationFragments": [frag("keyword", "func"), frag("text", " "), frag("identifier", "send"),
                 frag("text", "("), frag("externalParam", "to"), frag("text", " "), frag("internalParam", "address"),
                 frag("text", ": "), frag("typeIdentifier", "Swift.String"), frag("text", ", "),
                 frag("externalParam", "retries"), frag("text", ": "), frag("typeIdentifier", "Swift.Int"),
                 frag("text", " = 3, "), frag("externalParam", "timeout"), frag("text", ": "),
                 frag("typeIdentifier", "Swift.Double"), frag("text", ") "), frag("keyword", "async"),
                 frag("text", " "), frag("keyword", "throws"), frag("text", " -> "), frag("typeIdentifier", "Swift.Bool")],
             "functionSignature": {
                 "parameters": [
                     {"name": "to", "internalName": "address", "declarationFragments": [frag("identifier", "address"), frag("text", ": "), frag("typeIdentifier", "Swift.String")]},
                     {"name": "retries", "declarationFragments": [frag("identifier", "retries"), frag("text", ": "), frag("typeIdentifier", "Swift.Int")]},
                     {"name": "timeout", "declarationFragments": [frag("identifier", "timeout"), frag("text", ": "), frag("typeIdentifier", "Swift.Double")]}
                 ],
                 "returns": [frag("typeIdentifier", "Swift.Bool")]}},
            {"kind": {"identifier": "swift.init"}, "identifier": {"precise": "s:4Demo3BoxV5valueACyxGSgx_tcfc"},
             "pathComponents": ["Box", "init(value:)"], "names": {"title": "init(value:)"}, "accessLevel": "public",
             "functionSignature": {"parameters": [{"name": "value", "declarationFragments": [frag("identifier", "value"), frag("text", ": "), frag("genericParameter", "T")]}]}}
        ],
        "relationships": []
    });
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("Demo.symbols.json"),
        serde_json::to_vec(&graph).expect("json"),
    )
    .expect("write");
    let ix = build_index(&[dir.path()]).expect("build");
    let value = &ix.lookup("Box.value")[0];
    assert_eq!(value.ty.as_deref(), Some("T?"));
    let send = &ix.lookup("Box.send(to:retries:timeout:)")[0];
    assert_eq!(send.ty.as_deref(), Some("Bool"));
    assert!(send.throws);
    let params = send.params.as_ref().expect("params recorded");
    let got: Vec<(&str, &str, bool)> = params
        .iter()
        .map(|p| (p.label.as_str(), p.ty.as_str(), p.default))
        .collect();
    assert_eq!(
        got,
        vec![
            ("to", "String", false),
            ("retries", "Int", true),
            ("timeout", "Double", false)
        ]
    );
    assert_eq!(send.defaulted_args, vec![1]);
    let init = &ix.lookup("Box.init(value:)")[0];
    assert_eq!(init.ty.as_deref(), Some("Self"));
    assert_eq!(ix.lookup("Box")[0].generics.as_deref(), Some("T: Sendable"));
    // the types survive the file format
    let back = Index::load_bytes(&ix.to_bytes()).expect("load");
    assert_eq!(back, ix);
}

#[test]
fn scorer_future_deprecations_default_to_fail() {
    let answer = Response {
        text: "```swift\nimport SwiftUI\nstruct A: View {\n  var body: some View { NavigationView { Text(\"x\") } }\n}\n```".into(),
        ..Response::default()
    };
    let task = Task::prompt("t1", "write a view");
    let verdict = |mode: Option<&str>| {
        let mut o = Map::new();
        o.insert("toolchain".into(), json!("tree-sitter"));
        if let Some(m) = mode {
            o.insert("future_deprecations".into(), json!(m));
        }
        let s = SwiftScorer::from_options("swift", &o).expect("scorer");
        s.score(&task, &answer)[3].status
    };
    assert_eq!(verdict(None), ScoreStatus::Fail);
    assert_eq!(verdict(Some("fail")), ScoreStatus::Fail);
    assert_eq!(verdict(Some("warn")), ScoreStatus::Pass);
}

fn swift_task(id: &str, swift: &str) -> Task {
    let mut t = Task::prompt(id, "write code");
    t.metadata.insert("target_swift".into(), json!(swift));
    t
}

#[test]
fn preflight_reports_the_toolchain_and_fails_when_a_required_one_is_missing() {
    let mut o = Map::new();
    o.insert("toolchain".into(), json!("tree-sitter"));
    let s = SwiftScorer::from_options("swift", &o).expect("scorer");
    let info = s.preflight().expect("tree-sitter needs nothing");
    assert_eq!(info.facts["toolchain"], "tree-sitter");
    assert!(info.warnings.is_empty());
    let mut after = info.clone();
    s.preflight_task(&swift_task("t", "99.0"), &mut after)
        .expect("no compiler: nothing to compare");
    assert!(after.warnings.is_empty(), "{after:?}");

    let dir = tempfile::tempdir().unwrap();
    // a file, but not a program
    let missing = dir.path().join("no-such-swift-frontend");
    std::fs::write(&missing, "not a compiler").unwrap();
    let mut o = Map::new();
    o.insert("toolchain".into(), json!(missing.display().to_string()));
    // without require_toolchain a broken compiler falls back to tree-sitter, with a warning
    let s = SwiftScorer::from_options("swift", &o).expect("scorer");
    let info = s.preflight().expect("falls back");
    assert_eq!(info.facts["toolchain"], "tree-sitter");
    assert!(info.warnings[0].contains("does not run"), "{info:?}");
    o.insert("require_toolchain".into(), json!(true));
    let s = SwiftScorer::from_options("swift", &o).expect("scorer");
    let e = s.preflight().expect_err("required and missing");
    assert!(
        e.contains("require_toolchain") && e.contains("no-such-swift-frontend"),
        "{e}"
    );
    let mut o = Map::new();
    o.insert("toolchain".into(), json!("tree-sitter"));
    o.insert("require_toolchain".into(), json!(true));
    let e = SwiftScorer::from_options("swift", &o)
        .expect("scorer")
        .preflight()
        .expect_err("tree-sitter cannot satisfy require_toolchain");
    assert!(e.contains("tree-sitter"), "{e}");
}

/// The pre-flight notes the deprecation map's entries the symbol graph contradicts, once per
/// target, for the run's audit.
#[test]
fn preflight_notes_map_disagreements_once_per_target() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("map.json");
    std::fs::write(
        &map,
        r#"{"Text": {"alternative": "Label", "deprecated_since": "iOS 13.0", "sdk_symbol": "SwiftUI.Text"}}"#,
    )
    .unwrap();
    let mut o = Map::new();
    o.insert("toolchain".into(), json!("tree-sitter"));
    o.insert("deprecations".into(), json!(map.display().to_string()));
    let s = SwiftScorer::from_options("swift", &o).expect("scorer");
    let mut info = s.preflight().expect("preflight");
    let mut task = Task::prompt("a", "x");
    task.metadata
        .insert("target_platform".into(), json!("ios17.0"));
    s.preflight_task(&task, &mut info).expect("ok");
    s.preflight_task(&task, &mut info).expect("ok");
    assert_eq!(info.notes.len(), 1, "{info:?}");
    let n = &info.notes[0];
    assert!(
        n.contains("`Text`") && n.contains("the map loses") && n.contains("ios17.0"),
        "{n}"
    );
    task.metadata
        .insert("target_platform".into(), json!("ios16.0"));
    s.preflight_task(&task, &mut info).expect("ok");
    assert_eq!(info.notes.len(), 2, "a second target: {info:?}");
}

#[test]
fn preflight_reads_the_compiler_version_and_checks_target_swift() {
    let dir = tempfile::tempdir().unwrap();
    // answers `--version` like swift-frontend does (and passes every parse)
    let fe = fake_compiler(
        dir.path(),
        "swift-frontend",
        "echo 'Swift version 5.10 (swift-5.10-RELEASE)'\necho 'Target: x86_64-unknown-linux-gnu'",
    );
    let mut o = Map::new();
    o.insert("toolchain".into(), json!(fe.display().to_string()));
    let s = SwiftScorer::from_options("swift", &o).expect("scorer");
    let info = s.preflight().expect("not required: never fails");
    assert_eq!(info.facts["toolchain"], "swift-frontend", "{info:?}");
    assert_eq!(info.facts["toolchain_version"], "5.10");
    assert_eq!(
        info.facts["toolchain_banner"],
        "Swift version 5.10 (swift-5.10-RELEASE)"
    );
    let mut info = info;
    for t in [
        swift_task("old", "5.9"),
        swift_task("same", "5.10"),
        Task::prompt("none", "x"),
    ] {
        s.preflight_task(&t, &mut info).expect("not newer");
    }
    assert!(info.warnings.is_empty(), "{info:?}");
    s.preflight_task(&swift_task("new", "6.0"), &mut info)
        .expect("a warning, not a failure");
    assert_eq!(info.warnings.len(), 1, "{info:?}");
    let w = &info.warnings[0];
    assert!(
        w.contains("task `new` targets Swift 6.0") && w.contains("Swift 5.10"),
        "{w}"
    );
    o.insert("require_toolchain".into(), json!(true));
    let s = SwiftScorer::from_options("swift", &o).expect("scorer");
    let mut info = s.preflight().expect("the compiler runs");
    let e = s
        .preflight_task(&swift_task("new", "6.0"), &mut info)
        .expect_err("the run asked for the compiler's verdicts");
    assert!(e.contains("targets Swift 6.0"), "{e}");
}
