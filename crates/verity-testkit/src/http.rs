//! A deliberately small HTTP/1.1 server side: just enough to read the requests an HTTP client
//! sends (keep-alive, pipelining, `Content-Length` and chunked bodies, `Expect: 100-continue`)
//! and to write responses byte by byte, so faults can cut, stall or drop them at will.
//!
//! Every malformed input ends in a [`ReadError`], never a panic: the fake server answers it
//! with a 4xx status and closes the connection.

use std::io;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The longest request head (request line plus headers) accepted.
const MAX_HEAD: usize = 64 * 1024;
/// The longest request body accepted.
const MAX_BODY: usize = 32 * 1024 * 1024;
/// The longest chunk-size or trailer line of a chunked body.
const MAX_LINE: usize = 8 * 1024;

/// One parsed request.
#[derive(Debug)]
pub(crate) struct Request {
    pub method: String,
    /// The request target as sent (path plus query).
    pub target: String,
    /// Header names lowercased, values with surrounding whitespace removed, in order.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Whether the connection may carry another request after this one.
    pub keep_alive: bool,
}

#[derive(Debug)]
pub(crate) enum ReadError {
    /// The peer went away (or the socket failed) in the middle of a request.
    Io,
    /// The request is malformed: answer with this status and close.
    Bad(u16, &'static str),
}

impl From<io::Error> for ReadError {
    fn from(_: io::Error) -> Self {
        ReadError::Io
    }
}

/// A server-side connection: the socket plus the bytes read but not yet consumed.
pub(crate) struct Conn {
    pub stream: TcpStream,
    buf: Vec<u8>,
}

impl Conn {
    pub fn new(stream: TcpStream) -> Self {
        Conn {
            stream,
            buf: Vec::with_capacity(8 * 1024),
        }
    }

    /// Reads more bytes into the buffer; `Ok(0)` at end of stream.
    async fn fill(&mut self) -> io::Result<usize> {
        self.buf.reserve(8 * 1024);
        self.stream.read_buf(&mut self.buf).await
    }

    /// Makes sure at least `n` bytes are buffered.
    async fn fill_to(&mut self, n: usize) -> Result<(), ReadError> {
        while self.buf.len() < n {
            if self.fill().await? == 0 {
                return Err(ReadError::Io);
            }
        }
        Ok(())
    }

    /// Reads one CRLF-terminated line (without the CRLF) and consumes it.
    async fn read_line(&mut self) -> Result<String, ReadError> {
        let mut scanned = 0;
        loop {
            if let Some(pos) = find(&self.buf[scanned..], b"\r\n") {
                let end = scanned + pos;
                if end > MAX_LINE {
                    return Err(ReadError::Bad(400, "line too long"));
                }
                let line = String::from_utf8_lossy(&self.buf[..end]).into_owned();
                self.buf.drain(..end + 2);
                return Ok(line);
            }
            if self.buf.len() > MAX_LINE {
                return Err(ReadError::Bad(400, "line too long"));
            }
            scanned = self.buf.len().saturating_sub(1);
            if self.fill().await? == 0 {
                return Err(ReadError::Io);
            }
        }
    }

