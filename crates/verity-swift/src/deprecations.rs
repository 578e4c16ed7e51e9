//! The curated deprecation map (seed §7.3: `key → {alternative, deprecated_since, reason, …}`)
//! and its reconciliation with the symbol graph.
//!
//! A key names what the generated code would use: a type (`NavigationView`), a member base
//! name (`foregroundColor`), a member with labels (`onChange(of:perform:)`), an initializer
//! as it is called (`NavigationLink(destination:isActive:label:)`), or a qualified member
//! (`UIApplication.openURL`, `CLLocationManager.authorizationStatus()`). Each entry is
//! resolved in the index (through its `sdk_symbol` when it has one, else its key); where the
//! map and the symbol graph disagree about the target platform, the graph wins and the
//! disagreement is listed by [`DeprecationMap::disagreements`].

use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::analyze::{RefKey, resolve_name};
use crate::index::{F_CONSTRAINED, Index, SymId, base_name, split_path, title_labels};
use crate::version::{Domain, Target, Version};

/// The map shipped with verity (a copy of `shared/data/deprecation_map.json`).
pub const DEFAULT_MAP_JSON: &str = include_str!("../data/deprecation_map.json");

/// One curated entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MapEntry {
    pub key: String,
    pub alternative: Option<String>,
    pub deprecated_since: Option<String>,
    pub reason: Option<String>,
    pub sdk_symbol: Option<String>,
    /// Parsed `deprecated_since`.
    #[serde(skip)]
    since: Since,
    /// The index symbols the entry denotes (empty: unknown to the index).
    #[serde(skip)]
    pub(crate) ids: Vec<SymId>,
    #[serde(skip)]
    shape: KeyShape,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct Since {
    future: bool,
    unconditional: bool,
    domains: Vec<(Domain, Version)>,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct KeyShape {
    recv: Option<String>,
    name: String,
    labels: Option<Vec<String>>,
    is_init: bool,
    is_type: bool,
}

/// Why the map says an entry is deprecated for a target (`None`: it does not apply).
fn map_claim(since: &Since, target: Target, swift: Version) -> Option<String> {
    if since.future {
        return Some("a future release".into());
    }
    if since.unconditional {
        return Some("all platforms".into());
    }
    if since.domains.is_empty() {
        return Some("(no version given)".into());
    }
    let dom = if target.domain == Domain::MacCatalyst {
        since
            .domains
            .iter()
            .find(|(d, _)| *d == Domain::MacCatalyst)
            .or_else(|| since.domains.iter().find(|(d, _)| *d == Domain::Ios))
    } else {
        since.domains.iter().find(|(d, _)| *d == target.domain)
    };
    if let Some((d, v)) = dom {
        return (*v <= target.version).then(|| format!("{d} {v}"));
    }
    if let Some((_, v)) = since.domains.iter().find(|(d, _)| *d == Domain::Swift) {
        return (*v <= swift).then(|| format!("Swift {v}"));
    }
    // listed for other platforms only: assume it applies
    Some(
        since
            .domains
            .iter()
            .map(|(d, v)| format!("{d} {v}"))
            .collect::<Vec<_>>()
            .join(" / "),
    )
}

fn parse_since(s: &str) -> Since {
    let mut out = Since::default();
    let l = s.to_ascii_lowercase();
    if l.contains("future") || l.contains("100000") {
        out.future = true;
    }
    if l.contains("unconditional") || l.contains("all platforms") {
        out.unconditional = true;
    }
    // `iOS 17.0 / macOS 14.0`, `Swift 3.2 (obsoleted in Swift 5.0)`: the first version per domain
    for part in s.split(['/', ',', ';']) {
        let mut words = part.split_whitespace();
        while let Some(w) = words.next() {
            if let Some(d) = Domain::from_source(w) {
                if let Some(v) = words
                    .next()
                    .and_then(|v| Version::parse(v.trim_matches(['(', ')'])))
                    && !out.domains.iter().any(|(x, _)| *x == d)
                {
                    out.domains.push((d, v));
                }
                break;
            }
        }
    }
    out
}

fn key_shape(key: &str) -> KeyShape {
    let parts = split_path(key);
    let last = parts.last().copied().unwrap_or("");
    let recv = (parts.len() > 1).then(|| parts[..parts.len() - 1].join("."));
    let base = base_name(last).to_owned();
    let labels = title_labels(last).map(|v| v.into_iter().map(str::to_owned).collect());
    let cap = base.chars().next().is_some_and(char::is_uppercase);
    KeyShape {
        is_init: cap && labels.is_some() && recv.is_none(),
        is_type: cap && labels.is_none(),
        recv,
        name: base,
        labels,
    }
}

/// Why a map could not be read.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    #[error("{0}")]
    Io(String),
    #[error("deprecation map: {0}")]
    Shape(String),
}

