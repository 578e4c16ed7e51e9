//! Declarations read from an SDK directory (an `iPhoneOS*.sdk` or a dump of one) rather than
//! from symbol graphs: the Swift modules' `.swiftinterface` files ([`swift`]), and the seam
//! for the Objective-C headers' reader ([`read_sdk`]). [`attach_types`] gives the facts-only
//! symbol graphs the types the SDK declares.

pub mod objc;
pub mod swift;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use super::{Decl, DeclSet, IndexError, Param, Relation, Result, SymbolKind};

pub use objc::{read_framework as read_objc_framework, read_objc_sdk};
pub use swift::{prepare, read_interface};

/// Everything an SDK directory declares: the Swift interfaces ([`read_swift_sdk`]) and the
/// Objective-C headers and API notes ([`read_objc_sdk`], declarations with
/// [`Decl::selector`] set).
/// Either side may be absent (an SDK of Swift modules only, a directory of framework
/// headers only); neither is an error naming the missing interfaces.
pub fn read_sdk(dir: &Path) -> Result<DeclSet> {
    match (read_swift_sdk(dir), read_objc_sdk(dir)) {
        (Ok(mut swift), Ok(objc)) => {
            swift.extend(objc);
            Ok(swift)
        }
        (Ok(swift), Err(IndexError::NoGraphs(_))) => Ok(swift),
        (Err(IndexError::NoInterfaces(_)), Ok(objc)) => Ok(objc),
        (Err(e), _) | (_, Err(e)) => Err(e),
    }
}

/// One module's interface file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterfaceFile {
    pub module: String,
    pub path: PathBuf,
}

/// The public modules' interface files under an SDK directory, one per module, sorted by
/// module: `System/Library/Frameworks/*.framework/Modules/`, the `System/Cryptexes/OS/`
/// copy of it, `Developer/Library/Frameworks/` and `usr/lib/swift/`. Private frameworks are
/// not looked at (`System/Library/PrivateFrameworks`); underscored modules are public API
/// (`_Concurrency`, cross-import overlays such as `_MapKit_SwiftUI`). The `arm64-apple-ios`
/// interface is preferred, then `arm64e-apple-ios`, then any other non-private one.
pub fn interface_files(dir: &Path) -> Result<Vec<InterfaceFile>> {
    if !dir.is_dir() {
        return Err(IndexError::Io {
            path: dir.display().to_string(),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, "not a directory"),
        });
    }
    let framework_dirs = [
        "System/Library/Frameworks",
        "System/Cryptexes/OS/System/Library/Frameworks",
        "Developer/Library/Frameworks",
    ];
    let mut found: BTreeMap<String, PathBuf> = BTreeMap::new();
    for fw_dir in framework_dirs {
        for fw in sorted_dir(&dir.join(fw_dir)) {
            if fw.extension().is_none_or(|e| e != "framework") {
                continue;
            }
            for m in sorted_dir(&fw.join("Modules")) {
                consider(&m, &mut found);
            }
        }
    }
    for m in sorted_dir(&dir.join("usr/lib/swift")) {
        consider(&m, &mut found);
    }
    Ok(found
        .into_iter()
        .map(|(module, path)| InterfaceFile { module, path })
        .collect())
}

fn sorted_dir(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.sort();
    v
}

fn consider(module_dir: &Path, found: &mut BTreeMap<String, PathBuf>) {
    if module_dir.extension().is_none_or(|e| e != "swiftmodule") || !module_dir.is_dir() {
        return;
    }
    let Some(module) = module_dir
        .file_stem()
        .and_then(|s| s.to_str())
        .map(str::to_owned)
    else {
        return;
    };
    if found.contains_key(&module) {
        return;
    }
    let files = sorted_dir(module_dir);
    let name = |p: &PathBuf| {
        p.file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_owned()
    };
    let pick = files
        .iter()
        .find(|p| name(p) == "arm64-apple-ios.swiftinterface")
        .or_else(|| {
            files
                .iter()
                .find(|p| name(p) == "arm64e-apple-ios.swiftinterface")
        })
        .or_else(|| {
            files.iter().find(|p| {
                let n = name(p);
                n.ends_with(".swiftinterface")
                    && !n.ends_with(".private.swiftinterface")
                    && !n.ends_with(".package.swiftinterface")
            })
        });
    if let Some(p) = pick {
        found.insert(module, p.clone());
    }
}