    /// Reads the next request. `Ok(None)` when the peer closed the connection cleanly between
    /// requests.
    pub async fn read_request(&mut self) -> Result<Option<Request>, ReadError> {
        let mut scanned = 0;
        let head_end = loop {
            // RFC 9112 §2.2: ignore empty lines before a request line.
            let blank = self
                .buf
                .iter()
                .take_while(|b| matches!(b, b'\r' | b'\n'))
                .count();
            if blank > 0 {
                self.buf.drain(..blank);
                scanned = 0;
            }
            if let Some(pos) = find(&self.buf[scanned..], b"\r\n\r\n") {
                break scanned + pos + 4;
            }
            if self.buf.len() > MAX_HEAD {
                return Err(ReadError::Bad(431, "request header fields too large"));
            }
            scanned = self.buf.len().saturating_sub(3);
            if self.fill().await? == 0 {
                return if self.buf.is_empty() {
                    Ok(None)
                } else {
                    Err(ReadError::Io)
                };
            }
        };
        if head_end > MAX_HEAD {
            return Err(ReadError::Bad(431, "request header fields too large"));
        }
        let head = parse_head(&self.buf[..head_end - 4])?;
        self.buf.drain(..head_end);

        let Head {
            method,
            target,
            http10,
            headers,
        } = head;
        let mut keep_alive = connection_keep_alive(&headers, http10);
        let framing = body_framing(&headers)?;
        if matches!(framing, Framing::Chunked) && headers.iter().any(|(n, _)| n == "content-length")
        {
            // RFC 9112 §6.3: a message with both is suspect; read it chunked, then close.
            keep_alive = false;
        }
        let expects_continue = headers
            .iter()
            .any(|(n, v)| n == "expect" && v.eq_ignore_ascii_case("100-continue"));
        if expects_continue && !matches!(framing, Framing::Length(0)) {
            self.stream
                .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
                .await?;
        }
        let body = match framing {
            Framing::Length(n) => {
                self.fill_to(n).await?;
                self.buf.drain(..n).collect()
            }
            Framing::Chunked => self.read_chunked().await?,
        };
        Ok(Some(Request {
            method,
            target,
            headers,
            body,
            keep_alive,
        }))
    }

    async fn read_chunked(&mut self) -> Result<Vec<u8>, ReadError> {
        let mut body = Vec::new();
        loop {
            let line = self.read_line().await?;
            let size_text = line.split(';').next().unwrap_or("").trim();
            if size_text.is_empty() || !size_text.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(ReadError::Bad(400, "bad chunk size"));
            }
            let size = usize::from_str_radix(size_text, 16)
                .map_err(|_| ReadError::Bad(413, "chunk too large"))?;
            if size == 0 {
                // Trailer fields, up to the empty line.
                let mut trailer_bytes = 0;
                loop {
                    let trailer = self.read_line().await?;
                    if trailer.is_empty() {
                        return Ok(body);
                    }
                    trailer_bytes += trailer.len();
                    if trailer_bytes > MAX_HEAD {
                        return Err(ReadError::Bad(431, "trailer fields too large"));
                    }
                }
            }
            if body.len().saturating_add(size) > MAX_BODY {
                return Err(ReadError::Bad(413, "request body too large"));
            }
            self.fill_to(size + 2).await?;
            if &self.buf[size..size + 2] != b"\r\n" {
                return Err(ReadError::Bad(400, "chunk not followed by CRLF"));
            }
            body.extend_from_slice(&self.buf[..size]);
            self.buf.drain(..size + 2);
        }
    }

    /// Waits until the peer closes the connection (or the socket fails), discarding whatever
    /// it sends.
    pub async fn wait_for_close(&mut self) {
        let mut sink = [0u8; 4096];
        loop {
            match self.stream.read(&mut sink).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    }
}

struct Head {
    method: String,
    target: String,
    http10: bool,
    headers: Vec<(String, String)>,
}

enum Framing {
    Length(usize),
    Chunked,
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// RFC 9110 `tchar`.
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn parse_head(head: &[u8]) -> Result<Head, ReadError> {
    let mut lines = head
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l));
    let request_line = lines.next().ok_or(ReadError::Bad(400, "empty request"))?;
    let mut parts = request_line.split(|&b| b == b' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(ReadError::Bad(400, "malformed request line"));
    };
    if method.is_empty() || !method.iter().all(|&b| is_token_byte(b)) {
        return Err(ReadError::Bad(400, "malformed method"));
    }
    if target.is_empty() || !target.iter().all(|&b| b.is_ascii_graphic()) {
        return Err(ReadError::Bad(400, "malformed request target"));
    }
    let http10 = match version {
        b"HTTP/1.1" => false,
        b"HTTP/1.0" => true,
        v if v.starts_with(b"HTTP/") => {
            return Err(ReadError::Bad(505, "HTTP version not supported"));
        }
        _ => return Err(ReadError::Bad(400, "malformed HTTP version")),
    };
    let mut headers = Vec::new();
    for line in lines {
        if line.first().is_some_and(|b| *b == b' ' || *b == b'\t') {
            return Err(ReadError::Bad(400, "obsolete header line folding"));
        }
        let colon = line
            .iter()
            .position(|&b| b == b':')
            .ok_or(ReadError::Bad(400, "header without ':'"))?;
        let name = &line[..colon];
        if name.is_empty() || !name.iter().all(|&b| is_token_byte(b)) {
            return Err(ReadError::Bad(400, "malformed header name"));
        }
        let value = String::from_utf8_lossy(&line[colon + 1..]);
        headers.push((
            String::from_utf8_lossy(name).to_ascii_lowercase(),
            value.trim_matches([' ', '\t']).to_owned(),
        ));
    }
    Ok(Head {
        // Both were checked to be ASCII above.
        method: String::from_utf8_lossy(method).into_owned(),
        target: String::from_utf8_lossy(target).into_owned(),
        http10,
        headers,
    })
}

