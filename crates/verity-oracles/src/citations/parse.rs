//! Reading the citations and claims out of an answer: free text or the structured JSON mode.
//!
//! Free text (`crates/verity-oracles/src/citations/mod.rs` documents the rules for users):
//! - a file citation is a path token with an extension, optionally with a line or range:
//!   `src/a.ts:12-30`, `src/a.ts:12`, `a.py#L12`, `a.py#L12-L30`, or followed by
//!   `lines 12-30` / `(line 12)`; a bare token without `/` or a range counts only when its
//!   extension is a known source or text file's (so `e.g.`, `os.path` and `1.2.3` do not), and
//!   a capitalized `Name.js` is a product (`Node.js`), not a file;
//! - URLs are skipped whole;
//! - a backticked span is a file citation when it looks like one, an identifier when it is a
//!   (dotted) name, else a code span (a written type, for `returns`);
//! - inside fenced code blocks only citations with a line (`path:12`, `path#L12`) count: code
//!   is full of paths and names that are not citations;
//! - an identifier is cited with the nearest file citation of its sentence (or line).

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

/// One cited file, as the answer wrote it.
#[derive(Clone, Debug, PartialEq)]
pub struct FileCite {
    pub cited: String,
    pub start: Option<u32>,
    pub end: Option<u32>,
    /// 1-based line and column in the answer (0 in JSON mode).
    pub line: u32,
    pub column: u32,
    offset: usize,
    segment: usize,
}

impl FileCite {
    pub(crate) fn new(cited: &str, start: Option<u32>, end: Option<u32>) -> FileCite {
        FileCite {
            cited: cited.trim().to_owned(),
            start,
            end: end.or(start),
            line: 0,
            column: 0,
            offset: 0,
            segment: 0,
        }
    }

    /// `path`, `path:12` or `path:12-30`, as the evidence shows it.
    pub fn show(&self) -> String {
        match (self.start, self.end) {
            (Some(s), Some(e)) if s != e => format!("{}:{s}-{e}", self.cited),
            (Some(s), _) => format!("{}:{s}", self.cited),
            _ => self.cited.clone(),
        }
    }
}

/// One backticked identifier and the file it is cited with (an index into the files).
#[derive(Clone, Debug, PartialEq)]
pub struct IdentCite {
    pub name: String,
    pub file: Option<usize>,
    pub line: u32,
    pub column: u32,
    offset: usize,
    segment: usize,
}

/// Where a claim came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A structured answer's `claims`.
    Stated,
    /// A sentence pattern of a free-text answer (`` `A` extends `B` ``).
    Sentence,
    /// The task's own question (`expect.citations`) answered by the text.
    Question,
}

/// A claim about the code: a relation between a subject and an object, or a behaviour.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    pub relation: String,
    pub subject: String,
    pub object: Option<String>,
    /// `calls`: true / false (default true); `imports`: an imported name; `function_returns`:
    /// the expected result.
    pub value: Option<Value>,
    /// `defined_in`: the cited line range.
    pub lines: Option<(u32, u32)>,
    /// `function_returns`: the arguments.
    pub args: Option<Value>,
    /// `throws`: the code to run.
    pub code: Option<String>,
    pub origin: Origin,
}

impl Claim {
    pub(crate) fn new(
        relation: &str,
        subject: &str,
        object: Option<&str>,
        origin: Origin,
    ) -> Claim {
        Claim {
            relation: relation.to_owned(),
            subject: clean_name(subject),
            object: object.map(|o| o.trim().to_owned()),
            value: None,
            lines: None,
            args: None,
            code: None,
            origin,
        }
    }

    /// Whether the claim is about behaviour (V3: run, not looked up).
    pub fn is_behaviour(&self) -> bool {
        verity_catalog::citations::BEHAVIOUR_RELATIONS.contains(&self.relation.as_str())
    }

    /// The boolean the claim asserts (`calls` ... `value: false` is a negative claim).
    pub fn truth(&self) -> bool {
        match &self.value {
            Some(Value::Bool(b)) => *b,
            Some(Value::String(s)) => crate::claims::coerce_bool(s).unwrap_or(true),
            _ => true,
        }
    }

