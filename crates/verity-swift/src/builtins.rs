//! Names the Swift language provides that no symbol graph lists: keywords used like types,
//! compiler-known attributes and freestanding directives, and `NSObject`'s own members (the
//! SDK index synthesizes `NSObject` without them).

/// Type-like names every Swift file may use (beyond the `Swift` module in the index).
pub(crate) const TYPES: &[&str] = &[
    "Any",
    "AnyObject",
    "Self",
    "Type",
    "Protocol",
    "Void",
    "Never",
    "some",
    "any",
];

/// Attributes the compiler knows (no symbol declares them).
pub(crate) const ATTRIBUTES: &[&str] = &[
    "available",
    "main",
    "objc",
    "objcMembers",
    "nonobjc",
    "escaping",
    "autoclosure",
    "discardableResult",
    "inlinable",
    "inline",
    "usableFromInline",
    "frozen",
    "unknown",
    "propertyWrapper",
    "resultBuilder",
    "dynamicMemberLookup",
    "dynamicCallable",
    "testable",
    "IBOutlet",
    "IBAction",
    "IBDesignable",
    "IBInspectable",
    "IBSegueAction",
    "GKInspectable",
    "NSManaged",
    "NSCopying",
    "NSApplicationMain",
    "UIApplicationMain",
    "Sendable",
    "preconcurrency",
    "unchecked",
    "retroactive",
    "convention",
    "globalActor",
    "attached",
    "freestanding",
    "backDeployed",
    "requires_stored_property_inits",
    "warn_unqualified_access",
    "differentiable",
    "derivative",
    "transpose",
    "noDerivative",
    "exclusivity",
    "noescape",
    "noreturn",
    "implementation",
    "isolated",
    "nonisolated",
    "unsafe",
    "safe",
    "extern",
    "section",
    "used",
    "lifetime",
    "storageRestrictions",
    "abi",
    "specialize",
    "inheritable",
    "execution",
    "concurrent",
    "MainActor",
    "GlobalActor",
];

/// Freestanding directives and literals (`#available`, `#selector`, …).
pub(crate) const DIRECTIVES: &[&str] = &[
    "available",
    "unavailable",
    "selector",
    "keyPath",
    "file",
    "fileID",
    "filePath",
    "line",
    "column",
    "function",
    "dsohandle",
    "colorLiteral",
    "imageLiteral",
    "fileLiteral",
    "warning",
    "error",
    "sourceLocation",
    "externalMacro",
    "isolation",
    "if",
    "elseif",
    "else",
    "endif",
];

/// Free functions the compiler provides.
pub(crate) const FUNCTIONS: &[&str] = &[
    "type",
    "withoutActuallyEscaping",
    "_openExistential",
    "isolation",
];

/// Members every `NSObject` subclass has (from `NSObject` / `NSObjectProtocol`, which the
/// index synthesizes without members).
/// Underscored standard-library protocols the symbol graphs omit whose members are all
/// underscored (`_bridgeToObjectiveC()`) or obsoleted in Swift 5 (`customPlaygroundQuickLook`):
/// as a supertype the index lacks, they hide no member code can call.
pub(crate) const HIDDEN_PROTOCOLS_WITHOUT_MEMBERS: &[&str] = &[
    "_ObjectiveCBridgeable",
    "_CustomPlaygroundQuickLookable",
    "_HasCustomAnyHashableRepresentation",
];

pub(crate) const NSOBJECT_MEMBERS: &[&str] = &[
    "init",
    "description",
    "debugDescription",
    "hash",
    "hashValue",
    "isEqual",
    "perform",
    "responds",
    "isKind",
    "isMember",
    "conforms",
    "copy",
    "mutableCopy",
    "self",
    "superclass",
    "classForCoder",
    "classForKeyedArchiver",
    "isProxy",
    "method",
    "forwardingTarget",
    "doesNotRecognizeSelector",
    "value",
    "setValue",
    "setValuesForKeys",
    "observeValue",
    "addObserver",
    "removeObserver",
    "willChangeValue",
    "didChangeValue",
    "awakeAfter",
    "replacementObject",
    "autoContentAccessingProxy",
    "attemptRecovery",
    "dictionaryWithValues",
    "mutableArrayValue",
    "mutableSetValue",
    "mutableOrderedSetValue",
    "validateValue",
    "instancesRespond",
    "instanceMethod",
    "isSubclass",
    "load",
    "initialize",
    "new",
    "alloc",
    "dealloc",
    "finalize",
    "className",
    "classForArchiver",
    "classForPortCoder",
    "cancelPreviousPerformRequests",
    "isEqualTo",
    "accessibilityLabel",
    "accessibilityHint",
    "accessibilityValue",
    "accessibilityTraits",
    "isAccessibilityElement",
    "accessibilityIdentifier",
    "observe",
];

