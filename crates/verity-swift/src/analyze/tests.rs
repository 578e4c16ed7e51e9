//! Type-aware analysis against a small typed index written here: implicit members through
//! the expected type, closure parameters of known APIs, property wrappers, member chains,
//! locals that must not shadow implicit members, defaulted parameters.

use std::sync::Arc;

use crate::check::{CheckOptions, CriterionReport, FileReport, check_source};
use crate::deprecations::DeprecationMap;
use crate::index::{Availability, Decl, DeclSet, Index, Param, Relation, SymbolKind, split_path};
use crate::version::{Domain, Target, Version};

use SymbolKind as K;

struct Sdk(DeclSet);

impl Sdk {
    fn new() -> Sdk {
        let mut s = DeclSet {
            platform: Target::parse("ios17.4"),
            ..DeclSet::default()
        };
        for m in ["Swift", "Foundation", "SwiftUI", "SwiftData", "UIKit"] {
            s.modules.insert(m.to_owned());
        }
        Sdk(s)
    }

    fn add(&mut self, module: &str, path: &str, kind: K, ty: Option<&str>) -> &mut Decl {
        self.0.decls.push(Decl {
            module: module.to_owned(),
            path: split_path(path).into_iter().map(str::to_owned).collect(),
            kind,
            ty: ty.map(str::to_owned),
            ..Decl::default()
        });
        self.0.decls.last_mut().expect("pushed")
    }

    fn ty(&mut self, module: &str, path: &str, kind: K) -> &mut Sdk {
        self.add(module, path, kind, None);
        self
    }

    fn member(&mut self, module: &str, path: &str, kind: K, ty: &str) -> &mut Sdk {
        self.add(module, path, kind, Some(ty));
        self
    }

    fn func(
        &mut self,
        module: &str,
        path: &str,
        kind: K,
        ty: &str,
        params: &[(&str, &str, bool)],
        generics: Option<&str>,
    ) -> &mut Sdk {
        let d = self.add(module, path, kind, Some(ty));
        d.params = Some(
            params
                .iter()
                .map(|(l, t, d)| Param {
                    label: (*l).to_owned(),
                    ty: (*t).to_owned(),
                    default: *d,
                })
                .collect(),
        );
        d.generics = generics.map(str::to_owned);
        self
    }

    fn conforms(&mut self, source: &str, target: &str) -> &mut Sdk {
        self.0.relations.push(Relation {
            source: source.to_owned(),
            target: target.to_owned(),
            inherits: false,
        });
        self
    }

    fn index(&self) -> Index {
        self.0.clone().into_index()
    }
}

