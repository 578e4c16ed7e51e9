//! What the fake server says: OpenAI-shaped chat completions, model lists and errors, and the
//! default answer rule shared with the peer benchmark's mock server
//! (`shared/bench/mock_server.py`).

use serde_json::{Value, json};

/// A tool call the fake server puts in its answer (see [`crate::FakeConfig::tool_calls`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeToolCall {
    pub name: String,
    /// The arguments exactly as sent on the wire: OpenAI sends a JSON document in a string,
    /// and a test may send something that is not JSON to see how a client copes.
    pub arguments: String,
}

impl FakeToolCall {
    pub fn new(name: impl Into<String>, arguments: impl Into<String>) -> Self {
        FakeToolCall {
            name: name.into(),
            arguments: arguments.into(),
        }
    }
}

/// The default answer: `A+B` (as decimal digits, of any length) for the first `A + B` in the
/// last user message, otherwise that message itself.
pub fn default_answer(body: &Value) -> String {
    let prompt = last_user_text(body);
    match first_sum(&prompt) {
        Some(sum) => sum,
        None => prompt,
    }
}

/// The text of the last `user` message of a chat-completions request body (content given as
/// a string or as a list of parts), or `""`.
pub fn last_user_text(body: &Value) -> String {
    body.get("messages")
        .and_then(Value::as_array)
        .and_then(|ms| {
            ms.iter()
                .rev()
                .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
        })
        .map(|m| content_text(m.get("content")))
        .unwrap_or_default()
}

/// A message's content as text: a string as it is, a list of parts as their `text` fields
/// joined with spaces, anything else as `""`.
pub fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .map(|p| match p {
                Value::String(s) => s.as_str(),
                other => other.get("text").and_then(Value::as_str).unwrap_or(""),
            })
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    }
}

/// Whitespace token count, at least 1 (as the benchmark's mock counts).
pub fn count_tokens(text: &str) -> u64 {
    (text.split_whitespace().count() as u64).max(1)
}

/// Finds the first `A + B` (ASCII digits, optional whitespace around `+`) and adds them.
fn first_sum(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        // A maximal run of digits: a match can only start here if it starts at the run's start,
        // because the operand must be followed by whitespace or `+`.
        let a_start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let a = &text[a_start..i];
        let mut j = skip_whitespace(text, i);
        if bytes.get(j) != Some(&b'+') {
            continue;
        }
        j = skip_whitespace(text, j + 1);
        let b_start = j;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        if j > b_start {
            return Some(add_decimal(a, &text[b_start..j]));
        }
    }
    None
}

fn skip_whitespace(text: &str, from: usize) -> usize {
    text[from..]
        .char_indices()
        .find(|(_, c)| !c.is_whitespace())
        .map_or(text.len(), |(k, _)| from + k)
}

/// Adds two non-negative decimal numbers of any length.
fn add_decimal(a: &str, b: &str) -> String {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut digits = Vec::with_capacity(a.len().max(b.len()) + 1);
    let mut carry = 0u8;
    let (mut ia, mut ib) = (a.len(), b.len());
    while ia > 0 || ib > 0 || carry > 0 {
        let mut d = carry;
        if ia > 0 {
            ia -= 1;
            d += a[ia] - b'0';
        }
        if ib > 0 {
            ib -= 1;
            d += b[ib] - b'0';
        }
        digits.push(b'0' + d % 10);
        carry = d / 10;
    }
    while digits.len() > 1 && digits.last() == Some(&b'0') {
        digits.pop();
    }
    digits.reverse();
    String::from_utf8(digits).unwrap_or_default()
}

/// Everything a completion response is made of.
pub(crate) struct Completion {
    pub id: String,
    pub created: u64,
    pub model: String,
    pub content: String,
    pub tool_calls: Vec<FakeToolCall>,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

impl Completion {
    fn finish_reason(&self) -> &'static str {
        if self.tool_calls.is_empty() {
            "stop"
        } else {
            "tool_calls"
        }
    }

    fn usage(&self) -> Value {
        json!({
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.prompt_tokens + self.completion_tokens,
        })
    }