fn connection_keep_alive(headers: &[(String, String)], http10: bool) -> bool {
    let mut keep_alive = !http10;
    for (_, value) in headers.iter().filter(|(n, _)| n == "connection") {
        for option in value.split(',').map(str::trim) {
            if option.eq_ignore_ascii_case("close") {
                return false;
            }
            if option.eq_ignore_ascii_case("keep-alive") {
                keep_alive = true;
            }
        }
    }
    keep_alive
}

fn body_framing(headers: &[(String, String)]) -> Result<Framing, ReadError> {
    let codings: Vec<&str> = headers
        .iter()
        .filter(|(n, _)| n == "transfer-encoding")
        .flat_map(|(_, v)| v.split(','))
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    if let Some(last) = codings.last() {
        return if last.eq_ignore_ascii_case("chunked") {
            Ok(Framing::Chunked)
        } else {
            Err(ReadError::Bad(400, "unsupported transfer-encoding"))
        };
    }
    let mut length: Option<usize> = None;
    for (_, value) in headers.iter().filter(|(n, _)| n == "content-length") {
        for item in value.split(',').map(str::trim) {
            if item.is_empty() || !item.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ReadError::Bad(400, "malformed content-length"));
            }
            let n: usize = item
                .parse()
                .map_err(|_| ReadError::Bad(413, "request body too large"))?;
            if length.is_some_and(|l| l != n) {
                return Err(ReadError::Bad(400, "conflicting content-length"));
            }
            length = Some(n);
        }
    }
    match length {
        Some(n) if n > MAX_BODY => Err(ReadError::Bad(413, "request body too large")),
        Some(n) => Ok(Framing::Length(n)),
        None => Ok(Framing::Length(0)),
    }
}

/// The reason phrase for a status code (any phrase is valid HTTP; these are the usual ones).
pub(crate) fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        505 => "HTTP Version Not Supported",
        _ => "Status",
    }
}

/// How a response body is framed on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BodyFraming {
    /// `Content-Length` with the given value (which may exceed what is then sent).
    Length(usize),
    /// `Transfer-Encoding: chunked`.
    Chunked,
}

/// Serializes a status line and headers. `headers` are written as given, after the framing
/// and connection headers.
pub(crate) fn response_head(
    status: u16,
    headers: &[(&str, &str)],
    framing: BodyFraming,
    keep_alive: bool,
) -> Vec<u8> {
    use std::fmt::Write as _;
    let mut head = String::with_capacity(256);
    let _ = write!(head, "HTTP/1.1 {:03} {}\r\n", status, reason(status));
    match framing {
        BodyFraming::Length(n) => {
            let _ = write!(head, "content-length: {}\r\n", n);
        }
        BodyFraming::Chunked => head.push_str("transfer-encoding: chunked\r\n"),
    }
    head.push_str(if keep_alive {
        "connection: keep-alive\r\n"
    } else {
        "connection: close\r\n"
    });
    for (name, value) in headers {
        let _ = write!(head, "{}: {}\r\n", name, value);
    }
    head.push_str("\r\n");
    head.into_bytes()
}