/// Foundation, Swift concurrency, SwiftUI and SwiftData facts, typed, for the snippets.
fn sdk() -> Index {
    let mut s = Sdk::new();
    s.ty("Swift", "Int", K::Struct)
        .ty("Swift", "Bool", K::Struct)
        .func("Swift", "Bool.toggle()", K::Method, "Void", &[], None)
        .ty("Swift", "String", K::Struct)
        .func("Swift", "String.uppercased()", K::Method, "String", &[], None)
        .ty("Swift", "Error", K::Protocol)
        .ty("Swift", "Array", K::Struct)
        .func(
            "Swift",
            "Array.map(_:)",
            K::Method,
            "[T]",
            &[("_", "(Element) throws -> T", false)],
            Some("Element, T"),
        )
        .func(
            "Swift",
            "Array.append(_:)",
            K::Method,
            "Void",
            &[("_", "Element", false)],
            Some("Element"),
        )
        .member("Swift", "Array.count", K::Property, "Int")
        .ty("Swift", "Optional", K::Enum)
        .member("Swift", "Optional.none", K::EnumCase, "")
        .ty("Swift", "TaskPriority", K::Struct)
        .ty("Swift", "ThrowingTaskGroup", K::Struct)
        .func(
            "Swift",
            "ThrowingTaskGroup.addTask(priority:operation:)",
            K::Method,
            "Void",
            &[
                ("priority", "TaskPriority?", true),
                ("operation", "() async throws -> ChildTaskResult", false),
            ],
            Some("ChildTaskResult, Failure: Error"),
        )
        .func(
            "Swift",
            "withThrowingTaskGroup(of:returning:body:)",
            K::Func,
            "GroupResult",
            &[
                ("of", "ChildTaskResult.Type", false),
                ("returning", "GroupResult.Type", true),
                (
                    "body",
                    "(inout ThrowingTaskGroup<ChildTaskResult, any Error>) async throws -> GroupResult",
                    false,
                ),
            ],
            Some("ChildTaskResult, GroupResult"),
        );
    // generic parameters of the generic types
    for d in &mut s.0.decls {
        match d.joined().as_str() {
            "Array" | "Optional" => d.generics = Some("Element".into()),
            "ThrowingTaskGroup" => d.generics = Some("ChildTaskResult, Failure: Error".into()),
            _ => {}
        }
    }
    s.ty("Foundation", "Date", K::Struct)
        .func("Foundation", "Date.init()", K::Init, "Self", &[], None)
        .func(
            "Foundation",
            "Date.formatted(date:time:)",
            K::Method,
            "String",
            &[
                ("date", "Date.FormatStyle.DateStyle", false),
                ("time", "Date.FormatStyle.TimeStyle", false),
            ],
            None,
        )
        .ty("Foundation", "Date.FormatStyle", K::Struct)
        .ty("Foundation", "Date.FormatStyle.DateStyle", K::Struct)
        .member(
            "Foundation",
            "Date.FormatStyle.DateStyle.abbreviated",
            K::TypeProperty,
            "Date.FormatStyle.DateStyle",
        )
        .ty("Foundation", "Date.FormatStyle.TimeStyle", K::Struct)
        .member(
            "Foundation",
            "Date.FormatStyle.TimeStyle.shortened",
            K::TypeProperty,
            "Date.FormatStyle.TimeStyle",
        )
        .ty("Foundation", "URL", K::Struct)
        .func(
            "Foundation",
            "URL.init(string:)",
            K::Init,
            "Self?",
            &[("string", "String", false)],
            None,
        )
        .member("Foundation", "URL.host", K::Property, "String?")
        .func(
            "Foundation",
            "URL.appending(path:)",
            K::Method,
            "Self",
            &[("path", "String", false)],
            None,
        )
        .ty("Foundation", "DateFormatter", K::Class)
        .ty("Foundation", "DateFormatter.Style", K::Enum)
        .member("Foundation", "DateFormatter.Style.medium", K::EnumCase, "")
        .ty("Foundation", "JSONDecoder", K::Class)
        .func(
            "Foundation",
            "JSONDecoder.init()",
            K::Init,
            "Self",
            &[],
            None,
        )
        .member(
            "Foundation",
            "JSONDecoder.dateDecodingStrategy",
            K::Property,
            "JSONDecoder.DateDecodingStrategy",
        )
        .ty("Foundation", "JSONDecoder.DateDecodingStrategy", K::Enum)
        .member(
            "Foundation",
            "JSONDecoder.DateDecodingStrategy.iso8601",
            K::EnumCase,
            "",
        )
        .member(
            "Foundation",
            "JSONDecoder.DateDecodingStrategy.deferredToDate",
            K::EnumCase,
            "",
        );
    s.ty("SwiftUI", "View", K::Protocol)
        .func(
            "SwiftUI",
            "View.font(_:)",
            K::Method,
            "some View",
            &[("_", "Font?", false)],
            None,
        )
        .func(
            "SwiftUI",
            "View.foregroundStyle(_:)",
            K::Method,
            "some View",
            &[("_", "S", false)],
            Some("S: ShapeStyle"),
        )
        .func(
            "SwiftUI",
            "View.onAppear(perform:)",
            K::Method,
            "some View",
            &[("perform", "(() -> Void)?", true)],
            None,
        )
        .ty("SwiftUI", "Text", K::Struct)
        .func(
            "SwiftUI",
            "Text.init(_:)",
            K::Init,
            "Self",
            &[("_", "String", false)],
            None,
        )
        .conforms("Text", "View")
        .ty("SwiftUI", "Font", K::Struct)
        .member("SwiftUI", "Font.title", K::TypeProperty, "Font")
        .member("SwiftUI", "Font.body", K::TypeProperty, "Font")
        .func("SwiftUI", "Font.bold()", K::Method, "Font", &[], None)
        .ty("SwiftUI", "Font.Weight", K::Struct)
        .member(
            "SwiftUI",
            "Font.Weight.heavy",
            K::TypeProperty,
            "Font.Weight",
        )
        .ty("SwiftUI", "ShapeStyle", K::Protocol)
        .member(
            "SwiftUI",
            "ShapeStyle.secondary",
            K::TypeProperty,
            "HierarchicalShapeStyle",
        )
        .ty("SwiftUI", "HierarchicalShapeStyle", K::Struct)
        .conforms("HierarchicalShapeStyle", "ShapeStyle")
        .ty("SwiftUI", "Binding", K::Struct)
        .member("SwiftUI", "Binding.wrappedValue", K::Property, "Value")
        .ty("SwiftUI", "State", K::Struct)
        .ty("SwiftUI", "Environment", K::Struct)
        .ty("SwiftUI", "EnvironmentValues", K::Struct)
        .member(
            "SwiftUI",
            "EnvironmentValues.modelContext",
            K::Property,
            "ModelContext",
        )
        .ty("SwiftData", "ModelContext", K::Class)
        .func(
            "SwiftData",
            "ModelContext.insert(_:)",
            K::Method,
            "Void",
            &[("_", "T", false)],
            Some("T"),
        )
        .func(
            "SwiftData",
            "ModelContext.save()",
            K::Method,
            "Void",
            &[],
            None,
        )
        .ty("SwiftData", "Query", K::Struct);
    for d in &mut s.0.decls {
        if d.joined() == "Binding" || d.joined() == "State" {
            d.generics = Some("Value".into());
        }
    }
    // an Objective-C method with a defaulted parameter, and a deprecated overload
    s.ty("UIKit", "UIThing", K::Class)
        .func("UIKit", "UIThing.init()", K::Init, "Self", &[], None)
        .func(
            "UIKit",
            "UIThing.configure(with:animated:)",
            K::Method,
            "Void",
            &[("with", "Int", false), ("animated", "Bool", true)],
            None,
        )
        .func(
            "UIKit",
            "UIThing.configure(with:)",
            K::Method,
            "Void",
            &[("with", "Int", false)],
            None,
        );
    // a collection protocol's member typed through `Self.Element`
    s.ty("Swift", "Collection", K::Protocol)
        .member("Swift", "Collection.first", K::Property, "Self.Element?")
        .conforms("Array", "Collection");
    // standard-library sequence members: `filter` declared twice with different result
    // types, `enumerated()` whose element is a tuple, `Array(_:)` taking a sequence's elements
    s.ty("Swift", "Sequence", K::Protocol)
        .ty("Swift", "RangeReplaceableCollection", K::Protocol)
        .func(
            "Swift",
            "Sequence.filter(_:)",
            K::Method,
            "[Self.Element]",
            &[("_", "(Self.Element) throws -> Bool", false)],
            None,
        )
        .func(
            "Swift",
            "RangeReplaceableCollection.filter(_:)",
            K::Method,
            "Self",
            &[("_", "(Self.Element) throws -> Bool", false)],
            None,
        )
        .func(
            "Swift",
            "Sequence.sorted(by:)",
            K::Method,
            "[Self.Element]",
            &[("by", "(Self.Element, Self.Element) throws -> Bool", false)],
            None,
        )
        .func(
            "Swift",
            "Sequence.enumerated()",
            K::Method,
            "EnumeratedSequence<Self>",
            &[],
            None,
        )
        .func(
            "Swift",
            "Sequence.map(_:)",
            K::Method,
            "[T]",
            &[("_", "(Self.Element) throws -> T", false)],
            Some("T"),
        )
        .func(
            "Swift",
            "Int.isMultiple(of:)",
            K::Method,
            "Bool",
            &[("of", "Int", false)],
            None,
        )
        .ty("Swift", "EnumeratedSequence", K::Struct)
        .member(
            "Swift",
            "EnumeratedSequence.Element",
            K::Typealias,
            "(offset: Int, element: Base.Element)",
        )
        .func(
            "Swift",
            "Array.init(_:)",
            K::Init,
            "Self",
            &[("_", "S", false)],
            Some("S: Sequence, Element == S.Element"),
        )
        .conforms("Array", "Sequence")
        .conforms("Array", "RangeReplaceableCollection")
        .conforms("EnumeratedSequence", "Sequence");
    for d in &mut s.0.decls {
        if d.joined() == "EnumeratedSequence" {
            d.generics = Some("Base: Sequence".into());
        }
    }
    // a generic initializer whose closure takes `Data.Element`
    s.ty("SwiftUI", "Roster", K::Struct).func(
        "SwiftUI",
        "Roster.init(_:rowContent:)",
        K::Init,
        "Self",
        &[
            ("_", "Data", false),
            ("rowContent", "(Data.Element) -> RowContent", false),
        ],
        Some("Data: RandomAccessCollection, RowContent: View"),
    );
    // a generic type whose initializer takes its own `Data` (no generics of its own)
    s.ty("SwiftUI", "Each", K::Struct).func(
        "SwiftUI",
        "Each.init(_:content:)",
        K::Init,
        "Self",
        &[
            ("_", "Data", false),
            ("content", "(Data.Element) -> Content", false),
        ],
        None,
    );
    if let Some(d) = s.0.decls.iter_mut().find(|d| d.joined() == "Each") {
        d.generics = Some("Data, Content".into());
    }
    // a class whose subclasses reach its properties through implicit `self`
    // an imported C struct: a field, and an overlay initializer of another type
    s.ty("UIKit", "UIPad", K::Struct)
        .member("UIKit", "UIPad.width", K::Property, "Font.Weight")
        .func(
            "UIKit",
            "UIPad.init(width:)",
            K::Init,
            "Self",
            &[("width", "Int", false)],
            None,
        );
    s.ty("UIKit", "UIGauge", K::Class)
        .member("UIKit", "UIGauge.tint", K::Property, "UIGauge.Tint")
        .member("UIKit", "UIGauge.legacyInset", K::Property, "Int")
        // a current method sharing the deprecated property's base name
        .func(
            "UIKit",
            "UIGauge.legacyInset(scaled:)",
            K::Method,
            "Int",
            &[("scaled", "Bool", true)],
            None,
        )
        .ty("UIKit", "UIGauge.Tint", K::Enum)
        .member("UIKit", "UIGauge.Tint.bright", K::EnumCase, "")
        .member("UIKit", "UIGauge.Tint.dim", K::EnumCase, "");
    // a completion-handler method (the async variant is the importer's) and a nested type
    s.ty("UIKit", "UIFetcher", K::Class)
        .func(
            "UIKit",
            "UIFetcher.reloadFetcher(completionHandler:)",
            K::Method,
            "Void",
            &[("completionHandler", "UIFetcher.Handler", false)],
            None,
        )
        .func(
            "UIKit",
            "UIFetcher.fetch(_:completionHandler:)",
            K::Method,
            "Void",
            &[
                ("_", "String", false),
                ("completionHandler", "UIFetcher.Handler", false),
            ],
            None,
        )
        .member(
            "UIKit",
            "UIFetcher.Handler",
            K::Typealias,
            "([URL]?, (any Error)?) -> Void",
        )
        .func(
            "UIKit",
            "UIFetcher.pair(for:)",
            K::Method,
            "(URL, Date)",
            &[("for", "String", false)],
            None,
        )
        .ty("UIKit", "UIFetcher.Request", K::Class)
        .member("UIKit", "UIFetcher.Request.url", K::Property, "URL?");
    // a protocol's static factories, reached as implicit members of an opaque result
    s.ty("SwiftUI", "Outcome", K::Protocol)
        .ty("SwiftUI", "GivesDialog", K::Protocol)
        .func(
            "SwiftUI",
            "Outcome.result()",
            K::TypeMethod,
            "Self",
            &[],
            None,
        )
        .func(
            "SwiftUI",
            "Outcome.result(dialog:)",
            K::TypeMethod,
            "Self",
            &[("dialog", "String", false)],
            None,
        )
        .func(
            "SwiftUI",
            "Outcome.result(value:dialog:)",
            K::TypeMethod,
            "Self",
            &[("value", "Int", false), ("dialog", "String", true)],
            None,
        );
    // another type's factory with other labels (what a name-only lookup would find)
    s.ty("SwiftUI", "Receipt", K::Struct).func(
        "SwiftUI",
        "Receipt.result(message:)",
        K::TypeMethod,
        "Receipt",
        &[("message", "String", false)],
        None,
    );
    // C structs whose Swift overlay conforms to standard-library protocols the graphs omit:
    // a hidden one whose members are all underscored, and one the index does not know
    s.ty("UIKit", "UISpan", K::Struct)
        .member("UIKit", "UISpan.start", K::Property, "Double")
        .conforms("UISpan", "_ObjectiveCBridgeable")
        .ty("UIKit", "UIStretch", K::Struct)
        .member("UIKit", "UIStretch.start", K::Property, "Double")
        .conforms("UIStretch", "MysteryProvider");
    // a protocol whose method's closure takes the associated type, and a conforming type
    // whose nested type of that name is its witness
    s.ty("SwiftUI", "Motion", K::Protocol)
        .ty("SwiftUI", "Motion.Value", K::AssociatedType)
        .func(
            "SwiftUI",
            "Motion.onDone(_:)",
            K::Method,
            "Self",
            &[("_", "(Self.Value) -> Void", false)],
            None,
        )
        .ty("SwiftUI", "Swipe", K::Struct)
        .conforms("Swipe", "Motion")
        .func("SwiftUI", "Swipe.init()", K::Init, "Self", &[], None)
        .ty("SwiftUI", "Swipe.Value", K::Struct)
        .member("SwiftUI", "Swipe.Value.speed", K::Property, "Double");
    // an imported initializer whose labels the index derives (the real one is
    // `init(kind:filterPredicate:options:)`), taking an option set the header reader read
    // only partly (no conformance known)
    s.ty("UIKit", "UIQuery", K::Class)
        .ty("UIKit", "UIQueryOptions", K::Struct)
        .member(
            "UIKit",
            "UIQueryOptions.separate",
            K::TypeProperty,
            "UIQueryOptions",
        )
        .func(
            "UIKit",
            "UIQuery.init(kind:filter:options:)",
            K::Init,
            "Self",
            &[
                ("kind", "String", false),
                ("filter", "NSPredicate?", false),
                ("options", "UIQueryOptions", true),
            ],
            None,
        );
    // an imported method in two arities: the longer one's last label is not the call's
    s.ty("UIKit", "UILauncher", K::Class)
        .func("UIKit", "UILauncher.init()", K::Init, "Self", &[], None)
        .func(
            "UIKit",
            "UILauncher.launch(_:options:)",
            K::Method,
            "Void",
            &[("_", "URL", false), ("options", "[String: Any]", false)],
            None,
        )
        .func(
            "UIKit",
            "UILauncher.launch(_:options:completionHandler:)",
            K::Method,
            "Void",
            &[
                ("_", "URL", false),
                ("options", "[String: Any]", false),
                ("completionHandler", "((Bool) -> Void)?", true),
            ],
            None,
        );
    // an imported class method whose first, unlabeled parameter is a raw-value type the
    // importer never defaults, beside a one-parameter overload
    s.ty("UIKit", "UICamera", K::Class)
        .ty("UIKit", "UICamera.Kind", K::Struct)
        .member(
            "UIKit",
            "UICamera.Kind.wide",
            K::TypeProperty,
            "UICamera.Kind",
        )
        .conforms("UICamera.Kind", "RawRepresentable")
        .ty("UIKit", "UICamera.Side", K::Enum)
        .member("UIKit", "UICamera.Side.front", K::EnumCase, "")
        .func(
            "UIKit",
            "UICamera.default(for:)",
            K::TypeMethod,
            "UICamera?",
            &[("for", "String", false)],
            None,
        )
        .func(
            "UIKit",
            "UICamera.default(_:for:side:)",
            K::TypeMethod,
            "UICamera?",
            &[
                ("_", "UICamera.Kind", false),
                ("for", "String?", false),
                ("side", "UICamera.Side", false),
            ],
            None,
        );
    // a deprecated method whose name no other type has
    s.ty("UIKit", "UILegacy", K::Class).func(
        "UIKit",
        "UILegacy.flip(_:)",
        K::Method,
        "Void",
        &[("_", "Bool", false)],
        None,
    );
    // a generic type with a deprecated static method (`Activity<A>.request(…)`)
    s.ty("ActivityKit", "Activity", K::Class).func(
        "ActivityKit",
        "Activity.request(attributes:contentState:pushType:)",
        K::TypeMethod,
        "Activity<Attributes>",
        &[
            ("attributes", "Attributes", false),
            ("contentState", "Attributes.ContentState", false),
            ("pushType", "PushType?", false),
        ],
        Some("Attributes"),
    );
    // overloads whose parameter types disagree (`seek(to: Date)`, `seek(to: Stamp)`)
    s.ty("Foundation", "Scrubber", K::Class)
        .func(
            "Foundation",
            "Scrubber.seek(to:)",
            K::Method,
            "Void",
            &[("to", "Date", false)],
            None,
        )
        .func(
            "Foundation",
            "Scrubber.seek(to:)",
            K::Method,
            "Void",
            &[("to", "Scrubber.Stamp", false)],
            None,
        )
        .ty("Foundation", "Scrubber.Stamp", K::Struct)
        .member(
            "Foundation",
            "Scrubber.Stamp.zero",
            K::TypeProperty,
            "Scrubber.Stamp",
        );
    // overloads that differ in the optionality of a parameter
    s.ty("Swift", "Double", K::Struct)
        .func(
            "SwiftUI",
            "Font.system(size:design:)",
            K::TypeMethod,
            "Font",
            &[("size", "Double", false), ("design", "Font.Design?", true)],
            None,
        )
        .func(
            "SwiftUI",
            "Font.system(size:design:)",
            K::TypeMethod,
            "Font",
            &[("size", "Double", false), ("design", "Font.Design", true)],
            None,
        )
        .ty("SwiftUI", "Font.Design", K::Struct)
        .member(
            "SwiftUI",
            "Font.Design.rounded",
            K::TypeProperty,
            "Font.Design",
        );
    // a failable initializer beside a plain one, and `Optional.map(_:)`
    s.func(
        "Swift",
        "Double.init(_:)",
        K::Init,
        "Self?",
        &[("_", "S", false)],
        Some("S: StringProtocol"),
    )
    .func(
        "Swift",
        "Double.init(_:)",
        K::Init,
        "Self",
        &[("_", "Int", false)],
        None,
    )
    .func(
        "Swift",
        "Double.squareRoot()",
        K::Method,
        "Double",
        &[],
        None,
    )
    .ty("Swift", "Range", K::Struct)
    .func(
        "Swift",
        "Optional.map(_:)",
        K::Method,
        "U?",
        &[("_", "(Wrapped) throws -> U", false)],
        Some("Wrapped, U"),
    );
    // a handler parameter typed by a typealias of a function type
    s.ty("Foundation", "UISensor", K::Class)
        .func("Foundation", "UISensor.init()", K::Init, "Self", &[], None)
        .func(
            "Foundation",
            "UISensor.startUpdates(to:withHandler:)",
            K::Method,
            "Void",
            &[
                ("to", "Int", false),
                ("withHandler", "UISensorHandler", false),
            ],
            None,
        )
        .member(
            "Foundation",
            "UISensorHandler",
            K::Typealias,
            "(UIReading?, (any Error)?) -> Void",
        )
        .ty("Foundation", "UIReading", K::Class)
        .member("Foundation", "UIReading.level", K::Property, "Double")
        // a generic parameter spelled like a function typealias is the generic parameter
        .member("Foundation", "Picker", K::Typealias, "(UIReading) -> Bool")
        .func(
            "Foundation",
            "UISensor.pick(using:)",
            K::Method,
            "Void",
            &[("using", "Picker", false)],
            Some("Picker"),
        );
    // a protocol composition result: a protocol refining the class's protocol, and an
    // unrelated one
    s.ty("Foundation", "Filter", K::Protocol)
        .member("Foundation", "Filter.output", K::Property, "Int")
        .ty("Foundation", "Blur", K::Protocol)
        .member("Foundation", "Blur.radius", K::Property, "Double")
        .conforms("Blur", "Filter")
        .ty("Foundation", "Sharp", K::Protocol)
        .ty("Foundation", "Filters", K::Class)
        .func(
            "Foundation",
            "Filters.blur()",
            K::TypeMethod,
            "any Filter & Blur",
            &[],
            None,
        )
        .func(
            "Foundation",
            "Filters.odd()",
            K::TypeMethod,
            "any Filter & Sharp",
            &[],
            None,
        );
    // a closure-taking initializer beside one whose function takes no parameter
    s.ty("Swift", "Feeds", K::Struct)
        .func(
            "Swift",
            "Feeds.init(_:)",
            K::Init,
            "Self",
            &[("_", "(Feeds<Element>.Feed) -> Void", false)],
            None,
        )
        .func(
            "Swift",
            "Feeds.init(unfolding:)",
            K::Init,
            "Self",
            &[("unfolding", "() async -> Element?", false)],
            None,
        )
        .ty("Swift", "Feeds.Feed", K::Struct)
        .func(
            "Swift",
            "Feeds.Feed.yield(_:)",
            K::Method,
            "Void",
            &[("_", "Element", false)],
            None,
        )
        .func("Swift", "Feeds.Feed.finish()", K::Method, "Void", &[], None);
    // a generic enum with payloads, and a function returning one
    s.ty("Foundation", "Verdict", K::Enum)
        .func(
            "Foundation",
            "Verdict.verified(_:)",
            K::EnumCase,
            "",
            &[("_", "Signed", false)],
            None,
        )
        .func(
            "Foundation",
            "Verdict.unverified(_:_:)",
            K::EnumCase,
            "",
            &[("_", "Signed", false), ("_", "any Error", false)],
            None,
        )
        .func(
            "Foundation",
            "latestURL()",
            K::Func,
            "Verdict<URL>",
            &[],
            None,
        );
    // a protocol whose static members live in constrained extensions
    s.ty("Foundation", "FormatStyle", K::Protocol)
        .member(
            "Foundation",
            "FormatStyle.number",
            K::TypeProperty,
            "IntegerFormatStyle<Int>",
        )
        .member(
            "Foundation",
            "FormatStyle.number",
            K::TypeProperty,
            "FloatingPointFormatStyle<Double>",
        )
        .ty("Foundation", "IntegerFormatStyle", K::Struct)
        .func(
            "Foundation",
            "IntegerFormatStyle.precision(_:)",
            K::Method,
            "Self",
            &[("_", "Int", false)],
            None,
        )
        .ty("Foundation", "FloatingPointFormatStyle", K::Struct)
        .func(
            "Foundation",
            "FloatingPointFormatStyle.precision(_:)",
            K::Method,
            "Self",
            &[("_", "Int", false)],
            None,
        )
        .func(
            "Foundation",
            "Double.formatted(_:)",
            K::Method,
            "String",
            &[("_", "F", false)],
            Some("F: FormatStyle"),
        );
    // the generic parameters of the types above
    for d in &mut s.0.decls {
        match d.joined().as_str() {
            "Feeds" | "Feeds.Feed" => d.generics = Some("Element".into()),
            "Verdict" => d.generics = Some("Signed".into()),
            "IntegerFormatStyle" | "FloatingPointFormatStyle" => {
                d.generics = Some("Value".into());
            }
            _ => {}
        }
    }
    // a controller class whose inherited `listView` property the source's own delegate
    // methods `listView(_:rowsIn:)` share a base name with
    s.ty("UIKit", "UIListController", K::Class)
        .member(
            "UIKit",
            "UIListController.listView",
            K::Property,
            "UIListView",
        )
        .ty("UIKit", "UIListView", K::Class)
        .func(
            "UIKit",
            "UIListView.register(_:forCellReuseIdentifier:)",
            K::Method,
            "Void",
            &[
                ("_", "AnyClass?", false),
                ("forCellReuseIdentifier", "String", false),
            ],
            None,
        );
    // an SDK node class whose `play(_:)` takes moves, the moves' class methods (one name
    // the importer shortens: `loopMoveForever:` is `loopForever(_:)`), and an unrelated
    // SwiftUI type with a static method of a shared name
    s.ty("UIKit", "UIStage", K::Class)
        .func(
            "UIKit",
            "UIStage.play(_:)",
            K::Method,
            "Void",
            &[("_", "UIMove", false)],
            None,
        )
        .ty("UIKit", "UIMove", K::Class)
        .func(
            "UIKit",
            "UIMove.sequence(_:)",
            K::TypeMethod,
            "UIMove",
            &[("_", "[UIMove]", false)],
            None,
        )
        .func(
            "UIKit",
            "UIMove.loopMoveForever(_:)",
            K::TypeMethod,
            "UIMove",
            &[("_", "UIMove", false)],
            None,
        )
        .ty("SwiftUI", "Pulse", K::Struct)
        .func(
            "SwiftUI",
            "Pulse.loopForever(autoreverses:)",
            K::TypeMethod,
            "Pulse",
            &[("autoreverses", "Bool", true)],
            None,
        );
    for d in &mut s.0.decls {
        if d.module == "UIKit" {
            d.objc = true;
        }
        if matches!(
            d.joined().as_str(),
            "UIQuery.init(kind:filter:options:)" | "UIMove.loopMoveForever(_:)"
        ) {
            d.approximate = true;
        }
        if matches!(
            d.joined().as_str(),
            "UIThing.configure(with:)"
                | "UILegacy.flip(_:)"
                | "UIGauge.legacyInset"
                | "Activity.request(attributes:contentState:pushType:)"
        ) {
            d.availability = vec![Availability {
                domain: Some(Domain::Ios),
                introduced: Some(Version::new(2, 0, 0)),
                deprecated: Some(Version::new(13, 0, 0)),
                ..Availability::default()
            }];
        }
    }
    s.index()
}