/// The curated deprecation map, resolved against an index.
#[derive(Clone, Debug, Default)]
pub struct DeprecationMap {
    entries: Vec<MapEntry>,
}

/// One place where the map and the symbol graph disagree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MapDisagreement {
    pub key: String,
    /// What the map says for the target (`deprecated since iOS 17.0`, `not deprecated`).
    pub map_says: String,
    /// What the symbol graph says (`not deprecated`, `deprecated in a future release`,
    /// `not in the index`).
    pub graph_says: String,
}

impl DeprecationMap {
    /// Reads a map from JSON text and resolves its keys in `index`.
    pub fn from_json(json: &str, index: &Index) -> Result<DeprecationMap, MapError> {
        let v: Value = serde_json::from_str(json).map_err(|e| MapError::Shape(e.to_string()))?;
        let Value::Object(obj) = v else {
            return Err(MapError::Shape("expected a JSON object of entries".into()));
        };
        let mut entries = Vec::with_capacity(obj.len());
        for (key, val) in obj {
            let fields: Map<String, Value> = match val {
                Value::Object(m) => m,
                Value::String(alt) => {
                    // the seed's short form: {"NSURLConnection": "URLSession"}
                    let mut m = Map::new();
                    m.insert("alternative".into(), Value::String(alt));
                    m
                }
                _ => {
                    return Err(MapError::Shape(format!(
                        "entry `{key}` must be an object or a string"
                    )));
                }
            };
            let get = |k: &str| fields.get(k).and_then(Value::as_str).map(str::to_owned);
            let deprecated_since = get("deprecated_since");
            let sdk_symbol = get("sdk_symbol");
            let since = deprecated_since
                .as_deref()
                .map(parse_since)
                .unwrap_or_default();
            let ids = resolve_entry(index, &key, sdk_symbol.as_deref());
            entries.push(MapEntry {
                shape: key_shape(&key),
                key,
                alternative: get("alternative"),
                deprecated_since,
                reason: get("reason"),
                sdk_symbol,
                since,
                ids,
            });
        }
        Ok(DeprecationMap { entries })
    }

    pub fn load(path: &Path, index: &Index) -> Result<DeprecationMap, MapError> {
        let s = std::fs::read_to_string(path)
            .map_err(|e| MapError::Io(format!("{}: {e}", path.display())))?;
        DeprecationMap::from_json(&s, index)
    }

    /// The shipped map, resolved in `index`.
    pub fn default_for(index: &Index) -> DeprecationMap {
        DeprecationMap::from_json(DEFAULT_MAP_JSON, index).unwrap_or_default()
    }

    pub fn entries(&self) -> &[MapEntry] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries that apply to a reference: those naming one of its candidate symbols, or —
    /// for references the index could not resolve — those whose key has its shape.
    pub(crate) fn matching(&self, ids: &[SymId], key: &RefKey) -> Vec<&MapEntry> {
        self.entries
            .iter()
            .filter(|e| {
                if !e.ids.is_empty() {
                    return ids.iter().any(|i| e.ids.contains(i));
                }
                textual_match(&e.shape, key)
            })
            .collect()
    }

    /// What the map claims for `entry` on `target` (`None`: not deprecated there).
    pub(crate) fn claim(entry: &MapEntry, target: Target, swift: Version) -> Option<String> {
        map_claim(&entry.since, target, swift)
    }

    /// Entries where the map and the symbol graph disagree about `target`.
    pub fn disagreements(
        &self,
        index: &Index,
        target: Target,
        swift: Version,
    ) -> Vec<MapDisagreement> {
        let mut out = Vec::new();
        for e in &self.entries {
            let map = map_claim(&e.since, target, swift);
            let map_says = match &map {
                Some(s) => format!("deprecated since {s}"),
                None => format!("not yet deprecated on {target}"),
            };
            if e.ids.is_empty() {
                out.push(MapDisagreement {
                    key: e.key.clone(),
                    map_says,
                    graph_says: "not in the index".into(),
                });
                continue;
            }
            let graph = graph_claim(index, &e.ids, target, swift)
                .or_else(|| graph_claim_unconstrained(index, &e.ids, target, swift));
            let agree = match (&map, &graph) {
                (None, None) => true,
                (Some(m), Some(g)) => {
                    let mf = m == "a future release";
                    let gf = g == "a future release";
                    mf == gf
                }
                _ => false,
            };
            if !agree {
                out.push(MapDisagreement {
                    key: e.key.clone(),
                    map_says,
                    graph_says: match graph {
                        Some(g) => format!("deprecated since {g}"),
                        None => format!("not deprecated on {target}"),
                    },
                });
            }
        }
        out
    }
}

