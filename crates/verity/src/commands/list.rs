//! `verity list SUITE`: a suite's tasks.

use std::io::IsTerminal;

use serde_json::json;

use super::{load_suite, use_color};
use crate::cli::{ColorChoice, Format, ListArgs};
use crate::{CliError, exit};

pub(super) fn list(a: ListArgs) -> Result<u8, CliError> {
    let suite = load_suite(
        &a.suite,
        use_color(ColorChoice::Auto, std::io::stderr().is_terminal()),
    )?;
    let tasks: Vec<_> = suite
        .tasks
        .iter()
        .filter(|t| {
            a.category
                .as_deref()
                .is_none_or(|c| t.category.as_deref() == Some(c))
        })
        .collect();
    let mut out = String::new();
    match a.format {
        Format::Json => {
            let v: Vec<_> = tasks
                .iter()
                .map(|t| {
                    json!({"id": t.id, "category": t.category, "prompt": t.input.prompt_text(), "target": t.target, "source": t.source.to_string()})
                })
                .collect();
            out = serde_json::to_string_pretty(&v).unwrap_or_default();
            out.push('\n');
        }
        Format::Table | Format::Md => {
            let idw = tasks
                .iter()
                .map(|t| t.id.chars().count())
                .max()
                .unwrap_or(2)
                .max(2);
            let cw = tasks
                .iter()
                .map(|t| t.category.as_deref().unwrap_or("-").chars().count())
                .max()
                .unwrap_or(8)
                .max(8);
            out.push_str(&format!("{:idw$}  {:cw$}  prompt\n", "id", "category"));
            for t in &tasks {
                let p: String = t
                    .input
                    .prompt_text()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                let p: String = if p.chars().count() > 70 {
                    format!("{}…", p.chars().take(69).collect::<String>())
                } else {
                    p
                };
                out.push_str(&format!(
                    "{:idw$}  {:cw$}  {}\n",
                    t.id,
                    t.category.as_deref().unwrap_or("-"),
                    p
                ));
            }
            out.push_str(&format!("{} tasks\n", tasks.len()));
        }
    }
    print!("{out}");
    Ok(exit::OK)
}
