//! The fake server seen from outside: real HTTP with reqwest, and raw bytes on a socket where
//! a fault is about bytes.

mod apis;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use verity_testkit::{FakeConfig, FakeServer, FakeToolCall, Fault};

fn chat(prompt: &str) -> Value {
    json!({"model": "m-1", "messages": [{"role": "user", "content": prompt}]})
}

async fn post(client: &reqwest::Client, server: &FakeServer, body: &Value) -> reqwest::Response {
    client
        .post(format!("{}/chat/completions", server.base_url()))
        .json(body)
        .send()
        .await
        .expect("request failed")
}

/// A parsed raw response.
#[derive(Debug)]
struct Raw {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Raw {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn parse_raw(bytes: &[u8]) -> Option<Raw> {
    let end = bytes.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&bytes[..end]).ok()?;
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Some(Raw {
        status,
        headers,
        body: bytes[end + 4..].to_vec(),
    })
}

/// Sends `request` on a fresh connection and reads until the server closes it (at most 5 s).
async fn exchange(addr: SocketAddr, request: &[u8]) -> Vec<u8> {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    read_to_close(&mut stream, Duration::from_secs(5)).await
}

async fn read_to_close(stream: &mut TcpStream, limit: Duration) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = tokio::time::timeout(limit, async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    out
}

fn chat_request(body: &str, extra_headers: &str) -> Vec<u8> {
    format!(
        "POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n{}\r\n{}",
        body.len(),
        extra_headers,
        body
    )
    .into_bytes()
}

const SUM: &str = r#"{"model":"m","messages":[{"role":"user","content":"2 + 3"}]}"#;

#[tokio::test]
async fn answers_in_the_openai_shape_and_records_the_request() {
    let server = FakeServer::start().await;
    let client = reqwest::Client::new();
    let body = json!({
        "model": "m-1",
        "messages": [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "What is 40 + 2?"},
        ],
    });
    let resp = client
        .post(format!(
            "{}/chat/completions?api-version=1",
            server.base_url()
        ))
        .header("X-Custom", "yes")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "application/json");
    let v: Value = resp.json().await.unwrap();
    assert_eq!(v["object"], "chat.completion");
    assert_eq!(v["id"], "chatcmpl-1");
    assert_eq!(v["model"], "m-1");
    assert_eq!(
        v["choices"][0]["message"],
        json!({"role": "assistant", "content": "42"})
    );
    assert_eq!(v["choices"][0]["finish_reason"], "stop");
    assert_eq!(
        v["usage"],
        json!({"prompt_tokens": 7, "completion_tokens": 1, "total_tokens": 8})
    );

    let recorded = server.requests();
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].method, "POST");
    assert_eq!(recorded[0].path, "/v1/chat/completions");
    assert_eq!(recorded[0].query.as_deref(), Some("api-version=1"));
    assert_eq!(recorded[0].header("x-custom"), Some("yes"));
    assert_eq!(recorded[0].body, body);
    let stats = server.settled_stats(1, Duration::from_secs(5)).await;
    assert_eq!(
        (
            stats.requests,
            stats.completed,
            stats.faults,
            stats.in_flight
        ),
        (1, 1, 0, 0)
    );
}