    /// One line: `defined_in parse → src/a.ts:10-30`, `calls A → B: no`.
    pub fn show(&self) -> String {
        let mut s = format!("{} `{}`", self.relation, self.subject);
        if let Some(code) = &self.code {
            s = format!("{} `{code}`", self.relation);
        }
        if let Some(o) = &self.object {
            s.push_str(&format!(" → `{o}`"));
        }
        match self.lines {
            Some((a, b)) if a != b => s.push_str(&format!(":{a}-{b}")),
            Some((a, _)) => s.push_str(&format!(":{a}")),
            None => {}
        }
        if let Some(args) = &self.args {
            s.push_str(&format!(" args {args}"));
        }
        match (&self.value, self.relation.as_str()) {
            (Some(v), "calls") | (Some(v), "function_returns") => s.push_str(&format!(" = {v}")),
            (Some(v), _) if !v.is_boolean() => s.push_str(&format!(" ({v})")),
            _ => {}
        }
        s
    }
}

/// How the answer was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadAs {
    Text,
    Json,
}

impl ReadAs {
    pub fn as_str(self) -> &'static str {
        match self {
            ReadAs::Text => "text",
            ReadAs::Json => "json",
        }
    }
}

/// What an answer cites and claims.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    pub read_as: ReadAs,
    pub files: Vec<FileCite>,
    pub identifiers: Vec<IdentCite>,
    /// Backticked spans that are neither files nor names (`Promise<void>`), in order.
    pub code_spans: Vec<String>,
    /// Claims the answer states (JSON `claims`, sentence patterns).
    pub claims: Vec<Claim>,
    /// The prose: the answer in text mode, the `answer` field in JSON mode.
    pub prose: String,
    /// Why a JSON-mode answer could not be read.
    pub problem: Option<String>,
}

/// Extensions a bare token (no `/`, no line) must have to count as a file.
const KNOWN_EXT: &[&str] = &[
    "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "py", "pyi", "rs", "go", "swift", "java",
    "kt", "kts", "scala", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "cs", "rb", "php", "m", "mm",
    "md", "rst", "txt", "json", "jsonl", "toml", "yaml", "yml", "ini", "cfg", "lock", "html",
    "htm", "css", "scss", "sass", "less", "vue", "svelte", "sh", "bash", "zsh", "sql", "xml",
    "gradle", "mod", "sum", "proto", "graphql", "lua", "ex", "exs", "erl", "hs", "ml", "dart",
    "zig", "nim", "jl", "r", "pl", "env", "conf", "csv", "tsv", "svg", "wasm",
];

/// Names a backticked identifier is not (they answer yes/no, or are the language's literals).
const NOT_IDENTIFIERS: &[&str] = &[
    "true",
    "false",
    "null",
    "none",
    "nil",
    "undefined",
    "yes",
    "no",
    "self",
    "this",
];

static PATH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        (?P<path>(?:\.{1,2}/|[A-Za-z0-9_@$+\-][A-Za-z0-9_.@$+\-]*/)*
                 [A-Za-z0-9_$+\-][A-Za-z0-9_.$+\-]*\.[A-Za-z][A-Za-z0-9]{0,9})
        (?:
            :(?P<s1>\d{1,7})(?:\s*[-–—]\s*(?P<e1>\d{1,7}))?
          | \#L(?P<s2>\d{1,7})(?:-L?(?P<e2>\d{1,7}))?
        )?",
    )
    .expect("path regex")
});

static LINES_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^[ \t]*(?:,[ \t]*|\([ \t]*)?(?:at[ \t]+|on[ \t]+)?(?i:lines?)[ \t]+(?P<s>\d{1,7})(?:[ \t]*(?:-|–|—|to|through)[ \t]*(?P<e>\d{1,7}))?",
    )
    .expect("lines regex")
});

static URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)\b(?:[a-z][a-z0-9+.\-]*://|www\.)[^\s<>()\[\]"'`]+"#).expect("url regex")
});

static BACKTICK: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"`([^`\n]+)`").expect("bt"));

static IDENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[A-Za-z_$][A-Za-z0-9_$]*(?:(?:\.|::|#)[A-Za-z_$][A-Za-z0-9_$]*)*(?:\(\))?$")
        .expect("ident regex")
});

