//! Generation on the real models: determinism, batching, stops, end to end.

use serde_json::Value;
use verity_local::loaded::Loaded;
use verity_local::model::KvCache;
use verity_model::{GenParams, Provider};

use crate::{QWEN, SMOL, generate_all, greedy, model_path, provider, provider_with, request};

const PROMPTS: &[&str] = &[
    "What is the capital of France? Answer in one word.",
    "Write a haiku about the sea.",
    "List three prime numbers.",
    "Translate 'good morning' into Spanish.",
];

fn raw(g: &verity_model::Generation) -> Value {
    serde_json::from_str(&g.raw).unwrap()
}

#[test]
fn smollm2_answers_end_to_end_with_token_counts() {
    let p = provider(SMOL, 8);
    assert_eq!(p.kind(), "local");
    assert_eq!(p.model(), SMOL);
    assert_eq!(
        p.endpoint(),
        "local:smollm2-135m-instruct.gguf@b179c9523d0e"
    );
    let g = &generate_all(&p, &[request(PROMPTS[0], greedy(32))])[0];
    assert!(g.text.contains("Paris"), "{:?}", g.text);
    assert_eq!(g.finish_reason.as_deref(), Some("stop"));
    assert_eq!(g.model.as_deref(), Some(SMOL));
    // The ChatML prompt with the default system prompt is a few dozen tokens.
    assert!((30..60).contains(&g.usage.input_tokens), "{:?}", g.usage);
    assert!(g.usage.output_tokens > 0 && g.usage.output_tokens < 32);
    assert_eq!(raw(g)["completion_tokens"], g.usage.output_tokens);
}

/// Identical greedy requests give identical answers, and a request gives the same answer
/// alone as in a batch of four (bit-identical logits: per-row kernels, per-sequence caches).
fn batch_invariance(name: &str) {
    let p = provider(name, 4);
    let alone: Vec<String> = PROMPTS
        .iter()
        .map(|q| generate_all(&p, &[request(q, greedy(24))])[0].text.clone())
        .collect();
    let again = generate_all(&p, &[request(PROMPTS[0], greedy(24))])[0]
        .text
        .clone();
    assert_eq!(again, alone[0], "the same greedy request twice");
    let reqs: Vec<_> = PROMPTS.iter().map(|q| request(q, greedy(24))).collect();
    let batched = generate_all(&p, &reqs);
    let sizes: Vec<u64> = batched
        .iter()
        .map(|g| raw(g)["max_batch"].as_u64().unwrap())
        .collect();
    assert!(
        sizes.iter().any(|&s| s > 1),
        "the requests were not batched: {sizes:?}"
    );
    for (i, g) in batched.iter().enumerate() {
        assert_eq!(
            g.text, alone[i],
            "prompt {i} alone vs in a batch of {}",
            sizes[i]
        );
    }
    // Different prompts give different answers (the test above is not vacuous).
    assert!(alone.iter().collect::<std::collections::HashSet<_>>().len() > 1);
}

/// With the default options a burst of 12 requests (the README's `--quick` run has 12
/// samples) is decoded together from the start — no request waits for a slot — and every
/// answer is the one it gets alone.
#[test]
fn smollm2_default_batch_takes_a_quick_runs_twelve_requests_at_once_with_the_same_answers() {
    const { assert!(verity_local::DEFAULT_BATCH >= 12) };
    let p = provider_with(SMOL, serde_json::json!({"pull": false}));
    let reqs: Vec<_> = (0..12)
        .map(|i| request(PROMPTS[i % PROMPTS.len()], greedy(8 + 4 * i as u32)))
        .collect();
    let alone: Vec<String> = reqs
        .iter()
        .map(|r| generate_all(&p, std::slice::from_ref(r))[0].text.clone())
        .collect();
    let together = generate_all(&p, &reqs);
    for (i, g) in together.iter().enumerate() {
        let r = raw(g);
        assert_eq!(r["queued_ms"].as_f64().map(|q| q < 1e4), Some(true), "{r}");
        assert_eq!(g.text, alone[i], "request {i} alone vs with 11 others");
    }
    let widest = together
        .iter()
        .map(|g| raw(g)["max_batch"].as_u64().unwrap())
        .max();
    assert_eq!(widest, Some(12), "all twelve shared a forward pass");
}

