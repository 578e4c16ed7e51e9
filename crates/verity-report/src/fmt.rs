//! Number and text formatting shared by the text renderers.

use crate::view::Rate;

/// `62.5%`.
pub(crate) fn pct(v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

/// The rate as a percentage, or `-` when nothing was counted.
pub(crate) fn rate(r: &Rate) -> String {
    r.value().map(pct).unwrap_or_else(|| "-".into())
}

/// `[40.9%, 80.3%]`, or `-`.
pub(crate) fn ci(r: &Rate) -> String {
    r.ci95()
        .map(|(lo, hi)| format!("[{}, {}]", pct(lo), pct(hi)))
        .unwrap_or_else(|| "-".into())
}

/// A duration in milliseconds: `850ms`, `1.2s`, `1m 23s`, `2h 03m`.
pub(crate) fn duration(ms: u64) -> String {
    if ms < 1_000 {
        format!("{ms}ms")
    } else if ms < 60_000 {
        format!("{:.1}s", ms as f64 / 1000.0)
    } else if ms < 3_600_000 {
        let s = ms / 1000;
        format!("{}m {:02}s", s / 60, s % 60)
    } else {
        let m = ms / 60_000;
        format!("{}h {:02}m", m / 60, m % 60)
    }
}

/// An optional duration, `-` when absent.
pub(crate) fn opt_duration(ms: Option<u64>) -> String {
    ms.map(duration).unwrap_or_else(|| "-".into())
}

/// A mean latency, rounded to the millisecond.
pub(crate) fn mean_ms(ms: Option<f64>) -> String {
    ms.map(|m| duration(m.round() as u64))
        .unwrap_or_else(|| "-".into())
}

/// A p-value or statistic: four decimals, scientific below 1e-4.
pub(crate) fn num(p: f64) -> String {
    if p != 0.0 && p.abs() < 1e-4 {
        format!("{p:.2e}")
    } else {
        format!("{p:.4}")
    }
}

/// A count that may be fractional (weighted tp / fp / fn): an integer when it is one.
pub(crate) fn count(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

/// At most `width` characters, with `…` marking a cut; `width == 0` means no limit.
pub(crate) fn truncate(s: &str, width: usize) -> String {
    if width == 0 || s.chars().count() <= width {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// `s` cut to fit a line of `width` characters of which `used` are already taken;
/// `width == 0` means no limit. At least one character always remains.
pub(crate) fn fit(s: &str, width: usize, used: usize) -> String {
    if width == 0 {
        s.to_owned()
    } else {
        truncate(s, width.saturating_sub(used).max(1))
    }
}

/// A short prefix of a hash for the terminal.
pub(crate) fn short_hash(h: &str) -> String {
    h.chars().take(12).collect()
}

/// The outcome rule in words, e.g. `all of parse, symbols_exist; errors count as failures`.
pub(crate) fn outcome_rule(rule: &verity_model::OutcomeRule) -> String {
    use verity_model::{ErrorPolicy, OutcomeMode};
    let mode = match rule.mode {
        OutcomeMode::All => "all",
        OutcomeMode::Any => "any",
    };
    let criteria = match &rule.criteria {
        Some(c) => format!("{mode} of {}", c.join(", ")),
        None => format!("{mode} criteria"),
    };
    let errors = match rule.errors {
        ErrorPolicy::Fail => "errors count as failures",
        ErrorPolicy::Exclude => "errors are excluded from rates",
    };
    format!("{criteria} must pass; {errors}")
}

/// `docs inject-top-k k=5`, or `-`.
pub(crate) fn grounding(g: Option<&verity_model::GroundingSpec>) -> String {
    use verity_model::GroundingMode;
    match g {
        None => "-".into(),
        Some(g) => match g.mode {
            GroundingMode::InjectTopK => format!("{} inject-top-k k={}", g.server, g.k),
            GroundingMode::Tools => format!("{} tools", g.server),
        },
    }
}

/// The run's task ids, when there are few enough to list (the seed-004 header's fixture
/// list), else how many there are.
pub(crate) fn task_list(view: &crate::RunView) -> String {
    const MAX_LISTED: usize = 20;
    if view.tasks.len() <= MAX_LISTED {
        view.tasks
            .iter()
            .map(|t| t.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    } else {
        format!("{} tasks", view.tasks.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(duration(850), "850ms");
        assert_eq!(duration(1_234), "1.2s");
        assert_eq!(duration(83_000), "1m 23s");
        assert_eq!(duration(7_380_000), "2h 03m");
        assert_eq!(num(0.0625), "0.0625");
        assert_eq!(num(5.96e-8), "5.96e-8");
        assert_eq!(num(0.0), "0.0000");
        assert_eq!(count(3.0), "3");
        assert_eq!(count(2.5), "2.50");
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
        assert_eq!(truncate("abcdef", 0), "abcdef");
        assert_eq!(fit("abcdef", 0, 10), "abcdef");
        assert_eq!(fit("abcdef", 5, 10), "…");
        assert_eq!(fit("abcdef", 8, 4), "abc…");
        assert_eq!(rate(&Rate { successes: 1, n: 8 }), "12.5%");
        assert_eq!(rate(&Rate::default()), "-");
        assert_eq!(ci(&Rate::default()), "-");
    }
}