/// `` `A` is defined in `` (the object: the next file citation of the sentence).
static DEFINED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"`(?P<s>[^`]+)`\s+(?:is\s+|are\s+)?(?:defined|declared|implemented|located)\s+(?:in|at)\b",
    )
    .expect("defined regex")
});

static INHERITS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"`(?P<s>[^`]+)`\s+(?P<verb>extends|inherits\s+from|subclasses|is\s+a\s+subclass\s+of|implements|conforms\s+to)\s+`(?P<o>[^`]+)`",
    )
    .expect("inherits regex")
});

static CALLS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"`(?P<s>[^`]+)`\s+(?P<neg>does\s+not\s+(?:directly\s+)?call|doesn't\s+(?:directly\s+)?call|never\s+calls)?(?:(?:directly\s+)?(?:calls|invokes))?\s*`(?P<o>[^`]+)`",
    )
    .expect("calls regex")
});

static RETURNS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"`(?P<s>[^`]+)`\s+returns\s+(?:an?\s+|the\s+)?`(?P<o>[^`]+)`")
        .expect("returns regex")
});

static NEGATIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:does\s+not|doesn't|do\s+not|don't|never|not)\s+(?:directly\s+|ever\s+)?(?:call|invoke)")
        .expect("negative regex")
});

static POSITIVE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(?:calls|invokes|does\s+call)\b").expect("positive regex"));

/// `parse()` → `parse`; whitespace trimmed.
pub(crate) fn clean_name(s: &str) -> String {
    s.trim().trim_end_matches("()").trim().to_owned()
}

/// The segments (sentences or lines) of a text: the byte offsets where each starts.
fn segment_starts(text: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let mut starts = vec![0];
    for i in 0..b.len() {
        let end = match b[i] {
            b'\n' => true,
            b'.' | b'!' | b'?' | b';' => b.get(i + 1).is_none_or(|c| c.is_ascii_whitespace()),
            _ => false,
        };
        if end {
            starts.push(i + 1);
        }
    }
    starts
}

fn segment_of(starts: &[usize], at: usize) -> usize {
    starts.partition_point(|&s| s <= at).saturating_sub(1)
}

/// 1-based line and column (in characters) of byte `at`.
fn line_col(text: &str, at: usize) -> (u32, u32) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line as u32, col as u32)
}

/// The byte ranges of fenced code blocks' contents (an unclosed fence runs to the end).
fn fences(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            match open {
                None => open = Some(at + line.len()),
                Some(s) => {
                    out.push((s, at));
                    open = None;
                }
            }
        }
        at += line.len();
    }
    if let Some(s) = open {
        out.push((s, text.len()));
    }
    out
}

fn inside(ranges: &[(usize, usize)], at: usize) -> bool {
    ranges.iter().any(|&(s, e)| at >= s && at < e)
}

fn num(m: Option<regex::Match<'_>>) -> Option<u32> {
    m.and_then(|m| m.as_str().parse().ok())
}

/// Is this path-regex match a file citation (not a version, an abbreviation, a product name)?
fn looks_like_file(path: &str, has_line: bool) -> bool {
    let ext = path.rsplit('.').next().unwrap_or("");
    let stem = path.rsplit('/').next().unwrap_or(path);
    if path.starts_with('.')
        && !path.starts_with("./")
        && !path.starts_with("../")
        && !path.contains('/')
    {
        // `.env`, `.gitignore`-style names have no stem: only with a known extension.
        return KNOWN_EXT.contains(&ext.to_ascii_lowercase().as_str());
    }
    if !path.contains('/')
        && ext.eq_ignore_ascii_case("js")
        && stem.chars().next().is_some_and(char::is_uppercase)
    {
        return false; // Node.js, Vue.js: products
    }
    has_line || path.contains('/') || KNOWN_EXT.contains(&ext.to_ascii_lowercase().as_str())
}

