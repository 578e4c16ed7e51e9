//! Formatting-only rewrites of a text, behind `[perturb]`: trailing whitespace, indentation,
//! an inserted comment line, and removing comments with a small scanner per language family.
//!
//! Each rewrite returns `None` when it would leave the text as it is (a copy identical to its
//! task measures nothing) or cannot apply (comments in a language we do not know).
//!
//! The scanners work on bytes: every marker they look for is ASCII, and UTF-8 never uses an
//! ASCII byte inside a multi-byte character, so every range they return falls on character
//! boundaries. They know the common cases of each family — string and character literals with
//! escapes, raw and multi-line strings, JavaScript regular expressions, shell quoting and
//! here-documents — enough that a `"http://x"` string survives; they are not parsers.

use std::ops::Range;

use verity_model::PerturbKind;

/// The comment line `comment` inserts, after the language's marker.
const NOTE: &str = "NOTE: formatting only";

/// A language whose comments the rewrites know, from `metadata.language`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lang {
    Python,
    Ruby,
    Shell,
    JavaScript,
    TypeScript,
    Rust,
    Go,
    Swift,
    Java,
    C,
    Cpp,
    CSharp,
    Kotlin,
}

/// The names `metadata.language` may use, for help texts.
pub(crate) const LANGUAGE_NAMES: &str = "python, ruby, shell (sh, bash, zsh), javascript, typescript, rust, go, swift, java, c, c++, c#, kotlin, or a file extension (py, js, rs…)";

impl Lang {
    /// The language a `metadata.language` value names: a name or a common file extension, in
    /// any case, with or without a leading dot.
    pub(crate) fn from_name(name: &str) -> Option<Lang> {
        let n = name.trim().trim_start_matches('.').to_ascii_lowercase();
        Some(match n.as_str() {
            "python" | "py" | "pyw" => Lang::Python,
            "ruby" | "rb" => Lang::Ruby,
            "shell" | "sh" | "bash" | "zsh" => Lang::Shell,
            "javascript" | "js" | "mjs" | "cjs" | "jsx" => Lang::JavaScript,
            "typescript" | "ts" | "tsx" | "mts" | "cts" => Lang::TypeScript,
            "rust" | "rs" => Lang::Rust,
            "go" | "golang" => Lang::Go,
            "swift" => Lang::Swift,
            "java" => Lang::Java,
            "c" | "h" => Lang::C,
            "c++" | "cpp" | "cxx" | "cc" | "hpp" | "hh" | "hxx" => Lang::Cpp,
            "c#" | "csharp" | "cs" => Lang::CSharp,
            "kotlin" | "kt" | "kts" => Lang::Kotlin,
            _ => return None,
        })
    }

    /// `#` comments (Python, Ruby, shell), else `//` and `/* */`.
    fn hash_family(self) -> bool {
        matches!(self, Lang::Python | Lang::Ruby | Lang::Shell)
    }

    fn marker(self) -> &'static str {
        if self.hash_family() { "#" } else { "//" }
    }

    fn js(self) -> bool {
        matches!(self, Lang::JavaScript | Lang::TypeScript)
    }
}

/// `text` perturbed by `kind`, or `None` when that would change nothing or `kind` needs a
/// language and `lang` is `None`.
pub(crate) fn perturb(kind: PerturbKind, text: &str, lang: Option<Lang>) -> Option<String> {
    let out = match kind {
        PerturbKind::TrailingWhitespace => trailing_whitespace(text),
        PerturbKind::Indent => swap_indent(text),
        PerturbKind::Comment => insert_comment(text, lang?),
        PerturbKind::NoComments => remove_comments(text, lang?),
    };
    (out != text).then_some(out)
}

/// Two spaces at the end of every non-empty line (before a `\r\n`'s `\r`).
fn trailing_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        let body = body.strip_suffix('\r').unwrap_or(body);
        out.push_str(body);
        if !body.is_empty() {
            out.push_str("  ");
        }
        out.push_str(&line[body.len()..]);
    }
    out
}

