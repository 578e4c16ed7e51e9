use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use verity_mcp::{GroundingServer, McpError};

use crate::{CALL, STARTUP, shell, spec, start_test_server};

#[test]
fn a_grounding_server_can_be_shared_across_tasks() {
    fn assert_send_sync<T: Send + Sync + 'static>() {}
    assert_send_sync::<GroundingServer>();
    assert_send_sync::<McpError>();
}

#[tokio::test]
async fn handshake_lists_the_tools() {
    let server = start_test_server().await;
    let names: Vec<&str> = server.tools().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["search", "read", "crash", "sleep"]);
    let search = &server.tools()[0];
    assert!(search.description.contains("Search the documentation"));
    assert_eq!(search.input_schema["properties"]["query"]["type"], "string");
    assert_eq!(search.input_schema["required"], json!(["query"]));
    assert_eq!(server.name(), "docs");
    let version = server.server_version().unwrap_or_default();
    assert!(version.starts_with("verity-mcp test docs "), "{}", version);
    assert!(server.pid().is_some());
    assert!(
        server.stderr_tail().contains("serving 6 documents"),
        "{}",
        server.stderr_tail()
    );

    let openai = server.openai_tools();
    assert_eq!(openai.len(), 4);
    assert_eq!(openai[1]["type"], "function");
    assert_eq!(openai[1]["function"]["name"], "read");
    assert_eq!(
        openai[1]["function"]["parameters"]["properties"]["id"]["type"],
        "string"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn search_and_read() {
    let server = start_test_server().await;
    let found = server
        .call("search", json!({"query": "Observable"}), CALL)
        .await
        .unwrap();
    assert_eq!(found.tool, "search");
    assert_eq!(found.arguments, json!({"query": "Observable"}));
    assert!(
        found
            .text
            .starts_with("swiftui/observable — Observable()\nDefines and implements"),
        "{}",
        found.text
    );
    assert_eq!(found.raw["isError"], false);
    assert_eq!(found.raw["content"][0]["type"], "text");

    let doc = server
        .call("read", json!({"id": "swiftdata/model"}), CALL)
        .await
        .unwrap();
    assert!(
        doc.text.starts_with("swiftdata/model — Model()\n\n"),
        "{}",
        doc.text
    );
    assert!(doc.text.contains("Available in iOS 17.0 and later."));
    let recorded = doc.to_tool_call(None);
    assert_eq!(recorded.name, "read");
    assert_eq!(recorded.result.as_ref(), Some(&doc.raw));
    server.shutdown().await;
}

#[tokio::test]
async fn search_discovers_its_arguments_from_the_schema() {
    let server = start_test_server().await;
    let binding = server.search_binding().unwrap();
    assert_eq!(binding.tool, "search");
    assert_eq!(binding.query_arg, "query");
    assert_eq!(binding.limit_arg.as_deref(), Some("limit"));
    assert_eq!((binding.limit_min, binding.limit_max), (Some(1), Some(50)));

    let out = server.search("iOS NavigationStack", 2, CALL).await.unwrap();
    assert_eq!(out.tool, "search");
    assert_eq!(
        out.arguments,
        json!({"query": "iOS NavigationStack", "limit": 2})
    );
    let heads: Vec<&str> = out.text.lines().filter(|l| l.contains(" — ")).collect();
    assert_eq!(
        heads,
        [
            "swiftui/navigationstack — NavigationStack",
            "swiftui/observable — Observable()"
        ],
        "{}",
        out.text
    );

    // k beyond the schema's maximum is clamped rather than rejected by the server.
    let many = server.search("iOS", 500, CALL).await.unwrap();
    assert_eq!(many.arguments["limit"], 50);
    assert!(many.text.contains("swiftui/observable"), "{}", many.text);

    let none = server.search("kotlin coroutines", 5, CALL).await.unwrap();
    assert_eq!(none.text, "No documents match `kotlin coroutines`.");
    server.shutdown().await;
}

#[tokio::test]
async fn the_search_tool_can_be_chosen() {
    let mut server = start_test_server().await;
    let err = server.set_search_tool("lookup").unwrap_err();
    assert!(matches!(err, McpError::Protocol { .. }), "{:?}", err);
    assert!(
        err.to_string().contains("no tool named `lookup`"),
        "{}",
        err
    );
    assert!(server.search("Task", 3, CALL).await.is_err());

    let binding = server.set_search_tool("read").unwrap();
    assert_eq!(
        (binding.query_arg.as_str(), binding.limit_arg.as_deref()),
        ("id", None)
    );
    let out = server.search("swift/task", 3, CALL).await.unwrap();
    assert_eq!(out.arguments, json!({"id": "swift/task"}));
    assert!(out.text.starts_with("swift/task — Task"), "{}", out.text);
    server.shutdown().await;
}

#[tokio::test]
async fn concurrent_calls_from_20_tasks_get_their_own_answers() {
    let server = Arc::new(start_test_server().await);
    let ids = [
        ("swiftui/observable", "Observable()"),
        ("swiftui/navigationstack", "NavigationStack"),
        ("foundation/urlsession", "URLSession"),
        ("foundation/jsondecoder", "JSONDecoder"),
        ("swift/task", "Task"),
        ("swiftdata/model", "Model()"),
    ];
    let mut tasks = Vec::new();
    for i in 0..20 {
        let server = server.clone();
        let (id, title) = ids[i % ids.len()];
        tasks.push(tokio::spawn(async move {
            // Stagger answers so that they come back out of order.
            let delay = ((20 - i) * 10) as u64;
            server
                .call("sleep", json!({"ms": delay}), CALL)
                .await
                .map_err(|e| e.to_string())?;
            let out = if i % 2 == 0 {
                server.call("read", json!({"id": id}), CALL).await
            } else {
                server.search(title, 1, CALL).await
            }
            .map_err(|e| e.to_string())?;
            let want = format!("{} — {}", id, title);
            if out.text.starts_with(&want) {
                Ok(())
            } else {
                Err(format!("task {} wanted `{}`, got `{}`", i, want, out.text))
            }
        }));
    }
    for task in tasks {
        match task.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => panic!("{}", e),
            Err(e) => panic!("a task failed: {}", e),
        }
    }
    match Arc::try_unwrap(server) {
        Ok(server) => server.shutdown().await,
        Err(_) => panic!("the server is still shared"),
    }
}

