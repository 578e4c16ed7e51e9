//! The tokenizer, built from the GGUF's own metadata with the `tokenizers` crate, and the
//! ChatML prompt format.
//!
//! * Vocabulary and merges: `tokenizer.ggml.tokens` / `tokenizer.ggml.merges` (byte-level
//!   BPE, `tokenizer.ggml.model = "gpt2"`).
//! * Pre-tokenizer: the one named by `tokenizer.ggml.pre` (`qwen2`, `smollm`, `llama3`, `gpt2`
//!   and their aliases), with the same split rules as llama.cpp and the models' own
//!   `tokenizer.json`. Qwen2's NFC normalizer is deliberately not applied (as in llama.cpp):
//!   it is the only step that would break `decode(encode(s)) == s` (combining marks).
//! * Special tokens: control tokens (`token_type` 3) are never produced from text — a prompt
//!   containing `<|im_end|>` is text, not a turn boundary — and decode to nothing;
//!   user-defined tokens (type 4) are matched in text like llama.cpp does.
//! * Decoding maps every token back to its exact bytes, so decoding is the inverse of encoding.

use std::collections::HashMap;

use tokenizers::models::bpe::{BPE, Vocab};
use tokenizers::pre_tokenizers::PreTokenizerWrapper;
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
use tokenizers::{AddedToken, SplitDelimiterBehavior};

use crate::gguf::{Gguf, Value};

const REGEX_QWEN2: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
const REGEX_LLAMA3: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

const TYPE_CONTROL: i64 = 3;
const TYPE_USER_DEFINED: i64 = 4;
const TYPE_BYTE: i64 = 6;

/// A model's tokenizer.
pub struct Tokenizer {
    inner: tokenizers::Tokenizer,
    /// The exact bytes each token stands for (empty for control tokens).
    bytes: Vec<Vec<u8>>,
    control: HashMap<String, u32>,
    /// Tokens that end a turn: the GGUF's EOS plus the end-of-turn control tokens.
    pub stop_ids: Vec<u32>,
    pub pre: String,
}

impl std::fmt::Debug for Tokenizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokenizer")
            .field("vocab", &self.bytes.len())
            .field("pre", &self.pre)
            .field("stop_ids", &self.stop_ids)
            .finish()
    }
}

/// GPT-2's reversible byte ↔ printable-character map.
fn byte_to_char() -> [char; 256] {
    let mut table = ['\0'; 256];
    let mut n = 0u32;
    for b in 0..=255u8 {
        let printable = matches!(b, b'!'..=b'~' | 0xa1..=0xac | 0xae..=0xff);
        table[b as usize] = if printable {
            b as char
        } else {
            let c = char::from_u32(256 + n).unwrap_or('\0');
            n += 1;
            c
        };
    }
    table
}

fn pre_tokenizer(pre: &str) -> Result<(PreTokenizerWrapper, bool), String> {
    let split = |re: &str| -> Result<PreTokenizerWrapper, String> {
        let s = Split::new(
            SplitPattern::Regex(re.to_owned()),
            SplitDelimiterBehavior::Isolated,
            false,
        )
        .map_err(|e| format!("pre-tokenizer regex: {e}"))?;
        Ok(Sequence::new(vec![s.into(), ByteLevel::new(false, false, false).into()]).into())
    };
    Ok(match pre {
        "qwen2" | "deepseek-r1-qwen" => (split(REGEX_QWEN2)?, false),
        "llama3" | "llama-bpe" | "smaug-bpe" | "lfm2" => (split(REGEX_LLAMA3)?, true),
        "smollm" | "starcoder" | "refact" | "codeshell" => (
            Sequence::new(vec![
                Digits::new(true).into(),
                ByteLevel::new(false, false, true).into(),
            ])
            .into(),
            false,
        ),
        "default" | "gpt2" | "gpt-2" => (ByteLevel::new(false, false, true).into(), false),
        other => {
            return Err(format!(
                "unsupported pre-tokenizer `{other}` (tokenizer.ggml.pre; supported: qwen2, \
                 smollm, llama3, gpt2 and their aliases)"
            ));
        }
    })
}

