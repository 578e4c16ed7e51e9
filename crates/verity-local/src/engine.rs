//! The inference thread: one per loaded model, continuous batching.
//!
//! Requests arrive on a channel. The thread keeps up to `batch` sequences active; each step it
//! runs one [`Model::forward`](crate::model::Model::forward) over all of them together — the whole prompt of a sequence that
//! just arrived (its prefill), one token for each sequence already generating — then samples
//! one token per sequence (from the tokens its grammar allows, for a request with a
//! [`Constraint`]), checks the stop conditions and answers the finished ones. A request
//! whose caller has gone away (its future was dropped: timeout, cancellation) is dropped from
//! the batch at the next step. The tokio runtime is never blocked: callers await a oneshot
//! channel.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender};
use std::time::{Duration, Instant};

use crate::constrain::Constraint;
use crate::loaded::Loaded;
use crate::model::KvCache;

/// How to sample.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampling {
    /// `0` (or less): greedy.
    pub temperature: f64,
    pub top_p: f64,
    pub seed: u64,
}

/// One generation request.
#[derive(Debug)]
pub struct Job {
    pub prompt: Vec<u32>,
    pub max_tokens: usize,
    pub stop: Vec<String>,
    pub sampling: Sampling,
    /// The grammar every sampled token must keep to (a `response_schema`), if any: each step
    /// the tokens it does not allow are masked out of this sequence's logits, and the answer
    /// ends once the document is complete.
    pub constraint: Option<Constraint>,
    pub reply: tokio::sync::oneshot::Sender<Result<Output, JobError>>,
}

