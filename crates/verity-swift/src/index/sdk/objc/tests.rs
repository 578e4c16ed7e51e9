//! Small headers written for these tests, one rule each.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::*;
use crate::version::Domain;

fn read(header: &str, notes: Option<&str>) -> DeclSet {
    read_framework("Demo", &[("Demo.h".to_owned(), header.to_owned())], notes)
}

fn find<'a>(set: &'a DeclSet, path: &str) -> &'a Decl {
    set.decls
        .iter()
        .find(|d| d.joined() == path)
        .unwrap_or_else(|| {
            let all: Vec<String> = set.decls.iter().map(Decl::joined).collect();
            panic!("{path} not among {all:?}")
        })
}

fn params(d: &Decl) -> Vec<(String, String, bool)> {
    d.params
        .as_ref()
        .map(|ps| {
            ps.iter()
                .map(|p| (p.label.clone(), p.ty.clone(), p.default))
                .collect()
        })
        .unwrap_or_default()
}

fn ios_intro(d: &Decl) -> Option<String> {
    d.availability
        .iter()
        .find(|a| a.domain == Some(Domain::Ios))
        .and_then(|a| a.introduced)
        .map(|v| v.to_string())
}

const CLASS: &str = r#"
NS_ASSUME_NONNULL_BEGIN
@class DMItem;
@protocol DMThingDelegate;
API_AVAILABLE(ios(13.0))
@interface DMThing : NSObject <NSCopying, DMThingDelegate>
@property (nonatomic, copy) NSString *title;
@property (nonatomic, nullable) NSArray<NSString *> *tags;
@property (nonatomic, getter=isEnabled) BOOL enabled;
@property (class, nonatomic, readonly) DMThing *sharedThing;
@property (nonatomic, weak, nullable) id<DMThingDelegate> delegate;
- (instancetype)initWithName:(NSString *)name count:(NSInteger)count NS_DESIGNATED_INITIALIZER;
+ (instancetype)thingWithURL:(NSURL *)url;
- (nullable DMItem *)itemForKey:(NSString *)key;
- (void)presentItem:(DMItem *)item animated:(BOOL)animated completion:(void (^ _Nullable)(void))completion;
- (BOOL)writeToURL:(NSURL *)url error:(NSError **)error;
- (void)loadDataWithCompletionHandler:(void (^)(NSData * _Nullable data, NSError * _Nullable error))completionHandler API_AVAILABLE(ios(15.0));
- (NSDictionary<NSString *, id> *)valuesForKeys:(NSSet<NSString *> *)keys;
- (void)insertItem:(DMItem *)item atIndex:(NSUInteger)index;
- (void)doSomething NS_SWIFT_NAME(perform());
- (void)hidden NS_REFINED_FOR_SWIFT;
@end
NS_ASSUME_NONNULL_END
"#;

#[test]
fn classes_members_and_relations() {
    let set = read(CLASS, None);
    let c = find(&set, "DMThing");
    assert_eq!(c.kind, SymbolKind::Class);
    assert!(c.objc);
    assert_eq!(ios_intro(c).as_deref(), Some("13.0"));
    assert!(set.relations.contains(&Relation {
        source: "DMThing".into(),
        target: "NSObject".into(),
        inherits: true
    }));
    assert!(set.relations.contains(&Relation {
        source: "DMThing".into(),
        target: "DMThingDelegate".into(),
        inherits: false
    }));
    // Members inherit the class's availability.
    let t = find(&set, "DMThing.title");
    assert_eq!(t.ty.as_deref(), Some("String"));
    assert_eq!(ios_intro(t).as_deref(), Some("13.0"));
    assert_eq!(find(&set, "DMThing.tags").ty.as_deref(), Some("[String]?"));
    assert_eq!(find(&set, "DMThing.isEnabled").ty.as_deref(), Some("Bool"));
    let shared = find(&set, "DMThing.shared");
    assert_eq!(shared.kind, SymbolKind::TypeProperty);
    assert!(shared.approximate);
    assert_eq!(
        find(&set, "DMThing.delegate").ty.as_deref(),
        Some("(any DMThingDelegate)?")
    );
    assert!(!set.decls.iter().any(|d| d.joined().contains("hidden")));
}

