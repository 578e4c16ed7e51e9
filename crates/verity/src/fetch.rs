//! `verity corpus fetch`: the repositories a suite's `repos.toml` pins, downloaded once into a
//! content-addressed cache, verified by sha256, and unpacked into `SUITE/repos/NAME/`.
//!
//! - Artifacts (`.tgz`, `.tar.gz`, `.crate`: gzip'd tar) are fetched over HTTPS (reqwest with
//!   rustls) into `<cache>/<sha256>`, written to a temporary file while hashed and renamed into
//!   place only when the hash matches; a mismatching download or cached file is deleted.
//! - Unpacking is confined to the destination: entries with absolute paths or `..` are
//!   refused, as are links that point outside the repository and hard links; other symbolic
//!   links are not created; only files and directories are written; sizes and entry counts
//!   are bounded. Entries outside the pin's `root` are left out and `root/` is stripped.
//! - `repos/NAME/.verity-fetch` records what was unpacked (the sha256 or commit): a second
//!   fetch with the same pin does nothing, a changed pin replaces the directory.
//! - `git:URL#COMMIT` pins are cloned into the cache (`git` run under `verity-process`) and
//!   checked out at the commit, their history kept (the facts' commits come from it).
//! - `--offline` uses the cache only.

use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};
use verity_model::ErrorKind;
use verity_process::{Capture, Spec};
use verity_suite::repos::{RepoPin, Source};

use crate::CliError;

/// The marker written into each unpacked repository.
pub const MARKER: &str = ".verity-fetch";
/// Unpacked size and entry limits (a hostile archive cannot fill the disk).
const MAX_UNPACKED_BYTES: u64 = 2 << 30;
const MAX_ENTRIES: u64 = 200_000;
const DOWNLOAD_TIMEOUT: Duration = Duration::from_secs(300);
const GIT_TIMEOUT: Duration = Duration::from_secs(600);

/// The cache of downloaded artifacts: `$VERITY_CORPUS_CACHE`, else
/// `$XDG_CACHE_HOME/verity/corpus`, else `~/.cache/verity/corpus` (beside the model store).
pub fn default_cache_dir() -> PathBuf {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = env("VERITY_CORPUS_CACHE") {
        return d;
    }
    if let Some(d) = env("XDG_CACHE_HOME") {
        return d.join("verity").join("corpus");
    }
    env("HOME")
        .unwrap_or_else(|| PathBuf::from("."))
        .join(".cache")
        .join("verity")
        .join("corpus")
}

/// What fetching one pin did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Already unpacked from the same artifact.
    UpToDate,
    /// Unpacked (`downloaded`: the artifact was not in the cache).
    Unpacked { downloaded: bool, files: u64 },
}

/// Fetches one pin into `repos_dir/NAME`.
pub fn fetch_pin(
    pin: &RepoPin,
    repos_dir: &Path,
    cache: &Path,
    offline: bool,
) -> Result<Outcome, CliError> {
    let dest = repos_dir.join(&pin.name);
    let want = marker_text(pin);
    if std::fs::read_to_string(dest.join(MARKER)).is_ok_and(|m| m == want) {
        return Ok(Outcome::UpToDate);
    }
    std::fs::create_dir_all(repos_dir).map_err(|e| io(repos_dir, e))?;
    std::fs::create_dir_all(cache).map_err(|e| io(cache, e))?;
    let tmp = repos_dir.join(format!(".{}.partial", pin.name));
    remove_dir(&tmp)?;
    let result = match &pin.source {
        Source::Git { url, commit } => {
            if pin.root.is_some() {
                return Err(CliError::new(
                    ErrorKind::Config,
                    format!(
                        "repository `{}`: `root` applies to archives, not to git pins",
                        pin.name
                    ),
                ));
            }
            git_checkout(url, commit, cache, &tmp, offline).map(|downloaded| (downloaded, 0))
        }
        _ => {
            let (archive, downloaded) = cached_artifact(pin, cache, offline)?;
            std::fs::create_dir_all(&tmp).map_err(|e| io(&tmp, e))?;
            unpack(&archive, pin.root.as_deref(), &tmp)
                .map(|files| (downloaded, files))
                .map_err(|e| {
                    CliError::new(
                        e.kind,
                        format!(
                            "repository `{}` ({}): {}",
                            pin.name,
                            archive.display(),
                            e.message
                        ),
                    )
                })
        }
    };
    let (downloaded, files) = match result {
        Ok(r) => r,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    std::fs::write(tmp.join(MARKER), &want).map_err(|e| io(&tmp, e))?;
    remove_dir(&dest)?;
    std::fs::rename(&tmp, &dest).map_err(|e| io(&dest, e))?;
    Ok(Outcome::Unpacked { downloaded, files })
}

/// What the marker says: the source and the artifact's hash (or the commit).
fn marker_text(pin: &RepoPin) -> String {
    let id = match &pin.source {
        Source::Git { commit, .. } => format!("commit {commit}"),
        _ => format!("sha256 {}", pin.sha256.as_deref().unwrap_or_default()),
    };
    let root = pin.root.as_deref().unwrap_or("");
    format!("verity corpus fetch\n{id}\nroot {root}\n")
}

fn io(path: &Path, e: std::io::Error) -> CliError {
    CliError::io(format!("{}: {e}", path.display()))
}

fn remove_dir(p: &Path) -> Result<(), CliError> {
    match std::fs::remove_dir_all(p) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io(p, e)),
    }
}

fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut f = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(hex(&h.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The pin's artifact in the cache, downloaded and verified when it is not there (or is
/// there but does not match). Returns the path and whether it was downloaded.
fn cached_artifact(
    pin: &RepoPin,
    cache: &Path,
    offline: bool,
) -> Result<(PathBuf, bool), CliError> {
    let sha = pin.sha256.as_deref().ok_or_else(|| {
        CliError::new(
            ErrorKind::Config,
            format!("repository `{}` has no sha256", pin.name),
        )
    })?;
    let url = pin.url.as_deref().ok_or_else(|| {
        CliError::new(
            ErrorKind::Config,
            format!("repository `{}` has no url", pin.name),
        )
    })?;
    let path = cache.join(sha);
    if path.is_file() {
        match sha256_file(&path) {
            Ok(found) if found == sha => return Ok((path, false)),
            // A corrupted cache entry is dropped and fetched again.
            _ => std::fs::remove_file(&path).map_err(|e| io(&path, e))?,
        }
    }
    if offline {
        return Err(CliError::new(
            ErrorKind::NotFound,
            format!(
                "repository `{}`: {url} is not in the cache ({}) and --offline forbids downloading it",
                pin.name,
                cache.display()
            ),
        ));
    }
    let tmp = cache.join(format!(".{sha}.{}.partial", std::process::id()));
    let found = download(url, &tmp).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })?;
    if found != sha {
        let _ = std::fs::remove_file(&tmp);
        return Err(CliError::new(
            ErrorKind::Refused,
            format!(
                "repository `{}`: {url} has sha256 {found}, but repos.toml pins {sha}; the \
                 download was deleted (if the registry really changed the file, check it and \
                 update the pin)",
                pin.name
            ),
        ));
    }
    std::fs::rename(&tmp, &path).map_err(|e| io(&path, e))?;
    Ok((path, true))
}

/// Downloads `url` into `dest`, returning its sha256.
fn download(url: &str, dest: &Path) -> Result<String, CliError> {
    let net = |e: reqwest::Error| {
        // The error and its causes (the TLS or connection failure is at the bottom).
        let mut text = e.to_string();
        let mut cause = std::error::Error::source(&e);
        while let Some(c) = cause {
            text.push_str(": ");
            text.push_str(&c.to_string());
            cause = c.source();
        }
        CliError::new(
            ErrorKind::Provider,
            format!(
                "cannot download {url}: {}",
                verity_model::redact_urls(&text)
            ),
        )
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::io(format!("cannot start the download runtime: {e}")))?;
    rt.block_on(async {
        let mut builder = reqwest::Client::builder()
            .timeout(DOWNLOAD_TIMEOUT)
            .user_agent(concat!("verity/", env!("CARGO_PKG_VERSION")));
        // Behind a TLS-inspecting proxy the machine's CA bundle is named by SSL_CERT_FILE
        // (as curl and OpenSSL read it); its certificates are trusted besides the built-in roots.
        if let Some(bundle) = std::env::var_os("SSL_CERT_FILE").filter(|v| !v.is_empty()) {
            let pem = std::fs::read(&bundle).map_err(|e| io(Path::new(&bundle), e))?;
            let certs = reqwest::Certificate::from_pem_bundle(&pem).map_err(|e| {
                CliError::new(
                    ErrorKind::Config,
                    format!(
                        "SSL_CERT_FILE {}: not a PEM bundle: {e}",
                        Path::new(&bundle).display()
                    ),
                )
            })?;
            for c in certs {
                builder = builder.add_root_certificate(c);
            }
        }
        let client = builder.build().map_err(net)?;
        let mut resp = client.get(url).send().await.map_err(net)?;
        if !resp.status().is_success() {
            return Err(CliError::new(
                ErrorKind::NotFound,
                format!("cannot download {url}: HTTP {}", resp.status()),
            ));
        }
        let mut file = std::fs::File::create(dest).map_err(|e| io(dest, e))?;
        let mut h = Sha256::new();
        while let Some(chunk) = resp.chunk().await.map_err(net)? {
            h.update(&chunk);
            file.write_all(&chunk).map_err(|e| io(dest, e))?;
        }
        file.sync_all().map_err(|e| io(dest, e))?;
        Ok(hex(&h.finalize()))
    })
}

