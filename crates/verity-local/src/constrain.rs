//! Schema-constrained decoding: a request's `response_schema` (a JSON Schema) becomes a
//! grammar, and every token of that sequence is sampled from the tokens the grammar allows.
//!
//! The grammar engine is [`llguidance`] (what llama.cpp and vLLM use): it compiles the schema
//! into a context-free grammar and, at each step, computes the set of vocabulary tokens whose
//! bytes keep the answer a prefix of some document the schema accepts. Its view of the
//! vocabulary (a [`TokTrie`]) is built from verity's own tokenizer: the exact bytes of every
//! token, control tokens marked special (they never match text), and the end-of-turn tokens
//! ([`Tokenizer::stop_ids`]) as end of sequence, which the grammar allows only where the
//! document is complete. Forced text (`{"claims":[` when nothing else can follow) is tokenized
//! with the model's own tokenizer, so the model sees the tokens it would have produced.
//!
//! Only constrained sequences pay: the engine computes a mask per step for each sequence
//! that has a [`Constraint`] and sets the logits of every other token to −∞ before sampling;
//! the other sequences of the batch are untouched. A mask depends only on the tokens of its
//! own sequence, so greedy answers stay bit-identical alone and batched.
//!
//! Whitespace between JSON tokens is bounded ([`WHITESPACE`]: at most one line break and 32
//! spaces or tabs at a time, like llama.cpp's JSON grammars): with llguidance's default, any
//! amount, a small model that wants to close an object the schema says is not complete yet
//! picks the only tokens left that look like closing it, line breaks, until `max_tokens` runs
//! out (seen with Qwen2.5-Coder 0.5B). A schema that carries llguidance's own `x-guidance`
//! options (for example `{"whitespace_flexible": false}` for compact JSON) keeps them instead.
//! `$ref`s must point inside the schema (`#/…`).

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use llguidance::api::TopLevelGrammar;
use llguidance::toktrie::{SimpleVob, TokRxInfo, TokTrie, TokenId, TokenizerEnv};
use llguidance::{Matcher, ParserFactory};
use serde_json::Value;

use crate::tokenizer::Tokenizer;

/// The whitespace allowed between two JSON tokens, unless the schema's `x-guidance` says
/// otherwise: spaces and tabs, or one line break followed by spaces and tabs, at most 32 of
/// them.
pub const WHITESPACE: &str = r"[\x20\x09]{1,32}|\x0D?\x0A[\x20\x09]{0,32}";

/// llguidance's marker of a special token's bytes (`\xFF<|im_end|>`): no text starts with it.
const SPECIAL: u8 = TokTrie::SPECIAL_TOKEN_MARKER;

/// The vocabulary as llguidance sees it, with the tokenizer that produced it (when there is
/// one) for canonical tokenization of forced text.
struct Env {
    trie: TokTrie,
    tokenizer: Option<Arc<Tokenizer>>,
}

impl TokenizerEnv for Env {
    fn tok_trie(&self) -> &TokTrie {
        &self.trie
    }

    fn tokenize_bytes(&self, s: &[u8]) -> Vec<TokenId> {
        let Some(tok) = &self.tokenizer else {
            return self.trie.greedy_tokenize(s);
        };
        // The longest valid UTF-8 start through the model's tokenizer, a cut character after
        // it byte by byte (the tokenizer takes text).
        let valid = match std::str::from_utf8(s) {
            Ok(_) => s.len(),
            Err(e) => e.valid_up_to(),
        };
        let text = std::str::from_utf8(&s[..valid]).unwrap_or_default();
        let mut ids = tok
            .encode(text)
            .unwrap_or_else(|_| self.trie.greedy_tokenize(&s[..valid]));
        ids.extend(self.trie.greedy_tokenize(&s[valid..]));
        ids
    }

    fn tokenize_is_canonical(&self) -> bool {
        self.tokenizer.is_some()
    }
}

/// Compiles response schemas for one vocabulary: built once per loaded model (the token trie
/// and llguidance's per-vocabulary tables), shared by every request.
pub struct Grammars {
    factory: ParserFactory,
    vocab: usize,
}

impl std::fmt::Debug for Grammars {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Grammars")
            .field("vocab", &self.vocab)
            .finish()
    }
}

fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
}

impl Grammars {
    /// The grammars of a model's tokenizer: every token's exact bytes, control tokens as
    /// llguidance's special tokens, the end-of-turn tokens as end of sequence.
    pub fn new(tokenizer: Arc<Tokenizer>) -> Result<Grammars, String> {
        let mut words: Vec<Vec<u8>> = (0..tokenizer.vocab_size() as u32)
            .map(|id| tokenizer.token_bytes(id).to_vec())
            .collect();
        for (name, id) in tokenizer.controls() {
            if let Some(w) = words.get_mut(id as usize) {
                *w = [&[SPECIAL], name.as_bytes()].concat();
            }
        }
        let eos = tokenizer.stop_ids.clone();
        Self::build(words, &eos, Some(tokenizer))
    }

    /// Grammars over a given vocabulary (token id `i` stands for `words[i]`; a word starting
    /// with byte `0xFF` is a special token, an empty one never matches) whose end-of-sequence
    /// tokens are `eos`. Forced text is tokenized greedily. For tests and tools; the engine
    /// uses [`Grammars::new`].
    pub fn from_vocabulary(words: Vec<Vec<u8>>, eos: &[u32]) -> Result<Grammars, String> {
        Self::build(words, eos, None)
    }

    fn build(
        words: Vec<Vec<u8>>,
        eos: &[u32],
        tokenizer: Option<Arc<Tokenizer>>,
    ) -> Result<Grammars, String> {
        let vocab = words.len();
        let n = u32::try_from(vocab).map_err(|_| "the vocabulary is too large".to_owned())?;
        if eos.is_empty() || eos.iter().any(|&t| t >= n) {
            return Err(format!(
                "the end-of-sequence tokens {eos:?} are not in the vocabulary of {vocab}"
            ));
        }
        let factory = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let trie = TokTrie::from(&TokRxInfo::new(n, eos[0]), &words).with_eos_tokens(eos);
            let env = Arc::new(Env { trie, tokenizer });
            ParserFactory::new_simple(&(env as llguidance::toktrie::TokEnv))
        }))
        .map_err(|p| format!("building the token trie: {}", panic_message(p)))?
        .map_err(|e| format!("building the grammar tables: {e}"))?;
        let mut factory = factory;
        // Errors, not log lines: nothing goes to standard error, and messages stay short.
        factory.quiet();
        factory.limits_mut().verbose_errors = false;
        Ok(Grammars { factory, vocab })
    }

    /// The number of tokens masks cover.
    pub fn vocab_size(&self) -> usize {
        self.vocab
    }

    /// A fresh constraint for one answer that must be a JSON document `schema` accepts, or
    /// why the schema cannot be used (invalid, unsupported or unsatisfiable), in llguidance's
    /// words.
    pub fn json_schema(&self, schema: &Value) -> Result<Constraint, String> {
        if !(schema.is_object() || schema.is_boolean()) {
            return Err(format!(
                "a JSON Schema is an object (or true/false), not {}",
                verity_model::json_type_phrase(schema)
            ));
        }
        let mut schema = schema.clone();
        if let Some(o) = schema.as_object_mut()
            && !o.contains_key("x-guidance")
        {
            o.insert(
                "x-guidance".to_owned(),
                serde_json::json!({ "whitespace_pattern": WHITESPACE }),
            );
        }
        let grammar = TopLevelGrammar::from_json_schema(schema);
        let parser = self
            .factory
            .create_parser(grammar)
            .map_err(|e| format!("{e:#}"))?;
        Ok(Constraint {
            matcher: Matcher::new(Ok(parser)),
            vocab: self.vocab,
        })
    }
}

/// The grammar state of one constrained answer: which tokens may come next.
pub struct Constraint {
    matcher: Matcher,
    vocab: usize,
}

impl std::fmt::Debug for Constraint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Constraint")
            .field("vocab", &self.vocab)
            .field("finished", &self.is_finished())
            .finish()
    }
}

impl Constraint {
    /// The tokens allowed next (end of sequence only where the document is complete).
    pub fn allowed(&mut self) -> Result<SimpleVob, String> {
        self.matcher.compute_mask().map_err(|e| format!("{e:#}"))
    }

