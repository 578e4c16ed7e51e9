//! The `command` provider against real child processes: small `sh` and `python3` scripts
//! written to a temporary directory.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use verity_model::{
    ChatMessage, GenParams, GenerateRequest, Input, Provider, ProviderErrorKind, ProviderSpec,
    Role, SampleKey, Task, Usage,
};
use verity_providers::{CommandProvider, build_with_env};

use crate::{env_with, no_env, request, spec};

/// verity's own environment, for the `PATH` lookup of `sh` and `python3`.
fn real_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Writes an executable script.
fn script(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn command_spec(command: Value, options: Value) -> ProviderSpec {
    let mut s = spec("command", None, None, options);
    s.options.insert("command".into(), command);
    s
}

fn provider(command: Value, options: Value) -> Arc<dyn Provider> {
    build_with_env(&command_spec(command, options), &real_env).unwrap()
}

fn path_arg(path: &Path) -> Value {
    json!([path.to_str().unwrap()])
}

/// Whether a process is gone (or a zombie nobody has reaped yet).
fn is_dead(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
    }
}

async fn wait_dead(pid: u32) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !is_dead(pid) {
        assert!(Instant::now() < deadline, "process {pid} outlived the call");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn read_pid(file: &Path) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(pid) = std::fs::read_to_string(file)
            .ok()
            .and_then(|s| s.trim().parse().ok())
        {
            return pid;
        }
        assert!(Instant::now() < deadline, "no pid written");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

const ECHO_REQUEST: &str = r#"#!/usr/bin/env python3
import json, sys
req = json.load(sys.stdin)
print(json.dumps({
    "text": json.dumps(req),
    "tool_calls": [{"id": "c1", "name": "lookup", "arguments": {"x": 1}}, {"name": "bare"}],
    "usage": {"input_tokens": 3, "output_tokens": 4},
    "model": "pipeline-v2",
    "finish_reason": "done",
}))
"#;

#[tokio::test]
async fn a_json_answer_parses_and_the_request_follows_the_schema() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(dir.path(), "echo.py", ECHO_REQUEST);
    let p = provider(path_arg(&program), json!({}));
    let mut task = Task::prompt("add-1", "What is 2 + 3?");
    task.target = vec!["5".into()];
    task.category = Some("arithmetic".into());
    task.metadata.insert("lang".into(), json!("en"));
    task.expect.insert("regex".into(), json!("^\\d+$"));
    let req = GenerateRequest {
        sample: SampleKey {
            task_id: "add-1".into(),
            variant: "pipeline".into(),
            epoch: 2,
        },
        task: Arc::new(task),
        messages: vec![
            ChatMessage::new(Role::System, "Answer with a number."),
            ChatMessage::new(Role::User, "What is 2 + 3?"),
        ],
        params: GenParams {
            temperature: Some(0.0),
            max_tokens: Some(16),
            stop: vec!["\n".into()],
            ..GenParams::default()
        },
        tools: vec![json!({"type": "function", "function": {"name": "lookup"}})],
    };
    let g = p.generate(&req).await.unwrap();
    let sent: Value = serde_json::from_str(&g.text).unwrap();
    assert_eq!(
        sent,
        json!({
            "sample": {"task_id": "add-1", "variant": "pipeline", "epoch": 2},
            "model": "echo.py",
            "messages": [
                {"role": "system", "content": "Answer with a number."},
                {"role": "user", "content": "What is 2 + 3?"},
            ],
            "params": {"temperature": 0.0, "max_tokens": 16, "stop": ["\n"]},
            "tools": [{"type": "function", "function": {"name": "lookup"}}],
            "task": {"id": "add-1", "input": "What is 2 + 3?", "target": ["5"],
                     "category": "arithmetic", "metadata": {"lang": "en"},
                     "expect": {"regex": "^\\d+$"}},
        })
    );
    assert_eq!(
        g.usage,
        Usage {
            input_tokens: 3,
            output_tokens: 4
        }
    );
    assert_eq!(g.model.as_deref(), Some("pipeline-v2"));
    assert_eq!(g.finish_reason.as_deref(), Some("done"));
    let calls: Vec<(Option<&str>, &str, &Value)> = g
        .tool_calls
        .iter()
        .map(|c| (c.id.as_deref(), c.name.as_str(), &c.arguments))
        .collect();
    assert_eq!(
        calls,
        vec![
            (Some("c1"), "lookup", &json!({"x": 1})),
            (None, "bare", &json!({}))
        ]
    );
    assert!(g.raw.starts_with("{\"text\""), "{}", g.raw);
    assert_eq!(p.kind(), "command");
    assert!(p.answer_depends_on_task(), "the program sees the task");
    assert_eq!(p.model(), "echo.py");
    assert_eq!(p.endpoint(), program.to_str().unwrap());

    // A task given as messages travels as a list; tool-call history keeps its fields.
    let mut task = Task::prompt("chat-1", "");
    task.input = Input::Messages(vec![ChatMessage::new(Role::User, "hi")]);
    let mut req = request("hi");
    req.task = Arc::new(task);
    req.messages.push(ChatMessage {
        tool_calls: vec![verity_model::ToolCall {
            id: Some("c9".into()),
            name: "f".into(),
            arguments: json!({}),
            result: None,
            error: None,
        }],
        ..ChatMessage::new(Role::Assistant, "")
    });
    req.messages.push(ChatMessage {
        tool_call_id: Some("c9".into()),
        ..ChatMessage::new(Role::Tool, "ok")
    });
    let sent: Value = serde_json::from_str(&p.generate(&req).await.unwrap().text).unwrap();
    assert_eq!(
        sent["task"]["input"],
        json!([{"role": "user", "content": "hi"}])
    );
    assert_eq!(sent["params"], json!({}));
    assert_eq!(sent["tools"], json!([]));
    assert_eq!(
        sent["messages"][1]["tool_calls"],
        json!([{"id": "c9", "name": "f", "arguments": {}}])
    );
    assert_eq!(sent["messages"][2]["tool_call_id"], "c9");
}