fn check(src: &str) -> FileReport {
    let index = Arc::new(sdk());
    let opts = CheckOptions {
        deprecations: Arc::new(DeprecationMap::default()),
        index,
        ..CheckOptions::new(Target::parse("ios17.0").expect("target")).expect("options")
    };
    check_source(src, &opts)
}

fn messages(r: &CriterionReport) -> Vec<String> {
    r.evidence.iter().map(|e| e.message.clone()).collect()
}

fn failures(r: &CriterionReport) -> Vec<String> {
    messages(r)
        .into_iter()
        .filter(|m| !m.starts_with("unverifiable"))
        .collect()
}

fn metric(r: &CriterionReport, k: &str) -> f64 {
    r.metrics.get(k).copied().unwrap_or(-1.0)
}

#[test]
fn implicit_member_argument_uses_the_parameter_type() {
    let ok = check(
        "import Foundation\nlet d = Date()\nlet s = d.formatted(date: .abbreviated, time: .shortened)\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    assert!(metric(&ok.criteria.symbols_exist, "resolved") >= 4.0);
    // `.medium` exists elsewhere (DateFormatter.Style), not in Date.FormatStyle.DateStyle
    let bad = check(
        "import Foundation\nlet d = Date()\nlet s = d.formatted(date: .medium, time: .shortened)\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert!(!bad.symbols_exist, "{f:?}");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].contains("`.medium` is not a member of `Date.FormatStyle.DateStyle`"),
        "{f:?}"
    );
    assert_eq!(bad.criteria.symbols_exist.evidence[0].line, Some(3));
}

#[test]
fn implicit_member_assigned_to_a_property() {
    let ok = check(
        "import Foundation\nlet decoder = JSONDecoder()\ndecoder.dateDecodingStrategy = .iso8601\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let bad = check(
        "import Foundation\nlet decoder = JSONDecoder()\ndecoder.dateDecodingStrategy = .medium\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("not a member of `JSONDecoder.DateDecodingStrategy`")),
        "{f:?}"
    );
}

#[test]
fn return_and_case_patterns_use_the_declared_type() {
    let ok = check(
        "import SwiftUI\nfunc w() -> Font.Weight { return .heavy }\nfunc f(s: JSONDecoder.DateDecodingStrategy) {\n    switch s {\n    case .iso8601: break\n    default: break\n    }\n}\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let bad = check("import SwiftUI\nfunc w() -> Font.Weight { return .medium }\n");
    assert!(!bad.symbols_exist);
    // an annotated declaration
    let ok = check("import SwiftUI\nlet w: Font.Weight = .heavy\nvar f: Font? = .title.bold()\n");
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let bad = check("import SwiftUI\nlet w: Font.Weight = .medium\n");
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("not a member of `Font.Weight`")),
        "{f:?}"
    );
    let bad = check(
        "import Foundation\nfunc f(s: JSONDecoder.DateDecodingStrategy) {\n    switch s {\n    case .medium: break\n    default: break\n    }\n}\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter().any(|m| m.contains("`.medium` is not a member")),
        "{bad:?}"
    );
}

