use verity_model::{is_secret_param, redact_url, redact_urls};

#[test]
fn urls_without_secrets_come_back_unchanged() {
    for url in [
        "https://api.openai.com/v1",
        "http://127.0.0.1:8080/v1/",
        "http://[::1]:8080/v1",
        "http://[2001:db8::1]/v1?api-version=2024-02-01",
        "https://example.com/openai/deployments/x?api-version=2&model=gpt#section",
        "https://example.com/search?q=a+b&page=2",
        "https://example.com/p?flag&x=",
        "http://localhost",
        "HTTPS://EXAMPLE.COM/V1",
        "https://example.com/@scope/pkg",
        "",
        "not a url",
        "://nothing",
        "mailto:someone@example.com",
        "/just/a/path",
        "http://",
        "?",
        "#",
        "%",
        "%zz?%=%",
        "h\u{e9}llo://w\u{f6}rld/\u{1f600}?\u{e9}=\u{e9}",
    ] {
        assert_eq!(redact_url(url), url, "{url:?}");
        assert_eq!(redact_urls(url), url, "{url:?}");
    }
}

#[test]
fn userinfo_is_removed() {
    let cases = [
        ("http://user:password@host/v1", "http://host/v1"),
        ("http://user@host/v1", "http://host/v1"),
        ("http://:password@host", "http://host"),
        ("https://u:p@example.com:8443", "https://example.com:8443"),
        ("http://u:p@[::1]:8080/v1", "http://[::1]:8080/v1"),
        ("http://u:p@[fe80::1%25eth0]/", "http://[fe80::1%25eth0]/"),
        // An unencoded `@` in the password: the userinfo ends at the last one.
        ("http://user:p@ss@host/v1", "http://host/v1"),
        ("http://user:p%40ss@host/v1", "http://host/v1"),
        ("http://u:p@host?x=1", "http://host?x=1"),
        ("http://u:p@host#frag", "http://host#frag"),
        ("//u:p@host/v1", "//host/v1"),
        ("http://@", "http://"),
        ("http://@host", "http://host"),
        ("  http://u:p@host/v1", "  http://host/v1"),
        ("git+ssh://git:secret@host/repo", "git+ssh://host/repo"),
        // An unencoded `?` or `#` in the password does not end the userinfo.
        ("http://user:pa?ss@host/v1", "http://host/v1"),
        (
            "http://user:pa#ss@host/v1?key=k",
            "http://host/v1?key=[redacted]",
        ),
        // An `@` in the path, or in a query after the path, is not userinfo…
        ("http://host/a@b?c=d@e", "http://host/a@b?c=d@e"),
        // …but one in the query of a URL without a path is: better too much than a password.
        ("http://host?c=d@e", "http://e"),
    ];
    for (url, want) in cases {
        assert_eq!(redact_url(url), want, "{url:?}");
    }
}

#[test]
fn secret_query_values_are_replaced() {
    let cases = [
        (
            "http://host/v1?api_key=XYZ",
            "http://host/v1?api_key=[redacted]",
        ),
        (
            "http://host/v1?api-version=2&key=XYZ&model=m",
            "http://host/v1?api-version=2&key=[redacted]&model=m",
        ),
        (
            "http://host/?apikey=1&api-key=2&ApiKey=3&API_KEY=4",
            "http://host/?apikey=[redacted]&api-key=[redacted]&ApiKey=[redacted]&API_KEY=[redacted]",
        ),
        (
            "http://host/?token=1&access_token=2&auth=3&sig=4&signature=5&secret=6&password=7",
            "http://host/?token=[redacted]&access_token=[redacted]&auth=[redacted]&sig=[redacted]\
             &signature=[redacted]&secret=[redacted]&password=[redacted]",
        ),
        (
            "https://b.s3.amazonaws.com/o?X-Amz-Algorithm=AWS4&X-Amz-Credential=AKIA%2F2024&X-Amz-Signature=abc&X-Amz-Security-Token=t",
            "https://b.s3.amazonaws.com/o?X-Amz-Algorithm=AWS4&X-Amz-Credential=[redacted]\
             &X-Amz-Signature=[redacted]&X-Amz-Security-Token=[redacted]",
        ),
        // Repeated parameters: every one.
        (
            "http://h/?key=a&key=b&x=1&key=c",
            "http://h/?key=[redacted]&key=[redacted]&x=1&key=[redacted]",
        ),
        // Percent-encoded and form-encoded names.
        (
            "http://h/?api%5Fkey=a&%6B%65%79=b&client+secret=c&%4b%45%59=d",
            "http://h/?api%5Fkey=[redacted]&%6B%65%79=[redacted]&client+secret=[redacted]&%4b%45%59=[redacted]",
        ),
        // `;` separates too; an empty value and a bare name have nothing to hide.
        (
            "http://h/?a=1;token=2&key=&key",
            "http://h/?a=1;token=[redacted]&key=&key",
        ),
        // A value holding `=` is replaced whole.
        ("http://h/?sig=a=b==", "http://h/?sig=[redacted]"),
        // The fragment is read like a query (OAuth's implicit flow puts tokens there).
        (
            "http://h/cb#access_token=abc&state=1",
            "http://h/cb#access_token=[redacted]&state=1",
        ),
        // Both at once, with an IPv6 host.
        (
            "http://user:password@[::1]:9/v1?api_key=XYZ#x",
            "http://[::1]:9/v1?api_key=[redacted]#x",
        ),
        // Not a URL, but a query all the same.
        (
            "localhost:8080/v1?token=abc",
            "localhost:8080/v1?token=[redacted]",
        ),
        // A URL inside a parameter is redacted too.
        (
            "http://h/cb?next=https://u:p@evil/x?token=abc&ok=1",
            "http://h/cb?next=https://evil/x?token=[redacted]&ok=1",
        ),
    ];
    for (url, want) in cases {
        assert_eq!(redact_url(url), want, "{url:?}");
    }
}

