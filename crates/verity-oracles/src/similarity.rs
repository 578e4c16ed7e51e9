//! `similarity`: structural similarity of a task's epochs (seed 004: "structural fingerprint
//! similarity ≥ 90% across runs"), per resource, the task's score the minimum.
//!
//! # The fingerprint
//!
//! A JSON value's fingerprint is a multiset of features of five kinds. Every node is at a
//! *collapsed path*: its path from the value's root with every array index written `[*]`
//! (`$.views[*].fields[*]`), so reordered or inserted array elements move no path.
//!
//! | kind | one feature per | feature |
//! |---|---|---|
//! | paths | node | its collapsed path |
//! | types | node | its collapsed path and its JSON type (null, boolean, number, string, array, object) |
//! | lengths | array | its collapsed path and its number of elements |
//! | enums | enum-like string | its collapsed path and the string |
//! | labels | string that is the value of a label key (`labels`, default `label`, `title`, `name`) | its collapsed path and the string |
//!
//! A string is *enum-like* when it is 1 to 32 characters long, starts with an ASCII letter
//! and has only ASCII letters, digits, `_`, `-` and `.` (`GET`, `date-time`, `users.list`,
//! `asc`; not `User list`, `2024-01-01` or a URL): the values a schema would list in an enum,
//! where a changed value is a changed structure. Free text, numbers and booleans are not
//! features (their type is): rewording a description moves nothing, renaming a field or a
//! label does.
//!
//! # The similarity
//!
//! A weighted Jaccard index over the two multisets: with A_f the number of times fingerprint A
//! has feature f and w_f the weight of f's kind ([`WEIGHTS`]: paths and types 1; lengths,
//! enums and labels 2, the features a reader notices),
//!
//! S(A, B) = Σ_f w_f · min(A_f, B_f) / Σ_f w_f · max(A_f, B_f)
//!
//! S = 1 for equal fingerprints (and for two empty ones) and 0 for disjoint ones. Every node
//! counts, so a change weighs by how much of the resource it touches: a renamed label among a
//! hundred fields costs about 1 %, a dropped field a few %, a restructured view most of it.
//!
//! # Per resource, minimum
//!
//! An answer's resources are its top-level keys, or the nodes the `resources` JSONPath selects
//! (named by their key, or by index in an array; by their full path when two share a name);
//! an answer with none is one resource, `$`. Every epoch must have the same resource set (else
//! the task fails at once, naming the resources that differ); the task's value is the minimum
//! similarity over every resource and every pair of epochs, never an average, and it passes
//! when that minimum reaches the threshold (`threshold`, default 0.9; a task's
//! `metadata.similarity_threshold` wins).
//!
//! # Speed
//!
//! Each epoch's resources are fingerprinted once: features hashed to `u64` (FNV-1a, path hashes
//! chained step by step), sorted and counted. Equal fingerprints are compared once; a pair of
//! distinct ones is one merge of sorted vectors. 50 epochs of a 1 MB answer take well under a
//! second (BENCHMARKS.md).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use serde_json::Value;
use verity_catalog::determinism::{Normalize, SimilarityOpts};
use verity_catalog::json_path::{Location, Step, locate};
use verity_model::{Evidence, GroupMember, Scope, Score, Scorer};

use crate::canon::{self, parse_answer};
use crate::common::{excerpt, too_few_epochs};
use crate::json_diff;

/// The feature kinds, in [`Fingerprint`] order.
pub const KIND_NAMES: [&str; 5] = ["paths", "types", "lengths", "enums", "labels"];

/// Each kind's weight in the similarity, in [`KIND_NAMES`] order.
pub const WEIGHTS: [f64; 5] = [1.0, 1.0, 2.0, 2.0, 2.0];

const PATH: usize = 0;
const TYPE: usize = 1;
const LENGTH: usize = 2;
const ENUM: usize = 3;
const LABEL: usize = 4;

/// A structural fingerprint: per feature kind, the features' hashes, sorted, with their counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Fingerprint {
    kinds: [Vec<(u64, u32)>; 5],
    /// Per kind: a hash of the vector (equal kinds are found without a merge) and the number
    /// of features with multiplicity.
    digests: [(u64, u64); 5],
}

