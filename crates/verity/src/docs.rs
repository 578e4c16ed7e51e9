//! The reference grounding server's documentation: the Swift symbol index and the deprecation
//! map as searchable documents (`verity mcp serve --index`).
//!
//! Search is a small inverted index over the symbols' dotted paths: identifiers are split at
//! camel-case and punctuation boundaries, terms weighted by inverse document frequency, and words
//! of the query that look like identifiers (`NavigationStack`, `dateDecodingStrategy`, anything
//! in backticks) count more than plain words. A symbol whose own name is a query word ranks
//! first (the spelling with the query's case before another case), then one whose name starts
//! with a query word; types and short paths are mildly preferred, and a deprecated symbol ranks
//! under its replacement. Only closed-class English words are stop words: `view`, `text`,
//! `list` or `swift` are searched for, since they name SDK symbols. It answers in well under a
//! millisecond per query. Its quality is measured on labelled queries
//! (`tests/data/search-eval.jsonl`, frozen; `search-tune.jsonl`, tuned on; BENCHMARKS.md).

use std::collections::HashMap;

use verity_mcp::{Doc, DocSource};
use verity_swift::{DeprecationMap, Index};

struct Entry {
    id: String,
    title: String,
    body: String,
    /// The symbol's own name as written (`foregroundColor` of `Text.foregroundColor(_:)`).
    name: String,
    /// The same, lowercased.
    name_lower: String,
    is_type: bool,
    depth: usize,
    /// Deprecated (now or in a future release) or obsoleted on a platform, or a deprecation
    /// note.
    deprecated: bool,
}

pub struct SdkDocs {
    name: String,
    entries: Vec<Entry>,
    by_id: HashMap<String, usize>,
    postings: HashMap<String, Vec<(u32, f32)>>,
    idf: HashMap<String, f32>,
    /// (lowercased name, entry), sorted: the exact and prefix matches of a query word.
    names: Vec<(String, u32)>,
    ranking: Ranking,
}

/// Closed-class English words (articles, pronouns, prepositions, conjunctions, auxiliaries),
/// dropped from the prose of a query, never from inside backticks. None of them names an SDK
/// type (a test checks against the shipped index); `view`, `text`, `list`, `swift` are words a
/// query means.
const STOP: &[&str] = &[
    "a", "an", "and", "the", "to", "of", "in", "on", "for", "with", "how", "do", "does", "i", "is",
    "it", "its", "that", "this", "my", "me", "be", "from", "so", "what", "which", "into", "by",
    "are", "or", "can", "should", "would", "we", "you", "your", "our", "their", "them", "they",
    "whose", "there",
];

/// The ranking's weights, tuned on `tests/data/search-tune.jsonl` only.
#[derive(Clone, Copy, Debug)]
struct Ranking {
    /// How much more a query word written as an identifier counts than a plain word.
    ident_weight: f32,
    /// How much a camel-case piece of a query word counts, against the whole word.
    piece_weight: f32,
    /// The bonus of a symbol whose name is a query word, in units of that word's weighted idf.
    exact_bonus: f32,
    /// The extra bonus when the case matches too (`Text` the type for "Text", `text` for "text").
    case_bonus: f32,
    /// The bonus of a symbol whose name starts with a query word (of at least 3 letters).
    prefix_bonus: f32,
    /// The preference for types, and against long paths.
    type_factor: f32,
    depth_penalty: f32,
    /// A deprecated symbol's score is multiplied by this (ties go to the replacement anyway).
    deprecated_factor: f32,
}

/// The best MRR of `tune_ranking`'s grid on the tuning set (0.496, from 0.421 with the first
/// guesses: identifier words 2, exact 3, prefix 1, depth 0.15).
const RANKING: Ranking = Ranking {
    ident_weight: 1.5,
    piece_weight: 0.5,
    exact_bonus: 1.0,
    case_bonus: 1.0,
    prefix_bonus: 0.5,
    type_factor: 1.3,
    depth_penalty: 0.3,
    deprecated_factor: 0.9,
};