#[tokio::test]
async fn plain_text_with_cwd_env_and_model() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let program = script(
        dir.path(),
        "plain.sh",
        "#!/bin/sh\ncat > /dev/null\nprintf '%s from %s\\n' \"$GREETING\" \"$(pwd)\"\n",
    );
    let mut s = command_spec(
        path_arg(&program),
        json!({"cwd": work.to_str().unwrap(), "env": {"GREETING": "hello", "N": 3}}),
    );
    s.model = Some("my-pipeline".into());
    let p = build_with_env(&s, &real_env).unwrap();
    let g = p.generate(&request("x")).await.unwrap();
    let canonical = std::fs::canonicalize(&work).unwrap();
    assert_eq!(g.text, format!("hello from {}", canonical.display()));
    assert_eq!(g.raw, format!("{}\n", g.text), "one newline trimmed");
    assert_eq!(g.usage, Usage::default());
    assert_eq!(g.model, None);
    assert_eq!(p.model(), "my-pipeline");

    // Output that looks like JSON but is not the `{"text": …}` form is the answer as it is.
    let json_answer = script(
        dir.path(),
        "json.sh",
        "#!/bin/sh\necho '{\"answer\": 5}'\necho\n",
    );
    let g = provider(path_arg(&json_answer), json!({}))
        .generate(&request("x"))
        .await
        .unwrap();
    assert_eq!(g.text, "{\"answer\": 5}\n");
}

#[tokio::test]
async fn command_strings_are_split_and_relative_programs_found() {
    let dir = tempfile::tempdir().unwrap();
    script(
        dir.path(),
        "my script.sh",
        "#!/bin/sh\nIFS='|'\necho \"$*\"\n",
    );
    let cwd = dir.path().to_str().unwrap();
    let p = provider(
        json!("sh 'my script.sh' --flag \"two words\" a\\ b"),
        json!({"cwd": cwd}),
    );
    assert_eq!(p.endpoint(), "sh 'my script.sh' --flag 'two words' 'a b'");
    assert_eq!(p.model(), "sh");
    let g = p.generate(&request("x")).await.unwrap();
    assert_eq!(g.text, "--flag|two words|a b");

    // A relative path is relative to `cwd`.
    let p = provider(json!(["./my script.sh", "x"]), json!({"cwd": cwd}));
    assert_eq!(p.generate(&request("x")).await.unwrap().text, "x");
    assert_eq!(p.model(), "my script.sh");
}

