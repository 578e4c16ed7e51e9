use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use verity_model::{
    ChatMessage, GenParams, Provider, ProviderError, ProviderErrorKind, ProviderSpec, Role,
    ToolCall, Usage,
};
use verity_providers::{AnthropicProvider, build_with_env};
use verity_testkit::{FakeConfig, FakeServer, FakeToolCall, Fault};

use crate::{env_with, no_env, request, spec};

const KEY: &str = "sk-ant-PLANTED-9b41d07e";
const KEY_ENV: &str = "VERITY_TEST_ANTHROPIC_KEY";

fn anthropic_spec(server: &FakeServer, options: Value) -> ProviderSpec {
    ProviderSpec {
        api_key_env: Some(KEY_ENV.into()),
        ..spec(
            "anthropic",
            Some("claude-test"),
            Some(server.anthropic_base_url()),
            options,
        )
    }
}

fn provider(server: &FakeServer, options: Value) -> Arc<dyn Provider> {
    build_with_env(&anthropic_spec(server, options), &env_with(KEY_ENV, KEY)).unwrap()
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

#[tokio::test]
async fn a_good_answer_parses() {
    let config = FakeConfig {
        model: "claude-served-2025".into(),
        ..FakeConfig::default()
    };
    let server = FakeServer::start_with(config).await;
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
    assert_eq!(g.model.as_deref(), Some("claude-served-2025"));
    assert_eq!(g.finish_reason.as_deref(), Some("end_turn"));
    assert!(g.tool_calls.is_empty());
    let raw: Value = serde_json::from_str(&g.raw).unwrap();
    assert_eq!(raw["type"], "message");
    assert_eq!(p.kind(), "anthropic");
    assert!(!p.answer_depends_on_task());
    assert_eq!(p.model(), "claude-test");
    assert_eq!(p.endpoint(), server.anthropic_base_url());
}

#[tokio::test]
async fn request_bodies_follow_the_messages_api() {
    let server = FakeServer::start().await;
    let p = provider(&server, json!({}));
    let tool = json!({"type": "function", "function": {
        "name": "search", "description": "Search the docs",
        "parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
    }});
    let mut req = request("hi");
    req.messages = vec![
        ChatMessage::new(Role::System, "sys one"),
        ChatMessage::new(Role::User, "hi"),
        ChatMessage::new(Role::System, "sys two"),
    ];
    req.params = GenParams {
        temperature: Some(0.25),
        top_p: Some(0.5),
        seed: Some(7),
        max_tokens: Some(64),
        stop: vec!["END".into()],
        response_schema: None,
    };
    req.tools = vec![
        tool,
        json!({"type": "web_search_20250305", "name": "web_search"}),
    ];
    p.generate(&req).await.unwrap();
    p.generate(&request("plain")).await.unwrap();

    let recorded = server.requests();
    assert_eq!(recorded.len(), 2);
    assert_eq!(recorded[0].method, "POST");
    assert_eq!(recorded[0].path, "/v1/messages");
    assert_eq!(recorded[0].header("x-api-key"), Some(KEY));
    assert_eq!(recorded[0].header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(recorded[0].header("authorization"), None);
    assert_eq!(recorded[0].header("content-type"), Some("application/json"));
    assert_eq!(
        recorded[0].body,
        json!({
            "model": "claude-test",
            "max_tokens": 64,
            "system": "sys one\n\nsys two",
            "messages": [{"role": "user", "content": "hi"}],
            "temperature": 0.25,
            "top_p": 0.5,
            "stop_sequences": ["END"],
            "tools": [
                {"name": "search", "description": "Search the docs",
                 "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}}},
                {"type": "web_search_20250305", "name": "web_search"},
            ],
        })
    );
    // max_tokens is required by the API: 1024 when the variant sets none; nothing else unset
    // is sent, and seed has no Anthropic equivalent.
    assert_eq!(
        recorded[1].body,
        json!({"model": "claude-test", "max_tokens": 1024,
               "messages": [{"role": "user", "content": "plain"}]})
    );
}

#[tokio::test]
async fn response_schemas_become_a_forced_answer_tool() {
    let config = FakeConfig::default().with_answer(|body| {
        if body["native"]["tools"][0]["input_schema"]["type"] == "object"
            && body["native"]["tools"][0]["input_schema"]["properties"]["answer"].is_null()
        {
            r#"{"n": 42, "unit": "m"}"#.to_owned()
        } else {
            "[1, 2]".to_owned()
        }
    });
    let server = FakeServer::start_with(config).await;
    let p = provider(&server, json!({}));
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    let mut req = request("measure");
    req.params.response_schema = Some(schema.clone());
    let g = p.generate(&req).await.unwrap();
    assert_eq!(g.text, r#"{"n":42,"unit":"m"}"#);
    assert!(g.tool_calls.is_empty(), "{:?}", g.tool_calls);
    assert_eq!(g.finish_reason.as_deref(), Some("tool_use"));
    let body = &server.requests()[0].body;
    assert_eq!(
        body["tools"],
        json!([{"name": "answer", "description": "Give the final answer in this structure.",
                "input_schema": schema}])
    );
    assert_eq!(
        body["tool_choice"],
        json!({"type": "tool", "name": "answer"})
    );

    // A schema whose root is not an object travels as the `answer` property of one.
    let list = json!({"type": "array", "items": {"type": "integer"}});
    req.params.response_schema = Some(list.clone());
    let g = p.generate(&req).await.unwrap();
    assert_eq!(g.text, "[1,2]");
    assert_eq!(
        server.requests()[1].body["tools"][0]["input_schema"],
        json!({"type": "object", "properties": {"answer": list}, "required": ["answer"]})
    );

    // A tool of the same name cannot coexist with a schema: a config error, nothing sent.
    req.tools = vec![json!({"type": "function", "function": {"name": "answer"}})];
    let err = p.generate(&req).await.unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::Config);
    assert!(err.message.contains("`answer`"), "{}", err.message);
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn tool_calls_round_trip() {
    let config = FakeConfig::default().with_tool_calls(|body| {
        let answered = body["messages"]
            .as_array()
            .is_some_and(|ms| ms.iter().any(|m| m["role"] == "tool"));
        if answered {
            Vec::new()
        } else {
            vec![
                FakeToolCall::new("search", r#"{"q": "rust"}"#),
                FakeToolCall::new("clock", "{}"),
            ]
        }
    });
    let server = FakeServer::start_with(config).await;
    let p = provider(&server, json!({}));
    let mut req = request("what time is it in 1 + 1 zones?");
    let g = p.generate(&req).await.unwrap();
    assert_eq!(g.finish_reason.as_deref(), Some("tool_use"));
    assert_eq!(g.text, "");
    let calls: Vec<(Option<&str>, &str, &Value)> = g
        .tool_calls
        .iter()
        .map(|c| (c.id.as_deref(), c.name.as_str(), &c.arguments))
        .collect();
    assert_eq!(
        calls,
        vec![
            (Some("toolu_0"), "search", &json!({"q": "rust"})),
            (Some("toolu_1"), "clock", &json!({}))
        ]
    );

    // Feed the calls and their results back, as a tool loop does.
    req.messages.push(ChatMessage {
        tool_calls: g.tool_calls.clone(),
        ..ChatMessage::new(Role::Assistant, "")
    });
    for (call, result) in g.tool_calls.iter().zip(["3 hits", "noon"]) {
        req.messages.push(ChatMessage {
            tool_call_id: call.id.clone(),
            ..ChatMessage::new(Role::Tool, result)
        });
    }
    let g2 = p.generate(&req).await.unwrap();
    assert!(g2.tool_calls.is_empty());
    assert_eq!(g2.text, "2", "the last user message is still the question");
    assert_eq!(
        server.requests()[1].body["messages"],
        json!([
            {"role": "user", "content": "what time is it in 1 + 1 zones?"},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_0", "name": "search", "input": {"q": "rust"}},
                {"type": "tool_use", "id": "toolu_1", "name": "clock", "input": {}},
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_0", "content": "3 hits"},
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "noon"},
            ]},
        ])
    );
    // A call id-less and argument-less in the history still makes a valid request.
    req.messages[1].tool_calls = vec![ToolCall {
        id: None,
        name: "clock".into(),
        arguments: Value::Null,
        result: None,
        error: None,
    }];
    req.messages.truncate(2);
    req.messages.push(ChatMessage::new(Role::Tool, "noon"));
    p.generate(&req).await.unwrap();
    assert_eq!(
        server.requests()[2].body["messages"][2]["content"][0],
        json!({"type": "tool_result", "tool_use_id": "toolu_0", "content": "noon"})
    );
}

#[tokio::test]
async fn statuses_map_to_kinds() {
    let cases = [
        (
            Fault::status(529),
            ProviderErrorKind::Server { status: 529 },
        ),
        (
            Fault::status(500),
            ProviderErrorKind::Server { status: 500 },
        ),
        (
            Fault::status(503),
            ProviderErrorKind::Server { status: 503 },
        ),
        (
            Fault::status(400),
            ProviderErrorKind::Client { status: 400 },
        ),
        (
            Fault::status(404),
            ProviderErrorKind::Client { status: 404 },
        ),
        (
            Fault::status(413),
            ProviderErrorKind::Client { status: 413 },
        ),
        (Fault::status(401), ProviderErrorKind::Auth { status: 401 }),
        (Fault::status(403), ProviderErrorKind::Auth { status: 403 }),
        (
            Fault::status(429),
            ProviderErrorKind::RateLimited { retry_after: None },
        ),
        (
            Fault::rate_limited("3"),
            ProviderErrorKind::RateLimited {
                retry_after: Some(Duration::from_secs(3)),
            },
        ),
    ];
    for (fault, kind) in cases {
        let err = error_for(fault.clone(), json!({})).await;
        assert_eq!(err.kind, kind, "{fault:?}: {}", err.message);
        let retryable = matches!(
            kind,
            ProviderErrorKind::Server { .. } | ProviderErrorKind::RateLimited { .. }
        );
        assert_eq!(err.is_retryable(), retryable, "{fault:?}");
    }
    let err = error_for(Fault::status(529), json!({})).await;
    assert!(
        err.message.contains("overloaded_error: fake error 529"),
        "{}",
        err.message
    );
    let err = error_for(
        Fault::Status {
            code: 400,
            retry_after: None,
            body: r#"{"type": "error", "error": {"type": "invalid_request_error",
                      "message": "max_tokens: 999999 > 64000"}}"#
                .into(),
        },
        json!({}),
    )
    .await;
    assert_eq!(err.kind, ProviderErrorKind::Client { status: 400 });
    assert!(
        err.message
            .contains("HTTP 400 Bad Request: invalid_request_error: max_tokens: 999999 > 64000"),
        "{}",
        err.message
    );
    assert!(err.message.contains("claude-test"), "{}", err.message);
}

