use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use verity_model::{
    ChatMessage, GenParams, Provider, ProviderError, ProviderErrorKind, ProviderSpec, Role, Usage,
};
use verity_providers::{GeminiProvider, build_with_env};
use verity_testkit::{FakeConfig, FakeServer, FakeToolCall, Fault};

use crate::{env_with, no_env, request, spec};

const KEY: &str = "AIzaPLANTED-gemini-3c5e1f";
const KEY_ENV: &str = "VERITY_TEST_GEMINI_KEY";

fn gemini_spec(server: &FakeServer, options: Value) -> ProviderSpec {
    ProviderSpec {
        api_key_env: Some(KEY_ENV.into()),
        ..spec(
            "gemini",
            Some("gemini-test"),
            Some(server.gemini_base_url()),
            options,
        )
    }
}

fn provider(server: &FakeServer, options: Value) -> Arc<dyn Provider> {
    build_with_env(&gemini_spec(server, options), &env_with(KEY_ENV, KEY)).unwrap()
}

async fn error_for(fault: Fault, options: Value) -> ProviderError {
    let server = FakeServer::start().await;
    server.push_faults([fault]);
    let err = provider(&server, options)
        .generate(&request("1 + 1"))
        .await
        .unwrap_err();
    assert_eq!(server.pending_faults(), 0, "the fault was not reached");
    err
}

fn google_error(code: u16, status: &str, message: &str, details: Value) -> Fault {
    Fault::Status {
        code,
        retry_after: None,
        body: json!({"error": {"code": code, "message": message, "status": status,
                               "details": details}})
        .to_string(),
    }
}

#[tokio::test]
async fn a_good_answer_parses() {
    let server = FakeServer::start().await;
    let p = provider(&server, json!({}));
    let mut req = request("What is 20 + 22?");
    req.messages
        .insert(0, ChatMessage::new(Role::System, "Answer with a number."));
    let g = p.generate(&req).await.unwrap();
    assert_eq!(g.text, "42");
    assert_eq!(
        g.usage,
        Usage {
            input_tokens: 9,
            output_tokens: 1
        }
    );
    assert_eq!(g.model.as_deref(), Some("gemini-test"));
    assert_eq!(g.finish_reason.as_deref(), Some("STOP"));
    assert!(g.tool_calls.is_empty());
    let raw: Value = serde_json::from_str(&g.raw).unwrap();
    assert!(raw["candidates"].is_array());
    assert_eq!(p.kind(), "gemini");
    assert!(!p.answer_depends_on_task());
    assert_eq!(p.model(), "gemini-test");
    assert_eq!(p.endpoint(), server.gemini_base_url());
    let r = &server.requests()[0];
    assert_eq!(r.path, "/v1beta/models/gemini-test:generateContent");
    assert_eq!(r.header("x-goog-api-key"), Some(KEY));
    assert_eq!(r.query, None, "the key never goes in the URL");
}

