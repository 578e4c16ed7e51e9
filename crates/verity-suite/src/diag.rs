//! Diagnostics: problems found in a suite, each pointing at a file, line and column.
//!
//! A [`Diagnostic`] carries its location as plain data (`file`, `line`, `column`) so callers can
//! sort, filter or serialize it, plus (privately) the source text and byte span it came from so
//! [`Diagnostic::render`] can show the offending line with the span underlined.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use verity_model::SourceLoc;

/// How bad a [`Diagnostic`] is: errors stop a suite from loading, warnings do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The text of one file the loader read, with its line starts, shared by every diagnostic that
/// points into it.
#[derive(Debug)]
pub(crate) struct SourceFile {
    /// The name diagnostics show (the path as the user gave it, joined with the relative path).
    pub(crate) name: String,
    pub(crate) text: Arc<str>,
    line_starts: Vec<usize>,
    /// How many lines of the file come before `text`: a dataset read line by line keeps only
    /// the line a diagnostic needs, numbered as in the whole file.
    first_line: usize,
}

impl SourceFile {
    pub(crate) fn new(name: impl Into<String>, text: impl Into<Arc<str>>) -> Arc<SourceFile> {
        SourceFile::part(name, text, 0)
    }

    /// A piece of a file that starts at 1-based line `first_line + 1`.
    pub(crate) fn part(
        name: impl Into<String>,
        text: impl Into<Arc<str>>,
        first_line: usize,
    ) -> Arc<SourceFile> {
        let text: Arc<str> = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Arc::new(SourceFile {
            name: name.into(),
            text,
            line_starts,
            first_line,
        })
    }

    /// Moves `at` back to the nearest char boundary inside the text.
    pub(crate) fn floor(&self, at: usize) -> usize {
        let mut at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        at
    }

    fn ceil(&self, at: usize) -> usize {
        let mut at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at += 1;
        }
        at
    }

    /// 1-based line and column (in characters) of byte offset `at`.
    pub(crate) fn line_col(&self, at: usize) -> (u32, u32) {
        let at = self.floor(at);
        let line = self.line_starts.partition_point(|&s| s <= at).max(1) - 1;
        let start = self.line_starts[line];
        let col = self.text[start..at].chars().count() + 1;
        (to_u32(self.first_line + line + 1), to_u32(col))
    }

    /// The byte offset where 1-based `line` starts (the end of the text past the last line).
    pub(crate) fn line_start(&self, line: usize) -> usize {
        let line = line.saturating_sub(self.first_line);
        match line.checked_sub(1).and_then(|l| self.line_starts.get(l)) {
            Some(&s) => s,
            None => self.text.len(),
        }
    }

    /// The byte span of 1-based `line`, without its line break.
    pub(crate) fn line_span(&self, line: usize) -> Range<usize> {
        let start = self.line_start(line);
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i);
        let end = if self.text[start..end].ends_with('\r') {
            end - 1
        } else {
            end
        };
        start..end
    }

    /// Clamps `span` into the text, on char boundaries.
    fn clamp(&self, span: Range<usize>) -> Range<usize> {
        let start = self.floor(span.start);
        let end = self.ceil(span.end.max(start));
        start..end
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[derive(Clone, Debug)]
struct Snippet {
    source: Arc<SourceFile>,
    span: Range<usize>,
    label: Option<String>,
}

/// One problem with a suite.
///
/// `file` is the path as the user gave it (joined with the file's path inside the suite), or
/// empty when the problem has no place in a file; `line` and `column` are 1-based (0 when
/// unknown).
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable, kebab-case identifier of the kind of problem (`unknown-key`, `duplicate-id`…).
    pub code: &'static str,
    pub message: String,
    pub help: Option<String>,
    /// Extra context, such as where a duplicate was first defined.
    pub note: Option<String>,
    pub file: String,
    pub line: u32,
    pub column: u32,
    snippet: Option<Snippet>,
}

