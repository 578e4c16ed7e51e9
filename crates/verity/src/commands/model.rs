//! `verity model pull|list|generate`: the embedded model's weights, and one answer from it.

use std::io::Read as _;
use std::path::PathBuf;
use std::sync::Arc;

use verity_local::{LocalProvider, ModelStoreError};
use verity_model::{
    ChatMessage, ErrorKind, GenParams, GenerateRequest, Provider, ProviderSpec, Role, SampleKey,
    Task,
};

use super::runtime;
use crate::cli::{ModelCommand, ModelGenerateArgs};
use crate::{CliError, exit};

pub(super) fn model(c: ModelCommand) -> Result<u8, CliError> {
    let dir_or_default = |d: Option<PathBuf>| d.unwrap_or_else(verity_local::default_models_dir);
    match c {
        ModelCommand::Pull { name, models_dir } => {
            let dir = dir_or_default(models_dir);
            let name = name.as_deref().unwrap_or(verity_local::DEFAULT_MODEL);
            let path = verity_local::pull(name, &dir, &mut |line| eprintln!("verity: {line}"))?;
            println!("{name}: {}", path.display());
            Ok(exit::OK)
        }
        ModelCommand::List { models_dir } => {
            let dir = dir_or_default(models_dir);
            println!("models directory: {}", dir.display());
            for m in verity_local::list(&dir) {
                let state = match (m.present, m.expected_size) {
                    (false, _) => "absent".to_owned(),
                    (true, Some(want)) if m.size != want => {
                        format!("incomplete ({} of {want} bytes)", m.size)
                    }
                    (true, _) => format!("{:.0} MB", m.size as f64 / 1e6),
                };
                let default = if m.name == verity_local::DEFAULT_MODEL {
                    " (default)"
                } else {
                    ""
                };
                println!("{:<32} {:<24} {}{default}", m.name, state, m.description);
            }
            Ok(exit::OK)
        }
        ModelCommand::Generate(a) => {
            let dir = dir_or_default(a.models_dir.clone());
            generate(*a, dir)
        }
    }
}

/// `verity model generate`: one request to the `local` provider, built from a spec as a
/// suite's variant would be (the same loader, the same decoding), without pulling: a model
/// that is not in the directory is an error naming the command that gets it.
fn generate(a: ModelGenerateArgs, dir: PathBuf) -> Result<u8, CliError> {
    let model = a
        .model
        .clone()
        .unwrap_or_else(|| verity_local::DEFAULT_MODEL.to_owned());
    if !model.starts_with("local:") {
        let Some(known) = verity_local::store::known(&model) else {
            return Err(ModelStoreError::UnknownModel {
                known: verity_local::KNOWN_MODELS
                    .iter()
                    .map(|m| m.name)
                    .collect::<Vec<_>>()
                    .join(", "),
                name: model,
            }
            .into());
        };
        let path = dir.join(known.file_name());
        if !path.is_file() {
            return Err(CliError::new(
                ErrorKind::NotFound,
                format!(
                    "model `{model}` is not in {}: get it with `verity model pull {model}` (--models-dir or $VERITY_MODELS_DIR to look elsewhere)",
                    dir.display()
                ),
            ));
        }
    }
    if let Some(t) = a.temperature
        && !(t >= 0.0 && t.is_finite())
    {
        return Err(CliError::usage(format!(
            "--temperature must be 0 or more, got {t}"
        )));
    }
    if a.max_tokens == Some(0) {
        return Err(CliError::usage("--max-tokens must be at least 1"));
    }
    let response_schema = a.schema.as_deref().map(read_schema).transpose()?;
    let prompt = match a.prompt {
        Some(p) => p,
        None => {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text).map_err(|e| {
                CliError::io(format!("reading the prompt from standard input: {e}"))
            })?;
            // `echo PROMPT |` and `--prompt PROMPT` ask the same thing.
            match text.strip_suffix('\n') {
                Some(t) => t.strip_suffix('\r').unwrap_or(t).to_owned(),
                None => text,
            }
        }
    };
    if prompt.trim().is_empty() {
        return Err(CliError::usage(
            "the prompt is empty: pass --prompt TEXT or write it to standard input",
        ));
    }

    let mut options = serde_json::Map::new();
    options.insert("models_dir".into(), dir.display().to_string().into());
    options.insert("pull".into(), false.into());
    let spec = ProviderSpec {
        kind: "local".into(),
        model: Some(model),
        base_url: None,
        api_key_env: None,
        options,
    };
    let provider = LocalProvider::from_spec(&spec)?;
    let mut messages = Vec::new();
    if let Some(system) = a.system {
        messages.push(ChatMessage::new(Role::System, system));
    }
    messages.push(ChatMessage::new(Role::User, prompt.clone()));
    let req = GenerateRequest {
        sample: SampleKey {
            task_id: "generate".into(),
            variant: "generate".into(),
            epoch: 0,
        },
        task: Arc::new(Task::prompt("generate", prompt)),
        messages,
        params: GenParams {
            temperature: a.temperature,
            seed: a.seed,
            max_tokens: a.max_tokens,
            response_schema,
            ..GenParams::default()
        },
        tools: Vec::new(),
    };
    let g = runtime()?.block_on(provider.generate(&req))?;
    if req.params.response_schema.is_some() && g.finish_reason.as_deref() == Some("length") {
        eprintln!(
            "warning: the answer was cut at {} tokens before its JSON document was complete (raise --max-tokens)",
            g.usage.output_tokens
        );
    }
    if a.json {
        let out = serde_json::json!({
            "text": g.text,
            "usage": {
                "input_tokens": g.usage.input_tokens,
                "output_tokens": g.usage.output_tokens,
            },
            "model": provider.model(),
            "finish_reason": g.finish_reason,
        });
        println!("{out}");
    } else {
        println!("{}", g.text);
    }
    Ok(exit::OK)
}

/// A `--schema` file: JSON, or a usage error naming the file and where it stops parsing. Whether
/// it is a schema the decoder can use is the provider's to say.
fn read_schema(path: &std::path::Path) -> Result<serde_json::Value, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        let kind = if e.kind() == std::io::ErrorKind::NotFound {
            ErrorKind::NotFound
        } else {
            ErrorKind::Io
        };
        CliError::new(kind, format!("--schema {}: {e}", path.display()))
    })?;
    serde_json::from_str(&text).map_err(|e| {
        CliError::new(
            ErrorKind::Config,
            format!("--schema {}: not JSON: {e}", path.display()),
        )
    })
}
