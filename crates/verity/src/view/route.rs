//! The paths `verity view` answers, read from a request's path alone.

use http::StatusCode;

use super::Failure;

/// A page or document `verity view` serves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// `/`: the runs, newest first.
    List,
    /// `/runs/RUN`: the run's report page.
    Run(String),
    /// `/compare/A/B`: run B compared with run A (`RUN` or `RUN:VARIANT` each).
    Compare(String, String),
    /// `/api/runs`: the runs as JSON.
    ApiRuns,
    /// `/api/runs/RUN`: the run's JSON report (`verity report RUN --format json`).
    ApiRun(String),
    /// `/api/runs/RUN/progress`: samples stored and scheduled, and the status.
    ApiProgress(String),
    /// `/api/compare/A/B`: `verity compare A B --format json`.
    ApiCompare(String, String),
    /// `/favicon.ico`: answered with nothing.
    Favicon,
}

/// The longest run spec a path may hold (run ids are 20 characters; `RUN:VARIANT` more).
const MAX_SPEC: usize = 200;

impl Route {
    /// The route of `path` (one trailing `/` is allowed): a 404 for a path that names
    /// nothing served, a 400 for a run spec that cannot be one (empty, too long, or holding
    /// characters no run id or variant name has).
    pub fn parse(path: &str) -> Result<Route, Failure> {
        if path == "/" || path.is_empty() {
            return Ok(Route::List);
        }
        let trimmed = path.strip_suffix('/').unwrap_or(path);
        let parts: Vec<&str> = trimmed.split('/').skip(1).collect();
        let route = match parts.as_slice() {
            ["runs", run] => Route::Run(spec(run)?),
            ["compare", a, b] => Route::Compare(spec(a)?, spec(b)?),
            ["api", "runs"] => Route::ApiRuns,
            ["api", "runs", run] => Route::ApiRun(spec(run)?),
            ["api", "runs", run, "progress"] => Route::ApiProgress(spec(run)?),
            ["api", "compare", a, b] => Route::ApiCompare(spec(a)?, spec(b)?),
            ["favicon.ico"] => Route::Favicon,
            ["runs"] | ["compare", ..] | ["api", "compare", ..] => {
                return Err(Failure::new(
                    StatusCode::BAD_REQUEST,
                    format!(
                        "{path}: name the runs, as /runs/RUN or /compare/A/B (A and B: a run id, \
                         a unique prefix, latest or latest~N, each optionally :VARIANT)"
                    ),
                ));
            }
            _ => {
                return Err(Failure::new(
                    StatusCode::NOT_FOUND,
                    format!("{path}: no such page (the runs are at /)"),
                ));
            }
        };
        Ok(route)
    }

    /// Whether the route answers JSON (its failures too).
    pub fn is_api(&self) -> bool {
        matches!(
            self,
            Route::ApiRuns | Route::ApiRun(_) | Route::ApiProgress(_) | Route::ApiCompare(..)
        )
    }
}

/// A run spec from a path segment: letters, digits and `-_.~:` (ids, prefixes, `latest~N`,
/// `RUN:VARIANT`; a variant name outside that alphabet cannot be named in a path).
fn spec(segment: &str) -> Result<String, Failure> {
    let ok = !segment.is_empty()
        && segment.len() <= MAX_SPEC
        && segment
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '~' | ':'))
        && !segment.starts_with(':');
    if ok {
        Ok(segment.to_owned())
    } else {
        let shown: String = segment.chars().take(60).collect();
        Err(Failure::new(
            StatusCode::BAD_REQUEST,
            format!(
                "`{shown}` is not a run: give a run id, a unique prefix of one, latest or \
                 latest~N (optionally :VARIANT)"
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(path: &str) -> StatusCode {
        Route::parse(path).unwrap_err().status
    }

    #[test]
    fn every_page_has_its_path() {
        let id = "20261125-093000-ab12";
        assert_eq!(Route::parse("/"), Ok(Route::List));
        assert_eq!(
            Route::parse(&format!("/runs/{id}")),
            Ok(Route::Run(id.into()))
        );
        assert_eq!(
            Route::parse("/runs/latest/"),
            Ok(Route::Run("latest".into()))
        );
        assert_eq!(
            Route::parse("/compare/latest~1/latest:b"),
            Ok(Route::Compare("latest~1".into(), "latest:b".into()))
        );
        assert_eq!(Route::parse("/api/runs"), Ok(Route::ApiRuns));
        assert_eq!(
            Route::parse(&format!("/api/runs/{id}")),
            Ok(Route::ApiRun(id.into()))
        );
        assert_eq!(
            Route::parse(&format!("/api/runs/{id}/progress")),
            Ok(Route::ApiProgress(id.into()))
        );
        assert_eq!(
            Route::parse("/api/compare/a/b"),
            Ok(Route::ApiCompare("a".into(), "b".into()))
        );
        assert!(Route::parse("/api/runs/x").unwrap().is_api());
        assert!(!Route::parse("/runs/x").unwrap().is_api());
    }

    #[test]
    fn bad_specs_are_400_and_unknown_paths_404() {
        for bad in [
            "/runs/a%20b",
            "/runs/<script>",
            "/runs/..%2f",
            "/runs/:x",
            "/compare/a",
            "/compare/a/b/c",
            "/runs",
            "/runs//",
        ] {
            assert_eq!(status(bad), StatusCode::BAD_REQUEST, "{bad}");
        }
        assert_eq!(
            status(&format!("/runs/{}", "a".repeat(201))),
            StatusCode::BAD_REQUEST
        );
        for unknown in ["/nope", "/api", "/api/runs/x/y/z", "/runs/x/extra", "//"] {
            assert_eq!(status(unknown), StatusCode::NOT_FOUND, "{unknown}");
        }
    }
}
