//! What the fake server says on Gemini's route (`POST /v1beta/models/{model}:generateContent`):
//! requests checked roughly the way the API checks them, seen by the answer hooks as
//! chat-completions bodies, and answers and errors in Gemini's shapes.

use serde_json::{Map, Value, json};

use crate::openai::Completion;

/// The model of a `/v1beta/models/{model}:generateContent` path (also `/v1/…`), if the path is
/// one.
pub(crate) fn route_model(path: &str) -> Option<&str> {
    let rest = path
        .strip_prefix("/v1beta/models/")
        .or_else(|| path.strip_prefix("/v1/models/"))?;
    let model = rest.strip_suffix(":generateContent")?;
    (!model.is_empty() && !model.contains('/')).then_some(model)
}

/// Why the API would reject a request body.
pub(crate) fn validate(body: &Value) -> Result<(), String> {
    let Some(object) = body.as_object() else {
        return Err("Invalid JSON payload received: the body must be an object".into());
    };
    let Some(contents) = object.get("contents").and_then(Value::as_array) else {
        return Err("* GenerateContentRequest.contents: contents is not specified".into());
    };
    if contents.is_empty() {
        return Err("* GenerateContentRequest.contents: contents is not specified".into());
    }
    for (i, c) in contents.iter().enumerate() {
        if !matches!(
            c.get("role").and_then(Value::as_str),
            None | Some("user" | "model")
        ) {
            return Err(format!(
                "* GenerateContentRequest.contents[{}].role: must be user or model",
                i
            ));
        }
        if c.get("parts")
            .and_then(Value::as_array)
            .is_none_or(|p| p.is_empty())
        {
            return Err(format!(
                "* GenerateContentRequest.contents[{}].parts: contents.parts must not be empty",
                i
            ));
        }
    }
    Ok(())
}

/// The request as an OpenAI chat-completions body, for the answer and tool-call hooks:
/// `systemInstruction` as a leading system message, `model` turns as assistant messages,
/// `text` parts as content parts, `functionCall` parts as `tool_calls`, `functionResponse`
/// parts as `tool` messages (`tool_call_id` is the function's name), function declarations as
/// function tools; plus `"api": "gemini"`, the model from the path, and the request itself as
/// `native`.
pub(crate) fn to_chat(body: &Value, model: &str) -> Value {
    let text_parts = |parts: Option<&Value>| -> Vec<Value> {
        parts
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .map(|t| json!({"type": "text", "text": t}))
            .collect()
    };
    let mut messages = Vec::new();
    if let Some(system) = body.get("systemInstruction") {
        messages.push(json!({"role": "system", "content": text_parts(system.get("parts"))}));
    }
    for c in body
        .get("contents")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let role = match c.get("role").and_then(Value::as_str) {
            Some("model") => "assistant",
            _ => "user",
        };
        let parts = c.get("parts").and_then(Value::as_array);
        let mut calls = Vec::new();
        for part in parts.into_iter().flatten() {
            if let Some(call) = part.get("functionCall") {
                calls.push(json!({
                    "id": call.get("id"),
                    "type": "function",
                    "function": {
                        "name": call.get("name"),
                        "arguments": call.get("args").map(Value::to_string),
                    },
                }));
            }
            if let Some(response) = part.get("functionResponse") {
                messages.push(json!({
                    "role": "tool",
                    "tool_call_id": response.get("name"),
                    "content": response.get("response").map(Value::to_string),
                }));
            }
        }
        let text = text_parts(c.get("parts"));
        if !text.is_empty() || !calls.is_empty() {
            let mut message = json!({"role": role, "content": text});
            if !calls.is_empty() {
                message["tool_calls"] = Value::Array(calls);
            }
            messages.push(message);
        }
    }
    let mut chat = Map::new();
    chat.insert("api".into(), json!("gemini"));
    chat.insert("model".into(), json!(model));
    chat.insert("messages".into(), Value::Array(messages));
    let tools: Vec<Value> = body
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t.get("functionDeclarations").and_then(Value::as_array))
        .flatten()
        .map(|d| {
            json!({"type": "function", "function": {
                "name": d.get("name"),
                "description": d.get("description"),
                "parameters": d.get("parameters"),
            }})
        })
        .collect();
    if !tools.is_empty() {
        chat.insert("tools".into(), Value::Array(tools));
    }
    chat.insert("native".into(), body.clone());
    Value::Object(chat)
}