/// Why an archive was refused.
#[derive(Debug)]
pub struct UnpackError {
    pub kind: ErrorKind,
    pub message: String,
}

fn refused(message: String) -> UnpackError {
    UnpackError {
        kind: ErrorKind::Refused,
        message,
    }
}

/// The entry's path as normal components only, or why not.
fn safe_rel(path: &Path) -> Result<PathBuf, String> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::Normal(p) => out.push(p),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                return Err(format!(
                    "refusing archive entry `{}`: it points outside the destination",
                    path.display()
                ));
            }
        }
    }
    Ok(out)
}

/// Unpacks the gzip'd tar at `archive` into `dest` (which exists), keeping the entries under
/// `root` (stripped). Returns the number of files written.
pub fn unpack(archive: &Path, root: Option<&str>, dest: &Path) -> Result<u64, UnpackError> {
    let ioe = |e: std::io::Error| UnpackError {
        kind: ErrorKind::Io,
        message: e.to_string(),
    };
    let file = std::fs::File::open(archive).map_err(ioe)?;
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let root = root.map(PathBuf::from).unwrap_or_default();
    let (mut files, mut entries, mut bytes) = (0u64, 0u64, 0u64);
    for entry in tar.entries().map_err(ioe)? {
        let mut entry =
            entry.map_err(|e| refused(format!("not a readable tar.gz archive: {e}")))?;
        entries += 1;
        if entries > MAX_ENTRIES {
            return Err(refused(format!("more than {MAX_ENTRIES} entries")));
        }
        let raw = entry.path().map_err(ioe)?.into_owned();
        let rel = safe_rel(&raw).map_err(refused)?;
        let kind = entry.header().entry_type();
        if kind.is_hard_link() {
            return Err(refused(format!("refusing hard link `{}`", raw.display())));
        }
        if kind.is_symlink() {
            // Never created; one that leaves the repository means a hostile archive.
            let target = entry.link_name().map_err(ioe)?.unwrap_or_default();
            let parent = rel.parent().unwrap_or(Path::new(""));
            if escapes(parent, &target) {
                return Err(refused(format!(
                    "refusing symbolic link `{}` -> `{}`: it points outside the destination",
                    raw.display(),
                    target.display()
                )));
            }
            continue;
        }
        let Ok(inside) = rel.strip_prefix(&root) else {
            continue;
        };
        if inside.as_os_str().is_empty() {
            continue;
        }
        let out = dest.join(inside);
        if kind.is_dir() {
            std::fs::create_dir_all(&out).map_err(ioe)?;
        } else if kind.is_file() || kind == tar::EntryType::Continuous {
            bytes += entry.header().size().map_err(ioe)?;
            if bytes > MAX_UNPACKED_BYTES {
                return Err(refused(format!(
                    "more than {MAX_UNPACKED_BYTES} bytes unpacked"
                )));
            }
            if let Some(p) = out.parent() {
                std::fs::create_dir_all(p).map_err(ioe)?;
            }
            let mut f = std::fs::File::create(&out).map_err(ioe)?;
            std::io::copy(&mut entry, &mut f).map_err(ioe)?;
            files += 1;
        }
        // Other entry kinds (devices, fifos, pax headers) are not written.
    }
    if files == 0 {
        return Err(UnpackError {
            kind: ErrorKind::Config,
            message: format!(
                "no files under `{}` in the archive (check the pin's `root`)",
                root.display()
            ),
        });
    }
    Ok(files)
}