/// Prompts that start the same way (chat template, system prompt, shared instructions) reuse
/// the attention state of earlier ones, one after another and batched together, and every
/// answer is exactly the one computed from scratch.
#[test]
fn smollm2_prefix_reuse_changes_no_answer() {
    let fresh = provider_with(
        SMOL,
        serde_json::json!({"batch": 4, "pull": false, "prefix_cache_mb": 0}),
    );
    // Engines are shared by their settings within a process: 62 MiB gives this one an engine
    // of its own, whose prefix cache other tests' prompts (the same chat template) cannot have
    // filled when the tests run as threads of one process (`cargo test`).
    let reuse = provider_with(
        SMOL,
        serde_json::json!({"batch": 4, "pull": false, "prefix_cache_mb": 62}),
    );
    let shared = "You review answers for a quiz. Be brief and exact, and do not explain.\n\n";
    let prompts: Vec<String> = PROMPTS.iter().map(|p| format!("{shared}{p}")).collect();
    let reqs: Vec<_> = prompts.iter().map(|q| request(q, greedy(24))).collect();
    let want: Vec<String> = reqs
        .iter()
        .map(|r| {
            let g = &generate_all(&fresh, std::slice::from_ref(r))[0];
            assert_eq!(raw(g)["reused_prompt_tokens"], 0);
            g.text.clone()
        })
        .collect();
    for (i, r) in reqs.iter().enumerate() {
        let g = &generate_all(&reuse, std::slice::from_ref(r))[0];
        assert_eq!(g.text, want[i], "prompt {i} after the others' prefixes");
        let reused = raw(g)["reused_prompt_tokens"].as_u64().unwrap();
        let prompt = raw(g)["prompt_tokens"].as_u64().unwrap();
        if i == 0 {
            assert_eq!(reused, 0);
        } else {
            // At least the chat template, the system prompt and the shared instruction.
            assert!(reused > 30 && reused < prompt, "{reused} of {prompt}");
        }
    }
    // A fresh engine given all four at once (how every run starts): the first prefills the
    // shared start, the others wait for it and reuse it.
    let burst = provider_with(
        SMOL,
        serde_json::json!({"batch": 4, "pull": false, "prefix_cache_mb": 63}),
    );
    let first = generate_all(&burst, &reqs);
    let mut reusing = 0;
    for (i, g) in first.iter().enumerate() {
        assert_eq!(g.text, want[i], "prompt {i} in a burst");
        if raw(g)["reused_prompt_tokens"].as_u64().unwrap() > 30 {
            reusing += 1;
        }
    }
    assert_eq!(reusing, 3, "all but the first reuse the shared start");
    // Again, all at once: the whole prompts are cached now, only the last token is fed.
    let batched = generate_all(&reuse, &reqs);
    for (i, g) in batched.iter().enumerate() {
        assert_eq!(g.text, want[i], "prompt {i} batched");
        assert_eq!(
            raw(g)["reused_prompt_tokens"].as_u64().unwrap() + 1,
            raw(g)["prompt_tokens"].as_u64().unwrap()
        );
    }
}

#[test]
fn smollm2_greedy_output_is_identical_alone_twice_and_in_a_batch() {
    batch_invariance(SMOL);
}

#[test]
#[ignore = "needs qwen2.5-coder-0.5b-instruct (491 MB): verity model pull qwen2.5-coder-0.5b-instruct"]
fn qwen_greedy_output_is_identical_alone_twice_and_in_a_batch() {
    batch_invariance(QWEN);
}

#[test]
fn smollm2_stops_on_stop_strings_and_max_tokens() {
    let p = provider(SMOL, 8);
    let q = "Count from 1 to 20, separated by commas.";
    let free = generate_all(&p, &[request(q, greedy(60))])[0].clone();
    assert!(free.text.contains('5'), "{:?}", free.text);
    // max_tokens
    let short = generate_all(&p, &[request(q, greedy(3))])[0].clone();
    assert_eq!(short.usage.output_tokens, 3);
    assert_eq!(short.finish_reason.as_deref(), Some("length"));
    assert!(
        free.text.starts_with(&short.text),
        "{:?} vs {:?}",
        short.text,
        free.text
    );
    // A stop string ends the answer before it.
    let params = GenParams {
        stop: vec!["5".into(), "never-there".into()],
        ..greedy(60)
    };
    let stopped = generate_all(&p, &[request(q, params)])[0].clone();
    assert_eq!(stopped.finish_reason.as_deref(), Some("stop"));
    assert!(!stopped.text.contains('5'), "{:?}", stopped.text);
    let cut = free.text.find('5').unwrap();
    assert_eq!(
        stopped.text,
        free.text[..cut],
        "the answer up to the stop string"
    );
    // Seeded sampling is reproducible; different seeds differ somewhere.
    let sampled = |seed| {
        let params = GenParams {
            temperature: Some(1.0),
            seed: Some(seed),
            max_tokens: Some(24),
            ..GenParams::default()
        };
        generate_all(&p, &[request("Tell me a story.", params)])[0]
            .text
            .clone()
    };
    assert_eq!(sampled(7), sampled(7));
    assert!(sampled(7) != sampled(8) || sampled(8) != sampled(9));
}

