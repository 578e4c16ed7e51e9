use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use serde_json::{Value, json};
use verity_model::{
    ChatMessage, GenParams, Provider, ProviderError, ProviderErrorKind, ProviderSpec, Role, Usage,
};
use verity_providers::{OpenAiProvider, build, build_with_env};
use verity_testkit::{FakeConfig, FakeServer, FakeToolCall, Fault};

use crate::{env_with, no_env, request, spec};

/// An environment lookup, as `build_with_env` takes it.
type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

const KEY: &str = "sk-verity-PLANTED-7f3c9e2a";

fn openai_spec(server: &FakeServer, options: Value) -> ProviderSpec {
    spec(
        "openai",
        Some("test-model"),
        Some(server.base_url()),
        options,
    )
}

fn provider(server: &FakeServer, options: Value) -> Arc<dyn Provider> {
    build_with_env(&openai_spec(server, options), &no_env).unwrap()
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
        model: "served-model-2024".into(),
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
    assert_eq!(g.model.as_deref(), Some("served-model-2024"));
    assert_eq!(g.finish_reason.as_deref(), Some("stop"));
    assert!(g.tool_calls.is_empty());
    let raw: Value = serde_json::from_str(&g.raw).unwrap();
    assert_eq!(raw["id"], "chatcmpl-1");
    assert_eq!(p.kind(), "openai");
    assert!(!p.answer_depends_on_task());
    assert_eq!(p.model(), "test-model");
    assert_eq!(p.endpoint(), server.base_url());
}

#[tokio::test]
async fn request_bodies_carry_the_parameters() {
    let server = FakeServer::start().await;
    let p = provider(&server, json!({}));
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    let tool = json!({"type": "function", "function": {"name": "search", "parameters": {}}});
    let mut req = request("hi");
    req.messages = vec![
        ChatMessage::new(Role::System, "sys"),
        ChatMessage::new(Role::User, "hi"),
        ChatMessage::new(Role::Assistant, "calling"),
        ChatMessage {
            tool_call_id: Some("call_9".into()),
            ..ChatMessage::new(Role::Tool, "{}")
        },
    ];
    req.params = GenParams {
        temperature: Some(0.25),
        top_p: Some(0.5),
        seed: Some(7),
        max_tokens: Some(64),
        stop: vec!["END".into(), "\n\n".into()],
        response_schema: Some(schema.clone()),
    };
    req.tools = vec![tool.clone()];
    p.generate(&req).await.unwrap();
    p.generate(&request("plain")).await.unwrap();

    let recorded = server.requests();
    assert_eq!(recorded.len(), 2);
    assert_eq!(recorded[0].method, "POST");
    assert_eq!(recorded[0].path, "/v1/chat/completions");
    assert_eq!(recorded[0].header("content-type"), Some("application/json"));
    assert_eq!(
        recorded[0].body,
        json!({
            "model": "test-model",
            "messages": [
                {"role": "system", "content": "sys"},
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": "calling"},
                {"role": "tool", "content": "{}", "tool_call_id": "call_9"},
            ],
            "temperature": 0.25,
            "top_p": 0.5,
            "seed": 7,
            "max_tokens": 64,
            "stop": ["END", "\n\n"],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": schema, "strict": true},
            },
            "tools": [tool],
        })
    );
    // Unset parameters are left out entirely.
    assert_eq!(
        recorded[1].body,
        json!({"model": "test-model", "messages": [{"role": "user", "content": "plain"}]})
    );
}

#[tokio::test]
async fn options_shape_requests() {
    let server = FakeServer::start().await;
    let options = json!({
        "json_mode": true,
        "extra_body": {"temperature": 1.5, "reasoning_effort": "low"},
        "headers": {"X-Team": "evals", "OpenAI-Organization": "org-1"},
        "timeout_s": 5,
    });
    let p = provider(&server, options);
    let mut req = request("x");
    req.params.temperature = Some(0.1);
    p.generate(&req).await.unwrap();
    req.params.response_schema = Some(json!({"type": "object"}));
    p.generate(&req).await.unwrap();

    let recorded = server.requests();
    let body = &recorded[0].body;
    assert_eq!(body["response_format"], json!({"type": "json_object"}));
    assert_eq!(body["temperature"], 1.5, "extra_body overrides");
    assert_eq!(body["reasoning_effort"], "low");
    assert_eq!(recorded[0].header("x-team"), Some("evals"));
    assert_eq!(recorded[0].header("openai-organization"), Some("org-1"));
    assert_eq!(
        recorded[1].body["response_format"]["type"], "json_schema",
        "a schema wins"
    );
}

