//! One sample: render its prompt, ground it, answer it from the cache or the provider
//! (retries, tool rounds), score it and hand it to the writer.

use std::sync::Arc;
use std::time::Instant;

use verity_model::{
    ChatMessage, GenerateRequest, Generation, GroundingMode, Provider, Response, ResponseError,
    Role, SampleKey, SampleRecord, Task, ToolCall, Usage, now_rfc3339,
};
use verity_store::{Observation, Write};

use super::{Ctx, RunEvent};
use crate::WriterError;
use crate::budget::estimate_tokens;
use crate::cache::{CacheMode, cache_key, framed_blake3};
use crate::grounding::{Grounded, MAX_TOOL_ROUNDS, TOOL_NOT_ALLOWED, infra_error, inject_top_k};
use crate::retry::{is_rate_limit, jitter_random};
use crate::scoring::score_sample;
use crate::stop::Stop;

/// Runs one sample to completion and hands it to the writer. The only `Err` is a writer that
/// has stopped; everything a provider or scorer does wrong ends up in the stored sample, except
/// an error that arrives after the run was told to stop: that sample stays unstored (its
/// attempts are kept as observations), so `--resume` sends it again once the cause is fixed.
pub(super) async fn run_sample(
    ctx: &Ctx,
    key: SampleKey,
    task: &Arc<Task>,
) -> Result<(), WriterError> {
    let began = Instant::now();
    let variant = &ctx.variants[&key.variant];
    let provider = &ctx.providers[&key.variant];
    let mut writes: Vec<Write> = Vec::with_capacity(3);

    let response = match ctx.renderer.messages(task, variant) {
        Err(e) => Response {
            error: Some(ResponseError {
                kind: "template".into(),
                message: e.to_string(),
            }),
            ..Response::default()
        },
        Ok(mut messages) => {
            let grounded = ctx.grounding.get(&key.variant);
            let mut recorded = Vec::new();
            let mut failed = None;
            if let Some(g) = grounded
                && g.spec.mode == GroundingMode::InjectTopK
            {
                match inject_top_k(g, task, variant, &mut messages).await {
                    Ok(call) => recorded.push(call),
                    // The failed call is recorded; the sample fails with its reason.
                    Err((call, e)) => {
                        recorded.push(call);
                        failed = Some(e);
                    }
                }
            }
            match failed {
                Some(e) => Response {
                    error: Some(e),
                    tool_calls: recorded,
                    ..Response::default()
                },
                None => {
                    let tools = grounded
                        .filter(|g| g.spec.mode == GroundingMode::Tools)
                        .map(|g| g.offered.clone())
                        .unwrap_or_default();
                    let req = GenerateRequest {
                        sample: key.clone(),
                        task: task.clone(),
                        messages,
                        params: variant.params.clone(),
                        tools,
                    };
                    let mut r = answer(ctx, provider.as_ref(), &req, &mut writes, grounded).await;
                    recorded.append(&mut r.tool_calls);
                    r.tool_calls = recorded;
                    r
                }
            }
        }
    };
    let response = Response {
        latency_ms: began.elapsed().as_millis() as u64,
        ..response
    };
    let (scores, outcome) = score_sample(&ctx.scorers, task, &response);
    let error = response
        .error
        .as_ref()
        .map(|e| format!("{}: {}", e.kind, e.message));
    let cache_hit = response.cache_hit;
    if response.is_error() && ctx.failure.is_raised() {
        return ctx.writer.send(writes, None).await;
    }
    writes.push(Write::Sample {
        run_id: ctx.run_id.clone(),
        scoring: ctx.scoring,
        record: SampleRecord {
            key: key.clone(),
            response,
            scores,
            outcome,
            completed_at: now_rfc3339(),
        },
    });
    let finished = RunEvent::SampleFinished {
        key,
        outcome,
        latency_ms: began.elapsed().as_millis() as u64,
        cache_hit,
        error,
    };
    ctx.writer.send(writes, Some(finished)).await
}

