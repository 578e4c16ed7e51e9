//! The Anthropic and Gemini routes: answers, request checks, the hooks' view and faults.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use verity_testkit::{FakeConfig, FakeServer, FakeToolCall, Fault};

async fn post_to(url: String, key: (&str, &str), body: &Value) -> (u16, Option<String>, Value) {
    let resp = reqwest::Client::new()
        .post(url)
        .header(key.0, key.1)
        .json(body)
        .send()
        .await
        .expect("request failed");
    let status = resp.status().as_u16();
    let retry_after = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let bytes = resp.bytes().await.unwrap();
    let body = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, retry_after, body)
}

async fn messages(server: &FakeServer, body: &Value) -> (u16, Option<String>, Value) {
    let url = format!("{}/messages", server.anthropic_base_url());
    post_to(url, ("x-api-key", "k-anthropic"), body).await
}

async fn generate(server: &FakeServer, model: &str, body: &Value) -> (u16, Option<String>, Value) {
    let url = format!(
        "{}/models/{}:generateContent",
        server.gemini_base_url(),
        model
    );
    post_to(url, ("x-goog-api-key", "k-gemini"), body).await
}

fn anthropic_body(prompt: &str) -> Value {
    json!({"model": "claude-t", "max_tokens": 64,
           "messages": [{"role": "user", "content": prompt}]})
}

fn gemini_body(prompt: &str) -> Value {
    json!({"contents": [{"role": "user", "parts": [{"text": prompt}]}]})
}

#[tokio::test]
async fn base_urls() {
    let server = FakeServer::start().await;
    let addr = server.addr();
    assert_eq!(server.anthropic_base_url(), format!("http://{addr}/v1"));
    assert_eq!(server.gemini_base_url(), format!("http://{addr}/v1beta"));
}

#[tokio::test]
async fn anthropic_answers_in_the_messages_shape() {
    let server = FakeServer::start().await;
    let body = json!({
        "model": "claude-t",
        "max_tokens": 64,
        "system": "be brief",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "What is 40 + 2?"}]}],
    });
    let (status, _, v) = messages(&server, &body).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["type"], "message");
    assert_eq!(v["role"], "assistant");
    assert_eq!(v["id"], "msg_1");
    assert_eq!(v["model"], "claude-t");
    assert_eq!(v["content"], json!([{"type": "text", "text": "42"}]));
    assert_eq!(v["stop_reason"], "end_turn");
    assert_eq!(v["usage"], json!({"input_tokens": 7, "output_tokens": 1}));
    let recorded = server.requests();
    assert_eq!(recorded[0].path, "/v1/messages");
    assert_eq!(recorded[0].header("x-api-key"), Some("k-anthropic"));
    assert_eq!(recorded[0].body, body);
    assert_eq!(
        server
            .settled_stats(1, std::time::Duration::from_secs(5))
            .await
            .completed,
        1
    );
}

#[tokio::test]
async fn anthropic_requests_are_checked_like_the_api_does() {
    let server = FakeServer::start().await;
    for (body, needle) in [
        (
            json!({"model": "m", "messages": [{"role": "user", "content": "x"}]}),
            "max_tokens",
        ),
        (
            json!({"model": "m", "max_tokens": 0, "messages": []}),
            "max_tokens",
        ),
        (json!({"max_tokens": 5, "messages": []}), "model"),
        (json!({"model": "m", "max_tokens": 5}), "messages"),
        (
            json!({"model": "m", "max_tokens": 5, "messages": [{"role": "system", "content": "x"}]}),
            "messages.0.role",
        ),
        (
            json!({"model": "m", "max_tokens": 5, "messages": [{"role": "user"}]}),
            "messages.0.content",
        ),
        (
            json!({"model": "m", "max_tokens": 5, "messages": [], "stream": true}),
            "stream",
        ),
        (json!([1]), "JSON object"),
    ] {
        let (status, _, v) = messages(&server, &body).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(v["type"], "error", "{v}");
        assert_eq!(v["error"]["type"], "invalid_request_error");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(needle), "{body}: {message}");
    }
    assert_eq!(server.stats().completed, 0);
}

