use super::swift::inherit;
use super::*;
use crate::index::{Availability, Param, Relation};
use crate::version::{Domain, Version};

/// A small interface written for these tests (the shapes a real one prints).
const SHAPES: &str = r#"// swift-interface-format-version: 1.0
import Swift
import Foundation
@available(iOS 15.0, macOS 12.0, *)
public struct Meter<Unit> : Swift.Equatable, Swift.Sendable where Unit : Swift.Hashable {
  public var reading: Swift.Double { get }
  public let label: Swift.String?
  public init?(reading: Swift.Double, label: Swift.String? = nil)
  @available(iOS, introduced: 16.0, deprecated: 17.0, message: "use scaled(by:)")
  public func scale<T>(_ factor: T, rounding mode: Swift.FloatingPointRoundingRule = .toNearestOrEven) async throws -> Meter<Unit> where T : Swift.BinaryFloatingPoint
  public static func == (lhs: Meter<Unit>, rhs: Meter<Unit>) -> Swift.Bool
  public subscript(position: Swift.Int) -> Swift.Double { get }
  public subscript(key name: Swift.String) -> Swift.Double? { get set }
  public typealias Reading = Swift.Double
  @usableFromInline
  internal var storage: [Swift.Double]
  public var _hidden: Swift.Int
  @inlinable public func inlined() -> Swift.Int {
    return storage.count
  }
  public static var zero: Meter<Unit> {
    get
  }
}
public protocol Gauge : AnyObject {
  associatedtype Needle : Swift.Hashable
  func point(at needle: Self.Needle) -> Swift.Double
  var dial: [Swift.String : Swift.Int] { get set }
  init(needle: Self.Needle)
}
extension Meter where Unit == Swift.Int {
  public func total() -> Swift.Int
}
public extension Swift.Array {
  func meters() -> [Swift.Double]
}
@available(*, deprecated, renamed: "NewMode")
public enum Mode : Swift.Int {
  case idle, running(Swift.Int, speed: Swift.Double)
  indirect case nested(Mode)
  case sized(_: Swift.Int)
  @available(iOS 16, *)
  public static let fast: Mode
}
#if compiler(>=5.3) && $Macros
@freestanding(expression) public macro measure<T>(_ value: T) -> (T, Swift.Double) = #externalMacro(module: "MeterMacros", type: "M")
#else
public func measureFallback()
#endif
open class Base : Foundation.NSObject {
  open var size: CoreFoundation.CGFloat
  @objc deinit
}
open class Derived : Base, Gauge {
  public func fetch() throws(Foundation.URLError) -> Foundation.Data
}
@_spi(Private) public func secret()
public func makeTable(_: Swift.Int, handler: @escaping @Sendable (Swift.Result<Swift.String, any Swift.Error>) -> Swift.Void) -> [Swift.String : [Swift.Int]]
public var globalMeter: Meter<Swift.Int>?
@available(*, unavailable)
extension Base : @unchecked Swift.Sendable {
}
"#;

fn decl<'a>(set: &'a DeclSet, path: &str) -> &'a Decl {
    set.decls
        .iter()
        .find(|d| d.joined() == path)
        .unwrap_or_else(|| panic!("no {path} in {:?}", titles(set)))
}

fn titles(set: &DeclSet) -> Vec<String> {
    set.decls.iter().map(Decl::joined).collect()
}

fn params(d: &Decl) -> Vec<(String, String, bool)> {
    d.params
        .iter()
        .flatten()
        .map(|p| (p.label.clone(), p.ty.clone(), p.default))
        .collect()
}

fn p(label: &str, ty: &str, default: bool) -> (String, String, bool) {
    (label.into(), ty.into(), default)
}