impl Fingerprint {
    /// The fingerprint of `v`; `labels` are the keys whose string values are labels.
    pub fn of(v: &Value, labels: &[String]) -> Self {
        let mut b = Builder {
            labels,
            features: Default::default(),
        };
        b.walk(v, FNV_OFFSET, None);
        let kinds = b.features.map(|f| {
            let mut counted: Vec<(u64, u32)> = f.into_iter().collect();
            counted.sort_unstable();
            counted
        });
        let digests = std::array::from_fn(|k| {
            kinds[k].iter().fold((FNV_OFFSET, 0), |(h, total), (f, n)| {
                (
                    fnv(fnv(h, &f.to_le_bytes()), &n.to_le_bytes()),
                    total + u64::from(*n),
                )
            })
        });
        Fingerprint { kinds, digests }
    }

    /// How many features of each kind (with multiplicity), in [`KIND_NAMES`] order.
    pub fn counts(&self) -> [u64; 5] {
        self.digests.map(|(_, total)| total)
    }
}

/// The similarity of two fingerprints, from 0 to 1 (the module doc gives the formula).
pub fn similarity(a: &Fingerprint, b: &Fingerprint) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    let kinds = a
        .kinds
        .iter()
        .zip(&b.kinds)
        .zip(a.digests.iter().zip(&b.digests));
    for (w, ((ka, kb), (da, db))) in WEIGHTS.iter().zip(kinds) {
        // Equal kinds (the usual case between epochs) need no merge.
        let (inter, union) = if da == db && ka == kb {
            (da.1, da.1)
        } else {
            overlap(ka, kb)
        };
        num += w * inter as f64;
        den += w * union as f64;
    }
    if den == 0.0 { 1.0 } else { num / den }
}

/// Σ min and Σ max of two sorted multisets, in one merge.
fn overlap(a: &[(u64, u32)], b: &[(u64, u32)]) -> (u64, u64) {
    let (mut i, mut j, mut inter, mut union) = (0, 0, 0u64, 0u64);
    while i < a.len() && j < b.len() {
        let ((ha, na), (hb, nb)) = (a[i], b[j]);
        match ha.cmp(&hb) {
            std::cmp::Ordering::Less => {
                union += u64::from(na);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                union += u64::from(nb);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                inter += u64::from(na.min(nb));
                union += u64::from(na.max(nb));
                i += 1;
                j += 1;
            }
        }
    }
    union += a[i..]
        .iter()
        .chain(&b[j..])
        .map(|(_, n)| u64::from(*n))
        .sum::<u64>();
    (inter, union)
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}

/// A feature: its kind, the collapsed path's hash and what else it carries.
fn feature(kind: usize, path: u64, extra: &[u8]) -> u64 {
    fnv(fnv(path, &[0xf0 | kind as u8]), extra)
}

/// Whether `s` is an enum-like string (the module doc's definition).
pub fn enum_like(s: &str) -> bool {
    let b = s.as_bytes();
    (1..=32).contains(&b.len())
        && b[0].is_ascii_alphabetic()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
}

/// Features are hashes already: the map uses them as they are.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = fnv(self.0, bytes);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Feature counts while walking: most features repeat (every element of an array shares its
/// paths), so counting in a map and sorting the distinct ones beats sorting them all.
type Counts = HashMap<u64, u32, BuildHasherDefault<Prehashed>>;

struct Builder<'a> {
    labels: &'a [String],
    features: [Counts; 5],
}

impl Builder<'_> {
    fn add(&mut self, kind: usize, path: u64, extra: &[u8]) {
        *self.features[kind]
            .entry(feature(kind, path, extra))
            .or_default() += 1;
    }
}

