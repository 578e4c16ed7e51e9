//! What the index knows about a type and everything it inherits (its closure): whether a member
//! list can be trusted to be complete, near spellings of imported Objective-C names, and the
//! supertypes of the source's own type declarations.

use tree_sitter::Node;

use super::types::Ty;
use super::{Analyzer, children};
use crate::builtins;
use crate::index::{F_APPROX, F_OBJC, SymId, SymbolKind, base_name};

impl<'a> Analyzer<'a> {
    pub(super) fn closure_of(&mut self, path: &str) -> Vec<u32> {
        if let Some(c) = self.memo_closure.get(path) {
            return c.clone();
        }
        let c = match self.index.str_id(path) {
            Some(id) => self.index.type_closure(id),
            None => Vec::new(),
        };
        self.memo_closure.insert(path.to_owned(), c.clone());
        c
    }

    /// Whether the index's member list of a type may be incomplete: as the receiver itself
    /// (`root`), a typealias, associated type or extension-only placeholder, or an imported
    /// error struct (`URLError`, with its nested `Code`: its initializers and members come
    /// from an underscored protocol the graphs omit); as a supertype,
    /// a type the index lacks or knows only from extensions (`NSObject` aside: its members are
    /// built in). Typealiased supertypes (`Codable`) are compositions of listed protocols.
    fn incomplete(&mut self, path_id: u32, root: bool) -> bool {
        let key = path_id.wrapping_mul(2) | u32::from(root);
        if let Some(&b) = self.memo_incomplete.get(&key) {
            return b;
        }
        let path = self.index.s(path_id).to_owned();
        let b = if matches!(path.as_str(), "NSObject" | "NSObjectProtocol")
            || (!root && builtins::HIDDEN_PROTOCOLS_WITHOUT_MEMBERS.contains(&path.as_str()))
        {
            false
        } else {
            let syms = self.index.type_syms(&path);
            let kinds: Vec<SymbolKind> = syms
                .iter()
                .filter_map(|&id| self.index.sym(id).map(|s| s.kind))
                .collect();
            let declared = kinds.iter().any(|k| {
                matches!(
                    k,
                    SymbolKind::Struct
                        | SymbolKind::Class
                        | SymbolKind::Enum
                        | SymbolKind::Protocol
                )
            });
            if root {
                !declared
                    || self.index.is_type(&format!("{path}.Code"))
                    || self.objc_enum_without_cases(path_id, &syms)
                    || self.objc_struct_without_conformances(path_id, &syms)
            } else {
                !declared && !kinds.contains(&SymbolKind::Typealias)
            }
        };
        self.memo_incomplete.insert(key, b);
        b
    }

    /// An imported Objective-C enum the index lists no case of (`ComparisonResult`: the
    /// header's case names were not derived): its cases exist, under unknown names.
    fn objc_enum_without_cases(&self, path_id: u32, syms: &[SymId]) -> bool {
        let objc_enum = syms.iter().any(|&id| {
            self.index
                .sym(id)
                .is_some_and(|s| s.kind == SymbolKind::Enum && s.flags & (F_APPROX | F_OBJC) != 0)
        });
        objc_enum
            && !self.index.children(path_id).into_iter().any(|c| {
                self.index
                    .sym(c)
                    .is_some_and(|s| s.kind == SymbolKind::EnumCase)
            })
    }

    /// Whether the index's constants (cases) of an imported type may be partial: an
    /// Objective-C enum without cases or struct without conformances.
    pub(super) fn imported_constants_partial(&self, path: &str) -> bool {
        let Some(id) = self.index.str_id(path) else {
            return false;
        };
        let syms = self.index.type_syms(path);
        self.objc_enum_without_cases(id, &syms) || self.objc_struct_without_conformances(id, &syms)
    }