#[tokio::test]
async fn programs_are_looked_up_on_path_at_build_time() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "only-here", "#!/bin/sh\necho found\n");
    let dir_str: &'static str = Box::leak(dir.path().to_str().unwrap().to_owned().into_boxed_str());
    let s = command_spec(json!(["only-here"]), json!({}));

    // Found on the PATH the environment lookup gives.
    let p = build_with_env(&s, &env_with("PATH", dir_str)).unwrap();
    assert_eq!(p.generate(&request("x")).await.unwrap().text, "found");
    // Or on the PATH of `options.env`, which the program also gets.
    let with_path = command_spec(json!(["only-here"]), json!({"env": {"PATH": dir_str}}));
    assert!(build_with_env(&with_path, &no_env).is_ok());

    let not_found = |s: &ProviderSpec, env: &dyn Fn(&str) -> Option<String>| {
        let err = build_with_env(s, env).err().expect("should fail");
        assert_eq!(err.kind, ProviderErrorKind::Config);
        err.message
    };
    let msg = not_found(&s, &real_env);
    assert!(msg.contains("`only-here` was not found on PATH"), "{msg}");
    let msg = not_found(&s, &no_env);
    assert!(msg.contains("PATH is not set"), "{msg}");
    let msg = not_found(
        &command_spec(json!(["verity-no-such-program-4f1c"]), json!({})),
        &real_env,
    );
    assert!(msg.contains("verity-no-such-program-4f1c"), "{msg}");

    // Paths: missing, a directory, a file without the executable bit.
    let plain = dir.path().join("data.txt");
    std::fs::write(&plain, "x").unwrap();
    for (path, needle) in [
        (dir.path().join("missing.sh"), "does not exist"),
        (dir.path().to_path_buf(), "is not a file"),
        (plain, "is not executable"),
    ] {
        let msg = not_found(&command_spec(path_arg(&path), json!({})), &real_env);
        assert!(msg.contains(needle), "{msg}");
    }
}

#[tokio::test]
async fn a_program_gone_since_the_build_is_a_connection_error() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(dir.path(), "vanishing.sh", "#!/bin/sh\necho hi\n");
    let p = provider(path_arg(&program), json!({}));
    std::fs::remove_file(&program).unwrap();
    let err = p.generate(&request("x")).await.unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::Connection, "{}", err.message);
    assert!(err.message.contains("cannot start"), "{}", err.message);
}

#[tokio::test]
async fn non_zero_exits_quote_the_end_of_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let failing = script(
        dir.path(),
        "fail.sh",
        "#!/bin/sh\necho 'partial answer'\nfor i in 1 2 3 4 5 6; do echo \"noise $i\" >&2; done\n\
         echo 'boom: bad input' >&2\nexit 3\n",
    );
    let err = provider(path_arg(&failing), json!({}))
        .generate(&request("x"))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::InvalidResponse);
    assert!(err.is_retryable(), "a flaky pipeline may succeed on retry");
    assert!(
        err.message.contains("exited with status 3"),
        "{}",
        err.message
    );
    assert!(
        err.message
            .contains("noise 3 | noise 4 | noise 5 | noise 6 | boom: bad input"),
        "{}",
        err.message
    );
    assert!(!err.message.contains("noise 2"), "{}", err.message);
    assert!(!err.message.contains("partial answer"), "{}", err.message);

    let silent = script(dir.path(), "silent.sh", "#!/bin/sh\nexit 1\n");
    let err = provider(path_arg(&silent), json!({}))
        .generate(&request("x"))
        .await
        .unwrap_err();
    assert!(
        err.message
            .contains("exited with status 1 (nothing on standard error)"),
        "{}",
        err.message
    );

    let killed = script(dir.path(), "killed.sh", "#!/bin/sh\nkill -9 $$\n");
    let err = provider(path_arg(&killed), json!({}))
        .generate(&request("x"))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::InvalidResponse);
    assert!(
        err.message.contains("killed by signal 9"),
        "{}",
        err.message
    );
}

/// The run's per-call limit (`Provider::default_call_timeout`) is the program's `timeout_s`,
/// so a pipeline that needs minutes is not cut off at the runner's usual 60 s.
#[test]
fn the_calls_limit_is_the_programs_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let ok = script(dir.path(), "ok.sh", "#!/bin/sh\necho hi\n");
    let long = provider(path_arg(&ok), json!({"timeout_s": 900}));
    assert_eq!(long.default_call_timeout(), Duration::from_secs(900));
    let plain = provider(path_arg(&ok), json!({}));
    assert_eq!(plain.default_call_timeout(), Duration::from_secs(60));
}