/// Reads every public module's `.swiftinterface` under an SDK directory (see
/// [`interface_files`]); an error when there is none.
pub fn read_swift_sdk(dir: &Path) -> Result<DeclSet> {
    let files = interface_files(dir)?;
    if files.is_empty() {
        return Err(IndexError::NoInterfaces(dir.display().to_string()));
    }
    // type spellings may be qualified with any module: the Swift ones and the Clang-only
    // frameworks (`extension CoreAudioTypes.AudioBuffer`)
    let mut modules: BTreeSet<String> = files.iter().map(|f| f.module.clone()).collect();
    for fw in sorted_dir(&dir.join("System/Library/Frameworks")) {
        if fw.extension().is_some_and(|e| e == "framework")
            && let Some(name) = fw.file_stem().and_then(|n| n.to_str())
        {
            modules.insert(name.to_owned());
        }
    }
    let mut texts = Vec::with_capacity(files.len());
    for f in &files {
        let text = std::fs::read_to_string(&f.path).map_err(|e| IndexError::Io {
            path: f.path.display().to_string(),
            source: e,
        })?;
        texts.push((f.module.clone(), text));
    }
    // two workers: tree-sitter parses are independent
    let half = texts.len().div_ceil(2);
    let (a, b) = texts.split_at(half);
    let read = |chunk: &[(String, String)]| -> Vec<DeclSet> {
        chunk
            .iter()
            .map(|(m, t)| swift::read_interface_in(m, t, &modules))
            .collect()
    };
    let (ra, rb) = std::thread::scope(|s| {
        let h = s.spawn(|| read(b));
        let ra = read(a);
        (ra, h.join().unwrap_or_default())
    });
    let mut set = DeclSet::default();
    for part in ra.into_iter().chain(rb) {
        set.extend(part);
    }
    set.sources = BTreeSet::from([format!(
        "swiftinterface ({} modules of {})",
        files.len(),
        dir.file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("an SDK directory")
    )]);
    finish(&mut set);
    Ok(set)
}

/// Cross-module facts: a class's first supertype is its superclass when it is a class, and a
/// type extended in a module that does not declare it (nor does any other) gets a
/// synthesized placeholder so its members have a parent.
fn finish(set: &mut DeclSet) {
    let classes: BTreeSet<String> = set
        .decls
        .iter()
        .filter(|d| d.kind == SymbolKind::Class)
        .map(Decl::joined)
        .collect();
    for r in &mut set.relations {
        if classes.contains(&r.source) && classes.contains(&r.target) {
            r.inherits = true;
        }
    }
    set.relations.sort();
    set.relations.dedup();
    let types: BTreeSet<String> = set
        .decls
        .iter()
        .filter(|d| d.kind.is_type())
        .map(Decl::joined)
        .collect();
    let mut missing: BTreeSet<(String, Vec<String>)> = BTreeSet::new();
    for d in &set.decls {
        for n in 1..d.path.len() {
            let parent = &d.path[..n];
            if !types.contains(&parent.join(".")) {
                missing.insert((d.module.clone(), parent.to_vec()));
            }
        }
    }
    for (module, path) in missing {
        set.decls.push(Decl {
            module,
            path,
            kind: SymbolKind::Extension,
            synthesized: true,
            ..Decl::default()
        });
    }
}

/// How many declarations of one module got types.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModuleMerge {
    /// Declarations of the base with an SDK counterpart (types attached).
    pub matched: usize,
    /// Declarations of the base without one.
    pub unmatched: usize,
    /// SDK declarations with no declaration of that module, path and kind in the base.
    pub sdk_only: usize,
    /// A few of them, `Type.member (kind)`.
    pub sdk_only_examples: Vec<String>,
    /// SDK-only declarations by kind.
    pub sdk_only_kinds: BTreeMap<&'static str, usize>,
    /// SDK-only declarations added to the index: those of Objective-C headers the base did
    /// not read but the headers it read import (see [`attach_types`]).
    pub added: usize,
    /// Base declarations renamed by the importer's rules (see [`attach_types`]).
    pub renamed: usize,
}

/// What [`attach_types`] did, per module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeStats {
    pub modules: BTreeMap<String, ModuleMerge>,
    /// Matched declarations whose two sources disagree on the number of parameters (their
    /// parameters are left unrecorded).
    pub arity_mismatches: usize,
}