    /// Sets the logit of every token the grammar does not allow next to −∞ (tokens past the
    /// vocabulary too: the embeddings may be padded). An error if no token is left.
    pub fn mask(&mut self, logits: &mut [f32]) -> Result<(), String> {
        let allowed = self.allowed()?;
        let n = allowed.len().min(logits.len());
        let (covered, past) = logits.split_at_mut(n);
        past.fill(f32::NEG_INFINITY);
        // 32 tokens per word of the bit set (token `i` is bit `i % 32` of word `i / 32`): most
        // words are all clear or all set, so this is a fill or nothing.
        let mut any = false;
        for (chunk, &word) in covered.chunks_mut(32).zip(allowed.as_slice()) {
            let word = if chunk.len() < 32 {
                word & ((1u32 << chunk.len()) - 1)
            } else {
                word
            };
            if word == 0 {
                chunk.fill(f32::NEG_INFINITY);
                continue;
            }
            any = true;
            if word != u32::MAX {
                for (bit, l) in chunk.iter_mut().enumerate() {
                    if word & (1 << bit) == 0 {
                        *l = f32::NEG_INFINITY;
                    }
                }
            }
        }
        if any {
            Ok(())
        } else {
            Err("the grammar allows no token of the model's vocabulary".to_owned())
        }
    }

    /// Advances past a sampled token (one the last mask allowed).
    pub fn commit(&mut self, token: u32) -> Result<(), String> {
        self.matcher
            .consume_token(token)
            .map_err(|e| format!("{e:#}"))
    }