/// Leading tabs become four spaces each; a text without leading tabs has each leading run of
/// four spaces replaced by a tab instead.
fn swap_indent(text: &str) -> String {
    let lead = |line: &str| line.len() - line.trim_start_matches([' ', '\t']).len();
    let has_tabs = text
        .split('\n')
        .any(|line| line[..lead(line)].contains('\t'));
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.split_inclusive('\n') {
        let n = lead(line);
        let indent = &line[..n];
        if has_tabs {
            out.push_str(&indent.replace('\t', "    "));
        } else {
            out.extend(std::iter::repeat_n('\t', n / 4));
            out.extend(std::iter::repeat_n(' ', n % 4));
        }
        out.push_str(&line[n..]);
    }
    out
}

/// The length of a first line that is a shebang (`#!…`, not Rust's `#![attribute]`), with
/// its line break.
fn shebang_len(text: &str, lang: Lang) -> usize {
    let Some(rest) = text.strip_prefix("#!") else {
        return 0;
    };
    if lang == Lang::Rust && rest.trim_start().starts_with('[') {
        return 0;
    }
    text.find('\n').map_or(text.len(), |i| i + 1)
}

/// Whether `line` is a Python or Ruby encoding declaration (`# -*- coding: utf-8 -*-`), which
/// must stay on the first two lines.
fn is_coding_line(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('#') && (t.contains("coding:") || t.contains("coding="))
}

/// `# NOTE: formatting only` (or `//`) as a new first line, after a shebang and a Python or
/// Ruby encoding declaration.
fn insert_comment(text: &str, lang: Lang) -> String {
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut at = shebang_len(text, lang);
    if matches!(lang, Lang::Python | Lang::Ruby) {
        let next = text[at..].split_inclusive('\n').next().unwrap_or("");
        if is_coding_line(next) {
            at += next.len();
        }
    }
    let mut out = String::with_capacity(text.len() + NOTE.len() + 4);
    out.push_str(&text[..at]);
    if at > 0 && !text[..at].ends_with('\n') {
        out.push_str(newline);
    }
    out.push_str(lang.marker());
    out.push(' ');
    out.push_str(NOTE);
    out.push_str(newline);
    out.push_str(&text[at..]);
    out
}

/// `text` without its comments. A comment at the end of a line takes the blanks before it
/// along, one after blanks the blanks after it; a line that held only comments goes; a block
/// comment between two words leaves a space. The shebang line stays.
fn remove_comments(text: &str, lang: Lang) -> String {
    let ranges = comments(text, lang);
    if ranges.is_empty() {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    // Where in `out` each comment was.
    let mut marks = Vec::with_capacity(ranges.len());
    let mut at = 0;
    for r in &ranges {
        out.push_str(&text[at..r.start]);
        let before_blank = out.chars().next_back().is_none_or(char::is_whitespace);
        let mut end = r.end;
        if before_blank {
            end = text.len() - text[end..].trim_start_matches([' ', '\t']).len();
        }
        let after = text[end..].chars().next();
        if after.is_none_or(|c| c == '\n' || c == '\r') {
            let kept = out.trim_end_matches([' ', '\t']).len();
            out.truncate(kept);
        } else if !before_blank && after.is_some_and(|c| !c.is_whitespace()) {
            out.push(' ');
        }
        marks.push(out.len());
        at = end;
    }
    out.push_str(&text[at..]);
    drop_blank_lines(&out, &marks)
}

/// `text` without the lines at `marks` that are blank (they held only a comment).
fn drop_blank_lines(text: &str, marks: &[usize]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut marks = marks.iter().copied().peekable();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let end = start + line.len();
        let mut marked = false;
        // A mark at a line's very end (before its `\n`) belongs to it; `end` is the next
        // line's start.
        while let Some(&m) = marks.peek() {
            if m < end || (m == end && !line.ends_with('\n')) {
                marked = true;
                marks.next();
            } else {
                break;
            }
        }
        if marked && line.trim().is_empty() {
            if !line.ends_with('\n') {
                // The last line, without a line break: the one before loses its break instead.
                let kept = out.trim_end_matches('\n').len();
                out.truncate(kept);
                let kept = out.strip_suffix('\r').map_or(out.len(), str::len);
                out.truncate(kept);
            }
        } else {
            out.push_str(line);
        }
        start = end;
    }
    // A text ending in a line break has an empty last "line" that `split_inclusive` does not
    // yield: a comment that ran to the end from there takes that line break along.
    if marks.next().is_some() {
        let kept = out.strip_suffix('\n').map_or(out.len(), str::len);
        out.truncate(kept);
        let kept = out.strip_suffix('\r').map_or(out.len(), str::len);
        out.truncate(kept);
    }
    out
}

