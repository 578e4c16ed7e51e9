//! Tool calling through the prompt, in the format Qwen2.5's chat template defines (the
//! "Hermes" style most small ChatML instruct models are trained on): the tools' JSON schemas in
//! `<tools></tools>` at the end of the system prompt, each call the model makes as
//! `<tool_call>{"name": …, "arguments": …}</tool_call>` in its answer, and each result sent back
//! as a user turn `<tool_response>…</tool_response>` (see `ChatFormat::prompt`).
//!
//! This lets `tools`-mode grounding run on the embedded model. A small model follows the format
//! imperfectly: a block that is not valid JSON naming a function stays in the text, so the
//! answer is scored as written rather than silently repaired.

use serde_json::{Value, json};
use verity_model::{ChatMessage, Role, ToolCall};

/// The system prompt's tool section for `tools` (OpenAI function shape, or bare functions).
pub fn system_section(tools: &[Value]) -> String {
    let mut out = String::from(
        "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n\
         You are provided with function signatures within <tools></tools> XML tags:\n<tools>",
    );
    for t in tools {
        let t = if t.get("type").is_some() {
            t.clone()
        } else {
            json!({"type": "function", "function": t})
        };
        out.push('\n');
        out.push_str(&t.to_string());
    }
    out.push_str(
        "\n</tools>\n\nFor each function call, return a json object with function name and \
         arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n\
         {\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>",
    );
    out
}

/// The conversation as (role, content) turns for the ChatML prompt: with tools, their section
/// joins the system prompt (the model's default one when the conversation has none), and an
/// assistant turn's earlier calls are written back in the call format.
pub fn turns(
    messages: &[ChatMessage],
    tools: &[Value],
    default_system: Option<&str>,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::with_capacity(messages.len() + 1);
    if !tools.is_empty() {
        let section = system_section(tools);
        match messages.first() {
            Some(m) if m.role == Role::System => {}
            _ => out.push((
                "system".to_owned(),
                match default_system {
                    Some(s) => format!("{s}\n\n{section}"),
                    None => section.clone(),
                },
            )),
        }
        for (i, m) in messages.iter().enumerate() {
            let content = if i == 0 && m.role == Role::System {
                format!("{}\n\n{section}", m.content)
            } else {
                with_calls(m)
            };
            out.push((m.role.as_str().to_owned(), content));
        }
    } else {
        out.extend(
            messages
                .iter()
                .map(|m| (m.role.as_str().to_owned(), with_calls(m))),
        );
    }
    out
}

fn with_calls(m: &ChatMessage) -> String {
    if m.tool_calls.is_empty() {
        return m.content.clone();
    }
    let mut s = m.content.clone();
    for c in &m.tool_calls {
        if !s.is_empty() {
            s.push('\n');
        }
        s.push_str("<tool_call>\n");
        s.push_str(&json!({"name": c.name, "arguments": c.arguments}).to_string());
        s.push_str("\n</tool_call>");
    }
    s
}

