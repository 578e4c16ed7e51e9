//! Helpers for the `verity` binary: `verity symbols build|lookup` and `verity check swift`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::check::{
    CheckOptions, DEFAULT_INDEX_NAME, FileReport, check_answer, check_source, default_index,
    default_map,
};
use crate::deprecations::DeprecationMap;
use crate::index::sdk::{self, MergeStats};
use crate::index::{Index, IndexError, SymbolFacts, read_graphs};

/// What `verity symbols build` did.
#[derive(Clone, Debug, Serialize)]
pub struct BuildSummary {
    pub out: PathBuf,
    pub symbols: usize,
    pub modules: u32,
    pub bytes: usize,
    pub label: String,
    /// Symbols with a type (property type, return type, aliased type…) or parameters.
    pub typed: usize,
    #[serde(with = "secs")]
    pub elapsed: Duration,
    /// Graphs and an SDK: how many graph declarations got the SDK's types, per module.
    #[serde(skip)]
    pub merge: Option<MergeStats>,
}

mod secs {
    pub fn serialize<S: serde::Serializer>(
        d: &std::time::Duration,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64())
    }
}

/// `verity symbols build [GRAPHS_DIR]... [--sdk SDK_DIR] --out INDEX`: the facts of the
/// symbol graphs, the declarations of an SDK's interfaces, or both (the graphs' names, kinds
/// and availability with the SDK's types, see [`sdk::attach_types`]).
pub fn build(
    dirs: &[PathBuf],
    sdk_dir: Option<&Path>,
    out: &Path,
) -> Result<BuildSummary, IndexError> {
    let started = Instant::now();
    let (set, merge) = match (dirs.is_empty(), sdk_dir) {
        (true, None) => return Err(IndexError::NoGraphs("(no directory given)".into())),
        (false, None) => (read_graphs(dirs)?, None),
        (true, Some(s)) => (sdk::read_sdk(s)?, None),
        (false, Some(s)) => {
            let mut base = read_graphs(dirs)?;
            let from_sdk = sdk::read_sdk(s)?;
            let stats = sdk::attach_types(&mut base, &from_sdk);
            base.sources.extend(from_sdk.sources);
            (base, Some(stats))
        }
    };
    let ix = set.into_index();
    let bytes = ix.to_bytes();
    // write next to the target, then rename: a reader never sees half an index
    let tmp = out.with_extension("vidx.tmp");
    std::fs::write(&tmp, &bytes)
        .and_then(|()| std::fs::rename(&tmp, out))
        .map_err(|e| IndexError::Io {
            path: out.display().to_string(),
            source: e,
        })?;
    let typed = ix
        .iter()
        .filter(|f| {
            f.ty.is_some()
                || f.params
                    .as_ref()
                    .is_some_and(|p| p.iter().any(|p| !p.ty.is_empty()))
        })
        .count();
    Ok(BuildSummary {
        out: out.to_path_buf(),
        symbols: ix.symbol_count(),
        modules: ix.meta().modules,
        bytes: bytes.len(),
        label: ix.meta().label.clone(),
        typed,
        elapsed: started.elapsed(),
        merge,
    })
}

/// An index named like the scorer's `index` option: `default:ios17.4` (or `default`) or a path.
pub fn load_index(spec: &str) -> Result<Arc<Index>, IndexError> {
    if spec == "default" || spec == DEFAULT_INDEX_NAME {
        return default_index();
    }
    Index::load(Path::new(spec)).map(Arc::new)
}

/// `verity symbols lookup NAME`: every match, as facts.
pub fn lookup(index: &Index, name: &str) -> Vec<SymbolFacts> {
    index.lookup(name)
}