impl Builder<'_> {
    fn walk(&mut self, v: &Value, path: u64, key: Option<&str>) {
        self.add(PATH, path, &[]);
        let ty: &[u8] = match v {
            Value::Null => b"null",
            Value::Bool(_) => b"boolean",
            Value::Number(_) => b"number",
            Value::String(_) => b"string",
            Value::Array(_) => b"array",
            Value::Object(_) => b"object",
        };
        self.add(TYPE, path, ty);
        match v {
            Value::Object(m) => {
                for (k, child) in m {
                    // A key step: a tag byte, the key, a terminator (no key can fake `[*]`).
                    let p = fnv(fnv(fnv(path, &[1]), k.as_bytes()), &[0]);
                    self.walk(child, p, Some(k));
                }
            }
            Value::Array(items) => {
                self.add(LENGTH, path, &items.len().to_le_bytes());
                let p = fnv(path, &[2]);
                for child in items {
                    self.walk(child, p, None);
                }
            }
            Value::String(s) => {
                if enum_like(s) {
                    self.add(ENUM, path, s.as_bytes());
                }
                if key.is_some_and(|k| self.labels.iter().any(|l| l == k)) {
                    self.add(LABEL, path, s.as_bytes());
                }
            }
            _ => {}
        }
    }
}

/// An answer's resources: (name, where) in document order.
fn resources(opts: &SimilarityOpts, doc: &Value) -> Vec<(String, Location)> {
    let found: Vec<Location> = match &opts.resources {
        Some((_, path)) => locate(path, doc),
        None => match doc {
            Value::Object(m) => m
                .keys()
                .map(|k| Location(vec![Step::Key(k.clone())]))
                .collect(),
            _ => Vec::new(),
        },
    };
    if found.is_empty() {
        return vec![("$".to_owned(), Location::root())];
    }
    let short = |l: &Location| match l.0.last() {
        Some(Step::Key(k)) => k.clone(),
        Some(Step::Index(i)) => i.to_string(),
        None => "$".to_owned(),
    };
    let mut names: Vec<String> = found.iter().map(short).collect();
    let mut sorted = names.clone();
    sorted.sort();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        names = found.iter().map(ToString::to_string).collect();
    }
    names.into_iter().zip(found).collect()
}

/// One valid epoch, fingerprinted as it was parsed (the parsed answer is dropped at once: 50
/// answers of 1 MB never sit in memory together; the few a diff needs are parsed again).
struct Epoch {
    /// Index into the group's members.
    member: usize,
    epoch: u32,
    /// The resources' names, where they are, and their fingerprints, in document order.
    names: Vec<String>,
    places: Vec<Location>,
    prints: Vec<Fingerprint>,
    /// [`value_hash`] of the normalized answer, to find the canonical one.
    hash: u64,
}

/// The scorer (the module doc says what it computes).
pub(crate) struct Similarity {
    pub(crate) name: String,
    pub(crate) criterion: String,
    pub(crate) opts: SimilarityOpts,
}

/// The weakest pair found: a resource, two epochs (indices into the epochs) and their similarity.
struct Weakest {
    resource: usize,
    a: usize,
    b: usize,
    value: f64,
}

impl Similarity {
    /// An answer parsed and normalized (`ignore`, `sort_arrays`).
    fn load(&self, text: &str) -> Result<Value, serde_json::Error> {
        let mut doc = parse_answer(text)?;
        canon::apply(&self.opts.canon, Normalize::Json, &mut doc);
        Ok(doc)
    }

