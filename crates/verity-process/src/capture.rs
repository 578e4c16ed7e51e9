//! Bounded capture of an output stream, and quoting its end on one line.

use std::sync::{Mutex, PoisonError};

/// What becomes of a child's standard output or standard error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Capture {
    /// `/dev/null`.
    #[default]
    Null,
    /// A pipe handed to the caller ([`crate::AsyncProcess::take_stdout`],
    /// [`crate::Process::take_stdout`]); the run forms treat it as [`Capture::Null`].
    Piped,
    /// The first this many bytes; the rest is read and dropped.
    Head(usize),
    /// The last this many bytes; the rest is read and dropped.
    Tail(usize),
    /// Everything, up to this many bytes; more is an error ([`crate::ProcessError::OutputTooLarge`])
    /// and the process group is killed at once.
    UpTo(usize),
}

impl Capture {
    /// How the child's end of the stream is set up: `/dev/null`, or a pipe (read by the
    /// supervisor, or handed to the caller).
    pub(crate) fn stdio(self) -> std::process::Stdio {
        if matches!(self, Capture::Null) {
            std::process::Stdio::null()
        } else {
            std::process::Stdio::piped()
        }
    }

    pub(crate) fn is_read(self) -> bool {
        matches!(self, Capture::Head(_) | Capture::Tail(_) | Capture::UpTo(_))
    }
}

/// What was captured of a stream.
#[derive(Debug, Default)]
pub struct Captured {
    /// The bytes kept.
    pub bytes: Vec<u8>,
    /// How many bytes were read and not kept.
    pub dropped: u64,
    /// The limit, when the stream went over a [`Capture::UpTo`] limit.
    pub over_limit: Option<usize>,
    /// Reading failed (the reading stopped there).
    pub error: Option<std::io::Error>,
}

impl Captured {
    /// The bytes kept, as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }

    /// Its last lines on one line ([`quote_tail`]).
    pub fn quote(&self, quote: Quote) -> String {
        quote_tail(&self.bytes, quote)
    }
}

/// How much of the end of a stream [`quote_tail`] shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quote {
    /// At most this many of the last non-blank lines.
    pub lines: usize,
    /// At most this many characters (cut from the front, marked `…`).
    pub chars: usize,
}

impl Default for Quote {
    fn default() -> Self {
        Quote {
            lines: 8,
            chars: 800,
        }
    }
}

/// The last non-blank lines of `bytes`, trimmed, joined by ` | ` and shortened from the front:
/// the end of a standard error, quoted in an error message.
pub fn quote_tail(bytes: &[u8], quote: Quote) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let start = lines.len().saturating_sub(quote.lines);
    let joined = lines[start..].join(" | ");
    let count = joined.chars().count();
    if count <= quote.chars {
        return joined;
    }
    let mut cut = String::from("…");
    cut.extend(joined.chars().skip(count - quote.chars));
    cut
}

/// A stream being captured; shared between its reader and whoever looks at it meanwhile.
#[derive(Debug)]
pub(crate) struct Buffer {
    mode: Capture,
    inner: Mutex<Captured>,
}

