//! Tokens of an Objective-C header as Swift's ClangImporter sees it on an iOS device build:
//! comments removed, `#if` evaluated by a small preprocessor (`TARGET_OS_IPHONE` = 1,
//! `__swift__` defined, macOS-, Catalyst- and visionOS-only branches off, `__has_include` of
//! private frameworks false), and the framework's own macros that stand for availability or
//! linkage attributes expanded (`UIKIT_EXTERN`, `AVKIT_AVAILABLE(…)`).

use std::collections::HashMap;

/// One token: an identifier or keyword, a number, a string literal (quotes kept), or one
/// punctuation character (`@` is its own token).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    Ident(String),
    Num(String),
    Str(String),
    Punct(char),
}

impl Tok {
    pub(super) fn is(&self, c: char) -> bool {
        matches!(self, Tok::Punct(p) if *p == c)
    }
    pub(super) fn ident(&self) -> Option<&str> {
        match self {
            Tok::Ident(s) => Some(s),
            _ => None,
        }
    }
    pub(super) fn text(&self) -> String {
        match self {
            Tok::Ident(s) | Tok::Num(s) | Tok::Str(s) => s.clone(),
            Tok::Punct(c) => c.to_string(),
        }
    }
}

/// A `#define` seen in the headers of the frameworks read so far.
#[derive(Clone, Debug)]
pub(super) struct Macro {
    params: Option<Vec<String>>,
    body: Vec<Tok>,
}

/// The macros of a framework set, shared across its headers (a framework's
/// `…Defines.h` is read before the headers that use it when it sorts first; the set is also
/// filled by an earlier pass over every header).
#[derive(Clone, Debug, Default)]
pub(super) struct Macros {
    map: HashMap<String, Macro>,
    /// The include roots the SDK has (its public frameworks and `usr/include` entries), when
    /// known: `__has_include(<X/…>)` of any other root (a private framework such as
    /// `AudioSession`) is false.
    pub(super) include_roots: Option<std::collections::HashSet<String>>,
    /// The names the last preprocessed header defined.
    pub(super) last_defined: Vec<String>,
}

/// Macros the declaration parser understands itself: never expanded even when a header
/// defines them (Foundation defines `NS_ENUM`, `NS_SWIFT_NAME`, … in terms of clang
/// attributes the parser would not recognize).
fn is_native(name: &str) -> bool {
    const PREFIXES: [&str; 16] = [
        "NS_",
        "API_",
        "CF_",
        "__IOS_",
        "__TVOS_",
        "__WATCHOS_",
        "__OSX_",
        "__API_",
        "__MAC_",
        "__IPHONE_",
        "CG_AVAILABLE",
        "CG_DEPRECATED",
        "__attribute__",
        "OBJC_",
        "__swift",
        "__has",
    ];
    PREFIXES.iter().any(|p| name.starts_with(p))
        || matches!(
            name,
            "FOUNDATION_EXPORT" | "FOUNDATION_EXTERN" | "CG_EXTERN" | "TARGET_OS_IPHONE"
        )
}

impl Macros {
    /// Forgets macros (an include guard defined by an earlier pass over the same header).
    pub(super) fn forget(&mut self, names: &[String]) {
        for n in names {
            self.map.remove(n);
        }
    }

    /// Whether `name` should be replaced by its definition in declaration text: the framework's
    /// attribute-like macros (all caps), whose body is attributes, availability or nothing.
    fn expands(&self, name: &str, depth: u32) -> bool {
        if is_native(name) || depth > 8 || !is_macro_like(name) {
            return false;
        }
        let Some(m) = self.map.get(name) else {
            return false;
        };
        // A macro that declares a method (`- (instancetype)init NS_UNAVAILABLE;`).
        if m.body.first().is_some_and(|t| t.is('-') || t.is('+'))
            && m.body.last().is_some_and(|t| t.is(';'))
        {
            return true;
        }
        m.body.iter().all(|t| match t {
            Tok::Ident(s) => {
                is_native(s)
                    || matches!(
                        s.as_str(),
                        "extern" | "static" | "inline" | "visibility" | "default"
                    )
                    || m.params.as_ref().is_some_and(|p| p.contains(s))
                    || self.expands(s, depth + 1)
                    || s.starts_with("ios")
                    || s.starts_with("mac")
                    || s.starts_with("tvos")
                    || s.starts_with("watchos")
                    || s.starts_with("visionos")
                    || s.starts_with("xros")
                    || is_macro_like(s)
            }
            Tok::Str(_) | Tok::Num(_) => true,
            Tok::Punct(c) => matches!(c, '(' | ')' | ',' | '.' | '"' | '#'),
        })
    }