    /// An imported Objective-C struct the index knows no conformance of (an `NS_OPTIONS` or
    /// typed-constant type always imports as `OptionSet` or `RawRepresentable`, `Hashable`):
    /// it comes from the header reader alone, whose reading of its constants may be partial
    /// (`HKStatisticsOptions` with `separateBySource` but not `cumulativeSum`).
    fn objc_struct_without_conformances(&self, path_id: u32, syms: &[SymId]) -> bool {
        syms.iter().any(|&id| {
            self.index
                .sym(id)
                .is_some_and(|s| s.kind == SymbolKind::Struct && s.flags & (F_APPROX | F_OBJC) != 0)
        }) && self.index.type_closure(path_id).len() <= 1
    }

    /// `closure` as built by [`Self::closure_of`] for each of `roots`.
    fn closure_incomplete(&mut self, closure: &[u32]) -> bool {
        closure.iter().enumerate().any(|(i, &t)| {
            let root = i == 0;
            self.incomplete(t, root)
        })
    }

    pub(super) fn roots_incomplete(&mut self, roots: &[&str]) -> bool {
        for r in roots {
            let c = self.closure_of(r);
            if c.is_empty() || self.closure_incomplete(&c) {
                return true;
            }
        }
        false
    }

    pub(super) fn closure_has(&self, closure: &[u32], name: &str) -> bool {
        self.index
            .str_id(name)
            .is_some_and(|id| closure.contains(&id))
    }

    pub(super) fn has_dynamic_members(&self, closure: &[u32]) -> bool {
        !self
            .index
            .member_ids_in(closure, "subscript(dynamicMember:)")
            .is_empty()
    }

