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

impl Sampling {
    /// Whether the token taken from a row of logits is its largest (`temperature` 0 or less,
    /// or not a number): then it depends on nothing but that row.
    pub fn is_greedy(&self) -> bool {
        self.temperature <= 0.0 || !self.temperature.is_finite()
    }
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
    /// Tokens guessed for this answer and checked alongside a decode step (see `draft`), and
    /// how many of them the model produced and were kept: each kept guess is a step saved.
    pub guessed_tokens: usize,
    pub kept_guesses: usize,
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
    /// At most this many prompt tokens per step, over all sequences (longer prompts, and a
    /// burst of them, are prefilled in chunks over several steps, which gives identical
    /// results). A pass over a few hundred rows keeps its activations in the caches; one over
    /// thousands measured 0.6× the rate per row, and every sequence already decoding waits for
    /// it.
    pub prefill_chunk: usize,
    /// Bytes of recent prompts' attention caches kept for reuse (the engine's prefix cache); 0
    /// turns reuse off.
    pub prefix_cache_bytes: usize,
    /// Rows of a decode step that may be filled with guessed tokens (see `draft`): while fewer
    /// sequences than this are decoding, each gets `(draft_rows - decoding) / decoding`
    /// guesses checked in the same pass. A pass over a few rows costs about what one row does
    /// (it streams the same weights), so a right guess is a step saved; 0 turns it off.
    /// Answers are bit-identical either way.
    pub draft_rows: usize,
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
    guessed: usize,
    kept: usize,
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
    if s.is_greedy() {
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
    let mut trace = StepTrace::from_env();
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
                guessed: 0,
                kept: 0,
            });
        }
        if active.is_empty() {
            continue;
        }
        // This step's new tokens for each sequence: a chunk of its prompt, or the token sampled
        // last followed by the tokens guessed to come next (`drafts`, see `draft`).
        let decoding = active
            .iter()
            .filter(|s| s.fed >= s.job.prompt.len())
            .count();
        let spare = cfg.draft_rows.saturating_sub(decoding);
        let per_seq = spare.checked_div(decoding).unwrap_or(0);
        let mut drafts: Vec<Vec<u32>> = Vec::with_capacity(active.len());
        // Prompt tokens this step may still take (first come, first fed).
        let mut prefill_budget = cfg.prefill_chunk.max(1);
        let inputs: Vec<Vec<u32>> = active
            .iter()
            .map(|s| {
                if s.fed < s.job.prompt.len() {
                    let end = (s.fed + prefill_budget).min(s.job.prompt.len());
                    prefill_budget -= end - s.fed;
                    drafts.push(Vec::new());
                    s.job.prompt[s.fed..end].to_vec()
                } else {
                    // Room left in the answer and the context after the token sampled last.
                    let room = (s.job.max_tokens.saturating_sub(s.generated.len()))
                        .min(cfg.context.saturating_sub(s.cache.len + 2));
                    let d = if draftable(&s.job) {
                        draft(&s.job.prompt, &s.generated, per_seq.min(room))
                    } else {
                        Vec::new()
                    };
                    let mut input: Vec<u32> = s.generated.last().copied().into_iter().collect();
                    input.extend_from_slice(&d);
                    drafts.push(d);
                    input
                }
            })
            .collect();
        let n = active.len();
        let prefilling = n - decoding;
        let step_start = Instant::now();
        let mut logits = {
            let mut caches: Vec<&mut KvCache> = active.iter_mut().map(|s| &mut s.cache).collect();
            let refs: Vec<&[u32]> = inputs.iter().map(Vec::as_slice).collect();
            let tails: Vec<usize> = drafts.iter().map(|d| d.len() + 1).collect();
            pool.install(|| model.forward_tails(&mut caches, &refs, &tails))
        };
        let forward = step_start.elapsed();
        let mut accepted = 0;
        let mut finished = Vec::new();
        let mut failed = Vec::new();
        for (i, (s, lg)) in active.iter_mut().zip(logits.per_seq()).enumerate() {
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
            // One row of logits per token fed after the last sampled one: each row's token is
            // sampled as a step of its own would sample it, and the next row is used only while
            // the token sampled equals the guess fed there.
            let draft = &drafts[i];
            s.guessed += draft.len();
            let mut outcome = Step::Continue;
            for (j, row) in lg.chunks_exact_mut(model.cfg.vocab).enumerate() {
                // The cache as a step of its own would have left it: up to this row's token.
                let cache_len = s.cache.len - (draft.len() - j);
                outcome = sample_one(s, row, tok, cache_len, &cfg);
                if outcome != Step::Continue {
                    break;
                }
                if j < draft.len() && s.generated.last() == Some(&draft[j]) {
                    accepted += 1;
                    s.kept += 1;
                } else {
                    // The guess at j (if any) was wrong: its position and those after it go.
                    s.cache.truncate(s.cache.len - (draft.len() - j));
                    break;
                }
            }
            match outcome {
                Step::Continue => {}
                Step::Done(reason) => finished.push((i, reason)),
                Step::Failed(tokens, message) => failed.push((i, tokens, message)),
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
        if let Some(t) = &mut trace {
            let rows = inputs.iter().map(Vec::len).sum();
            let guessed = drafts.iter().map(Vec::len).sum();
            let counts = [
                n,
                prefilling,
                rows,
                guessed,
                accepted,
                waiting.len(),
                done.len(),
            ];
            t.step(step_start, counts, forward);
        }
        for (i, result) in done {
            let s = active.swap_remove(i);
            let out = result.map(|reason| finish(&s, tok, reason));
            let _ = s.job.reply.send(out);
        }
    }
}