#[tokio::test]
async fn slow_programs_time_out() {
    let dir = tempfile::tempdir().unwrap();
    let slow = script(dir.path(), "slow.sh", "#!/bin/sh\nsleep 5\necho late\n");
    let started = Instant::now();
    let err = provider(path_arg(&slow), json!({"timeout_s": 0.3}))
        .generate(&request("x"))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::Timeout, "{}", err.message);
    assert!(err.is_retryable());
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_timeout_kills_grandchildren_too() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let program = script(
        dir.path(),
        "spawner.sh",
        "#!/bin/sh\nsleep 30 &\necho $! > \"$PID_FILE\"\nwait\n",
    );
    let p = provider(
        path_arg(&program),
        json!({"timeout_s": 0.5, "env": {"PID_FILE": pid_file.to_str().unwrap()}}),
    );
    let err = p.generate(&request("x")).await.unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::Timeout, "{}", err.message);
    let grandchild = read_pid(&pid_file).await;
    wait_dead(grandchild).await;
}

#[tokio::test]
async fn leftovers_die_when_a_call_succeeds_or_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    // A background process that does not hold standard output open: the call ends at once.
    let program = script(
        dir.path(),
        "daemonish.sh",
        "#!/bin/sh\nsleep 30 >/dev/null 2>&1 </dev/null &\necho $! > \"$PID_FILE\"\necho done\n",
    );
    let env = json!({"env": {"PID_FILE": pid_file.to_str().unwrap()}});
    let p = provider(path_arg(&program), env.clone());
    assert_eq!(p.generate(&request("x")).await.unwrap().text, "done");
    wait_dead(read_pid(&pid_file).await).await;

    // A call whose future is dropped (the runner shutting down) kills its group too.
    std::fs::remove_file(&pid_file).unwrap();
    let hanging = script(
        dir.path(),
        "hanging.sh",
        "#!/bin/sh\nsleep 30 &\necho $! > \"$PID_FILE\"\nwait\n",
    );
    let p = provider(path_arg(&hanging), env);
    let req = request("x");
    let call = p.generate(&req);
    let abandoned = tokio::time::timeout(Duration::from_millis(300), call).await;
    assert!(abandoned.is_err(), "the call should still be running");
    wait_dead(read_pid(&pid_file).await).await;
}

#[tokio::test]
async fn huge_output_is_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(
        dir.path(),
        "huge.py",
        "#!/usr/bin/env python3\nimport sys, time\nchunk = 'x' * (1 << 20)\n\
         for _ in range(17):\n    sys.stdout.write(chunk)\nsys.stdout.flush()\ntime.sleep(30)\n",
    );
    let started = Instant::now();
    let err = provider(path_arg(&program), json!({"timeout_s": 20}))
        .generate(&request("x"))
        .await
        .unwrap_err();
    assert_eq!(
        err.kind,
        ProviderErrorKind::InvalidResponse,
        "{}",
        err.message
    );
    assert!(err.message.contains("exceeds 16 MiB"), "{}", err.message);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn bad_output_is_an_invalid_response() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, needle) in [
        ("binary.sh", "#!/bin/sh\nprintf 'ok\\377'\n", "not UTF-8"),
        (
            "badtools.sh",
            "#!/bin/sh\necho '{\"text\": \"x\", \"tool_calls\": \"none\"}'\n",
            "`tool_calls` must be a list",
        ),
    ] {
        let program = script(dir.path(), name, text);
        let err = provider(path_arg(&program), json!({}))
            .generate(&request("x"))
            .await
            .unwrap_err();
        assert_eq!(err.kind, ProviderErrorKind::InvalidResponse, "{name}");
        assert!(err.message.contains(needle), "{name}: {}", err.message);
    }
}

#[tokio::test]
async fn programs_need_not_read_their_input() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(dir.path(), "deaf.sh", "#!/bin/sh\necho ok\n");
    let p = provider(path_arg(&program), json!({}));
    let big = "word ".repeat(1 << 20);
    for _ in 0..3 {
        assert_eq!(p.generate(&request(&big)).await.unwrap().text, "ok");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_are_independent() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(
        dir.path(),
        "last.py",
        "#!/usr/bin/env python3\nimport json, sys\nreq = json.load(sys.stdin)\n\
         print(req['messages'][-1]['content'].upper())\n",
    );
    let p = provider(path_arg(&program), json!({}));
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..8 {
        let p = Arc::clone(&p);
        tasks.spawn(async move {
            let text = p
                .generate(&request(&format!("call {i}")))
                .await
                .unwrap()
                .text;
            (i, text)
        });
    }
    let mut seen = 0;
    while let Some(done) = tasks.join_next().await {
        let (i, text) = done.unwrap();
        assert_eq!(text, format!("CALL {i}"));
        seen += 1;
    }
    assert_eq!(seen, 8);
}

