//! Reading a [`ProviderSpec`]'s free-form `options` table strictly: unknown keys and values of
//! the wrong type are configuration errors, found before any sample runs.

use std::time::Duration;

use serde_json::{Map, Value};
use verity_model::{ProviderError, ProviderErrorKind, ProviderSpec};

pub(crate) fn config_error(kind: &str, message: impl std::fmt::Display) -> ProviderError {
    ProviderError::new(
        ProviderErrorKind::Config,
        format!("provider `{}`: {}", kind, message),
    )
}

/// A provider's view of `spec.options`.
pub(crate) struct Options<'a> {
    kind: &'a str,
    map: &'a Map<String, Value>,
}

impl<'a> Options<'a> {
    /// Checks that every key is one of `known`.
    pub fn new(spec: &'a ProviderSpec, known: &[&str]) -> Result<Self, ProviderError> {
        if let Some(key) = spec.options.keys().find(|k| !known.contains(&k.as_str())) {
            let expected = if known.is_empty() {
                "it takes no options".to_owned()
            } else {
                format!("expected one of: {}", known.join(", "))
            };
            return Err(config_error(
                &spec.kind,
                format!("unknown option `{}` ({})", key, expected),
            ));
        }
        Ok(Options {
            kind: &spec.kind,
            map: &spec.options,
        })
    }

    fn wrong_type(&self, key: &str, expected: &str) -> ProviderError {
        config_error(self.kind, format!("option `{}` must be {}", key, expected))
    }

    pub fn bool(&self, key: &str) -> Result<Option<bool>, ProviderError> {
        match self.map.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(self.wrong_type(key, "true or false")),
        }
    }

    pub fn object(&self, key: &str) -> Result<Option<&'a Map<String, Value>>, ProviderError> {
        match self.map.get(key) {
            None => Ok(None),
            Some(Value::Object(m)) => Ok(Some(m)),
            Some(_) => Err(self.wrong_type(key, "a table (JSON object)")),
        }
    }

    /// A duration given as a number of `unit_secs` (1.0 for seconds, 0.001 for milliseconds).
    /// `positive` rejects zero.
    pub fn duration(
        &self,
        key: &str,
        unit_secs: f64,
        positive: bool,
    ) -> Result<Option<Duration>, ProviderError> {
        let Some(value) = self.map.get(key) else {
            return Ok(None);
        };
        let expected = if positive {
            "a positive number"
        } else {
            "a number, zero or more"
        };
        let n = value
            .as_f64()
            .ok_or_else(|| self.wrong_type(key, expected))?;
        if !n.is_finite() || n < 0.0 || (positive && n == 0.0) {
            return Err(self.wrong_type(key, expected));
        }
        Duration::try_from_secs_f64(n * unit_secs)
            .map(Some)
            .map_err(|_| self.wrong_type(key, "a number of a sensible size"))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn spec(options: Value) -> ProviderSpec {
        ProviderSpec {
            kind: "k".into(),
            options: options.as_object().cloned().unwrap_or_default(),
            ..ProviderSpec::default()
        }
    }

    #[test]
    fn unknown_keys_are_named() {
        let s = spec(json!({"timeout": 3}));
        let err = Options::new(&s, &["timeout_s"]).err().unwrap();
        assert_eq!(err.kind, ProviderErrorKind::Config);
        assert_eq!(
            err.message,
            "provider `k`: unknown option `timeout` (expected one of: timeout_s)"
        );
        let err = Options::new(&s, &[]).err().unwrap();
        assert!(err.message.contains("takes no options"), "{}", err.message);
    }

    #[test]
    fn typed_getters() {
        let s = spec(
            json!({"b": true, "o": {"x": 1}, "s": 1.5, "ms": 250, "zero": 0, "neg": -1, "str": "1"}),
        );
        let o = Options::new(&s, &["b", "o", "s", "ms", "zero", "neg", "str", "missing"]).unwrap();
        assert_eq!(o.bool("b").unwrap(), Some(true));
        assert_eq!(o.bool("missing").unwrap(), None);
        assert!(o.bool("s").is_err());
        assert_eq!(o.object("o").unwrap().map(Map::len), Some(1));
        assert!(o.object("b").is_err());
        assert_eq!(
            o.duration("s", 1.0, true).unwrap(),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(
            o.duration("ms", 0.001, false).unwrap(),
            Some(Duration::from_millis(250))
        );
        assert_eq!(
            o.duration("zero", 0.001, false).unwrap(),
            Some(Duration::ZERO)
        );
        assert!(o.duration("zero", 1.0, true).is_err());
        assert!(o.duration("neg", 1.0, false).is_err());
        assert!(o.duration("str", 1.0, false).is_err());
        let huge = spec(json!({"t": 1e300}));
        assert!(
            Options::new(&huge, &["t"])
                .unwrap()
                .duration("t", 1.0, true)
                .is_err()
        );
    }
}