    /// Imported Objective-C names are approximations: accept near spellings. A real Swift
    /// name can differ from the index's derived one by case, or be the literal first selector
    /// piece minus a trailing word the importer moved into the first label
    /// (`popViewController(animated:)` for `popViewControllerAnimated:`).
    pub(super) fn objc_near(&self, closure: &[u32], name: &str) -> bool {
        let lname = name.to_ascii_lowercase();
        for &t in closure {
            for id in self.index.children(t) {
                let Some(s) = self.index.sym(id) else {
                    continue;
                };
                if s.flags & (F_APPROX | F_OBJC) == 0 {
                    continue;
                }
                let base = self.index.s(s.base);
                if base.to_ascii_lowercase() == lname {
                    return true;
                }
                // a derived case name can lack leading words the Swift importer keeps (it
                // strips only the prefix the cases share with the enum's name:
                // `NSOrderedDescending` is `.orderedDescending`, derived `.descending`)
                if matches!(s.kind, SymbolKind::EnumCase | SymbolKind::TypeProperty)
                    && s.flags & F_APPROX != 0
                    && over_stripped(base, name)
                {
                    return true;
                }
                // only a method's first selector piece can lose a word to its first label
                // (an enum case's or property's derived name is whole: `.email` is not
                // `.emailAddress`)
                if s.flags & F_APPROX == 0
                    || !s.kind.is_callable()
                    || s.kind == SymbolKind::EnumCase
                {
                    continue;
                }
                // the importer's omit-needless-words can drop a word repeating the
                // declaring type's name from inside a base name (`repeatActionForever:` of
                // `SKAction` is `repeatForever(_:)`)
                let owner = self.index.s(s.parent);
                let owner = owner.rsplit('.').next().unwrap_or(owner);
                if drops_inner_word(base, name, owner) {
                    return true;
                }
                let alts = self
                    .index
                    .alt_ids(s)
                    .iter()
                    .map(|&a| base_name(self.index.s(a)));
                for literal in std::iter::once(base).chain(alts) {
                    if name.len() >= 3
                        && literal.len() > name.len()
                        && literal.starts_with(name)
                        && literal[name.len()..].starts_with(|c: char| c.is_ascii_uppercase())
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The imported methods of `closure` whose name is `name` followed by words repeating
    /// their type's name (`calculateDirections(completionHandler:)` of `MKDirections` for
    /// `calculate`).
    pub(super) fn objc_near_callables(&self, closure: &[u32], name: &str) -> Vec<SymId> {
        let mut out = Vec::new();
        if name.len() < 3 {
            return out;
        }
        for &t in closure {
            for id in self.index.children(t) {
                let Some(s) = self.index.sym(id) else {
                    continue;
                };
                if s.flags & (F_APPROX | F_OBJC) == 0
                    || !s.kind.is_callable()
                    || s.kind == SymbolKind::EnumCase
                {
                    continue;
                }
                let base = self.index.s(s.base);
                // the words dropped must repeat the declaring type's name, as the
                // importer's omit-needless-words drops them (`Directions` of `MKDirections`;
                // `calculateETA` stays)
                let owner = self.index.s(s.parent);
                let owner = owner.rsplit('.').next().unwrap_or(owner);
                if base.len() > name.len()
                    && base.starts_with(name)
                    && base[name.len()..].starts_with(|c: char| c.is_ascii_uppercase())
                    && owner.ends_with(&base[name.len()..])
                {
                    out.push(id);
                }
            }
        }
        out
    }

    /// Whether the symbol stands for several overloads (see `Decl::merged`).
    pub(super) fn sym_merged(&self, id: SymId) -> bool {
        self.index
            .sym(id)
            .is_some_and(|s| s.flags & crate::index::F_MERGED != 0)
    }

    pub(super) fn sym_is_objc(&self, id: SymId) -> bool {
        self.index
            .sym(id)
            .is_some_and(|s| s.flags & (F_APPROX | F_OBJC) != 0)
    }

    /// The SDK types a type declaration names: its supertypes, or the type it extends.
    pub(super) fn supertypes_written(&self, n: Node<'_>) -> Vec<String> {
        let mut out = Vec::new();
        for c in children(n) {
            let t = match c.kind() {
                "inheritance_specifier" => c.child_by_field_name("inherits_from"),
                "user_type" if Some(c) == n.child_by_field_name("name") => Some(c),
                _ => None,
            };
            if let Some(t) = t
                && let Ty::Sdk { path, .. } = self.ty_of_type_node(t)
            {
                out.push(path);
            }
        }
        out
    }

    /// A nested type (`Context`, `Body`) reached through an enclosing type's supertypes.
    pub(super) fn contextual_type(&mut self, name: &str) -> Option<Vec<SymId>> {
        let ctx: Vec<String> = self.type_ctx.iter().rev().flatten().cloned().collect();
        for p in ctx {
            let closure = self.closure_of(&p);
            let ids: Vec<SymId> = self
                .index
                .member_ids_in(&closure, name)
                .into_iter()
                .filter(|&id| self.index.sym(id).is_some_and(|s| s.kind.is_type()))
                .collect();
            if !ids.is_empty() {
                return Some(ids);
            }
        }
        None
    }
}

/// Whether `name` is `derived` with leading words put back (`orderedDescending` for
/// `descending`).
pub(super) fn over_stripped(derived: &str, name: &str) -> bool {
    let mut d = derived.chars();
    let Some(first) = d.next() else {
        return false;
    };
    let tail = format!("{}{}", first.to_ascii_uppercase(), d.as_str());
    derived.len() >= 3
        && name.len() > tail.len()
        && name.ends_with(&tail)
        && name.starts_with(|c: char| c.is_ascii_lowercase())
}

/// Whether `name` is `base` without one inner capitalized word that ends `owner`
/// (`repeatForever` for `repeatActionForever` of `SKAction`): a word at neither end.
fn drops_inner_word(base: &str, name: &str, owner: &str) -> bool {
    if base.len() <= name.len() || !base.is_ascii() || !name.is_ascii() {
        return false;
    }
    let cut = base.len() - name.len();
    let prefix = base
        .bytes()
        .zip(name.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    (1..=prefix).any(|i| {
        let (head, rest) = base.split_at(i);
        let (word, tail) = rest.split_at(cut);
        word.starts_with(|c: char| c.is_ascii_uppercase())
            && tail.starts_with(|c: char| c.is_ascii_uppercase())
            && owner.ends_with(word)
            && name.len() == head.len() + tail.len()
            && name.starts_with(head)
            && name.ends_with(tail)
    })
}
