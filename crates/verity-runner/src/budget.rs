//! Cost: a price table, the pre-flight estimate, and the spend limits a run enforces.

use std::collections::BTreeMap;
use std::sync::Mutex;

/// USD per million tokens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Price {
    pub input: f64,
    pub output: f64,
}

impl Price {
    pub fn cost(&self, input_tokens: u64, output_tokens: u64) -> f64 {
        (input_tokens as f64 * self.input + output_tokens as f64 * self.output) / 1_000_000.0
    }
}

/// List prices of common hosted models (USD per million input / output tokens), as published
/// by their vendors in 2025. `verity.toml` `[prices."MODEL"]` overrides or extends them; a model
/// matches an entry by exact name or by the entry being a prefix followed by `-` (dated
/// snapshots such as `gpt-4o-mini-2024-07-18`). Local and mock models cost nothing.
pub const DEFAULT_PRICES: &[(&str, f64, f64)] = &[
    ("gpt-4o", 2.50, 10.00),
    ("gpt-4o-mini", 0.15, 0.60),
    ("gpt-4.1", 2.00, 8.00),
    ("gpt-4.1-mini", 0.40, 1.60),
    ("gpt-4.1-nano", 0.10, 0.40),
    ("o3-mini", 1.10, 4.40),
    ("o4-mini", 1.10, 4.40),
    ("claude-3-5-haiku", 0.80, 4.00),
    ("claude-3-5-sonnet", 3.00, 15.00),
    ("claude-3-7-sonnet", 3.00, 15.00),
    ("claude-sonnet-4", 3.00, 15.00),
    ("claude-opus-4", 15.00, 75.00),
    ("gemini-2.0-flash", 0.10, 0.40),
    ("gemini-2.5-flash", 0.30, 2.50),
    ("gemini-2.5-pro", 1.25, 10.00),
];

/// The price table in force.
#[derive(Clone, Debug, Default)]
pub struct Prices {
    table: BTreeMap<String, Price>,
}

impl Prices {
    /// The defaults plus `overrides`.
    pub fn with_overrides(overrides: &BTreeMap<String, Price>) -> Self {
        let mut table: BTreeMap<String, Price> = DEFAULT_PRICES
            .iter()
            .map(|(m, i, o)| {
                (
                    m.to_string(),
                    Price {
                        input: *i,
                        output: *o,
                    },
                )
            })
            .collect();
        table.extend(overrides.iter().map(|(k, v)| (k.clone(), *v)));
        Prices { table }
    }

    /// The price of `provider`'s `model`: zero for providers that run locally, the table's
    /// entry (longest matching prefix) otherwise, `None` when unknown.
    pub fn lookup(&self, provider: &str, model: &str) -> Option<Price> {
        if matches!(provider, "mock" | "local" | "command" | "replay") {
            return Some(Price {
                input: 0.0,
                output: 0.0,
            });
        }
        if let Some(p) = self.table.get(model) {
            return Some(*p);
        }
        // Dated snapshots and vendor prefixes: `gpt-4o-mini-2024-07-18`, `openai/gpt-4o`.
        let bare = model.rsplit('/').next().unwrap_or(model);
        self.table
            .iter()
            .filter(|(k, _)| bare == k.as_str() || bare.starts_with(&format!("{k}-")))
            .max_by_key(|(k, _)| k.len())
            .map(|(_, p)| *p)
    }
}

/// A rough token count for estimates: about four characters a token for English and code.
pub fn estimate_tokens(chars: usize) -> u64 {
    (chars as u64).div_ceil(4)
}

/// What a run is about to cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Estimate {
    pub calls: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// `None` when some variant's model has no known price.
    pub cost: Option<f64>,
    pub unpriced: Vec<String>,
}

/// Why a run's estimate does not fit its budget: verity refuses to start it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OverBudget {
    #[error("the estimated cost ${estimate:.4} exceeds --max-cost ${max:.4}")]
    Cost { estimate: f64, max: f64 },
    #[error(
        "--max-cost ${max:.4} is set but these models have no known price: {} (add [prices.\"MODEL\"] to verity.toml)",
        models.join(", ")
    )]
    Unpriced { max: f64, models: Vec<String> },
    #[error("the estimated {estimate} tokens exceed --max-tokens {max}")]
    Tokens { estimate: u64, max: u64 },
}