/// The most entries one query word's prefix may bring in.
const MAX_PREFIX: usize = 400;
/// Term frequency of a title term, per occurrence (a deprecation note's body terms count 1).
const TITLE_TF: f32 = 2.0;
/// BM25's k1: how fast repeated occurrences of a term stop counting.
const TF_K: f32 = 1.2;
/// Term frequency of the module's name (`swiftui`), so a query naming a framework prefers it.
const MODULE_TF: f32 = 0.5;

/// Lowercased terms of a text: words, and identifier pieces split at case changes.
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        if word.is_empty() {
            continue;
        }
        let lower = word.to_lowercase();
        out.push(lower.clone());
        // camelCase / PascalCase / acronyms: URLSession -> url, session.
        let chars: Vec<char> = word.chars().collect();
        let mut start = 0;
        for i in 1..chars.len() {
            let split = (chars[i].is_uppercase() && chars[i - 1].is_lowercase())
                || (chars[i].is_uppercase()
                    && i + 1 < chars.len()
                    && chars[i + 1].is_lowercase()
                    && chars[i - 1].is_uppercase())
                || (chars[i].is_ascii_digit() != chars[i - 1].is_ascii_digit());
            if split {
                let piece: String = chars[start..i].iter().collect::<String>().to_lowercase();
                if piece.len() > 1 && piece != lower {
                    out.push(piece);
                }
                start = i;
            }
        }
        if start > 0 {
            let piece: String = chars[start..].iter().collect::<String>().to_lowercase();
            if piece.len() > 1 && piece != lower {
                out.push(piece);
            }
        }
    }
    out
}

/// One word of a query, as written and lowercased, with its weight.
struct QueryWord {
    raw: String,
    lower: String,
    weight: f32,
}

/// The words of a query (stop words left out) and its terms with their weights: a word written
/// as an identifier (a capital after its first letter, or inside backticks) weighs
/// [`Ranking::ident_weight`], its camel-case pieces [`Ranking::piece_weight`] of that.
fn parse_query(query: &str, r: &Ranking) -> (Vec<QueryWord>, Vec<(String, f32)>) {
    let mut words: Vec<QueryWord> = Vec::new();
    let mut weights: HashMap<String, f32> = HashMap::new();
    for (i, span) in query.split('`').enumerate() {
        let quoted = i % 2 == 1;
        for word in span.split(|c: char| !c.is_alphanumeric()) {
            if word.is_empty() {
                continue;
            }
            let lower = word.to_lowercase();
            // Prose only: `in` or `map` in backticks are identifiers.
            if !quoted && STOP.contains(&lower.as_str()) {
                continue;
            }
            let ident = quoted || word.chars().skip(1).any(char::is_uppercase);
            let weight = if ident { r.ident_weight } else { 1.0 };
            for (j, t) in terms(word).into_iter().enumerate() {
                if !quoted && STOP.contains(&t.as_str()) {
                    continue;
                }
                let w = if j == 0 {
                    weight
                } else {
                    weight * r.piece_weight
                };
                let slot = weights.entry(t).or_default();
                *slot = slot.max(w);
            }
            match words.iter_mut().find(|w| w.raw == word) {
                Some(w) => w.weight = w.weight.max(weight),
                None => words.push(QueryWord {
                    raw: word.to_owned(),
                    lower,
                    weight,
                }),
            }
        }
    }
    let mut terms: Vec<(String, f32)> = weights.into_iter().collect();
    terms.sort_by(|a, b| a.0.cmp(&b.0));
    (words, terms)
}

/// Deprecated on some platform, now or in a future release (whose replacement a model should
/// use already), or obsoleted.
fn is_deprecated(f: &verity_swift::SymbolFacts) -> bool {
    f.availability
        .iter()
        .any(|a| a.unconditionally_deprecated || a.obsoleted.is_some() || a.deprecated.is_some())
}

/// The own name of a deprecation map key (`UIApplication.openURL(_:)` -> `openURL`).
fn key_name(key: &str) -> &str {
    let base = verity_swift::base_name(key);
    base.rsplit('.').next().unwrap_or(base)
}