impl Buffer {
    pub(crate) fn new(mode: Capture) -> Buffer {
        Buffer {
            mode,
            inner: Mutex::new(Captured::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Captured> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes in what was read; false when the reading must stop (over an `UpTo` limit).
    pub(crate) fn push(&self, chunk: &[u8]) -> bool {
        let mut c = self.lock();
        match self.mode {
            Capture::Null | Capture::Piped => {
                c.dropped += chunk.len() as u64;
                true
            }
            Capture::Head(keep) => {
                let room = keep.saturating_sub(c.bytes.len()).min(chunk.len());
                c.bytes.extend_from_slice(&chunk[..room]);
                c.dropped += (chunk.len() - room) as u64;
                true
            }
            Capture::Tail(keep) => {
                c.bytes.extend_from_slice(chunk);
                // Trimmed in halves, so that a stream of small writes is not quadratic.
                if c.bytes.len() > keep.saturating_mul(2).max(1) {
                    let cut = c.bytes.len() - keep;
                    c.bytes.drain(..cut);
                    c.dropped += cut as u64;
                }
                true
            }
            Capture::UpTo(limit) => {
                let room = limit.saturating_sub(c.bytes.len()).min(chunk.len());
                c.bytes.extend_from_slice(&chunk[..room]);
                if room < chunk.len() {
                    c.dropped += (chunk.len() - room) as u64;
                    c.over_limit = Some(limit);
                    return false;
                }
                true
            }
        }
    }

    pub(crate) fn fail(&self, error: std::io::Error) {
        self.lock().error = Some(error);
    }

    /// What was captured so far.
    pub(crate) fn snapshot(&self) -> Captured {
        let c = self.lock();
        let mut bytes = c.bytes.clone();
        let mut dropped = c.dropped;
        if let Capture::Tail(keep) = self.mode
            && bytes.len() > keep
        {
            let cut = bytes.len() - keep;
            bytes.drain(..cut);
            dropped += cut as u64;
        }
        Captured {
            bytes,
            dropped,
            over_limit: c.over_limit,
            error: c
                .error
                .as_ref()
                .map(|e| std::io::Error::new(e.kind(), e.to_string())),
        }
    }

    /// The end of the stream so far, on one line.
    pub(crate) fn quote(&self, quote: Quote) -> String {
        let c = self.lock();
        let start = match self.mode {
            Capture::Tail(keep) => c.bytes.len().saturating_sub(keep),
            _ => 0,
        };
        quote_tail(&c.bytes[start..], quote)
    }
}

/// Reads `reader` to its end into `buffer`; `over` is called when it goes over its limit.
pub(crate) fn read_blocking(mut reader: impl std::io::Read, buffer: &Buffer, over: impl Fn()) {
    let mut buf = vec![0u8; 8 * 1024];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                if !buffer.push(&buf[..n]) {
                    over();
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return buffer.fail(e),
        }
    }
}

/// [`read_blocking`] on tokio.
pub(crate) async fn read_async(
    mut reader: impl tokio::io::AsyncRead + Unpin,
    buffer: &Buffer,
    over: impl Fn(),
) {
    use tokio::io::AsyncReadExt as _;
    let mut buf = vec![0u8; 8 * 1024];
    loop {
        match reader.read(&mut buf).await {
            Ok(0) => return,
            Ok(n) => {
                if !buffer.push(&buf[..n]) {
                    over();
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return buffer.fail(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MCP: Quote = Quote {
        lines: 8,
        chars: 800,
    };
    const COMMAND: Quote = Quote {
        lines: 5,
        chars: 600,
    };

    // From the MCP client's standard error tail (8 KiB kept, 8 lines, 800 characters).
    #[test]
    fn tail_keeps_the_last_lines() {
        let tail = Buffer::new(Capture::Tail(8 * 1024));
        for i in 0..20 {
            tail.push(format!("line {}\n", i).as_bytes());
        }
        tail.push(b"\n   \nlast words");
        assert_eq!(
            tail.quote(MCP),
            "line 13 | line 14 | line 15 | line 16 | line 17 | line 18 | line 19 | last words"
        );
    }

    #[test]
    fn tail_is_bounded() {
        let tail = Buffer::new(Capture::Tail(8 * 1024));
        let line = "x".repeat(1000);
        for _ in 0..100 {
            tail.push(line.as_bytes());
            tail.push(b"\n");
        }
        assert!(tail.lock().bytes.len() <= 2 * 8 * 1024);
        let shown = tail.quote(MCP);
        assert!(shown.starts_with('…'));
        assert_eq!(shown.chars().count(), 800 + 1);
        let kept = tail.snapshot();
        assert_eq!(kept.bytes.len(), 8 * 1024);
        assert_eq!(kept.dropped, 100 * 1001 - 8 * 1024);
    }

    #[test]
    fn empty_tail() {
        assert_eq!(Buffer::new(Capture::Tail(8 * 1024)).quote(MCP), "");
    }

    // From the command provider (5 lines, 600 characters).
    #[test]
    fn stderr_tails_are_short() {
        let tail = |b: &[u8]| quote_tail(b, COMMAND);
        assert_eq!(tail(b"one\n\n two \nthree\n"), "one | two | three");
        let many: String = (1..=9).map(|i| format!("line {i}\n")).collect();
        assert_eq!(
            tail(many.as_bytes()),
            "line 5 | line 6 | line 7 | line 8 | line 9"
        );
        let long = "x".repeat(5000);
        let shown = tail(long.as_bytes());
        assert_eq!(shown.chars().count(), 600 + 1);
        assert!(shown.starts_with('…'));
        assert_eq!(tail(b""), "");
    }

    #[tokio::test]
    async fn tails_and_limits_read_bounded_amounts() {
        let data: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        let read = |mode: Capture| {
            let data = &data;
            async move {
                let buffer = Buffer::new(mode);
                let over = std::cell::Cell::new(false);
                read_async(&data[..], &buffer, || over.set(true)).await;
                (buffer.snapshot(), over.get())
            }
        };
        let (tail, _) = read(Capture::Tail(1000)).await;
        assert_eq!(tail.bytes, &data[data.len() - 1000..]);
        assert_eq!(tail.dropped, 99_000);
        let (head, over) = read(Capture::Head(1000)).await;
        assert_eq!(head.bytes, &data[..1000]);
        assert_eq!((head.dropped, over), (99_000, false));
        let (short, _) = read(Capture::Tail(1000)).await;
        assert_eq!(short.bytes.len(), 1000);
        let buffer = Buffer::new(Capture::Tail(1000));
        read_async(&b"short"[..], &buffer, || {}).await;
        assert_eq!(buffer.snapshot().bytes, b"short");

        let (cut, over) = read(Capture::UpTo(99_999)).await;
        assert!(over);
        assert_eq!(cut.over_limit, Some(99_999));
        let (all, over) = read(Capture::UpTo(100_000)).await;
        assert!(!over);
        assert_eq!((all.bytes, all.over_limit), (data.clone(), None));
    }
}