#[test]
fn titles_kinds_and_visibility() {
    let set = read_interface("Meters", SHAPES);
    let t = titles(&set);
    for want in [
        "Meter",
        "Meter.reading",
        "Meter.label",
        "Meter.init(reading:label:)",
        "Meter.scale(_:rounding:)",
        "Meter.==(_:_:)",
        "Meter.subscript(_:)",
        "Meter.subscript(key:)",
        "Meter.Reading",
        "Meter.inlined()",
        "Meter.zero",
        "Gauge.Needle",
        "Gauge.point(at:)",
        "Gauge.dial",
        "Gauge.init(needle:)",
        "Meter.total()",
        "Array.meters()",
        "Mode.idle",
        "Mode.running(_:speed:)",
        "Mode.nested(_:)",
        "Mode.sized(_:)",
        "Mode.fast",
        "measure(_:)",
        "Base.size",
        "Derived.fetch()",
        "makeTable(_:handler:)",
        "globalMeter",
    ] {
        assert!(t.iter().any(|x| x == want), "{want} missing from {t:?}");
    }
    for absent in [
        "Meter.storage",
        "Meter._hidden",
        "secret()",
        "measureFallback()",
    ] {
        assert!(!t.iter().any(|x| x == absent), "{absent} should be skipped");
    }
    let kind = |p: &str| decl(&set, p).kind;
    assert_eq!(kind("Meter"), SymbolKind::Struct);
    assert_eq!(kind("Meter.zero"), SymbolKind::TypeProperty);
    assert_eq!(kind("Meter.==(_:_:)"), SymbolKind::Operator);
    assert_eq!(kind("Gauge.Needle"), SymbolKind::AssociatedType);
    assert_eq!(kind("Mode.running(_:speed:)"), SymbolKind::EnumCase);
    assert_eq!(kind("measure(_:)"), SymbolKind::Macro);
    assert_eq!(kind("makeTable(_:handler:)"), SymbolKind::Func);
    assert_eq!(kind("globalMeter"), SymbolKind::Var);
    assert!(decl(&set, "Meter.total()").constrained);
    assert!(!decl(&set, "Meter.reading").constrained);
}

#[test]
fn types_parameters_and_generics() {
    let set = read_interface("Meters", SHAPES);
    assert_eq!(decl(&set, "Meter.reading").ty.as_deref(), Some("Double"));
    assert_eq!(decl(&set, "Meter.label").ty.as_deref(), Some("String?"));
    let init = decl(&set, "Meter.init(reading:label:)");
    assert!(init.failable);
    assert_eq!(init.ty.as_deref(), Some("Self?"));
    assert_eq!(
        params(init),
        vec![p("reading", "Double", false), p("label", "String?", true)]
    );
    let scale = decl(&set, "Meter.scale(_:rounding:)");
    assert_eq!(scale.ty.as_deref(), Some("Meter<Unit>"));
    assert!(scale.throws && scale.is_async);
    assert_eq!(scale.generics.as_deref(), Some("T: BinaryFloatingPoint"));
    assert_eq!(
        params(scale),
        vec![
            p("_", "T", false),
            p("rounding", "FloatingPointRoundingRule", true)
        ]
    );
    assert_eq!(
        decl(&set, "Meter").generics.as_deref(),
        Some("Unit: Hashable")
    );
    assert_eq!(decl(&set, "Meter.==(_:_:)").ty.as_deref(), Some("Bool"));
    assert_eq!(
        params(decl(&set, "Meter.subscript(key:)")),
        vec![p("key", "String", false)]
    );
    assert_eq!(
        decl(&set, "Meter.subscript(key:)").ty.as_deref(),
        Some("Double?")
    );
    assert_eq!(decl(&set, "Meter.Reading").ty.as_deref(), Some("Double"));
    assert_eq!(decl(&set, "Meter.zero").ty.as_deref(), Some("Meter<Unit>"));
    assert_eq!(decl(&set, "Gauge.point(at:)").ty.as_deref(), Some("Double"));
    assert_eq!(
        params(decl(&set, "Gauge.point(at:)")),
        vec![p("at", "Self.Needle", false)]
    );
    assert_eq!(
        decl(&set, "Gauge.dial").ty.as_deref(),
        Some("[String: Int]")
    );
    assert_eq!(
        decl(&set, "Gauge.init(needle:)").ty.as_deref(),
        Some("Self")
    );
    assert_eq!(
        params(decl(&set, "Mode.running(_:speed:)")),
        vec![p("_", "Int", false), p("speed", "Double", false)]
    );
    assert_eq!(decl(&set, "Mode.idle").params, None);
    assert_eq!(decl(&set, "measure(_:)").ty.as_deref(), Some("(T, Double)"));
    assert_eq!(decl(&set, "Base.size").ty.as_deref(), Some("CGFloat"));
    let fetch = decl(&set, "Derived.fetch()");
    assert!(fetch.throws);
    assert_eq!(fetch.ty.as_deref(), Some("Data"));
    let table = decl(&set, "makeTable(_:handler:)");
    assert_eq!(table.ty.as_deref(), Some("[String: [Int]]"));
    assert_eq!(
        params(table),
        vec![
            p("_", "Int", false),
            p("handler", "(Result<String, any Error>) -> Void", false)
        ]
    );
    assert_eq!(decl(&set, "Meter.inlined()").ty.as_deref(), Some("Int"));
    assert_eq!(decl(&set, "globalMeter").ty.as_deref(), Some("Meter<Int>?"));
}

