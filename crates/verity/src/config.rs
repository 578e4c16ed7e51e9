//! `verity.toml`: settings that belong to a machine or a team rather than to a suite —
//! where results go, default run settings, provider limits, prices, retention.
//!
//! Looked up as `--config PATH`, else `$VERITY_CONFIG`, else `./verity.toml` when it exists.
//! Command-line flags win over the file; the file wins over built-in defaults.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::CliError;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub store: StoreConfig,
    #[serde(default)]
    pub run: RunConfig,
    #[serde(default)]
    pub observations: ObservationsConfig,
    /// Limits per provider kind (`[providers.openai]`) or per variant name.
    #[serde(default)]
    pub providers: BTreeMap<String, ProviderLimits>,
    /// USD per million tokens, per model (`[prices."gpt-4o-mini"]`).
    #[serde(default)]
    pub prices: BTreeMap<String, PriceConfig>,
    /// Where the file was read from (not a key).
    #[serde(skip)]
    pub source: Option<PathBuf>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoreConfig {
    pub path: Option<PathBuf>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    pub concurrency: Option<usize>,
    pub timeout_s: Option<f64>,
    pub retries: Option<u32>,
    pub backoff_initial_ms: Option<u64>,
    pub backoff_max_ms: Option<u64>,
    /// How long a sample keeps retrying rate limits (429), from its first attempt.
    pub retry_max_elapsed_s: Option<f64>,
    /// Consecutive connection failures, before the endpoint's first answer, that stop a run
    /// (0: never).
    pub max_connect_failures: Option<u32>,
    pub cache: Option<String>,
    /// Warn before a run whose estimated cost exceeds this many USD (default 5).
    pub cost_warning_usd: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObservationsConfig {
    #[serde(default = "default_keep_last")]
    pub keep_last: u64,
    #[serde(default = "default_keep_days")]
    pub keep_days: u32,
}

impl Default for ObservationsConfig {
    fn default() -> Self {
        ObservationsConfig {
            keep_last: default_keep_last(),
            keep_days: default_keep_days(),
        }
    }
}

fn default_keep_last() -> u64 {
    1000
}

fn default_keep_days() -> u32 {
    30
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderLimits {
    pub max_concurrent: Option<usize>,
    pub rpm: Option<u32>,
    pub tpm: Option<u64>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceConfig {
    pub input: f64,
    pub output: f64,
}

impl Config {
    /// Finds and reads the configuration; no file is an empty configuration.
    pub fn load(explicit: Option<&Path>) -> Result<Config, CliError> {
        let path = match explicit {
            Some(p) => Some(p.to_owned()),
            None => match std::env::var_os("VERITY_CONFIG").filter(|v| !v.is_empty()) {
                Some(p) => Some(PathBuf::from(p)),
                None => Some(PathBuf::from("verity.toml")).filter(|p| p.is_file()),
            },
        };
        let Some(path) = path else {
            return Ok(Config::default());
        };
        let text = std::fs::read_to_string(&path).map_err(|e| {
            CliError::usage(format!(
                "cannot read the configuration {}: {e}",
                path.display()
            ))
        })?;
        let mut c = Config::parse(&text)
            .map_err(|e| CliError::usage(format!("{}: {e}", path.display())))?;
        c.source = Some(path);
        Ok(c)
    }

    pub fn parse(text: &str) -> Result<Config, String> {
        let c: Config = toml::from_str(text).map_err(|e| e.to_string())?;
        if let Some(m) = &c.run.cache
            && verity_runner::CacheMode::parse(m).is_none()
        {
            return Err(format!(
                "[run] cache = {m:?}: expected live, replay, refresh or off"
            ));
        }
        for (model, p) in &c.prices {
            if !(p.input >= 0.0 && p.output >= 0.0) {
                return Err(format!(
                    "[prices.{model:?}]: prices must be non-negative numbers"
                ));
            }
        }
        Ok(c)
    }

    pub fn prices(&self) -> verity_runner::Prices {
        let o = self
            .prices
            .iter()
            .map(|(k, p)| {
                (
                    k.clone(),
                    verity_runner::Price {
                        input: p.input,
                        output: p.output,
                    },
                )
            })
            .collect();
        verity_runner::Prices::with_overrides(&o)
    }

    /// The limits for a variant: its own `[providers.VARIANT]` entry, else its provider kind's.
    pub fn limits(&self, variant: &str, kind: &str) -> verity_runner::LimitSpec {
        let l = self
            .providers
            .get(variant)
            .or_else(|| self.providers.get(kind))
            .cloned()
            .unwrap_or_default();
        verity_runner::LimitSpec {
            max_concurrent: l.max_concurrent,
            rpm: l.rpm,
            tpm: l.tpm,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_section_and_rejects_unknown_keys() {
        let c = Config::parse(
            r#"
[store]
path = "results/v.db"
[run]
concurrency = 8
cache = "off"
[observations]
keep_last = 10
[providers.openai]
rpm = 500
tpm = 100000
[providers.grounded]
max_concurrent = 2
[prices."my-model"]
input = 1.0
output = 2.0
"#,
        )
        .unwrap();
        assert_eq!(c.run.concurrency, Some(8));
        assert_eq!(
            (c.observations.keep_last, c.observations.keep_days),
            (10, 30)
        );
        assert_eq!(c.limits("grounded", "openai").max_concurrent, Some(2));
        assert_eq!(c.limits("other", "openai").rpm, Some(500));
        assert_eq!(c.prices().lookup("openai", "my-model").unwrap().output, 2.0);
        let e = Config::parse("[run]\nconcurency = 3\n").unwrap_err();
        assert!(e.contains("unknown field") && e.contains("line 2"), "{e}");
        assert!(
            Config::parse("[run]\ncache = \"sometimes\"\n")
                .unwrap_err()
                .contains("expected live")
        );
        assert!(Config::parse("[prices.x]\ninput = -1\noutput = 0\n").is_err());
    }
}