/// A line per step of the inference loop, for profiling a run (`VERITY_LOCAL_TRACE=FILE`):
/// when the step started (ms since the thread started), the sequences in the forward pass,
/// how many of them were feeding prompt tokens, the rows (tokens) it computed, how many of
/// those were guessed tokens and how many guesses were kept, the requests left waiting, how
/// many finished, and the forward pass's and the whole step's milliseconds. Tab-separated with
/// a header; a file that cannot be created turns the trace off.
struct StepTrace {
    out: std::io::BufWriter<std::fs::File>,
    start: Instant,
}

impl StepTrace {
    fn from_env() -> Option<StepTrace> {
        use std::io::Write;
        let path = std::env::var_os("VERITY_LOCAL_TRACE")?;
        let mut out = std::io::BufWriter::new(std::fs::File::create(path).ok()?);
        let header =
            "at_ms\tseqs\tprefilling\trows\tguessed\tkept\twaiting\tfinished\tforward_ms\tstep_ms";
        writeln!(out, "{header}").ok()?;
        Some(StepTrace {
            out,
            start: Instant::now(),
        })
    }

    fn step(&mut self, at: Instant, counts: [usize; 7], forward: Duration) {
        use std::io::Write;
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let mut line = format!("{:.1}", ms(at - self.start));
        for c in counts {
            line.push_str(&format!("\t{c}"));
        }
        let _ = writeln!(
            self.out,
            "{line}\t{:.2}\t{:.2}",
            ms(forward),
            ms(at.elapsed())
        );
        let _ = self.out.flush();
    }
}