#[test]
fn closure_parameters_of_known_apis_are_typed() {
    let src = "func load() async throws {\n    try await withThrowingTaskGroup(of: Int.self) { group in\n        group.addTask { 1 }\n        group.notAMethod()\n    }\n}\n";
    let r = check(src);
    let f = failures(&r.criteria.symbols_exist);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].contains("`ThrowingTaskGroup` has no member `notAMethod`"),
        "{f:?}"
    );
    // `$0` too
    let src = "func load() async throws {\n    try await withThrowingTaskGroup(of: Int.self) {\n        $0.addTask { 1 }\n        $0.nope()\n    }\n}\n";
    let f = failures(&check(src).criteria.symbols_exist);
    assert_eq!(f.len(), 1, "{f:?}");
}

#[test]
fn property_wrappers_give_types() {
    let env = "import SwiftUI\nimport SwiftData\nstruct V: View {\n    @Environment(\\.modelContext) private var context\n    var body: some View {\n        Text(\"a\").onAppear { context.save(); context.remove() }\n    }\n}\n";
    let f = failures(&check(env).criteria.symbols_exist);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].contains("`ModelContext` has no member `remove`"),
        "{f:?}"
    );
    let by_type = "import SwiftUI\nimport SwiftData\nstruct V: View {\n    @Environment(ModelContext.self) var context\n    var body: some View {\n        Text(\"a\").onAppear { context.nope() }\n    }\n}\n";
    let f = failures(&check(by_type).criteria.symbols_exist);
    assert!(f.iter().any(|m| m.contains("no member `nope`")), "{f:?}");
    // `$on` is a Binding<Bool>; its wrappedValue a Bool
    let state = "import SwiftUI\nstruct V: View {\n    @State private var on: Bool = false\n    var body: some View {\n        Text(\"a\").onAppear { $on.wrappedValue.toggle(); $on.wrappedValue.flip() }\n    }\n}\n";
    let f = failures(&check(state).criteria.symbols_exist);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].contains("`Bool` has no member `flip`"), "{f:?}");
    // `@Query var items: [Item]`: the elements are the source's own type
    let query = "import SwiftUI\nimport SwiftData\nstruct Item { var title: String }\nstruct V: View {\n    @Query var items: [Item]\n    var body: some View {\n        Text(\"a\").onAppear {\n            for item in items { print(item.title) }\n            _ = items.map { $0.title }\n            _ = items.count\n            items.nope()\n        }\n    }\n}\n";
    let f = failures(&check(query).criteria.symbols_exist);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].contains("`Array` has no member `nope`"), "{f:?}");
}

#[test]
fn element_types_of_sdk_arrays() {
    let src = "let names: [String] = []\nfor n in names { _ = n.uppercased(); _ = n.shout() }\n_ = names.map { $0.uppercased() }\n_ = names.map { $0.whisper() }\n";
    let f = failures(&check(src).criteria.symbols_exist);
    assert_eq!(f.len(), 2, "{f:?}");
    assert!(
        f.iter().all(|m| m.contains("`String` has no member")),
        "{f:?}"
    );
}

#[test]
fn locals_never_shadow_implicit_members() {
    let src = "import SwiftUI\nstruct V: View {\n    let title = \"Hello\"\n    var body: some View {\n        Text(title).font(.title.bold())\n    }\n}\n";
    let r = check(src);
    assert!(r.symbols_exist, "{:?}", messages(&r.criteria.symbols_exist));
    // the chain is resolved through Font, not through the local String
    let bad = "import SwiftUI\nstruct V: View {\n    let title = \"Hello\"\n    var body: some View {\n        Text(title).font(.title.uppercased())\n    }\n}\n";
    let f = failures(&check(bad).criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("`Font` has no member `uppercased`")),
        "{f:?}"
    );
}

#[test]
fn protocol_expected_types_look_in_the_protocol_then_fall_back() {
    // `S: ShapeStyle`: `.secondary` is declared on ShapeStyle (where Self == …)
    let ok = check("import SwiftUI\nlet v = Text(\"a\").foregroundStyle(.secondary)\n");
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    // a generic parameter constrained to the protocol: only the protocol's static members
    // can be meant (a conforming type's never are), so a name it lacks is missing
    let other = check("import SwiftUI\nlet v = Text(\"a\").foregroundStyle(.medium)\n");
    let f = failures(&other.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("`.medium` is not a static member of `ShapeStyle`")),
        "{f:?}"
    );
}