#[test]
fn availability_forms_and_inheritance() {
    let set = read_interface("Meters", SHAPES);
    let ios = |path: &str| {
        decl(&set, path)
            .availability
            .iter()
            .find(|a| a.domain == Some(Domain::Ios))
            .cloned()
    };
    // shorthand, inherited by members
    let v = |s: &str| Version::parse(s);
    assert_eq!(ios("Meter").and_then(|a| a.introduced), v("15.0"));
    assert_eq!(ios("Meter.reading").and_then(|a| a.introduced), v("15.0"));
    // long form: the child's introduced wins, its message stays its own
    let scale = ios("Meter.scale(_:rounding:)").expect("iOS entry");
    assert_eq!(scale.introduced, v("16.0"));
    assert_eq!(scale.deprecated, v("17.0"));
    assert_eq!(scale.message.as_deref(), Some("use scaled(by:)"));
    // `@available(*, deprecated, renamed:)`: propagates, renamed does not
    let any = |path: &str| {
        decl(&set, path)
            .availability
            .iter()
            .find(|a| a.domain == Some(Domain::Any))
            .cloned()
    };
    let mode = any("Mode").expect("* entry");
    assert!(mode.unconditionally_deprecated);
    assert_eq!(mode.renamed.as_deref(), Some("NewMode"));
    let case = any("Mode.idle").expect("inherited * entry");
    assert!(case.unconditionally_deprecated);
    assert_eq!(case.renamed, None);
    assert_eq!(ios("Mode.fast").and_then(|a| a.introduced), v("16.0"));
}

#[test]
fn inherit_keeps_the_earlier_deprecation() {
    let a = |intro: &str, dep: Option<&str>| Availability {
        domain: Some(Domain::Ios),
        introduced: Version::parse(intro),
        deprecated: dep.and_then(Version::parse),
        message: Some("m".into()),
        ..Availability::default()
    };
    let child = [a("14.0", Some("17.0"))];
    let parent = [a("13.0", Some("15.0"))];
    let got = inherit(&child, &parent);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].introduced, Version::parse("14.0"));
    assert_eq!(got[0].deprecated, Version::parse("15.0"));
    assert_eq!(got[0].message.as_deref(), Some("m"));
    let only_parent = inherit(&[], &parent);
    assert_eq!(only_parent[0].message, None);
    assert_eq!(only_parent[0].introduced, Version::parse("13.0"));
}