#[test]
fn method_names_follow_the_importer_rules() {
    let set = read(CLASS, None);
    let init = find(&set, "DMThing.init(name:count:)");
    assert_eq!(init.kind, SymbolKind::Init);
    assert_eq!(init.ty.as_deref(), Some("Self"));
    assert_eq!(init.selector.as_deref(), Some("initWithName:count:"));
    assert_eq!(
        params(init),
        [
            ("name".into(), "String".into(), false),
            ("count".into(), "Int".into(), false)
        ]
    );
    // Class factory → init.
    let f = find(&set, "DMThing.init(url:)");
    assert_eq!(f.selector.as_deref(), Some("thingWithURL:"));
    // Preposition split, omit-needless-words.
    let item = find(&set, "DMThing.item(forKey:)");
    assert_eq!(item.ty.as_deref(), Some("DMItem?"));
    assert!(item.approximate);
    let present = find(&set, "DMThing.present(_:animated:completion:)");
    assert_eq!(present.alternates, ["presentItem(_:animated:completion:)"]);
    // Trailing nullable closure: `= nil`.
    assert_eq!(
        params(present)[2],
        ("completion".into(), "(() -> Void)?".into(), true)
    );
    assert_eq!(params(find(&set, "DMThing.insert(_:at:)"))[1].0, "at");
    // NSError ** → throws.
    let w = find(&set, "DMThing.write(to:)");
    assert!(w.throws);
    assert_eq!(w.ty.as_deref(), Some("Bool"));
    assert_eq!(params(w).len(), 1);
    assert!(!find(&set, "DMThing.perform()").approximate);
    let v = find(&set, "DMThing.values(forKeys:)");
    assert_eq!(v.ty.as_deref(), Some("[String: Any]"));
    assert_eq!(params(v)[0].1, "Set<String>");
}

#[test]
fn completion_handlers_get_an_async_variant() {
    let set = read(CLASS, None);
    let sync = find(&set, "DMThing.loadData(completionHandler:)");
    assert_eq!(params(sync)[0].1, "(Data?, (any Error)?) -> Void");
    assert_eq!(ios_intro(sync).as_deref(), Some("15.0"));
    let a = set
        .decls
        .iter()
        .find(|d| d.is_async && d.joined() == "DMThing.loadData()")
        .expect("async variant");
    assert!(a.throws);
    assert_eq!(a.ty.as_deref(), Some("Data"));
    assert_eq!(
        a.selector.as_deref(),
        Some("loadDataWithCompletionHandler:")
    );
}

#[test]
fn nullability_outside_audited_regions_is_optional() {
    let set = read(
        "@interface DMPlain : NSObject\n- (NSString *)name;\n- (void)setName:(nonnull NSString *)n;\n@end\n",
        None,
    );
    assert_eq!(find(&set, "DMPlain.name()").ty.as_deref(), Some("String?"));
    assert_eq!(params(find(&set, "DMPlain.setName(_:)"))[0].1, "String");
}

#[test]
fn protocols_and_optional_requirements() {
    let set = read(
        "NS_ASSUME_NONNULL_BEGIN\n@protocol DMThingDelegate <NSObject>\n- (void)thingDidFinish:(id)thing;\n@optional\n\
         - (BOOL)thing:(id)thing shouldOpenItemAtURL:(NSURL *)url;\n@end\n\
         @interface DMThingDelegate : NSObject\n@end\nNS_ASSUME_NONNULL_END\n",
        None,
    );
    let p = find(&set, "DMThingDelegateProtocol");
    assert_eq!(p.kind, SymbolKind::Protocol);
    assert!(
        set.relations
            .iter()
            .any(|r| r.source == "DMThingDelegateProtocol" && r.target == "NSObjectProtocol")
    );
    let req = find(&set, "DMThingDelegateProtocol.thingDidFinish(_:)");
    assert!(!req.optional_requirement);
    let opt = find(&set, "DMThingDelegateProtocol.thing(_:shouldOpenItemAt:)");
    assert!(opt.optional_requirement);
    assert_eq!(params(opt)[0].1, "Any");
}