    /// Whether the document is complete and nothing but the end of sequence may follow.
    pub fn is_finished(&self) -> bool {
        self.matcher.is_stopped()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A tiny vocabulary: every printable ASCII byte, a few multi-byte tokens, a special
    /// token and an end-of-sequence token.
    fn tiny() -> (Grammars, Vec<Vec<u8>>, u32) {
        let mut words: Vec<Vec<u8>> = (0x20u8..0x7f).map(|b| vec![b]).collect();
        for w in ["{\"", "\":", "true", "false", "null", "\"}", "hello", "\n"] {
            words.push(w.as_bytes().to_vec());
        }
        words.push(b"\xFF<|im_start|>".to_vec());
        words.push(b"\xFF<|im_end|>".to_vec());
        let eos = words.len() as u32 - 1;
        let g = Grammars::from_vocabulary(words.clone(), &[eos]).unwrap();
        (g, words, eos)
    }

    fn allowed_words(c: &mut Constraint, words: &[Vec<u8>]) -> Vec<String> {
        c.allowed()
            .unwrap()
            .to_list()
            .into_iter()
            .map(|t| String::from_utf8_lossy(&words[t as usize]).into_owned())
            .collect()
    }

    fn feed(c: &mut Constraint, words: &[Vec<u8>], text: &str) {
        // Single-byte tokens: the ASCII ones come first, at byte - 0x20.
        let _ = words;
        for b in text.bytes() {
            c.commit(u32::from(b - 0x20)).unwrap();
        }
    }

    #[test]
    fn the_mask_restricts_the_vocabulary_to_what_the_schema_allows() {
        let (g, words, eos) = tiny();
        let schema = json!({
            "type": "object",
            "properties": {"ok": {"type": "boolean"}},
            "required": ["ok"],
            "additionalProperties": false,
            "x-guidance": {"whitespace_flexible": false}
        });
        let mut c = g.json_schema(&schema).unwrap();
        // Only the opening of the object: `{` or the `{"` token; never EOS, never a letter.
        let first = allowed_words(&mut c, &words);
        assert_eq!(first, vec!["{".to_owned(), "{\"".to_owned()], "{first:?}");
        feed(&mut c, &words, "{\"ok\":");
        let value = allowed_words(&mut c, &words);
        assert!(value.contains(&"true".to_owned()) && value.contains(&"false".to_owned()));
        assert!(value.contains(&"t".to_owned()) && value.contains(&"f".to_owned()));
        assert!(!value.contains(&"null".to_owned()) && !value.contains(&"1".to_owned()));
        assert!(!c.allowed().unwrap().is_allowed(eos));
        // The logits of everything else, special tokens and padding included, become −∞.
        let mut logits = vec![1.0f32; words.len() + 3];
        c.mask(&mut logits).unwrap();
        let kept: Vec<usize> = (0..logits.len()).filter(|&i| logits[i] == 1.0).collect();
        let kept_words: Vec<&[u8]> = kept.iter().map(|&i| words[i].as_slice()).collect();
        assert_eq!(kept_words, vec![&b"f"[..], b"t", b"true", b"false"]);
        c.commit(words.iter().position(|w| w == b"true").unwrap() as u32)
            .unwrap();
        assert!(!c.is_finished());
        feed(&mut c, &words, "}");
        // Complete: nothing may follow but the end of sequence.
        assert!(c.is_finished());
        // A token the mask did not allow is refused.
        let mut c2 = g.json_schema(&schema).unwrap();
        assert!(
            c2.commit(words.iter().position(|w| w == b"hello").unwrap() as u32)
                .is_err()
        );
    }

    #[test]
    fn the_end_of_sequence_is_allowed_once_the_document_is_complete() {
        let (g, words, eos) = tiny();
        // After `12` the integer may go on or end.
        let schema = json!({"type": "integer"});
        let mut c = g.json_schema(&schema).unwrap();
        feed(&mut c, &words, "12");
        let allowed = c.allowed().unwrap();
        assert!(allowed.is_allowed(eos));
        assert!(allowed.is_allowed(u32::from(b'3' - 0x20)));
        assert!(!allowed.is_allowed(u32::from(b'a' - 0x20)));
    }

    #[test]
    fn whitespace_between_tokens_is_bounded_unless_the_schema_says_otherwise() {
        let (g, words, _) = tiny();
        let newline = words.iter().position(|w| w == b"\n").unwrap() as u32;
        let space = 0;
        let object = json!({"type": "object", "properties": {"a": {"type": "integer"}}});
        // One line break, then spaces, but not a second line break.
        let mut c = g.json_schema(&object).unwrap();
        c.commit(u32::from(b'{' - 0x20)).unwrap();
        assert!(c.allowed().unwrap().is_allowed(newline));
        c.commit(newline).unwrap();
        let allowed = c.allowed().unwrap();
        assert!(allowed.is_allowed(space) && !allowed.is_allowed(newline));
        // At most 32 spaces; then a token of the document must come.
        let mut c = g.json_schema(&object).unwrap();
        feed(&mut c, &words, &format!("{{{}", " ".repeat(32)));
        let allowed = c.allowed().unwrap();
        assert!(!allowed.is_allowed(space) && !allowed.is_allowed(newline));
        assert!(allowed.is_allowed(u32::from(b'"' - 0x20)));
        // The schema's own options win: here any amount of whitespace.
        let mut free = object.clone();
        free["x-guidance"] = json!({"whitespace_flexible": true});
        let mut c = g.json_schema(&free).unwrap();
        feed(&mut c, &words, &format!("{{{}", " ".repeat(40)));
        c.commit(newline).unwrap();
        c.commit(newline).unwrap();
        assert!(c.allowed().unwrap().is_allowed(space));
    }

    #[test]
    fn invalid_schemas_are_errors_that_say_what_is_wrong() {
        let (g, _, _) = tiny();
        let e = g.json_schema(&json!({"type": "strin"})).unwrap_err();
        assert!(e.contains("strin"), "{e}");
        let e = g.json_schema(&json!("schemas/x.json")).unwrap_err();
        assert!(e.contains("not a string"), "{e}");
        let e = g
            .json_schema(&json!({"$ref": "#/$defs/missing"}))
            .unwrap_err();
        assert!(e.contains("missing"), "{e}");
        let e = g
            .json_schema(&json!({"type": "integer", "minimum": 5, "maximum": 1}))
            .unwrap_err();
        assert!(!e.is_empty());
    }

    #[test]
    fn a_vocabulary_without_its_end_token_is_refused() {
        let e = Grammars::from_vocabulary(vec![b"a".to_vec()], &[3]).unwrap_err();
        assert!(e.contains("end-of-sequence"), "{e}");
        assert!(Grammars::from_vocabulary(vec![b"a".to_vec()], &[]).is_err());
    }
}