#[test]
fn relations_and_future_deprecation() {
    let text = "import Swift\n@available(iOS, introduced: 13.0, deprecated: 100000.0, message: \"later\")\npublic struct Old : Swift.Hashable {\n}\n";
    let set = read_interface("Olds", text);
    let old = &decl(&set, "Old").availability[0];
    assert!(old.deprecated.is_some_and(Version::is_future));
    assert_eq!(
        set.relations,
        vec![Relation {
            source: "Old".into(),
            target: "Hashable".into(),
            inherits: false
        }]
    );
    let shapes = read_interface("Meters", SHAPES);
    // `@available(*, unavailable) extension Base: Sendable` is no conformance
    assert!(
        !shapes
            .relations
            .iter()
            .any(|r| r.source == "Base" && r.target == "Sendable")
    );
    assert!(
        shapes
            .relations
            .iter()
            .any(|r| r.source == "Derived" && r.target == "Gauge")
    );
}

fn write_sdk(root: &Path) {
    let m = root.join("System/Library/Frameworks/Meters.framework/Modules/Meters.swiftmodule");
    std::fs::create_dir_all(&m).expect("mkdir");
    std::fs::write(m.join("arm64-apple-ios.swiftinterface"), SHAPES).expect("write");
    std::fs::write(m.join("arm64e-apple-ios.swiftinterface"), "garbage").expect("write");
    let p = root.join(
        "System/Library/PrivateFrameworks/MetersCore.framework/Modules/MetersCore.swiftmodule",
    );
    std::fs::create_dir_all(&p).expect("mkdir");
    std::fs::write(
        p.join("arm64-apple-ios.swiftinterface"),
        "public func x()\n",
    )
    .expect("write");
}

#[test]
fn reads_an_sdk_directory_and_merges_types() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_sdk(dir.path());
    let files = interface_files(dir.path()).expect("files");
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(files[0].module, "Meters");
    assert!(files[0].path.ends_with("arm64-apple-ios.swiftinterface"));
    let sdk = read_swift_sdk(dir.path()).expect("sdk");
    // a class's superclass is an inheritance edge
    assert!(
        sdk.relations
            .iter()
            .any(|r| r.source == "Derived" && r.target == "Base" && r.inherits)
    );
    // `Array` is only extended here: a placeholder parents its members
    assert!(
        sdk.decls
            .iter()
            .any(|d| d.joined() == "Array" && d.synthesized && d.kind == SymbolKind::Extension)
    );

    let graph_decl = |path: &[&str], kind| Decl {
        module: "Meters".into(),
        path: path.iter().map(|s| (*s).to_owned()).collect(),
        kind,
        ..Decl::default()
    };
    let mut base = DeclSet {
        decls: vec![
            graph_decl(&["Meter", "reading"], SymbolKind::Property),
            graph_decl(&["Meter", "scale(_:rounding:)"], SymbolKind::Method),
            graph_decl(&["Meter", "gone()"], SymbolKind::Method),
        ],
        ..DeclSet::default()
    };
    let stats = attach_types(&mut base, &sdk);
    assert_eq!(base.decls[0].ty.as_deref(), Some("Double"));
    assert_eq!(
        base.decls[1].params.as_ref().map(|p| p[1].clone()),
        Some(Param {
            label: "rounding".into(),
            ty: "FloatingPointRoundingRule".into(),
            default: true
        })
    );
    assert!(base.decls[1].throws);
    assert_eq!(base.decls[2].ty, None);
    let m = &stats.modules["Meters"];
    assert_eq!((m.matched, m.unmatched), (2, 1));
    assert!(m.sdk_only > 10, "{m:?}");
    assert!(stats.to_string().contains("Meters"));
}

#[test]
fn a_directory_without_interfaces_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let err = read_swift_sdk(dir.path()).expect_err("no interfaces");
    assert!(err.to_string().contains("no `.swiftinterface`"), "{err}");
    assert!(read_swift_sdk(&dir.path().join("missing")).is_err());
}