#[test]
fn categories_attach_to_their_class() {
    let set = read(
        "NS_ASSUME_NONNULL_BEGIN\n@interface NSString (DMExtras)\n- (NSUInteger)dm_wordCount API_AVAILABLE(ios(16.0));\n@end\nNS_ASSUME_NONNULL_END\n",
        None,
    );
    let m = find(&set, "NSString.dm_wordCount()");
    assert_eq!(m.module, "Demo");
    assert_eq!(m.ty.as_deref(), Some("Int"));
    assert!(!set.decls.iter().any(|d| d.kind == SymbolKind::Class));
}

#[test]
fn enums_options_and_error_enums() {
    let set = read(
        r#"
typedef NS_ENUM(NSInteger, DMPlaybackStyle) {
    DMPlaybackStyleNormal,
    DMPlaybackStyleFastForward API_AVAILABLE(ios(14.0)),
    DMPlaybackStyleSlow NS_SWIFT_NAME(slowMotion),
} API_AVAILABLE(ios(12.0));
typedef NS_OPTIONS(NSUInteger, DMWriteOptions) {
    DMWriteOptionsAtomic = 1 << 0,
    DMWriteOptionsNoOverwrite = 1 << 1,
};
typedef NS_OPTIONS(NSUInteger, DMFlushOptions) {
    DMFlushOptionWaitForDisk = 1,
};
extern NSErrorDomain const DMErrorDomain;
typedef NS_ERROR_ENUM(DMErrorDomain, DMErrorCode) {
    DMErrorUnknown = 1,
    DMErrorTimedOut = 2,
};
NS_ASSUME_NONNULL_BEGIN
@interface DMWriter : NSObject
- (BOOL)writeData:(NSData *)data options:(DMWriteOptions)options error:(NSError **)error;
- (void)setStyle:(DMPlaybackStyle)style;
@end
NS_ASSUME_NONNULL_END
"#,
        None,
    );
    assert_eq!(find(&set, "DMPlaybackStyle").kind, SymbolKind::Enum);
    let ff = find(&set, "DMPlaybackStyle.fastForward");
    assert_eq!(ff.kind, SymbolKind::EnumCase);
    assert_eq!(ios_intro(ff).as_deref(), Some("14.0"));
    assert_eq!(
        ios_intro(find(&set, "DMPlaybackStyle.normal")).as_deref(),
        Some("12.0")
    );
    assert!(!find(&set, "DMPlaybackStyle.slowMotion").approximate);
    assert_eq!(find(&set, "DMWriteOptions").kind, SymbolKind::Struct);
    // a single case shares the type's words, its plural `Options` included
    find(&set, "DMFlushOptions.waitForDisk");
    let atomic = find(&set, "DMWriteOptions.atomic");
    assert_eq!(atomic.kind, SymbolKind::TypeProperty);
    assert_eq!(find(&set, "DMError").kind, SymbolKind::Struct);
    assert_eq!(find(&set, "DMError.Code").kind, SymbolKind::Enum);
    find(&set, "DMError.Code.timedOut");
    // An option set whose name ends in `Options` defaults to `[]`.
    let w = find(&set, "DMWriter.write(_:options:)");
    assert_eq!(
        params(w)[1],
        ("options".into(), "DMWriteOptions".into(), true)
    );
    assert_eq!(
        params(find(&set, "DMWriter.setStyle(_:)"))[0].1,
        "DMPlaybackStyle"
    );
}