#[tokio::test]
async fn a_tool_error_is_a_tool_error_and_the_server_goes_on() {
    let server = start_test_server().await;
    let err = server
        .call("read", json!({"id": "uikit/uiwebview"}), CALL)
        .await
        .unwrap_err();
    match &err {
        McpError::Tool {
            server,
            tool,
            message,
            result,
        } => {
            assert_eq!((server.as_str(), tool.as_str()), ("docs", "read"));
            assert!(
                message.contains("no document with id `uikit/uiwebview`"),
                "{}",
                message
            );
            assert_eq!(result["isError"], true);
        }
        other => panic!("expected a tool error, got {:?}", other),
    }
    assert!(err.is_model_visible() && !err.is_fatal());
    assert!(server.search("Task", 1, CALL).await.is_ok());
    server.shutdown().await;
}

#[tokio::test]
async fn rejected_calls_are_protocol_errors() {
    let server = start_test_server().await;
    // The test server's own `sleep` tool still rejects a missing argument with -32602.
    let missing = server.call("sleep", json!({}), CALL).await;
    match missing {
        Err(McpError::Protocol { message, .. }) => {
            assert!(message.contains("`ms` is required"), "{}", message);
            assert!(message.contains("-32602"), "{}", message);
        }
        other => panic!("expected a protocol error, got {:?}", other),
    }
    // The reference tools answer bad arguments with a tool error the model reads.
    let out_of_range = server
        .call("search", json!({"query": "Task", "limit": 51}), CALL)
        .await;
    match out_of_range {
        Err(McpError::Tool { message, .. }) => {
            assert!(message.contains("`limit` must be"), "{}", message)
        }
        other => panic!("expected a tool error, got {:?}", other),
    }
    let unknown = server.call("write", json!({}), CALL).await.unwrap_err();
    assert!(
        unknown.to_string().contains("there is no tool `write`")
            && unknown.to_string().contains("`sleep`"),
        "{}",
        unknown
    );
    let not_object = server.call("read", json!(["x"]), CALL).await.unwrap_err();
    assert!(
        not_object.to_string().contains("must be a JSON object"),
        "{}",
        not_object
    );
    // Null arguments are sent as none: the server says what is missing.
    let none = server.call("read", Value::Null, CALL).await.unwrap_err();
    assert!(none.to_string().contains("`id` is required"), "{}", none);
    server.shutdown().await;
}