/// A backticked span's content as a file citation, when it is one in full.
fn file_in_span(content: &str) -> Option<FileCite> {
    let m = PATH.captures(content)?;
    let whole = m.get(0)?;
    let rest = content[whole.end()..].trim();
    if whole.start() != 0 || !(rest.is_empty() || LINES_AFTER.is_match(rest)) {
        return None;
    }
    let path = &m["path"];
    let (mut s, mut e) = (
        num(m.name("s1")).or(num(m.name("s2"))),
        num(m.name("e1")).or(num(m.name("e2"))),
    );
    if s.is_none()
        && let Some(l) = LINES_AFTER.captures(rest)
    {
        s = num(l.name("s"));
        e = num(l.name("e"));
    }
    if !looks_like_file(path, s.is_some()) {
        return None;
    }
    Some(FileCite::new(path, s, e))
}

/// Reads a free-text answer. `repo` (the repository's name) is not an identifier.
pub fn parse_text(text: &str, repo: Option<&str>) -> Parsed {
    let fenced = fences(text);
    let urls: Vec<(usize, usize)> = URL.find_iter(text).map(|m| (m.start(), m.end())).collect();
    let starts = segment_starts(text);
    let mut files: Vec<FileCite> = Vec::new();
    let mut identifiers: Vec<IdentCite> = Vec::new();
    let mut code_spans = Vec::new();
    let mut ticked: Vec<(usize, usize)> = Vec::new();
    let place = |f: &mut FileCite, at: usize| {
        let (l, c) = line_col(text, at);
        f.line = l;
        f.column = c;
        f.offset = at;
        f.segment = segment_of(&starts, at);
    };

    for m in BACKTICK.captures_iter(text) {
        let whole = m.get(0).expect("match");
        if inside(&fenced, whole.start()) || inside(&urls, whole.start()) {
            continue;
        }
        ticked.push((whole.start(), whole.end()));
        let content = m[1].trim();
        if let Some(mut f) = file_in_span(content) {
            // `path` followed by "lines 3-9" outside the backticks.
            if f.start.is_none()
                && let Some(l) = LINES_AFTER.captures(&text[whole.end()..])
            {
                f.start = num(l.name("s"));
                f.end = num(l.name("e")).or(f.start);
            }
            place(&mut f, whole.start());
            files.push(f);
        } else if IDENT.is_match(content) {
            let name = clean_name(content);
            let lower = name.to_ascii_lowercase();
            if NOT_IDENTIFIERS.contains(&lower.as_str()) || repo == Some(name.as_str()) {
                continue;
            }
            let (l, c) = line_col(text, whole.start());
            identifiers.push(IdentCite {
                name,
                file: None,
                line: l,
                column: c,
                offset: whole.start(),
                segment: segment_of(&starts, whole.start()),
            });
        } else {
            code_spans.push(content.to_owned());
        }
    }

    for m in PATH.captures_iter(text) {
        let whole = m.get(0).expect("match");
        let at = whole.start();
        if inside(&ticked, at) || inside(&urls, at) {
            continue;
        }
        // Part of a longer token: `v1.2.3`, `a.b.c`, `x@y.com`, a URL's tail.
        let prev = text[..at].chars().next_back();
        if prev.is_some_and(|c| c.is_alphanumeric() || "_./\\-@:$#".contains(c))
            && !(prev == Some(':') && after_repo_name(&text[..at - 1]))
        {
            continue;
        }
        let next = text[whole.end()..].chars().next();
        if next.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '/') {
            continue;
        }
        let path = &m["path"];
        let mut s = num(m.name("s1")).or(num(m.name("s2")));
        let mut e = num(m.name("e1")).or(num(m.name("e2")));
        let in_fence = inside(&fenced, at);
        if in_fence && s.is_none() {
            continue;
        }
        if s.is_none()
            && let Some(l) = LINES_AFTER.captures(&text[whole.end()..])
        {
            s = num(l.name("s"));
            e = num(l.name("e"));
        }
        if !looks_like_file(path, s.is_some()) {
            continue;
        }
        let mut f = FileCite::new(path, s, e);
        place(&mut f, at);
        files.push(f);
    }
    files.sort_by_key(|f| f.offset);

    // Each identifier with the nearest file citation of its sentence.
    for id in &mut identifiers {
        id.file = files
            .iter()
            .enumerate()
            .filter(|(_, f)| f.segment == id.segment)
            .min_by_key(|(_, f)| f.offset.abs_diff(id.offset))
            .map(|(i, _)| i);
    }

    let claims = sentence_claims(text, &starts, &files);
    Parsed {
        read_as: ReadAs::Text,
        files,
        identifiers,
        code_spans,
        claims,
        prose: text.to_owned(),
        problem: None,
    }
}

