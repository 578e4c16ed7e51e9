//! How a suite wants to be run by default (suite.toml `[run]`): the command line overrides
//! each setting.

use serde::{Deserialize, Serialize};

/// How a run uses the response cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheMode {
    /// Read hits, write misses (the default: never pay twice for the same answer).
    #[default]
    Live,
    /// Answer only from the cache; a miss is an error naming the sample. No model is called.
    Replay,
    /// Call the model every time and overwrite what the cache holds.
    Refresh,
    /// Neither read nor write.
    Off,
}

impl CacheMode {
    /// Every mode, as `--cache` and `[run] cache` spell them.
    pub const NAMES: &'static [&'static str] = &["live", "replay", "refresh", "off"];

    /// The mode named `s` (`live`, `replay`, `refresh`, `off`).
    pub fn parse(s: &str) -> Option<CacheMode> {
        match s {
            "live" => Some(CacheMode::Live),
            "replay" => Some(CacheMode::Replay),
            "refresh" => Some(CacheMode::Refresh),
            "off" => Some(CacheMode::Off),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            CacheMode::Live => "live",
            CacheMode::Replay => "replay",
            CacheMode::Refresh => "refresh",
            CacheMode::Off => "off",
        }
    }

    /// Whether hits are answered from the cache.
    pub fn reads(self) -> bool {
        matches!(self, CacheMode::Live | CacheMode::Replay)
    }

    /// Whether fresh answers are written to the cache.
    pub fn writes(self) -> bool {
        matches!(self, CacheMode::Live | CacheMode::Refresh)
    }
}

/// A suite's defaults for how it runs (suite.toml `[run]`). Each is used only when the command
/// line does not set it: `--retries` over `retries`, `--cache` (or `--provider replay`) over
/// `cache`, `--epochs` over `quick_epochs`; the suite's settings come before verity.toml's
/// `[run]`, which applies to every suite.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// Retries of a failed call (5xx, timeouts, broken connections; rate limits are retried
    /// on time instead). A wrong answer is a score and is never retried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retries: Option<u32>,
    /// How runs of the suite use the response cache: a drift suite says `off`, since an
    /// answer from the cache would repeat an earlier run instead of measuring this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache: Option<CacheMode>,
    /// The epochs `--quick` runs (without `--epochs`), instead of the suite's `epochs`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quick_epochs: Option<u32>,
    /// Warn before a run whose estimated cost exceeds this many USD (`--cost-warning` over
    /// it; verity.toml's `[run] cost_warning_usd` under it; default 5). A warning, never a
    /// limit: `--max-cost` is the budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_warning_usd: Option<f64>,
}

impl RunSettings {
    /// Whether the suite sets nothing (`[run]` absent or empty).
    pub fn is_empty(&self) -> bool {
        self == &RunSettings::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_modes_round_trip_by_name() {
        for name in CacheMode::NAMES {
            let m = CacheMode::parse(name).unwrap();
            assert_eq!(m.as_str(), *name);
            assert_eq!(serde_json::to_value(m).unwrap(), *name);
        }
        assert_eq!(CacheMode::parse("on"), None);
        assert!(CacheMode::Live.reads() && CacheMode::Live.writes());
        assert!(!CacheMode::Off.reads() && !CacheMode::Off.writes());
    }

    #[test]
    fn settings_store_only_what_is_set() {
        assert!(RunSettings::default().is_empty());
        let s = RunSettings {
            cache: Some(CacheMode::Off),
            quick_epochs: Some(2),
            ..RunSettings::default()
        };
        let v = serde_json::to_value(&s).unwrap();
        assert_eq!(v, serde_json::json!({"cache": "off", "quick_epochs": 2}));
        assert_eq!(serde_json::from_value::<RunSettings>(v).unwrap(), s);
    }
}