/// One line per symbol: `SwiftUI swift.method View.navigationDestination(for:destination:) iOS 16.0+ …`.
pub fn facts_line(f: &SymbolFacts) -> String {
    let mut s = format!("{} {} {}", f.module, f.kind, f.dotted_path());
    for a in &f.availability {
        let Some(d) = a.domain else { continue };
        let mut parts = Vec::new();
        if let Some(i) = a.introduced {
            parts.push(format!("{i}+"));
        }
        if a.unavailable {
            parts.push("unavailable".into());
        }
        if let Some(dep) = a.deprecated {
            parts.push(if dep.is_future() {
                "deprecated(future)".to_owned()
            } else {
                format!("deprecated {dep}")
            });
        }
        if a.unconditionally_deprecated {
            parts.push("deprecated".into());
        }
        if let Some(o) = a.obsoleted {
            parts.push(format!("obsoleted {o}"));
        }
        if let Some(r) = &a.renamed {
            parts.push(format!("renamed {r}"));
        }
        if !parts.is_empty() {
            s.push_str(&format!(" [{d} {}]", parts.join(", ")));
        }
    }
    if let Some(g) = &f.generics {
        s.push_str(&format!(" <{g}>"));
    }
    if let Some(ps) = &f.params {
        let ps: Vec<String> = ps
            .iter()
            .map(|p| {
                let ty = if p.ty.is_empty() { "?" } else { p.ty.as_str() };
                format!(
                    "{}: {ty}{}",
                    p.label,
                    if p.default { " = default" } else { "" }
                )
            })
            .collect();
        s.push_str(&format!(" ({})", ps.join(", ")));
    }
    if f.is_async {
        s.push_str(" async");
    }
    if f.throws {
        s.push_str(" throws");
    }
    if let Some(t) = &f.ty {
        s.push_str(&format!(" -> {t}"));
    }
    if f.approximate_name {
        s.push_str(" (approximate ObjC name)");
    }
    if f.synthesized {
        s.push_str(" (placeholder)");
    }
    s
}

/// Why `verity check swift` could not set its checks up.
#[derive(Debug, thiserror::Error)]
pub enum CheckSetupError {
    /// The embedded index or the shipped deprecation map.
    #[error(transparent)]
    Embedded(IndexError),
    #[error("{source}; build one with `verity symbols build DIR --out {spec}`")]
    Index {
        spec: String,
        #[source]
        source: IndexError,
    },
    #[error(transparent)]
    Deprecations(#[from] crate::deprecations::MapError),
}

impl CheckSetupError {
    /// What the user named (an index, a map) is theirs to fix; the embedded data failing is
    /// verity's own fault.
    pub fn kind(&self) -> verity_model::ErrorKind {
        match self {
            CheckSetupError::Embedded(_) => verity_model::ErrorKind::Internal,
            CheckSetupError::Index { .. } | CheckSetupError::Deprecations(_) => {
                verity_model::ErrorKind::Usage
            }
        }
    }
}

/// Check options for `verity check swift`: an index spec (`default:ios17.4` or a path), the
/// shipped map unless a map path is given.
pub fn check_options_for(
    target: crate::version::Target,
    index: &str,
    deprecations: Option<&Path>,
) -> Result<CheckOptions, CheckSetupError> {
    let mut o = CheckOptions::new(target).map_err(CheckSetupError::Embedded)?;
    if index != "default" && index != DEFAULT_INDEX_NAME {
        let ix = load_index(index).map_err(|source| CheckSetupError::Index {
            spec: index.to_owned(),
            source,
        })?;
        o.deprecations = Arc::new(DeprecationMap::default_for(&ix));
        o.index = ix;
    } else {
        o.deprecations = default_map().map_err(CheckSetupError::Embedded)?;
    }
    if let Some(p) = deprecations {
        o.deprecations = Arc::new(DeprecationMap::load(p, &o.index)?);
    }
    Ok(o)
}

/// `verity check swift FILE`: a `.md` / `.txt` file is a model answer (fenced blocks), anything
/// else is Swift source.
pub fn check_file(path: &Path, opts: &CheckOptions) -> Result<FileReport, std::io::Error> {
    let bytes = std::fs::read(path)?;
    let text = String::from_utf8_lossy(&bytes);
    let answer = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "md" | "markdown" | "txt"));
    Ok(if answer {
        check_answer(&text, opts)
    } else {
        check_source(&text, opts)
    })
}
