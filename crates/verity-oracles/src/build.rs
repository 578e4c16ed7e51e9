//! Scorers from their specs: the kinds are the catalog's, the scorers are here and in
//! `verity-swift`.

use serde_json::Value;
use verity_catalog::determinism::{CanonOpts, Normalize, SimilarityOpts};
use verity_catalog::schema;
use verity_catalog::text::{TextOpts, string_list};
use verity_catalog::{check_spec, criteria};
use verity_model::{ConfigIssue, Scorer, ScorerSpec};

use crate::text::{Contains, Equals, Identical, JsonValid, RegexMatch};

/// Builds a scorer from its spec. Call [`check_spec`] first for all issues at once; this stops
/// at the first.
pub fn build(spec: &ScorerSpec) -> Result<Box<dyn Scorer>, ConfigIssue> {
    if let Some(issue) = check_spec(spec).into_iter().next() {
        return Err(issue);
    }
    let name = spec.instance_name().to_owned();
    // The text scorers' one criterion, as `criteria` names it.
    let criterion = criteria(spec)
        .and_then(|c| c.into_iter().next())
        .unwrap_or_else(|| name.clone());
    let o = &spec.options;
    let opts = TextOpts::from_options(o);
    Ok(match spec.kind.as_str() {
        "equals" => Box::new(Equals {
            name,
            criterion,
            opts,
        }),
        "contains" => Box::new(Contains {
            name,
            criterion,
            values: o.get("values").and_then(string_list),
            opts,
        }),
        "regex" => {
            let pattern = match o.get("pattern").and_then(Value::as_str) {
                Some(p) => Some(
                    opts.regex(p)
                        .map_err(|e| ConfigIssue::new(Some("pattern"), e))?,
                ),
                None => None,
            };
            let must_match = o.get("must_match").and_then(Value::as_bool).unwrap_or(true);
            Box::new(RegexMatch {
                name,
                criterion,
                pattern,
                must_match,
                opts,
            })
        }
        "json-valid" => Box::new(JsonValid {
            name,
            criterion,
            raw: o.get("extract").and_then(Value::as_str) == Some("raw"),
        }),
        "json-schema" => {
            // `check_spec` passed: the schema is there (the loader inlined it) and compiles, and
            // the rules parse. Compiled here, once per scorer, not once per sample.
            let schema = o.get("schema").ok_or_else(|| {
                ConfigIssue::new(
                    Some("schema"),
                    format!(
                        "the schema file {} was not read into the suite",
                        o.get("schema_file").and_then(Value::as_str).unwrap_or("?")
                    ),
                )
            })?;
            let validator = schema::compile(schema, o.get("draft").and_then(Value::as_str))
                .map_err(|e| ConfigIssue::new(Some("schema"), e))?;
            let rules = match o.get("rules") {
                Some(r) => schema::parse_rules(r).map_err(|mut issues| issues.swap_remove(0))?,
                None => Vec::new(),
            };
            Box::new(crate::schema::JsonSchema {
                name,
                validator,
                raw: o.get("extract").and_then(Value::as_str) == Some("raw"),
                rules,
            })
        }
        "swift" => Box::new(verity_swift::SwiftScorer::from_options(&name, o)?),
        "stability" => Box::new(crate::stability::Stability {
            name,
            criterion,
            by: o
                .get("by")
                .and_then(Value::as_str)
                .unwrap_or("perturbation_of")
                .to_owned(),
            compare: o
                .get("compare")
                .and_then(Value::as_str)
                .unwrap_or("claims")
                .to_owned(),
            tail: o
                .get("tail")
                .and_then(Value::as_u64)
                .map_or(2, |t| t as usize),
        }),
        "claims" => Box::new(crate::claims::Claims {
            name,
            opts: verity_catalog::claims::ClaimsOpts::from_options(o),
        }),
        "citations" => Box::new(crate::citations::Citations {
            name,
            mode: verity_catalog::citations::Mode::from_options(o),
            repos: crate::citations::indexes_from_options(o)?,
            checkouts: o
                .get("checkouts")
                .and_then(Value::as_str)
                .map(std::path::PathBuf::from),
            test_command: o.get("test_command").and_then(Value::as_array).map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            }),
        }),
        "citation-consistency" => Box::new(crate::citations::consistency::Consistency {
            name,
            by: verity_catalog::citations::group_by(o).to_owned(),
            min_jaccard: verity_catalog::citations::min_jaccard(o),
            mode: verity_catalog::citations::Mode::from_options(o),
            // Optional here: without facts, cited paths are compared as written.
            repos: if o.contains_key("facts_data") || o.contains_key("facts") {
                crate::citations::indexes_from_options(o)?
            } else {
                Default::default()
            },
        }),
        "stages" => Box::new(crate::stages::Stages {
            name,
            criterion,
            deterministic: o
                .get("deterministic")
                .and_then(string_list)
                .unwrap_or_default(),
        }),
        "identical" => Box::new(Identical {
            name,
            criterion,
            normalize: o
                .get("normalize")
                .and_then(Value::as_str)
                .and_then(Normalize::parse)
                .unwrap_or(Normalize::Trim),
            canon: CanonOpts::from_options(o),
        }),
        "similarity" => Box::new(crate::similarity::Similarity {
            name,
            criterion,
            opts: SimilarityOpts::from_options(o),
        }),
        other => {
            return Err(ConfigIssue::new(
                Some("kind"),
                format!("unknown scorer kind `{other}`"),
            ));
        }
    })
}
