//! What every source of SDK facts produces before it becomes an [`Index`]: declarations with
//! their path, kind, availability and types, and the conformance / inheritance edges between
//! types. The symbol-graph reader (`build.rs`), the `.swiftinterface` reader and the
//! Objective-C header reader (`sdk/`) all write a [`DeclSet`]; [`DeclSet::into_index`] is the
//! one way to an index.

use std::collections::{BTreeMap, BTreeSet};

use super::{Availability, Index, SymbolKind};
use crate::version::Target;

/// One parameter of a callable: its argument label (`_` when unlabeled), its type in the
/// normalized spelling of [`super::TypeRef`], and whether it has a default value.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Param {
    pub label: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ty: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub default: bool,
}

/// One declaration.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decl {
    pub module: String,
    /// Path components: `["View", "navigationDestination(for:destination:)"]`.
    pub path: Vec<String>,
    pub kind: SymbolKind,
    pub availability: Vec<Availability>,
    /// A property's or variable's type; a function's, method's or subscript's return type
    /// (`Void` when it returns nothing); an initializer's result (`Self`, `Self?` when
    /// failable); a typealias's aliased type. Normalized ([`super::TypeRef`]).
    pub ty: Option<String>,
    /// The parameters of a callable (and an enum case's payload), aligned with the title's
    /// labels; `None` when the source did not say.
    pub params: Option<Vec<Param>>,
    /// Generic parameters and their constraints as written: `T: Decodable, U == Int`.
    pub generics: Option<String>,
    pub throws: bool,
    pub is_async: bool,
    pub failable: bool,
    /// Imported from Objective-C.
    pub objc: bool,
    /// The Swift spelling of an imported name was derived heuristically.
    pub approximate: bool,
    pub alternates: Vec<String>,
    /// A placeholder for a type known only through extensions.
    pub synthesized: bool,
    pub actor: bool,
    /// Declared in a constrained extension (`extension X where …`).
    pub constrained: bool,
    /// The symbol stands for several overloads of one name the SDK declares (the graphs
    /// merged them): its recorded parameter types are one overload's.
    pub merged: bool,
    /// An `@optional` protocol requirement.
    pub optional_requirement: bool,
    /// The Objective-C selector of an imported method (matching sources; not stored).
    pub selector: Option<String>,
    /// The C name of an imported global constant (`NSURLFileSizeKey`), or the Objective-C
    /// container and name of an imported property (`NSURL(py)path`); matching sources, not
    /// stored.
    pub c_name: Option<String>,
}

impl Decl {
    /// `View.navigationDestination(for:destination:)`.
    pub fn joined(&self) -> String {
        self.path.join(".")
    }
}

/// A conformance (`inherits == false`) or superclass edge between two type paths.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Relation {
    pub source: String,
    pub target: String,
    pub inherits: bool,
}

/// Everything one or more sources declared.
#[derive(Clone, Debug, Default)]
pub struct DeclSet {
    pub decls: Vec<Decl>,
    pub relations: Vec<Relation>,
    pub modules: BTreeSet<String>,
    /// The SDK the declarations describe.
    pub platform: Option<Target>,
    /// Free text: the generator(s).
    pub sources: BTreeSet<String>,
    /// The frameworks each framework's Objective-C headers import (`#import <X/…>`): what
    /// importing it makes visible (matching sources; not stored).
    pub header_imports: BTreeMap<String, BTreeSet<String>>,
    /// The frameworks with Objective-C headers that Swift code can `import` (a
    /// `Modules/module.modulemap`; matching sources, not stored).
    pub importable: BTreeSet<String>,
}

impl DeclSet {
    /// Appends another set (its declarations after this one's).
    pub fn extend(&mut self, other: DeclSet) {
        self.decls.extend(other.decls);
        self.relations.extend(other.relations);
        self.modules.extend(other.modules);
        if self.platform.is_none() {
            self.platform = other.platform;
        }
        self.sources.extend(other.sources);
        for (m, i) in other.header_imports {
            self.header_imports.entry(m).or_default().extend(i);
        }
        self.importable.extend(other.importable);
    }

    /// The index of these declarations.
    pub fn into_index(self) -> Index {
        super::build::index_from_decls(self)
    }
}