#[tokio::test]
async fn env_values_never_leak() {
    const TOKEN: &str = "tok-PLANTED-5a6b7c8d";
    let dir = tempfile::tempdir().unwrap();
    let program = script(
        dir.path(),
        "leaky.sh",
        "#!/bin/sh\necho \"auth failed for $API_TOKEN\" >&2\nexit 1\n",
    );
    let s = command_spec(path_arg(&program), json!({"env": {"API_TOKEN": TOKEN}}));
    let typed = CommandProvider::from_spec(&s, &real_env).unwrap();
    for shown in [
        format!("{typed:?}"),
        format!("{typed:#?}"),
        typed.endpoint(),
    ] {
        assert!(!shown.contains(TOKEN), "{shown}");
    }
    assert!(format!("{typed:?}").contains("API_TOKEN"));
    let err = typed.generate(&request("x")).await.unwrap_err();
    assert!(!err.message.contains(TOKEN), "{}", err.message);
    assert!(
        err.message.contains("auth failed for [redacted]"),
        "{}",
        err.message
    );
}

/// A URL with credentials in the command line reaches the program whole, but the command line
/// the provider shows (its endpoint, its errors) has them stripped.
#[tokio::test]
async fn url_credentials_in_the_command_line_are_not_shown() {
    const PASSWORD: &str = "pw-PLANTED-1f2e3d";
    const KEY: &str = "key-PLANTED-4c5b6a";
    let dir = tempfile::tempdir().unwrap();
    let program = script(
        dir.path(),
        "fetch.sh",
        "#!/bin/sh\necho \"got $1\" >&2\nexit 3\n",
    );
    let url = format!("http://me:{PASSWORD}@127.0.0.1:9/v1?api_key={KEY}");
    let s = command_spec(json!([program.to_str().unwrap(), url]), json!({}));
    let typed = CommandProvider::from_spec(&s, &real_env).unwrap();
    assert_eq!(
        typed.endpoint(),
        format!(
            "{} 'http://127.0.0.1:9/v1?api_key=[redacted]'",
            program.display()
        )
    );
    let err = typed.generate(&request("x")).await.unwrap_err();
    // The program saw the credentials (it echoes its argument on standard error, which the
    // error quotes), the command line in front of it does not show them.
    let (shown, stderr) = err.message.split_once(": ").unwrap();
    assert!(!shown.contains(PASSWORD) && !shown.contains(KEY), "{shown}");
    assert!(stderr.contains(PASSWORD), "{stderr}");
}

#[test]
fn bad_specs_are_config_errors() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(dir.path(), "ok.sh", "#!/bin/sh\necho ok\n");
    let ok = program.to_str().unwrap();
    let file_as_cwd = json!({"cwd": ok});
    let cases = [
        (
            spec("command", None, None, json!({})),
            "`options.command` is required",
        ),
        (command_spec(json!([]), json!({})), "names no program"),
        (command_spec(json!(""), json!({})), "names no program"),
        (command_spec(json!([" "]), json!({})), "names no program"),
        (command_spec(json!([ok, 3]), json!({})), "list of strings"),
        (command_spec(json!(5), json!({})), "list of strings"),
        (
            command_spec(json!("sh -c 'open"), json!({})),
            "single quote",
        ),
        (
            command_spec(json!("cat x | wc"), json!({})),
            "needs a shell",
        ),
        (command_spec(json!([ok, "a\u{0}b"]), json!({})), "NUL"),
        (command_spec(json!([ok]), file_as_cwd), "is not a directory"),
        (
            command_spec(json!([ok]), json!({"cwd": 1})),
            "`options.cwd`",
        ),
        (command_spec(json!([ok]), json!({"env": [1]})), "`env`"),
        (
            command_spec(json!([ok]), json!({"env": {"A": {"b": 1}}})),
            "`options.env.A`",
        ),
        (
            command_spec(json!([ok]), json!({"env": {"A=B": "x"}})),
            "not a variable name",
        ),
        (
            command_spec(json!([ok]), json!({"timeout_s": 0})),
            "timeout_s",
        ),
        (
            command_spec(json!([ok]), json!({"shell": true})),
            "unknown option `shell`",
        ),
    ];
    for (s, needle) in cases {
        let err = build_with_env(&s, &real_env).err().expect(needle);
        assert_eq!(err.kind, ProviderErrorKind::Config, "{needle}");
        assert!(err.message.contains(needle), "{needle}: {}", err.message);
    }
    let mut blank_model = command_spec(json!([ok]), json!({}));
    blank_model.model = Some(" ".into());
    assert!(build_with_env(&blank_model, &real_env).is_err());
}