    fn tool_calls_json(&self) -> Vec<Value> {
        self.tool_calls
            .iter()
            .enumerate()
            .map(|(i, c)| {
                json!({
                    "index": i,
                    "id": format!("call_{}", i),
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments},
                })
            })
            .collect()
    }

    /// The non-streaming `chat.completion` object. With tool calls, `content` is null, as
    /// OpenAI sends it.
    pub fn to_json(&self) -> Vec<u8> {
        let mut message = json!({"role": "assistant", "content": self.content});
        if !self.tool_calls.is_empty() {
            message["content"] = Value::Null;
            message["tool_calls"] = Value::Array(self.tool_calls_json());
        }
        let body = json!({
            "id": self.id,
            "object": "chat.completion",
            "created": self.created,
            "model": self.model,
            "choices": [{
                "index": 0,
                "message": message,
                "finish_reason": self.finish_reason(),
                "logprobs": null,
            }],
            "usage": self.usage(),
        });
        serde_json::to_vec(&body).unwrap_or_default()
    }

    /// The same answer as a JSON object without `choices`.
    pub fn to_wrong_shape_json(&self) -> Vec<u8> {
        let body = json!({
            "id": self.id,
            "object": "chat.completion",
            "created": self.created,
            "model": self.model,
            "usage": self.usage(),
        });
        serde_json::to_vec(&body).unwrap_or_default()
    }

    /// Server-sent events of a streamed answer, each event one element.
    pub fn to_sse_events(&self, include_usage: bool) -> Vec<Vec<u8>> {
        let chunk = |delta: Value, finish: Value| {
            json!({
                "id": self.id,
                "object": "chat.completion.chunk",
                "created": self.created,
                "model": self.model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": null}],
            })
        };
        let mut events = vec![chunk(
            json!({"role": "assistant", "content": ""}),
            Value::Null,
        )];
        if self.tool_calls.is_empty() {
            events.push(chunk(json!({"content": self.content}), Value::Null));
        } else {
            events.push(chunk(
                json!({"tool_calls": self.tool_calls_json()}),
                Value::Null,
            ));
        }
        events.push(chunk(json!({}), json!(self.finish_reason())));
        if include_usage {
            events.push(json!({
                "id": self.id,
                "object": "chat.completion.chunk",
                "created": self.created,
                "model": self.model,
                "choices": [],
                "usage": self.usage(),
            }));
        }
        let mut out: Vec<Vec<u8>> = events
            .iter()
            .map(|e| {
                let mut line = b"data: ".to_vec();
                line.extend(serde_json::to_vec(e).unwrap_or_default());
                line.extend_from_slice(b"\n\n");
                line
            })
            .collect();
        out.push(b"data: [DONE]\n\n".to_vec());
        out
    }
}

/// An OpenAI-shaped error body.
pub(crate) fn error_body(message: &str, kind: &str) -> Vec<u8> {
    serde_json::to_vec(
        &json!({"error": {"message": message, "type": kind, "param": null, "code": null}}),
    )
    .unwrap_or_default()
}

/// The `GET /v1/models` body.
pub(crate) fn models_body(model: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "object": "list",
        "data": [{"id": model, "object": "model", "created": 0, "owned_by": "verity-testkit"}],
    }))
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(messages: Value) -> String {
        default_answer(&json!({ "messages": messages }))
    }

    #[test]
    fn adds_the_first_sum_in_the_last_user_message() {
        let cases = [
            ("What is 2 + 3?", "5"),
            ("12+30", "42"),
            ("x 7  +\t8 then 1 + 1", "15"),
            ("99999999999999999999999 + 1", "100000000000000000000000"),
            ("007 + 3", "10"),
            ("0 + 0", "0"),
            ("1 + x, but 4 + 4", "8"),
            ("3 plus 4", "3 plus 4"),
            ("+ 4", "+ 4"),
            ("", ""),
        ];
        for (prompt, want) in cases {
            assert_eq!(
                ask(json!([{"role": "user", "content": prompt}])),
                want,
                "{prompt:?}"
            );
        }
    }

    #[test]
    fn uses_the_last_user_message_and_content_parts() {
        let messages = json!([
            {"role": "system", "content": "1 + 1"},
            {"role": "user", "content": "2 + 2"},
            {"role": "assistant", "content": "4"},
            {"role": "user", "content": [{"type": "text", "text": "say"}, {"type": "text", "text": "hi"}]},
        ]);
        assert_eq!(ask(messages), "say hi");
        assert_eq!(ask(json!([{"role": "system", "content": "1 + 1"}])), "");
        assert_eq!(default_answer(&json!({"messages": "nope"})), "");
        assert_eq!(default_answer(&json!(null)), "");
    }

    #[test]
    fn token_counts_are_whitespace_words_at_least_one() {
        assert_eq!(count_tokens("a b  c\n"), 3);
        assert_eq!(count_tokens(""), 1);
    }

    #[test]
    fn completion_json_shape() {
        let c = Completion {
            id: "chatcmpl-1".into(),
            created: 7,
            model: "m".into(),
            content: "5".into(),
            tool_calls: vec![],
            prompt_tokens: 3,
            completion_tokens: 1,
        };
        let v: Value = serde_json::from_slice(&c.to_json()).unwrap();
        assert_eq!(
            v["choices"][0]["message"],
            json!({"role": "assistant", "content": "5"})
        );
        assert_eq!(v["choices"][0]["finish_reason"], "stop");
        assert_eq!(
            v["usage"],
            json!({"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4})
        );
        let w: Value = serde_json::from_slice(&c.to_wrong_shape_json()).unwrap();
        assert!(w.get("choices").is_none());

        let t = Completion {
            tool_calls: vec![FakeToolCall::new("search", "{\"q\":1}")],
            ..c
        };
        let v: Value = serde_json::from_slice(&t.to_json()).unwrap();
        assert_eq!(v["choices"][0]["message"]["content"], Value::Null);
        assert_eq!(
            v["choices"][0]["message"]["tool_calls"][0]["function"]["name"],
            "search"
        );
        assert_eq!(v["choices"][0]["finish_reason"], "tool_calls");
        let events = t.to_sse_events(true);
        assert_eq!(events.len(), 5);
        assert_eq!(events.last().unwrap(), b"data: [DONE]\n\n");
    }
}