#[tokio::test]
async fn transport_faults_map_to_kinds() {
    let started = Instant::now();
    let err = error_for(Fault::Hang, json!({"timeout_s": 0.3})).await;
    assert_eq!(err.kind, ProviderErrorKind::Timeout, "{}", err.message);
    assert!(started.elapsed() < Duration::from_secs(3));
    let slow = Fault::SlowBody {
        chunk_delay: Duration::from_millis(100),
    };
    let err = error_for(slow, json!({"timeout_s": 0.3})).await;
    assert_eq!(err.kind, ProviderErrorKind::Timeout, "{}", err.message);
    for (fault, kind, needle) in [
        (Fault::Truncated, ProviderErrorKind::Connection, ""),
        (Fault::DropConnection, ProviderErrorKind::Connection, ""),
        (
            Fault::MalformedJson,
            ProviderErrorKind::InvalidResponse,
            "not a message",
        ),
        (
            Fault::WrongShape,
            ProviderErrorKind::InvalidResponse,
            "no `content`",
        ),
    ] {
        let err = error_for(fault.clone(), json!({})).await;
        assert_eq!(err.kind, kind, "{fault:?}: {}", err.message);
        assert!(err.message.contains(needle), "{}", err.message);
        assert!(err.is_retryable());
    }
    let server = FakeServer::start().await;
    let p = provider(&server, json!({}));
    server.shutdown().await;
    let err = p.generate(&request("x")).await.unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::Connection, "{}", err.message);
}