#[test]
fn secret_names() {
    for name in [
        "key",
        "KEY",
        "api_key",
        "x-api-key",
        "token",
        "id_token",
        "auth",
        "Authorization",
        "sig",
        "sv_sig",
        "password",
        "passwd",
        "pwd",
        "client_secret",
        "X-Amz-Credential",
        "session_id",
        "jwt",
        "api%2Dkey",
    ] {
        assert!(is_secret_param(name), "{name}");
    }
    for name in [
        "api-version",
        "model",
        "q",
        "page",
        "deployment",
        "",
        "%",
        "%zz",
    ] {
        assert!(!is_secret_param(name), "{name}");
    }
}

#[test]
fn urls_inside_text() {
    let cases = [
        (
            "curl -s https://u:p@h/v1?api_key=XYZ --data @-",
            "curl -s https://h/v1?api_key=[redacted] --data @-",
        ),
        (
            "python run.py 'http://user:pw@host:1/x' \"https://h?token=t\"",
            "python run.py 'http://host:1/x' \"https://h?token=[redacted]\"",
        ),
        (
            "error sending request for url (http://a:b@h/v1?key=k): refused",
            "error sending request for url (http://h/v1?key=[redacted]): refused",
        ),
        (
            "two: http://a:b@x and ftp://c:d@y/z.",
            "two: http://x and ftp://y/z.",
        ),
        ("no url here: a@b c?key=1", "no url here: a@b c?key=1"),
        ("://u:p@h ://", "://u:p@h ://"),
        ("1http://u:p@h", "1http://h"),
        ("\u{e9}http://u:p@h\u{e9}", "\u{e9}http://h\u{e9}"),
    ];
    for (text, want) in cases {
        assert_eq!(redact_urls(text), want, "{text:?}");
    }
}

/// Whatever the input, no panic, and the output holds neither the planted password nor the
/// key: every prefix, suffix and splice of a hostile URL.
#[test]
fn never_panics_and_never_leaks() {
    let hostile = "http://us\u{e9}r:PASSWORD1@[::1]:8080/v\u{1f600}1?%6Bey=KEYVALUE1&x=%&\u{e9}=1#token=TOKENVALUE1";
    let chars: Vec<char> = hostile.chars().collect();
    for i in 0..=chars.len() {
        for j in i..=chars.len() {
            let s: String = chars[i..j].iter().collect();
            let a = redact_url(&s);
            let b = redact_urls(&s);
            if i == 0 && j == chars.len() {
                for out in [&a, &b] {
                    for secret in ["PASSWORD1", "KEYVALUE1", "TOKENVALUE1"] {
                        assert!(!out.contains(secret), "{out}");
                    }
                }
            }
        }
    }
    // Odd bytes and separators only.
    for s in [
        "://", ":///", "a://", "a://@", "a://@@@", "?&;=#", "%%%", "%4", "%4g", "+",
    ] {
        let _ = redact_url(s);
        let _ = redact_urls(s);
    }
    // Idempotent.
    let once = redact_url(hostile);
    assert_eq!(redact_url(&once), once);
}