fn usage(c: &Completion) -> Value {
    json!({
        "promptTokenCount": c.prompt_tokens,
        "candidatesTokenCount": c.completion_tokens,
        "totalTokenCount": c.prompt_tokens + c.completion_tokens,
    })
}

/// A `generateContent` answer: one candidate with one text part, or (with tool calls) one
/// `functionCall` part per call, whose `args` are the call's arguments parsed as JSON, or the
/// raw string when they are not.
pub(crate) fn response(c: &Completion) -> Vec<u8> {
    let parts: Vec<Value> = if c.tool_calls.is_empty() {
        vec![json!({"text": c.content})]
    } else {
        c.tool_calls
            .iter()
            .map(|call| {
                let args = serde_json::from_str::<Value>(&call.arguments)
                    .unwrap_or_else(|_| Value::String(call.arguments.clone()));
                json!({"functionCall": {"name": call.name, "args": args}})
            })
            .collect()
    };
    let body = json!({
        "candidates": [{
            "content": {"role": "model", "parts": parts},
            "finishReason": "STOP",
            "index": 0,
        }],
        "usageMetadata": usage(c),
        "modelVersion": c.model,
        "responseId": c.id,
    });
    serde_json::to_vec(&body).unwrap_or_default()
}

/// The same answer without `candidates`.
pub(crate) fn wrong_shape(c: &Completion) -> Vec<u8> {
    let body = json!({"usageMetadata": usage(c), "modelVersion": c.model});
    serde_json::to_vec(&body).unwrap_or_default()
}

/// Google's canonical status name for an HTTP status.
pub(crate) fn status_name(code: u16) -> &'static str {
    match code {
        400 => "INVALID_ARGUMENT",
        401 => "UNAUTHENTICATED",
        403 => "PERMISSION_DENIED",
        404 => "NOT_FOUND",
        409 => "ABORTED",
        429 => "RESOURCE_EXHAUSTED",
        499 => "CANCELLED",
        501 => "UNIMPLEMENTED",
        503 => "UNAVAILABLE",
        504 => "DEADLINE_EXCEEDED",
        500..=599 => "INTERNAL",
        _ => "FAILED_PRECONDITION",
    }
}

/// An error body in Google's shape. A retry delay given in whole or fractional seconds is
/// added as a `RetryInfo` detail, as Gemini sends it with 429.
pub(crate) fn error_body(code: u16, message: &str, retry_after: Option<&str>) -> Vec<u8> {
    let mut error = json!({"code": code, "message": message, "status": status_name(code)});
    if let Some(delay) = retry_after
        .map(str::trim)
        .filter(|d| d.parse::<f64>().is_ok_and(|s| s.is_finite() && s >= 0.0))
    {
        error["details"] = json!([{
            "@type": "type.googleapis.com/google.rpc.RetryInfo",
            "retryDelay": format!("{}s", delay),
        }]);
    }
    serde_json::to_vec(&json!({ "error": error })).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes() {
        assert_eq!(
            route_model("/v1beta/models/gemini-x:generateContent"),
            Some("gemini-x")
        );
        assert_eq!(route_model("/v1/models/g:generateContent"), Some("g"));
        for bad in [
            "/v1beta/models/:generateContent",
            "/v1beta/models/a/b:generateContent",
            "/v1beta/models/g:streamGenerateContent",
            "/v1beta/models/g",
            "/v2/models/g:generateContent",
        ] {
            assert_eq!(route_model(bad), None, "{bad}");
        }
    }

    #[test]
    fn error_bodies() {
        let v: Value = serde_json::from_slice(&error_body(429, "slow down", Some("1.5"))).unwrap();
        assert_eq!(v["error"]["status"], "RESOURCE_EXHAUSTED");
        assert_eq!(v["error"]["details"][0]["retryDelay"], "1.5s");
        let v: Value = serde_json::from_slice(&error_body(503, "x", Some("soon"))).unwrap();
        assert_eq!(v["error"]["status"], "UNAVAILABLE");
        assert!(v["error"].get("details").is_none());
    }
}
