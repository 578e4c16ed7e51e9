//! What a plan would cost, before it runs.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use verity_model::{Provider, SampleKey, Task};
use verity_store::{Store, TaskPages};
use verity_suite::render::Renderer;

use crate::budget::{Estimate, Prices, estimate_tokens};
use crate::{Plan, PlanError, RunError};

/// What running `plan` would cost: every sample not in `skip` rendered and counted. Output
/// tokens are estimated at the variant's `max_tokens`, or 256 when it sets none. The plan's
/// tasks are read from `store` a page at a time.
pub fn estimate(
    plan: &Plan,
    providers: &HashMap<String, Arc<dyn Provider>>,
    prices: &Prices,
    skip: &HashSet<SampleKey>,
    store: &Store,
) -> Result<Estimate, RunError> {
    let renderer = Renderer::new(&plan.suite).map_err(|e| PlanError::Templates(e.to_string()))?;
    let mut e = Estimate {
        cost: Some(0.0),
        ..Estimate::default()
    };
    let variants: Vec<_> = plan
        .suite
        .variants
        .iter()
        .filter_map(|v| {
            let p = providers.get(&v.name)?;
            let price = prices.lookup(p.kind(), p.model());
            if price.is_none() {
                e.unpriced.push(format!("{}/{}", p.kind(), p.model()));
            }
            Some((v, price, u64::from(v.params.max_tokens.unwrap_or(256))))
        })
        .collect();
    let mut count = |task: &Task| {
        for (v, price, out_per_call) in &variants {
            let mut chars = None;
            for epoch in 0..plan.suite.epochs {
                let key = SampleKey {
                    task_id: task.id.clone(),
                    variant: v.name.clone(),
                    epoch,
                };
                if skip.contains(&key) {
                    continue;
                }
                let chars = *chars.get_or_insert_with(|| match renderer.messages(task, v) {
                    Ok(ms) => ms.iter().map(|m| m.content.len()).sum(),
                    Err(_) => 0,
                });
                let input = estimate_tokens(chars);
                e.calls += 1;
                e.input_tokens += input;
                e.output_tokens += out_per_call;
                e.cost = match (e.cost, price) {
                    (Some(c), Some(p)) => Some(c + p.cost(input, *out_per_call)),
                    _ => None,
                };
            }
        }
    };
    let mut pages = TaskPages::new(&plan.run_id);
    while let Some(page) = pages.next(store)? {
        page.iter().for_each(&mut count);
    }
    e.unpriced.sort();
    e.unpriced.dedup();
    Ok(e)
}