impl MergeStats {
    pub fn matched(&self) -> usize {
        self.modules.values().map(|m| m.matched).sum()
    }
    pub fn unmatched(&self) -> usize {
        self.modules.values().map(|m| m.unmatched).sum()
    }
    pub fn sdk_only(&self) -> usize {
        self.modules.values().map(|m| m.sdk_only).sum()
    }
    pub fn added(&self) -> usize {
        self.modules.values().map(|m| m.added).sum()
    }
    pub fn renamed(&self) -> usize {
        self.modules.values().map(|m| m.renamed).sum()
    }
}

impl fmt::Display for MergeStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<32} {:>8} {:>9} {:>8} {:>6} {:>7}",
            "module", "matched", "unmatched", "sdk-only", "added", "renamed"
        )?;
        for (m, s) in &self.modules {
            writeln!(
                f,
                "{m:<32} {:>8} {:>9} {:>8} {:>6} {:>7}",
                s.matched, s.unmatched, s.sdk_only, s.added, s.renamed
            )?;
        }
        writeln!(
            f,
            "{:<32} {:>8} {:>9} {:>8} {:>6} {:>7}",
            "total",
            self.matched(),
            self.unmatched(),
            self.sdk_only(),
            self.added(),
            self.renamed()
        )?;
        writeln!(
            f,
            "{} matched declaration(s) with a different number of parameters (left untyped)",
            self.arity_mismatches
        )
    }
}

/// The selector a literal spelling of an imported method names (`seekToTime(_:)` →
/// `seekToTime:`, `seekToTime(_:completionHandler:)` → `seekToTime:completionHandler:`).
fn literal_selector(title: &str) -> Option<String> {
    let labels = super::title_labels(title)?;
    let base = super::base_name(title);
    if labels.is_empty() {
        return Some(base.to_owned());
    }
    let mut s = base.to_owned();
    s.push(':');
    for l in &labels[1..] {
        s.push_str(l);
        s.push(':');
    }
    Some(s)
}

type Key = (String, String, SymbolKind);

fn key(d: &Decl) -> Key {
    (d.module.clone(), d.joined(), d.kind)
}