#[test]
fn typed_enums_functions_and_globals() {
    let set = read(
        r#"
NS_ASSUME_NONNULL_BEGIN
typedef NSString * DMMoodKey NS_TYPED_ENUM API_AVAILABLE(ios(15.0));
extern DMMoodKey const DMMoodKeyHappy;
extern DMMoodKey const DMMoodSleepyKey;
extern DMMoodKey const kDMMoodCalm;
extern NSString * const DMLibraryVersion;
extern CGFloat DMDefaultSpacing(void);
extern CGRect DMRectMake(CGFloat x, CGFloat y) NS_SWIFT_NAME(CGRect.init(dmX:y:));
@interface DMBox : NSObject
- (void)fillWithOptions:(nullable NSDictionary<NSString *, id> *)options;
@property (copy, nullable) NSURL *URL;
@property (nonatomic, assign) IBInspectable CGFloat cornerRadius;
extern DMMoodKey const DMMoodGrumpyKey API_AVAILABLE(ios(16.0));
@end
NS_ASSUME_NONNULL_END
"#,
        None,
    );
    assert_eq!(find(&set, "DMMoodKey").kind, SymbolKind::Struct);
    let happy = find(&set, "DMMoodKey.happy");
    assert_eq!(happy.kind, SymbolKind::TypeProperty);
    assert_eq!(happy.ty.as_deref(), Some("DMMoodKey"));
    // only the word prefix shared with the typedef's C name goes (a `k` set aside): the
    // trailing `Key` stays
    assert_eq!(
        find(&set, "DMMoodKey.sleepyKey").c_name.as_deref(),
        Some("DMMoodSleepyKey")
    );
    find(&set, "DMMoodKey.calm");
    // a global declared between an interface's methods is a global all the same
    assert_eq!(
        find(&set, "DMMoodKey.grumpyKey").kind,
        SymbolKind::TypeProperty
    );
    // a property's leading initialism is lowercased
    assert_eq!(find(&set, "DMBox.url").ty.as_deref(), Some("URL?"));
    // Interface Builder's markers are attributes
    assert_eq!(
        find(&set, "DMBox.cornerRadius").ty.as_deref(),
        Some("CGFloat")
    );
    assert_eq!(find(&set, "DMLibraryVersion").ty.as_deref(), Some("String"));
    let f = find(&set, "DMDefaultSpacing()");
    assert_eq!(f.kind, SymbolKind::Func);
    assert_eq!(f.ty.as_deref(), Some("CGFloat"));
    let i = find(&set, "CGRect.init(dmX:y:)");
    assert_eq!(i.kind, SymbolKind::Init);
    assert_eq!(params(i)[0].1, "CGFloat");
    // Nullable options dictionary: `= [:]`.
    let fill = find(&set, "DMBox.fill(withOptions:)");
    assert_eq!(
        params(fill)[0],
        ("withOptions".into(), "[String: Any]?".into(), true)
    );
}

#[test]
fn api_notes_names_win_when_their_arity_matches() {
    let notes = "---\nName: Demo\nClasses:\n- Name: DMThing\n  Methods:\n  - Selector: \"itemForKey:\"\n    MethodKind: Instance\n    SwiftName: \"lookUp(_:)\"\n  \
                 - Selector: \"insertItem:atIndex:\"\n    MethodKind: Instance\n    SwiftName: \"put(_:)\"\n  \
                 - Selector: \"valuesForKeys:\"\n    MethodKind: Instance\n    SwiftPrivate: true\n";
    let set = read(CLASS, Some(notes));
    let l = find(&set, "DMThing.lookUp(_:)");
    assert!(!l.approximate);
    // Wrong arity: ignored, the importer rules apply.
    find(&set, "DMThing.insert(_:at:)");
    assert!(
        !set.decls
            .iter()
            .any(|d| d.selector.as_deref() == Some("valuesForKeys:"))
    );
}

#[test]
fn preprocessor_branches_and_framework_macros() {
    let set = read(
        r#"
#define DM_EXTERN extern __attribute__((visibility("default")))
#define DM_AVAILABLE(v) API_AVAILABLE(ios(v))
#if TARGET_OS_OSX
DM_EXTERN NSString * const DMMacOnly;
#else
DM_EXTERN NSString * const DMPhoneToo DM_AVAILABLE(16.4);
#endif
API_DEPRECATED_WITH_REPLACEMENT("DMNew", ios(9.0, 13.0))
@interface DMOld : NSObject
@end
API_UNAVAILABLE(ios)
@interface DMMacThing : NSObject
@end
"#,
        None,
    );
    assert!(!set.decls.iter().any(|d| d.joined() == "DMMacOnly"));
    assert_eq!(ios_intro(find(&set, "DMPhoneToo")).as_deref(), Some("16.4"));
    let old = find(&set, "DMOld");
    let ios = old
        .availability
        .iter()
        .find(|a| a.domain == Some(Domain::Ios))
        .unwrap();
    assert_eq!(
        ios.deprecated.map(|v| v.to_string()).as_deref(),
        Some("13.0")
    );
    assert_eq!(ios.renamed.as_deref(), Some("DMNew"));
    let mac = find(&set, "DMMacThing");
    assert!(
        mac.availability
            .iter()
            .any(|a| a.domain == Some(Domain::Ios) && a.unavailable)
    );
}