/// Encodes `chunks` with chunked transfer coding, including the final zero-size chunk.
pub(crate) fn encode_chunked<'a>(chunks: impl IntoIterator<Item = &'a [u8]>) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in chunks.into_iter().filter(|c| !c.is_empty()) {
        out.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        out.extend_from_slice(chunk);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(text: &str) -> Result<Head, ReadError> {
        parse_head(text.as_bytes())
    }

    #[test]
    fn parses_request_line_and_lowercases_header_names() {
        let h =
            head("POST /v1/chat/completions?x=1 HTTP/1.1\r\nHost: a\r\nX-Thing:  v w ").unwrap();
        assert_eq!(h.method, "POST");
        assert_eq!(h.target, "/v1/chat/completions?x=1");
        assert!(!h.http10);
        assert_eq!(
            h.headers,
            vec![
                ("host".to_owned(), "a".to_owned()),
                ("x-thing".to_owned(), "v w".to_owned())
            ]
        );
    }

    #[test]
    fn rejects_malformed_heads() {
        for (text, status) in [
            ("", 400),
            ("GET /\r\n", 400),
            ("GET  / HTTP/1.1", 400),
            ("GET / HTTP/1.1 extra", 400),
            ("G(T / HTTP/1.1", 400),
            ("GET / HTTP/2.0", 505),
            ("GET / FTP/1.0", 400),
            ("GET / HTTP/1.1\r\nno colon here", 400),
            ("GET / HTTP/1.1\r\n: empty name", 400),
            ("GET / HTTP/1.1\r\nbad name: v", 400),
            ("GET / HTTP/1.1\r\nA: b\r\n folded", 400),
        ] {
            match head(text) {
                Err(ReadError::Bad(s, _)) => assert_eq!(s, status, "{text:?}"),
                other => panic!("{text:?} gave {:?}", other.map(|h| h.target)),
            }
        }
    }

    fn hs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn keep_alive_follows_version_and_connection_header() {
        assert!(connection_keep_alive(&hs(&[]), false));
        assert!(!connection_keep_alive(&hs(&[]), true));
        assert!(connection_keep_alive(
            &hs(&[("connection", "Keep-Alive")]),
            true
        ));
        assert!(!connection_keep_alive(
            &hs(&[("connection", "upgrade, close")]),
            false
        ));
    }

    #[test]
    fn body_framing_rules() {
        assert!(matches!(body_framing(&hs(&[])), Ok(Framing::Length(0))));
        assert!(matches!(
            body_framing(&hs(&[("content-length", "12")])),
            Ok(Framing::Length(12))
        ));
        assert!(matches!(
            body_framing(&hs(&[("content-length", "5, 5")])),
            Ok(Framing::Length(5))
        ));
        assert!(matches!(
            body_framing(&hs(&[("transfer-encoding", "gzip, chunked")])),
            Ok(Framing::Chunked)
        ));
        for bad in [
            hs(&[("content-length", "-1")]),
            hs(&[("content-length", "+5")]),
            hs(&[("content-length", "5"), ("content-length", "6")]),
            hs(&[("transfer-encoding", "gzip")]),
        ] {
            assert!(
                matches!(body_framing(&bad), Err(ReadError::Bad(400, _))),
                "{bad:?}"
            );
        }
        assert!(matches!(
            body_framing(&hs(&[("content-length", "99999999999999999999999")])),
            Err(ReadError::Bad(413, _))
        ));
        assert!(matches!(
            body_framing(&hs(&[("content-length", "999999999")])),
            Err(ReadError::Bad(413, _))
        ));
    }

    #[test]
    fn chunked_encoding_skips_empty_chunks_and_terminates() {
        let out = encode_chunked([&b"hello"[..], b"", b"0123456789abcdef"]);
        assert_eq!(out, b"5\r\nhello\r\n10\r\n0123456789abcdef\r\n0\r\n\r\n");
    }

    #[test]
    fn response_head_shape() {
        let h = response_head(429, &[("retry-after", "1")], BodyFraming::Length(3), true);
        assert_eq!(
            String::from_utf8(h).unwrap(),
            "HTTP/1.1 429 Too Many Requests\r\ncontent-length: 3\r\nconnection: keep-alive\r\n\
             retry-after: 1\r\n\r\n"
        );
    }
}