impl SdkDocs {
    pub fn new(index: &Index, map: &DeprecationMap, name: String) -> SdkDocs {
        let mut entries = Vec::with_capacity(index.symbol_count() + map.len());
        let mut modules = Vec::with_capacity(entries.capacity());
        for f in index.iter() {
            if f.synthesized {
                continue;
            }
            let path = f.dotted_path();
            let last = f.path.last().cloned().unwrap_or_default();
            let base = verity_swift::base_name(&last).to_owned();
            modules.push(f.module.clone());
            entries.push(Entry {
                id: format!("{}/{}", f.module, path),
                title: path.clone(),
                body: verity_swift::cli::facts_line(&f),
                name_lower: base.to_lowercase(),
                name: base,
                is_type: f.kind.is_type(),
                depth: f.path.len(),
                deprecated: is_deprecated(&f),
            });
        }
        for e in map.entries() {
            let mut body = format!("{} is deprecated", e.key);
            if let Some(s) = &e.deprecated_since {
                body.push_str(&format!(" (since {s})"));
            }
            if let Some(a) = &e.alternative {
                body.push_str(&format!(". Use {a} instead"));
            }
            if let Some(r) = &e.reason {
                body.push_str(&format!(". {r}"));
            }
            body.push('.');
            let name = key_name(&e.key).to_owned();
            modules.push(String::new());
            entries.push(Entry {
                id: format!("deprecation/{}", e.key),
                title: format!("{} (deprecated)", e.key),
                body,
                name_lower: name.to_lowercase(),
                name,
                is_type: false,
                depth: 1,
                deprecated: true,
            });
        }
        let mut postings: HashMap<String, Vec<(u32, f32)>> = HashMap::new();
        for (i, e) in entries.iter().enumerate() {
            let mut tf: HashMap<String, f32> = HashMap::new();
            for t in terms(&e.title) {
                *tf.entry(t).or_default() += TITLE_TF;
            }
            for t in terms(&modules[i]) {
                *tf.entry(t).or_default() += MODULE_TF;
            }
            // Deprecation notes are searchable by their whole text (alternatives, reasons).
            if e.id.starts_with("deprecation/") {
                for t in terms(&e.body) {
                    *tf.entry(t).or_default() += 1.0;
                }
            }
            for (t, w) in tf {
                postings.entry(t).or_default().push((i as u32, w));
            }
        }
        let n = entries.len() as f32;
        let idf = postings
            .iter()
            .map(|(t, p)| (t.clone(), (1.0 + n / p.len() as f32).ln()))
            .collect();
        let by_id = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.id.clone(), i))
            .collect();
        let mut names: Vec<(String, u32)> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name_lower.clone(), i as u32))
            .collect();
        names.sort();
        SdkDocs {
            name,
            entries,
            by_id,
            postings,
            idf,
            names,
            ranking: RANKING,
        }
    }

    fn doc(&self, i: usize) -> Doc {
        let e = &self.entries[i];
        Doc {
            id: e.id.clone(),
            title: e.title.clone(),
            body: e.body.clone(),
        }
    }

    /// The entries whose name starts with `prefix` (lowercase), at most [`MAX_PREFIX`].
    fn named(&self, prefix: &str) -> &[(String, u32)] {
        let start = self.names.partition_point(|(n, _)| n.as_str() < prefix);
        let len = self.names[start..]
            .iter()
            .take(MAX_PREFIX)
            .take_while(|(n, _)| n.starts_with(prefix))
            .count();
        &self.names[start..start + len]
    }

    /// Every matching entry with its score, best first.
    fn rank(&self, query: &str) -> Vec<(u32, f32)> {
        let r = &self.ranking;
        let (words, q) = parse_query(query, r);
        let mut score: HashMap<u32, f32> = HashMap::new();
        for (t, w) in &q {
            let (Some(p), Some(idf)) = (self.postings.get(t), self.idf.get(t)) else {
                continue;
            };
            for (doc, tf) in p {
                // BM25's saturation: a term repeated in a long deprecation note counts at most
                // a little over twice.
                *score.entry(*doc).or_default() += w * idf * tf * (TF_K + 1.0) / (tf + TF_K);
            }
        }
        let max_idf = (1.0 + self.entries.len() as f32).ln();
        for word in &words {
            if word.lower.chars().count() < 3 && !self.idf.contains_key(&word.lower) {
                continue;
            }
            let matches = self.named(&word.lower);
            if matches.is_empty() {
                continue;
            }
            // A word that is no term of its own (a prefix) is as rare as its matches.
            let idf = self.idf.get(&word.lower).copied().unwrap_or_else(|| {
                (1.0 + self.entries.len() as f32 / matches.len() as f32)
                    .ln()
                    .min(max_idf)
            });
            for (name, doc) in matches {
                let bonus = if *name == word.lower {
                    let case = if self.entries[*doc as usize].name == word.raw {
                        r.case_bonus
                    } else {
                        0.0
                    };
                    r.exact_bonus + case
                } else if word.lower.chars().count() >= 3 {
                    r.prefix_bonus
                } else {
                    continue;
                };
                *score.entry(*doc).or_default() += bonus * word.weight * idf;
            }
        }
        let mut ranked: Vec<(u32, f32)> = score
            .into_iter()
            .map(|(d, s)| {
                let e = &self.entries[d as usize];
                let kind = if e.is_type { r.type_factor } else { 1.0 };
                let dep = if e.deprecated {
                    r.deprecated_factor
                } else {
                    1.0
                };
                (d, s * kind * dep / (1.0 + r.depth_penalty * e.depth as f32))
            })
            .collect();
        ranked.sort_by(|a, b| {
            let (ea, eb) = (&self.entries[a.0 as usize], &self.entries[b.0 as usize]);
            b.1.total_cmp(&a.1)
                .then(ea.deprecated.cmp(&eb.deprecated))
                .then(ea.depth.cmp(&eb.depth))
                .then(a.0.cmp(&b.0))
        });
        ranked
    }
}