#[test]
fn headers_the_base_did_not_read_are_added_and_wrapper_constants_renamed() {
    let headers = vec![(
        "Gauges.h".to_owned(),
        r#"
NS_ASSUME_NONNULL_BEGIN
typedef NSString * GGDialKey NS_TYPED_EXTENSIBLE_ENUM;
extern GGDialKey const GGDialNeedleKey API_AVAILABLE(ios(15.0));
API_AVAILABLE(ios(16.0))
@interface GGDial : NSObject
- (void)spinToValue:(double)value;
@property (nonatomic) double needleAngle;
@end
NS_ASSUME_NONNULL_END
"#
        .to_owned(),
    )];
    let mut sdk = read_objc_framework("Gauges", &headers, None);
    sdk.extend(read_objc_framework(
        "Dials",
        &[(
            "Dials.h".to_owned(),
            "#import <Gauges/Gauges.h>\n@interface DLKnob : NSObject\n@end\n".to_owned(),
        )],
        None,
    ));
    let graph = |module: &str, path: &[&str], kind, c_name: Option<&str>| Decl {
        module: module.into(),
        path: path.iter().map(|s| (*s).to_owned()).collect(),
        kind,
        objc: c_name.is_some(),
        approximate: c_name.is_some(),
        c_name: c_name.map(str::to_owned),
        ..Decl::default()
    };
    // the base read Gauges' headers (an imported constant, its name derived otherwise)
    let mut base = DeclSet {
        decls: vec![
            graph(
                "Gauges",
                &["GGDialKey", "needle"],
                SymbolKind::TypeProperty,
                Some("GGDialNeedleKey"),
            ),
            graph("Gauges", &["GGDial"], SymbolKind::Class, Some("GGDial")),
            graph("Swift", &["Double"], SymbolKind::Struct, None),
        ],
        ..DeclSet::default()
    };
    let stats = attach_types(&mut base, &sdk);
    assert_eq!(base.decls[0].joined(), "GGDialKey.needleKey");
    assert_eq!(stats.renamed(), 1);
    // … so nothing else of Gauges is added but the property the base missed
    assert_eq!(stats.added(), 1);
    let added = base.decls.last().expect("added");
    assert_eq!(added.joined(), "GGDial.needleAngle");
    assert_eq!(added.ty.as_deref(), Some("Double"));

    // a base that read Dials' headers, and has Gauges only from a Swift overlay, gets the
    // declarations of Gauges' headers: Dials' import them
    let mut overlay_only = DeclSet {
        decls: vec![
            graph("Gauges", &["GGDialKey"], SymbolKind::Struct, None),
            graph("Dials", &["DLKnob"], SymbolKind::Class, Some("DLKnob")),
        ],
        ..DeclSet::default()
    };
    let stats = attach_types(&mut overlay_only, &sdk);
    assert!(stats.added() >= 3, "{stats}");
    let titles: Vec<String> = overlay_only.decls.iter().map(Decl::joined).collect();
    for t in ["GGDial", "GGDial.spin(toValue:)", "GGDialKey.needleKey"] {
        assert!(titles.iter().any(|x| x == t), "{t} in {titles:?}");
    }
    assert!(overlay_only.modules.contains("Gauges"));
    assert!(
        overlay_only
            .relations
            .iter()
            .any(|r| r.source == "GGDial" && r.target == "NSObject" && r.inherits)
    );
    // the type the base already declares is not duplicated
    assert_eq!(titles.iter().filter(|t| *t == "GGDialKey").count(), 1);

    // headers nothing the base read imports stay out
    let mut unrelated = DeclSet {
        decls: vec![graph("Gauges", &["GGDialKey"], SymbolKind::Struct, None)],
        ..DeclSet::default()
    };
    assert_eq!(attach_types(&mut unrelated, &sdk).added(), 0);
}

