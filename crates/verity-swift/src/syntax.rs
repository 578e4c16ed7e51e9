//! The tree-sitter-swift syntax check: parses a source and reports every ERROR and MISSING
//! node with its line and column.

use std::time::{Duration, Instant};

use serde::Serialize;
use tree_sitter::{Node, ParseOptions, Parser, Tree};

/// Sources larger than this are not parsed (a parse criterion failure, not a crash).
pub const MAX_SOURCE_BYTES: usize = 4 << 20;
/// Wall-clock budget of one tree-sitter parse.
pub const PARSE_BUDGET: Duration = Duration::from_secs(5);
/// At most this many syntax problems are listed (the count says how many there were).
pub const MAX_REPORTED: usize = 25;

/// One syntax problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SyntaxIssue {
    /// 1-based.
    pub line: u32,
    /// 1-based, in characters.
    pub column: u32,
    pub message: String,
}

/// A parsed source: the tree (if the parser finished) and its syntax problems.
pub struct Parsed {
    pub tree: Option<Tree>,
    pub issues: Vec<SyntaxIssue>,
    /// How many problems there were in all (`issues` stops at [`MAX_REPORTED`]).
    pub issue_count: usize,
    /// Why there is no tree (too large, gave up).
    pub gave_up: Option<String>,
    /// First and last line of every ERROR / MISSING node (references there are unreliable).
    pub error_spans: Vec<(u32, u32)>,
}

impl Parsed {
    /// No tree: one issue at 1:1 saying why, and the short reason in `gave_up`.
    fn without_tree(message: String, reason: &str) -> Parsed {
        Parsed {
            tree: None,
            issues: vec![SyntaxIssue {
                line: 1,
                column: 1,
                message,
            }],
            issue_count: 1,
            gave_up: Some(reason.into()),
            error_spans: Vec::new(),
        }
    }

    /// Whether `line` lies in an erroneous region.
    pub fn in_error(&self, line: u32) -> bool {
        self.error_spans
            .iter()
            .any(|&(a, b)| a <= line && line <= b)
    }
}

pub(crate) fn language() -> tree_sitter::Language {
    tree_sitter_swift::LANGUAGE.into()
}

/// 1-based line and character column of a node's start.
pub(crate) fn pos(node: Node<'_>, src: &str) -> (u32, u32) {
    let p = node.start_position();
    let line_start = node.start_byte().saturating_sub(p.column);
    let col = src
        .get(line_start..node.start_byte())
        .map_or(p.column, |s| s.chars().count());
    (p.row as u32 + 1, col as u32 + 1)
}

fn excerpt(s: &str) -> String {
    let s = s.trim();
    let first = s.lines().next().unwrap_or("");
    let cut: String = first.chars().take(40).collect();
    if cut.len() < s.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

/// Parses `src` with tree-sitter-swift and lists its ERROR / MISSING nodes.
pub fn parse(src: &str) -> Parsed {
    if src.len() > MAX_SOURCE_BYTES {
        return Parsed::without_tree(
            format!(
                "source too large to check ({} bytes, limit {MAX_SOURCE_BYTES})",
                src.len()
            ),
            "source too large",
        );
    }
    thread_local! {
        // one parser per thread: creating one (and loading the grammar) per check costs time
        static PARSER: std::cell::RefCell<Option<Parser>> = const { std::cell::RefCell::new(None) };
    }
    let started = Instant::now();
    let bytes = src.as_bytes();
    let len = bytes.len();
    let tree = PARSER.with(|cell| {
        let mut slot = cell.try_borrow_mut().ok()?;
        if slot.is_none() {
            let mut p = Parser::new();
            p.set_language(&language()).ok()?;
            *slot = Some(p);
        }
        let parser = slot.as_mut()?;
        parser.reset();
        let mut progress = |_: &tree_sitter::ParseState| started.elapsed() > PARSE_BUDGET;
        let opts = ParseOptions::new().progress_callback(&mut progress);
        let t = parser.parse_with_options(
            &mut |i, _| if i < len { &bytes[i..] } else { &[] },
            None,
            Some(opts),
        );
        if t.is_none() {
            parser.reset();
        }
        t
    });
    let Some(tree) = tree else {
        return Parsed::without_tree(
            format!(
                "the parser gave up: over its {}s budget (input too large or too convoluted), or the grammar could not be loaded",
                PARSE_BUDGET.as_secs()
            ),
            "time budget",
        );
    };
    let (issues, issue_count, error_spans) = collect_issues(&tree, src);
    Parsed {
        tree: Some(tree),
        issues,
        issue_count,
        gave_up: None,
        error_spans,
    }
}

fn collect_issues(tree: &Tree, src: &str) -> (Vec<SyntaxIssue>, usize, Vec<(u32, u32)>) {
    let mut issues = Vec::new();
    let mut spans = Vec::new();
    let mut count = 0usize;
    let root = tree.root_node();
    if !root.has_error() {
        return (issues, 0, spans);
    }
    // Iterative pre-order walk: deep trees (a megabyte of `{`) must not exhaust the stack.
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let mut descend = node.has_error();
        if node.is_missing() || node.is_error() {
            spans.push((
                node.start_position().row as u32 + 1,
                node.end_position().row as u32 + 1,
            ));
        }
        if node.is_missing() {
            count += 1;
            if issues.len() < MAX_REPORTED {
                let (line, column) = pos(node, src);
                issues.push(SyntaxIssue {
                    line,
                    column,
                    message: format!("missing `{}`", node.kind()),
                });
            }
            descend = false;
        } else if node.is_error() {
            count += 1;
            if issues.len() < MAX_REPORTED {
                let (line, column) = pos(node, src);
                let text = node.utf8_text(src.as_bytes()).unwrap_or("");
                issues.push(SyntaxIssue {
                    line,
                    column,
                    message: format!("syntax error near `{}`", excerpt(text)),
                });
            }
            // Nested errors inside an error node are the same problem.
            descend = false;
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return (issues, count, spans);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_and_broken() {
        let p =
            parse("import SwiftUI\nstruct A: View {\n  var body: some View { Text(\"x\") }\n}\n");
        assert!(p.tree.is_some());
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let p = parse("func f( {\n  let x = \n}\n");
        assert!(p.issue_count > 0);
        assert!(p.issues[0].line >= 1);
    }

    #[test]
    fn missing_brace_is_reported_with_position() {
        let p = parse("struct A {\n  func f() {\n    print(1)\n  }\n");
        assert!(p.issue_count > 0, "{:?}", p.issues);
        assert!(p.issues.iter().all(|i| i.line >= 1 && i.column >= 1));
    }
}
