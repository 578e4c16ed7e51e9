//! A small in-memory [`DocSource`], for tests and examples.

use crate::{Doc, DocSource};

/// Documents held in memory, searched by word overlap.
///
/// A document's score for a query is, over the query's words (lowercase letters and digits):
/// 3 per word found in its id or title, plus 1 per occurrence in its body (at most 3 per
/// word). Documents that score 0 are not returned; ties keep the order the documents were given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticDocs {
    name: String,
    docs: Vec<Doc>,
}

impl StaticDocs {
    pub fn new(name: impl Into<String>, docs: Vec<Doc>) -> StaticDocs {
        StaticDocs {
            name: name.into(),
            docs,
        }
    }

    pub fn docs(&self) -> &[Doc] {
        &self.docs
    }

    fn score(doc: &Doc, terms: &[String]) -> usize {
        let head = words(&format!("{} {}", doc.id, doc.title));
        let body = words(&doc.body);
        terms
            .iter()
            .map(|term| {
                let in_head = if head.contains(term) { 3 } else { 0 };
                in_head + body.iter().filter(|w| *w == term).count().min(3)
            })
            .sum()
    }
}

impl DocSource for StaticDocs {
    fn name(&self) -> &str {
        &self.name
    }

    fn search(&self, query: &str, limit: usize) -> Vec<Doc> {
        let terms = words(query);
        if terms.is_empty() {
            return Vec::new();
        }
        let mut scored: Vec<(usize, usize)> = self
            .docs
            .iter()
            .enumerate()
            .map(|(i, doc)| (StaticDocs::score(doc, &terms), i))
            .filter(|(score, _)| *score > 0)
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        scored
            .into_iter()
            .take(limit)
            .map(|(_, i)| self.docs[i].clone())
            .collect()
    }

    fn read(&self, id: &str) -> Option<Doc> {
        self.docs.iter().find(|d| d.id == id).cloned()
    }

    fn doc_count(&self) -> usize {
        self.docs.len()
    }

    fn doc_at(&self, i: usize) -> Option<Doc> {
        self.docs.get(i).cloned()
    }
}

/// Lowercase runs of letters and digits.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(id: &str, title: &str, body: &str) -> Doc {
        Doc {
            id: id.into(),
            title: title.into(),
            body: body.into(),
        }
    }

    fn docs() -> StaticDocs {
        StaticDocs::new(
            "t",
            vec![
                doc("swiftui/text", "Text", "A view that displays text."),
                doc(
                    "foundation/urlsession",
                    "URLSession",
                    "Fetch data with a URL session. Session tasks.",
                ),
                doc(
                    "swiftui/list",
                    "List",
                    "A container that presents rows of data.",
                ),
            ],
        )
    }

    fn ids(found: Vec<Doc>) -> Vec<String> {
        found.into_iter().map(|d| d.id).collect()
    }

    #[test]
    fn title_matches_rank_first() {
        assert_eq!(
            ids(docs().search("URLSession data", 5)),
            ["foundation/urlsession", "swiftui/list"]
        );
    }

    #[test]
    fn ties_keep_the_given_order_and_limit_applies() {
        assert_eq!(
            ids(docs().search("swiftui", 5)),
            ["swiftui/text", "swiftui/list"]
        );
        assert_eq!(ids(docs().search("swiftui", 1)), ["swiftui/text"]);
    }

    #[test]
    fn no_match_and_empty_query_find_nothing() {
        assert!(docs().search("kotlin", 5).is_empty());
        assert!(docs().search(" -- ", 5).is_empty());
    }

    #[test]
    fn read_by_id() {
        assert_eq!(
            docs().read("swiftui/list").map(|d| d.title),
            Some("List".to_owned())
        );
        assert_eq!(docs().read("nope"), None);
        assert_eq!(docs().name(), "t");
    }
}
