//! Pulls Swift code out of a model's answer.
//!
//! Fenced blocks tagged `swift` (any case, info string after the tag allowed) are code, and so
//! are untagged fences whose body looks like Swift; other tags (`bash`, `json`, `objc`, …) are
//! not. Several blocks are joined into one source in which every line keeps its line number in
//! the answer: text outside the blocks and the fence lines become empty lines. So a
//! diagnostic at line 12 of the joined source is at line 12 of the answer. An answer without
//! fences counts as code only when it looks like Swift as a whole.

use serde::Serialize;

/// One fenced block of the answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CodeBlock {
    /// 1-based line of the block's first code line in the answer.
    pub first_line: u32,
    pub lines: u32,
    /// The fence's tag (`swift`, or empty).
    pub tag: String,
}

/// The Swift code of an answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExtractedCode {
    /// The joined source: same line numbers as the answer, non-code lines empty.
    pub source: String,
    pub blocks: Vec<CodeBlock>,
    /// The answer had no fence and was taken whole because it looks like Swift.
    pub unfenced: bool,
}

impl ExtractedCode {
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty() || self.source.trim().is_empty()
    }
}

fn fence_of(line: &str) -> Option<(char, usize, &str)> {
    let t = line.trim_start();
    if line.len() - t.len() > 3 {
        return None;
    }
    let c = t.chars().next()?;
    if c != '`' && c != '~' {
        return None;
    }
    let n = t.chars().take_while(|&x| x == c).count();
    if n < 3 {
        return None;
    }
    let info = t[n..].trim();
    if c == '`' && info.contains('`') {
        return None;
    }
    Some((c, n, info))
}

/// Swift-looking signals in a piece of text: (signals, code-like lines, non-empty lines).
fn swift_signals(text: &str) -> (usize, usize, usize) {
    const KEYWORDS: &[&str] = &[
        "import ",
        "func ",
        "let ",
        "var ",
        "struct ",
        "class ",
        "enum ",
        "protocol ",
        "extension ",
        "actor ",
        "guard ",
        "return ",
        "if ",
        "for ",
        "switch ",
        "case ",
        "@State",
        "@Observable",
        "@MainActor",
        "init(",
        "some View",
        "async ",
        "await ",
        "try ",
        "#Preview",
        "private ",
        "public ",
        "static ",
        "override ",
        "self.",
        "}",
    ];
    let mut signals = 0;
    let mut code_lines = 0;
    let mut lines = 0;
    for l in text.lines() {
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        lines += 1;
        let hits = KEYWORDS.iter().filter(|k| t.contains(*k)).count();
        signals += hits;
        if hits > 0
            || t.ends_with('{')
            || t.ends_with('}')
            || t.ends_with(')')
            || t.starts_with("//")
            || t.starts_with('.')
        {
            code_lines += 1;
        }
    }
    (signals, code_lines, lines)
}

/// Whether an untagged block (or a whole answer) looks like Swift.
pub fn looks_like_swift(text: &str) -> bool {
    let (signals, code_lines, lines) = swift_signals(text);
    lines > 0 && signals >= 1 && code_lines * 2 >= lines
}

fn is_swift_tag(info: &str) -> Option<bool> {
    let tag = info
        .split(|c: char| c.is_whitespace() || c == '{' || c == ',')
        .next()
        .unwrap_or("")
        .trim_start_matches('.')
        .to_ascii_lowercase();
    match tag.as_str() {
        "" => None,
        "swift" | "swiftui" | "swift5" | "swift6" => Some(true),
        _ => Some(false),
    }
}

/// Extracts the Swift code of an answer (see the module docs).
pub fn extract_code(answer: &str) -> ExtractedCode {
    let lines: Vec<&str> = answer.split('\n').collect();
    let mut keep = vec![false; lines.len()];
    let mut blocks = Vec::new();
    let mut any_fence = false;
    let mut i = 0;
    while i < lines.len() {
        let Some((c, n, info)) = fence_of(lines[i]) else {
            i += 1;
            continue;
        };
        any_fence = true;
        let start = i + 1;
        let mut end = start;
        while end < lines.len() {
            if let Some((c2, n2, info2)) = fence_of(lines[end])
                && c2 == c
                && n2 >= n
                && info2.is_empty()
            {
                break;
            }
            end += 1;
        }
        let body = lines[start..end].join("\n");
        let take = match is_swift_tag(info) {
            Some(t) => t,
            None => looks_like_swift(&body),
        };
        if take && end > start {
            for k in keep.iter_mut().take(end).skip(start) {
                *k = true;
            }
            blocks.push(CodeBlock {
                first_line: start as u32 + 1,
                lines: (end - start) as u32,
                tag: info.to_owned(),
            });
        }
        i = end + 1;
    }
    let mut unfenced = false;
    if !any_fence && looks_like_swift(answer) {
        unfenced = true;
        keep.iter_mut().for_each(|k| *k = true);
        blocks.push(CodeBlock {
            first_line: 1,
            lines: lines.len() as u32,
            tag: String::new(),
        });
    }
    let mut source = String::with_capacity(answer.len());
    for (k, (line, keep)) in lines.iter().zip(&keep).enumerate() {
        if *keep {
            source.push_str(line.strip_suffix('\r').unwrap_or(line));
        }
        if k + 1 < lines.len() {
            source.push('\n');
        }
    }
    ExtractedCode {
        source,
        blocks,
        unfenced,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fenced_blocks_keep_answer_line_numbers() {
        let answer = "Here you go:\n```swift\nlet a = 1\n```\nand\n```\nfunc f() {}\n```\n```bash\nls\n```\n";
        let c = extract_code(answer);
        assert_eq!(c.blocks.len(), 2);
        assert_eq!(c.blocks[0].first_line, 3);
        assert_eq!(c.blocks[1].first_line, 7);
        let lines: Vec<&str> = c.source.split('\n').collect();
        assert_eq!(lines[2], "let a = 1");
        assert_eq!(lines[6], "func f() {}");
        assert_eq!(lines[9], "", "bash is not Swift");
        assert_eq!(lines.len(), answer.split('\n').count());
        assert!(!c.unfenced);
    }

    #[test]
    fn no_code() {
        assert!(extract_code("I cannot help with that.").is_empty());
        assert!(extract_code("").is_empty());
        assert!(extract_code("```json\n{\"a\": 1}\n```").is_empty());
        assert!(extract_code("```\nplain prose in a fence\n```").is_empty());
    }

    #[test]
    fn unfenced_swift_and_odd_fences() {
        let c = extract_code(
            "import SwiftUI\nstruct A: View {\n  var body: some View { Text(\"x\") }\n}",
        );
        assert!(c.unfenced && !c.is_empty());
        let c = extract_code("~~~Swift\nlet x = 1\n~~~");
        assert_eq!(c.source, "\nlet x = 1\n");
        // unterminated fence: the rest of the answer
        let c = extract_code("```swift\nlet x = 1\nlet y = 2");
        assert_eq!(c.blocks[0].lines, 2);
        // a fence with an info string after the tag
        let c = extract_code("```swift title=\"A.swift\"\nlet x = 1\n```");
        assert_eq!(c.blocks.len(), 1);
        // CRLF
        let c = extract_code("```swift\r\nlet x = 1\r\n```\r\n");
        assert!(c.source.contains("let x = 1\n"));
    }
}