/// The cache identity follows everything that decides a pipeline's answers — the program's
/// and its script's contents, the working directory, the environment — while the endpoint
/// (shown in reports) stays the command line and never holds an environment value.
#[test]
fn cache_identity_follows_the_pipeline_not_just_its_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let pipeline = work.join("pipeline.sh");
    std::fs::write(&pipeline, "echo one\n").unwrap();
    let build = |options: Value| {
        build_with_env(
            &command_spec(json!(["/bin/sh", "pipeline.sh"]), options),
            &real_env,
        )
        .unwrap()
    };
    let opts = |value: &str| json!({"cwd": work.to_str().unwrap(), "env": {"SECRET_TOKEN": value}});
    let a = build(opts("s3cr3t-value-1"));
    assert_eq!(a.endpoint(), "/bin/sh pipeline.sh");
    assert!(
        !a.cache_identity().contains("s3cr3t"),
        "{}",
        a.cache_identity()
    );
    assert!(a.cache_identity().starts_with("/bin/sh pipeline.sh #"));
    // Stable while nothing changes.
    assert_eq!(
        build(opts("s3cr3t-value-1")).cache_identity(),
        a.cache_identity()
    );
    // Another environment value, another script, another directory: another identity.
    let b = build(opts("s3cr3t-value-2"));
    assert_ne!(b.cache_identity(), a.cache_identity());
    std::fs::write(&pipeline, "echo two\n").unwrap();
    let c = build(opts("s3cr3t-value-1"));
    assert_ne!(c.cache_identity(), a.cache_identity());
    assert_eq!(c.endpoint(), a.endpoint());
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("pipeline.sh"), "echo two\n").unwrap();
    let d =
        build(json!({"cwd": other.to_str().unwrap(), "env": {"SECRET_TOKEN": "s3cr3t-value-1"}}));
    assert_ne!(d.cache_identity(), c.cache_identity());
}

/// A pipeline reports its stages' results as `artifacts`, and finds the running verity as
/// `VERITY_EXE` (an `options.env` entry overrides it); the variable is no part of the cache
/// identity.
#[tokio::test]
async fn a_pipeline_gets_verity_exe_and_reports_artifacts() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(
        dir.path(),
        "pipeline.py",
        r#"#!/usr/bin/env python3
import json, os, sys
req = json.load(sys.stdin)
print(json.dumps({
    "output": os.environ.get("VERITY_EXE", "(unset)"),
    "artifacts": {"api_ir": {"task": req["task"]["id"], "ops": ["list"]},
                  "ui_plan": "epoch %d" % req["sample"]["epoch"]},
}))
"#,
    );
    let p = provider(path_arg(&program), json!({}));
    let g = p.generate(&request("plan the UI")).await.unwrap();
    let exe = std::env::current_exe().unwrap();
    assert_eq!(g.text, exe.to_str().unwrap());
    assert_eq!(g.artifacts.len(), 2);
    assert_eq!(
        (g.artifacts[0].name.as_str(), g.artifacts[1].name.as_str()),
        ("api_ir", "ui_plan")
    );
    assert_eq!(
        g.artifacts[0].value,
        Some(json!({"ops": ["list"], "task": "t1"}))
    );
    assert_eq!(
        g.artifacts[1].hash,
        verity_model::Artifact::new("ui_plan", json!("epoch 0")).hash
    );
    assert!(!p.cache_identity().contains("VERITY_EXE"));
    assert!(!p.cache_identity().contains(exe.to_str().unwrap()));

    let overridden = provider(path_arg(&program), json!({"env": {"VERITY_EXE": "/opt/v"}}));
    assert_eq!(
        overridden.generate(&request("x")).await.unwrap().text,
        "/opt/v"
    );

    // Artifacts that are not an object are an invalid response naming the field.
    let bad = script(
        dir.path(),
        "bad.sh",
        "#!/bin/sh\necho '{\"output\": \"x\", \"artifacts\": [1, 2]}'\n",
    );
    let err = provider(path_arg(&bad), json!({}))
        .generate(&request("x"))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::InvalidResponse);
    assert!(
        err.message.contains("`artifacts` must be an object"),
        "{}",
        err.message
    );
}