#[tokio::test]
async fn request_bodies_follow_generate_content() {
    let server = FakeServer::start().await;
    let p = provider(&server, json!({}));
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": false,
        "$defs": {"Unit": {"type": "string", "enum": ["m", "s"]}},
        "properties": {
            "n": {"type": "integer"},
            "unit": {"$ref": "#/$defs/Unit"},
            "note": {"type": ["string", "null"]},
        },
        "required": ["n"],
    });
    let tool = json!({"type": "function", "function": {
        "name": "search", "description": "Search the docs",
        "parameters": {"type": "object", "additionalProperties": false,
                       "properties": {"q": {"type": "string"}}, "required": ["q"]},
    }});
    let bare_tool = json!({"type": "function", "function": {"name": "clock",
                                                          "parameters": {"type": "object", "properties": {}}}});
    let mut req = request("hi");
    req.messages = vec![
        ChatMessage::new(Role::System, "sys"),
        ChatMessage::new(Role::User, "hi"),
        ChatMessage::new(Role::Assistant, "hello"),
        ChatMessage::new(Role::User, "more"),
        ChatMessage::new(Role::User, "and more"),
    ];
    req.params = GenParams {
        temperature: Some(0.25),
        top_p: Some(0.5),
        seed: Some(7),
        max_tokens: Some(64),
        stop: vec!["END".into()],
        response_schema: Some(schema),
    };
    req.tools = vec![tool, bare_tool, json!({"googleSearch": {}})];
    p.generate(&req).await.unwrap();
    p.generate(&request("plain")).await.unwrap();

    let recorded = server.requests();
    assert_eq!(recorded[0].header("content-type"), Some("application/json"));
    assert_eq!(
        recorded[0].body,
        json!({
            "contents": [
                {"role": "user", "parts": [{"text": "hi"}]},
                {"role": "model", "parts": [{"text": "hello"}]},
                {"role": "user", "parts": [{"text": "more"}, {"text": "and more"}]},
            ],
            "systemInstruction": {"parts": [{"text": "sys"}]},
            "generationConfig": {
                "temperature": 0.25,
                "topP": 0.5,
                "maxOutputTokens": 64,
                "stopSequences": ["END"],
                "seed": 7,
                "responseMimeType": "application/json",
                "responseSchema": {
                    "type": "OBJECT",
                    "propertyOrdering": ["n", "unit", "note"],
                    "properties": {
                        "n": {"type": "INTEGER"},
                        "unit": {"type": "STRING", "enum": ["m", "s"]},
                        "note": {"type": "STRING", "nullable": true},
                    },
                    "required": ["n"],
                },
            },
            "tools": [
                {"functionDeclarations": [
                    {"name": "search", "description": "Search the docs",
                     "parameters": {"type": "OBJECT", "properties": {"q": {"type": "STRING"}},
                                    "required": ["q"]}},
                    {"name": "clock"},
                ]},
                {"googleSearch": {}},
            ],
        })
    );
    // Nothing unset is sent.
    assert_eq!(
        recorded[1].body,
        json!({"contents": [{"role": "user", "parts": [{"text": "plain"}]}]})
    );
}

#[tokio::test]
async fn unconvertible_requests_fail_before_sending() {
    let server = FakeServer::start().await;
    let p = provider(&server, json!({}));
    let mut req = request("x");
    req.params.response_schema = Some(json!({
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
        "$ref": "#/$defs/Node",
    }));
    let err = p.generate(&req).await.unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::Config);
    assert!(
        err.message.contains("response_schema") && err.message.contains("recursive"),
        "{}",
        err.message
    );
    assert!(!err.is_retryable());

    let mut req = request("x");
    req.params.seed = Some(u64::from(u32::MAX));
    let err = p.generate(&req).await.unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::Config);
    assert!(err.message.contains("seed"), "{}", err.message);

    let mut req = request("x");
    req.tools = vec![json!({"type": "function", "function": {"description": "nameless"}})];
    let err = p.generate(&req).await.unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::Config);
    assert!(err.message.contains("no function name"), "{}", err.message);
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn tool_calls_round_trip() {
    let config = FakeConfig::default()
        .with_answer(|body| {
            // Echo what the model was told by the tool, to see it arrive.
            let tool = body["messages"]
                .as_array()
                .and_then(|ms| ms.iter().rev().find(|m| m["role"] == "tool").cloned());
            match tool {
                Some(m) => format!(
                    "{} said {}",
                    m["tool_call_id"].as_str().unwrap_or("?"),
                    m["content"].as_str().unwrap_or("?")
                ),
                None => verity_testkit::default_answer(body),
            }
        })
        .with_tool_calls(|body| {
            let answered = body["messages"]
                .as_array()
                .is_some_and(|ms| ms.iter().any(|m| m["role"] == "tool"));
            if answered {
                Vec::new()
            } else {
                vec![FakeToolCall::new(
                    "lookup",
                    r#"{"id": 7, "deep": {"a": [1]}}"#,
                )]
            }
        });
    let server = FakeServer::start_with(config).await;
    let p = provider(&server, json!({}));
    let mut req = request("look it up");
    req.tools = vec![json!({"type": "function", "function": {"name": "lookup",
        "parameters": {"type": "object", "properties": {"id": {"type": "integer"}}}}})];
    let g = p.generate(&req).await.unwrap();
    assert_eq!(g.text, "");
    assert_eq!(g.tool_calls.len(), 1);
    assert_eq!(g.tool_calls[0].name, "lookup");
    assert_eq!(
        g.tool_calls[0].arguments,
        json!({"id": 7, "deep": {"a": [1]}})
    );
    assert_eq!(g.tool_calls[0].id, None, "Gemini gave no id");

    // The runner's loop: the calls back as history, the result as a tool message.
    let mut call = g.tool_calls[0].clone();
    call.id = Some("call_0".into());
    req.messages.push(ChatMessage {
        tool_calls: vec![call],
        ..ChatMessage::new(Role::Assistant, "")
    });
    req.messages.push(ChatMessage {
        tool_call_id: Some("call_0".into()),
        ..ChatMessage::new(Role::Tool, "a plain string result")
    });
    let g2 = p.generate(&req).await.unwrap();
    assert_eq!(g2.text, r#"lookup said {"result":"a plain string result"}"#);
    assert_eq!(
        server.requests()[1].body["contents"],
        json!([
            {"role": "user", "parts": [{"text": "look it up"}]},
            {"role": "model", "parts": [
                {"functionCall": {"name": "lookup", "args": {"id": 7, "deep": {"a": [1]}}}},
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"name": "lookup",
                                      "response": {"result": "a plain string result"}}},
            ]},
        ])
    );
}