#[tokio::test]
async fn echoes_without_a_sum_and_honours_config() {
    let server = FakeServer::start().await;
    let client = reqwest::Client::new();
    let v: Value = post(&client, &server, &chat("hello there"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(v["choices"][0]["message"]["content"], "hello there");

    let config = FakeConfig {
        model: "served-model".into(),
        ..FakeConfig::default()
    }
    .with_answer(|body| {
        format!(
            "{} messages",
            body["messages"].as_array().map_or(0, Vec::len)
        )
    });
    let custom = FakeServer::start_with(config).await;
    let v: Value = post(&client, &custom, &chat("hi"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(v["choices"][0]["message"]["content"], "1 messages");
    assert_eq!(v["model"], "served-model");
    let models: Value = client
        .get(format!("{}/models", custom.base_url()))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(models["data"][0]["id"], "served-model");
}

#[tokio::test]
async fn tool_call_hook_shapes_the_answer() {
    let config = FakeConfig::default()
        .with_tool_calls(|_| vec![FakeToolCall::new("search", r#"{"q":"rust"}"#)]);
    let server = FakeServer::start_with(config).await;
    let v: Value = post(&reqwest::Client::new(), &server, &chat("x"))
        .await
        .json()
        .await
        .unwrap();
    let message = &v["choices"][0]["message"];
    assert_eq!(message["content"], Value::Null);
    assert_eq!(message["tool_calls"][0]["id"], "call_0");
    assert_eq!(message["tool_calls"][0]["function"]["name"], "search");
    assert_eq!(
        message["tool_calls"][0]["function"]["arguments"],
        r#"{"q":"rust"}"#
    );
    assert_eq!(v["choices"][0]["finish_reason"], "tool_calls");
}

#[tokio::test]
async fn streams_server_sent_events() {
    let server = FakeServer::start().await;
    let mut body = chat("1 + 1");
    body["stream"] = json!(true);
    body["stream_options"] = json!({"include_usage": true});
    let resp = post(&reqwest::Client::new(), &server, &body).await;
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let text = resp.text().await.unwrap();
    let events: Vec<&str> = text
        .split("\n\n")
        .filter(|e| !e.is_empty())
        .map(|e| &e["data: ".len()..])
        .collect();
    assert_eq!(events.last(), Some(&"[DONE]"));
    let chunks: Vec<Value> = events[..events.len() - 1]
        .iter()
        .map(|e| serde_json::from_str(e).unwrap())
        .collect();
    let content: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
        .collect();
    assert_eq!(content, "2");
    assert_eq!(chunks.last().unwrap()["usage"]["completion_tokens"], 1);
}

#[tokio::test]
async fn keeps_connections_alive() {
    let server = FakeServer::start().await;
    let client = reqwest::Client::new();
    for i in 0..20 {
        let v: Value = post(&client, &server, &chat(&format!("{i} + 1")))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(v["choices"][0]["message"]["content"], (i + 1).to_string());
    }
    let stats = server.stats();
    assert_eq!(stats.requests, 20);
    assert_eq!(stats.connections, 1, "{stats:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_200_concurrent_requests() {
    let server = FakeServer::start_with(FakeConfig {
        latency: Duration::from_millis(100),
        ..FakeConfig::default()
    })
    .await;
    let client = reqwest::Client::new();
    let url = format!("{}/chat/completions", server.base_url());
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..200u32 {
        let (client, url) = (client.clone(), url.clone());
        tasks.spawn(async move {
            let v: Value = client
                .post(url)
                .json(&chat(&format!("{i} + {i}")))
                .send()
                .await?
                .json()
                .await?;
            assert_eq!(v["choices"][0]["message"]["content"], (2 * i).to_string());
            Ok::<_, reqwest::Error>(())
        });
    }
    while let Some(done) = tasks.join_next().await {
        done.unwrap().unwrap();
    }
    let stats = server.settled_stats(200, Duration::from_secs(5)).await;
    assert_eq!(
        (stats.requests, stats.completed, stats.in_flight),
        (200, 200, 0)
    );
    // All 200 are sent at once and each takes 100 ms: they overlap (by how much depends on how
    // loaded the machine is).
    assert!(stats.max_in_flight > 10, "{stats:?}");
    assert!(stats.connections > 10, "{stats:?}");
}

#[tokio::test]
async fn latency_delays_answers() {
    let server = FakeServer::start().await;
    server.set_latency(Duration::from_millis(150));
    let started = Instant::now();
    post(&reqwest::Client::new(), &server, &chat("x"))
        .await
        .bytes()
        .await
        .unwrap();
    assert!(started.elapsed() >= Duration::from_millis(150));
}

#[tokio::test]
async fn status_faults_keep_the_connection_and_apply_in_order() {
    let server = FakeServer::start().await;
    server.push_faults([
        Fault::rate_limited("1"),
        Fault::Status {
            code: 400,
            retry_after: None,
            body: "plain words".into(),
        },
        Fault::status(503),
    ]);
    assert_eq!(server.pending_faults(), 3);
    // /v1/models never consumes a fault.
    let models = exchange(
        server.addr(),
        b"GET /v1/models HTTP/1.1\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(parse_raw(&models).unwrap().status, 200);
    assert_eq!(server.pending_faults(), 3);

    let client = reqwest::Client::new();
    let r = post(&client, &server, &chat("x")).await;
    assert_eq!(r.status(), 429);
    assert_eq!(r.headers()["retry-after"], "1");
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"]["type"], "rate_limit_error");
    let r = post(&client, &server, &chat("x")).await;
    assert_eq!(r.status(), 400);
    assert_eq!(r.headers()["content-type"], "text/plain; charset=utf-8");
    assert_eq!(r.text().await.unwrap(), "plain words");
    // Bodies are read in full so that the client can reuse its connection.
    let r = post(&client, &server, &chat("x")).await;
    assert_eq!(r.status(), 503);
    r.bytes().await.unwrap();
    let r = post(&client, &server, &chat("x")).await;
    assert_eq!(r.status(), 200);
    r.bytes().await.unwrap();
    let stats = server.settled_stats(1, Duration::from_secs(5)).await;
    assert_eq!(
        (stats.faults, stats.completed, stats.connections),
        (3, 1, 2),
        "{stats:?}"
    );
}

#[tokio::test]
async fn fail_next_repeats_a_fault() {
    let server = FakeServer::start().await;
    server.fail_next(2, Fault::status(500));
    let client = reqwest::Client::new();
    let statuses = [
        post(&client, &server, &chat("x")).await.status().as_u16(),
        post(&client, &server, &chat("x")).await.status().as_u16(),
        post(&client, &server, &chat("x")).await.status().as_u16(),
    ];
    assert_eq!(statuses, [500, 500, 200]);
}

#[tokio::test]
async fn truncated_body_is_shorter_than_its_content_length() {
    let server = FakeServer::start().await;
    server.push_faults([Fault::Truncated]);
    let raw = parse_raw(&exchange(server.addr(), &chat_request(SUM, "")).await).unwrap();
    assert_eq!(raw.status, 200);
    let announced: usize = raw.header("content-length").unwrap().parse().unwrap();
    assert!(
        !raw.body.is_empty() && raw.body.len() < announced,
        "{raw:?}"
    );
    assert_eq!(server.stats().completed, 0);
}

#[tokio::test]
async fn drop_connection_sends_nothing() {
    let server = FakeServer::start().await;
    server.push_faults([Fault::DropConnection]);
    let bytes = exchange(server.addr(), &chat_request(SUM, "")).await;
    assert!(bytes.is_empty(), "{:?}", String::from_utf8_lossy(&bytes));
    assert_eq!(server.stats().requests, 1);
}

#[tokio::test]
async fn hang_never_answers_until_the_client_leaves() {
    let server = FakeServer::start().await;
    server.push_faults([Fault::Hang]);
    let mut stream = TcpStream::connect(server.addr()).await.unwrap();
    stream.write_all(&chat_request(SUM, "")).await.unwrap();
    let bytes = read_to_close(&mut stream, Duration::from_millis(300)).await;
    assert!(bytes.is_empty());
    assert_eq!(server.stats().in_flight, 1);
    drop(stream);
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.stats().in_flight > 0 {
        assert!(Instant::now() < deadline, "the hung request never ended");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test]
async fn slow_body_arrives_whole_but_late() {
    let server = FakeServer::start().await;
    server.push_faults([Fault::SlowBody {
        chunk_delay: Duration::from_millis(10),
    }]);
    let started = Instant::now();
    let raw =
        parse_raw(&exchange(server.addr(), &chat_request(SUM, "connection: close\r\n")).await)
            .unwrap();
    let pieces = raw.body.len().div_ceil(16) as u32;
    assert!(started.elapsed() >= Duration::from_millis(10) * pieces);
    let v: Value = serde_json::from_slice(&raw.body).unwrap();
    assert_eq!(v["choices"][0]["message"]["content"], "5");
}

#[tokio::test]
async fn malformed_and_wrong_shape_bodies() {
    let server = FakeServer::start().await;
    server.push_faults([Fault::MalformedJson, Fault::WrongShape]);
    let client = reqwest::Client::new();
    let r = post(&client, &server, &chat("x")).await;
    assert_eq!(r.status(), 200);
    assert!(serde_json::from_slice::<Value>(&r.bytes().await.unwrap()).is_err());
    let v: Value = post(&client, &server, &chat("x"))
        .await
        .json()
        .await
        .unwrap();
    assert!(v.get("choices").is_none());
    assert_eq!(v["object"], "chat.completion");
}

#[tokio::test]
async fn rejects_bad_requests_without_dying() {
    let server = FakeServer::start().await;
    let addr = server.addr();
    let cases: [(&[u8], u16); 6] = [
        (b"NONSENSE\r\n\r\n", 400),
        (b"GET / HTTP/9.9\r\n\r\n", 505),
        (
            b"POST /v1/chat/completions HTTP/1.1\r\ncontent-length: nope\r\n\r\n",
            400,
        ),
        (&chat_request("{not json", "connection: close\r\n"), 400),
        (
            &chat_request(r#"{"model":"m"}"#, "connection: close\r\n"),
            400,
        ),
        (
            b"GET /v1/unknown HTTP/1.1\r\nconnection: close\r\n\r\n",
            404,
        ),
    ];
    for (request, status) in cases {
        let raw = parse_raw(&exchange(addr, request).await).unwrap();
        assert_eq!(raw.status, status, "{}", String::from_utf8_lossy(request));
        let v: Value = serde_json::from_slice(&raw.body).unwrap();
        assert!(v["error"]["message"].is_string());
    }
    let raw = parse_raw(
        &exchange(
            addr,
            b"GET /v1/chat/completions HTTP/1.1\r\nconnection: close\r\n\r\n",
        )
        .await,
    )
    .unwrap();
    assert_eq!((raw.status, raw.header("allow")), (405, Some("POST")));
    // A head that never ends is cut off at 64 KiB.
    let mut huge = b"GET / HTTP/1.1\r\nx: ".to_vec();
    huge.extend(std::iter::repeat_n(b'a', 70 * 1024));
    assert_eq!(parse_raw(&exchange(addr, &huge).await).unwrap().status, 431);
    // Still serving.
    assert_eq!(
        post(&reqwest::Client::new(), &server, &chat("1 + 2"))
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn reads_chunked_pipelined_and_expect_continue_requests() {
    let server = FakeServer::start().await;
    let mut stream = TcpStream::connect(server.addr()).await.unwrap();
    // Chunked body split mid-JSON, followed at once by a pipelined second request.
    let (a, b) = SUM.split_at(10);
    let mut bytes = format!(
        "POST /v1/chat/completions HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n\
         {:x};ext=1\r\n{}\r\n{:x}\r\n{}\r\n0\r\ntrailer: t\r\n\r\n",
        a.len(),
        a,
        b.len(),
        b
    )
    .into_bytes();
    bytes.extend(chat_request(SUM, "connection: close\r\n"));
    stream.write_all(&bytes).await.unwrap();
    let all = read_to_close(&mut stream, Duration::from_secs(5)).await;
    let text = String::from_utf8(all).unwrap();
    assert_eq!(text.matches("HTTP/1.1 200 OK").count(), 2, "{text}");
    assert_eq!(text.matches(r#""content":"5""#).count(), 2, "{text}");

    // Expect: 100-continue gets its interim response before the body is sent.
    let mut stream = TcpStream::connect(server.addr()).await.unwrap();
    let head = format!(
        "POST /v1/chat/completions HTTP/1.1\r\nexpect: 100-continue\r\ncontent-length: {}\r\n\
         connection: close\r\n\r\n",
        SUM.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut interim = [0u8; 25];
    stream.read_exact(&mut interim).await.unwrap();
    assert_eq!(&interim, b"HTTP/1.1 100 Continue\r\n\r\n");
    stream.write_all(SUM.as_bytes()).await.unwrap();
    let raw = parse_raw(&read_to_close(&mut stream, Duration::from_secs(5)).await).unwrap();
    assert_eq!(raw.status, 200);
    assert_eq!(server.stats().requests, 3);
}