    /// Every epoch fingerprinted; or the evidence of the epochs that are invalid.
    fn fingerprint_epochs(&self, members: &[GroupMember<'_>]) -> Result<Vec<Epoch>, Vec<Evidence>> {
        let mut invalid = canon::errored_evidence(members);
        let mut epochs = Vec::with_capacity(members.len());
        for (i, m) in members.iter().enumerate() {
            if m.response.is_error() {
                continue;
            }
            match self.load(&m.response.text) {
                Ok(doc) => {
                    let (names, places): (Vec<String>, Vec<Location>) =
                        resources(&self.opts, &doc).into_iter().unzip();
                    let prints = places
                        .iter()
                        .map(|l| {
                            l.get(&doc).map_or_else(Fingerprint::default, |v| {
                                Fingerprint::of(v, &self.opts.labels)
                            })
                        })
                        .collect();
                    epochs.push(Epoch {
                        member: i,
                        epoch: m.epoch,
                        names,
                        places,
                        prints,
                        hash: value_hash(&doc),
                    });
                }
                Err(e) => invalid.push(
                    Evidence::msg(format!(
                        "epoch {} is not JSON: {} — an invalid run",
                        m.epoch,
                        excerpt(&e.to_string(), 160)
                    ))
                    .at(e.line() as u32, e.column() as u32),
                ),
            }
        }
        if invalid.is_empty() {
            Ok(epochs)
        } else {
            Err(invalid)
        }
    }
}

/// Evidence naming the resources an epoch has that the first has not, and the reverse.
fn resource_set_evidence(epochs: &[Epoch]) -> Vec<Evidence> {
    let first = &epochs[0];
    let mut out = Vec::new();
    for e in &epochs[1..] {
        let missing: Vec<String> = first
            .names
            .iter()
            .filter(|n| !e.names.contains(n))
            .map(|n| format!("`{n}`"))
            .collect();
        let extra: Vec<String> = e
            .names
            .iter()
            .filter(|n| !first.names.contains(n))
            .map(|n| format!("`{n}`"))
            .collect();
        if missing.is_empty() && extra.is_empty() {
            continue;
        }
        let mut parts = Vec::new();
        if !missing.is_empty() {
            parts.push(format!("lacks {}", missing.join(", ")));
        }
        if !extra.is_empty() {
            parts.push(format!("has {} in addition", extra.join(", ")));
        }
        out.push(Evidence::msg(format!(
            "epoch {} {} (compared with epoch {})",
            e.epoch,
            parts.join(" and "),
            first.epoch
        )));
    }
    out
}

/// An order-independent hash of a JSON value (object key order never counts), to find the
/// canonical (most common) answer without printing every epoch.
fn value_hash(v: &Value) -> u64 {
    match v {
        Value::Object(m) => {
            let mut acc = fnv(FNV_OFFSET, b"{");
            let mut sum = 0u64;
            for (k, c) in m {
                let pair = fnv(
                    fnv(fnv(FNV_OFFSET, k.as_bytes()), &[0]),
                    &value_hash(c).to_le_bytes(),
                );
                sum = sum.wrapping_add(pair.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (pair >> 29));
            }
            acc = fnv(acc, &sum.to_le_bytes());
            fnv(acc, &m.len().to_le_bytes())
        }
        Value::Array(a) => a.iter().fold(fnv(FNV_OFFSET, b"["), |h, c| {
            fnv(h, &value_hash(c).to_le_bytes())
        }),
        Value::String(s) => fnv(fnv(FNV_OFFSET, b"s"), s.as_bytes()),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => fnv(fnv(FNV_OFFSET, b"u"), &u.to_le_bytes()),
            (_, Some(i), _) => fnv(fnv(FNV_OFFSET, b"i"), &i.to_le_bytes()),
            (_, _, f) => fnv(
                fnv(FNV_OFFSET, b"f"),
                &f.unwrap_or(f64::NAN).to_bits().to_le_bytes(),
            ),
        },
        Value::Bool(b) => fnv(FNV_OFFSET, &[b'b', u8::from(*b)]),
        Value::Null => fnv(FNV_OFFSET, b"n"),
    }
}