#[tokio::test]
async fn hooks_see_anthropic_requests_as_chat_completions() {
    let seen: Arc<Mutex<Vec<Value>>> = Arc::default();
    let log = Arc::clone(&seen);
    let config = FakeConfig::default().with_answer(move |body| {
        log.lock().unwrap().push(body.clone());
        verity_testkit::default_answer(body)
    });
    let server = FakeServer::start_with(config).await;
    let body = json!({
        "model": "claude-t",
        "max_tokens": 64,
        "system": [{"type": "text", "text": "sys"}],
        "tools": [{"name": "search", "description": "d", "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": "find 1 + 2"},
            {"role": "assistant", "content": [
                {"type": "text", "text": "looking"},
                {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"q": "x"}},
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "found"},
                {"type": "text", "text": "and 2 + 5?"},
            ]},
        ],
    });
    let (status, _, v) = messages(&server, &body).await;
    assert_eq!(status, 200);
    assert_eq!(v["content"][0]["text"], "7");
    let chat = seen.lock().unwrap()[0].clone();
    assert_eq!(chat["api"], "anthropic");
    assert_eq!(chat["model"], "claude-t");
    assert_eq!(chat["native"], body);
    assert_eq!(
        chat["messages"],
        json!([
            {"role": "system", "content": "sys"},
            {"role": "user", "content": "find 1 + 2"},
            {"role": "assistant", "content": [{"type": "text", "text": "looking"}],
             "tool_calls": [{"id": "toolu_1", "type": "function",
                             "function": {"name": "search", "arguments": "{\"q\":\"x\"}"}}]},
            {"role": "tool", "tool_call_id": "toolu_1", "content": "found"},
            {"role": "user", "content": [{"type": "text", "text": "and 2 + 5?"}]},
        ])
    );
    assert_eq!(
        chat["tools"],
        json!([{"type": "function", "function": {"name": "search", "description": "d",
                                                 "parameters": {"type": "object"}}}])
    );
}