/// Gives every declaration of `base` the types of its SDK counterpart: the SDK declaration
/// of the same module, path and kind (overloads paired in order, an equal availability
/// preferred; the graphs merge some overloads into one symbol), or — for an imported
/// Objective-C declaration with a selector — of the same module, parent path and selector,
/// and for an imported global constant of the same module, parent path and C name.
/// Names, kinds and availability stay the base's, with one exception: a `swift_wrapper`
/// (`NS_TYPED_ENUM`) constant whose name both sources derived takes the SDK reader's, which
/// follows the importer's rule (only the word prefix shared with the typedef's C name goes:
/// `NSURLFileSizeKey` of `NSURLResourceKey` is `URLResourceKey.fileSizeKey`); notification
/// names, which the importer treats specially, keep the base's.
///
/// SDK-only declarations are counted. Those imported from the Objective-C headers of a
/// framework whose headers the base did not read (none of its declarations is imported)
/// are added, with their conformances and superclasses, when the base has that module and
/// a user can `import` it (a module map: HealthKit, whose Swift overlay alone the graphs
/// have) or the headers the base did read import it (`#import <CoreImage/CoreImage.h>` in
/// UIKit's: CoreImage, AVFAudio, Security, the C side of CoreMedia — what `import UIKit`
/// or `import AVFoundation` makes visible), transitively. So is an imported property of a
/// type the base has whose Objective-C name the base lacks altogether (a property the graphs
/// missed: `NSPersistentStoreDescription`'s `URL`, Swift `url`).
pub fn attach_types(base: &mut DeclSet, sdk: &DeclSet) -> MergeStats {
    let mut by_key: HashMap<Key, Vec<usize>> = HashMap::new();
    // (module, C name): a C global's name is unique in its module
    let mut by_c_name: HashMap<(String, String), usize> = HashMap::new();
    // (module, parent path, selector, async variant)
    let mut by_selector: HashMap<(String, String, String, bool), usize> = HashMap::new();
    for (i, d) in sdk.decls.iter().enumerate() {
        if d.synthesized {
            continue;
        }
        by_key.entry(key(d)).or_default().push(i);
        if let Some(sel) = &d.selector {
            let parent = d.path[..d.path.len().saturating_sub(1)].join(".");
            by_selector
                .entry((d.module.clone(), parent, sel.clone(), d.is_async))
                .or_insert(i);
        }
        if let Some(c) = &d.c_name {
            by_c_name.entry((d.module.clone(), c.clone())).or_insert(i);
        }
    }
    // how many declarations of each key the base has: fewer than the SDK's means the graphs
    // merged overloads of one name into fewer symbols
    let mut base_count: HashMap<Key, usize> = HashMap::new();
    for d in &base.decls {
        if !d.synthesized {
            *base_count.entry(key(d)).or_default() += 1;
        }
    }
    let mut used = vec![false; sdk.decls.len()];
    let mut stats = MergeStats::default();
    let mut base_keys: BTreeSet<Key> = BTreeSet::new();
    for d in &mut base.decls {
        if d.synthesized {
            continue;
        }
        let k = key(d);
        let found = d
            .selector
            .as_ref()
            .and_then(|sel| {
                let parent = d.path[..d.path.len().saturating_sub(1)].join(".");
                by_selector
                    .get(&(d.module.clone(), parent, sel.clone(), d.is_async))
                    .copied()
            })
            .or_else(|| {
                let c = d.c_name.as_ref()?;
                by_c_name.get(&(d.module.clone(), c.clone())).copied()
            })
            .or_else(|| {
                let cands = by_key.get(&k)?;
                cands
                    .iter()
                    .copied()
                    .find(|&i| !used[i] && sdk.decls[i].availability == d.availability)
                    .or_else(|| cands.iter().copied().find(|&i| !used[i]))
                    .or_else(|| cands.first().copied())
            });
        base_keys.insert(k.clone());
        let entry = stats.modules.entry(d.module.clone()).or_default();
        let Some(i) = found else {
            entry.unmatched += 1;
            continue;
        };
        used[i] = true;
        entry.matched += 1;
        let s = &sdk.decls[i];
        if d.c_name
            .as_ref()
            .is_some_and(|c| !c.ends_with("Notification") && !c.contains("(py)"))
            && d.approximate
            && s.approximate
            && d.kind == s.kind
            && d.path.last() != s.path.last()
            && let (Some(last), Some(theirs)) = (d.path.last_mut(), s.path.last())
        {
            // the base's parent stays (the SDK reader may not know a typedef's Swift name)
            last.clone_from(theirs);
            entry.renamed += 1;
            base_keys.insert(key(d));
        }
        // an imported method whose name both sources derived: the SDK reader's spellings
        // (its importer rules, its literal selector spelling) are alternates of the base's
        // (`canAddInput(_:)` beside the graphs' `canAdd(_:)`, which merged `canAddOutput:`)
        if d.approximate
            && s.approximate
            && matches!(d.kind, SymbolKind::Method | SymbolKind::TypeMethod)
            && d.kind == s.kind
        {
            for a in s.path.last().into_iter().chain(&s.alternates) {
                if Some(a) != d.path.last() && !d.alternates.contains(a) {
                    d.alternates.push(a.clone());
                }
            }
        }
        d.ty = s.ty.clone().or(d.ty.take());
        // the parameters, labelled as the base's title labels them (an imported name may
        // be spelled differently by the two sources); a different arity means they are not
        // the same parameters (a graph that keeps an `error:` label), so none are recorded
        if let Some(ps) = &s.params {
            let labels = super::title_labels(d.path.last().map_or("", String::as_str));
            match labels {
                Some(labels) if labels.len() == ps.len() => {
                    d.params = Some(
                        ps.iter()
                            .zip(labels)
                            .map(|(p, l)| Param {
                                label: l.to_owned(),
                                ..p.clone()
                            })
                            .collect(),
                    );
                }
                None => d.params = Some(ps.clone()),
                Some(_) => stats.arity_mismatches += 1,
            }
        }
        // a key the graphs have fewer symbols of than the SDK has declarations whose
        // parameter types differ stands for several overloads (`toolbarBackground(_:for:)`
        // taking a `ShapeStyle` or a `Visibility`): marked, its types are one overload's
        if let (Some(cands), Some(params)) = (by_key.get(&k), d.params.as_ref())
            && cands.len() > base_count.get(&k).copied().unwrap_or(0)
            && cands.iter().any(|&j| {
                sdk.decls[j].params.as_ref().is_some_and(|o| {
                    o.len() != params.len() || o.iter().zip(params).any(|(a, b)| a.ty != b.ty)
                })
            })
        {
            d.merged = true;
        }
        // a graph symbol that merged several selectors' overloads (an alternate spells
        // another selector: `seek(to:)` for `seekToDate:` and `seekToTime:`) keeps only the
        // parameter types they all agree on (a `Date` or a `CMTime`: neither is known)
        if let (Some(own), Some(params)) = (&d.selector, d.params.as_mut()) {
            let parent = d.path[..d.path.len().saturating_sub(1)].join(".");
            for other in d.alternates.iter().filter_map(|a| literal_selector(a)) {
                if other == *own {
                    continue;
                }
                let key = (d.module.clone(), parent.clone(), other, d.is_async);
                let Some(o) = by_selector
                    .get(&key)
                    .and_then(|&j| sdk.decls[j].params.as_ref())
                else {
                    continue;
                };
                if o.len() != params.len() {
                    continue;
                }
                for (p, q) in params.iter_mut().zip(o) {
                    if p.ty != q.ty {
                        p.ty.clear();
                    }
                }
            }
        }
        d.generics = s.generics.clone().or(d.generics.take());
        d.throws |= s.throws;
        d.is_async |= s.is_async;
        d.failable |= s.failable;
        if d.kind == SymbolKind::Init && d.failable {
            d.ty = Some("Self?".into());
        }
    }
    // the graphs' imported properties by container and name, and their types: an SDK
    // property of a type the graphs have whose name they lack was missed by them
    let base_props: BTreeSet<(String, String)> = base
        .decls
        .iter()
        .filter_map(|d| Some((d.module.clone(), d.c_name.clone()?)))
        .collect();
    let base_types: BTreeSet<String> = base
        .decls
        .iter()
        .filter(|d| d.kind.is_type() && !d.synthesized)
        .map(Decl::joined)
        .collect();
    let sdk_types: BTreeSet<String> = sdk
        .decls
        .iter()
        .filter(|d| d.kind.is_type())
        .map(Decl::joined)
        .collect();
    let read_headers: BTreeSet<String> = base
        .decls
        .iter()
        .filter(|d| d.objc && !d.synthesized)
        .map(|d| d.module.clone())
        .collect();
    // what importing those frameworks makes visible: the frameworks their headers import,
    // transitively; and every module of the base whose headers it did not read but a user
    // can `import` (a module map: HealthKit, whose Swift overlay alone the graphs have)
    let mut visible: BTreeSet<String> = sdk
        .importable
        .iter()
        .filter(|m| !read_headers.contains(*m) && base.modules.contains(*m))
        .cloned()
        .collect();
    let mut todo: Vec<String> = read_headers.iter().chain(visible.iter()).cloned().collect();
    while let Some(m) = todo.pop() {
        for x in sdk.header_imports.get(&m).into_iter().flatten() {
            if !read_headers.contains(x) && visible.insert(x.clone()) {
                todo.push(x.clone());
            }
        }
    }
    let mut added_types: BTreeSet<String> = BTreeSet::new();
    for (i, s) in sdk.decls.iter().enumerate() {
        if s.synthesized || used[i] || base_keys.contains(&key(s)) {
            continue;
        }
        let entry = stats.modules.entry(s.module.clone()).or_default();
        entry.sdk_only += 1;
        let missed_property = s.objc
            && read_headers.contains(&s.module)
            && matches!(s.kind, SymbolKind::Property | SymbolKind::TypeProperty)
            && s
                .c_name
                .as_ref()
                .is_some_and(|c| c.contains("(py)") && !base_props.contains(&(s.module.clone(), c.clone())))
            // a property whose type no source declares is a misread declaration
            && s.ty.as_deref().is_some_and(|t| {
                let name = t
                    .trim_end_matches(['?', '!'])
                    .split('<')
                    .next()
                    .unwrap_or(t);
                !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
                    || sdk_types.contains(name)
                    || base_types.contains(name)
            })
            && base_types.contains(&s.path[..s.path.len().saturating_sub(1)].join("."));
        if missed_property {
            entry.added += 1;
            base.decls.push(Decl {
                selector: None,
                c_name: None,
                ..s.clone()
            });
        } else if s.objc && visible.contains(&s.module) {
            entry.added += 1;
            if s.kind.is_type() {
                added_types.insert(s.joined());
            }
            base.modules.insert(s.module.clone());
            base.decls.push(Decl {
                selector: None,
                c_name: None,
                ..s.clone()
            });
        }
        *entry.sdk_only_kinds.entry(s.kind.as_str()).or_default() += 1;
        if entry.sdk_only_examples.len() < 8 {
            entry
                .sdk_only_examples
                .push(format!("{} ({})", s.joined(), s.kind));
        }
    }
    let known: BTreeSet<Relation> = base.relations.iter().cloned().collect();
    for r in &sdk.relations {
        if added_types.contains(&r.source) && !known.contains(r) {
            base.relations.push(r.clone());
        }
    }
    stats
}

#[cfg(test)]
mod tests;