#[test]
fn importable_frameworks_the_base_lacks_are_added_from_an_sdk_directory() {
    // Pulse has a module map (Swift code can `import Pulse`), nothing else imports its
    // headers, and the base has only its Swift overlay; Hidden has headers but no module
    // map; Lone has a module map but the base has no module of that name
    let dir = tempfile::tempdir().expect("tempdir");
    let fw = dir.path().join("System/Library/Frameworks");
    let pulse = fw.join("Pulse.framework");
    std::fs::create_dir_all(pulse.join("Headers")).expect("mkdir");
    std::fs::create_dir_all(pulse.join("Modules")).expect("mkdir");
    std::fs::write(
        pulse.join("Modules/module.modulemap"),
        "framework module Pulse { umbrella header \"Pulse.h\" }\n",
    )
    .expect("write");
    std::fs::write(
        pulse.join("Headers/Pulse.h"),
        "NS_ASSUME_NONNULL_BEGIN\n@interface PLSample : NSObject\n\
         @property (nonatomic, readonly) double beats;\n\
         + (PLSample *)sampleWithBeats:(double)beats;\n@end\n\
         typedef NSString * PLKindIdentifier NS_TYPED_ENUM;\n\
         extern PLKindIdentifier const PLKindIdentifierResting;\n\
         NS_ASSUME_NONNULL_END\n",
    )
    .expect("write");
    let lone = fw.join("Lone.framework");
    std::fs::create_dir_all(lone.join("Headers")).expect("mkdir");
    std::fs::create_dir_all(lone.join("Modules")).expect("mkdir");
    std::fs::write(
        lone.join("Modules/module.modulemap"),
        "framework module Lone {}\n",
    )
    .expect("write");
    std::fs::write(
        lone.join("Headers/Lone.h"),
        "@interface LNThing : NSObject\n@end\n",
    )
    .expect("write");
    let hidden = fw.join("Hidden.framework/Headers");
    std::fs::create_dir_all(&hidden).expect("mkdir");
    std::fs::write(
        hidden.join("Hidden.h"),
        "@interface HDThing : NSObject\n@end\n",
    )
    .expect("write");
    let sdk = read_objc_sdk(dir.path()).expect("read");
    assert!(sdk.importable.contains("Pulse"), "{:?}", sdk.importable);
    assert!(!sdk.importable.contains("Hidden"));
    let overlay = Decl {
        module: "Pulse".into(),
        path: vec!["PLSample".into(), "init(kind:)".into()],
        kind: SymbolKind::Init,
        ..Decl::default()
    };
    let mut base = DeclSet {
        decls: vec![overlay],
        ..DeclSet::default()
    };
    base.modules.insert("Pulse".into());
    let stats = attach_types(&mut base, &sdk);
    let titles: Vec<String> = base.decls.iter().map(Decl::joined).collect();
    for t in ["PLSample", "PLSample.beats", "PLKindIdentifier.resting"] {
        assert!(titles.iter().any(|x| x == t), "{t} in {titles:?}");
    }
    assert!(
        !titles.iter().any(|x| x.starts_with("HDThing")),
        "{titles:?}"
    );
    assert!(
        !titles.iter().any(|x| x.starts_with("LNThing")),
        "{titles:?}"
    );
    assert!(stats.added() >= 3, "{stats}");
}