#[tokio::test]
async fn anthropic_tool_uses_and_forced_tools() {
    let config = FakeConfig::default().with_tool_calls(|body| {
        if body["native"]["tool_choice"].is_null() {
            vec![
                FakeToolCall::new("search", r#"{"q": "rust"}"#),
                FakeToolCall::new("raw", "not json"),
            ]
        } else {
            Vec::new()
        }
    });
    let server = FakeServer::start_with(config).await;
    let (_, _, v) = messages(&server, &anthropic_body("x")).await;
    assert_eq!(v["stop_reason"], "tool_use");
    assert_eq!(
        v["content"],
        json!([
            {"type": "tool_use", "id": "toolu_0", "name": "search", "input": {"q": "rust"}},
            {"type": "tool_use", "id": "toolu_1", "name": "raw", "input": "not json"},
        ])
    );

    let forced = |prompt: &str| {
        let mut body = anthropic_body(prompt);
        body["tool_choice"] = json!({"type": "tool", "name": "answer"});
        body
    };
    for (prompt, input) in [
        (r#"{"n": 5}"#, json!({"n": 5})),
        ("[1, 2]", json!({"answer": [1, 2]})),
        ("plain words", json!({"answer": "plain words"})),
    ] {
        let (_, _, v) = messages(&server, &forced(prompt)).await;
        assert_eq!(v["stop_reason"], "tool_use");
        assert_eq!(
            v["content"],
            json!([{"type": "tool_use", "id": "toolu_0", "name": "answer", "input": input}]),
            "{prompt}"
        );
    }
}

#[tokio::test]
async fn gemini_answers_in_the_generate_content_shape() {
    let server = FakeServer::start().await;
    let body = json!({
        "systemInstruction": {"parts": [{"text": "be brief"}]},
        "contents": [{"role": "user", "parts": [{"text": "What is"}, {"text": "40 + 2?"}]}],
        "generationConfig": {"temperature": 0},
    });
    let (status, _, v) = generate(&server, "gemini-t", &body).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["candidates"][0]["content"],
        json!({"role": "model", "parts": [{"text": "42"}]})
    );
    assert_eq!(v["candidates"][0]["finishReason"], "STOP");
    assert_eq!(v["modelVersion"], "gemini-t");
    assert_eq!(
        v["usageMetadata"],
        json!({"promptTokenCount": 7, "candidatesTokenCount": 1, "totalTokenCount": 8})
    );
    let recorded = server.requests();
    assert_eq!(recorded[0].path, "/v1beta/models/gemini-t:generateContent");
    assert_eq!(recorded[0].header("x-goog-api-key"), Some("k-gemini"));
    assert_eq!(recorded[0].body, body);

    // The configured model wins over the path's.
    let config = FakeConfig {
        model: "served".into(),
        ..FakeConfig::default()
    };
    let custom = FakeServer::start_with(config).await;
    let (_, _, v) = generate(&custom, "gemini-t", &gemini_body("hi")).await;
    assert_eq!(v["modelVersion"], "served");
}

#[tokio::test]
async fn gemini_requests_are_checked() {
    let server = FakeServer::start().await;
    for (body, needle) in [
        (json!({}), "contents"),
        (json!({"contents": []}), "contents"),
        (
            json!({"contents": [{"role": "user", "parts": []}]}),
            "parts",
        ),
        (
            json!({"contents": [{"role": "assistant", "parts": [{"text": "x"}]}]}),
            "role",
        ),
        (json!("text"), "object"),
    ] {
        let (status, _, v) = generate(&server, "g", &body).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(v["error"]["code"], 400);
        assert_eq!(v["error"]["status"], "INVALID_ARGUMENT");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(needle), "{body}: {message}");
    }
    // Other model paths are not routes.
    let url = format!(
        "{}/models/g:streamGenerateContent",
        server.gemini_base_url()
    );
    let (status, _, _) = post_to(url, ("x-goog-api-key", "k"), &gemini_body("x")).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn hooks_see_gemini_requests_as_chat_completions() {
    let seen: Arc<Mutex<Vec<Value>>> = Arc::default();
    let log = Arc::clone(&seen);
    let config = FakeConfig::default()
        .with_answer(move |body| {
            log.lock().unwrap().push(body.clone());
            verity_testkit::default_answer(body)
        })
        .with_tool_calls(|body| {
            if verity_testkit::last_user_text(body).contains("call") {
                vec![FakeToolCall::new("lookup", r#"{"id": 7}"#)]
            } else {
                Vec::new()
            }
        });
    let server = FakeServer::start_with(config).await;
    let body = json!({
        "systemInstruction": {"parts": [{"text": "sys"}]},
        "tools": [{"functionDeclarations": [{"name": "lookup", "parameters": {"type": "OBJECT"}}]},
                  {"googleSearch": {}}],
        "contents": [
            {"role": "user", "parts": [{"text": "please call"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "lookup", "args": {"id": 1}}}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "lookup", "response": {"ok": true}}}]},
        ],
    });
    let (status, _, v) = generate(&server, "gemini-t", &body).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["candidates"][0]["content"]["parts"],
        json!([{"functionCall": {"name": "lookup", "args": {"id": 7}}}])
    );
    let chat = seen.lock().unwrap()[0].clone();
    assert_eq!(chat["api"], "gemini");
    assert_eq!(chat["model"], "gemini-t");
    assert_eq!(
        chat["messages"],
        json!([
            {"role": "system", "content": [{"type": "text", "text": "sys"}]},
            {"role": "user", "content": [{"type": "text", "text": "please call"}]},
            {"role": "assistant", "content": [],
             "tool_calls": [{"id": null, "type": "function",
                             "function": {"name": "lookup", "arguments": "{\"id\":1}"}}]},
            {"role": "tool", "tool_call_id": "lookup", "content": "{\"ok\":true}"},
        ])
    );
    assert_eq!(chat["tools"][0]["function"]["name"], "lookup");
    assert_eq!(chat["tools"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn faults_apply_to_every_api_in_its_own_shape() {
    let server = FakeServer::start().await;
    server.push_faults([
        Fault::status(529),
        Fault::rate_limited("2"),
        Fault::WrongShape,
        Fault::rate_limited("1.5"),
        Fault::status(503),
        Fault::WrongShape,
        Fault::status(401),
    ]);
    let (status, _, v) = messages(&server, &anthropic_body("x")).await;
    assert_eq!(status, 529);
    assert_eq!(
        v,
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "fake error 529"}})
    );
    let (status, retry_after, v) = messages(&server, &anthropic_body("x")).await;
    assert_eq!((status, retry_after.as_deref()), (429, Some("2")));
    assert_eq!(v["error"]["type"], "rate_limit_error");
    let (status, _, v) = messages(&server, &anthropic_body("x")).await;
    assert_eq!(status, 200);
    assert!(v.get("content").is_none() && v["type"] == "message", "{v}");

    let (status, retry_after, v) = generate(&server, "g", &gemini_body("x")).await;
    assert_eq!((status, retry_after.as_deref()), (429, Some("1.5")));
    assert_eq!(v["error"]["status"], "RESOURCE_EXHAUSTED");
    assert_eq!(v["error"]["details"][0]["retryDelay"], "1.5s");
    let (status, _, v) = generate(&server, "g", &gemini_body("x")).await;
    assert_eq!(status, 503);
    assert_eq!(
        v,
        json!({"error": {"code": 503, "message": "fake error 503", "status": "UNAVAILABLE"}})
    );
    let (status, _, v) = generate(&server, "g", &gemini_body("x")).await;
    assert_eq!(status, 200);
    assert!(v.get("candidates").is_none() && v.get("usageMetadata").is_some());

    // The OpenAI route keeps its own shape.
    let url = format!("{}/chat/completions", server.base_url());
    let chat = json!({"model": "m", "messages": [{"role": "user", "content": "x"}]});
    let (status, _, v) = post_to(url, ("authorization", "Bearer k"), &chat).await;
    assert_eq!(status, 401);
    assert_eq!(v["error"]["type"], "authentication_error");
    assert_eq!(server.pending_faults(), 0);
    assert_eq!(server.stats().faults, 7);
}

#[tokio::test]
async fn anthropic_and_gemini_routes_take_post_only() {
    let server = FakeServer::start().await;
    let client = reqwest::Client::new();
    for url in [
        format!("{}/messages", server.anthropic_base_url()),
        format!("{}/models/g:generateContent", server.gemini_base_url()),
    ] {
        let resp = client.get(&url).send().await.unwrap();
        assert_eq!(resp.status(), 405, "{url}");
        assert_eq!(resp.headers()["allow"], "POST");
    }
}