/// The claims simple sentences state.
fn sentence_claims(text: &str, starts: &[usize], files: &[FileCite]) -> Vec<Claim> {
    let mut out: Vec<Claim> = Vec::new();
    let mut push = |c: Claim| {
        if !out.contains(&c) {
            out.push(c);
        }
    };
    for m in DEFINED.captures_iter(text) {
        let end = m.get(0).expect("match").end();
        let seg = segment_of(starts, end);
        if let Some(f) = files.iter().find(|f| f.offset >= end && f.segment == seg) {
            let mut c = Claim::new("defined_in", &m["s"], Some(&f.cited), Origin::Sentence);
            c.lines = f.start.zip(f.end);
            push(c);
        }
    }
    for m in INHERITS.captures_iter(text) {
        let rel = if m["verb"].starts_with("implements") || m["verb"].starts_with("conforms") {
            "implements"
        } else {
            "extends"
        };
        push(Claim::new(
            rel,
            &m["s"],
            Some(&clean_name(&m["o"])),
            Origin::Sentence,
        ));
    }
    for m in CALLS.captures_iter(text) {
        // The regex's verb part is optional so that negations match; require one of them.
        let between = &m[0];
        let neg = m.name("neg").is_some();
        if !(neg || between.contains("calls") || between.contains("invokes")) {
            continue;
        }
        let mut c = Claim::new(
            "calls",
            &m["s"],
            Some(&clean_name(&m["o"])),
            Origin::Sentence,
        );
        c.value = Some(Value::Bool(!neg));
        push(c);
    }
    for m in RETURNS.captures_iter(text) {
        push(Claim::new(
            "returns",
            &m["s"],
            Some(m["o"].trim()),
            Origin::Sentence,
        ));
    }
    out
}