#[test]
fn unknown_receivers_are_unverifiable_not_missing() {
    let r = check("func f(x: Mystery) { x.anything(); x.other }\n");
    let s = &r.criteria.symbols_exist;
    assert!(metric(s, "unresolved") >= 2.0, "{:?}", s.metrics);
    assert!(
        messages(s)
            .iter()
            .any(|m| m.starts_with("unverifiable: `anything()`")),
        "{:?}",
        messages(s)
    );
}

#[test]
fn omitted_defaulted_argument_is_not_only_the_deprecated_overload() {
    let r = check(
        "import UIKit\nlet t = UIThing()\nt.configure(with: 1, animated: false)\nt.configure(with: 2)\n",
    );
    assert!(r.symbols_exist, "{:?}", messages(&r.criteria.symbols_exist));
    assert!(r.no_deprecated, "{:?}", messages(&r.criteria.no_deprecated));
}

#[test]
fn unknown_receivers_match_only_members_of_types_the_source_names() {
    // the only `flip(_:)` is UILegacy's, deprecated; the source never names UILegacy, so the
    // call on a receiver of unknown type is not taken for it
    let r = check("import UIKit\nfunc f(x: Mystery) { x.flip(true) }\n");
    assert!(r.no_deprecated, "{:?}", messages(&r.criteria.no_deprecated));
    let s = &r.criteria.symbols_exist;
    assert!(
        messages(s)
            .iter()
            .any(|m| m.starts_with("unverifiable: `flip(_:)`")),
        "{:?}",
        messages(s)
    );
    // a source that names the type makes its member a plausible candidate
    let r = check("import UIKit\nlet kept: [UILegacy] = []\nfunc f(x: Mystery) { x.flip(true) }\n");
    assert!(
        !r.no_deprecated,
        "{:?}",
        messages(&r.criteria.no_deprecated)
    );
}

#[test]
fn optionals_and_member_chains() {
    let src = "import Foundation\nlet u = URL(string: \"https://a.b\")\nif let h = u?.host { _ = h.uppercased(); _ = h.nope() }\nlet name = u?.host ?? \"x\"\n_ = name.alsoNope()\nguard let host = u?.host else { fatalError() }\n_ = host.stillNope()\nlet v = URL(string: \"x\")!.appending(path: \"y\").appending(path: \"z\")\n_ = v.nope2\n_ = u?.host?.uppercased()\n";
    let f: Vec<String> = failures(&check(src).criteria.symbols_exist)
        .into_iter()
        .filter(|m| m.contains("has no member"))
        .collect();
    for want in [
        "`String` has no member `nope`",
        "`String` has no member `alsoNope`",
        "`String` has no member `stillNope`",
        "`URL` has no member `nope2`",
    ] {
        assert!(f.iter().any(|m| m.contains(want)), "{want}: {f:?}");
    }
    assert_eq!(f.len(), 4, "{f:?}");
}

#[test]
fn self_members_have_their_declared_types() {
    let src = "import SwiftUI\nimport SwiftData\nstruct V: View {\n    @Environment(\\.modelContext) private var context\n    let decoder = JSONDecoder()\n    var body: some View {\n        Text(\"a\").onAppear {\n            self.context.save()\n            self.context.nope()\n            self.decoder.dateDecodingStrategy = .iso8601\n            self.decoder.dateDecodingStrategy = .medium\n        }\n    }\n}\n";
    let f = failures(&check(src).criteria.symbols_exist);
    assert_eq!(f.len(), 2, "{f:?}");
    assert!(
        f[0].contains("`ModelContext` has no member `nope`"),
        "{f:?}"
    );
    assert!(
        f[1].contains("not a member of `JSONDecoder.DateDecodingStrategy`"),
        "{f:?}"
    );
}

#[test]
fn the_error_of_a_catch_block_is_not_a_property_named_error() {
    let src = "import Foundation\nfinal class M {\n    var error: String?\n    func f() {\n        do { _ = try JSONDecoder() } catch { self.error = error.localizedDescription }\n        _ = error?.uppercased()\n        _ = error?.nope()\n    }\n}\n";
    let f = failures(&check(src).criteria.symbols_exist);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].contains("`String` has no member `nope`"), "{f:?}");
}

#[test]
fn the_sources_own_types_give_their_typed_properties() {
    let src = |style: &str| {
        format!(
            "import Foundation\nstruct Event {{\n    let date: Date\n    var link: URL {{ URL(string: \"a\")! }}\n}}\nfunc f(e: Event) -> String {{\n    _ = e.unknownMember\n    _ = e.link.appending(path: \"x\")\n    return e.date.formatted(date: .{style}, time: .shortened)\n}}\n"
        )
    };
    let ok = check(&src("abbreviated"));
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let bad = check(&src("medium"));
    let f = failures(&bad.criteria.symbols_exist);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].contains("`.medium` is not a member of `Date.FormatStyle.DateStyle`"),
        "{f:?}"
    );
    assert_eq!(bad.criteria.symbols_exist.evidence[0].line, Some(9));
}

#[test]
fn comparison_operands_expect_the_other_sides_type() {
    let src = |op: &str, member: &str| {
        format!(
            "import Foundation\nlet decoder = JSONDecoder()\nlet b = decoder.dateDecodingStrategy {op} .{member}\n"
        )
    };
    for op in ["==", "!="] {
        let ok = check(&src(op, "iso8601"));
        assert!(
            ok.symbols_exist,
            "{op}: {:?}",
            messages(&ok.criteria.symbols_exist)
        );
        let bad = check(&src(op, "medium"));
        let f = failures(&bad.criteria.symbols_exist);
        assert!(
            f.iter()
                .any(|m| m.contains("not a member of `JSONDecoder.DateDecodingStrategy`")),
            "{op}: {f:?}"
        );
    }
}

#[test]
fn protocol_members_typed_through_self_element() {
    // `Collection.first` is `Self.Element?`: the array's element, optional
    let ok = check(
        "import Foundation\nlet dates: [Date] = []\nlet s = dates.first?.formatted(date: .abbreviated, time: .shortened)\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let bad = check(
        "import Foundation\nlet urls: [URL] = []\nif let u = urls.first {\n    print(u.hostname)\n}\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("`URL` has no member `hostname`")),
        "{f:?}"
    );
}

#[test]
fn closures_of_generic_initializers_take_the_collections_element() {
    let ok = check(
        "import SwiftUI\nlet urls: [URL] = []\nlet v = Roster(urls) { u in\n    Text(u.host ?? \"\")\n}\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let bad = check(
        "import SwiftUI\nlet urls: [URL] = []\nlet v = Roster(urls) { u in\n    Text(u.hostname)\n}\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("`URL` has no member `hostname`")),
        "{f:?}"
    );
}

#[test]
fn inherited_properties_through_implicit_self() {
    let src = |tint: &str| {
        format!(
            "import UIKit\nfinal class Meter: UIGauge {{\n    func setUp() {{\n        tint = .{tint}\n    }}\n}}\n"
        )
    };
    let ok = check(&src("bright"));
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    assert!(ok.no_deprecated);
    let bad = check(&src("glowing"));
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("not a member of `UIGauge.Tint`")),
        "{f:?}"
    );
    // a deprecated inherited property assigned without `self.`
    let dep = check(
        "import UIKit\nfinal class Meter: UIGauge {\n    func setUp() {\n        legacyInset = 3\n    }\n}\n",
    );
    assert!(
        !dep.no_deprecated,
        "{:?}",
        messages(&dep.criteria.no_deprecated)
    );
    // a local of that name is the local
    let local = check(
        "import UIKit\nfinal class Meter: UIGauge {\n    func setUp() {\n        var legacyInset = 0\n        legacyInset = 3\n        print(legacyInset)\n    }\n}\n",
    );
    assert!(
        local.no_deprecated,
        "{:?}",
        messages(&local.criteria.no_deprecated)
    );
}

#[test]
fn the_sources_own_functions_give_their_result_types() {
    let ok = check(
        "import Foundation\nfunc home() -> URL {\n    URL(string: \"https://example.com\")!\n}\nlet h = home().host\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let bad = check(
        "import Foundation\nfunc home() -> URL {\n    URL(string: \"https://example.com\")!\n}\nlet h = home().hostname\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("`URL` has no member `hostname`")),
        "{f:?}"
    );
    // two declarations of that name that disagree: unknown, never a false alarm
    let two = check(
        "import Foundation\nfunc home() -> URL { URL(string: \"a\")! }\nstruct S { func home() -> Date { Date() } }\nlet h = home().hostname\n",
    );
    assert!(
        two.symbols_exist,
        "{:?}",
        messages(&two.criteria.symbols_exist)
    );
}

