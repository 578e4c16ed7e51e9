//! Checks of single values a suite sets (provider kinds, URLs, variable names, report paths),
//! shared by the loader (which points at the value in suite.toml) and [`crate::check`] (which
//! checks a suite built in memory).

use std::ops::Range;

use verity_model::{PROVIDER_KINDS, REPORT_PLACEHOLDERS, ReportSpec};

use crate::diag::did_you_mean;

/// What is wrong with a value: a message, and help when there is something to suggest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem {
    pub(crate) message: String,
    pub(crate) help: Option<String>,
}

impl Problem {
    fn new(message: impl Into<String>, help: impl Into<String>) -> Problem {
        Problem {
            message: message.into(),
            help: Some(help.into()),
        }
    }
}

/// A provider kind verity cannot build.
pub(crate) fn provider_kind(kind: &str) -> Option<Problem> {
    if PROVIDER_KINDS.contains(&kind) {
        return None;
    }
    let known = PROVIDER_KINDS.join(", ");
    let help = match did_you_mean(&kind.to_ascii_lowercase(), PROVIDER_KINDS.iter().copied()) {
        Some(m) => format!("did you mean `{m}`? (known kinds: {known})"),
        None => format!("known kinds: {known}"),
    };
    Some(Problem::new(
        format!("unknown provider kind `{kind}`"),
        help,
    ))
}

/// A `base_url` that is not an absolute http(s) URL with a host, judged by the parser the
/// HTTP providers use. The value is not repeated: it may hold credentials.
pub(crate) fn base_url(text: &str) -> Option<Problem> {
    const HELP: &str = "give the API's address, e.g. \"https://api.openai.com/v1\" or \"http://localhost:8080/v1\"";
    let why = match url::Url::parse(text.trim()) {
        Err(e) => e.to_string(),
        Ok(u) if !matches!(u.scheme(), "http" | "https") => {
            format!("its scheme is `{}`", u.scheme())
        }
        Ok(u) if u.host_str().is_none_or(str::is_empty) => "it has no host".to_owned(),
        Ok(_) => return None,
    };
    Some(Problem::new(
        format!("`base_url` must be an absolute http:// or https:// URL ({why})"),
        HELP,
    ))
}

/// An `api_key_env` that cannot name an environment variable. The value is not repeated: it
/// is sometimes the key itself.
pub(crate) fn env_var_name(name: &str) -> Option<Problem> {
    const HELP: &str = "give the name of the variable that holds the key, e.g. \"OPENAI_API_KEY\" (never the key itself)";
    let mut chars = name.chars();
    let valid = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if name.is_empty() {
        Some(Problem::new("`api_key_env` must not be empty", HELP))
    } else if !valid {
        Some(Problem::new(
            "`api_key_env` is not an environment variable name (letters, digits and `_`, not starting with a digit)",
            HELP,
        ))
    } else {
        None
    }
}

/// Each placeholder of a `[report]` path that verity does not fill, with its byte range in
/// `template`.
pub(crate) fn report_placeholders(template: &str) -> Vec<(Range<usize>, Problem)> {
    let known: Vec<String> = REPORT_PLACEHOLDERS
        .iter()
        .map(|p| format!("{{{p}}}"))
        .collect();
    ReportSpec::placeholders(template)
        .into_iter()
        .filter(|(_, name)| !REPORT_PLACEHOLDERS.contains(name))
        .map(|(range, name)| {
            let help = match did_you_mean(name, REPORT_PLACEHOLDERS.iter().copied()) {
                Some(m) => format!("did you mean `{{{m}}}`? (known: {})", known.join(", ")),
                None => format!("known placeholders: {}", known.join(", ")),
            };
            (
                range,
                Problem::new(
                    format!("unknown placeholder `{{{name}}}` in a report path"),
                    help,
                ),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_kinds() {
        assert_eq!(provider_kind("mock"), None);
        let p = provider_kind("skynet").unwrap();
        assert_eq!(p.message, "unknown provider kind `skynet`");
        assert_eq!(
            p.help.as_deref(),
            Some("known kinds: local, mock, openai, anthropic, gemini, command")
        );
        let p = provider_kind("OpenAI").unwrap();
        assert!(
            p.help.unwrap().starts_with("did you mean `openai`?"),
            "case differs only"
        );
        assert!(
            provider_kind("antropic")
                .unwrap()
                .help
                .unwrap()
                .starts_with("did you mean `anthropic`?")
        );
    }

    #[test]
    fn base_urls() {
        for ok in [
            "https://api.openai.com/v1",
            "http://127.0.0.1:8080/v1/",
            "http://[::1]:9/x",
            " http://localhost ",
            "https://user:pw@example.com/v1?api-version=2",
        ] {
            assert_eq!(base_url(ok), None, "{ok}");
        }
        for (bad, why) in [
            ("not a url", "relative URL without a base"),
            ("", "relative URL without a base"),
            ("ftp://example.com", "its scheme is `ftp`"),
            ("file:///tmp/x", "its scheme is `file`"),
            ("http://", "empty host"),
            ("localhost:8080", "its scheme is `localhost`"),
            ("http://exa mple.com", "invalid international domain name"),
        ] {
            let p = base_url(bad).unwrap_or_else(|| panic!("{bad:?} passed"));
            assert!(p.message.contains(why), "{bad:?}: {}", p.message);
        }
    }

    #[test]
    fn env_var_names() {
        for ok in ["OPENAI_API_KEY", "_k", "a1"] {
            assert_eq!(env_var_name(ok), None, "{ok}");
        }
        assert_eq!(
            env_var_name("").unwrap().message,
            "`api_key_env` must not be empty"
        );
        for bad in [" ", "1KEY", "MY-KEY", "sk-abc123", "KEY ", "K=V", "ÄPI"] {
            let p = env_var_name(bad).unwrap_or_else(|| panic!("{bad:?} passed"));
            if !bad.trim().is_empty() {
                assert!(!p.message.contains(bad.trim()), "the value is not echoed");
            }
        }
    }

    #[test]
    fn report_path_placeholders() {
        assert!(report_placeholders("{tmp}/r-{ts}-{run}-{suite}.json").is_empty());
        assert!(report_placeholders("plain {} {a b}.md").is_empty());
        let found = report_placeholders("out/{nope}-{sutie}.md");
        let got: Vec<_> = found
            .iter()
            .map(|(r, p)| (r.clone(), p.message.as_str(), p.help.as_deref().unwrap()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    4..10,
                    "unknown placeholder `{nope}` in a report path",
                    "known placeholders: {ts}, {run}, {suite}, {tmp}"
                ),
                (
                    11..18,
                    "unknown placeholder `{sutie}` in a report path",
                    "did you mean `{suite}`? (known: {ts}, {run}, {suite}, {tmp})"
                ),
            ]
        );
    }
}