/// Type names whose static (type) properties are assumed to return the type itself
/// (`Color.red`, `Font.title`, `UIColor.systemBlue`).
pub(crate) const SELF_STATIC_TYPES: &[&str] = &["Color", "Font", "UIColor", "UIFont"];

/// Static property names that return an instance of their own type by convention.
pub(crate) const SELF_STATIC_NAMES: &[&str] = &[
    "shared",
    "default",
    "standard",
    "current",
    "main",
    "processInfo",
    "autoupdatingCurrent",
    "defaultCenter",
    "sharedInstance",
];

/// Closure arities that tell same-label overloads apart where the symbol graph cannot (it
/// records no parameter types): `(title, allowed trailing-closure parameter counts)`.
pub(crate) const CLOSURE_ARITY: &[(&str, &[usize])] = &[
    ("onChange(of:perform:)", &[1]),
    ("onChange(of:initial:_:)", &[0, 2]),
];

/// Standard-library sequence methods whose closure parameters are elements (the index has
/// no Swift standard library signatures): `(title, how many Element parameters)`, for the
/// closure passed last on an `Array`, `Set` or `ArraySlice` of a known element type.
pub(crate) const ELEMENT_CLOSURES: &[(&str, usize)] = &[
    ("allSatisfy(_:)", 1),
    ("compactMap(_:)", 1),
    ("contains(where:)", 1),
    ("drop(while:)", 1),
    ("filter(_:)", 1),
    ("first(where:)", 1),
    ("firstIndex(where:)", 1),
    ("flatMap(_:)", 1),
    ("forEach(_:)", 1),
    ("last(where:)", 1),
    ("lastIndex(where:)", 1),
    ("map(_:)", 1),
    ("max(by:)", 2),
    ("min(by:)", 2),
    ("prefix(while:)", 1),
    ("removeAll(where:)", 1),
    ("sort(by:)", 2),
    ("sorted(by:)", 2),
];

/// Apple module names that may be imported although the iOS index has no graph for them
/// (their symbols are then unverifiable, not hallucinated).
pub(crate) fn is_builtin_module(name: &str) -> bool {
    matches!(
        name,
        "Swift" | "_Concurrency" | "_StringProcessing" | "ObjectiveC"
    )
}

/// Swift keywords the grammar sometimes parses as a call (`defer { … }` in top-level code).
pub(crate) const KEYWORDS: &[&str] = &[
    "defer",
    "guard",
    "return",
    "throw",
    "repeat",
    "do",
    "catch",
    "await",
    "try",
    "some",
    "any",
    "consume",
    "discard",
    "each",
    "yield",
    "switch",
    "if",
    "else",
    "while",
    "for",
    "in",
    "let",
    "var",
    "func",
    "case",
    "default",
    "break",
    "continue",
    "fallthrough",
    "where",
    "is",
    "as",
    "super",
    "self",
    "init",
    "deinit",
    "subscript",
    "inout",
    "borrowing",
    "consuming",
    "copy",
];

/// The operators of the language and its standard library (some not declared as functions
/// in any module's facts): an infix operator spelled like one of these is never reported.
pub(crate) const LANGUAGE_OPERATORS: &[&str] = &[
    "=", "->", "?", "!", "&", "??", "...", "..<", "~=", "===", "!==", "&&", "||", "==", "!=", "<",
    ">", "<=", ">=", "+", "-", "*", "/", "%", "|", "^", "~", "<<", ">>", "&+", "&-", "&*", "&<<",
    "&>>", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "&+=", "&-=", "&*=",
    "&<<=", "&>>=", ".==", ".!=", ".<", ".>", ".<=", ".>=", ".&", ".|", ".^", ".~", ".&=", ".|=",
    ".^=",
];