/// Answers one request: from the cache where the mode allows, else from the provider (with
/// retries), storing fresh answers in the cache where the mode allows.
async fn answer(
    ctx: &Ctx,
    provider: &dyn Provider,
    req: &GenerateRequest,
    writes: &mut Vec<Write>,
    grounded: Option<&Grounded>,
) -> Response {
    let prompt_hash = ctx
        .prompt_hashes
        .get(&req.sample.variant)
        .cloned()
        .unwrap_or_default();
    let input_hash = framed_blake3([
        serde_json::to_string(&req.messages)
            .unwrap_or_default()
            .as_bytes(),
        serde_json::to_string(&req.params)
            .unwrap_or_default()
            .as_bytes(),
    ]);
    let key = (ctx.cache != CacheMode::Off).then(|| {
        cache_key(
            provider,
            req,
            &prompt_hash,
            ctx.grounding
                .get(&req.sample.variant)
                .map(|g| g.identity.as_str()),
        )
    });
    if let (Some(key), Some(reader)) = (&key, &ctx.cache_reader) {
        let hit = reader
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .cache_get(key);
        match hit {
            Ok(Some(g)) => {
                writes.push(Write::Observation(
                    Observation::new(
                        &ctx.run_id,
                        &req.sample,
                        1,
                        now_rfc3339(),
                        provider,
                        &prompt_hash,
                        &input_hash,
                    )
                    .cache_hit(&g),
                ));
                return Response {
                    text: g.text,
                    tool_calls: g.tool_calls,
                    usage: g.usage,
                    latency_ms: 0,
                    cache_hit: true,
                    attempts: 0,
                    model: g.model,
                    finish_reason: g.finish_reason,
                    error: None,
                    artifacts: g.artifacts,
                };
            }
            Ok(None) => {}
            Err(e) if ctx.cache == CacheMode::Replay => {
                return Response {
                    error: Some(ResponseError {
                        kind: "cache".into(),
                        message: format!("cache read failed: {e}"),
                    }),
                    ..Response::default()
                };
            }
            // A cache that cannot be read in live mode is a miss: the model is asked instead.
            Err(_) => {}
        }
    }
    if ctx.cache == CacheMode::Replay {
        return Response {
            error: Some(ResponseError {
                kind: "cache_miss".into(),
                message: format!(
                    "no cached answer for sample {} (cache mode replay calls no model)",
                    req.sample
                ),
            }),
            ..Response::default()
        };
    }
    let (response, generation) = generate_with_tools(
        ctx,
        provider,
        req,
        &prompt_hash,
        &input_hash,
        writes,
        grounded,
    )
    .await;
    if let (Some(g), Some(key)) = (generation, key)
        && ctx.cache.writes()
    {
        writes.push(Write::CachePut {
            key,
            provider: provider.kind().to_owned(),
            model: provider.model().to_owned(),
            created_at: now_rfc3339(),
            entry: g,
        });
    }
    response
}