#[test]
fn smollm2_chunked_and_batched_prefill_give_bit_identical_logits() {
    let l = Loaded::load(&model_path(SMOL), None).unwrap();
    let m = &l.model;
    let ids = l
        .chat
        .prompt(&l.tokenizer, &[("user".into(), PROMPTS[1].into())])
        .unwrap();
    let mut c1 = KvCache::new(&m.cfg);
    let whole = m.forward(&mut [&mut c1], &[&ids]).remove(0);
    // The same prompt in three chunks.
    let mut c2 = KvCache::new(&m.cfg);
    let (a, rest) = ids.split_at(5);
    let (b, c) = rest.split_at(17);
    m.forward(&mut [&mut c2], &[a]);
    m.forward(&mut [&mut c2], &[b]);
    let chunked = m.forward(&mut [&mut c2], &[c]).remove(0);
    assert_eq!(whole, chunked);
    // The same prompt batched with another sequence that is decoding.
    let other = l.tokenizer.encode("Some other text to keep busy").unwrap();
    let mut c3 = KvCache::new(&m.cfg);
    let mut c4 = KvCache::new(&m.cfg);
    m.forward(&mut [&mut c4], &[&other]);
    let out = m.forward(&mut [&mut c4, &mut c3], &[&[42], &ids]);
    assert_eq!(out[1], whole);
    // Next-token decoding matches too.
    let next = [verity_local::engine::argmax(&whole)];
    let d1 = m.forward(&mut [&mut c1], &[&next]).remove(0);
    let d3 = m.forward(&mut [&mut c4, &mut c3], &[&[7], &next]).remove(1);
    assert_eq!(d1, d3);
}

/// The logits of a prompt and of the greedy token after it, as bits.
fn prompt_logits(l: &Loaded) -> Vec<u32> {
    let m = &l.model;
    let ids = l
        .chat
        .prompt(&l.tokenizer, &[("user".into(), PROMPTS[0].into())])
        .unwrap();
    let mut c = KvCache::new(&m.cfg);
    let first = m.forward(&mut [&mut c], &[&ids]).remove(0);
    let next = [verity_local::engine::argmax(&first)];
    let second = m.forward(&mut [&mut c], &[&next]).remove(0);
    first.iter().chain(&second).map(|v| v.to_bits()).collect()
}

#[test]
fn smollm2_weights_cache_hit_gives_a_cold_loads_bits_and_a_damaged_cache_is_rebuilt() {
    use verity_local::cache::{self, CacheStatus, Verified};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("smol.gguf");
    std::fs::copy(model_path(SMOL), &path).unwrap();
    let pin = verity_local::store::known(SMOL).map(|m| m.sha256);
    let cold = Loaded::load_with(&path, pin, false).unwrap();
    assert_eq!(
        (cold.verified, &cold.weights_cache),
        (Verified::Hashed, &CacheStatus::Off)
    );
    let want = prompt_logits(&cold);
    drop(cold);

    let first = Loaded::load(&path, pin).unwrap();
    assert_eq!(first.verified, Verified::Hashed);
    assert!(
        matches!(first.weights_cache, CacheStatus::Built { .. }),
        "{:?}",
        first.weights_cache
    );
    assert_eq!(prompt_logits(&first), want);
    drop(first);
    let later = Loaded::load(&path, pin).unwrap();
    assert_eq!(
        (later.verified, &later.weights_cache),
        (Verified::Recorded, &CacheStatus::Hit)
    );
    assert_eq!(
        prompt_logits(&later),
        want,
        "a cache hit must give the same bits"
    );
    assert_eq!(Some(later.sha256.as_str()), pin);
    drop(later);

    // A flipped byte, then a cut: detected, rebuilt from the model file, same bits.
    let weights = cache::weights_path(&path);
    let good = std::fs::read(&weights).unwrap();
    let mut flipped = good.clone();
    flipped[good.len() / 3] ^= 1;
    for (what, bytes) in [
        ("flipped", flipped),
        ("cut", good[..good.len() / 2].to_vec()),
    ] {
        std::fs::write(&weights, &bytes).unwrap();
        let l = Loaded::load(&path, pin).unwrap();
        assert!(
            matches!(l.weights_cache, CacheStatus::Built { .. }),
            "{what}: {:?}",
            l.weights_cache
        );
        assert_eq!(prompt_logits(&l), want, "{what}");
        assert_eq!(std::fs::read(&weights).unwrap(), good, "{what}: rewritten");
    }

    // The model file rewritten (same bytes, new status-change time): hashed again, and the
    // cache, made from the same sha256, still used.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes).unwrap();
    let l = Loaded::load(&path, pin).unwrap();
    assert_eq!(
        (l.verified, &l.weights_cache),
        (Verified::Hashed, &CacheStatus::Hit)
    );
    drop(l);
    // Changed bytes under the pin: refused and removed with everything kept beside it, even
    // though a record of the old file's hash is there.
    let mut bad = bytes;
    let last = bad.len() - 1;
    bad[last] ^= 1;
    std::fs::write(&path, &bad).unwrap();
    let err = Loaded::load(&path, pin).unwrap_err().to_string();
    assert!(err.contains("does not match its pinned sha256"), "{err}");
    assert!(!path.exists() && !weights.exists() && !cache::record_path(&path).exists());
}