#[tokio::test]
async fn the_key_never_leaks() {
    let server = FakeServer::start().await;
    let s = anthropic_spec(&server, json!({"timeout_s": 0.3}));
    let env = env_with(KEY_ENV, KEY);
    let typed = AnthropicProvider::from_spec(&s, &env).unwrap();
    for shown in [
        format!("{typed:?}"),
        format!("{typed:#?}"),
        typed.endpoint(),
    ] {
        assert!(!shown.contains(KEY), "{shown}");
    }
    assert!(format!("{typed:?}").contains("<redacted>"));

    let p = build_with_env(&s, &env).unwrap();
    let echo = format!(
        r#"{{"type": "error", "error": {{"type": "authentication_error", "message": "invalid x-api-key {KEY}"}}}}"#
    );
    server.push_faults([
        Fault::Status {
            code: 401,
            retry_after: None,
            body: echo,
        },
        Fault::Status {
            code: 500,
            retry_after: None,
            body: KEY.to_owned(),
        },
        Fault::Status {
            code: 200,
            retry_after: None,
            body: format!(r#"{{"unexpected": "{KEY}"}}"#),
        },
        Fault::Hang,
    ]);
    let mut kinds = Vec::new();
    for _ in 0..4 {
        let err = p.generate(&request("x")).await.unwrap_err();
        assert!(!err.message.contains(KEY), "{}", err.message);
        assert!(!format!("{err:?}").contains(KEY));
        kinds.push(err.kind.as_str());
    }
    assert_eq!(
        kinds,
        ["auth", "server_error", "invalid_response", "timeout"]
    );
    // The key was sent, in its header only.
    let r = &server.requests()[0];
    assert_eq!(r.header("x-api-key"), Some(KEY));
    assert!(!r.body.to_string().contains(KEY));
    assert!(!r.path.contains(KEY) && r.query.is_none());
}

#[test]
fn missing_keys_fail_at_build_naming_the_variable() {
    let local = Some("http://127.0.0.1:9/v1".to_owned());
    // Without api_key_env, ANTHROPIC_API_KEY is required, even for a local server.
    let bare = spec("anthropic", Some("m"), local.clone(), json!({}));
    let err = build_with_env(&bare, &no_env).err().unwrap();
    assert_eq!(err.kind, ProviderErrorKind::Config);
    assert!(err.message.contains("ANTHROPIC_API_KEY"), "{}", err.message);
    assert!(build_with_env(&bare, &env_with("ANTHROPIC_API_KEY", KEY)).is_ok());
    let p = build_with_env(
        &spec("anthropic", Some("m"), None, json!({})),
        &env_with("ANTHROPIC_API_KEY", KEY),
    )
    .unwrap();
    assert_eq!(p.endpoint(), "https://api.anthropic.com/v1");

    let named = ProviderSpec {
        api_key_env: Some("VERITY_TEST_ANT_OTHER".into()),
        ..bare.clone()
    };
    for env in [
        &no_env as &dyn Fn(&str) -> Option<String>,
        &|_: &str| Some(" \t".to_owned()),
        &env_with("ANTHROPIC_API_KEY", KEY),
    ] {
        let err = build_with_env(&named, env).err().unwrap();
        assert!(
            err.message.contains("VERITY_TEST_ANT_OTHER"),
            "{}",
            err.message
        );
    }
    let unprintable = build_with_env(&named, &|_| Some("bad\nkey".into()))
        .err()
        .unwrap();
    assert!(
        unprintable.message.contains("VERITY_TEST_ANT_OTHER")
            && !unprintable.message.contains("bad\nkey"),
        "{}",
        unprintable.message
    );
    let empty_name = ProviderSpec {
        api_key_env: Some(" ".into()),
        ..bare
    };
    assert!(build_with_env(&empty_name, &env_with("ANTHROPIC_API_KEY", KEY)).is_err());
}

#[test]
fn bad_specs_are_config_errors() {
    let env = env_with("ANTHROPIC_API_KEY", KEY);
    let local = || Some("http://127.0.0.1:9/v1".to_owned());
    for (s, needle) in [
        (
            spec("anthropic", None, local(), json!({})),
            "`model` is required",
        ),
        (
            spec("anthropic", Some("m"), Some("nope".into()), json!({})),
            "base_url",
        ),
        (
            spec("anthropic", Some("m"), local(), json!({"json_mode": true})),
            "unknown option `json_mode`",
        ),
        (
            spec("anthropic", Some("m"), local(), json!({"timeout_s": -1})),
            "timeout_s",
        ),
        (
            spec(
                "anthropic",
                Some("m"),
                local(),
                json!({"headers": {"anthropic-beta": 1}}),
            ),
            "headers.anthropic-beta",
        ),
    ] {
        let err = build_with_env(&s, &env).err().expect("should fail");
        assert_eq!(err.kind, ProviderErrorKind::Config, "{needle}");
        assert!(err.message.contains(needle), "{}", err.message);
    }
}

#[tokio::test]
async fn options_shape_requests() {
    let server = FakeServer::start().await;
    let p = provider(
        &server,
        json!({
            "headers": {"anthropic-beta": "tools-2024", "anthropic-version": "2099-01-01"},
            "extra_body": {"metadata": {"user_id": "u1"}, "max_tokens": 5},
        }),
    );
    p.generate(&request("x")).await.unwrap();
    let r = &server.requests()[0];
    assert_eq!(r.header("anthropic-beta"), Some("tools-2024"));
    assert_eq!(r.header("anthropic-version"), Some("2099-01-01"));
    assert_eq!(r.body["metadata"], json!({"user_id": "u1"}));
    assert_eq!(r.body["max_tokens"], 5);
}