/// In `tools` grounding mode, runs the bounded tool-call loop: the model's tool calls go to
/// the grounding server and its answers back to the model, until the model answers without
/// calling a tool (or `MAX_TOOL_ROUNDS` is reached). Without it, one call with retries.
async fn generate_with_tools(
    ctx: &Ctx,
    provider: &dyn Provider,
    req: &GenerateRequest,
    prompt_hash: &str,
    input_hash: &str,
    writes: &mut Vec<Write>,
    grounded: Option<&Grounded>,
) -> (Response, Option<Generation>) {
    let Some(g) = grounded.filter(|g| g.spec.mode == GroundingMode::Tools) else {
        return call_with_retries(ctx, provider, req, prompt_hash, input_hash, writes).await;
    };
    let mut req = req.clone();
    let mut recorded: Vec<ToolCall> = Vec::new();
    let mut usage = Usage::default();
    let mut attempts = 0;
    let mut round = 0;
    loop {
        let (mut resp, generation) =
            call_with_retries(ctx, provider, &req, prompt_hash, input_hash, writes).await;
        usage.input_tokens += resp.usage.input_tokens;
        usage.output_tokens += resp.usage.output_tokens;
        attempts += resp.attempts;
        if resp.is_error() || resp.tool_calls.is_empty() || round == MAX_TOOL_ROUNDS {
            // The last answer counts; tool calls it still asked for are recorded unanswered.
            recorded.append(&mut resp.tool_calls);
            resp.tool_calls = recorded;
            resp.usage = usage;
            resp.attempts = attempts;
            let cached = generation.filter(|_| !resp.is_error()).map(|mut c| {
                c.tool_calls = resp.tool_calls.clone();
                c.usage = usage;
                c
            });
            return (resp, cached);
        }
        round += 1;
        req.messages.push(ChatMessage {
            role: Role::Assistant,
            content: resp.text.clone(),
            tool_call_id: None,
            tool_calls: resp.tool_calls.clone(),
        });
        for (i, call) in resp.tool_calls.iter().enumerate() {
            let content = if !g.allowed.admits(&call.name) {
                // Never sent: the model reads why and may use an offered tool instead.
                let message = format!(
                    "tool `{}` is not available: this evaluation offers only {}",
                    call.name,
                    offered_names(g)
                );
                recorded.push(ToolCall {
                    error: Some(ResponseError {
                        kind: TOOL_NOT_ALLOWED.into(),
                        message: message.clone(),
                    }),
                    ..call.clone()
                });
                message
            } else {
                match g
                    .server
                    .call(&call.name, call.arguments.clone(), g.call_timeout)
                    .await
                {
                    Ok(out) => {
                        recorded.push(out.to_tool_call(call.id.clone()));
                        out.text
                    }
                    // A tool error or a bad call: the model reads the message and may try again.
                    Err(e) if e.is_model_visible() => {
                        let result = match &e {
                            verity_mcp::McpError::Tool { result, .. } => (**result).clone(),
                            _ => serde_json::json!({ "error": e.to_string() }),
                        };
                        recorded.push(ToolCall {
                            result: Some(result),
                            error: Some(infra_error(&e)),
                            ..call.clone()
                        });
                        e.to_string()
                    }
                    // The server died or timed out: this grounded sample fails with the reason;
                    // the failed call is recorded, and the calls after it unanswered.
                    Err(e) => {
                        recorded.push(ToolCall {
                            error: Some(infra_error(&e)),
                            ..call.clone()
                        });
                        recorded.extend(resp.tool_calls[i + 1..].iter().cloned());
                        return (
                            Response {
                                error: Some(infra_error(&e)),
                                tool_calls: recorded,
                                usage,
                                attempts,
                                ..Response::default()
                            },
                            None,
                        );
                    }
                }
            };
            req.messages.push(ChatMessage {
                role: Role::Tool,
                content,
                tool_call_id: call.id.clone(),
                tool_calls: Vec::new(),
            });
        }
    }
}

/// The tools a `tools`-mode variant offers, for a refusal's message.
fn offered_names(g: &Grounded) -> String {
    let names: Vec<String> = g
        .allowed
        .names(g.server.tools())
        .into_iter()
        .map(|n| format!("`{n}`"))
        .collect();
    if names.is_empty() {
        "no tools".to_owned()
    } else {
        names.join(", ")
    }
}