    fn numeric(&self, name: &str, depth: u32) -> Option<i64> {
        if depth > 8 {
            return None;
        }
        let m = self.map.get(name)?;
        if m.params.is_some() {
            return None;
        }
        let mut p = Expr {
            toks: &m.body,
            i: 0,
            macros: self,
            depth: depth + 1,
        };
        Some(p.or())
    }
}

/// An all-caps name with an underscore or digits: the shape of a C attribute macro.
pub(super) fn is_macro_like(name: &str) -> bool {
    name.len() > 2
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && name.contains('_')
}

/// Removes comments, keeping string and character literals (and line structure).
fn strip_comments(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let mut start = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                out.push_str(&src[start..i]);
                while i < b.len() && b[i] != b'\n' {
                    // A line comment ends at the newline, unless escaped.
                    if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    i += 1;
                }
                start = i;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                out.push_str(&src[start..i]);
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    if b[i] == b'\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
                i = (i + 2).min(b.len());
                out.push(' ');
                start = i;
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i = (i + 1).min(b.len());
            }
            _ => i += 1,
        }
    }
    out.push_str(&src[start.min(src.len())..]);
    out
}

/// Splits text into tokens (no preprocessing).
pub(super) fn tokenize(text: &str) -> Vec<Tok> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' || c == '$' {
            let s = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            out.push(Tok::Ident(chars[s..i].iter().collect()));
        } else if c.is_ascii_digit() {
            let s = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                i += 1;
            }
            out.push(Tok::Num(chars[s..i].iter().collect()));
        } else if c == '"' || c == '\'' {
            let s = i;
            i += 1;
            while i < chars.len() && chars[i] != c {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(chars.len());
            out.push(Tok::Str(chars[s..i].iter().collect()));
        } else {
            out.push(Tok::Punct(c));
            i += 1;
        }
    }
    out
}

/// `#if` expression evaluation.
struct Expr<'a> {
    toks: &'a [Tok],
    i: usize,
    macros: &'a Macros,
    depth: u32,
}

impl<'a> Expr<'a> {
    fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.i)
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek().is_some_and(|t| t.is(c)) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn eat2(&mut self, a: char, b: char) -> bool {
        if self.peek().is_some_and(|t| t.is(a))
            && self.toks.get(self.i + 1).is_some_and(|t| t.is(b))
        {
            self.i += 2;
            true
        } else {
            false
        }
    }
    fn or(&mut self) -> i64 {
        let mut v = self.and();
        while self.eat2('|', '|') {
            let r = self.and();
            v = i64::from(v != 0 || r != 0);
        }
        if self.eat('?') {
            let a = self.or();
            self.eat(':');
            let b = self.or();
            v = if v != 0 { a } else { b };
        }
        v
    }
    fn and(&mut self) -> i64 {
        let mut v = self.cmp();
        while self.eat2('&', '&') {
            let r = self.cmp();
            v = i64::from(v != 0 && r != 0);
        }
        v
    }
    fn cmp(&mut self) -> i64 {
        let v = self.add();
        if self.eat2('=', '=') {
            return i64::from(v == self.add());
        }
        if self.eat2('!', '=') {
            return i64::from(v != self.add());
        }
        if self.eat2('>', '=') {
            return i64::from(v >= self.add());
        }
        if self.eat2('<', '=') {
            return i64::from(v <= self.add());
        }
        if self.eat('>') {
            return i64::from(v > self.add());
        }
        if self.eat('<') {
            return i64::from(v < self.add());
        }
        v
    }
    fn add(&mut self) -> i64 {
        let mut v = self.unary();
        loop {
            if self.eat('+') {
                v = v.wrapping_add(self.unary());
            } else if self.peek().is_some_and(|t| t.is('-')) {
                self.i += 1;
                v = v.wrapping_sub(self.unary());
            } else {
                return v;
            }
        }
    }
    fn unary(&mut self) -> i64 {
        if self.eat('!') {
            return i64::from(self.unary() == 0);
        }
        if self.eat('-') {
            return -self.unary();
        }
        if self.eat('(') {
            let v = self.or();
            self.eat(')');
            return v;
        }
        let Some(t) = self.peek().cloned() else {
            return 0;
        };
        self.i += 1;
        match t {
            Tok::Num(n) => {
                let digits: String = n.chars().take_while(|c| c.is_ascii_digit()).collect();
                digits.parse().unwrap_or(0)
            }
            Tok::Ident(name) => self.ident(&name),
            _ => 0,
        }
    }
    /// The text of a parenthesized argument (`defined(X)`, `__has_include(<A/B.h>)`).
    fn group(&mut self) -> String {
        let mut s = String::new();
        if !self.eat('(') {
            if let Some(t) = self.peek() {
                s = t.text();
                self.i += 1;
            }
            return s;
        }
        let mut depth = 1;
        while let Some(t) = self.peek() {
            self.i += 1;
            if t.is('(') {
                depth += 1;
            } else if t.is(')') {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            s.push_str(&t.text());
        }
        s
    }
    fn ident(&mut self, name: &str) -> i64 {
        match name {
            "defined" => {
                let n = self.group();
                i64::from(is_defined(&n, self.macros))
            }
            "__has_include" | "__has_include_next" => {
                let path = self.group();
                let p = path.trim_matches(|c| c == '<' || c == '>' || c == '"');
                let unknown_root = p.split_once('/').is_some_and(|(root, _)| {
                    self.macros
                        .include_roots
                        .as_ref()
                        .is_some_and(|r| !r.contains(root))
                });
                i64::from(!is_private_include(&path) && !unknown_root)
            }
            "__has_feature" | "__has_extension" | "__has_attribute" | "__has_builtin"
            | "__is_target_os" => {
                let arg = self.group();
                i64::from(!(name == "__is_target_os" && arg != "ios"))
            }
            _ => {
                if let Some(v) = builtin_value(name) {
                    return v;
                }
                // A function-like macro call we do not know: skip its arguments.
                if self.peek().is_some_and(|t| t.is('('))
                    && self.macros.map.get(name).is_none_or(|m| m.params.is_some())
                {
                    self.group();
                    return 0;
                }
                self.macros.numeric(name, self.depth).unwrap_or(0)
            }
        }
    }
}