/// Yes or no, as the prose answers a "does X call Y?" question; `None` when it says neither.
pub fn yes_no(prose: &str) -> Option<bool> {
    let first: String = prose
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .chars()
        .take_while(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    match first.as_str() {
        "yes" | "correct" | "true" => return Some(true),
        "no" | "false" => return Some(false),
        _ => {}
    }
    if NEGATIVE.is_match(prose) {
        Some(false)
    } else if POSITIVE.is_match(prose) {
        Some(true)
    } else {
        None
    }
}

/// The JSON object a structured answer is (in a ```json fence or bare), if it is one with
/// `citations` or `claims` (`force`: any object).
pub fn json_object(text: &str, force: bool) -> Result<serde_json::Map<String, Value>, String> {
    let body = crate::strip_fence(text, "json").trim();
    match serde_json::from_str::<Value>(body) {
        Ok(Value::Object(o))
            if force || o.contains_key("citations") || o.contains_key("claims") =>
        {
            Ok(o)
        }
        Ok(_) => Err("the answer is not a JSON object with `citations` or `claims`".into()),
        Err(e) => Err(format!("the answer is not JSON: {e}")),
    }
}

/// Reads a structured answer; a shape problem is recorded (`problem`) with what could be read.
pub fn parse_json(o: &serde_json::Map<String, Value>) -> Parsed {
    let mut problems = Vec::new();
    let mut files = Vec::new();
    let mut identifiers = Vec::new();
    match o.get("citations") {
        None | Some(Value::Null) => {}
        Some(Value::Array(list)) => {
            for (i, c) in list.iter().enumerate() {
                let Some(c) = c.as_object() else {
                    problems.push(format!("citations[{i}] is not an object"));
                    continue;
                };
                let line = |k: &str| {
                    c.get(k)
                        .and_then(Value::as_u64)
                        .map(|n| n.min(u64::from(u32::MAX)) as u32)
                };
                let file = c
                    .get("file")
                    .or_else(|| c.get("path"))
                    .and_then(Value::as_str);
                let ident = c.get("identifier").and_then(Value::as_str).map(clean_name);
                let start = line("start_line").or(line("line"));
                let mut index = None;
                if let Some(f) = file.filter(|f| !f.trim().is_empty()) {
                    index = Some(files.len());
                    files.push(FileCite::new(f, start, line("end_line")));
                } else if ident.is_none() {
                    problems.push(format!(
                        "citations[{i}] has neither `file` nor `identifier`"
                    ));
                }
                if let Some(name) = ident.filter(|n| !n.is_empty()) {
                    identifiers.push(IdentCite {
                        name,
                        file: index,
                        line: 0,
                        column: 0,
                        offset: 0,
                        segment: 0,
                    });
                }
            }
        }
        Some(_) => problems.push("`citations` is not a list".into()),
    }
    let mut claims = Vec::new();
    match o.get("claims") {
        None | Some(Value::Null) => {}
        Some(Value::Array(list)) => {
            for (i, c) in list.iter().enumerate() {
                let Some(c) = c.as_object() else {
                    problems.push(format!("claims[{i}] is not an object"));
                    continue;
                };
                let text = |k: &str| c.get(k).and_then(Value::as_str);
                let Some(relation) = text("relation") else {
                    problems.push(format!("claims[{i}] has no `relation`"));
                    continue;
                };
                let subject = text("subject").unwrap_or("");
                let mut claim = Claim::new(relation, subject, text("object"), Origin::Stated);
                claim.value = c.get("value").filter(|v| !v.is_null()).cloned();
                claim.args = c.get("args").cloned();
                claim.code = text("code").map(str::to_owned);
                let l = |k: &str| c.get(k).and_then(Value::as_u64).map(|n| n as u32);
                claim.lines = l("start_line").map(|s| (s, l("end_line").unwrap_or(s)));
                if claim.subject.is_empty() && claim.code.is_none() {
                    problems.push(format!("claims[{i}] has no `subject`"));
                    continue;
                }
                claims.push(claim);
            }
        }
        Some(_) => problems.push("`claims` is not a list".into()),
    }
    Parsed {
        read_as: ReadAs::Json,
        files,
        identifiers,
        code_spans: Vec::new(),
        claims,
        prose: o
            .get("answer")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        problem: (!problems.is_empty()).then(|| problems.join("; ")),
    }
}

/// Does `before` (the text up to a `:`) end with a repository name standing alone, as in
/// `mylib:src/parser.ts:10-20` (how code search hits are headed)? A name is letters, digits,
/// `_`, `-`, `.` or `@`, starting a word (after whitespace, a bracket or a quote, or at the
/// start), and not a URL scheme (those are already left out as URLs).
fn after_repo_name(before: &str) -> bool {
    let name_start = before
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || "_-.@".contains(*c)))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let name = &before[name_start..];
    let boundary = before[..name_start]
        .chars()
        .next_back()
        .is_none_or(|c| c.is_whitespace() || "([{<\"'`*|".contains(c));
    !name.is_empty() && name.chars().next().is_some_and(char::is_alphanumeric) && boundary
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cited(text: &str) -> Vec<String> {
        parse_text(text, None)
            .files
            .iter()
            .map(FileCite::show)
            .collect()
    }

    #[test]
    fn citation_formats() {
        assert_eq!(
            cited("See src/parser.ts:12-30 and lib/a.py:7, also b.py#L3 or c.rs#L4-L9."),
            ["src/parser.ts:12-30", "lib/a.py:7", "b.py:3", "c.rs:4-9"]
        );
        assert_eq!(cited("in `src/cli.py:10-42`"), ["src/cli.py:10-42"]);
        assert_eq!(cited("open main.rs"), ["main.rs"]);
        assert_eq!(cited("src/x.go (lines 3–9)"), ["src/x.go:3-9"]);
        assert_eq!(cited("`src/x.go`, lines 3 to 9"), ["src/x.go:3-9"]);
        assert_eq!(cited("at a/b/c.ts:5:12"), ["a/b/c.ts:5"]);
        // A code search hit's header: the repository's name, a colon, the path.
        assert_eq!(
            cited("mylib:src/parser.ts:10-20 — function `parse`\n(mylib:lib/a.py)"),
            ["src/parser.ts:10-20", "lib/a.py"]
        );
        // Not a repository name: part of a longer token.
        assert!(cited("x/mylib:src/parser.ts").is_empty());
    }

    #[test]
    fn false_positives() {
        // URLs, versions, abbreviations, dotted names, products, e-mail addresses.
        assert!(cited("see https://github.com/x/y/blob/main/src/a.ts#L3 for it").is_empty());
        assert!(cited("version 1.2.3 or v2.0.1").is_empty());
        assert!(cited("e.g. this, i.e. that, etc.").is_empty());
        assert!(cited("os.path.join and self.parse are names").is_empty());
        assert!(cited("built on Node.js and Vue.js").is_empty());
        assert!(cited("mail me at someone@example.com").is_empty());
        assert!(cited("www.example.com/a.py").is_empty());
    }

    #[test]
    fn fences_keep_only_cited_lines() {
        let text = "Here:\n```python\nimport util.py\nfrom a import b  # see x.py:3\n```\n";
        assert_eq!(cited(text), ["x.py:3"]);
    }

    #[test]
    fn identifiers_go_with_the_nearest_file_of_their_sentence() {
        let p = parse_text(
            "`parse` is in src/a.ts:1-9. The helper `lex` lives in src/b.ts. `Alone` is elsewhere.\n`tinyq` `None` `x = 1`",
            Some("tinyq"),
        );
        let ids: Vec<(&str, Option<&str>)> = p
            .identifiers
            .iter()
            .map(|i| (i.name.as_str(), i.file.map(|f| p.files[f].cited.as_str())))
            .collect();
        assert_eq!(
            ids,
            [
                ("parse", Some("src/a.ts")),
                ("lex", Some("src/b.ts")),
                ("Alone", None)
            ]
        );
        assert_eq!(p.code_spans, ["x = 1"]);
    }

    #[test]
    fn sentence_claims_are_read() {
        let p = parse_text(
            "`parse_args` is defined in `src/cli.py:10-42`. `Parser` extends `Base`; `Lexer` implements `Iterator`. `main` calls `run()`. `main` does not call `exit`. `parse` returns `Ast`.",
            None,
        );
        let shown: Vec<String> = p.claims.iter().map(Claim::show).collect();
        assert_eq!(
            shown,
            [
                "defined_in `parse_args` → `src/cli.py`:10-42",
                "extends `Parser` → `Base`",
                "implements `Lexer` → `Iterator`",
                "calls `main` → `run` = true",
                "calls `main` → `exit` = false",
                "returns `parse` → `Ast`",
            ]
        );
    }

    #[test]
    fn yes_and_no() {
        assert_eq!(yes_no("Yes, `a` calls `b` at x.py:3."), Some(true));
        assert_eq!(yes_no("**No.** It never does."), Some(false));
        assert_eq!(yes_no("`a` does not call `b`."), Some(false));
        assert_eq!(yes_no("`a` calls `b` on line 4."), Some(true));
        assert_eq!(yes_no("I am not sure."), None);
    }

    #[test]
    fn json_mode() {
        let o = json_object(
            r#"```json
{"answer": "x", "citations": [{"file": "src/a.ts", "start_line": 10, "end_line": 30, "identifier": "parse"}, {"identifier": "Lexer"}, 3],
 "claims": [{"relation": "calls", "subject": "A", "object": "B", "value": false},
            {"relation": "throws", "code": "f(None)", "object": "TypeError"}]}
```"#,
            false,
        )
        .unwrap();
        let p = parse_json(&o);
        assert_eq!(p.files[0].show(), "src/a.ts:10-30");
        assert_eq!(p.identifiers[0].file, Some(0));
        assert_eq!(p.identifiers[1].file, None);
        assert!(!p.claims[0].truth());
        assert!(p.claims[1].is_behaviour());
        assert_eq!(p.problem.as_deref(), Some("citations[2] is not an object"));
        assert!(json_object("{\"a\": 1}", false).is_err());
        assert!(
            json_object("plain text", false)
                .unwrap_err()
                .starts_with("the answer is not JSON")
        );
    }
}