/// Calls the provider until it answers or the retry policy gives up. Returns the response and,
/// on success, the generation to cache.
async fn call_with_retries(
    ctx: &Ctx,
    provider: &dyn Provider,
    req: &GenerateRequest,
    prompt_hash: &str,
    input_hash: &str,
    writes: &mut Vec<Write>,
) -> (Response, Option<Generation>) {
    let limits = ctx
        .limits
        .get(&req.sample.variant)
        .cloned()
        .unwrap_or_default();
    let est_tokens = estimate_tokens(req.messages.iter().map(|m| m.content.len()).sum())
        + u64::from(req.params.max_tokens.unwrap_or(256));
    let price = ctx.prices.lookup(provider.kind(), provider.model());
    let first_attempt = Instant::now();
    let mut attempt = 0u32;
    // Retries are counted per kind: rate limits on time, the others on count (RetryPolicy).
    let (mut rate_limit_retries, mut other_retries) = (0u32, 0u32);
    loop {
        attempt += 1;
        if let Some(stop) = ctx.failure.get() {
            return (stopped_response(&stop, attempt - 1), None);
        }
        let slot = limits.admit(est_tokens).await;
        let started_at = now_rfc3339();
        let t0 = Instant::now();
        let call_timeout = ctx
            .call_timeout
            .unwrap_or_else(|| provider.default_call_timeout());
        let result = match tokio::time::timeout(call_timeout, provider.generate(req)).await {
            Ok(r) => r,
            Err(_) => Err(verity_model::ProviderError::new(
                verity_model::ProviderErrorKind::Timeout,
                format!("no answer within {call_timeout:?}"),
            )),
        };
        match &result {
            Ok(_) => slot.succeeded(),
            Err(e) if is_rate_limit(e) => slot.rate_limited(),
            Err(_) => {}
        }
        drop(slot);
        if let Some(stop) = limits.health.record(
            result.as_ref().map(|_| ()),
            &req.sample.variant,
            || provider.endpoint(),
            &ctx.fail_fast,
        ) {
            ctx.failure.raise(stop);
        }
        let latency_ms = t0.elapsed().as_millis() as u64;
        let obs = Observation::new(
            &ctx.run_id,
            &req.sample,
            attempt,
            started_at,
            provider,
            prompt_hash,
            input_hash,
        );
        match result {
            Ok(g) => {
                let tokens = g.usage.input_tokens + g.usage.output_tokens;
                limits.settle(est_tokens, tokens).await;
                let cost =
                    price.map_or(0.0, |p| p.cost(g.usage.input_tokens, g.usage.output_tokens));
                if ctx.budget.spend(cost, tokens)
                    && !ctx
                        .budget_hit
                        .swap(true, std::sync::atomic::Ordering::SeqCst)
                {
                    let (cost, tokens) = ctx.budget.spent();
                    let _ = ctx.events.send(RunEvent::BudgetReached { cost, tokens });
                    ctx.shutdown.drain();
                }
                writes.push(Write::Observation(obs.answered(&g, latency_ms)));
                let response = Response {
                    text: g.text.clone(),
                    tool_calls: g.tool_calls.clone(),
                    usage: g.usage,
                    latency_ms: 0,
                    cache_hit: false,
                    attempts: attempt,
                    model: g.model.clone(),
                    finish_reason: g.finish_reason.clone(),
                    error: None,
                    artifacts: g.artifacts.clone(),
                };
                return (response, Some(g));
            }
            Err(e) => {
                writes.push(Write::Observation(obs.failed(&e, latency_ms)));
                let retry = if is_rate_limit(&e) {
                    rate_limit_retries += 1;
                    rate_limit_retries
                } else {
                    other_retries += 1;
                    other_retries
                };
                let delay = if *ctx.abort.borrow() >= 2 || ctx.failure.is_raised() {
                    None
                } else {
                    ctx.retry
                        .delay(retry, &e, first_attempt.elapsed(), jitter_random())
                };
                match delay {
                    Some(d) => {
                        let _ = ctx.events.send(RunEvent::Retrying {
                            key: req.sample.clone(),
                            attempt,
                            delay: d,
                            error: e.message.clone(),
                        });
                        tokio::time::sleep(d).await;
                    }
                    None => {
                        let retries = attempt - 1;
                        let message = if retries > 0 {
                            format!("{} (after {retries} retries)", e.message)
                        } else {
                            e.message.clone()
                        };
                        return (
                            Response {
                                attempts: attempt,
                                error: Some(ResponseError {
                                    kind: e.kind.as_str().to_owned(),
                                    message,
                                }),
                                ..Response::default()
                            },
                            None,
                        );
                    }
                }
            }
        }
    }
}

/// The answer of a call not made because the run is stopping.
fn stopped_response(stop: &Stop, attempts: u32) -> Response {
    Response {
        attempts,
        error: Some(ResponseError {
            kind: "stopped".into(),
            message: format!("not sent: the run is stopping ({stop})"),
        }),
        ..Response::default()
    }
}
