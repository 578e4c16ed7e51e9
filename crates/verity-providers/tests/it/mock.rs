use std::time::{Duration, Instant};

use serde_json::{Value, json};
use verity_model::{ChatMessage, ProviderErrorKind, Role, Task, Usage};
use verity_providers::{KINDS, MockProvider, build, build_with_env};

use crate::{no_env, request, request_for, spec};

fn mock() -> std::sync::Arc<dyn verity_model::Provider> {
    build(&spec("mock", None, None, json!({}))).unwrap()
}

fn task_with(metadata: Value, target: &[&str]) -> Task {
    let mut task = Task::prompt("t1", "the prompt");
    task.metadata = metadata.as_object().cloned().unwrap_or_default();
    task.target = target.iter().map(|s| s.to_string()).collect();
    task
}

async fn answer(task: Task, variant: &str) -> String {
    mock()
        .generate(&request_for(task, variant, "echo me please"))
        .await
        .unwrap()
        .text
}

#[tokio::test]
async fn answer_rules_in_order() {
    let by_variant = json!({"mock_response": {"a": "from a", "default": "from default", "n": 3}});
    let cases: Vec<(Value, &[&str], &str, &str)> = vec![
        (json!({"mock_response": "fixed"}), &["target"], "a", "fixed"),
        (by_variant.clone(), &["target"], "a", "from a"),
        (by_variant.clone(), &["target"], "b", "from default"),
        // A non-string entry does not count; `default` does.
        (by_variant, &["target"], "n", "from default"),
        (
            json!({"mock_response": {"a": "only a"}}),
            &["t1", "t2"],
            "b",
            "t1",
        ),
        (json!({"mock_response": 42}), &["t1"], "a", "t1"),
        (json!({}), &["t1", "t2"], "a", "t1"),
        (json!({}), &[], "a", "echo me please"),
        (
            json!({"mock_response": {"x": "y"}}),
            &[],
            "a",
            "echo me please",
        ),
    ];
    for (metadata, target, variant, want) in cases {
        let got = answer(task_with(metadata.clone(), target), variant).await;
        assert_eq!(got, want, "{metadata} {target:?} {variant}");
    }
}

#[tokio::test]
async fn echo_takes_the_last_user_message() {
    let mut req = request_for(Task::prompt("t", "p"), "v", "first");
    req.messages
        .push(ChatMessage::new(Role::Assistant, "reply"));
    req.messages.push(ChatMessage::new(Role::User, "second"));
    req.messages
        .push(ChatMessage::new(Role::Assistant, "again"));
    assert_eq!(mock().generate(&req).await.unwrap().text, "second");
    req.messages.retain(|m| m.role != Role::User);
    assert_eq!(mock().generate(&req).await.unwrap().text, "");
}

#[tokio::test]
async fn generation_fields() {
    let mut req = request("one two three");
    req.messages
        .insert(0, ChatMessage::new(Role::System, "be  brief"));
    let g = mock().generate(&req).await.unwrap();
    assert_eq!(g.text, "one two three");
    assert_eq!(
        g.usage,
        Usage {
            input_tokens: 5,
            output_tokens: 3
        }
    );
    assert_eq!(g.model.as_deref(), Some("mock"));
    assert_eq!(g.finish_reason.as_deref(), Some("stop"));
    assert!(g.tool_calls.is_empty());

    let named = build(&spec("mock", Some("mock-large"), None, json!({}))).unwrap();
    assert_eq!(named.model(), "mock-large");
    assert_eq!(named.kind(), "mock");
    assert!(named.answer_depends_on_task(), "mock answers from the task");
    assert_eq!(named.endpoint(), "mock");
    assert_eq!(
        named.generate(&req).await.unwrap().model.as_deref(),
        Some("mock-large")
    );
    assert_eq!(mock().model(), "mock");
}

#[tokio::test]
async fn requested_errors_have_their_kind() {
    let cases = [
        (
            "rate_limited",
            ProviderErrorKind::RateLimited { retry_after: None },
        ),
        ("server_error", ProviderErrorKind::Server { status: 500 }),
        ("client_error", ProviderErrorKind::Client { status: 400 }),
        ("auth", ProviderErrorKind::Auth { status: 401 }),
        ("timeout", ProviderErrorKind::Timeout),
        ("connection", ProviderErrorKind::Connection),
        ("invalid_response", ProviderErrorKind::InvalidResponse),
        ("config", ProviderErrorKind::Config),
    ];
    for (name, kind) in cases {
        let task = task_with(json!({"mock_error": name, "mock_response": "unused"}), &[]);
        let err = mock()
            .generate(&request_for(task, "v", "x"))
            .await
            .unwrap_err();
        assert_eq!(err.kind, kind, "{name}");
        assert_eq!(err.kind.as_str(), name);
        assert!(err.message.contains("t1"), "{}", err.message);
    }
    for bad in [json!("explode"), json!(true)] {
        let task = task_with(json!({ "mock_error": bad }), &[]);
        let err = mock()
            .generate(&request_for(task, "v", "x"))
            .await
            .unwrap_err();
        assert_eq!(err.kind, ProviderErrorKind::Config);
        assert!(err.message.contains("server_error"), "{}", err.message);
    }
}

#[tokio::test]
async fn latency_option_delays_the_answer() {
    let slow = build(&spec("mock", None, None, json!({"latency_ms": 80}))).unwrap();
    let started = Instant::now();
    slow.generate(&request("x")).await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(80));
}

#[test]
fn bad_specs_are_config_errors() {
    let cases = [
        (
            spec("mock", None, None, json!({"latency": 5})),
            "unknown option `latency`",
        ),
        (
            spec("mock", None, None, json!({"latency_ms": -5})),
            "latency_ms",
        ),
        (
            spec("mock", None, None, json!({"latency_ms": "5"})),
            "latency_ms",
        ),
        (spec("mock", Some(""), None, json!({})), "`model` is empty"),
        (spec("gpt", None, None, json!({})), "unknown provider kind"),
    ];
    for (s, needle) in cases {
        let err = build_with_env(&s, &no_env).err().expect("should fail");
        assert_eq!(err.kind, ProviderErrorKind::Config);
        assert!(err.message.contains(needle), "{}", err.message);
    }
    let err = build(&spec("nope", None, None, json!({}))).err().unwrap();
    assert!(err.message.contains("mock, openai"), "{}", err.message);
    assert_eq!(
        KINDS,
        &["local", "mock", "openai", "anthropic", "gemini", "command"]
    );
    assert!(MockProvider::from_spec(&spec("mock", None, None, json!({"latency_ms": 0}))).is_ok());
}