#[test]
fn the_sdk_readers_spelling_of_an_approximated_method_is_an_alternate() {
    let headers = vec![(
        "Cams.h".to_owned(),
        "NS_ASSUME_NONNULL_BEGIN\n\
         @interface CMInput : NSObject\n@end\n\
         @interface CMSession : NSObject\n\
         @property (nonatomic, readonly) NSArray<CMInput *> *inputs;\n\
         - (BOOL)canAddInput:(CMInput *)input;\n@end\n\
         NS_ASSUME_NONNULL_END\n"
            .to_owned(),
    )];
    let sdk = read_objc_framework("Cams", &headers, None);
    // the graphs derived `canAdd(_:)` (and merged another selector's spelling into it)
    let mut base = DeclSet {
        decls: vec![Decl {
            module: "Cams".into(),
            path: vec!["CMSession".into(), "canAdd(_:)".into()],
            kind: SymbolKind::Method,
            objc: true,
            approximate: true,
            selector: Some("canAddInput:".into()),
            alternates: vec!["canAddOutput(_:)".into()],
            ..Decl::default()
        }],
        ..DeclSet::default()
    };
    attach_types(&mut base, &sdk);
    let d = &base.decls[0];
    assert_eq!(d.joined(), "CMSession.canAdd(_:)");
    assert_eq!(d.alternates, ["canAddOutput(_:)", "canAddInput(_:)"]);
    assert_eq!(d.ty.as_deref(), Some("Bool"));
}

#[test]
fn a_symbol_merging_two_selectors_keeps_only_the_parameter_types_they_share() {
    let headers = vec![(
        "Plays.h".to_owned(),
        "NS_ASSUME_NONNULL_BEGIN\n\
         typedef struct { long long value; } PYTime;\n\
         @interface PYPlayer : NSObject\n\
         - (void)seekToDate:(NSDate *)date;\n\
         - (void)seekToTime:(PYTime)time;\n\
         - (void)seekToDate:(NSDate *)date completionHandler:(void (^)(BOOL finished))handler;\n@end\n\
         NS_ASSUME_NONNULL_END\n"
            .to_owned(),
    )];
    let sdk = read_objc_framework("Plays", &headers, None);
    let graph = |title: &str, selector: &str, alternates: &[&str]| Decl {
        module: "Plays".into(),
        path: vec!["PYPlayer".into(), title.into()],
        kind: SymbolKind::Method,
        objc: true,
        approximate: true,
        selector: Some(selector.into()),
        alternates: alternates.iter().map(|a| (*a).to_owned()).collect(),
        ..Decl::default()
    };
    // the graphs merged `seekToTime:` into `seekToDate:`'s symbol (its alternate says so)
    let mut base = DeclSet {
        decls: vec![
            graph("seek(to:)", "seekToDate:", &["seekToTime(_:)"]),
            graph(
                "seek(to:completionHandler:)",
                "seekToDate:completionHandler:",
                &["seekToDate(_:completionHandler:)"],
            ),
        ],
        ..DeclSet::default()
    };
    attach_types(&mut base, &sdk);
    let merged = base.decls[0].params.as_ref().expect("params");
    assert_eq!(merged.len(), 1);
    assert_eq!(merged[0].label, "to");
    assert_eq!(merged[0].ty, "", "a Date or a PYTime: unknown");
    // one selector only: its types stay
    let single = base.decls[1].params.as_ref().expect("params");
    assert_eq!(single[0].ty, "Date");
}

#[test]
fn a_graph_symbol_standing_for_several_swift_overloads_is_marked() {
    let sdk = read_interface(
        "Bars",
        "public protocol Style {}\npublic enum Visibility { case visible }\npublic struct Bar {\n  public func background<S>(_ style: S, for edge: Swift.Int) where S : Bars.Style\n  public func background(_ visibility: Bars.Visibility, for edge: Swift.Int)\n  public func tint(_ t: Swift.Int)\n}\n",
    );
    let graph = |path: &[&str]| Decl {
        module: "Bars".into(),
        path: path.iter().map(|s| (*s).to_owned()).collect(),
        kind: SymbolKind::Method,
        ..Decl::default()
    };
    let mut base = DeclSet {
        decls: vec![
            graph(&["Bar", "background(_:for:)"]),
            graph(&["Bar", "tint(_:)"]),
        ],
        ..DeclSet::default()
    };
    attach_types(&mut base, &sdk);
    assert!(base.decls[0].merged, "{:?}", base.decls[0]);
    assert!(base.decls[0].params.is_some());
    assert!(!base.decls[1].merged);
}