impl OverBudget {
    pub fn kind(&self) -> verity_model::ErrorKind {
        verity_model::ErrorKind::Refused
    }
}

/// Spend limits (`--max-cost`, `--max-tokens`) and what has been spent so far.
#[derive(Debug, Default)]
pub struct Budget {
    pub max_cost: Option<f64>,
    pub max_tokens: Option<u64>,
    spent: Mutex<(f64, u64)>,
}

impl Budget {
    pub fn new(max_cost: Option<f64>, max_tokens: Option<u64>) -> Self {
        Budget {
            max_cost,
            max_tokens,
            spent: Mutex::new((0.0, 0)),
        }
    }

    /// Whether a pre-flight estimate fits; the error says what does not.
    pub fn admits(&self, e: &Estimate) -> Result<(), OverBudget> {
        if let (Some(max), Some(cost)) = (self.max_cost, e.cost)
            && cost > max
        {
            return Err(OverBudget::Cost {
                estimate: cost,
                max,
            });
        }
        if let (Some(max), None) = (self.max_cost, e.cost) {
            return Err(OverBudget::Unpriced {
                max,
                models: e.unpriced.clone(),
            });
        }
        let tokens = e.input_tokens + e.output_tokens;
        if let Some(max) = self.max_tokens
            && tokens > max
        {
            return Err(OverBudget::Tokens {
                estimate: tokens,
                max,
            });
        }
        Ok(())
    }

    /// Records a call's spend; returns true when a limit has now been reached.
    pub fn spend(&self, cost: f64, tokens: u64) -> bool {
        let mut s = self.spent.lock().unwrap_or_else(|e| e.into_inner());
        s.0 += cost;
        s.1 += tokens;
        self.max_cost.is_some_and(|m| s.0 >= m) || self.max_tokens.is_some_and(|m| s.1 >= m)
    }

    pub fn spent(&self) -> (f64, u64) {
        *self.spent.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_by_name_snapshot_and_prefix() {
        let p = Prices::with_overrides(&BTreeMap::from([(
            "my-model".to_string(),
            Price {
                input: 1.0,
                output: 2.0,
            },
        )]));
        assert_eq!(p.lookup("openai", "gpt-4o-mini").unwrap().input, 0.15);
        assert_eq!(
            p.lookup("openai", "gpt-4o-mini-2024-07-18").unwrap().input,
            0.15,
            "longest prefix wins over gpt-4o"
        );
        assert_eq!(p.lookup("openai", "gpt-4o-2024-08-06").unwrap().input, 2.5);
        assert_eq!(p.lookup("openai", "my-model").unwrap().output, 2.0);
        assert!(p.lookup("openai", "unknown-model").is_none());
        assert_eq!(p.lookup("mock", "anything").unwrap().input, 0.0);
        assert!(
            (Price {
                input: 0.15,
                output: 0.6
            }
            .cost(1_000_000, 500_000)
                - 0.45)
                .abs()
                < 1e-12
        );
    }

    #[test]
    fn budget_admits_and_stops() {
        let b = Budget::new(Some(1.0), Some(1000));
        let fits = Estimate {
            calls: 1,
            input_tokens: 100,
            output_tokens: 100,
            cost: Some(0.5),
            unpriced: vec![],
        };
        assert!(b.admits(&fits).is_ok());
        let dear = Estimate {
            cost: Some(2.0),
            ..fits.clone()
        };
        assert!(
            b.admits(&dear)
                .unwrap_err()
                .to_string()
                .contains("--max-cost")
        );
        let long = Estimate {
            input_tokens: 5000,
            ..fits.clone()
        };
        assert!(
            b.admits(&long)
                .unwrap_err()
                .to_string()
                .contains("--max-tokens")
        );
        let unknown = Estimate {
            cost: None,
            unpriced: vec!["x".into()],
            ..fits
        };
        assert!(
            b.admits(&unknown)
                .unwrap_err()
                .to_string()
                .contains("no known price")
        );
        assert!(!b.spend(0.4, 400));
        assert!(b.spend(0.7, 10), "cost limit reached");
        assert_eq!(b.spent().1, 410);
    }
}