impl DocSource for SdkDocs {
    fn name(&self) -> &str {
        &self.name
    }

    fn search(&self, query: &str, limit: usize) -> Vec<Doc> {
        self.rank(query)
            .into_iter()
            .take(limit)
            .map(|(d, _)| self.doc(d as usize))
            .collect()
    }

    fn read(&self, id: &str) -> Option<Doc> {
        self.by_id.get(id).map(|i| self.doc(*i))
    }

    fn doc_count(&self) -> usize {
        self.entries.len()
    }

    fn doc_at(&self, i: usize) -> Option<Doc> {
        (i < self.entries.len()).then(|| self.doc(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_into_terms() {
        assert_eq!(terms("URLSession"), ["urlsession", "url", "session"]);
        assert_eq!(
            terms("navigationDestination(for:)"),
            ["navigationdestination", "navigation", "destination", "for"]
        );
    }

    #[test]
    fn finds_the_apis_a_task_needs() {
        let index = verity_swift::default_index().unwrap();
        let map = DeprecationMap::default_for(&index);
        let docs = SdkDocs::new(&index, &map, "ios17.4".into());
        let top = |q: &str| {
            docs.search(q, 5)
                .into_iter()
                .map(|d| d.title)
                .collect::<Vec<_>>()
        };
        let url = top("fetch a URL with URLSession async await");
        assert!(url.iter().any(|t| t.starts_with("URLSession")), "{url:?}");
        let nav = top("NavigationStack with NavigationPath programmatic navigation");
        assert!(
            nav.iter()
                .any(|t| t.starts_with("NavigationStack") || t.starts_with("NavigationPath")),
            "{nav:?}"
        );
        let dep = top("NSURLConnection sendSynchronousRequest");
        assert!(dep.iter().any(|t| t.contains("NSURLConnection")), "{dep:?}");
        let first = docs.search("URLSession", 1).remove(0);
        assert_eq!(docs.read(&first.id).unwrap().title, first.title);
        assert!(docs.read("nope/nope").is_none());
    }

    /// One labelled query of `tests/data/search-*.jsonl`: the query a grounded task sends (a
    /// task's prompt, or a phrase) and the ids of the documents that answer it.
    #[derive(serde::Deserialize)]
    struct Labelled {
        query: String,
        relevant: Vec<String>,
    }

    fn labelled(text: &str) -> Vec<Labelled> {
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .enumerate()
            .map(|(i, l)| match serde_json::from_str(l) {
                Ok(q) => q,
                Err(e) => panic!("line {}: {}", i + 1, e),
            })
            .collect()
    }

    /// The frozen evaluation set: never tuned on.
    const EVAL: &str = include_str!("../tests/data/search-eval.jsonl");
    /// The tuning set.
    const TUNE: &str = include_str!("../tests/data/search-tune.jsonl");

    /// Mean reciprocal rank (of the first relevant document in the top [`MAX_SEARCH_LIMIT`]),
    /// mean recall at 5, and the median time of one `search(query, 5)`.
    struct Scores {
        mrr: f64,
        recall5: f64,
        median_us: f64,
    }

    fn score(docs: &SdkDocs, set: &[Labelled]) -> Scores {
        score_timed(docs, set, 0)
    }

    /// [`score`], timing `runs` searches per query.
    fn score_timed(docs: &SdkDocs, set: &[Labelled], runs: usize) -> Scores {
        let (mut rr, mut recall) = (0.0, 0.0);
        let mut times = Vec::new();
        for q in set {
            let found: Vec<String> = docs
                .search(&q.query, verity_mcp::MAX_SEARCH_LIMIT)
                .into_iter()
                .map(|d| d.id)
                .collect();
            if let Some(rank) = found.iter().position(|id| q.relevant.contains(id)) {
                rr += 1.0 / (rank + 1) as f64;
            }
            let top5 = &found[..found.len().min(5)];
            let hit = q.relevant.iter().filter(|r| top5.contains(r)).count();
            recall += hit as f64 / q.relevant.len() as f64;
            for _ in 0..runs {
                let t = std::time::Instant::now();
                std::hint::black_box(docs.search(&q.query, 5));
                times.push(t.elapsed().as_secs_f64() * 1e6);
            }
        }
        times.sort_by(f64::total_cmp);
        let n = set.len() as f64;
        Scores {
            mrr: rr / n,
            recall5: recall / n,
            median_us: times.get(times.len() / 2).copied().unwrap_or(0.0),
        }
    }

    fn sdk_docs() -> SdkDocs {
        let index = verity_swift::default_index().unwrap();
        let map = DeprecationMap::default_for(&index);
        SdkDocs::new(&index, &map, "ios17.4".into())
    }

    /// The labelled search sets: every label names a document that exists, the sets do not
    /// share a query, and the evaluation set has at least 50. Then the measured quality, with
    /// floors on the evaluation set (`bench/mcp-search.sh` prints the numbers in release).
    #[test]
    fn search_quality_on_the_labelled_sets() {
        let docs = sdk_docs();
        let (eval, tune) = (labelled(EVAL), labelled(TUNE));
        assert!(eval.len() >= 50, "{} evaluation queries", eval.len());
        let missing: Vec<&str> = eval
            .iter()
            .chain(&tune)
            .flat_map(|q| &q.relevant)
            .filter(|id| docs.read(id).is_none())
            .map(String::as_str)
            .collect();
        assert!(missing.is_empty(), "labels naming no document: {missing:?}");
        let queries: std::collections::HashSet<&str> =
            eval.iter().map(|q| q.query.as_str()).collect();
        assert!(tune.iter().all(|q| !queries.contains(q.query.as_str())));
        for (name, set) in [("eval", &eval), ("tune", &tune)] {
            let s = score_timed(&docs, set, 3);
            eprintln!(
                "search-quality {name}: {} queries, MRR {:.3}, recall@5 {:.3}, median {:.0} µs",
                set.len(),
                s.mrr,
                s.recall5,
                s.median_us
            );
        }
        let s = score(&docs, &eval);
        assert!(s.mrr >= EVAL_MIN_MRR, "MRR {:.3} < {}", s.mrr, EVAL_MIN_MRR);
        assert!(
            s.recall5 >= EVAL_MIN_RECALL5,
            "recall@5 {:.3} < {}",
            s.recall5,
            EVAL_MIN_RECALL5
        );
    }

    /// Floors on the evaluation set, a little under what the ranking measures (BENCHMARKS.md).
    const EVAL_MIN_MRR: f64 = 0.50;
    const EVAL_MIN_RECALL5: f64 = 0.50;

    #[test]
    fn no_stop_word_names_a_type_and_backticks_keep_them() {
        let docs = sdk_docs();
        let named: Vec<&str> = STOP
            .iter()
            .copied()
            .filter(|w| docs.entries.iter().any(|e| e.is_type && e.name_lower == *w))
            .collect();
        assert!(named.is_empty(), "stop words that name types: {named:?}");
        let (words, terms) = parse_query("group the rows in `in`", &RANKING);
        assert!(words.iter().any(|w| w.raw == "in"));
        assert_eq!(terms.iter().filter(|(t, _)| t == "in").count(), 1);
        let (words, _) = parse_query("in the view", &RANKING);
        let kept: Vec<&str> = words.iter().map(|w| w.raw.as_str()).collect();
        assert_eq!(kept, ["view"]);
    }

    #[test]
    fn exact_then_prefix_matches_of_a_name_rank_first() {
        let docs = sdk_docs();
        let first = |q: &str| docs.search(q, 1).remove(0).id;
        assert_eq!(first("View"), "SwiftUI/View");
        assert_eq!(first("Text"), "SwiftUI/Text");
        assert_eq!(first("NavigationStack"), "SwiftUI/NavigationStack");
        assert_eq!(first("swift ios List"), "SwiftUI/List");
        let prefix = first("navigationDestin");
        assert!(
            prefix.starts_with("SwiftUI/View.navigationDestination("),
            "{prefix}"
        );
    }

    #[test]
    fn deprecated_symbols_rank_under_their_replacements() {
        let docs = sdk_docs();
        let ranked = docs.rank("foregroundColor foregroundStyle");
        let pos = |id: &str| {
            ranked
                .iter()
                .position(|(d, _)| docs.entries[*d as usize].id == id)
        };
        let (Some(old), Some(new)) = (
            pos("SwiftUI/View.foregroundColor(_:)"),
            pos("SwiftUI/View.foregroundStyle(_:)"),
        ) else {
            panic!("both are found");
        };
        assert!(docs.entries[ranked[old].0 as usize].deprecated);
        assert!(new < old, "{new} {old}");
    }

    #[test]
    fn identifier_words_weigh_more_than_plain_words() {
        let (words, terms) = parse_query("Use a `task` with the NavigationStack view", &RANKING);
        let weight = |t: &str| terms.iter().find(|(x, _)| x == t).map(|(_, w)| *w);
        assert_eq!(weight("navigationstack"), Some(RANKING.ident_weight));
        assert_eq!(
            weight("navigation"),
            Some(RANKING.ident_weight * RANKING.piece_weight)
        );
        assert_eq!(weight("task"), Some(RANKING.ident_weight));
        assert_eq!(weight("view"), Some(1.0));
        assert_eq!(weight("the"), None);
        assert!(words.iter().any(|w| w.raw == "Use" && w.weight == 1.0));
    }

    /// Tuning, on the tuning set only: a grid around [`RANKING`], best MRR first. Run it with
    /// `cargo test --release -p verity --bin verity tune_ranking -- --ignored --nocapture`.
    #[test]
    #[ignore = "a tuning aid, not a check"]
    fn tune_ranking() {
        let mut docs = sdk_docs();
        let tune = labelled(TUNE);
        let mut results = Vec::new();
        for ident_weight in [1.0, 1.5, 2.0, 3.0] {
            for exact_bonus in [1.0, 2.0, 3.0, 5.0] {
                for prefix_bonus in [0.0, 0.5, 1.0] {
                    for type_factor in [1.0, 1.3, 1.6] {
                        for depth_penalty in [0.0, 0.15, 0.3] {
                            let r = Ranking {
                                ident_weight,
                                exact_bonus,
                                prefix_bonus,
                                type_factor,
                                depth_penalty,
                                ..RANKING
                            };
                            docs.ranking = r;
                            let s = score(&docs, &tune);
                            results.push((s.mrr, s.recall5, format!("{r:?}")));
                        }
                    }
                }
            }
        }
        results.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1)));
        for (mrr, recall, r) in results.iter().take(15) {
            eprintln!("tune: MRR {mrr:.3} recall@5 {recall:.3} {r}");
        }
    }
}
