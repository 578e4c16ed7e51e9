//! Credentials out of URLs, before anything keeps them.
//!
//! A base URL may carry a secret (`http://user:password@host/v1`, `…?api_key=…`,
//! a pre-signed `…&X-Amz-Signature=…`). The store passes every URL it keeps through
//! [`redact_url`] / [`redact_urls`], so a run's metadata, observations and reports never hold
//! one. Plain string handling: no URL parser, never a panic, and text with nothing to redact
//! comes back byte for byte.

/// What a secret query value is replaced with.
pub const REDACTED: &str = "[redacted]";

/// Substrings that make a query parameter's name a secret (compared lowercased, after
/// percent-decoding): `key`, `api_key`, `apikey`, `token`, `access_token`, `auth`, `sig`,
/// `signature`, `X-Amz-Signature`, `X-Amz-Credential`, `secret`, `password`, `passwd`, `pwd`,
/// `session`, `jwt`…
const SECRET_NAME_PARTS: &[&str] = &[
    "key",
    "token",
    "secret",
    "sig",
    "pass",
    "pwd",
    "auth",
    "credential",
    "session",
    "jwt",
];

/// Whether a query parameter named `name` (as written in the URL: percent-encoding and `+`
/// are decoded first) holds a secret.
pub fn is_secret_param(name: &str) -> bool {
    let name = percent_decode(name).to_lowercase();
    SECRET_NAME_PARTS.iter().any(|p| name.contains(p))
}

/// `url` without credentials: the userinfo (`user:password@`) is removed, and the value of
/// every query or fragment parameter whose name looks like a secret ([`is_secret_param`]) is
/// replaced with [`REDACTED`]. A parameter's value that holds a URL of its own is redacted
/// the same way. Everything else (scheme, host, IPv6 literals, port, path, other parameters,
/// their order and encoding) is kept as written, so a URL with nothing secret comes back
/// unchanged, and so does text that is not a URL (beyond a `?query` part, treated as one).
pub fn redact_url(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    let mut rest = url;
    if let Some(start) = authority_start(url) {
        out.push_str(&url[..start]);
        let tail = &url[start..];
        // The userinfo ends at the last `@` before the path. A `?` or `#` before that `@` is
        // taken as part of a password pasted unencoded, not as the start of a query or
        // fragment: stripping too much (a path-less URL with an `@` in its query) beats
        // storing a password.
        let before_path = &tail[..tail.find(['/', '\\']).unwrap_or(tail.len())];
        rest = before_path.rfind('@').map_or(tail, |at| &tail[at + 1..]);
    }
    let (before_fragment, fragment) = match rest.find('#') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    match before_fragment.find('?') {
        Some(q) => {
            out.push_str(&before_fragment[..=q]);
            out.push_str(&redact_params(&before_fragment[q + 1..]));
        }
        None => out.push_str(before_fragment),
    }
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(&redact_params(f));
    }
    out
}

/// `text` with every URL in it (a `scheme://…` run, up to whitespace or a quote, without
/// trailing punctuation) passed
/// through [`redact_url`]: for command lines, error messages and other free text that may
/// mention an endpoint. Text with no URL comes back unchanged.
pub fn redact_urls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut from = 0;
    while let Some(i) = text[from..].find("://").map(|i| from + i) {
        let bytes = text.as_bytes();
        let mut start = i;
        while start > copied && is_scheme_byte(bytes[start - 1]) {
            start -= 1;
        }
        while start < i && !bytes[start].is_ascii_alphabetic() {
            start += 1;
        }
        let end = text[i..]
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '`'))
            .map_or(text.len(), |e| i + e);
        // Punctuation that ends a sentence or a parenthesis is not part of the URL.
        let end = i
            + 3
            + text[i + 3..end]
                .trim_end_matches(['.', ',', ':', ';', '!', ')', ']', '}'])
                .len();
        if start == i {
            // `://` without a scheme is not a URL.
            from = i + 3;
            continue;
        }
        out.push_str(&text[copied..start]);
        out.push_str(&redact_url(&text[start..end]));
        copied = end;
        from = end;
    }
    out.push_str(&text[copied..]);
    out
}

/// Where the authority of `url` starts: after `scheme://` (leading whitespace allowed) or a
/// leading `//`; `None` when it has none.
fn authority_start(url: &str) -> Option<usize> {
    let lead = url.len() - url.trim_start().len();
    let s = &url[lead..];
    if s.starts_with("//") {
        return Some(lead + 2);
    }
    let sep = s.find("://")?;
    let scheme = &s[..sep];
    let mut bytes = scheme.bytes();
    let valid = bytes.next().is_some_and(|b| b.is_ascii_alphabetic()) && bytes.all(is_scheme_byte);
    valid.then_some(lead + sep + 3)
}

fn is_scheme_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')
}

/// `name=value` pairs separated by `&` or `;`, with secret values replaced; separators, names,
/// pairs without `=` and empty values are kept as written.
fn redact_params(query: &str) -> String {
    let mut out = String::with_capacity(query.len());
    for (i, pair) in query.split('&').enumerate() {
        if i > 0 {
            out.push('&');
        }
        for (j, part) in pair.split(';').enumerate() {
            if j > 0 {
                out.push(';');
            }
            match part.split_once('=') {
                Some((name, value)) if !value.is_empty() && is_secret_param(name) => {
                    out.push_str(name);
                    out.push('=');
                    out.push_str(REDACTED);
                }
                Some((name, value)) if value.contains("://") => {
                    out.push_str(name);
                    out.push('=');
                    out.push_str(&redact_urls(value));
                }
                _ => out.push_str(part),
            }
        }
    }
    out
}

/// Percent-decoding (`%XX`, and `+` as a space) as in a form-encoded query; invalid escapes are
/// kept as they are and invalid UTF-8 is replaced, so it never fails.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h << 4 | l);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}