/// Splits an answer into its text and the well-formed `<tool_call>` blocks in it. Calls get
/// ids `call_0`, `call_1`, … in order. A block whose body is not a JSON object with a string
/// `name` (or that is never closed) is left in the text.
pub fn parse_calls(answer: &str) -> (String, Vec<ToolCall>) {
    const OPEN: &str = "<tool_call>";
    const CLOSE: &str = "</tool_call>";
    let mut text = String::new();
    let mut calls = Vec::new();
    let mut rest = answer;
    while let Some(start) = rest.find(OPEN) {
        let after = &rest[start + OPEN.len()..];
        let Some(end) = after.find(CLOSE) else {
            break;
        };
        let body = after[..end].trim();
        let call = serde_json::from_str::<Value>(body).ok().and_then(|v| {
            let name = v.get("name")?.as_str()?.to_owned();
            let arguments = match v.get("arguments") {
                // Some models write the arguments as a JSON string.
                Some(Value::String(s)) => {
                    serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone()))
                }
                Some(a) => a.clone(),
                None => json!({}),
            };
            Some((name, arguments))
        });
        match call {
            Some((name, arguments)) => {
                text.push_str(&rest[..start]);
                calls.push(ToolCall {
                    id: Some(format!("call_{}", calls.len())),
                    name,
                    arguments,
                    result: None,
                    error: None,
                });
            }
            None => text.push_str(&rest[..start + OPEN.len() + end + CLOSE.len()]),
        }
        rest = &after[end + CLOSE.len()..];
    }
    text.push_str(rest);
    let text = if calls.is_empty() {
        text
    } else {
        text.trim().to_owned()
    };
    (text, calls)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search_tool() -> Value {
        json!({"type": "function", "function": {"name": "search", "description": "Search the docs",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}}})
    }

    #[test]
    fn calls_are_parsed_in_order_and_the_rest_is_text() {
        let (text, calls) = parse_calls(
            "Let me look.\n<tool_call>\n{\"name\": \"search\", \"arguments\": {\"query\": \"URLSession\"}}\n</tool_call>\n<tool_call>{\"name\": \"read\", \"arguments\": \"{\\\"id\\\": 3}\"}</tool_call>",
        );
        assert_eq!(text, "Let me look.");
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0].id.as_deref(), Some("call_0"));
        assert_eq!(calls[0].name, "search");
        assert_eq!(calls[0].arguments, json!({"query": "URLSession"}));
        assert_eq!(calls[1].name, "read");
        assert_eq!(
            calls[1].arguments,
            json!({"id": 3}),
            "string arguments are decoded"
        );
    }

    #[test]
    fn malformed_or_unclosed_blocks_stay_in_the_text() {
        for answer in [
            "<tool_call>{not json}</tool_call> after",
            "<tool_call>{\"arguments\": {}}</tool_call>",
            "before <tool_call>{\"name\": \"search\"}",
            "no calls at all",
        ] {
            let (text, calls) = parse_calls(answer);
            assert!(calls.is_empty(), "{answer}");
            assert_eq!(text, answer);
        }
        let (text, calls) =
            parse_calls("<tool_call>oops</tool_call><tool_call>{\"name\": \"x\"}</tool_call>");
        assert_eq!(text, "<tool_call>oops</tool_call>");
        assert_eq!(calls[0].arguments, json!({}));
    }

    #[test]
    fn tools_join_the_system_prompt_and_past_calls_are_written_back() {
        let mut assistant = ChatMessage::new(Role::Assistant, "");
        assistant.tool_calls.push(ToolCall {
            id: Some("call_0".into()),
            name: "search".into(),
            arguments: json!({"query": "q"}),
            result: None,
            error: None,
        });
        let mut tool = ChatMessage::new(Role::Tool, "result");
        tool.tool_call_id = Some("call_0".into());
        let msgs = vec![ChatMessage::new(Role::User, "hi"), assistant, tool];
        let t = turns(&msgs, &[search_tool()], Some("You are helpful."));
        assert_eq!(t[0].0, "system");
        assert!(
            t[0].1.starts_with("You are helpful.\n\n# Tools"),
            "{}",
            t[0].1
        );
        assert!(t[0].1.contains("\"name\":\"search\""), "{}", t[0].1);
        assert_eq!(t[1], ("user".into(), "hi".into()));
        assert_eq!(
            t[2].1,
            "<tool_call>\n{\"name\":\"search\",\"arguments\":{\"query\":\"q\"}}\n</tool_call>"
        );
        assert_eq!(t[3], ("tool".into(), "result".into()));
        // A conversation's own system prompt gets the section; without tools nothing changes.
        let msgs = vec![
            ChatMessage::new(Role::System, "Be brief."),
            ChatMessage::new(Role::User, "hi"),
        ];
        let t = turns(&msgs, &[search_tool()], Some("ignored"));
        assert_eq!(t.len(), 2);
        assert!(t[0].1.starts_with("Be brief.\n\n# Tools"));
        let t = turns(&msgs, &[], Some("ignored"));
        assert_eq!(t[0], ("system".into(), "Be brief.".into()));
    }
}