impl Diagnostic {
    pub fn new(severity: Severity, code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            help: None,
            note: None,
            file: String::new(),
            line: 0,
            column: 0,
            snippet: None,
        }
    }

    pub fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, code, message)
    }

    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, code, message)
    }

    /// Places the diagnostic at a location without source text.
    pub fn at(mut self, file: impl Into<String>, line: u32, column: u32) -> Diagnostic {
        self.file = file.into();
        self.line = line;
        self.column = column;
        self.snippet = None;
        self
    }

    /// Places the diagnostic at a task's or scorer's recorded source location.
    pub fn at_loc(self, loc: &SourceLoc) -> Diagnostic {
        self.at(loc.file.clone(), loc.line, loc.column)
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// [`Diagnostic::with_help`] when there is help to give.
    pub(crate) fn with_help_if(mut self, help: Option<String>) -> Diagnostic {
        if help.is_some() {
            self.help = help;
        }
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.note = Some(note.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Places the diagnostic at a byte span of a source file; `file`, `line` and `column` follow.
    pub(crate) fn at_span(mut self, source: &Arc<SourceFile>, span: Range<usize>) -> Diagnostic {
        let span = source.clamp(span);
        let (line, column) = source.line_col(span.start);
        self.file = source.name.clone();
        self.line = line;
        self.column = column;
        let label = self.snippet.take().and_then(|s| s.label);
        self.snippet = Some(Snippet {
            source: Arc::clone(source),
            span,
            label,
        });
        self
    }

    /// The short text under the underlined span.
    pub(crate) fn label(mut self, label: impl Into<String>) -> Diagnostic {
        if let Some(s) = &mut self.snippet {
            s.label = Some(label.into());
        }
        self
    }

    /// `file:line:column`, or just `file` when the line is unknown.
    pub fn location(&self) -> String {
        if self.line == 0 {
            self.file.clone()
        } else {
            format!("{}:{}:{}", self.file, self.line, self.column)
        }
    }

    /// The diagnostic for a terminal: an `error[code]: message` header, a ` --> file:line:col`
    /// line, a snippet of the source with the span underlined, then `help:` and `note:` lines.
    /// With `color = false` the output is plain ASCII apart from the quoted source itself.
    pub fn render(&self, color: bool) -> String {
        let mut out = String::new();
        let sev = self.severity.as_str();
        if color {
            let c = match self.severity {
                Severity::Error => "\x1b[1;31m",
                Severity::Warning => "\x1b[1;33m",
            };
            out.push_str(&format!(
                "{c}{sev}[{}]\x1b[0m\x1b[1m: {}\x1b[0m\n",
                self.code, self.message
            ));
        } else {
            out.push_str(&format!("{sev}[{}]: {}\n", self.code, self.message));
        }
        if !self.file.is_empty() {
            out.push_str(&format!(" --> {}\n", self.location()));
        }
        if let Some(snippet) = &self.snippet
            && let Some(text) = render_snippet(snippet, color)
        {
            out.push_str(&text);
        }
        if let Some(help) = &self.help {
            out.push_str(&format!("help: {help}\n"));
        }
        if let Some(note) = &self.note {
            out.push_str(&format!("note: {note}\n"));
        }
        out
    }
}

impl fmt::Display for Diagnostic {
    /// One line: `file:line:col: error[code]: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.file.is_empty() {
            write!(f, "{}: ", self.location())?;
        }
        write!(f, "{}[{}]: {}", self.severity, self.code, self.message)
    }
}

/// Source lines longer than this are not quoted: a snippet of a megabyte-long line helps nobody.
const MAX_SNIPPET_LINE: usize = 1000;

/// The miette graphical snippet alone: the `×`/`x` message line miette always writes first is
/// dropped because the header already says it.
fn render_snippet(snippet: &Snippet, color: bool) -> Option<String> {
    use miette::{GraphicalReportHandler, GraphicalTheme};

    let src = &snippet.source;
    let (line, _) = src.line_col(snippet.span.start);
    if src.line_span(line as usize).len() > MAX_SNIPPET_LINE {
        return None;
    }
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::none()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_links(false)
        .with_width(100)
        .without_syntax_highlighting();
    let report = SnippetReport {
        source: PartSource {
            name: src.name.clone(),
            text: Arc::clone(&src.text),
            first_line: src.first_line,
        },
        span: snippet.span.clone(),
        label: snippet.label.clone(),
    };
    let mut text = String::new();
    handler.render_report(&mut text, &report).ok()?;
    let body = text.split_once('\n').map_or("", |(_, rest)| rest);
    let body = body.trim_end();
    if body.is_empty() {
        None
    } else {
        Some(format!("{body}\n"))
    }
}

/// A [`SourceFile`]'s text for miette, with its lines numbered as in the whole file.
struct PartSource {
    name: String,
    text: Arc<str>,
    first_line: usize,
}

impl miette::SourceCode for PartSource {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner = self.text.read_span(span, before, after)?;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.first_line,
            inner.column(),
            inner.line_count(),
        )))
    }
}

/// What miette renders: no message of its own, one labelled span.
struct SnippetReport {
    source: PartSource,
    span: Range<usize>,
    label: Option<String>,
}

impl fmt::Debug for SnippetReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SnippetReport")
            .field("span", &self.span)
            .finish()
    }
}

impl fmt::Display for SnippetReport {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        Ok(())
    }
}

impl std::error::Error for SnippetReport {}