/// The values Swift's clang sees for an iOS device build.
fn builtin_value(name: &str) -> Option<i64> {
    Some(match name {
        "TARGET_OS_IPHONE"
        | "TARGET_OS_IOS"
        | "TARGET_OS_EMBEDDED"
        | "__OBJC__"
        | "__OBJC2__"
        | "__swift__"
        | "__clang__"
        | "__LP64__"
        | "__arm64__"
        | "__BLOCKS__"
        | "TARGET_CPU_ARM64"
        | "TARGET_OS_UNIX"
        | "TARGET_OS_DARWIN"
        | "NS_BLOCKS_AVAILABLE" => 1,
        "TARGET_OS_MAC" => 1,
        "TARGET_OS_OSX"
        | "TARGET_OS_MACCATALYST"
        | "TARGET_OS_UIKITFORMAC"
        | "TARGET_OS_TV"
        | "TARGET_OS_WATCH"
        | "TARGET_OS_VISION"
        | "TARGET_OS_XR"
        | "TARGET_OS_BRIDGE"
        | "TARGET_OS_SIMULATOR"
        | "TARGET_OS_DRIVERKIT"
        | "TARGET_OS_LINUX"
        | "TARGET_OS_WINDOWS"
        | "__cplusplus"
        | "TARGET_CPU_X86_64"
        | "TARGET_CPU_X86" => 0,
        "__IPHONE_OS_VERSION_MIN_REQUIRED" | "__IPHONE_OS_VERSION_MAX_ALLOWED" => 170400,
        _ => {
            // `__IPHONE_17_0` → 170000.
            let rest = name.strip_prefix("__IPHONE_")?;
            let mut parts = rest.split('_').map(|p| p.parse::<i64>().ok());
            let major = parts.next()??;
            let minor = parts.next().flatten().unwrap_or(0);
            let patch = parts.next().flatten().unwrap_or(0);
            major * 10000 + minor * 100 + patch
        }
    })
}

fn is_defined(name: &str, macros: &Macros) -> bool {
    matches!(
        name,
        "__swift__"
            | "__OBJC__"
            | "__OBJC2__"
            | "__clang__"
            | "__LP64__"
            | "__arm64__"
            | "__BLOCKS__"
            | "TARGET_OS_IPHONE"
            | "TARGET_OS_IOS"
            | "NS_BLOCKS_AVAILABLE"
            | "__IPHONE_OS_VERSION_MIN_REQUIRED"
    ) || (macros.map.contains_key(name) && builtin_value(name) != Some(0))
}