#[tokio::test]
async fn a_slow_call_times_out_and_the_server_goes_on() {
    let server = start_test_server().await;
    let started = Instant::now();
    let err = server
        .call("sleep", json!({"ms": 30_000}), Duration::from_millis(300))
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(10));
    match &err {
        McpError::Timeout {
            operation, timeout, ..
        } => {
            assert_eq!(operation, "tool `sleep`");
            assert_eq!(*timeout, Duration::from_millis(300));
        }
        other => panic!("expected a timeout, got {:?}", other),
    }
    assert_eq!(
        err.to_string(),
        "MCP server `docs`: tool `sleep` timed out after 300ms"
    );
    let out = server.search("JSONDecoder", 1, CALL).await.unwrap();
    assert!(
        out.text.starts_with("foundation/jsondecoder"),
        "{}",
        out.text
    );
    // The abandoned call was cancelled on the server too: nothing holds up its exit.
    let stopping = Instant::now();
    server.shutdown().await;
    assert!(
        stopping.elapsed() < Duration::from_secs(3),
        "{:?}",
        stopping.elapsed()
    );
}

#[tokio::test]
async fn a_server_that_exits_mid_run_fails_every_call_at_once() {
    let server = Arc::new(start_test_server().await);
    // A call in flight when the server dies must not wait for its own (long) timeout.
    let in_flight = {
        let server = server.clone();
        tokio::spawn(async move {
            let started = Instant::now();
            let result = server
                .call("sleep", json!({"ms": 60_000}), Duration::from_secs(120))
                .await;
            (result, started.elapsed())
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;

    let crash = server.call("crash", json!({"code": 3}), CALL).await;
    let err = crash.unwrap_err();
    assert!(matches!(err, McpError::Exited { .. }), "{:?}", err);
    assert!(err.is_fatal());
    let message = err.to_string();
    assert!(message.contains("exited with status 3"), "{}", message);
    assert!(
        message.contains("crashing on request (status 3)"),
        "the stderr tail is quoted: {}",
        message
    );

    let (result, waited) = match in_flight.await {
        Ok(done) => done,
        Err(e) => panic!("the in-flight call panicked: {}", e),
    };
    assert!(
        matches!(result, Err(McpError::Exited { .. })),
        "{:?}",
        result
    );
    assert!(waited < Duration::from_secs(15), "waited {:?}", waited);

    let started = Instant::now();
    let later = server.search("Task", 1, CALL).await.unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(1));
    assert!(
        later.to_string().contains("exited with status 3"),
        "{}",
        later
    );
    match Arc::try_unwrap(server) {
        Ok(server) => server.shutdown().await,
        Err(_) => panic!("the server is still shared"),
    }
}

#[tokio::test]
async fn a_command_that_does_not_exist_does_not_start() {
    let spec = verity_model::ServerSpec {
        command: vec![
            "/nonexistent/verity-no-such-server".into(),
            "--stdio".into(),
        ],
        env: Default::default(),
        cwd: None,
        ..Default::default()
    };
    let err = GroundingServer::start("ghost", &spec, STARTUP)
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Start { .. }), "{:?}", err);
    let message = err.to_string();
    assert!(
        message.starts_with("MCP server `ghost` did not start: could not run `/nonexistent/verity-no-such-server --stdio`"),
        "{}",
        message
    );

    let empty = verity_model::ServerSpec {
        command: Vec::new(),
        env: Default::default(),
        cwd: None,
        ..Default::default()
    };
    let err = GroundingServer::start("empty", &empty, STARTUP)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("the command is empty"), "{}", err);
}