#[test]
fn only_extensions_add_implicit_members_to_sdk_types() {
    // the source's own `static func medium()` is not a member of the expected SDK type
    let bad = check(
        "import Foundation\nenum Styles {\n    static func medium() {}\n}\nlet decoder = JSONDecoder()\ndecoder.dateDecodingStrategy = .medium\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("not a member of `JSONDecoder.DateDecodingStrategy`")),
        "{f:?}"
    );
    // an extension may add it
    let ok = check(
        "import Foundation\nextension JSONDecoder.DateDecodingStrategy {\n    static var medium: JSONDecoder.DateDecodingStrategy { .iso8601 }\n}\nlet decoder = JSONDecoder()\ndecoder.dateDecodingStrategy = .medium\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
}

#[test]
fn awaited_completion_handler_methods_and_nested_type_initializers() {
    let ok = check(
        "import UIKit\nfunc g(f: UIFetcher) async throws {\n    let urls = try await f.fetch(\"x\")\n    let h = urls.first?.host\n    let r = UIFetcher.Request()\n    let u = r.url\n}\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let bad = check(
        "import UIKit\nfunc g(f: UIFetcher) async throws {\n    let urls = try await f.fetch(\"x\")\n    let h = urls.first?.hostname\n    let r = UIFetcher.Request()\n    let u = r.uri\n}\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("`URL` has no member `hostname`")),
        "{f:?}"
    );
    assert!(f.iter().any(|m| m.contains("has no member `uri`")), "{f:?}");
    // a derived name that kept a word the importer drops (`reloadFetcher` for `reload`)
    let near = check(
        "import UIKit\nfunc g(f: UIFetcher) async throws {\n    let urls = try await f.reload()\n    let h = urls.first?.hostname\n}\n",
    );
    let f = failures(&near.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("`URL` has no member `hostname`")),
        "{f:?}"
    );
}

#[test]
fn tuple_destructuring_binds_each_element() {
    let ok = check(
        "import UIKit\nfunc g(f: UIFetcher) {\n    let (url, _) = f.pair(for: \"x\")\n    let h = url.host\n}\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let bad = check(
        "import UIKit\nfunc g(f: UIFetcher) {\n    let (url, date) = f.pair(for: \"x\")\n    let h = url.hostname\n    let s = date.formatted(date: .abbreviated, time: .shortened)\n}\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].contains("`URL` has no member `hostname`"), "{f:?}");
}

#[test]
fn type_generics_bound_by_initializer_arguments_and_own_type_instances() {
    // `Each(urls) { u in … }`: `Data` is `Each`'s own generic parameter
    let bad = check(
        "import SwiftUI\nlet urls: [URL] = []\nlet v = Each(urls) { u in\n    Text(u.hostname)\n}\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("`URL` has no member `hostname`")),
        "{f:?}"
    );
    // an instance of the source's own type made by a call gives its typed properties
    let model = "import SwiftUI\nfinal class Model {\n    var urls: [URL] = []\n}\nstruct V {\n    let model = Model()\n    func f() {\n        let v = Each(model.urls) { u in\n            Text(u.hostname)\n        }\n    }\n}\n";
    let f = failures(&check(model).criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("`URL` has no member `hostname`")),
        "{f:?}"
    );
}

#[test]
fn c_structs_have_a_memberwise_initializer() {
    // the field is a `Font.Weight`, the overlay's initializer takes an `Int`: `.heavy` is
    // judged against both, not against `Int` alone
    let r = check("import UIKit\nlet p = UIPad(width: .heavy)\n");
    assert!(r.symbols_exist, "{:?}", messages(&r.criteria.symbols_exist));
    // a struct the source declares in Swift has no such second initializer
    let bad = check(
        "import SwiftUI\nlet w = Font.Weight.heavy\nfunc f(x: Int) {}\nlet p: Int = .heavy\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter().any(|m| m.contains("not a member of `Int`")),
        "{f:?}"
    );
}

#[test]
fn an_implicit_member_picks_the_overload_whose_parameter_type_has_it() {
    let ok = check("import Foundation\nfunc f(s: Scrubber) {\n    s.seek(to: .zero)\n}\n");
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let bad = check("import Foundation\nfunc f(s: Scrubber) {\n    s.seek(to: .origin)\n}\n");
    let f = failures(&bad.criteria.symbols_exist);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].contains("`.origin` is not a member of any type expected here"),
        "{f:?}"
    );
}

#[test]
fn overloads_differing_in_optionality_expect_the_wrapped_type() {
    let ok =
        check("import SwiftUI\nlet t = Text(\"x\").font(.system(size: 28, design: .rounded))\n");
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let bad =
        check("import SwiftUI\nlet t = Text(\"x\").font(.system(size: 28, design: .round))\n");
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("`.round` is not a member of `Font.Design?`")),
        "{f:?}"
    );
}

#[test]
fn a_closure_listing_its_parameters_excludes_overloads_of_another_arity() {
    let ok = check(
        "func f() {\n    let s = Feeds { feed in\n        feed.yield(1)\n        feed.finish()\n    }\n}\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let bad = check("func f() {\n    let s = Feeds { feed in\n        feed.complete()\n    }\n}\n");
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("`Feeds.Feed` has no member `complete`")),
        "{f:?}"
    );
}