/// `<UIKitCore/X.h>`, `<Foo/Foo_Private.h>`: frameworks outside the public SDK.
fn is_private_include(path: &str) -> bool {
    let p = path.trim_matches(|c| c == '<' || c == '>' || c == '"');
    let fw = p.split('/').next().unwrap_or("");
    p.contains("Private")
        || p.contains("_Internal")
        || matches!(
            fw,
            "UIKitCore"
                | "DocumentManager"
                | "ShareSheet"
                | "TextInputUI"
                | "AppKit"
                | "Cocoa"
                | "FoundationEssentials"
                | "UIFoundation"
                | "AVFCore"
                | "AVFCapture"
                | "CoreServices"
        )
}

/// Preprocesses one header: `#if` evaluated, `#define`s recorded into `macros`, other
/// directives dropped; returns the remaining text's tokens with attribute macros expanded.
pub(super) fn preprocess(src: &str, macros: &mut Macros) -> Vec<Tok> {
    macros.last_defined.clear();
    let text = strip_comments(src);
    // Join continued lines.
    let text = text.replace("\\\r\n", " ").replace("\\\n", " ");
    // (active, taken-branch-already, parent-active)
    let mut stack: Vec<(bool, bool)> = Vec::new();
    let active = |stack: &[(bool, bool)]| stack.iter().all(|(a, _)| *a);
    let mut kept = String::with_capacity(text.len());
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(d) = t.strip_prefix('#') {
            let d = d.trim_start();
            let (word, rest) = d
                .split_once(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .unwrap_or((d, ""));
            let eval = |e: &str, macros: &Macros| {
                let toks = tokenize(e);
                let mut p = Expr {
                    toks: &toks,
                    i: 0,
                    macros,
                    depth: 0,
                };
                p.or() != 0
            };
            match word {
                "if" => {
                    let v = active(&stack) && eval(rest, macros);
                    stack.push((v, v));
                }
                "ifdef" => {
                    let v = active(&stack) && is_defined(rest.trim(), macros);
                    stack.push((v, v));
                }
                "ifndef" => {
                    let v = active(&stack) && !is_defined(rest.trim(), macros);
                    stack.push((v, v));
                }
                "elif" => {
                    let parent = active(&stack[..stack.len().saturating_sub(1)]);
                    if let Some(top) = stack.last_mut() {
                        let v = parent && !top.1 && eval(rest, macros);
                        *top = (v, top.1 || v);
                    }
                }
                "else" => {
                    let parent = active(&stack[..stack.len().saturating_sub(1)]);
                    if let Some(top) = stack.last_mut() {
                        let v = parent && !top.1;
                        *top = (v, true);
                    }
                }
                "endif" => {
                    stack.pop();
                }
                "define" if active(&stack) => define(rest, macros),
                "undef" if active(&stack) => {
                    macros.map.remove(rest.trim());
                }
                _ => {}
            }
            kept.push('\n');
            continue;
        }
        if active(&stack) {
            kept.push_str(line);
        }
        kept.push('\n');
    }
    expand(tokenize(&kept), macros, 0)
}

fn define(rest: &str, macros: &mut Macros) {
    let rest = rest.trim_start();
    let name_end = rest
        .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .unwrap_or(rest.len());
    let name = &rest[..name_end];
    if name.is_empty() {
        return;
    }
    let after = &rest[name_end..];
    let (params, body) = if let Some(p) = after.strip_prefix('(') {
        let close = p.find(')').unwrap_or(p.len());
        let params = p[..close]
            .split(',')
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect();
        (Some(params), p.get(close + 1..).unwrap_or(""))
    } else {
        (None, after)
    };
    macros.last_defined.push(name.to_owned());
    macros.map.insert(
        name.to_owned(),
        Macro {
            params,
            body: tokenize(body),
        },
    );
}