/// What a finished request gets.
#[derive(Clone, Debug, PartialEq)]
pub struct Output {
    pub text: String,
    pub tokens: Vec<u32>,
    pub prompt_tokens: usize,
    /// `stop` (end of turn, a stop string, or a constrained answer complete) or `length`
    /// (max tokens or context; a constrained answer may then be incomplete).
    pub finish_reason: &'static str,
    /// Time from admission to the first sampled token (the prefill).
    pub prefill: Duration,
    /// Time from the first to the last sampled token.
    pub decode: Duration,
    /// Time spent queued before admission.
    pub queued: Duration,
    /// The largest number of sequences this request shared a forward pass with (itself
    /// included).
    pub max_batch: usize,
    /// Prompt tokens whose attention state came from an earlier prompt with the same start
    /// instead of being computed.
    pub reused_prompt_tokens: usize,
    /// Time spent computing this request's grammar masks (zero without a constraint).
    pub mask: Duration,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JobError {
    #[error("the prompt has {prompt} tokens, which leaves no room in the context of {context}")]
    PromptTooLong { prompt: usize, context: usize },
    /// The grammar engine failed mid-answer (a limit of llguidance's, for example).
    #[error("the response schema's grammar failed after {tokens} tokens: {message}")]
    Constraint { tokens: usize, message: String },
}

/// Engine settings.
#[derive(Clone, Copy, Debug)]
pub struct EngineConfig {
    pub threads: usize,
    pub batch: usize,
    pub context: usize,
    /// At most this many prompt tokens of one sequence per step (longer prompts are prefilled
    /// in chunks, which gives identical results).
    pub prefill_chunk: usize,
    /// Bytes of recent prompts' attention caches kept for reuse (the engine's prefix cache); 0
    /// turns reuse off.
    pub prefix_cache_bytes: usize,
}

/// A new prompt reuses a cached prompt's attention state only for at least this many tokens.
const MIN_REUSE: usize = 4;

/// The attention caches of recently prefilled prompts, so a new prompt that starts the same
/// way (the chat template and system prompt, a suite's shared instructions) feeds only the
/// tokens after the common part. A position's keys and values depend only on the tokens up to
/// it, and every row of a forward pass is computed the same way whatever else is in it, so the
/// reused state is bit for bit what feeding the prefix again would give: answers do not change
/// (tested), only the prefill work. Least recently used entries go first; it never holds more
/// than its byte budget.
/// How many leading tokens `a` and `b` share.
fn common_prefix(a: &[u32], b: &[u32]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Whether a waiting `prompt` should stay queued for a step because an active sequence is
/// still prefilling a longer common start than the cache holds: once that prefill ends its
/// state is cached and this prompt skips it. A burst of requests (every run starts with one)
/// would otherwise prefill the shared template and instructions once per sequence. Only
/// timing changes, never an answer; it waits at most until that prefill is done.
fn worth_waiting(prompt: &[u32], active: &[Seq], prefixes: &PrefixCache) -> bool {
    let cached = prefixes.reusable(prompt);
    let limit = prompt.len().saturating_sub(1);
    active.iter().any(|s| {
        s.fed < s.job.prompt.len()
            && common_prefix(&s.job.prompt, prompt).min(limit) >= cached + MIN_REUSE
    })
}

struct PrefixCache {
    /// Most recently used last.
    entries: Vec<(Vec<u32>, KvCache)>,
    bytes: usize,
    max_bytes: usize,
}

impl PrefixCache {
    fn new(max_bytes: usize) -> PrefixCache {
        PrefixCache {
            entries: Vec::new(),
            bytes: 0,
            max_bytes,
        }
    }

    /// The entry [`PrefixCache::lookup`] takes for `prompt` and how many of its tokens: the
    /// longest common start (the most recent entry on a tie), leaving the prompt's last token
    /// to feed (its logits are the first answer), if at least [`MIN_REUSE`] long.
    fn best(&self, prompt: &[u32]) -> Option<(usize, usize)> {
        let limit = prompt.len().saturating_sub(1);
        let (i, n) = self
            .entries
            .iter()
            .enumerate()
            .map(|(i, (t, _))| (i, common_prefix(t, prompt).min(limit)))
            .max_by_key(|&(i, n)| (n, i))?;
        (n >= MIN_REUSE).then_some((i, n))
    }

    /// How many tokens of `prompt` [`PrefixCache::lookup`] would reuse now.
    fn reusable(&self, prompt: &[u32]) -> usize {
        self.best(prompt).map_or(0, |(_, n)| n)
    }

    /// The state after the longest cached prefix of `prompt` (see [`PrefixCache::best`]).
    fn lookup(&mut self, prompt: &[u32]) -> Option<KvCache> {
        let (i, n) = self.best(prompt)?;
        let entry = self.entries.remove(i);
        let reused = entry.1.prefix(n);
        self.entries.push(entry);
        Some(reused)
    }

    /// Keeps the state of a fully fed prompt. An entry it extends is replaced.
    fn insert(&mut self, prompt: &[u32], cache: &KvCache) {
        let size = cache.bytes();
        if size > self.max_bytes || prompt.len() < MIN_REUSE {
            return;
        }
        let mut freed = 0;
        self.entries.retain(|(t, c)| {
            let extended = prompt.starts_with(t);
            if extended {
                freed += c.bytes();
            }
            !extended
        });
        self.bytes -= freed;
        if self
            .entries
            .iter()
            .any(|(t, _)| t.len() >= prompt.len() && t.starts_with(prompt))
        {
            return;
        }
        while self.bytes + size > self.max_bytes && !self.entries.is_empty() {
            let (_, old) = self.entries.remove(0);
            self.bytes -= old.bytes();
        }
        self.bytes += size;
        self.entries
            .push((prompt.to_vec(), cache.prefix(prompt.len())));
    }
}

struct Seq {
    job: Job,
    cache: KvCache,
    /// Prompt tokens fed so far (the first `reused` of them from the prefix cache).
    fed: usize,
    reused: usize,
    generated: Vec<u32>,
    rng: u64,
    admitted: Instant,
    queued: Duration,
    first_token: Option<Instant>,
    max_batch: usize,
    mask: Duration,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The index of the largest logit (the first on ties; NaN never wins).
pub fn argmax(logits: &[f32]) -> u32 {
    let mut best = 0;
    let mut best_v = f32::NEG_INFINITY;
    for (i, &v) in logits.iter().enumerate() {
        if v > best_v {
            best = i;
            best_v = v;
        }
    }
    best as u32
}

/// Samples from `softmax(logits / temperature)` restricted to the top-`top_p` mass.
pub fn sample(logits: &[f32], s: &Sampling, rng: &mut u64) -> u32 {
    if s.temperature <= 0.0 || !s.temperature.is_finite() {
        return argmax(logits);
    }
    let t = s.temperature as f32;
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut probs: Vec<(u32, f32)> = logits
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_finite())
        .map(|(i, &v)| (i as u32, ((v - max) / t).exp()))
        .collect();
    if probs.is_empty() {
        return 0;
    }
    probs.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let total: f32 = probs.iter().map(|p| p.1).sum();
    let top_p = if s.top_p > 0.0 && s.top_p < 1.0 {
        s.top_p as f32
    } else {
        1.0
    };
    let mut keep = probs.len();
    let mut acc = 0.0;
    for (i, p) in probs.iter().enumerate() {
        acc += p.1 / total;
        if acc >= top_p {
            keep = i + 1;
            break;
        }
    }
    probs.truncate(keep);
    let kept: f32 = probs.iter().map(|p| p.1).sum();
    let u = (splitmix(rng) >> 40) as f32 / (1u64 << 24) as f32 * kept;
    let mut acc = 0.0;
    for p in &probs {
        acc += p.1;
        if u < acc {
            return p.0;
        }
    }
    probs[probs.len() - 1].0
}

/// Where the earliest stop string starts in `text`, if any.
pub fn find_stop(text: &str, stop: &[String]) -> Option<usize> {
    stop.iter()
        .filter(|s| !s.is_empty())
        .filter_map(|s| text.find(s.as_str()))
        .min()
}

/// Runs the inference loop until every sender is gone.
pub fn run(loaded: Arc<Loaded>, cfg: EngineConfig, pool: rayon::ThreadPool, rx: Receiver<Job>) {
    let mut waiting: VecDeque<(Job, Instant)> = VecDeque::new();
    let mut active: Vec<Seq> = Vec::new();
    let model = &loaded.model;
    let tok = &loaded.tokenizer;
    let mut prefixes = PrefixCache::new(cfg.prefix_cache_bytes);
    loop {
        if active.is_empty() && waiting.is_empty() {
            match rx.recv() {
                Ok(j) => waiting.push_back((j, Instant::now())),
                Err(_) => return,
            }
        }
        while let Ok(j) = rx.try_recv() {
            waiting.push_back((j, Instant::now()));
        }
        waiting.retain(|(j, _)| !j.reply.is_closed());
        active.retain(|s| !s.job.reply.is_closed());
        while active.len() < cfg.batch {
            // The first waiting job that would not rather wait for a sequence still prefilling
            // the same start (see `worth_waiting`).
            let next = waiting.iter().position(|(j, _)| {
                cfg.prefix_cache_bytes == 0 || !worth_waiting(&j.prompt, &active, &prefixes)
            });
            let Some((job, at)) = next.and_then(|i| waiting.remove(i)) else {
                break;
            };
            if job.prompt.len() + 1 > cfg.context {
                let err = JobError::PromptTooLong {
                    prompt: job.prompt.len(),
                    context: cfg.context,
                };
                let _ = job.reply.send(Err(err));
                continue;
            }
            let rng = job.sampling.seed;
            let (cache, fed) = match prefixes.lookup(&job.prompt) {
                Some(c) => {
                    let n = c.len;
                    (c, n)
                }
                None => (KvCache::new(&model.cfg), 0),
            };
            active.push(Seq {
                reused: fed,
                job,
                cache,
                fed,
                generated: Vec::new(),
                rng,
                admitted: Instant::now(),
                queued: at.elapsed(),
                first_token: None,
                max_batch: 0,
                mask: Duration::ZERO,
            });
        }
        if active.is_empty() {
            continue;
        }
        // This step's new tokens for each sequence.
        let inputs: Vec<Vec<u32>> = active
            .iter()
            .map(|s| {
                if s.fed < s.job.prompt.len() {
                    let end = (s.fed + cfg.prefill_chunk).min(s.job.prompt.len());
                    s.job.prompt[s.fed..end].to_vec()
                } else {
                    s.generated.last().copied().into_iter().collect()
                }
            })
            .collect();
        let n = active.len();
        let logits = {
            let mut caches: Vec<&mut KvCache> = active.iter_mut().map(|s| &mut s.cache).collect();
            let refs: Vec<&[u32]> = inputs.iter().map(Vec::as_slice).collect();
            pool.install(|| model.forward(&mut caches, &refs))
        };
        let mut finished = Vec::new();
        let mut failed = Vec::new();
        for (i, (s, mut lg)) in active.iter_mut().zip(logits).enumerate() {
            s.max_batch = s.max_batch.max(n);
            if s.fed < s.job.prompt.len() {
                s.fed += inputs[i].len();
                if s.fed < s.job.prompt.len() {
                    continue; // more prompt to feed
                }
                if cfg.prefix_cache_bytes > 0 {
                    prefixes.insert(&s.job.prompt, &s.cache);
                }
            }
            if let Some(c) = &mut s.job.constraint {
                let t = Instant::now();
                let masked = c.mask(&mut lg);
                s.mask += t.elapsed();
                if let Err(message) = masked {
                    failed.push((i, s.generated.len(), message));
                    continue;
                }
            }
            let next = sample(&lg, &s.job.sampling, &mut s.rng);
            if s.first_token.is_none() {
                s.first_token = Some(Instant::now());
            }
            let mut reason = None;
            if tok.stop_ids.contains(&next) {
                reason = Some("stop");
            } else {
                s.generated.push(next);
                if let Some(c) = &mut s.job.constraint {
                    let t = Instant::now();
                    let committed = c.commit(next);
                    s.mask += t.elapsed();
                    if let Err(message) = committed {
                        failed.push((i, s.generated.len() - 1, message));
                        continue;
                    }
                    if c.is_finished() {
                        // The document is complete: only the end of turn could follow.
                        reason = Some("stop");
                    }
                }
                if reason.is_none() && !s.job.stop.is_empty() {
                    let text = tok.decode(&s.generated);
                    if find_stop(&text, &s.job.stop).is_some() {
                        reason = Some("stop");
                    }
                }
                if reason.is_none()
                    && (s.generated.len() >= s.job.max_tokens || s.cache.len + 1 >= cfg.context)
                {
                    reason = Some("length");
                }
            }
            if let Some(r) = reason {
                finished.push((i, r));
            }
        }
        // Both lists are in index order; remove from the highest index down.
        let mut done: Vec<(usize, Result<&'static str, JobError>)> = finished
            .into_iter()
            .map(|(i, r)| (i, Ok(r)))
            .chain(
                failed
                    .into_iter()
                    .map(|(i, tokens, message)| (i, Err(JobError::Constraint { tokens, message }))),
            )
            .collect();
        done.sort_by_key(|&(i, _)| std::cmp::Reverse(i));
        for (i, result) in done {
            let s = active.swap_remove(i);
            let out = result.map(|reason| finish(&s, tok, reason));
            let _ = s.job.reply.send(out);
        }
    }
}

fn finish(s: &Seq, tok: &crate::tokenizer::Tokenizer, reason: &'static str) -> Output {
    let mut text = tok.decode(&s.generated);
    if let Some(at) = find_stop(&text, &s.job.stop) {
        text.truncate(at);
    }
    let first = s.first_token.unwrap_or(s.admitted);
    Output {
        text,
        prompt_tokens: s.job.prompt.len(),
        tokens: s.generated.clone(),
        finish_reason: reason,
        prefill: first - s.admitted,
        decode: first.elapsed(),
        queued: s.queued,
        max_batch: s.max_batch,
        reused_prompt_tokens: s.reused,
        mask: s.mask,
    }
}

/// A handle that feeds the inference thread.
pub struct Engine {
    pub loaded: Arc<Loaded>,
    pub cfg: EngineConfig,
    tx: std::sync::Mutex<Option<Sender<Job>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("loaded", &self.loaded)
            .field("cfg", &self.cfg)
            .finish()
    }
}

impl Engine {
    /// Starts the inference thread for `loaded`.
    pub fn start(
        loaded: Arc<Loaded>,
        cfg: EngineConfig,
        pool: rayon::ThreadPool,
    ) -> std::io::Result<Engine> {
        let (tx, rx) = std::sync::mpsc::channel();
        let l = loaded.clone();
        let thread = std::thread::Builder::new()
            .name("verity-local-inference".to_owned())
            .spawn(move || run(l, cfg, pool, rx))?;
        Ok(Engine {
            loaded,
            cfg,
            tx: std::sync::Mutex::new(Some(tx)),
            thread: Some(thread),
        })
    }

    /// Queues a job; `false` if the inference thread is gone.
    pub fn submit(&self, job: Job) -> bool {
        let guard = self.tx.lock().unwrap_or_else(|e| e.into_inner());
        guard.as_ref().is_some_and(|tx| tx.send(job).is_ok())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.tx.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_cache_reuses_the_longest_common_start_within_its_budget() {
        // 2 layers, 3 keys and 3 values per position: 48 bytes per position.
        let cache = |len: usize| KvCache::filled(2, 3, len);
        let mut pc = PrefixCache::new(48 * 40);
        assert!(pc.lookup(&[1, 2, 3, 4, 5]).is_none());
        pc.insert(&[1, 2, 3, 4, 5, 6, 7, 8], &cache(8));
        // Shares 6 tokens; the whole prompt is never reused, its last token must be fed.
        assert_eq!(pc.lookup(&[1, 2, 3, 4, 5, 6, 9]).map(|c| c.len), Some(6));
        assert_eq!(pc.lookup(&[1, 2, 3, 4, 5, 6, 7, 8]).map(|c| c.len), Some(7));
        // Fewer than MIN_REUSE tokens in common: nothing.
        assert!(pc.lookup(&[1, 2, 3, 9, 9]).is_none());
        // A longer prompt with the same start replaces the entry it extends.
        pc.insert(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], &cache(10));
        assert_eq!(pc.entries.len(), 1);
        assert_eq!(pc.bytes, 480);
        // A prefix of a cached prompt adds nothing.
        pc.insert(&[1, 2, 3, 4, 5], &cache(5));
        assert_eq!(pc.entries.len(), 1);
        // Over budget, the least recently used goes.
        pc.insert(&[7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7], &cache(12));
        pc.insert(&[8; 20], &cache(20));
        assert!(pc.bytes <= 48 * 40, "{}", pc.bytes);
        assert!(pc.lookup(&[1, 2, 3, 4, 5, 6, 7]).is_none());
        assert_eq!(pc.lookup(&[7, 7, 7, 7, 7, 0]).map(|c| c.len), Some(5));
        // An entry larger than the whole budget is not kept.
        pc.insert(&[5; 50], &cache(50));
        assert!(pc.lookup(&[5; 10]).is_none());
    }

    #[test]
    fn greedy_is_argmax_and_ignores_nan() {
        let s = Sampling {
            temperature: 0.0,
            top_p: 1.0,
            seed: 1,
        };
        assert_eq!(sample(&[0.1, f32::NAN, 3.0, 3.0, -1.0], &s, &mut 0), 2);
    }

    #[test]
    fn seeded_sampling_is_reproducible_and_top_p_restricts_the_choice() {
        let logits: Vec<f32> = (0..50).map(|i| (i as f32 * 0.37).sin() * 3.0).collect();
        let s = Sampling {
            temperature: 1.0,
            top_p: 1.0,
            seed: 42,
        };
        let draw = |seed: u64| {
            let mut rng = seed;
            (0..100)
                .map(|_| sample(&logits, &s, &mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(42), draw(42));
        assert_ne!(draw(42), draw(43));
        assert!(
            draw(42)
                .iter()
                .collect::<std::collections::HashSet<_>>()
                .len()
                > 3
        );
        let narrow = Sampling {
            temperature: 1.0,
            top_p: 1e-6,
            seed: 0,
        };
        let mut rng = 9;
        for _ in 0..20 {
            assert_eq!(sample(&logits, &narrow, &mut rng), argmax(&logits));
        }
    }

    #[test]
    fn the_earliest_stop_string_wins() {
        let stops = vec!["END".to_owned(), "\n\n".to_owned(), String::new()];
        assert_eq!(find_stop("abc\n\nxyz END", &stops), Some(3));
        assert_eq!(find_stop("abc", &stops), None);
    }
}