#[test]
fn foundation_classes_drop_ns_and_bridge() {
    let set = read(
        "NS_ASSUME_NONNULL_BEGIN\n@interface NSFileManager : NSObject\n@property (class, readonly, strong) NSFileManager *defaultManager;\n\
         - (nullable NSArray<NSURL *> *)contentsOfDirectoryAtURL:(NSURL *)url error:(NSError **)error;\n@end\nNS_ASSUME_NONNULL_END\n",
        None,
    );
    find(&set, "FileManager");
    assert_eq!(
        find(&set, "FileManager.default").ty.as_deref(),
        Some("FileManager")
    );
    let c = find(&set, "FileManager.contentsOfDirectory(at:)");
    assert!(c.throws);
    assert_eq!(c.ty.as_deref(), Some("[URL]?"));
}

#[test]
fn bad_sdk_directory_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    assert!(read_objc_sdk(dir.path()).is_err());
    let fw = dir
        .path()
        .join("System/Library/Frameworks/Demo.framework/Headers");
    std::fs::create_dir_all(&fw).unwrap();
    std::fs::write(fw.join("Demo.h"), "@interface DMX : NSObject\n@end\n").unwrap();
    std::fs::write(fw.join("Demo.apinotes"), "Classes: [").unwrap();
    let err = read_objc_sdk(dir.path()).unwrap_err().to_string();
    assert!(err.contains("API notes"), "{err}");
    std::fs::write(fw.join("Demo.apinotes"), "Name: Demo\n").unwrap();
    let set = read_objc_sdk(dir.path()).unwrap();
    find(&set, "DMX");
}

