//! Pieces every HTTP provider needs: classifying transport failures and statuses, reading
//! `Retry-After`, and quoting an error body briefly.

use std::error::Error as _;
use std::time::{Duration, SystemTime};

use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use serde_json::Value;
use verity_model::ProviderErrorKind;

/// How long a quoted error body may be, in characters.
const EXCERPT_CHARS: usize = 300;

/// The kind of a failure to get a response (or its body) at all.
pub(crate) fn transport_kind(e: &reqwest::Error) -> ProviderErrorKind {
    if e.is_timeout() {
        ProviderErrorKind::Timeout
    } else if e.is_builder() {
        ProviderErrorKind::Config
    } else {
        // Connect failures, resets, connections closed mid-response, bodies cut short.
        ProviderErrorKind::Connection
    }
}

/// A reqwest error and its causes as one line, without the URL (callers name the endpoint
/// themselves, without anything secret in it).
pub(crate) fn describe(e: reqwest::Error) -> String {
    let e = e.without_url();
    let mut parts: Vec<String> = vec![e.to_string()];
    let mut source = e.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if parts.last() != Some(&text) {
            parts.push(text);
        }
        source = cause.source();
    }
    parts.join(": ")
}

/// The kind of a non-success status.
pub(crate) fn status_kind(status: StatusCode, headers: &HeaderMap) -> ProviderErrorKind {
    let code = status.as_u16();
    match code {
        429 => ProviderErrorKind::RateLimited {
            retry_after: retry_after(headers, SystemTime::now()),
        },
        401 | 403 => ProviderErrorKind::Auth { status: code },
        500..=599 => ProviderErrorKind::Server { status: code },
        _ => ProviderErrorKind::Client { status: code },
    }
}

/// The delay a response asks for: `retry-after-ms` (sent by some OpenAI-compatible servers)
/// when valid, else `Retry-After` as delta-seconds (integer or fractional) or an HTTP-date.
pub(crate) fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let ms = headers
        .get("retry-after-ms")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| parse_seconds(v.trim()))
        .map(|d| d / 1000);
    ms.or_else(|| {
        let value = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
        parse_retry_after(value, now)
    })
}

/// Parses a `Retry-After` value; a date in the past means "now".
pub(crate) fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Some(d) = parse_seconds(value) {
        return Some(d);
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// A non-negative number of seconds, integer or fractional.
fn parse_seconds(value: &str) -> Option<Duration> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    if value.bytes().all(|b| b.is_ascii_digit()) {
        return value.parse().ok().map(Duration::from_secs);
    }
    let secs: f64 = value.parse().ok()?;
    Duration::try_from_secs_f64(secs).ok()
}

/// A short quote of an error body: the API's own message where the body has one (OpenAI's
/// `error.message`, or `error` / `message` / `detail` as a string), else the start of the text.
pub(crate) fn excerpt(body: &[u8]) -> String {
    let from_json = serde_json::from_slice::<Value>(body).ok().and_then(|v| {
        let message = v
            .pointer("/error/message")
            .or_else(|| v.get("error"))
            .or_else(|| v.get("message"))
            .or_else(|| v.get("detail"))?;
        message.as_str().map(str::to_owned)
    });
    let text = from_json.unwrap_or_else(|| String::from_utf8_lossy(body).into_owned());
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= EXCERPT_CHARS {
        return text;
    }
    let mut cut: String = text.chars().take(EXCERPT_CHARS).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use reqwest::header::HeaderValue;

    use super::*;

    #[test]
    fn retry_after_forms() {
        let now = httpdate::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        let cases: &[(&str, Option<Duration>)] = &[
            ("1", Some(Duration::from_secs(1))),
            (" 120 ", Some(Duration::from_secs(120))),
            ("0", Some(Duration::ZERO)),
            ("1.5", Some(Duration::from_millis(1500))),
            ("0.25", Some(Duration::from_millis(250))),
            (
                "Sun, 06 Nov 1994 08:49:47 GMT",
                Some(Duration::from_secs(10)),
            ),
            (
                "Sunday, 06-Nov-94 08:50:37 GMT",
                Some(Duration::from_secs(60)),
            ),
            ("Sun Nov  6 08:49:39 1994", Some(Duration::from_secs(2))),
            ("Sun, 06 Nov 1994 08:00:00 GMT", Some(Duration::ZERO)),
            ("-1", None),
            ("1e3", None),
            ("inf", None),
            ("NaN", None),
            ("1.2.3", None),
            ("soon", None),
            ("", None),
            ("99999999999999999999999", None),
        ];
        for (value, want) in cases {
            assert_eq!(parse_retry_after(value, now), *want, "{value:?}");
        }
    }

    #[test]
    fn retry_after_ms_wins_when_valid() {
        let now = SystemTime::now();
        let mut h = HeaderMap::new();
        h.insert("retry-after", HeaderValue::from_static("3"));
        assert_eq!(retry_after(&h, now), Some(Duration::from_secs(3)));
        h.insert("retry-after-ms", HeaderValue::from_static("250"));
        assert_eq!(retry_after(&h, now), Some(Duration::from_millis(250)));
        h.insert("retry-after-ms", HeaderValue::from_static("bogus"));
        assert_eq!(retry_after(&h, now), Some(Duration::from_secs(3)));
        assert_eq!(retry_after(&HeaderMap::new(), now), None);
    }

    #[test]
    fn statuses_map_to_kinds() {
        let h = HeaderMap::new();
        let kind = |code: u16| status_kind(StatusCode::from_u16(code).unwrap(), &h);
        assert_eq!(
            kind(429),
            ProviderErrorKind::RateLimited { retry_after: None }
        );
        assert_eq!(kind(500), ProviderErrorKind::Server { status: 500 });
        assert_eq!(kind(503), ProviderErrorKind::Server { status: 503 });
        assert_eq!(kind(401), ProviderErrorKind::Auth { status: 401 });
        assert_eq!(kind(403), ProviderErrorKind::Auth { status: 403 });
        assert_eq!(kind(400), ProviderErrorKind::Client { status: 400 });
        assert_eq!(kind(404), ProviderErrorKind::Client { status: 404 });
        assert_eq!(kind(302), ProviderErrorKind::Client { status: 302 });
    }

    #[test]
    fn excerpts_prefer_the_api_message_and_stay_short() {
        assert_eq!(
            excerpt(br#"{"error":{"message":"Bad model","type":"x"}}"#),
            "Bad model"
        );
        assert_eq!(excerpt(br#"{"error":"plain"}"#), "plain");
        assert_eq!(excerpt(br#"{"detail":"nope"}"#), "nope");
        assert_eq!(
            excerpt(b"<html>\n  gateway\n</html>"),
            "<html> gateway </html>"
        );
        assert_eq!(
            excerpt(br#"{"error":{"code":1}}"#),
            r#"{"error":{"code":1}}"#
        );
        let long = "é".repeat(1000);
        let cut = excerpt(long.as_bytes());
        assert_eq!(cut.chars().count(), EXCERPT_CHARS + 1);
        assert!(cut.ends_with('…'));
        assert_eq!(excerpt(&[0xff, 0xfe]), "\u{fffd}\u{fffd}");
    }
}