/// What sampling one token did to a sequence.
#[derive(Debug, PartialEq)]
enum Step {
    Continue,
    Done(&'static str),
    /// The grammar failed after this many tokens.
    Failed(usize, String),
}

/// Samples the next token of `s` from one row of logits (masked by its grammar, if any),
/// appends it, and checks the stop conditions.
fn sample_one(
    s: &mut Seq,
    lg: &mut [f32],
    tok: &crate::tokenizer::Tokenizer,
    cache_len: usize,
    cfg: &EngineConfig,
) -> Step {
    if let Some(c) = &mut s.job.constraint {
        let t = Instant::now();
        let masked = c.mask(lg);
        s.mask += t.elapsed();
        if let Err(message) = masked {
            return Step::Failed(s.generated.len(), message);
        }
    }
    let next = sample(lg, &s.job.sampling, &mut s.rng);
    if s.first_token.is_none() {
        s.first_token = Some(Instant::now());
    }
    if tok.stop_ids.contains(&next) {
        return Step::Done("stop");
    }
    s.generated.push(next);
    if let Some(c) = &mut s.job.constraint {
        let t = Instant::now();
        let committed = c.commit(next);
        s.mask += t.elapsed();
        if let Err(message) = committed {
            return Step::Failed(s.generated.len() - 1, message);
        }
        if c.is_finished() {
            // The document is complete: only the end of turn could follow.
            return Step::Done("stop");
        }
    }
    if !s.job.stop.is_empty() {
        let text = tok.decode(&s.generated);
        if find_stop(&text, &s.job.stop).is_some() {
            return Step::Done("stop");
        }
    }
    if s.generated.len() >= s.job.max_tokens || cache_len + 1 >= cfg.context {
        return Step::Done("length");
    }
    Step::Continue
}

/// Whether guessed tokens can be checked for `job` in the same pass: greedy and without a
/// grammar, so the token sampled from a row depends on nothing but that row's logits (a
/// sampling request's random stream and a grammar's state advance token by token).
fn draftable(job: &Job) -> bool {
    job.constraint.is_none() && job.sampling.is_greedy()
}

/// The shortest repeated run of tokens a guess is made from, and the longest looked for.
const DRAFT_MIN_MATCH: usize = 2;
const DRAFT_MAX_MATCH: usize = 4;

/// Up to `max` tokens guessed to follow `prompt ++ generated` (prompt lookup decoding): the
/// tokens that followed the latest earlier occurrence of its last few tokens (the longest of
/// [`DRAFT_MAX_MATCH`] down to [`DRAFT_MIN_MATCH`] that occurs). Answers quote their prompt
/// (names from the task and the retrieved documentation) and repeat themselves (code), so
/// such guesses are often right; a wrong guess costs a row of a pass that was paying for the
/// weights anyway, and never changes the answer (the engine samples each row as a step of
/// its own would, and keeps a guess only if it is the token sampled).
fn draft(prompt: &[u32], generated: &[u32], max: usize) -> Vec<u32> {
    if max == 0 || generated.is_empty() {
        return Vec::new();
    }
    let at = |i: usize| {
        if i < prompt.len() {
            prompt[i]
        } else {
            generated[i - prompt.len()]
        }
    };
    let len = prompt.len() + generated.len();
    for n in (DRAFT_MIN_MATCH..=DRAFT_MAX_MATCH.min(len - 1)).rev() {
        let tail = len - n;
        // The latest start `i < tail` where the `n` tokens match the last `n`.
        let found = (0..tail)
            .rev()
            .find(|&i| (0..n).all(|k| at(i + k) == at(tail + k)));
        if let Some(i) = found {
            let from = i + n;
            let to = (from + max).min(len);
            return (from..to).map(at).collect();
        }
    }
    Vec::new()
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
        guessed_tokens: s.guessed,
        kept_guesses: s.kept,
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
    fn a_guess_is_what_followed_the_latest_earlier_occurrence_of_the_last_tokens() {
        // Prompt `1 2 3 4 5 1 2 9`, answer so far `1 2`: the last two tokens `1 2` last occurred
        // at 5..7 (followed by 9, then the answer's 1 2), before that at 0..2 (followed by 3).
        let prompt = [1, 2, 3, 4, 5, 1, 2, 9];
        assert_eq!(draft(&prompt, &[1, 2], 3), vec![9, 1, 2]);
        // `9 1 2` and `9 9 1 2` never occurred before, `1 2` did (latest at 5..7, then 9 9).
        assert_eq!(draft(&prompt, &[9, 1, 2], 2), vec![9, 9]);
        assert_eq!(draft(&prompt, &[3, 4], 4), vec![5, 1, 2, 9]);
        // A longer match beats a more recent shorter one: `5 1 2` at 0..3 over `1 2` at 5..7.
        assert_eq!(draft(&[5, 1, 2, 7, 3, 1, 2, 8], &[5, 1, 2], 2), vec![7, 3]);
        // At most `max` tokens, and never past the end of the text.
        assert_eq!(draft(&prompt, &[3, 4], 1), vec![5]);
        assert_eq!(draft(&[7, 7], &[7], 5), vec![7]);
        // No match of at least DRAFT_MIN_MATCH tokens, nothing generated yet, or no room.
        assert!(draft(&prompt, &[6], 3).is_empty());
        assert!(draft(&prompt, &[4, 6], 3).is_empty());
        assert!(draft(&prompt, &[], 3).is_empty());
        assert!(draft(&prompt, &[1, 2], 0).is_empty());
    }

    #[test]
    fn truncating_a_cache_is_feeding_fewer_tokens() {
        let mut cache = KvCache::filled(2, 3, 10);
        cache.truncate(12);
        assert_eq!(cache.len, 10);
        cache.truncate(6);
        assert_eq!(cache.len, 6);
        let want = KvCache::filled(2, 3, 6);
        assert_eq!(cache.bytes(), want.bytes());
        assert_eq!(format!("{cache:?}"), format!("{want:?}"));
        cache.truncate(0);
        assert_eq!((cache.len, cache.bytes()), (0, 0));
    }

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
