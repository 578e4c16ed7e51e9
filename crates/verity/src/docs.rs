//! The reference grounding server's documentation: the Swift symbol index and the deprecation
//! map as searchable documents (`verity mcp serve --index`).
//!
//! Search is a small inverted index: identifiers are split at camel-case and punctuation
//! boundaries, terms weighted by inverse document frequency, with a bonus for a symbol whose own
//! name is a query word and a mild preference for types and short paths. It answers in well under
//! a millisecond per query, which is what a grounding server asked once per sample needs.

use std::collections::HashMap;

use verity_mcp::{Doc, DocSource};
use verity_swift::{DeprecationMap, Index};

struct Entry {
    id: String,
    title: String,
    body: String,
    /// The symbol's own name, lowercased (for the exact-name bonus).
    name: String,
    is_type: bool,
    depth: usize,
}

pub struct SdkDocs {
    name: String,
    entries: Vec<Entry>,
    by_id: HashMap<String, usize>,
    postings: HashMap<String, Vec<(u32, f32)>>,
    idf: HashMap<String, f32>,
}

const STOP: &[&str] = &[
    "a", "an", "and", "the", "to", "of", "in", "on", "for", "with", "how", "do", "i", "is", "it",
    "that", "this", "my", "me", "write", "make", "use", "using", "swift", "code", "show", "can",
    "be", "from", "so", "when", "what", "which", "into", "by", "as", "are", "or", "view", "ios",
];

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

impl SdkDocs {
    pub fn new(index: &Index, map: &DeprecationMap, name: String) -> SdkDocs {
        let mut entries = Vec::with_capacity(index.symbol_count() + map.len());
        for f in index.iter() {
            if f.synthesized {
                continue;
            }
            let path = f.dotted_path();
            let last = f.path.last().cloned().unwrap_or_default();
            let base = verity_swift::base_name(&last).to_lowercase();
            entries.push(Entry {
                id: format!("{}/{}", f.module, path),
                title: path.clone(),
                body: verity_swift::cli::facts_line(&f),
                name: base,
                is_type: f.kind.is_type(),
                depth: f.path.len(),
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
            entries.push(Entry {
                id: format!("deprecation/{}", e.key),
                title: format!("{} (deprecated)", e.key),
                body,
                name: e.key.to_lowercase(),
                is_type: false,
                depth: 1,
            });
        }
        let mut postings: HashMap<String, Vec<(u32, f32)>> = HashMap::new();
        for (i, e) in entries.iter().enumerate() {
            let mut tf: HashMap<String, f32> = HashMap::new();
            for t in terms(&e.title) {
                *tf.entry(t).or_default() += 2.0;
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
        SdkDocs {
            name,
            entries,
            by_id,
            postings,
            idf,
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
}

impl DocSource for SdkDocs {
    fn name(&self) -> &str {
        &self.name
    }

    fn search(&self, query: &str, limit: usize) -> Vec<Doc> {
        let q: Vec<String> = {
            let mut q = terms(query);
            q.retain(|t| !STOP.contains(&t.as_str()));
            q.sort();
            q.dedup();
            q
        };
        let mut score: HashMap<u32, f32> = HashMap::new();
        for t in &q {
            let (Some(p), Some(idf)) = (self.postings.get(t), self.idf.get(t)) else {
                continue;
            };
            for (doc, w) in p {
                *score.entry(*doc).or_default() += w * idf;
            }
        }
        let mut ranked: Vec<(u32, f32)> = score
            .into_iter()
            .map(|(d, s)| {
                let e = &self.entries[d as usize];
                let exact = if q.contains(&e.name) { 2.0 } else { 1.0 };
                let kind = if e.is_type { 1.3 } else { 1.0 };
                (d, s * exact * kind / (1.0 + 0.15 * e.depth as f32))
            })
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked
            .into_iter()
            .take(limit)
            .map(|(d, _)| self.doc(d as usize))
            .collect()
    }

    fn read(&self, id: &str) -> Option<Doc> {
        self.by_id.get(id).map(|i| self.doc(*i))
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
}
