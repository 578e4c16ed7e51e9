//! What the fake server says on Anthropic's route (`POST /v1/messages`): requests checked the
//! way the Messages API checks them, seen by the answer hooks as chat-completions bodies, and
//! answers and errors in Anthropic's shapes.

use serde_json::{Map, Value, json};

use crate::openai::{Completion, content_text};

/// Why the API would reject a request body, as Anthropic words it.
pub(crate) fn validate(body: &Value) -> Result<(), String> {
    let Some(object) = body.as_object() else {
        return Err("the request body must be a JSON object".into());
    };
    if !object.get("model").is_some_and(Value::is_string) {
        return Err("model: Field required".into());
    }
    if object
        .get("max_tokens")
        .and_then(Value::as_u64)
        .is_none_or(|n| n < 1)
    {
        return Err("max_tokens: Field required (a positive integer)".into());
    }
    let Some(messages) = object.get("messages").and_then(Value::as_array) else {
        return Err("messages: Field required".into());
    };
    for (i, m) in messages.iter().enumerate() {
        match m.get("role").and_then(Value::as_str) {
            Some("user" | "assistant") => {}
            _ => {
                return Err(format!(
                    "messages.{}.role: Input should be 'user' or 'assistant'",
                    i
                ));
            }
        }
        if !m
            .get("content")
            .is_some_and(|c| c.is_string() || c.is_array())
        {
            return Err(format!("messages.{}.content: Field required", i));
        }
    }
    if object.get("stream").and_then(Value::as_bool) == Some(true) {
        return Err("the fake server does not stream Messages answers".into());
    }
    Ok(())
}

/// The request as an OpenAI chat-completions body, for the answer and tool-call hooks:
/// `system` as a leading system message, text blocks as content parts, `tool_use` blocks as
/// `tool_calls`, `tool_result` blocks as `tool` messages (before the rest of their turn),
/// tools in the function shape; plus `"api": "anthropic"` and the request itself as `native`.
pub(crate) fn to_chat(body: &Value) -> Value {
    let mut messages = Vec::new();
    match body.get("system") {
        Some(Value::String(s)) => messages.push(json!({"role": "system", "content": s})),
        Some(blocks @ Value::Array(_)) => {
            messages.push(json!({"role": "system", "content": content_text(Some(blocks))}))
        }
        _ => {}
    }
    for m in body
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let role = m.get("role").and_then(Value::as_str).unwrap_or("user");
        let blocks = match m.get("content") {
            Some(Value::String(s)) => {
                messages.push(json!({"role": role, "content": s}));
                continue;
            }
            Some(Value::Array(blocks)) => blocks,
            _ => continue,
        };
        let mut parts = Vec::new();
        let mut calls = Vec::new();
        for block in blocks {
            match block.get("type").and_then(Value::as_str) {
                Some("text") => parts.push(json!({"type": "text", "text": block.get("text")})),
                Some("tool_use") => calls.push(json!({
                    "id": block.get("id"),
                    "type": "function",
                    "function": {
                        "name": block.get("name"),
                        "arguments": block.get("input").map(Value::to_string),
                    },
                })),
                Some("tool_result") => {
                    let content = match block.get("content") {
                        Some(Value::String(s)) => s.clone(),
                        other => content_text(other),
                    };
                    messages.push(json!({
                        "role": "tool",
                        "tool_call_id": block.get("tool_use_id"),
                        "content": content,
                    }));
                }
                _ => {}
            }
        }
        if !parts.is_empty() || !calls.is_empty() {
            let mut message = json!({"role": role, "content": parts});
            if !calls.is_empty() {
                message["tool_calls"] = Value::Array(calls);
            }
            messages.push(message);
        }
    }
    let mut chat = Map::new();
    chat.insert("api".into(), json!("anthropic"));
    chat.insert(
        "model".into(),
        body.get("model").cloned().unwrap_or(Value::Null),
    );
    chat.insert("messages".into(), Value::Array(messages));
    if let Some(tools) = body.get("tools").and_then(Value::as_array) {
        let tools = tools
            .iter()
            .map(|t| {
                json!({"type": "function", "function": {
                    "name": t.get("name"),
                    "description": t.get("description"),
                    "parameters": t.get("input_schema"),
                }})
            })
            .collect();
        chat.insert("tools".into(), Value::Array(tools));
    }
    chat.insert("native".into(), body.clone());
    Value::Object(chat)
}

/// The tool `tool_choice` forces (`{"type": "tool", "name": …}`), if any.
pub(crate) fn forced_tool(body: &Value) -> Option<&str> {
    let choice = body.get("tool_choice")?;
    if choice.get("type").and_then(Value::as_str) != Some("tool") {
        return None;
    }
    choice.get("name").and_then(Value::as_str)
}

/// The input of a forced tool call made from an answer text: the text itself when it is a
/// JSON object, else the text (as JSON where it parses) under `answer`.
pub(crate) fn forced_input(text: &str) -> Value {
    match serde_json::from_str::<Value>(text) {
        Ok(object @ Value::Object(_)) => object,
        Ok(other) => json!({ "answer": other }),
        Err(_) => json!({ "answer": text }),
    }
}

fn usage(c: &Completion) -> Value {
    json!({"input_tokens": c.prompt_tokens, "output_tokens": c.completion_tokens})
}

/// A Messages API answer: one text block, or (with tool calls) one `tool_use` block per call,
/// whose `input` is the call's arguments parsed as JSON, or the raw string when they are not.
pub(crate) fn response(c: &Completion) -> Vec<u8> {
    let (content, stop_reason) = if c.tool_calls.is_empty() {
        (vec![json!({"type": "text", "text": c.content})], "end_turn")
    } else {
        let blocks = c
            .tool_calls
            .iter()
            .enumerate()
            .map(|(i, call)| {
                let input = serde_json::from_str::<Value>(&call.arguments)
                    .unwrap_or_else(|_| Value::String(call.arguments.clone()));
                json!({"type": "tool_use", "id": format!("toolu_{}", i), "name": call.name,
                       "input": input})
            })
            .collect();
        (blocks, "tool_use")
    };
    let body = json!({
        "id": format!("msg_{}", c.id.trim_start_matches("chatcmpl-")),
        "type": "message",
        "role": "assistant",
        "model": c.model,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": null,
        "usage": usage(c),
    });
    serde_json::to_vec(&body).unwrap_or_default()
}

/// The same answer without `content`.
pub(crate) fn wrong_shape(c: &Completion) -> Vec<u8> {
    let body = json!({"id": "msg_broken", "type": "message", "model": c.model, "usage": usage(c)});
    serde_json::to_vec(&body).unwrap_or_default()
}

/// Anthropic's error type for a status.
pub(crate) fn error_type(code: u16) -> &'static str {
    match code {
        401 => "authentication_error",
        403 => "permission_error",
        404 => "not_found_error",
        413 => "request_too_large",
        429 => "rate_limit_error",
        529 => "overloaded_error",
        500..=599 => "api_error",
        _ => "invalid_request_error",
    }
}

/// An error body in Anthropic's envelope.
pub(crate) fn error_body(code: u16, message: &str) -> Vec<u8> {
    let body = json!({"type": "error", "error": {"type": error_type(code), "message": message}});
    serde_json::to_vec(&body).unwrap_or_default()
}