impl Scorer for Similarity {
    fn kind(&self) -> &str {
        "similarity"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn scope(&self) -> Scope {
        Scope::Epochs
    }
    fn score_group(&self, members: &[GroupMember<'_>]) -> Vec<Score> {
        if let Some(na) = too_few_epochs(&self.name, &self.criterion, members) {
            return na;
        }
        let threshold = self.opts.threshold_for(members[0].task);
        let fail = || Score::fail(&self.name, &self.criterion).with_metric("threshold", threshold);
        let epochs = match self.fingerprint_epochs(members) {
            Ok(e) => e,
            Err(evidence) => {
                let mut s = fail()
                    .explain(format!(
                        "{} of {} epochs invalid (errored or not JSON)",
                        evidence.len(),
                        members.len()
                    ))
                    .with_metric("invalid_epochs", evidence.len() as f64);
                s.evidence = evidence;
                return vec![s];
            }
        };
        let raw: Vec<&str> = members.iter().map(|m| m.response.text.as_str()).collect();
        let byte = canon::modal_share(&raw);
        let set_evidence = resource_set_evidence(&epochs);
        if !set_evidence.is_empty() {
            let mut s = fail().explain(format!(
                "the resource set differs between epochs ({} of {} epochs differ from epoch {})",
                set_evidence.len(),
                epochs.len(),
                epochs[0].epoch
            ));
            s.evidence = set_evidence;
            return vec![s.with_value(0.0).with_metric("similarity_min", 0.0)];
        }
        // Resources are matched by name: their order may differ between epochs.
        let names = &epochs[0].names;
        let index: Vec<HashMap<&str, usize>> = epochs
            .iter()
            .map(|e| {
                e.names
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (n.as_str(), i))
                    .collect()
            })
            .collect();
        let slot = |e: usize, r: usize| index[e][names[r].as_str()];
        let mut weakest: Option<Weakest> = None;
        for r in 0..names.len() {
            // Compare each pair of distinct fingerprints once, each represented by the
            // earliest epoch that has it.
            let print = |e: usize| &epochs[e].prints[slot(e, r)];
            let mut distinct: Vec<usize> = Vec::new();
            for e in 0..epochs.len() {
                let p = print(e);
                if !distinct
                    .iter()
                    .any(|&d| print(d).digests == p.digests && print(d) == p)
                {
                    distinct.push(e);
                }
            }
            for (i, &a) in distinct.iter().enumerate() {
                for &b in &distinct[i + 1..] {
                    let value = similarity(print(a), print(b));
                    if weakest.as_ref().is_none_or(|w| value < w.value) {
                        weakest = Some(Weakest {
                            resource: r,
                            a,
                            b,
                            value,
                        });
                    }
                }
            }
        }
        let min = weakest.as_ref().map_or(1.0, |w| w.value);
        let pass = min >= threshold;
        let mut s = if pass {
            Score::pass(&self.name, &self.criterion).with_metric("threshold", threshold)
        } else {
            fail()
        };
        let over = format!(
            "{} resource{} and {} epochs",
            names.len(),
            if names.len() == 1 { "" } else { "s" },
            epochs.len()
        );
        let verdict = if pass { "≥" } else { "<" };
        let text = |e: &Epoch| members[e.member].response.text.as_str();
        s = match &weakest {
            None => s.explain(format!(
                "every epoch structurally identical over {over} (similarity 1.00 {verdict} {threshold:.2})"
            )),
            Some(w) => {
                let (ea, eb) = (&epochs[w.a], &epochs[w.b]);
                let mut s = s.explain(format!(
                    "weakest resource `{}`: {:.2} between epochs {} and {} ({verdict} {threshold:.2}; minimum over {over})",
                    names[w.resource], w.value, ea.epoch, eb.epoch
                ));
                // Both parsed before: parsing them again cannot fail.
                if let (Ok(da), Ok(db)) = (self.load(text(ea)), self.load(text(eb))) {
                    let (pa, pb) = (&ea.places[slot(w.a, w.resource)], &eb.places[slot(w.b, w.resource)]);
                    if let (Some(va), Some(vb)) = (pa.get(&da), pb.get(&db)) {
                        let diff = json_diff::diff_json_at(va, vb, pa, json_diff::DEFAULT_CAP);
                        s.evidence.extend(json_diff::differs_evidence(
                            eb.epoch,
                            &format!("epoch {}", ea.epoch),
                            &diff,
                        ));
                    }
                }
                s
            }
        };
        if !pass {
            // Diff on failure: every epoch against the canonical (most common) answer.
            let hashes: Vec<u64> = epochs.iter().map(|e| e.hash).collect();
            let (modal, _) = canon::majority(&hashes);
            let modal_epochs: Vec<u32> = modal.iter().map(|&i| epochs[i].epoch).collect();
            let against = format!(
                "the canonical answer (epoch{} {})",
                if modal.len() == 1 { "" } else { "s" },
                json_diff::epoch_list(&modal_epochs)
            );
            let rep = &epochs[modal[0]];
            if let Ok(canonical) = self.load(text(rep)) {
                for e in epochs.iter().filter(|e| e.hash != rep.hash) {
                    if let Ok(doc) = self.load(text(e)) {
                        let diff = json_diff::diff_json(&canonical, &doc, json_diff::DEFAULT_CAP);
                        s.evidence
                            .extend(json_diff::differs_evidence(e.epoch, &against, &diff));
                    }
                }
            }
        }
        vec![
            s.with_value(min)
                .with_metric("similarity_min", min)
                .with_metric("resources", names.len() as f64)
                .with_metric("byte_identical", byte),
        ]
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use verity_model::{Response, ResponseError, ScoreStatus, ScorerSpec, SourceLoc, Task};

    use super::*;
    use crate::build;

    fn scorer(options: Value) -> Box<dyn Scorer> {
        build(&ScorerSpec {
            kind: "similarity".into(),
            name: None,
            options: options.as_object().cloned().unwrap_or_default(),
            source: SourceLoc::default(),
        })
        .unwrap()
    }

    fn run(sc: &dyn Scorer, t: &Task, answers: &[Value]) -> Score {
        let rs: Vec<Response> = answers
            .iter()
            .map(|a| Response {
                text: match a {
                    Value::String(s) => s.clone(),
                    v => v.to_string(),
                },
                ..Response::default()
            })
            .collect();
        score(sc, t, &rs)
    }

    fn score(sc: &dyn Scorer, t: &Task, rs: &[Response]) -> Score {
        let members: Vec<GroupMember<'_>> = rs
            .iter()
            .enumerate()
            .map(|(e, r)| GroupMember {
                task: t,
                epoch: e as u32,
                response: r,
            })
            .collect();
        sc.score_group(&members).remove(0)
    }

    fn labels() -> Vec<String> {
        ["label", "title", "name"].map(String::from).to_vec()
    }

    fn sim(a: &Value, b: &Value) -> f64 {
        similarity(
            &Fingerprint::of(a, &labels()),
            &Fingerprint::of(b, &labels()),
        )
    }

    fn messages(s: &Score) -> Vec<&str> {
        s.evidence.iter().map(|e| e.message.as_str()).collect()
    }

    /// A view with many fields, so one change is a small one.
    fn view(title: &str, kind: &str, fields: usize) -> Value {
        json!({
            "title": title,
            "kind": kind,
            "description": "All the users of the organisation",
            "fields": (0..fields).map(|i| json!({"name": format!("f{i}"), "type": "string", "required": i % 2 == 0})).collect::<Vec<_>>(),
        })
    }

    /// Each feature kind moves the similarity; free text and number values do not.
    #[test]
    fn every_feature_kind_counts() {
        let base = view("Users", "table", 4);
        assert_eq!(sim(&base, &base.clone()), 1.0);
        let mut reworded = base.clone();
        reworded["description"] = json!("Everyone in the org, listed");
        assert_eq!(sim(&base, &reworded), 1.0, "free text is no feature");
        type Change = Box<dyn Fn(&mut Value)>;
        let changes: [(&str, Change); 5] = [
            ("path", Box::new(|v| v["extra"] = json!(null))),
            (
                "type",
                Box::new(|v| v["fields"][0]["required"] = json!("yes")),
            ),
            (
                "length",
                Box::new(|v| {
                    v["fields"]
                        .as_array_mut()
                        .unwrap()
                        .pop()
                        .map(drop)
                        .unwrap_or(())
                }),
            ),
            ("enum", Box::new(|v| v["kind"] = json!("grid"))),
            ("label", Box::new(|v| v["title"] = json!("User list"))),
        ];
        for (what, change) in changes {
            let mut other = base.clone();
            change(&mut other);
            let s = sim(&base, &other);
            assert!(s < 1.0 && s > 0.5, "{what}: {s}");
        }
        // The label kind alone: "User list" is no enum, so only the label feature moves.
        let base = view("All users", "table", 4);
        let mut relabeled = base.clone();
        relabeled["title"] = json!("User list");
        let (a, b) = (
            Fingerprint::of(&base, &labels()),
            Fingerprint::of(&relabeled, &labels()),
        );
        assert_eq!(a.counts(), b.counts());
        // Labels {title, f0..f3}: 4 shared, 6 in the union (weight 2); the rest all shared.
        let [p, ty, l, e, lab] = a.counts().map(|c| c as f64);
        assert_eq!(lab, 5.0);
        let rest = p + ty + 2.0 * l + 2.0 * e;
        assert!((similarity(&a, &b) - (rest + 2.0 * 4.0) / (rest + 2.0 * 6.0)).abs() < 1e-12);
        // Without `title` among the labels, the change is invisible.
        let only_name = vec!["name".to_owned()];
        assert_eq!(
            similarity(
                &Fingerprint::of(&base, &only_name),
                &Fingerprint::of(&relabeled, &only_name)
            ),
            1.0
        );
        // Array order does not move paths (indices collapse to [*]).
        assert_eq!(sim(&json!({"a": [1, "x"]}), &json!({"a": ["x", 1]})), 1.0);
    }

    #[test]
    fn enum_like_strings() {
        for s in ["GET", "date-time", "users.list", "asc", "v2"] {
            assert!(enum_like(s), "{s}");
        }
        for s in [
            "",
            "User list",
            "2024-01-01",
            "https://x.io",
            "_x",
            &"a".repeat(33),
        ] {
            assert!(!enum_like(s), "{s}");
        }
    }

    /// One resource far off among many identical ones fails the task: the minimum, not the
    /// average; the explanation names it and the pair of epochs.
    #[test]
    fn the_task_score_is_the_weakest_resource() {
        let t = Task::prompt("t", "p");
        let good: Vec<(String, Value)> = (0..9)
            .map(|i| (format!("r{i}"), view("Users", "table", 6)))
            .collect();
        let doc = |users: Value| {
            let mut m = serde_json::Map::new();
            for (k, v) in &good {
                m.insert(k.clone(), v.clone());
            }
            m.insert("users".into(), users);
            Value::Object(m)
        };
        let ok = doc(view("Users", "table", 6));
        let off = doc(json!({"title": "People", "kind": "grid", "items": [1, 2]}));
        let s = run(
            &*scorer(json!({})),
            &t,
            &[ok.clone(), ok.clone(), ok.clone(), off],
        );
        assert_eq!(s.status, ScoreStatus::Fail);
        let min = s.value.unwrap();
        assert!(min < 0.5, "{min}");
        assert_eq!(s.metrics["similarity_min"], min);
        assert_eq!(s.metrics["resources"], 10.0);
        let why = s.explanation.as_deref().unwrap();
        assert!(
            why.starts_with(&format!(
                "weakest resource `users`: {min:.2} between epochs 0 and 3 (< 0.90"
            )),
            "{why}"
        );
        // The weakest pair's diff comes first, paths from the answer's root.
        assert_eq!(
            messages(&s)[0],
            r#"epoch 3 differs from epoch 0 at $.users.title: "Users" → "People""#
        );
        // Then every epoch against the canonical answer.
        assert!(messages(&s).iter().any(|m| m.starts_with("epoch 3 differs from the canonical answer (epochs 0,1,2) at $.users.kind: \"table\" → \"grid\"")));
        // All alike: pass at 1.
        let s = run(&*scorer(json!({})), &t, &[ok.clone(), ok.clone()]);
        assert_eq!(s.status, ScoreStatus::Pass);
        assert_eq!(s.value, Some(1.0));
        assert!(s.evidence.is_empty());
    }

    #[test]
    fn resources_from_a_path_and_differing_sets() {
        let t = Task::prompt("t", "p");
        let sc = scorer(json!({"resources": "$.specs.*"}));
        let a = json!({"version": 1, "specs": {"users": view("Users", "table", 3), "orders": view("Orders", "table", 3)}});
        let mut b = a.clone();
        b["version"] = json!({"changed": "entirely"});
        // Only the selected resources count.
        assert_eq!(run(&*sc, &t, &[a.clone(), b]).value, Some(1.0));
        let mut c = a.clone();
        c["specs"].as_object_mut().unwrap().remove("orders");
        c["specs"]["order"] = view("Orders", "table", 3);
        let s = run(&*sc, &t, &[a.clone(), a.clone(), c]);
        assert_eq!(s.status, ScoreStatus::Fail);
        assert_eq!(
            messages(&s),
            ["epoch 2 lacks `orders` and has `order` in addition (compared with epoch 0)"]
        );
        // Resources in an array are named by index.
        let arr = scorer(json!({"resources": "$.views[*]"}));
        let x = json!({"views": [view("A", "table", 2), view("B", "table", 2)]});
        let mut y = x.clone();
        y["views"][1]["kind"] = json!("grid");
        let s = run(&*arr, &t, &[x, y]);
        assert!(s.explanation.unwrap().starts_with("weakest resource `1`:"));
    }

    #[test]
    fn threshold_from_options_and_task_metadata() {
        let a = json!({"users": view("Users", "table", 4)});
        let mut b = a.clone();
        b["users"]["kind"] = json!("grid");
        let value = sim(&a["users"], &b["users"]);
        let mut t = Task::prompt("t", "p");
        let strict = scorer(json!({"threshold": 0.99}));
        assert_eq!(
            run(&*strict, &t, &[a.clone(), b.clone()]).status,
            ScoreStatus::Fail
        );
        t.metadata
            .insert("similarity_threshold".into(), json!(value - 0.01));
        let s = run(&*strict, &t, &[a.clone(), b.clone()]);
        assert_eq!(s.status, ScoreStatus::Pass);
        assert_eq!(s.metrics["threshold"], value - 0.01);
        // The weakest diff is evidence even when it passes.
        assert_eq!(
            messages(&s),
            [r#"epoch 1 differs from epoch 0 at $.users.kind: "table" → "grid""#]
        );
        let lax = scorer(json!({"threshold": 0.5}));
        assert_eq!(
            run(&*lax, &Task::prompt("u", "p"), &[a, b]).status,
            ScoreStatus::Pass
        );
    }

    #[test]
    fn ignore_and_sort_arrays_apply() {
        let t = Task::prompt("t", "p");
        let a = json!({"users": {"id": "u-1", "columns": ["name", "email"]}});
        let b = json!({"users": {"id": 17, "columns": ["email", "name", "x"]}});
        let plain = run(&*scorer(json!({})), &t, &[a.clone(), b.clone()]);
        let loose = run(
            &*scorer(json!({"ignore": "$..id", "sort_arrays": "$.users.columns"})),
            &t,
            &[a, b],
        );
        assert!(loose.value.unwrap() > plain.value.unwrap());
    }

    #[test]
    fn invalid_epochs_fail() {
        let t = Task::prompt("t", "p");
        let sc = scorer(json!({}));
        let s = run(&*sc, &t, &[json!({"a": 1}), json!("not json {")]);
        assert_eq!(s.status, ScoreStatus::Fail);
        assert_eq!(s.metrics["invalid_epochs"], 1.0);
        assert!(
            messages(&s)[0].starts_with("epoch 1 is not JSON: "),
            "{:?}",
            messages(&s)
        );
        let mut rs = vec![
            Response {
                text: "{}".into(),
                ..Response::default()
            },
            Response::default(),
        ];
        rs[1].error = Some(ResponseError {
            kind: "rate_limited".into(),
            message: "429".into(),
        });
        let s = score(&*sc, &t, &rs);
        assert_eq!(s.status, ScoreStatus::Fail);
        assert_eq!(
            messages(&s),
            ["epoch 1 errored (rate_limited): 429 — an invalid run"]
        );
        assert_eq!(
            run(&*sc, &t, &[json!({})]).status,
            ScoreStatus::NotApplicable
        );
    }
}