/// The byte ranges of `text`'s comments (a line comment without its line break).
pub(crate) fn comments(text: &str, lang: Lang) -> Vec<Range<usize>> {
    let from = shebang_len(text, lang);
    let s = text.as_bytes();
    match lang {
        Lang::Python => python_comments(s, from),
        Lang::Ruby => ruby_comments(s, from),
        Lang::Shell => shell_comments(s, from),
        _ => c_comments(s, from, lang),
    }
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The end of the line `at` is on (the index of its `\n`, or the text's end).
fn line_end(s: &[u8], at: usize) -> usize {
    s[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(s.len(), |i| at + i)
}

/// The end of a string that starts after its opening `quote` at `at`: just past the closing
/// quote. `\` escapes the next byte when `escapes`; a line break ends an unterminated string
/// (so one stray quote does not swallow the rest) unless `multiline`.
fn string_end(s: &[u8], mut at: usize, quote: u8, escapes: bool, multiline: bool) -> usize {
    while at < s.len() {
        match s[at] {
            b'\\' if escapes => at += 2,
            b'\n' if !multiline => return at,
            b if b == quote => return at + 1,
            _ => at += 1,
        }
    }
    s.len()
}

/// Just past the first `close` at or after `at` (the text's end when there is none), with `\`
/// escaping the next byte when `escapes`.
fn delimited_end(s: &[u8], mut at: usize, close: &[u8], escapes: bool) -> usize {
    while at < s.len() {
        if escapes && s[at] == b'\\' {
            at += 2;
        } else if s[at..].starts_with(close) {
            return at + close.len();
        } else {
            at += 1;
        }
    }
    s.len()
}

// ---- Python, Ruby, shell ---------------------------------------------------------------------

fn python_comments(s: &[u8], mut i: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    while i < s.len() {
        match s[i] {
            b'#' => {
                let end = line_end(s, i);
                out.push(i..end);
                i = end;
            }
            q @ (b'\'' | b'"') => {
                let triple = [q, q, q];
                i = if s[i..].starts_with(&triple) {
                    delimited_end(s, i + 3, &triple, true)
                } else {
                    string_end(s, i + 1, q, true, false)
                };
            }
            _ => i += 1,
        }
    }
    out
}

fn ruby_comments(s: &[u8], mut i: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let at_line_start = |i: usize| i == 0 || s[i - 1] == b'\n';
    while i < s.len() {
        match s[i] {
            b'=' if at_line_start(i) && s[i..].starts_with(b"=begin") => {
                // A block comment runs to the end of its `=end` line.
                let mut end = line_end(s, i);
                while end < s.len() {
                    let next = end + 1;
                    end = line_end(s, next);
                    if s[next..].starts_with(b"=end") {
                        break;
                    }
                }
                out.push(i..end);
                i = end;
            }
            b'#' => {
                let end = line_end(s, i);
                out.push(i..end);
                i = end;
            }
            q @ (b'\'' | b'"' | b'`') => i = string_end(s, i + 1, q, true, true),
            _ => i += 1,
        }
    }
    out
}

/// Shell: `#` starts a comment only at the start of a word (`$#`, `${#x}` and `a#b` are
/// not comments); single quotes have no escapes; here-document bodies are text.
fn shell_comments(s: &[u8], mut i: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    // Here-documents opened on the current line: (delimiter, tabs stripped).
    let mut heredocs: Vec<(Vec<u8>, bool)> = Vec::new();
    while i < s.len() {
        match s[i] {
            b'#' if i == 0
                || matches!(
                    s[i - 1],
                    b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b')'
                ) =>
            {
                let end = line_end(s, i);
                out.push(i..end);
                i = end;
            }
            b'\\' => i += 2,
            b'\'' => i = string_end(s, i + 1, b'\'', false, true),
            q @ (b'"' | b'`') => i = string_end(s, i + 1, q, true, true),
            b'<' if s[i..].starts_with(b"<<") && !s[i..].starts_with(b"<<<") => {
                i += 2;
                let strip = s.get(i) == Some(&b'-');
                if strip {
                    i += 1;
                }
                while matches!(s.get(i), Some(b' ' | b'\t')) {
                    i += 1;
                }
                let quote = match s.get(i) {
                    Some(&q @ (b'\'' | b'"')) => {
                        i += 1;
                        Some(q)
                    }
                    _ => None,
                };
                let start = i;
                while i < s.len() && (is_ident(s[i]) || matches!(s[i], b'-' | b'.')) {
                    i += 1;
                }
                // An unquoted delimiter starts with a letter: `$((1 << 2))` is a shift.
                let word = quote.is_some()
                    || s.get(start)
                        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_');
                if i > start && word {
                    heredocs.push((s[start..i].to_vec(), strip));
                }
                if quote.is_some() && quote == s.get(i).copied() {
                    i += 1;
                }
            }
            b'\n' => {
                i += 1;
                // Skip the bodies of the here-documents this line opened, in order.
                for (word, strip) in heredocs.drain(..) {
                    while i < s.len() {
                        let end = line_end(s, i);
                        let mut line = &s[i..end];
                        if line.last() == Some(&b'\r') {
                            line = &line[..line.len() - 1];
                        }
                        if strip {
                            while line.first() == Some(&b'\t') {
                                line = &line[1..];
                            }
                        }
                        i = (end + 1).min(s.len());
                        if line == word.as_slice() {
                            break;
                        }
                    }
                }
            }
            _ => i += 1,
        }
    }
    out
}

// ---- C-like: JavaScript, TypeScript, Rust, Go, Swift, Java, C, C++, C#, Kotlin -----------------

/// Words after which a `/` in JavaScript starts a regular expression, not a division.
const JS_REGEX_KEYWORDS: &[&[u8]] = &[
    b"return",
    b"typeof",
    b"instanceof",
    b"in",
    b"of",
    b"new",
    b"delete",
    b"void",
    b"throw",
    b"case",
    b"do",
    b"else",
    b"yield",
    b"await",
];

fn c_comments(s: &[u8], mut i: usize, lang: Lang) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    // The last byte outside comments and blanks, for JavaScript's regex-or-division question;
    // a literal counts as `"` (an operand).
    let mut last: Option<usize> = None;
    let nested = matches!(lang, Lang::Rust | Lang::Swift | Lang::Kotlin);
    while i < s.len() {
        let b = s[i];
        let next = s.get(i + 1).copied();
        let start = i;
        match b {
            b'/' if next == Some(b'/') => {
                let end = line_end(s, i);
                out.push(i..end);
                i = end;
                continue;
            }
            b'/' if next == Some(b'*') => {
                let end = block_comment_end(s, i + 2, nested);
                out.push(i..end);
                i = end;
                continue;
            }
            b'/' if lang.js() && regex_allowed(s, last) => {
                i = regex_end(s, i + 1).unwrap_or(i + 1);
            }
            b'"' if s[i..].starts_with(b"\"\"\"") && triple_quotes(lang) => {
                i = delimited_end(
                    s,
                    i + 3,
                    b"\"\"\"",
                    !matches!(lang, Lang::Kotlin | Lang::CSharp),
                );
            }
            b'"' => i = string_end(s, i + 1, b'"', true, false),
            b'\'' if lang.js() => i = string_end(s, i + 1, b'\'', true, false),
            b'\'' if lang != Lang::Swift => i = char_literal_end(s, i),
            b'`' if lang.js() => i = string_end(s, i + 1, b'`', true, true),
            b'`' if lang == Lang::Go => i = string_end(s, i + 1, b'`', false, true),
            b'`' if lang == Lang::Kotlin => i = string_end(s, i + 1, b'`', false, false),
            _ => match raw_string_end(s, i, lang) {
                Some(end) => i = end,
                None => i += 1,
            },
        }
        if !b.is_ascii_whitespace() {
            // A literal (or the byte itself) as the last thing before the next token.
            last = Some(if i - start > 1 { usize::MAX } else { start });
        }
    }
    out
}

fn triple_quotes(lang: Lang) -> bool {
    matches!(lang, Lang::Java | Lang::Swift | Lang::Kotlin | Lang::CSharp)
}

/// Just past a block comment whose body starts at `at`; nested ones count when `nested`.
fn block_comment_end(s: &[u8], mut at: usize, nested: bool) -> usize {
    let mut depth = 1;
    while at < s.len() {
        if s[at..].starts_with(b"*/") {
            depth -= 1;
            at += 2;
            if depth == 0 {
                return at;
            }
        } else if nested && s[at..].starts_with(b"/*") {
            depth += 1;
            at += 2;
        } else {
            at += 1;
        }
    }
    s.len()
}

/// A `'` at `at`: just past a character literal (`'a'`, `'\n'`, `'\u{1F600}'`, `'é'`), or just
/// past the quote when it opens none (a Rust lifetime `'a`, a C++ digit separator `1'000`).
fn char_literal_end(s: &[u8], at: usize) -> usize {
    match s.get(at + 1) {
        // The escaped character, then anything up to the closing quote (`'\u{1F600}'`).
        Some(b'\\') => string_end(s, at + 3, b'\'', true, false),
        Some(&b) if b != b'\n' && b != b'\'' => {
            // One character (its UTF-8 length from the first byte), then the closing quote.
            let len = match b {
                0xF0.. => 4,
                0xE0.. => 3,
                0xC0.. => 2,
                _ => 1,
            };
            if s.get(at + 1 + len) == Some(&b'\'') {
                at + 2 + len
            } else {
                at + 1
            }
        }
        _ => at + 1,
    }
}

/// Whether a `/` after the byte at `last` starts a JavaScript regular expression: after an
/// operator, an opening bracket, the start of the text or a keyword like `return`; not after
/// a name, a number, a literal or a closing `)` or `]`.
fn regex_allowed(s: &[u8], last: Option<usize>) -> bool {
    let Some(last) = last else { return true };
    if last == usize::MAX {
        return false;
    }
    let b = s[last];
    if is_ident(b) || b == b'$' {
        let mut start = last;
        while start > 0 && (is_ident(s[start - 1]) || s[start - 1] == b'$') {
            start -= 1;
        }
        return JS_REGEX_KEYWORDS.contains(&&s[start..=last]);
    }
    !matches!(b, b')' | b']' | b'"' | b'\'' | b'`')
}

/// Just past a regular expression whose body starts at `at` (its flags are read as a name
/// after it), or `None` when no closing `/` comes before the line ends.
fn regex_end(s: &[u8], mut at: usize) -> Option<usize> {
    let mut class = false;
    while at < s.len() {
        match s[at] {
            b'\\' => at += 2,
            b'\n' => return None,
            b'[' => {
                class = true;
                at += 1;
            }
            b']' => {
                class = false;
                at += 1;
            }
            b'/' if !class => return Some(at + 1),
            _ => at += 1,
        }
    }
    None
}

/// Raw strings that start at `at`: Rust `r"…"`, `r#"…"#` (also `br`, `cr`), Swift `#"…"#`,
/// C++ `R"delim(…)delim"` (also `u8R`, `uR`, `UR`, `LR`), C# `@"…"` (also `$@"`, `@$"`).
/// Just past the string, or `None` when none starts here.
fn raw_string_end(s: &[u8], at: usize, lang: Lang) -> Option<usize> {
    let word_start = at == 0 || !is_ident(s[at - 1]);
    match lang {
        Lang::Rust if word_start => {
            let mut i = at;
            if matches!(s[i], b'b' | b'c') {
                i += 1;
            }
            if s.get(i) != Some(&b'r') {
                return None;
            }
            hashed_raw_end(s, i + 1)
        }
        Lang::Swift if s[at] == b'#' => hashed_raw_end(s, at),
        Lang::Cpp if word_start => {
            let rest = &s[at..];
            let prefix = [&b"R\""[..], b"u8R\"", b"uR\"", b"UR\"", b"LR\""]
                .into_iter()
                .find(|p| rest.starts_with(p))?;
            let open = at + prefix.len();
            let paren = open + s[open..].iter().take(17).position(|&b| b == b'(')?;
            let delim = &s[open..paren];
            if delim
                .iter()
                .any(|b| b.is_ascii_whitespace() || matches!(b, b')' | b'\\'))
            {
                return None;
            }
            let mut close = Vec::with_capacity(delim.len() + 2);
            close.push(b')');
            close.extend_from_slice(delim);
            close.push(b'"');
            Some(delimited_end(s, paren + 1, &close, false))
        }
        Lang::CSharp => {
            let rest = &s[at..];
            let open = [&b"@\""[..], b"$@\"", b"@$\""]
                .into_iter()
                .find(|p| rest.starts_with(p))?;
            // `""` is a quote inside a verbatim string.
            let mut i = at + open.len();
            while i < s.len() {
                if s[i] == b'"' {
                    if s.get(i + 1) == Some(&b'"') {
                        i += 2;
                        continue;
                    }
                    return Some(i + 1);
                }
                i += 1;
            }
            Some(s.len())
        }
        _ => None,
    }
}

/// `#…#"…"#…#` from its first `#` (or its `"` when there are none) at `at`: just past the
/// closing quote and as many `#`s, or `None` when no string starts here.
fn hashed_raw_end(s: &[u8], at: usize) -> Option<usize> {
    let hashes = s[at..].iter().take_while(|&&b| b == b'#').count();
    if s.get(at + hashes) != Some(&b'"') {
        return None;
    }
    let mut close = vec![b'"'];
    close.extend(std::iter::repeat_n(b'#', hashes));
    Some(delimited_end(s, at + hashes + 1, &close, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(kind: PerturbKind, text: &str, lang: &str) -> Option<String> {
        perturb(kind, text, Lang::from_name(lang))
    }

    fn strip(text: &str, lang: &str) -> String {
        p(PerturbKind::NoComments, text, lang).unwrap_or_else(|| text.to_owned())
    }

    #[test]
    fn languages_by_name_and_extension() {
        for (name, lang) in [
            ("Python", Lang::Python),
            (".py", Lang::Python),
            ("RUBY", Lang::Ruby),
            ("bash", Lang::Shell),
            ("zsh", Lang::Shell),
            ("sh", Lang::Shell),
            ("js", Lang::JavaScript),
            ("TypeScript", Lang::TypeScript),
            ("tsx", Lang::TypeScript),
            ("rs", Lang::Rust),
            ("golang", Lang::Go),
            ("Swift", Lang::Swift),
            ("java", Lang::Java),
            ("C", Lang::C),
            ("h", Lang::C),
            ("C++", Lang::Cpp),
            ("cpp", Lang::Cpp),
            ("C#", Lang::CSharp),
            ("cs", Lang::CSharp),
            ("kotlin", Lang::Kotlin),
            ("kts", Lang::Kotlin),
        ] {
            assert_eq!(Lang::from_name(name), Some(lang), "{name}");
        }
        assert_eq!(Lang::from_name("haskell"), None);
        assert_eq!(Lang::from_name(""), None);
    }

    #[test]
    fn trailing_whitespace_on_non_empty_lines_only() {
        let ws = |t: &str| p(PerturbKind::TrailingWhitespace, t, "");
        assert_eq!(ws("a\n\n  b\n").as_deref(), Some("a  \n\n  b  \n"));
        assert_eq!(ws("a\r\nb").as_deref(), Some("a  \r\nb  "));
        assert_eq!(ws("\n\n"), None);
        assert_eq!(ws(""), None);
    }

    #[test]
    fn indent_swaps_whichever_way_applies() {
        let ind = |t: &str| p(PerturbKind::Indent, t, "");
        // Spaces to tabs: each run of four; what is left stays.
        assert_eq!(
            ind("def f():\n    if x:\n        y = '    '\n      z\n").as_deref(),
            Some("def f():\n\tif x:\n\t\ty = '    '\n\t  z\n")
        );
        // Tabs to spaces, when any line starts with a tab; tabs inside lines stay.
        assert_eq!(
            ind("fn f() {\n\tlet a =\t1;\n\t\tb\n    c\n}").as_deref(),
            Some("fn f() {\n    let a =\t1;\n        b\n    c\n}")
        );
        assert_eq!(ind("no\nindent\n  two\n"), None);
        assert_eq!(ind("a\tb\n"), None);
    }

    #[test]
    fn comment_goes_first_after_a_shebang_or_encoding_line() {
        let c = |t: &str, l: &str| p(PerturbKind::Comment, t, l).unwrap();
        assert_eq!(c("x = 1\n", "python"), "# NOTE: formatting only\nx = 1\n");
        assert_eq!(
            c(
                "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\nx = 1\n",
                "py"
            ),
            "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n# NOTE: formatting only\nx = 1\n"
        );
        assert_eq!(
            c("#!/bin/sh\necho hi", "sh"),
            "#!/bin/sh\n# NOTE: formatting only\necho hi"
        );
        assert_eq!(c("#!/bin/sh", "sh"), "#!/bin/sh\n# NOTE: formatting only\n");
        assert_eq!(
            c("package main\r\n", "go"),
            "// NOTE: formatting only\r\npackage main\r\n"
        );
        // Rust's inner attribute is not a shebang.
        assert_eq!(
            c("#![forbid(unsafe_code)]\nfn main() {}\n", "rust"),
            "// NOTE: formatting only\n#![forbid(unsafe_code)]\nfn main() {}\n"
        );
        assert_eq!(p(PerturbKind::Comment, "x", "haskell"), None);
        assert_eq!(p(PerturbKind::NoComments, "-- x", "haskell"), None);
    }

    #[test]
    fn python_comments_outside_strings() {
        let src = "import requests  # http\n\ndef fetch(url):\n    # Disable SSL verification\n    s = \"# not a comment\"\n    t = '''\n    # in a docstring\n    '''\n    return requests.get(url, verify=False)  # why\n";
        assert_eq!(
            strip(src, "python"),
            "import requests\n\ndef fetch(url):\n    s = \"# not a comment\"\n    t = '''\n    # in a docstring\n    '''\n    return requests.get(url, verify=False)\n"
        );
        assert_eq!(strip("a = 'it\\'s # x'\n", "python"), "a = 'it\\'s # x'\n");
        assert_eq!(p(PerturbKind::NoComments, "x = 1\n", "python"), None);
        // The last line, a comment without a line break, goes with the break before it.
        assert_eq!(strip("x = 1\n# end", "python"), "x = 1");
        assert_eq!(strip("# only\n", "python"), "");
    }

    #[test]
    fn javascript_keeps_urls_strings_and_regexes() {
        let src = "/* header\n * block */\nconst url = \"http://x\"; // the URL\nconst re = /a\\//g; const d = a / b / c; // divide\nconst t = `//${x}`;\nconst s = 'it\\'s /* not */';\nfoo(/* inline */ 1, 2/*x*/3);\n";
        assert_eq!(
            strip(src, "javascript"),
            "const url = \"http://x\";\nconst re = /a\\//g; const d = a / b / c;\nconst t = `//${x}`;\nconst s = 'it\\'s /* not */';\nfoo( 1, 2 3);\n"
        );
        // After `return`, `/` starts a regex; after a name it divides.
        assert_eq!(
            strip("return /\\/\\//.test(x) // y\n", "ts"),
            "return /\\/\\//.test(x)\n"
        );
        assert_eq!(strip("a = b //c\n", "js"), "a = b\n");
    }

    #[test]
    fn rust_nested_blocks_raw_strings_and_lifetimes() {
        let src = "//! docs\nfn f<'a>(x: &'a str) -> char { // c\n    let u = r#\"http://x \"q\" \"#; // y\n    /* outer /* inner */ still */ let c = '/';\n    let q = '\\'';\n    'label: loop { break 'label; } // z\n    c\n}\n";
        assert_eq!(
            strip(src, "rust"),
            "fn f<'a>(x: &'a str) -> char {\n    let u = r#\"http://x \"q\" \"#;\n    let c = '/';\n    let q = '\\'';\n    'label: loop { break 'label; }\n    c\n}\n"
        );
    }

    #[test]
    fn go_raw_strings_and_runes() {
        let src = "package main\n\n// Main runs.\nfunc main() {\n\ts := `// raw\n/* too */`\n\tr := '\"' // quote\n\tfmt.Println(\"http://x\", s, r) /* end */\n}\n";
        assert_eq!(
            strip(src, "go"),
            "package main\n\nfunc main() {\n\ts := `// raw\n/* too */`\n\tr := '\"'\n\tfmt.Println(\"http://x\", s, r)\n}\n"
        );
    }

    #[test]
    fn other_c_like_languages() {
        assert_eq!(
            strip(
                "auto s = R\"x(a // b)x\"; // c\nint n = 1'000; // d\n",
                "c++"
            ),
            "auto s = R\"x(a // b)x\";\nint n = 1'000;\n"
        );
        assert_eq!(
            strip("var p = @\"C:\\\"\"//x\"; // c\n", "c#"),
            "var p = @\"C:\\\"\"//x\";\n"
        );
        assert_eq!(
            strip(
                "let s = \"\"\"\n// in\n\"\"\" // out\nlet r = #\"a\"//\"# // c\n",
                "swift"
            ),
            "let s = \"\"\"\n// in\n\"\"\"\nlet r = #\"a\"//\"#\n"
        );
        assert_eq!(
            strip(
                "String t = \"\"\"\n  // kept\n  \"\"\"; // gone\nchar c = '\"'; // c\n",
                "java"
            ),
            "String t = \"\"\"\n  // kept\n  \"\"\";\nchar c = '\"';\n"
        );
        assert_eq!(
            strip(
                "#include <stdio.h> // io\nint main() { return 0; } /* x */\n",
                "c"
            ),
            "#include <stdio.h>\nint main() { return 0; }\n"
        );
        assert_eq!(
            strip("val `my // name` = 1 // c\n", "kotlin"),
            "val `my // name` = 1\n"
        );
    }

    #[test]
    fn shell_keeps_the_shebang_quotes_and_here_documents() {
        let src = "#!/bin/bash\n# set up\nset -e  # strict\necho \"# not\" '# not' a#b ${#x} $# \\# # yes\ncat <<-EOF > f.conf\n\t# a config comment\n\tEOF\ncat <<'X'\n# kept\nX\necho done # end\n";
        assert_eq!(
            strip(src, "bash"),
            "#!/bin/bash\nset -e\necho \"# not\" '# not' a#b ${#x} $# \\#\ncat <<-EOF > f.conf\n\t# a config comment\n\tEOF\ncat <<'X'\n# kept\nX\necho done\n"
        );
        assert_eq!(
            p(PerturbKind::NoComments, "#!/bin/sh\necho a\n", "sh"),
            None
        );
    }

    #[test]
    fn ruby_line_and_block_comments() {
        assert_eq!(
            strip(
                "# top\nputs \"#{x} # in\" # c\n=begin\nblock\n=end\nputs '#'\n",
                "ruby"
            ),
            "puts \"#{x} # in\"\nputs '#'\n"
        );
    }

    #[test]
    fn unterminated_literals_do_not_swallow_the_text() {
        // A stray quote ends at its line; the comment on the next line is still found.
        assert_eq!(strip("a = \"oops\n// c\nb\n", "js"), "a = \"oops\nb\n");
        assert_eq!(strip("x = 'oops\n# c\ny\n", "python"), "x = 'oops\ny\n");
        // An unterminated block comment runs to the end.
        assert_eq!(strip("a\n/* open\nb\n", "c"), "a");
        // A comment before code on its line takes the blanks after it.
        assert_eq!(strip("  /* a */ b /* c */ d\n", "c"), "  b d\n");
        assert_eq!(
            strip("echo $((1 << 2)) # c\n# d\n", "sh"),
            "echo $((1 << 2))\n"
        );
    }
}