#[tokio::test]
async fn a_server_runs_in_its_working_directory() {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = shell("pwd >&2; exit 3");
    spec.cwd = Some(dir.path().display().to_string());
    let err = GroundingServer::start("where", &spec, STARTUP)
        .await
        .unwrap_err();
    let shown = dir.path().canonicalize().unwrap().display().to_string();
    assert!(err.to_string().contains(&shown), "{}", err);
}

#[tokio::test]
async fn a_server_that_never_answers_the_handshake_times_out() {
    let spec = verity_model::ServerSpec {
        command: vec!["sleep".into(), "30".into()],
        env: Default::default(),
        cwd: None,
        ..Default::default()
    };
    let started = Instant::now();
    let err = GroundingServer::start("mute", &spec, Duration::from_millis(500))
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(matches!(err, McpError::Start { .. }), "{:?}", err);
    assert!(
        err.to_string()
            .contains("did not complete the MCP handshake within 500ms"),
        "{}",
        err
    );
}

#[tokio::test]
async fn a_server_that_exits_at_once_shows_its_stderr_and_gets_its_env() {
    let mut spec = shell("echo \"boom: $VERITY_MCP_TEST_VAR\" >&2; exit 2");
    spec.env
        .insert("VERITY_MCP_TEST_VAR".into(), "from-the-suite".into());
    let err = GroundingServer::start("broken", &spec, STARTUP)
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Start { .. }), "{:?}", err);
    let message = err.to_string();
    assert!(message.contains("exited with status 2"), "{}", message);
    assert!(message.contains("boom: from-the-suite"), "{}", message);
}

#[tokio::test]
async fn a_server_that_talks_nonsense_does_not_start() {
    let spec = shell("echo 'hello, I am not MCP'; sleep 30");
    let err = GroundingServer::start("chatty", &spec, Duration::from_millis(1500))
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Start { .. }), "{:?}", err);
}

#[tokio::test]
async fn identity_covers_command_env_and_tools() {
    let a = start_test_server().await;
    let b = start_test_server().await;
    assert_eq!(a.identity(), b.identity());
    let identity: Value = serde_json::from_str(&a.identity()).unwrap();
    assert_eq!(identity["command"][0], crate::TEST_SERVER);
    assert_eq!(identity["tools"][0]["name"], "search");
    assert_eq!(
        identity["tools"][0]["input_schema"]["properties"]["limit"]["maximum"],
        50
    );
    assert!(
        identity["server"]
            .as_str()
            .is_some_and(|s| s.starts_with("verity-mcp test docs"))
    );

    let mut with_env = spec(&[]);
    with_env.env.insert("DOCS_INDEX".into(), "ios17.4".into());
    let c = GroundingServer::start("docs", &with_env, STARTUP)
        .await
        .unwrap();
    assert_ne!(a.identity(), c.identity());
    assert!(c.identity().contains("ios17.4"));
    a.shutdown().await;
    b.shutdown().await;
    c.shutdown().await;
}

#[cfg(unix)]
#[tokio::test]
async fn shutdown_ends_the_process() {
    let server = start_test_server().await;
    let pid = server.pid().unwrap();
    assert!(crate::alive(pid));
    let started = Instant::now();
    server.shutdown().await;
    // It exits when its input closes: no signal, no waiting out the grace period.
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert!(!crate::alive(pid));
}

#[cfg(unix)]
#[tokio::test]
async fn shutdown_ends_a_server_that_ignores_its_closed_input() {
    let server = GroundingServer::start("stubborn", &spec(&["--ignore-eof"]), STARTUP)
        .await
        .unwrap();
    let pid = server.pid().unwrap();
    let started = Instant::now();
    server.shutdown().await;
    assert!(!crate::alive(pid));
    // It had to be signalled after the grace period.
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
}

#[cfg(unix)]
#[tokio::test]
async fn dropping_the_server_kills_it() {
    let server = GroundingServer::start("dropped", &spec(&["--ignore-eof"]), STARTUP)
        .await
        .unwrap();
    let pid = server.pid().unwrap();
    drop(server);
    assert!(crate::wait_gone(pid, Duration::from_secs(10)).await);
}