#[tokio::test]
async fn statuses_map_to_kinds() {
    let cases = [
        (
            Fault::status(503),
            ProviderErrorKind::Server { status: 503 },
        ),
        (
            Fault::status(500),
            ProviderErrorKind::Server { status: 500 },
        ),
        (
            Fault::status(400),
            ProviderErrorKind::Client { status: 400 },
        ),
        (
            Fault::status(404),
            ProviderErrorKind::Client { status: 404 },
        ),
        (Fault::status(401), ProviderErrorKind::Auth { status: 401 }),
        (Fault::status(403), ProviderErrorKind::Auth { status: 403 }),
        // The fake sends both a Retry-After header and RetryInfo; the header wins.
        (
            Fault::rate_limited("2"),
            ProviderErrorKind::RateLimited {
                retry_after: Some(Duration::from_secs(2)),
            },
        ),
        // Gemini's own way: RetryInfo in the body only.
        (
            google_error(
                429,
                "RESOURCE_EXHAUSTED",
                "Quota exceeded",
                json!([{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "17s"}]),
            ),
            ProviderErrorKind::RateLimited {
                retry_after: Some(Duration::from_secs(17)),
            },
        ),
        (
            google_error(
                400,
                "INVALID_ARGUMENT",
                "API key not valid. Please pass a valid API key.",
                json!([{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                        "reason": "API_KEY_INVALID", "domain": "googleapis.com"}]),
            ),
            ProviderErrorKind::Auth { status: 400 },
        ),
    ];
    for (fault, kind) in cases {
        let err = error_for(fault.clone(), json!({})).await;
        assert_eq!(err.kind, kind, "{fault:?}: {}", err.message);
    }
    let err = error_for(Fault::status(503), json!({})).await;
    assert!(err.is_retryable());
    assert!(
        err.message.contains("UNAVAILABLE: fake error 503"),
        "{}",
        err.message
    );
    let err = error_for(Fault::rate_limited("1"), json!({})).await;
    assert!(
        err.message.contains("RESOURCE_EXHAUSTED"),
        "{}",
        err.message
    );
    let err = error_for(
        google_error(
            400,
            "INVALID_ARGUMENT",
            "Invalid JSON payload received.",
            json!([]),
        ),
        json!({}),
    )
    .await;
    assert!(!err.is_retryable());
    assert!(
        err.message
            .contains("INVALID_ARGUMENT: Invalid JSON payload received."),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn blocked_and_empty_answers_are_invalid_responses() {
    for (body, needle) in [
        (
            json!({"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 3}}),
            "the prompt was blocked: SAFETY",
        ),
        (json!({"candidates": []}), "no candidates"),
    ] {
        let fault = Fault::Status {
            code: 200,
            retry_after: None,
            body: body.to_string(),
        };
        let err = error_for(fault, json!({})).await;
        assert_eq!(err.kind, ProviderErrorKind::InvalidResponse);
        assert!(err.message.contains(needle), "{}", err.message);
    }
    let err = error_for(Fault::WrongShape, json!({})).await;
    assert_eq!(err.kind, ProviderErrorKind::InvalidResponse);
    assert!(err.message.contains("no candidates"), "{}", err.message);
    let err = error_for(Fault::MalformedJson, json!({})).await;
    assert_eq!(err.kind, ProviderErrorKind::InvalidResponse);
}

#[tokio::test]
async fn transport_faults_map_to_kinds() {
    let started = Instant::now();
    let err = error_for(Fault::Hang, json!({"timeout_s": 0.3})).await;
    assert_eq!(err.kind, ProviderErrorKind::Timeout, "{}", err.message);
    assert!(started.elapsed() < Duration::from_secs(3));
    for fault in [Fault::Truncated, Fault::DropConnection] {
        let err = error_for(fault.clone(), json!({})).await;
        assert_eq!(
            err.kind,
            ProviderErrorKind::Connection,
            "{fault:?}: {}",
            err.message
        );
    }
}

#[tokio::test]
async fn the_key_never_leaks() {
    let server = FakeServer::start().await;
    let s = gemini_spec(&server, json!({}));
    let env = env_with(KEY_ENV, KEY);
    let typed = GeminiProvider::from_spec(&s, &env).unwrap();
    for shown in [
        format!("{typed:?}"),
        format!("{typed:#?}"),
        typed.endpoint(),
    ] {
        assert!(!shown.contains(KEY), "{shown}");
    }
    let p = build_with_env(&s, &env).unwrap();
    server.push_faults([
        google_error(
            400,
            "INVALID_ARGUMENT",
            &format!("API key {KEY} not valid"),
            json!([]),
        ),
        Fault::Status {
            code: 200,
            retry_after: None,
            body: format!(r#"{{"promptFeedback": {{"blockReason": "{KEY}"}}}}"#),
        },
    ]);
    for _ in 0..2 {
        let err = p.generate(&request("x")).await.unwrap_err();
        assert!(!err.message.contains(KEY), "{}", err.message);
        assert!(err.message.contains("[redacted]"), "{}", err.message);
    }
}

#[test]
fn missing_keys_fail_at_build_naming_the_variable() {
    let local = Some("http://127.0.0.1:9/v1beta".to_owned());
    let bare = spec("gemini", Some("g"), local.clone(), json!({}));
    let err = build_with_env(&bare, &no_env).err().unwrap();
    assert_eq!(err.kind, ProviderErrorKind::Config);
    assert!(err.message.contains("GEMINI_API_KEY"), "{}", err.message);
    let p = build_with_env(
        &spec("gemini", Some("g"), None, json!({})),
        &env_with("GEMINI_API_KEY", KEY),
    )
    .unwrap();
    assert_eq!(
        p.endpoint(),
        "https://generativelanguage.googleapis.com/v1beta"
    );
    let named = ProviderSpec {
        api_key_env: Some("VERITY_TEST_GEM_OTHER".into()),
        ..bare
    };
    let err = build_with_env(&named, &env_with("GEMINI_API_KEY", KEY))
        .err()
        .unwrap();
    assert!(
        err.message.contains("VERITY_TEST_GEM_OTHER"),
        "{}",
        err.message
    );
    for (s, needle) in [
        (
            spec("gemini", None, local.clone(), json!({})),
            "`model` is required",
        ),
        (
            spec("gemini", Some("g"), local, json!({"json_mode": true})),
            "unknown option",
        ),
    ] {
        let err = build_with_env(&s, &env_with("GEMINI_API_KEY", KEY))
            .err()
            .unwrap();
        assert!(err.message.contains(needle), "{}", err.message);
    }
}

#[tokio::test]
async fn models_may_carry_their_prefix() {
    let server = FakeServer::start().await;
    let mut s = gemini_spec(&server, json!({}));
    s.model = Some("models/gemini-2.5-flash".into());
    let p = build_with_env(&s, &env_with(KEY_ENV, KEY)).unwrap();
    assert_eq!(p.model(), "gemini-2.5-flash");
    let g = p.generate(&request("2 + 2")).await.unwrap();
    assert_eq!(g.text, "4");
    assert_eq!(g.model.as_deref(), Some("gemini-2.5-flash"));
    assert_eq!(
        server.requests()[0].path,
        "/v1beta/models/gemini-2.5-flash:generateContent"
    );
}