/// Replaces the framework's attribute macros by their bodies.
fn expand(toks: Vec<Tok>, macros: &Macros, depth: u32) -> Vec<Tok> {
    if depth > 8 {
        return toks;
    }
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    let mut changed = false;
    while i < toks.len() {
        let name = match &toks[i] {
            Tok::Ident(n) if macros.expands(n, 0) => n.clone(),
            t => {
                out.push(t.clone());
                i += 1;
                continue;
            }
        };
        let m = &macros.map[&name];
        i += 1;
        changed = true;
        match &m.params {
            None => out.extend(m.body.iter().cloned()),
            Some(params) => {
                if !toks.get(i).is_some_and(|t| t.is('(')) {
                    out.extend(m.body.iter().cloned());
                    continue;
                }
                // Collect the arguments.
                let mut args: Vec<Vec<Tok>> = vec![Vec::new()];
                let mut d = 0;
                i += 1;
                while i < toks.len() {
                    let t = &toks[i];
                    i += 1;
                    if t.is('(') {
                        d += 1;
                    } else if t.is(')') {
                        if d == 0 {
                            break;
                        }
                        d -= 1;
                    } else if t.is(',') && d == 0 {
                        args.push(Vec::new());
                        continue;
                    }
                    if let Some(a) = args.last_mut() {
                        a.push(t.clone());
                    }
                }
                for t in &m.body {
                    match t {
                        Tok::Ident(n) if params.contains(n) => {
                            let k = params.iter().position(|p| p == n).unwrap_or(0);
                            out.extend(args.get(k).cloned().unwrap_or_default());
                        }
                        Tok::Ident(n) if n == "__VA_ARGS__" => {
                            let rest = args.get(params.len().saturating_sub(1)..).unwrap_or(&[]);
                            for (j, a) in rest.iter().enumerate() {
                                if j > 0 {
                                    out.push(Tok::Punct(','));
                                }
                                out.extend(a.iter().cloned());
                            }
                        }
                        _ => out.push(t.clone()),
                    }
                }
            }
        }
    }
    if changed {
        expand(out, macros, depth + 1)
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idents(src: &str) -> Vec<String> {
        let mut m = Macros::default();
        preprocess(src, &mut m)
            .iter()
            .filter_map(|t| t.ident().map(str::to_owned))
            .collect()
    }

    #[test]
    fn ios_branches_are_taken_and_mac_ones_dropped() {
        let src = "#if TARGET_OS_IPHONE\nkeep1\n#else\ndrop1\n#endif\n\
                   #if TARGET_OS_OSX || TARGET_OS_VISION\ndrop2\n#elif defined(__swift__)\nkeep2\n#endif\n\
                   #if !__has_include(<UIKitCore/Foo.h>)\nkeep3\n#endif\n\
                   #if __has_include(<Foundation/Foundation.h>)\nkeep4\n#endif\n\
                   #ifdef NOT_DEFINED_ANYWHERE\ndrop3\n#endif\n";
        assert_eq!(idents(src), ["keep1", "keep2", "keep3", "keep4"]);
    }

    #[test]
    fn includes_of_roots_the_sdk_lacks_are_absent() {
        // a framework that defers to a private one when present (`AudioSession`)
        let src = "#if !__has_include(<Gadget/Gadget.h>)\nkeep1\n#endif\n\
                   #if __has_include(<Gauges/Gauges.h>)\nkeep2\n#endif\n\
                   #if __has_include(<stdint.h>) && __has_include(<os/log.h>)\nkeep3\n#endif\n";
        let mut m = Macros {
            include_roots: Some(["Gauges", "os"].into_iter().map(str::to_owned).collect()),
            ..Macros::default()
        };
        let got: Vec<String> = preprocess(src, &mut m)
            .iter()
            .filter_map(|t| t.ident().map(str::to_owned))
            .collect();
        assert_eq!(got, ["keep1", "keep2", "keep3"]);
        // roots unknown: only the known private frameworks are absent
        assert_eq!(idents(src), ["keep2", "keep3"]);
    }

    #[test]
    fn comments_go_and_attribute_macros_expand() {
        let src = "#define FOO_EXTERN extern __attribute__((visibility(\"default\")))\n\
                   #define FOO_AVAILABLE(v) API_AVAILABLE(ios(v))\n\
                   #define FOO_VALUE 3\n\
                   /* a comment */ FOO_EXTERN int x FOO_AVAILABLE(13.0); // trailing\n\
                   #if FOO_VALUE > 2\nkept\n#endif\n";
        let got = idents(src);
        assert_eq!(got[0], "extern");
        assert!(got.contains(&"API_AVAILABLE".to_owned()));
        assert!(!got.contains(&"FOO_AVAILABLE".to_owned()));
        assert_eq!(got.last().map(String::as_str), Some("kept"));
        assert!(
            !got.iter()
                .any(|s| s == "a" || s == "comment" || s == "trailing")
        );
    }
}