#[test]
fn arguments_of_a_function_typed_parameter_expect_its_parameter_types() {
    let ok = check(
        "import SwiftUI\nfunc f(done: @escaping (Font.Weight) -> Void) {\n    done(.heavy)\n}\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let bad = check(
        "import SwiftUI\nfunc f(done: @escaping (Font.Weight) -> Void) {\n    done(.medium)\n}\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("`.medium` is not a member of `Font.Weight`")),
        "{f:?}"
    );
    // a local of the same name bound again is not that function
    let ok = check(
        "import SwiftUI\nfunc f(done: @escaping (Font.Weight) -> Void) {\n    let g = { (x: Int) in\n        let done = 1\n    }\n}\nfunc h(done: Int) {\n    let x = done\n}\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
}

#[test]
fn case_patterns_bind_the_payload_types() {
    let bad = check(
        "import Foundation\nfunc f() {\n    if case .verified(let u) = latestURL() {\n        let h = u.hostname\n    }\n}\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("`URL` has no member `hostname`")),
        "{f:?}"
    );
    let bad = check(
        "import Foundation\nfunc f() {\n    switch latestURL() {\n    case .verified(let u):\n        let h = u.hostname\n    case .unverified(let u, _):\n        let h = u.host\n    }\n}\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].contains("`URL` has no member `hostname`"), "{f:?}");
    let ok = check(
        "import Foundation\nfunc f() {\n    guard case .verified(let u) = latestURL() else { return }\n    let h = u.host\n}\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
}

#[test]
fn members_of_an_implicit_member_of_a_protocol_are_looked_up_in_every_candidate() {
    let ok = check(
        "import Foundation\nlet x: Double = 1.5\nlet s = x.formatted(.number.precision(2))\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let bad = check(
        "import Foundation\nlet x: Double = 1.5\nlet s = x.formatted(.number.decimalPlaces(1))\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("has no member `decimalPlaces`")),
        "{f:?}"
    );
}

#[test]
fn undeclared_infix_operators_are_missing() {
    let bad = check("func f(a: Int, b: Int) -> Int {\n    return a => b\n}\n");
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("operator `=>` is not declared")),
        "{f:?}"
    );
    let ok = check(
        "infix operator =>\nfunc => (a: Int, b: Int) -> Int { a }\nfunc f(a: Int, b: Int) -> Int {\n    return a => b\n}\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
}

#[test]
fn the_sources_own_views_take_their_supertypes_modifiers() {
    let ok = check(
        "import SwiftUI\nstruct Badge: View {\n    var body: some View { Text(\"x\") }\n}\nlet v = Badge().font(.title)\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let bad = check(
        "import SwiftUI\nstruct Badge: View {\n    var body: some View { Text(\"x\") }\n}\nlet v = Badge().font(.headline2)\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("`.headline2` is not a member of `Font?`")),
        "{f:?}"
    );
    // a method of that name the source declares is its own
    let own = check(
        "import SwiftUI\nstruct Badge: View {\n    var body: some View { Text(\"x\") }\n    func font(_ x: Int) -> Badge { self }\n}\nlet v = Badge().font(.headline2)\n",
    );
    let f = failures(&own.criteria.symbols_exist);
    assert!(!f.iter().any(|m| m.contains("`Font?`")), "{f:?}");
}

#[test]
fn shorthand_optional_bindings_unwrap_the_names_own_value() {
    let bad = check(
        "import Foundation\nfinal class Box {\n    private var link: URL?\n    func host() -> String? {\n        guard let link else { return nil }\n        return link.hostname\n    }\n}\n",
    );
    let f = failures(&bad.criteria.symbols_exist);
    assert!(
        f.iter()
            .any(|m| m.contains("`URL` has no member `hostname`")),
        "{f:?}"
    );
    let ok = check(
        "import Foundation\nfunc f(link: URL?) {\n    if let link {\n        let h = link.host\n    }\n}\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
}

#[test]
fn an_imported_call_with_more_arguments_is_judged_by_the_overload_that_takes_as_many() {
    let bad = check(
        "import UIKit\nlet l = UILauncher()\nl.launch(URL(string: \"a\")!, options: [:], completion: nil)\n",
    );
    assert!(
        !bad.symbols_exist,
        "{:?}",
        messages(&bad.criteria.symbols_exist)
    );
    assert!(
        failures(&bad.criteria.symbols_exist)
            .iter()
            .any(|m| m.contains("launch")),
        "{:?}",
        messages(&bad.criteria.symbols_exist)
    );
    for ok in [
        "l.launch(URL(string: \"a\")!, options: [:], completionHandler: nil)",
        "l.launch(URL(string: \"a\")!, options: [:])",
        "l.launch(URL(string: \"a\")!, options: [:]) { _ in }",
    ] {
        let r = check(&format!("import UIKit\nlet l = UILauncher()\n{ok}\n"));
        assert!(
            r.symbols_exist,
            "{ok}: {:?}",
            messages(&r.criteria.symbols_exist)
        );
    }
}

#[test]
fn an_imported_methods_required_parameter_cannot_be_left_out() {
    let bad = check("import UIKit\nlet c = UICamera.default(for: \"v\", side: .front)\n");
    assert!(
        !bad.symbols_exist,
        "{:?}",
        messages(&bad.criteria.symbols_exist)
    );
    for ok in [
        "UICamera.default(.wide, for: \"v\", side: .front)",
        "UICamera.default(for: \"v\")",
    ] {
        let r = check(&format!("import UIKit\nlet c = {ok}\n"));
        assert!(
            r.symbols_exist,
            "{ok}: {:?}",
            messages(&r.criteria.symbols_exist)
        );
    }
}

#[test]
fn an_implicit_member_call_whose_labels_no_overload_of_the_expected_type_takes() {
    for bad in [
        "func f() -> some Outcome & GivesDialog {\n    return .result(message: \"x\")\n}\n",
        "func f() -> some Outcome {\n    return .result(message: \"x\")\n}\n",
    ] {
        let r = check(&format!("import SwiftUI\n{bad}"));
        assert!(
            !r.symbols_exist,
            "{bad}: {:?}",
            messages(&r.criteria.symbols_exist)
        );
    }
    for ok in [
        "func f() -> some Outcome & GivesDialog {\n    return .result(dialog: \"x\")\n}\n",
        "func f() -> some Outcome {\n    return .result(value: 1)\n}\n",
        "func f() -> some Outcome {\n    return .result()\n}\n",
    ] {
        let r = check(&format!("import SwiftUI\n{ok}"));
        assert!(
            r.symbols_exist,
            "{ok}: {:?}",
            messages(&r.criteria.symbols_exist)
        );
    }
}

#[test]
fn a_member_of_the_sources_own_struct_is_no_member_of_an_sdk_type() {
    let bad = check(
        "import UIKit\nstruct Lookup {\n    func shade(for g: UIGauge) -> Int {\n        return g.shade\n    }\n}\n",
    );
    assert!(
        !bad.symbols_exist,
        "{:?}",
        messages(&bad.criteria.symbols_exist)
    );
    assert!(
        failures(&bad.criteria.symbols_exist)
            .iter()
            .any(|m| m.contains("`shade`")),
        "{:?}",
        messages(&bad.criteria.symbols_exist)
    );
    for ok in [
        // an extension gives the SDK type the member
        "extension UIGauge {\n    var shade: Int { 1 }\n}\nfunc f(g: UIGauge) -> Int { g.shade }\n",
        // a subclass of the SDK class may declare it
        "class Mine: UIGauge {\n    var shade = 1\n}\nfunc f(g: UIGauge) -> Int { g.shade }\n",
    ] {
        let r = check(&format!("import UIKit\n{ok}"));
        assert!(
            r.symbols_exist,
            "{ok}: {:?}",
            messages(&r.criteria.symbols_exist)
        );
    }
}

#[test]
fn a_hidden_member_less_supertype_leaves_the_member_list_complete() {
    let bad = check("import UIKit\nfunc f(s: UISpan) -> Double { s.middle }\n");
    assert!(
        !bad.symbols_exist,
        "{:?}",
        messages(&bad.criteria.symbols_exist)
    );
    let ok = check("import UIKit\nfunc f(s: UISpan) -> Double { s.start }\n");
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    // a supertype the index does not know may still give the member
    let unknown = check("import UIKit\nfunc f(s: UIStretch) -> Double { s.middle }\n");
    assert!(
        unknown.symbols_exist,
        "{:?}",
        messages(&unknown.criteria.symbols_exist)
    );
}

#[test]
fn an_associated_type_is_the_conforming_types_nested_type_of_that_name() {
    let bad = check("import SwiftUI\nlet m = Swipe().onDone { v in _ = v.distance }\n");
    assert!(
        !bad.symbols_exist,
        "{:?}",
        messages(&bad.criteria.symbols_exist)
    );
    let ok = check("import SwiftUI\nlet m = Swipe().onDone { v in _ = v.speed }\n");
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
}

#[test]
fn a_partly_read_imported_option_set_behind_derived_labels_is_unverifiable() {
    // the expected type comes from the derived labels, argument by argument; its constants
    // may be partial, so a name found nowhere is unverifiable, not missing
    let r = check(
        "import UIKit\nlet q = UIQuery(kind: \"a\", filterPredicate: nil, options: .cumulative)\n",
    );
    assert!(r.symbols_exist, "{:?}", messages(&r.criteria.symbols_exist));
    assert!(
        messages(&r.criteria.symbols_exist)
            .iter()
            .any(|m| m.contains("may lack constants of `UIQueryOptions`")),
        "{:?}",
        messages(&r.criteria.symbols_exist)
    );
    let known = check(
        "import UIKit\nlet q = UIQuery(kind: \"a\", filterPredicate: nil, options: .separate)\n",
    );
    assert!(
        known.symbols_exist,
        "{:?}",
        messages(&known.criteria.symbols_exist)
    );
}

#[test]
fn overloads_agreeing_on_a_generic_type_give_it_with_unknown_arguments() {
    // `Sequence.filter` gives `[Self.Element]`, `RangeReplaceableCollection.filter` `Self`:
    // an `Array` either way, whose members are known
    let bad =
        check("func f(xs: [String]) -> Int {\n    xs.filter { _ in true }.unique().count\n}\n");
    assert_eq!(
        failures(&bad.criteria.symbols_exist),
        vec!["`Array` has no member `unique` in the SDK index".to_owned()]
    );
    let ok = check("func f(xs: [String]) -> Int {\n    xs.filter { _ in true }.count\n}\n");
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    // the source's own extension still excuses it
    let own = check(
        "extension Array {\n    func unique() -> [Element] { self }\n}\nfunc f(xs: [String]) -> Int {\n    xs.filter { _ in true }.unique().count\n}\n",
    );
    assert!(
        own.symbols_exist,
        "{:?}",
        messages(&own.criteria.symbols_exist)
    );
}

#[test]
fn tuple_elements_of_a_sequence_bind_destructured_names() {
    // `for (i, x) in xs.enumerated()`: `i` is the `Int` offset, `x` the element
    let bad = check(
        "func f(xs: [String]) {\n    for (i, x) in xs.enumerated() {\n        _ = (i.isEven, x.uppercased())\n    }\n}\n",
    );
    assert_eq!(
        failures(&bad.criteria.symbols_exist),
        vec!["`Int` has no member `isEven` in the SDK index".to_owned()]
    );
    let ok = check(
        "func f(xs: [String]) {\n    for (i, x) in xs.enumerated() {\n        _ = (i.isMultiple(of: 2), x.uppercased())\n    }\n}\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    // a closure listing two parameters where the function takes the one tuple
    let closure = check(
        "func f(xs: [String]) {\n    _ = xs.enumerated().map { i, x in x.uppercased().isEmpty || i.isOdd }\n}\n",
    );
    assert!(
        failures(&closure.criteria.symbols_exist)
            .contains(&"`Int` has no member `isOdd` in the SDK index".to_owned()),
        "{:?}",
        messages(&closure.criteria.symbols_exist)
    );
}

#[test]
fn an_initializer_tying_its_element_to_a_sequence_argument_gives_the_element() {
    // `Array(xs.enumerated())` is an array of `(offset: Int, element: String)`
    let bad = check(
        "import SwiftUI\nlet xs: [String] = []\nlet v = Roster(Array(xs.enumerated())) { i, x in\n    Text(i.isEven ? x : \"\")\n}\n",
    );
    assert_eq!(
        failures(&bad.criteria.symbols_exist),
        vec!["`Int` has no member `isEven` in the SDK index".to_owned()]
    );
    let ok = check(
        "import SwiftUI\nlet xs: [String] = []\nlet v = Roster(Array(xs.enumerated())) { i, x in\n    Text(i.isMultiple(of: 2) ? x.uppercased() : \"\")\n}\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
}

#[test]
fn an_implicit_member_of_unknown_expected_type_is_not_judged_by_another_types_labels() {
    // the receiver is unknown, so `.loopForever(_:)` may be any type's: SwiftUI's
    // `Pulse.loopForever(autoreverses:)` decides nothing
    let r = check(
        "import SwiftUI\nstruct Mystery {}\nfunc f(stage: Mystery) {\n    stage.play(.loopForever(3))\n}\n",
    );
    assert!(r.symbols_exist, "{:?}", messages(&r.criteria.symbols_exist));
    assert!(
        messages(&r.criteria.symbols_exist)
            .iter()
            .any(|m| m.contains("the expected type is unknown")),
        "{:?}",
        messages(&r.criteria.symbols_exist)
    );
}

#[test]
fn a_method_called_through_implicit_self_gives_its_arguments_their_expected_types() {
    // `play(…)` in a `UIStage` subclass is `self.play(…)`: a `UIMove` is expected
    let bad = check(
        "import UIKit\nclass Scene: UIStage {\n    func f() {\n        play(.sequence([]))\n        play(.madeUp)\n    }\n}\n",
    );
    assert_eq!(
        failures(&bad.criteria.symbols_exist),
        vec!["`.madeUp` is not a member of `UIMove`, the type expected here".to_owned()]
    );
    // the importer drops a word repeating the type's name from inside a base name
    let ok = check(
        "import UIKit\nclass Scene: UIStage {\n    func f() {\n        play(.loopForever(.sequence([])))\n    }\n}\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
}

#[test]
fn methods_with_parameters_do_not_hide_an_inherited_property_of_their_base_name() {
    // `listView.register(…)` is the inherited property, not `listView(_:rowsIn:)`
    let src = |label: &str| {
        format!(
            "import UIKit\nclass Settings: UIListController {{\n    func setUp() {{\n        \
             listView.register(Settings.self, {label}: \"row\")\n    }}\n    func listView(_ listView: \
             UIListView, rowsIn section: Int) -> Int {{ 0 }}\n}}\n"
        )
    };
    let bad = check(&src("forCellWithReuseIdentifier"));
    assert!(
        failures(&bad.criteria.symbols_exist)
            .iter()
            .any(|m| m.contains("no `register` overload on `UIListView`")),
        "{:?}",
        messages(&bad.criteria.symbols_exist)
    );
    let ok = check(&src("forCellReuseIdentifier"));
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    // a property of the source's own of that name still hides the inherited one
    let own = check(
        "import UIKit\nclass Settings: UIListController {\n    var listView = 3\n    func setUp() {\n        \
         listView.register(Settings.self, forCellWithReuseIdentifier: \"row\")\n    }\n}\n",
    );
    assert!(
        !messages(&own.criteria.symbols_exist)
            .iter()
            .any(|m| m.contains("UIListView")),
        "{:?}",
        messages(&own.criteria.symbols_exist)
    );
}

#[test]
fn a_protocol_extensions_self_element_result_is_the_receivers_element() {
    // `Sequence.sorted(by:)` gives `[Self.Element]`: on `[String]`, an array of strings
    let bad =
        check("func f(xs: [String]) {\n    _ = xs.sorted(by: { _, _ in true }).first?.madeUp\n}\n");
    assert_eq!(
        failures(&bad.criteria.symbols_exist),
        vec!["`String` has no member `madeUp` in the SDK index".to_owned()]
    );
    // and of tuples on an enumerated sequence
    let tuple = check(
        "func f(xs: [String]) {\n    for (i, x) in xs.enumerated().sorted(by: { _, _ in true }) {\n        _ = (i.isEven, x.uppercased())\n    }\n}\n",
    );
    assert_eq!(
        failures(&tuple.criteria.symbols_exist),
        vec!["`Int` has no member `isEven` in the SDK index".to_owned()]
    );
    let ok = check(
        "func f(xs: [String]) {\n    _ = xs.sorted(by: { _, _ in true }).first?.uppercased()\n}\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
}

#[test]
fn a_failable_initializers_value_has_optionals_members() {
    // `Double(text)` may be `Double?`: `map` is `Optional`'s
    let ok = check("func f(text: String) -> Int? {\n    Double(text).map { Int($0) }\n}\n");
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    // a member neither `Double` nor `Optional` has is still missing
    let bad = check("func f(text: String) {\n    _ = Double(text).madeUp\n}\n");
    assert_eq!(
        failures(&bad.criteria.symbols_exist),
        vec!["`Double` has no member `madeUp` in the SDK index".to_owned()]
    );
}

#[test]
fn subscripts_of_arrays_and_dictionaries_give_their_elements() {
    // an integer index (a loop over an integer range, arithmetic on it) gives an element
    let bad = check(
        "func f(xs: [String]) {\n    for i in 1..<xs.count {\n        _ = xs[i - 1].madeUp\n    }\n}\n",
    );
    assert_eq!(
        failures(&bad.criteria.symbols_exist),
        vec!["`String` has no member `madeUp` in the SDK index".to_owned()]
    );
    let ok = check(
        "func f(xs: [String]) {\n    for i in 1..<xs.count {\n        _ = xs[i - 1].uppercased()\n    }\n}\n",
    );
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    // a dictionary's key gives its optional value
    let dict = check("func f(d: [String: String]) {\n    _ = d[\"a\"]?.madeUp\n}\n");
    assert_eq!(
        failures(&dict.criteria.symbols_exist),
        vec!["`String` has no member `madeUp` in the SDK index".to_owned()]
    );
    // a range (or an index of unknown type) is not an element: unverifiable
    for src in [
        "func f(xs: [String]) {\n    _ = xs[1...].madeUp\n}\n",
        "func f(xs: [String], r: Range<Int>) {\n    _ = xs[r].madeUp\n}\n",
        "struct K {}\nfunc f(xs: [String], k: K) {\n    _ = xs[k].madeUp\n}\n",
    ] {
        let r = check(src);
        assert!(
            r.symbols_exist,
            "{src}: {:?}",
            messages(&r.criteria.symbols_exist)
        );
    }
}

#[test]
fn a_member_without_a_call_is_the_property_not_a_method_of_its_base_name() {
    // `legacyInset` is deprecated; `legacyInset(scaled:)` is not and does not excuse it
    let dep = check("import UIKit\nfunc f(g: UIGauge) -> Int {\n    g.legacyInset\n}\n");
    assert!(
        !dep.no_deprecated,
        "{:?}",
        messages(&dep.criteria.no_deprecated)
    );
    let ok =
        check("import UIKit\nfunc f(g: UIGauge) -> Int {\n    g.legacyInset(scaled: true)\n}\n");
    assert!(
        ok.no_deprecated,
        "{:?}",
        messages(&ok.criteria.no_deprecated)
    );
}

#[test]
fn closure_parameters_through_a_typealias_of_a_function_type() {
    let src = |member: &str| {
        format!(
            "import Foundation\nfinal class Meter {{\n    var value = 0.0\n    let sensor = UISensor()\n    func start() {{\n        \
             sensor.startUpdates(to: 1) {{ [weak self] data, _ in\n            guard let data else {{ return }}\n            \
             self?.value = data.{member}\n        }}\n    }}\n}}\n"
        )
    };
    let bad = check(&src("tilt"));
    assert_eq!(
        failures(&bad.criteria.symbols_exist),
        vec!["`UIReading` has no member `tilt` in the SDK index".to_owned()],
        "{:?}",
        messages(&bad.criteria.symbols_exist)
    );
    let ok = check(&src("level"));
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    let generic = check("import Foundation\nfunc f(s: UISensor) {\n    s.pick { $0.madeUp }\n}\n");
    assert!(
        generic.symbols_exist,
        "{:?}",
        messages(&generic.criteria.symbols_exist)
    );
}

#[test]
fn a_nested_type_of_a_specialized_generic_type_is_not_an_implicit_member() {
    // `Date<Int>.FormatStyle()` parses as `Date < (Int > .FormatStyle())`
    let ok = check("import Foundation\nlet style = Date<Int>.FormatStyle()\n");
    assert!(
        ok.symbols_exist,
        "{:?}",
        messages(&ok.criteria.symbols_exist)
    );
    assert_eq!(metric(&ok.criteria.symbols_exist, "missing"), 0.0);
    // a nested type the index lacks is unverifiable there, never missing
    let unknown = check("import Foundation\nlet style = Date<Int>.MadeUpStyle()\n");
    assert!(
        unknown.symbols_exist,
        "{:?}",
        messages(&unknown.criteria.symbols_exist)
    );
    assert!(
        messages(&unknown.criteria.symbols_exist)
            .iter()
            .any(|m| m.contains("unverifiable: `Date<…>.MadeUpStyle`")),
        "{:?}",
        messages(&unknown.criteria.symbols_exist)
    );
}

#[test]
fn a_composition_is_its_part_that_inherits_the_others() {
    let bad = check(
        "import Foundation\nfunc f() {\n    let b = Filters.blur()\n    _ = (b.radius, b.output)\n    _ = b.blurRadius\n}\n",
    );
    assert_eq!(
        failures(&bad.criteria.symbols_exist),
        vec!["`Blur` has no member `blurRadius` in the SDK index".to_owned()],
        "{:?}",
        messages(&bad.criteria.symbols_exist)
    );
    // no part inherits the other: unverifiable
    let odd = check("import Foundation\nfunc f() {\n    _ = Filters.odd().madeUp\n}\n");
    assert!(
        odd.symbols_exist,
        "{:?}",
        messages(&odd.criteria.symbols_exist)
    );
}

#[test]
fn a_member_of_the_sources_own_root_class_never_excuses_an_sdk_types_missing_member() {
    let src = |decl: &str| {
        format!(
            "import Foundation\n{decl} {{\n    func madeUp(for url: URL) -> String {{ \"\" }}\n    \
             func run(_ url: URL) {{\n        _ = url.appending(path: \"a\").madeUp\n    }}\n}}\n"
        )
    };
    for decl in ["final class Resolver", "actor Resolver"] {
        let r = check(&src(decl));
        assert_eq!(
            failures(&r.criteria.symbols_exist),
            vec!["`URL` has no member `madeUp` in the SDK index".to_owned()],
            "{decl}"
        );
    }
    // a class with a superclass or conformances may be what an SDK-typed value really is
    let sub = check(&src("final class Resolver: DateFormatter"));
    assert!(
        sub.symbols_exist,
        "{:?}",
        messages(&sub.criteria.symbols_exist)
    );
}

#[test]
fn a_static_member_of_a_specialized_generic_type_is_checked_like_the_type_s() {
    // `Activity<A>.request(…)` parses as `Activity < (A > .request(…))`; the ActivityKit
    // overload taking `contentState:` is deprecated since iOS 16.2
    let src = "import ActivityKit\nstruct A {\n    struct ContentState { var n: Int }\n}\nfunc start(a: A, s: A.ContentState) throws {\n    _ = try Activity<A>.request(attributes: a, contentState: s, pushType: nil)\n}\n";
    let out = check(src);
    assert!(
        !out.no_deprecated,
        "{:?}",
        messages(&out.criteria.no_deprecated)
    );
    assert!(
        out.symbols_exist,
        "{:?}",
        messages(&out.criteria.symbols_exist)
    );
}