/// The symbol graph's verdict over candidate symbols: deprecated only if every one is
/// (`a future release` if any of them only is). With `prefer_unconstrained`, candidates
/// from constrained extensions (`where Self: Equatable`) are set aside when unconstrained
/// ones exist: they apply to special cases only.
pub(crate) fn graph_claim(
    index: &Index,
    ids: &[SymId],
    target: Target,
    swift: Version,
) -> Option<String> {
    claim_over(index, ids, target, swift)
}

pub(crate) fn graph_claim_unconstrained(
    index: &Index,
    ids: &[SymId],
    target: Target,
    swift: Version,
) -> Option<String> {
    let plain: Vec<SymId> = ids
        .iter()
        .copied()
        .filter(|&id| index.sym(id).is_some_and(|s| s.flags & F_CONSTRAINED == 0))
        .collect();
    if plain.is_empty() || plain.len() == ids.len() {
        return None;
    }
    claim_over(index, &plain, target, swift)
}

fn claim_over(index: &Index, ids: &[SymId], target: Target, swift: Version) -> Option<String> {
    if ids.is_empty() {
        return None;
    }
    let mut since: Option<String> = None;
    let mut future = false;
    for &id in ids {
        let st = index.status_id(id, target, swift);
        let d = st.deprecation?;
        future |= d.future;
        if since.is_none() && !d.future {
            since = Some(d.since);
        }
    }
    if future {
        Some("a future release".into())
    } else {
        since
    }
}

fn resolve_entry(index: &Index, key: &str, sdk_symbol: Option<&str>) -> Vec<SymId> {
    // `Foundation.NSKeyedUnarchiver (+[NSKeyedUnarchiver unarchiveObjectWithData:])`: the
    // parenthetical names a method; the key says which member is meant.
    let (sym, annotated) = match sdk_symbol {
        Some(s) => match s.find(" (") {
            Some(i) => (Some(s[..i].trim()), true),
            None => (Some(s.trim()), false),
        },
        None => (None, false),
    };
    if annotated {
        let by_key = resolve_name(index, key);
        if !by_key.is_empty() {
            return by_key;
        }
    }
    if let Some(s) = sym {
        let ids = resolve_name(index, s);
        if !ids.is_empty() {
            return ids;
        }
    }
    resolve_name(index, key)
}

fn textual_match(shape: &KeyShape, key: &RefKey) -> bool {
    if shape.name.is_empty() || shape.name != key.name {
        return false;
    }
    if shape.is_type {
        return key.is_type;
    }
    if shape.is_init != key.is_init {
        return false;
    }
    if let Some(r) = &shape.recv {
        let last = r.rsplit('.').next().unwrap_or(r);
        match &key.recv {
            Some(k) if k == r || k.rsplit('.').next() == Some(last) => {}
            _ => return false,
        }
    }
    match (&shape.labels, &key.labels) {
        (Some(a), Some(b)) => a == b,
        (Some(_), None) => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_parsing() {
        let s = parse_since("iOS 17.0 / macOS 14.0");
        assert_eq!(
            s.domains,
            vec![
                (Domain::Ios, Version::new(17, 0, 0)),
                (Domain::MacOs, Version::new(14, 0, 0))
            ]
        );
        assert!(parse_since("future (100000.0 in SDK)").future);
        assert!(parse_since("unconditionally deprecated (all platforms)").unconditional);
        let s = parse_since("Swift 3.2 (obsoleted in Swift 5.0)");
        assert_eq!(s.domains, vec![(Domain::Swift, Version::new(3, 2, 0))]);
    }

    #[test]
    fn key_shapes() {
        let k = key_shape("NavigationLink(destination:isActive:label:)");
        assert!(k.is_init && !k.is_type);
        assert_eq!(k.name, "NavigationLink");
        let k = key_shape("UIApplication.openURL");
        assert_eq!(k.recv.as_deref(), Some("UIApplication"));
        assert_eq!(k.name, "openURL");
        assert!(key_shape("NavigationView").is_type);
        let k = key_shape("onChange(of:perform:)");
        assert_eq!(k.labels, Some(vec!["of".to_owned(), "perform".to_owned()]));
    }
}