/// Compares the reader's output on a real SDK with the shared graphs' Objective-C symbols.
/// Run with `VERITY_OBJC_SDK=<sdk root> cargo test -p verity-swift objc_against_graphs -- --ignored --nocapture`.
#[test]
#[ignore = "needs an extracted SDK (VERITY_OBJC_SDK) and the shared graphs"]
fn objc_against_graphs() {
    let Ok(sdk) = std::env::var("VERITY_OBJC_SDK") else {
        panic!("set VERITY_OBJC_SDK to the SDK root");
    };
    let graphs = std::env::var("VERITY_GRAPHS").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/data/apple-sdk-symbols/ios17.4"
        )
        .to_owned()
    });
    let t0 = std::time::Instant::now();
    let ours = read_objc_sdk(Path::new(&sdk)).expect("read SDK");
    eprintln!("read {} decls in {:?}", ours.decls.len(), t0.elapsed());
    let callables: Vec<&Decl> = ours.decls.iter().filter(|d| d.params.is_some()).collect();
    let defaults = callables
        .iter()
        .flat_map(|d| d.params.iter().flatten())
        .filter(|p| p.default)
        .count();
    eprintln!(
        "typed: {} of {} decls have a type; {} callables with typed parameters, {} defaulted parameters; {} throwing, {} async variants, {} approximate names",
        ours.decls.iter().filter(|d| d.ty.is_some()).count(),
        ours.decls.len(),
        callables.len(),
        defaults,
        ours.decls.iter().filter(|d| d.throws).count(),
        ours.decls.iter().filter(|d| d.is_async).count(),
        ours.decls.iter().filter(|d| d.approximate).count(),
    );
    let theirs = crate::index::read_graphs(&[graphs]).expect("read graphs");
    let key = |d: &Decl| {
        (
            d.path[..d.path.len() - 1].join("."),
            d.selector.clone().unwrap_or_default(),
            d.is_async,
        )
    };
    let mut by_key: HashMap<(String, String, bool), Vec<&Decl>> = HashMap::new();
    for d in &ours.decls {
        if d.selector.is_some() {
            by_key.entry(key(d)).or_default().push(d);
        }
    }
    let mut per_module: std::collections::BTreeMap<String, [usize; 5]> = Default::default();
    let mut misses: Vec<String> = Vec::new();
    let mut wrong: Vec<String> = Vec::new();
    for g in theirs
        .decls
        .iter()
        .filter(|d| d.objc && d.selector.is_some())
    {
        let e = per_module.entry(g.module.clone()).or_default();
        e[0] += 1;
        let Some(found) = by_key.get(&key(g)) else {
            if misses.len() < 4000 {
                misses.push(format!(
                    "{} {} [{}]",
                    g.module,
                    g.joined(),
                    g.selector.as_deref().unwrap_or("")
                ));
            }
            continue;
        };
        e[1] += 1;
        let title = g.path.last();
        if found.iter().any(|d| d.path.last() == title) {
            e[2] += 1;
        } else if wrong.len() < 4000 {
            wrong.push(format!(
                "{} {} ours={}",
                g.module,
                g.joined(),
                found[0].path.last().map_or("", String::as_str)
            ));
        }
        if found.iter().any(|d| {
            d.params
                .as_ref()
                .is_some_and(|p| p.iter().all(|p| !p.ty.is_empty()))
        }) {
            e[3] += 1;
        }
        if found.iter().any(|d| d.ty.is_some()) {
            e[4] += 1;
        }
    }
    let mut tot = [0usize; 5];
    for (m, v) in &per_module {
        eprintln!(
            "{m:24} graph {:6} matched {:6} same-title {:6} typed-params {:6} typed-return {:6}",
            v[0], v[1], v[2], v[3], v[4]
        );
        for k in 0..5 {
            tot[k] += v[k];
        }
    }
    eprintln!(
        "{:24} graph {:6} matched {:6} same-title {:6} typed-params {:6} typed-return {:6}",
        "TOTAL", tot[0], tot[1], tot[2], tot[3], tot[4]
    );
    // Properties and other members by path.
    let ours_paths: HashSet<(String, String)> = ours
        .decls
        .iter()
        .map(|d| (d.joined(), d.kind.as_str().to_owned()))
        .collect();
    let ours_joined: HashSet<String> = ours.decls.iter().map(Decl::joined).collect();
    let mut pk: std::collections::BTreeMap<&str, [usize; 3]> = Default::default();
    for g in theirs
        .decls
        .iter()
        .filter(|d| d.objc && d.selector.is_none())
    {
        let e = pk.entry(g.kind.as_str()).or_default();
        e[0] += 1;
        if ours_joined.contains(&g.joined()) {
            e[1] += 1;
        }
        if ours_paths.contains(&(g.joined(), g.kind.as_str().to_owned())) {
            e[2] += 1;
        }
    }
    for (k, v) in &pk {
        eprintln!(
            "non-selector {k:22} graph {:6} same-path {:6} same-path+kind {:6}",
            v[0], v[1], v[2]
        );
    }
    if let Ok(out) = std::env::var("VERITY_OBJC_REPORT") {
        let _ = std::fs::write(format!("{out}.misses"), misses.join("\n"));
        let _ = std::fs::write(format!("{out}.wrong"), wrong.join("\n"));
    }
}

#[test]
#[ignore = "debugging aid: prints the declarations of VERITY_OBJC_DUMP (framework/Header.h)"]
fn objc_dump_header() {
    let (Ok(sdk), Ok(which)) = (
        std::env::var("VERITY_OBJC_SDK"),
        std::env::var("VERITY_OBJC_DUMP"),
    ) else {
        return;
    };
    let (fw, h) = which.split_once('/').unwrap();
    let dir = Path::new(&sdk).join(format!("System/Library/Frameworks/{fw}.framework/Headers"));
    let text = std::fs::read_to_string(dir.join(h)).unwrap();
    let set = read_framework(fw, &[(h.to_owned(), text)], None);
    for d in &set.decls {
        eprintln!(
            "{:?} {} sel={:?} ty={:?} params={:?}",
            d.kind,
            d.joined(),
            d.selector,
            d.ty,
            d.params.as_ref().map(|p| p
                .iter()
                .map(|p| format!("{}:{}{}", p.label, p.ty, if p.default { "=d" } else { "" }))
                .collect::<Vec<_>>())
        );
    }
}