impl miette::Diagnostic for SnippetReport {
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let span = miette::SourceSpan::new(self.span.start.into(), self.span.len());
        Some(Box::new(std::iter::once(
            miette::LabeledSpan::new_primary_with_span(self.label.clone(), span),
        )))
    }
}

/// Every problem found while loading a suite; errors come first.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Sorts errors before warnings, keeping the order they were found in otherwise.
    pub fn new(mut diags: Vec<Diagnostic>) -> Diagnostics {
        diags.sort_by_key(|d| d.severity);
        Diagnostics(diags)
    }

    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| d.is_error())
    }

    pub fn error_count(&self) -> usize {
        self.errors().count()
    }

    /// Every diagnostic rendered, then a summary line.
    pub fn render(&self, color: bool) -> String {
        let mut out = String::new();
        for d in &self.0 {
            out.push_str(&d.render(color));
            out.push('\n');
        }
        out.push_str(&self.summary());
        out
    }

    /// `2 errors, 1 warning`.
    pub fn summary(&self) -> String {
        let errors = self.error_count();
        let warnings = self.0.len() - errors;
        let plural = |n: usize, w: &str| {
            if n == 1 {
                format!("1 {w}")
            } else {
                format!("{n} {w}s")
            }
        };
        if warnings == 0 {
            plural(errors, "error")
        } else {
            format!(
                "{}, {}",
                plural(errors, "error"),
                plural(warnings, "warning")
            )
        }
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(false))
    }
}

impl std::error::Error for Diagnostics {}

/// The closest candidate to a misspelt word, if any is close enough to suggest.
pub(crate) fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(word, c), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(
            did_you_mean("temperatur", ["temperature", "top_p"]),
            Some("temperature")
        );
        assert_eq!(did_you_mean("zzz", ["temperature", "top_p"]), None);
    }

    #[test]
    fn line_col_counts_chars_and_lines() {
        let f = SourceFile::new("x.toml", "ab\nçd = 1\n\nlast");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(2), (1, 3));
        assert_eq!(f.line_col(3), (2, 1));
        // `ç` is two bytes: `d` is the second character.
        assert_eq!(f.line_col(5), (2, 2));
        // Mid-character offsets fall back to the character's start.
        assert_eq!(f.line_col(4), (2, 1));
        assert_eq!(f.line_col(12), (4, 1));
        assert_eq!(f.line_col(1000), (4, 5));
        assert_eq!(f.line_span(2), 3..10);
        assert_eq!(f.line_span(3), 11..11);
        assert_eq!(f.line_span(99), 16..16);
    }

    #[test]
    fn render_plain_has_header_location_snippet_and_help() {
        let f = SourceFile::new("suite.toml", "name = \"x\"\ntemperatur = 1\n");
        let d = Diagnostic::error("unknown-key", "unknown key `temperatur`")
            .at_span(&f, 11..21)
            .label("unknown key")
            .with_help("did you mean `temperature`?");
        assert_eq!((d.line, d.column), (2, 1));
        let r = d.render(false);
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(lines[0], "error[unknown-key]: unknown key `temperatur`");
        assert_eq!(lines[1], " --> suite.toml:2:1");
        assert!(r.contains("temperatur = 1"), "{r}");
        assert!(
            r.contains("unknown key\n") || r.contains("unknown key"),
            "{r}"
        );
        assert_eq!(*lines.last().unwrap(), "help: did you mean `temperature`?");
        assert!(r.is_ascii(), "{r}");
        assert!(!r.contains('\x1b'));
        let colored = d.render(true);
        assert!(colored.contains('\x1b'));
    }

    #[test]
    fn render_without_source_and_summary() {
        let d = Diagnostic::warning("coverage", "too few").at("", 0, 0);
        assert_eq!(d.render(false), "warning[coverage]: too few\n");
        assert_eq!(d.to_string(), "warning[coverage]: too few");
        let ds = Diagnostics::new(vec![
            d.clone(),
            Diagnostic::error("x", "bad").at("a.toml", 3, 4),
        ]);
        assert!(ds.0[0].is_error());
        assert_eq!(ds.summary(), "1 error, 1 warning");
        assert_eq!(ds.0[0].to_string(), "a.toml:3:4: error[x]: bad");
    }

    #[test]
    fn spans_are_clamped_and_huge_lines_not_quoted() {
        let f = SourceFile::new("a.jsonl", "é");
        let d = Diagnostic::error("x", "m").at_span(&f, 1..500);
        assert_eq!((d.line, d.column), (1, 1));
        let _ = d.render(false);
        let long = SourceFile::new("b.jsonl", "x".repeat(5000));
        let d = Diagnostic::error("x", "m").at_span(&long, 10..11);
        assert_eq!(d.render(false), "error[x]: m\n --> b.jsonl:1:11\n");
    }
}