#[tokio::test]
async fn authorization_only_with_a_key() {
    let server = FakeServer::start().await;
    let mut with_key = openai_spec(&server, json!({}));
    with_key.api_key_env = Some("VERITY_TEST_AUTH_KEY".into());
    let p = build_with_env(&with_key, &env_with("VERITY_TEST_AUTH_KEY", KEY)).unwrap();
    p.generate(&request("x")).await.unwrap();
    provider(&server, json!({}))
        .generate(&request("x"))
        .await
        .unwrap();

    let recorded = server.requests();
    assert_eq!(
        recorded[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(recorded[1].header("authorization"), None);
    assert!(
        recorded[0]
            .header("user-agent")
            .is_some_and(|ua| ua.starts_with("verity/"))
    );
}

#[tokio::test]
async fn build_reads_the_process_environment() {
    // Every process has PATH; nothing here sets a variable.
    let path = std::env::var("PATH").expect("PATH is set");
    let server = FakeServer::start().await;
    let mut s = openai_spec(&server, json!({}));
    s.api_key_env = Some("PATH".into());
    build(&s).unwrap().generate(&request("x")).await.unwrap();
    let sent = server.requests()[0]
        .header("authorization")
        .map(str::to_owned);
    assert_eq!(sent, Some(format!("Bearer {}", path.trim())));

    s.api_key_env = Some("VERITY_TEST_SURELY_UNSET_5d1e8b".into());
    let err = build(&s).err().unwrap();
    assert_eq!(err.kind, ProviderErrorKind::Config);
    assert!(
        err.message.contains("VERITY_TEST_SURELY_UNSET_5d1e8b"),
        "{}",
        err.message
    );
}

#[test]
fn missing_keys_fail_at_build_naming_the_variable() {
    let local = Some("http://127.0.0.1:9/v1".to_owned());
    let named = |name: &str, base: Option<String>| ProviderSpec {
        api_key_env: Some(name.to_owned()),
        ..spec("openai", Some("m"), base, json!({}))
    };
    let cases: Vec<(ProviderSpec, Env<'_>, &str)> = vec![
        (
            named("VERITY_TEST_KEY_A", local.clone()),
            &no_env,
            "VERITY_TEST_KEY_A",
        ),
        (
            named("VERITY_TEST_KEY_B", local.clone()),
            &|_| Some("  ".into()),
            "VERITY_TEST_KEY_B",
        ),
        (
            named("VERITY_TEST_KEY_C", None),
            &no_env,
            "VERITY_TEST_KEY_C",
        ),
        // api.openai.com without api_key_env needs OPENAI_API_KEY.
        (
            spec("openai", Some("m"), None, json!({})),
            &no_env,
            "OPENAI_API_KEY",
        ),
        (
            spec(
                "openai",
                Some("m"),
                Some("https://api.openai.com/v1/".into()),
                json!({}),
            ),
            &no_env,
            "OPENAI_API_KEY",
        ),
    ];
    for (s, env, variable) in cases {
        let err = build_with_env(&s, env).err().expect("should fail");
        assert_eq!(err.kind, ProviderErrorKind::Config);
        assert!(err.message.contains(variable), "{}", err.message);
    }
    // A local server needs no key; api.openai.com takes OPENAI_API_KEY.
    assert!(build_with_env(&spec("openai", Some("m"), local, json!({})), &no_env).is_ok());
    let default = spec("openai", Some("m"), None, json!({}));
    let p = build_with_env(&default, &env_with("OPENAI_API_KEY", KEY)).unwrap();
    assert_eq!(p.endpoint(), "https://api.openai.com/v1");
}

#[test]
fn bad_specs_are_config_errors() {
    let local = || Some("http://127.0.0.1:9/v1".to_owned());
    let cases = [
        (
            spec("openai", None, local(), json!({})),
            "`model` is required",
        ),
        (
            spec("openai", Some(" "), local(), json!({})),
            "`model` is required",
        ),
        (
            spec(
                "openai",
                Some("m"),
                Some("localhost:8080".into()),
                json!({}),
            ),
            "base_url",
        ),
        (
            spec("openai", Some("m"), Some("::".into()), json!({})),
            "base_url",
        ),
        (
            spec("openai", Some("m"), local(), json!({"timeout": 3})),
            "unknown option `timeout`",
        ),
        (
            spec("openai", Some("m"), local(), json!({"timeout_s": 0})),
            "timeout_s",
        ),
        (
            spec("openai", Some("m"), local(), json!({"timeout_s": "fast"})),
            "timeout_s",
        ),
        (
            spec("openai", Some("m"), local(), json!({"json_mode": "yes"})),
            "json_mode",
        ),
        (
            spec("openai", Some("m"), local(), json!({"extra_body": [1]})),
            "extra_body",
        ),
        (
            spec("openai", Some("m"), local(), json!({"headers": {"x": 1}})),
            "headers.x",
        ),
        (
            spec(
                "openai",
                Some("m"),
                local(),
                json!({"headers": {"bad name": "v"}}),
            ),
            "bad name",
        ),
        (
            spec(
                "openai",
                Some("m"),
                local(),
                json!({"headers": {"x": "a\nb"}}),
            ),
            "headers.x",
        ),
    ];
    for (s, needle) in cases {
        let err = build_with_env(&s, &no_env).err().expect("should fail");
        assert_eq!(err.kind, ProviderErrorKind::Config, "{needle}");
        assert!(err.message.contains(needle), "{}", err.message);
    }
    let mut empty_env_name = spec("openai", Some("m"), local(), json!({}));
    empty_env_name.api_key_env = Some(String::new());
    assert!(build_with_env(&empty_env_name, &no_env).is_err());
}

#[tokio::test]
async fn the_key_never_leaks() {
    let server = FakeServer::start().await;
    let mut s = openai_spec(&server, json!({"timeout_s": 0.3}));
    s.api_key_env = Some("VERITY_TEST_LEAK_KEY".into());
    let env = env_with("VERITY_TEST_LEAK_KEY", KEY);
    let typed = OpenAiProvider::from_spec(&s, &env).unwrap();
    assert!(!format!("{typed:?}").contains(KEY), "{typed:?}");
    assert!(!format!("{typed:#?}").contains(KEY));
    assert!(format!("{typed:?}").contains("<redacted>"));
    assert!(!typed.endpoint().contains(KEY));

    let p = build_with_env(&s, &env).unwrap();
    let echo = format!(r#"{{"error": {{"message": "Incorrect API key provided: {KEY}."}}}}"#);
    server.push_faults([
        Fault::Status {
            code: 401,
            retry_after: None,
            body: echo.clone(),
        },
        Fault::Status {
            code: 400,
            retry_after: None,
            body: echo.clone(),
        },
        Fault::Status {
            code: 500,
            retry_after: None,
            body: KEY.to_owned(),
        },
        Fault::Hang,
        Fault::Truncated,
        Fault::MalformedJson,
        Fault::DropConnection,
    ]);
    let mut kinds = Vec::new();
    for _ in 0..7 {
        let err = p.generate(&request("x")).await.unwrap_err();
        assert!(!err.message.contains(KEY), "{}", err.message);
        assert!(!format!("{err:?}").contains(KEY));
        kinds.push(err.kind.as_str());
    }
    assert_eq!(
        kinds,
        [
            "auth",
            "client_error",
            "server_error",
            "timeout",
            "connection",
            "invalid_response",
            "connection"
        ]
    );
    // Sent, but scrubbed from what the server echoed.
    let first = p.generate(&request("x")).await;
    assert!(first.is_ok());
    server.push_faults([Fault::Status {
        code: 401,
        retry_after: None,
        body: echo,
    }]);
    let err = p.generate(&request("x")).await.unwrap_err();
    assert!(
        err.message
            .contains("Incorrect API key provided: [redacted]"),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn statuses_map_to_kinds() {
    let cases = [
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
            Fault::status(422),
            ProviderErrorKind::Client { status: 422 },
        ),
        (Fault::status(401), ProviderErrorKind::Auth { status: 401 }),
        (Fault::status(403), ProviderErrorKind::Auth { status: 403 }),
        (
            Fault::status(429),
            ProviderErrorKind::RateLimited { retry_after: None },
        ),
    ];
    for (fault, kind) in cases {
        let err = error_for(fault, json!({})).await;
        assert_eq!(err.kind, kind);
    }
    let err = error_for(
        Fault::Status {
            code: 400,
            retry_after: None,
            body: r#"{"error": {"message": "Invalid value for 'seed'", "type": "invalid_request_error"}}"#
                .into(),
        },
        json!({}),
    )
    .await;
    assert!(
        err.message.contains("HTTP 400 Bad Request"),
        "{}",
        err.message
    );
    assert!(
        err.message.contains("Invalid value for 'seed'"),
        "{}",
        err.message
    );
    assert!(!err.is_retryable());
    let err = error_for(
        Fault::Status {
            code: 502,
            retry_after: None,
            body: "<h1>bad gateway</h1>".into(),
        },
        json!({}),
    )
    .await;
    assert!(
        err.message.contains("<h1>bad gateway</h1>"),
        "{}",
        err.message
    );
    assert!(err.is_retryable());
}

#[tokio::test]
async fn retry_after_is_parsed() {
    let in_3s = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(3));
    let cases: Vec<(String, Option<(Duration, Duration)>)> = vec![
        (
            "1".into(),
            Some((Duration::from_secs(1), Duration::from_secs(1))),
        ),
        (
            "0.5".into(),
            Some((Duration::from_millis(500), Duration::from_millis(500))),
        ),
        (
            in_3s,
            Some((Duration::from_secs(1), Duration::from_secs(3))),
        ),
        (
            "Thu, 01 Jan 1970 00:00:00 GMT".into(),
            Some((Duration::ZERO, Duration::ZERO)),
        ),
        ("whenever".into(), None),
    ];
    for (value, range) in cases {
        let err = error_for(Fault::rate_limited(value.clone()), json!({})).await;
        let ProviderErrorKind::RateLimited { retry_after } = err.kind else {
            panic!("{value}: {err:?}");
        };
        match (retry_after, range) {
            (None, None) => {}
            (Some(d), Some((lo, hi))) => assert!(lo <= d && d <= hi, "{value}: {d:?}"),
            other => panic!("{value}: {other:?}"),
        }
        assert_eq!(err.retry_after(), retry_after);
    }
}

#[tokio::test]
async fn transport_faults_map_to_kinds() {
    let started = Instant::now();
    let err = error_for(Fault::Hang, json!({"timeout_s": 0.3})).await;
    assert_eq!(err.kind, ProviderErrorKind::Timeout, "{}", err.message);
    assert!(started.elapsed() < Duration::from_secs(3));

    // The timeout covers the body: headers arrive at once, the body too slowly.
    let slow = Fault::SlowBody {
        chunk_delay: Duration::from_millis(100),
    };
    let err = error_for(slow, json!({"timeout_s": 0.3})).await;
    assert_eq!(err.kind, ProviderErrorKind::Timeout, "{}", err.message);

    for (fault, kind) in [
        (Fault::Truncated, ProviderErrorKind::Connection),
        (Fault::DropConnection, ProviderErrorKind::Connection),
        (Fault::MalformedJson, ProviderErrorKind::InvalidResponse),
        (Fault::WrongShape, ProviderErrorKind::InvalidResponse),
    ] {
        let err = error_for(fault.clone(), json!({})).await;
        assert_eq!(err.kind, kind, "{fault:?}: {}", err.message);
        assert!(err.is_retryable());
    }

    // Nobody listening.
    let server = FakeServer::start().await;
    let p = provider(&server, json!({}));
    server.shutdown().await;
    let err = p.generate(&request("x")).await.unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::Connection, "{}", err.message);
    assert!(err.message.contains("127.0.0.1"), "{}", err.message);
}

#[tokio::test]
async fn a_slow_body_within_the_timeout_succeeds_and_the_pool_recovers() {
    let server = FakeServer::start().await;
    let p = provider(&server, json!({"timeout_s": 1}));
    server.push_faults([
        Fault::SlowBody {
            chunk_delay: Duration::from_millis(2),
        },
        Fault::DropConnection,
        Fault::Truncated,
        Fault::Hang,
        Fault::status(503),
    ]);
    assert_eq!(p.generate(&request("2 + 2")).await.unwrap().text, "4");
    for _ in 0..4 {
        assert!(p.generate(&request("2 + 2")).await.is_err());
    }
    assert_eq!(p.generate(&request("3 + 3")).await.unwrap().text, "6");
}

#[tokio::test]
async fn tool_calls_and_null_content() {
    let config = FakeConfig::default().with_tool_calls(|_| {
        vec![
            FakeToolCall::new("search", r#"{"q": "rust"}"#),
            FakeToolCall::new("raw", "not json"),
        ]
    });
    let server = FakeServer::start_with(config).await;
    let g = provider(&server, json!({}))
        .generate(&request("x"))
        .await
        .unwrap();
    assert_eq!(g.text, "");
    assert_eq!(g.finish_reason.as_deref(), Some("tool_calls"));
    let calls: Vec<(&str, &Value)> = g
        .tool_calls
        .iter()
        .map(|c| (c.name.as_str(), &c.arguments))
        .collect();
    assert_eq!(
        calls,
        vec![
            ("search", &json!({"q": "rust"})),
            ("raw", &json!("not json"))
        ]
    );
    assert_eq!(g.tool_calls[0].id.as_deref(), Some("call_0"));
}

#[tokio::test]
async fn trailing_slash_and_query_in_base_url() {
    let server = FakeServer::start().await;
    let base = format!("{}/?api-version=2024-06-01", server.base_url());
    let p = build_with_env(&spec("openai", Some("m"), Some(base), json!({})), &no_env).unwrap();
    assert_eq!(p.endpoint(), server.base_url());
    p.generate(&request("x")).await.unwrap();
    let r = &server.requests()[0];
    assert_eq!(r.path, "/v1/chat/completions");
    assert_eq!(r.query.as_deref(), Some("api-version=2024-06-01"));
}

#[tokio::test]
async fn sequential_calls_reuse_one_connection() {
    let server = FakeServer::start().await;
    let p = provider(&server, json!({}));
    for i in 0..20 {
        let text = p
            .generate(&request(&format!("{i} + {i}")))
            .await
            .unwrap()
            .text;
        assert_eq!(text, (2 * i).to_string());
    }
    assert_eq!(server.stats().connections, 1, "{:?}", server.stats());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_concurrent_calls() {
    let server = FakeServer::start_with(FakeConfig {
        latency: Duration::from_millis(50),
        record_requests: false,
        ..FakeConfig::default()
    })
    .await;
    let p = provider(&server, json!({}));
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..200u64 {
        let p = Arc::clone(&p);
        tasks.spawn(async move {
            let g = p.generate(&request(&format!("{i} + 1"))).await?;
            Ok::<_, ProviderError>((i, g.text))
        });
    }
    let mut answers = HashMap::new();
    while let Some(done) = tasks.join_next().await {
        let (i, text) = done.unwrap().unwrap();
        answers.insert(i, text);
    }
    assert_eq!(answers.len(), 200);
    assert!(answers.iter().all(|(i, t)| *t == (i + 1).to_string()));
    let stats = server.settled_stats(200, Duration::from_secs(5)).await;
    assert_eq!((stats.requests, stats.completed), (200, 200));
    assert!(stats.max_in_flight > 1, "{stats:?}");
    assert!(server.requests().is_empty(), "recording was off");
}

#[tokio::test]
async fn assistant_tool_calls_are_sent_back_in_the_openai_shape() {
    let server = FakeServer::start().await;
    let p = provider(&server, json!({}));
    let mut req = request("2 + 2");
    req.messages.push(ChatMessage {
        tool_calls: vec![
            verity_model::ToolCall {
                id: Some("call_7".into()),
                name: "search".into(),
                arguments: json!({"q": "rust"}),
                result: None,
                error: None,
            },
            verity_model::ToolCall {
                id: None,
                name: "raw".into(),
                arguments: json!("not json"),
                result: None,
                error: None,
            },
        ],
        ..ChatMessage::new(Role::Assistant, "")
    });
    req.messages.push(ChatMessage {
        tool_call_id: Some("call_7".into()),
        ..ChatMessage::new(Role::Tool, "3 hits")
    });
    p.generate(&req).await.unwrap();
    assert_eq!(
        server.requests()[0].body["messages"],
        json!([
            {"role": "user", "content": "2 + 2"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_7", "type": "function",
                 "function": {"name": "search", "arguments": "{\"q\":\"rust\"}"}},
                {"id": "call_1", "type": "function",
                 "function": {"name": "raw", "arguments": "not json"}},
            ]},
            {"role": "tool", "content": "3 hits", "tool_call_id": "call_7"},
        ])
    );
}