impl Tokenizer {
    /// Builds the tokenizer a GGUF file describes.
    pub fn from_gguf(g: &Gguf) -> Result<Tokenizer, String> {
        let model = g.str("tokenizer.ggml.model").map_err(|e| e.to_string())?;
        if model != "gpt2" {
            return Err(format!(
                "unsupported tokenizer `{model}` (tokenizer.ggml.model; only byte-level BPE, \
                 `gpt2`, is supported)"
            ));
        }
        let tokens = g
            .strings("tokenizer.ggml.tokens")
            .map_err(|e| e.to_string())?;
        let merges = g
            .strings("tokenizer.ggml.merges")
            .map_err(|e| e.to_string())?;
        let types: Vec<i64> = match g.metadata.get("tokenizer.ggml.token_type") {
            Some(Value::Array(a)) => a
                .iter()
                .map(|v| match v {
                    Value::I32(x) => *x as i64,
                    other => other.as_u64().map_or(1, |x| x as i64),
                })
                .collect(),
            _ => vec![1; tokens.len()],
        };
        if types.len() != tokens.len() {
            return Err("tokenizer.ggml.token_type and tokens differ in length".to_owned());
        }
        let pre = match g.metadata.get("tokenizer.ggml.pre") {
            Some(v) => v.as_str().unwrap_or("default").to_owned(),
            None => "default".to_owned(),
        };
        let (pre_tok, ignore_merges_default) = pre_tokenizer(&pre)?;
        let ignore_merges = match g.metadata.get("tokenizer.ggml.ignore_merges") {
            Some(Value::Bool(b)) => *b,
            _ => ignore_merges_default,
        };

        let vocab: Vocab = tokens
            .iter()
            .enumerate()
            .map(|(i, t)| ((*t).to_owned(), i as u32))
            .collect();
        let merges = merges
            .iter()
            .map(|m| {
                m.split_once(' ')
                    .map(|(a, b)| (a.to_owned(), b.to_owned()))
                    .ok_or_else(|| format!("invalid merge `{m}`"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let bpe = BPE::builder()
            .vocab_and_merges(vocab, merges)
            .ignore_merges(ignore_merges)
            .build()
            .map_err(|e| format!("building the BPE model: {e}"))?;
        let mut inner = tokenizers::Tokenizer::new(bpe);
        inner.with_pre_tokenizer(Some(pre_tok));

        let table = byte_to_char();
        let mut char_to_byte = HashMap::with_capacity(256);
        for (b, c) in table.iter().enumerate() {
            char_to_byte.insert(*c, b as u8);
        }
        let mut bytes = Vec::with_capacity(tokens.len());
        let mut control = HashMap::new();
        let mut user_defined = Vec::new();
        for (i, (t, ty)) in tokens.iter().zip(&types).enumerate() {
            let b = match *ty {
                TYPE_CONTROL => {
                    control.insert((*t).to_owned(), i as u32);
                    Vec::new()
                }
                TYPE_USER_DEFINED => {
                    user_defined.push(AddedToken::from((*t).to_owned(), false));
                    t.as_bytes().to_vec()
                }
                TYPE_BYTE => parse_byte_token(t).map_or_else(|| t.as_bytes().to_vec(), |b| vec![b]),
                _ => t
                    .chars()
                    .map(|c| char_to_byte.get(&c).copied())
                    .collect::<Option<Vec<u8>>>()
                    // A token outside the byte alphabet stands for its own text.
                    .unwrap_or_else(|| t.as_bytes().to_vec()),
            };
            bytes.push(b);
        }
        if !user_defined.is_empty() {
            inner
                .add_tokens(user_defined)
                .map_err(|e| format!("adding user-defined tokens: {e}"))?;
        }

        let mut stop_ids = Vec::new();
        if let Some(id) = g
            .metadata
            .get("tokenizer.ggml.eos_token_id")
            .and_then(Value::as_u64)
        {
            stop_ids.push(id as u32);
        }
        for name in [
            "<|im_end|>",
            "<|endoftext|>",
            "<|eot_id|>",
            "<|end|>",
            "<end_of_turn>",
        ] {
            if let Some(&id) = control.get(name)
                && !stop_ids.contains(&id)
            {
                stop_ids.push(id);
            }
        }
        stop_ids.retain(|&id| (id as usize) < tokens.len());
        if stop_ids.is_empty() {
            return Err("the GGUF names no end-of-sequence token".to_owned());
        }
        Ok(Tokenizer {
            inner,
            bytes,
            control,
            stop_ids,
            pre,
        })
    }

    pub fn vocab_size(&self) -> usize {
        self.bytes.len()
    }

    /// The id of a control token such as `<|im_start|>`.
    pub fn control(&self, text: &str) -> Option<u32> {
        self.control.get(text).copied()
    }

    /// The control tokens (never produced from text, decoded to nothing) by name.
    pub fn controls(&self) -> impl Iterator<Item = (&str, u32)> + '_ {
        self.control.iter().map(|(name, &id)| (name.as_str(), id))
    }

    /// The exact bytes token `id` stands for (empty for control tokens and unknown ids).
    pub fn token_bytes(&self, id: u32) -> &[u8] {
        self.bytes.get(id as usize).map_or(&[], Vec::as_slice)
    }

    /// Text to token ids; control tokens are never produced.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, String> {
        if text.is_empty() {
            return Ok(Vec::new());
        }
        self.inner
            .encode_fast(text, false)
            .map(|e| e.get_ids().to_vec())
            .map_err(|e| format!("tokenizing: {e}"))
    }

    /// The exact bytes of a token sequence (control tokens contribute nothing).
    pub fn decode_bytes(&self, ids: &[u32]) -> Vec<u8> {
        let mut out = Vec::new();
        for &id in ids {
            if let Some(b) = self.bytes.get(id as usize) {
                out.extend_from_slice(b);
            }
        }
        out
    }

    /// Token ids to text (invalid UTF-8, e.g. a sequence cut mid-character, becomes U+FFFD).
    pub fn decode(&self, ids: &[u32]) -> String {
        String::from_utf8_lossy(&self.decode_bytes(ids)).into_owned()
    }
}

fn parse_byte_token(t: &str) -> Option<u8> {
    let hex = t.strip_prefix("<0x")?.strip_suffix('>')?;
    u8::from_str_radix(hex, 16).ok()
}

/// The ChatML prompt format (`<|im_start|>role\ncontent<|im_end|>\n`), with the default
/// system prompt the GGUF's chat template inserts when a conversation has none.
#[derive(Clone, Debug)]
pub struct ChatFormat {
    im_start: u32,
    im_end: u32,
    pub default_system: Option<String>,
}

impl ChatFormat {
    /// Reads the format from the GGUF's `tokenizer.chat_template`; only ChatML templates are
    /// supported.
    pub fn from_gguf(g: &Gguf, tok: &Tokenizer) -> Result<ChatFormat, String> {
        let template = g
            .metadata
            .get("tokenizer.chat_template")
            .and_then(Value::as_str)
            .unwrap_or("");
        let (Some(im_start), Some(im_end)) =
            (tok.control("<|im_start|>"), tok.control("<|im_end|>"))
        else {
            return Err("unsupported chat format: the model has no ChatML tokens \
                 (<|im_start|>, <|im_end|>)"
                .to_owned());
        };
        if !template.is_empty() && !template.contains("<|im_start|>") {
            return Err(
                "unsupported chat template (only ChatML templates are supported)".to_owned(),
            );
        }
        Ok(ChatFormat {
            im_start,
            im_end,
            default_system: default_system_prompt(template),
        })
    }

    /// Token ids of a conversation followed by the opening of the assistant's turn.
    pub fn prompt(
        &self,
        tok: &Tokenizer,
        messages: &[(String, String)],
    ) -> Result<Vec<u32>, String> {
        let mut ids = Vec::new();
        let turn = |role: &str, content: &str, ids: &mut Vec<u32>| -> Result<(), String> {
            ids.push(self.im_start);
            ids.extend(tok.encode(&format!("{role}\n{content}"))?);
            ids.push(self.im_end);
            ids.extend(tok.encode("\n")?);
            Ok(())
        };
        let has_system = messages.first().is_some_and(|(r, _)| r == "system");
        if let (false, Some(sys)) = (has_system, &self.default_system) {
            turn("system", sys, &mut ids)?;
        }
        for (role, content) in messages {
            if role == "tool" {
                turn(
                    "user",
                    &format!("<tool_response>\n{content}\n</tool_response>"),
                    &mut ids,
                )?;
            } else {
                turn(role, content, &mut ids)?;
            }
        }
        ids.push(self.im_start);
        ids.extend(tok.encode("assistant\n")?);
        Ok(ids)
    }
}

/// The literal system prompt a ChatML template inserts when there is none:
/// the text of a `<|im_start|>system\n…<|im_end|>` literal holding no template code.
pub fn default_system_prompt(template: &str) -> Option<String> {
    let open = "<|im_start|>system";
    let mut rest = template;
    while let Some(at) = rest.find(open) {
        let after = &rest[at + open.len()..];
        let body = after
            .strip_prefix("\\n")
            .or_else(|| after.strip_prefix('\n'));
        if let Some(body) = body
            && let Some(end) = body.find("<|im_end|>")
        {
            let text = &body[..end];
            if !text.is_empty() && !text.contains(['\'', '"', '{', '}', '+']) {
                return Some(text.replace("\\n", "\n"));
            }
        }
        rest = after;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_map_is_a_bijection() {
        let t = byte_to_char();
        let set: std::collections::HashSet<char> = t.iter().copied().collect();
        assert_eq!(set.len(), 256);
        assert_eq!(t[b' ' as usize], 'Ġ');
        assert_eq!(t[b'\n' as usize], 'Ċ');
        assert_eq!(t[b'a' as usize], 'a');
    }

    #[test]
    fn default_system_prompts_come_from_the_template_literals() {
        let qwen = "{%- if messages[0]['role'] == 'system' %}{{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}{%- else %}{{- '<|im_start|>system\\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\\n' }}";
        assert_eq!(
            default_system_prompt(qwen).as_deref(),
            Some("You are Qwen, created by Alibaba Cloud. You are a helpful assistant.")
        );
        let smol = "{{ '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' }}";
        assert_eq!(
            default_system_prompt(smol).as_deref(),
            Some("You are a helpful AI assistant named SmolLM, trained by Hugging Face")
        );
        assert_eq!(
            default_system_prompt("{{ '<|im_start|>system\\n' + x }}"),
            None
        );
        assert_eq!(default_system_prompt(""), None);
    }

    #[test]
    fn unknown_pre_tokenizers_are_refused() {
        assert!(pre_tokenizer("qwen2").is_ok());
        assert!(pre_tokenizer("smollm").is_ok());
        assert!(pre_tokenizer("llama-bpe").is_ok());
        assert!(
            pre_tokenizer("jais")
                .unwrap_err()
                .contains("unsupported pre-tokenizer")
        );
    }
}