/// Guessed tokens (prompt lookup decoding, `draft_rows`) change no answer: greedy requests
/// that copy from their prompt and repeat themselves (so that many guesses are right and
/// some are wrong) give the same text, token count and finish reason with guessing off and
/// on, alone and batched, when a stop string, `max_tokens` or the context ends them in the
/// middle of a step's guesses.
#[test]
fn smollm2_guessed_tokens_change_no_answer() {
    let prompts = [
        "Repeat this list exactly, twice: alpha, beta, gamma, delta, epsilon, zeta, eta, theta.",
        "Write a Python function that prints the numbers 1 to 20, one per line, without a loop.",
        "Copy this sentence three times: The quick brown fox jumps over the lazy dog.",
        "List the days of the week, then list them again in the same order.",
    ];
    // The engines differ only in `draft_rows` (and `max_context`), so each has its own.
    let run = |draft_rows: u64, context: u64, reqs: &[verity_model::GenerateRequest]| {
        let p = provider_with(
            SMOL,
            serde_json::json!({"batch": 4, "pull": false, "draft_rows": draft_rows, "max_context": context}),
        );
        let alone: Vec<_> = reqs
            .iter()
            .map(|r| generate_all(&p, std::slice::from_ref(r)).remove(0))
            .collect();
        (alone, generate_all(&p, reqs))
    };
    let key = |g: &verity_model::Generation| {
        (
            g.text.clone(),
            g.usage.output_tokens,
            g.finish_reason.clone(),
        )
    };
    let mut with_stop = greedy(96);
    with_stop.stop = vec!["epsilon".into()];
    let cases: Vec<(u64, Vec<verity_model::GenerateRequest>)> = vec![
        (
            4096,
            prompts.iter().map(|q| request(q, greedy(96))).collect(),
        ),
        // Ends mid-guess: a stop string, a small max_tokens, the context (80 tokens).
        (
            4096,
            vec![
                request(prompts[0], with_stop),
                request(prompts[2], greedy(13)),
            ],
        ),
        (
            80,
            vec![request(
                "Count from 1 to 100, separated by commas.",
                greedy(200),
            )],
        ),
    ];
    let mut kept = 0;
    for (context, reqs) in cases {
        let (off_alone, off_batched) = run(0, context, &reqs);
        let (on_alone, on_batched) = run(7, context, &reqs);
        for i in 0..reqs.len() {
            let want = key(&off_alone[i]);
            assert_eq!(raw(&off_alone[i])["guessed_tokens"], 0);
            assert_eq!(
                key(&off_batched[i]),
                want,
                "request {i}, batched, no guesses"
            );
            assert_eq!(key(&on_alone[i]), want, "request {i}, alone, with guesses");
            assert_eq!(
                key(&on_batched[i]),
                want,
                "request {i}, batched, with guesses"
            );
            for g in [&on_alone[i], &on_batched[i]] {
                let r = raw(g);
                let (guessed, k) = (r["guessed_tokens"].as_u64(), r["kept_guesses"].as_u64());
                assert!(k <= guessed && k < Some(g.usage.output_tokens), "{r}");
                kept += k.unwrap_or(0);
            }
        }
        if context == 80 {
            assert_eq!(off_alone[0].finish_reason.as_deref(), Some("length"));
            let used = off_alone[0].usage.input_tokens + off_alone[0].usage.output_tokens;
            assert_eq!(used, 80, "the context ended the answer");
        }
    }
    // The guesses were made and many were right (the test is not vacuous).
    assert!(kept > 50, "{kept} guesses kept");
}