#[test]
fn a_type_name_that_names_a_property_stays_in_the_base_name() {
    // the importer keeps `Input` in `canAddInput:` because the class has `inputs` (plural
    // or singular, inherited too); `Output` has no property and goes
    let set = read(
        "NS_ASSUME_NONNULL_BEGIN\n\
         @interface CMInput : NSObject\n@end\n\
         @interface CMOutput : NSObject\n@end\n\
         @interface CMBaseSession : NSObject\n\
         @property (nonatomic, readonly) NSArray<CMInput *> *inputs;\n@end\n\
         @interface CMSession : CMBaseSession\n\
         - (BOOL)canAddInput:(CMInput *)input;\n\
         - (void)addInput:(CMInput *)input;\n\
         - (void)addOutput:(CMOutput *)output;\n@end\n\
         NS_ASSUME_NONNULL_END\n",
        None,
    );
    find(&set, "CMSession.canAddInput(_:)");
    find(&set, "CMSession.addInput(_:)");
    find(&set, "CMSession.add(_:)");
}

#[test]
fn cf_enum_cases_with_legacy_availability_macros() {
    // a `k`-prefixed CF_ENUM whose cases carry `CF_ENUM_AVAILABLE` / `CF_ENUM_DEPRECATED`,
    // first after C headers' region markers (Security's `SecTrustResultType`)
    let set = read(
        r#"
__BEGIN_DECLS
CF_ASSUME_NONNULL_BEGIN
CF_IMPLICIT_BRIDGING_ENABLED
typedef CF_ENUM(uint32_t, DMTrustVerdict) {
    kDMTrustVerdictInvalid  CF_ENUM_AVAILABLE(10_3, 2_0) = 0,
    kDMTrustVerdictProceed  CF_ENUM_AVAILABLE(10_3, 2_0) = 1,
    kDMTrustVerdictConfirm  CF_ENUM_DEPRECATED(10_3, 10_9, 2_0, 7_0) = 2,
    kDMTrustVerdictOtherError  CF_ENUM_AVAILABLE(10_3, 2_0) = 7
};
CF_IMPLICIT_BRIDGING_DISABLED
CF_ASSUME_NONNULL_END
__END_DECLS
"#,
        None,
    );
    assert_eq!(find(&set, "DMTrustVerdict").kind, SymbolKind::Enum);
    let proceed = find(&set, "DMTrustVerdict.proceed");
    assert_eq!(ios_intro(proceed).as_deref(), Some("2.0"));
    find(&set, "DMTrustVerdict.otherError");
    let confirm = find(&set, "DMTrustVerdict.confirm");
    assert!(
        confirm
            .availability
            .iter()
            .any(|a| a.domain == Some(Domain::Ios) && a.deprecated.is_some()),
        "{:?}",
        confirm.availability
    );
}

#[test]
fn a_named_constant_of_a_typed_enum_is_a_member_of_it() {
    // the typedef sits between an interface's methods, as CIContext.h's does
    let header = r#"
NS_ASSUME_NONNULL_BEGIN
@interface DMMood : NSObject
- (void)reset;
typedef NSString * DMMoodKey NS_TYPED_ENUM;
@end
extern DMMoodKey const kDMMoodCalm;
extern NSString * const DMLibraryVersion;
NS_ASSUME_NONNULL_END
"#;
    let notes = "---\nName: Demo\nGlobals:\n- Name: kDMMoodCalm\n  SwiftName: relaxed\n\
                 - Name: DMLibraryVersion\n  SwiftName: libraryVersion\n";
    let set = read(header, Some(notes));
    let calm = find(&set, "DMMoodKey.relaxed");
    assert_eq!(calm.kind, SymbolKind::TypeProperty);
    assert!(!calm.approximate);
    assert_eq!(calm.ty.as_deref(), Some("DMMoodKey"));
    assert!(!set.decls.iter().any(|d| d.joined() == "relaxed"));
    // a constant of another type keeps its top-level name
    assert_eq!(find(&set, "libraryVersion").kind, SymbolKind::Var);
}