/// Does a link at directory `parent` (relative) to `target` leave the tree?
fn escapes(parent: &Path, target: &Path) -> bool {
    if target.is_absolute() {
        return true;
    }
    let mut depth: i64 = parent.components().count() as i64;
    for c in target.components() {
        match c {
            Component::ParentDir => depth -= 1,
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return true,
        }
        if depth < 0 {
            return true;
        }
    }
    false
}

/// Clones `url` into the cache (or updates the cached clone) and checks out `commit` in a
/// clone at `dest`. Returns whether the network was used.
fn git_checkout(
    url: &str,
    commit: &str,
    cache: &Path,
    dest: &Path,
    offline: bool,
) -> Result<bool, CliError> {
    let mirror = cache
        .join("git")
        .join(&blake3::hash(url.as_bytes()).to_hex()[..16]);
    // Runs git; Ok(None) when it succeeded, Ok(Some(stderr's tail)) when it failed.
    let git = |args: &[&std::ffi::OsStr]| -> Result<Option<String>, CliError> {
        let out = Spec::new("git")
            .args(args)
            .env("GIT_TERMINAL_PROMPT", "0")
            .stdout(Capture::Tail(4096))
            .stderr(Capture::Tail(4096))
            .timeout(GIT_TIMEOUT)
            .run()
            .map_err(|e| CliError::new(ErrorKind::NotFound, format!("cannot run git: {e}")))?;
        Ok((!out.success()).then(|| out.stderr_tail()))
    };
    let has_commit = |dir: &Path| -> Result<bool, CliError> {
        let spec = format!("{commit}^{{commit}}");
        Ok(git(&[
            "-C".as_ref(),
            dir.as_os_str(),
            "cat-file".as_ref(),
            "-e".as_ref(),
            spec.as_ref(),
        ])?
        .is_none())
    };
    let mut used_network = false;
    if !mirror.join("HEAD").exists() {
        if offline {
            return Err(CliError::new(
                ErrorKind::NotFound,
                format!("{url} has no clone in the cache and --offline forbids cloning it"),
            ));
        }
        std::fs::create_dir_all(mirror.parent().unwrap_or(cache)).map_err(|e| io(cache, e))?;
        if let Some(why) = git(&[
            "clone".as_ref(),
            "--quiet".as_ref(),
            "--mirror".as_ref(),
            "--".as_ref(),
            url.as_ref(),
            mirror.as_os_str(),
        ])? {
            let _ = std::fs::remove_dir_all(&mirror);
            return Err(CliError::new(
                ErrorKind::NotFound,
                format!("git clone {url} failed: {why}"),
            ));
        }
        used_network = true;
    }
    if !has_commit(&mirror)? {
        if offline {
            return Err(CliError::new(
                ErrorKind::NotFound,
                format!(
                    "commit {commit} is not in the cached clone of {url}, and --offline forbids fetching"
                ),
            ));
        }
        git(&[
            "-C".as_ref(),
            mirror.as_os_str(),
            "fetch".as_ref(),
            "--quiet".as_ref(),
            "origin".as_ref(),
        ])?;
        used_network = true;
        if !has_commit(&mirror)? {
            return Err(CliError::new(
                ErrorKind::NotFound,
                format!("{url} has no commit {commit}"),
            ));
        }
    }
    let failed = match git(&[
        "clone".as_ref(),
        "--quiet".as_ref(),
        "--no-checkout".as_ref(),
        mirror.as_os_str(),
        dest.as_os_str(),
    ])? {
        Some(why) => Some(why),
        None => git(&[
            "-C".as_ref(),
            dest.as_os_str(),
            "-c".as_ref(),
            "advice.detachedHead=false".as_ref(),
            "checkout".as_ref(),
            "--quiet".as_ref(),
            commit.as_ref(),
        ])?,
    };
    if let Some(why) = failed {
        return Err(CliError::new(
            ErrorKind::Io,
            format!("cannot check out {commit} of {url}: {why}"),
        ));
    }
    Ok(used_network)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_that_leave_are_caught() {
        assert!(escapes(Path::new(""), Path::new("../x")));
        assert!(escapes(Path::new("a"), Path::new("../../x")));
        assert!(escapes(Path::new("a"), Path::new("/etc/passwd")));
        assert!(!escapes(Path::new("a"), Path::new("../b")));
        assert!(!escapes(Path::new("a/b"), Path::new("./c/../d")));
        assert!(safe_rel(Path::new("a/../../b")).is_err());
        assert!(safe_rel(Path::new("/abs")).is_err());
        assert_eq!(safe_rel(Path::new("./a/b")).unwrap(), PathBuf::from("a/b"));
    }
}
