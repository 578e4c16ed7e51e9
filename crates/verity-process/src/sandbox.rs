//! The sandbox for code verity executes but did not write: no network, a read-only view of the
//! system and of given directories, one writable scratch directory, CPU-time, address-space,
//! process-count and file-size limits (`prlimit(1)`), in fresh namespaces.
//!
//! Two backends, tried in this order (each probed once per process, the result cached):
//!
//! * **bubblewrap** (`bwrap --unshare-all --die-with-parent --new-session`, no `--share-net`):
//!   an empty root with `--ro-bind`s of the system directories and of the given directories, the
//!   scratch directory `--bind` writable, `--tmpfs /tmp`, `--proc /proc`, `--dev /dev`, the root
//!   remounted read-only;
//! * **unshare** (`unshare --user --map-root-user --net --mount --pid --fork --kill-child`): a
//!   small `sh` prologue inside the new namespaces builds the same view on a tmpfs with `mount
//!   --bind` and `mount -o remount,ro,bind`, then `chroot`s into it.
//!
//! Both end in `prlimit --cpu= --as= --nproc= --fsize= -- PROGRAM ARGS…`. When verity runs as
//! root the kernel does not apply `RLIMIT_NPROC` to root's processes, so the sandboxed program
//! is also switched to an unprivileged user id of its own (`setpriv --reuid`, no capabilities,
//! no supplementary groups; the scratch directory is given to that id): files it may read must
//! then be readable by others, as a checked-out repository normally is.
//!
//! If neither backend works here (no user namespaces, neither tool installed), a sandboxed
//! [`Spec`](crate::Spec) does not run: [`ProcessError::SandboxUnavailable`](crate::ProcessError)
//! names what is missing. Nothing ever runs unsandboxed in its place.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// The system directories every sandbox sees read-only (those that exist), at the same paths.
const SYSTEM_DIRS: [&str; 8] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
];

/// The device nodes the unshare backend binds into its `/dev` (bubblewrap's `--dev` has them).
const DEVICES: [&str; 6] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
];

/// How long a backend probe may take.
const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// Which sandbox implementation ran a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// `bwrap` (bubblewrap).
    Bubblewrap,
    /// `unshare` + `mount` + `chroot` (util-linux).
    Unshare,
}

impl Backend {
    /// `bubblewrap` or `unshare`.
    pub fn as_str(self) -> &'static str {
        match self {
            Backend::Bubblewrap => "bubblewrap",
            Backend::Unshare => "unshare",
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which backends a sandbox may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BackendChoice {
    /// bubblewrap when it works here, else unshare.
    #[default]
    Auto,
    /// bubblewrap only.
    Bubblewrap,
    /// unshare only (what the tests use to exercise the fallback).
    Unshare,
}

/// The resource limits of a sandboxed program, applied with `prlimit(1)` (soft = hard).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SandboxLimits {
    /// CPU time in seconds (`RLIMIT_CPU`; at least 1). At the limit the kernel sends `SIGXCPU`,
    /// then `SIGKILL`.
    pub cpu_seconds: Option<u64>,
    /// Address space in MiB (`RLIMIT_AS`): allocations beyond it fail.
    pub memory_mb: Option<u64>,
    /// Processes (and threads) of the sandbox's user (`RLIMIT_NPROC`): `fork` beyond it fails
    /// with `EAGAIN`.
    pub processes: Option<u64>,
    /// The largest file it may write, in MiB (`RLIMIT_FSIZE`): a write beyond it fails
    /// (`SIGXFSZ` / `EFBIG`).
    pub file_size_mb: Option<u64>,
}

impl Default for SandboxLimits {
    /// 10 s of CPU, 1 GiB of address space, 64 processes, files up to 64 MiB.
    fn default() -> Self {
        SandboxLimits {
            cpu_seconds: Some(10),
            memory_mb: Some(1024),
            processes: Some(64),
            file_size_mb: Some(64),
        }
    }
}

/// One directory the sandbox sees.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Mount {
    host: PathBuf,
    inside: PathBuf,
}

/// The sandbox policy of a [`Spec`](crate::Spec) ([`Spec::sandbox`](crate::Spec::sandbox)).
///
/// The program sees the system directories (`/usr`, `/bin`, `/sbin`, `/lib*`, `/etc`)
/// read-only, the directory its executable is installed in (the parent of its `bin`
/// directory) read-only, the directories given with [`Sandbox::read_only`], a private `/tmp`,
/// `/proc`, a minimal `/dev`, and the scratch directory, the only host directory it may write.
/// Nothing else of the host exists for it; it has no network (not even the host's loopback).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sandbox {
    scratch: PathBuf,
    read_only: Vec<Mount>,
    limits: SandboxLimits,
    backend: BackendChoice,
}

impl Sandbox {
    /// A sandbox whose one writable directory is `scratch` (an existing directory, seen at the
    /// same path), with the [default limits](SandboxLimits::default).
    pub fn new(scratch: impl AsRef<Path>) -> Sandbox {
        Sandbox {
            scratch: scratch.as_ref().to_owned(),
            read_only: Vec::new(),
            limits: SandboxLimits::default(),
            backend: BackendChoice::Auto,
        }
    }

    /// Adds a read-only view of `dir` at the same path.
    pub fn read_only(self, dir: impl AsRef<Path>) -> Sandbox {
        let dir = dir.as_ref().to_owned();
        self.read_only_at(dir.clone(), dir)
    }

    /// Adds a read-only view of the host directory `host`, seen at `inside`.
    pub fn read_only_at(mut self, host: impl AsRef<Path>, inside: impl AsRef<Path>) -> Sandbox {
        self.read_only.push(Mount {
            host: host.as_ref().to_owned(),
            inside: inside.as_ref().to_owned(),
        });
        self
    }

    pub fn limits(mut self, limits: SandboxLimits) -> Sandbox {
        self.limits = limits;
        self
    }

    /// Which backend to use ([`BackendChoice::Unshare`] forces the fallback).
    pub fn backend(mut self, backend: BackendChoice) -> Sandbox {
        self.backend = backend;
        self
    }

    pub fn scratch(&self) -> &Path {
        &self.scratch
    }

    pub fn sandbox_limits(&self) -> SandboxLimits {
        self.limits
    }

    /// The backend this sandbox would run with here, or what is missing.
    pub fn resolve_backend(&self) -> Result<Backend, String> {
        let candidates: &[Backend] = match self.backend {
            BackendChoice::Auto => &[Backend::Bubblewrap, Backend::Unshare],
            BackendChoice::Bubblewrap => &[Backend::Bubblewrap],
            BackendChoice::Unshare => &[Backend::Unshare],
        };
        let mut missing = Vec::new();
        for &backend in candidates {
            match probe(backend) {
                Ok(_) => return Ok(backend),
                Err(why) => missing.push(why.clone()),
            }
        }
        Err(missing.join("; "))
    }

    /// The command line running `program args` in this sandbox with `backend`, its current
    /// directory `cwd` (a path inside the sandbox; the scratch directory when `None`).
    pub(crate) fn wrap(
        &self,
        backend: Backend,
        program: &Path,
        args: &[OsString],
        cwd: Option<&Path>,
        extra: ExtraLimits,
    ) -> Result<(OsString, Vec<OsString>), String> {
        let tools = probe(backend).as_ref().map_err(Clone::clone)?;
        let cwd = cwd.unwrap_or(&self.scratch).to_owned();
        let mut mounts: Vec<Mount> = Vec::new();
        if let Some(install) = install_dir(program)
            && !under_system(&install)
        {
            mounts.push(Mount {
                host: install.clone(),
                inside: install,
            });
        }
        mounts.extend(self.read_only.iter().cloned());
        let limits = SandboxLimits {
            cpu_seconds: min_opt(self.limits.cpu_seconds, extra.cpu_seconds),
            memory_mb: min_opt(self.limits.memory_mb, extra.memory_mb),
            ..self.limits
        };
        let args = build(
            backend,
            tools,
            &mounts,
            &self.scratch,
            &cwd,
            limits,
            program,
            args,
        )?;
        Ok((tools.program.clone().into(), args))
    }
}

/// The arguments of `tools.program` (bwrap or unshare) running `program args`.
#[allow(clippy::too_many_arguments)]
fn build(
    backend: Backend,
    tools: &Tools,
    mounts: &[Mount],
    scratch: &Path,
    cwd: &Path,
    limits: SandboxLimits,
    program: &Path,
    args: &[OsString],
) -> Result<Vec<OsString>, String> {
    // The program, as the sandbox runs it: unprivileged when verity is root, then limited.
    let mut tail: Vec<OsString> = Vec::new();
    if tools.root {
        let uid = next_uid();
        let setpriv = tools.setpriv.as_ref().ok_or("setpriv is missing")?;
        // Its one writable directory becomes its own (the directory only, not its content).
        std::os::unix::fs::chown(scratch, Some(uid), Some(uid))
            .map_err(|e| format!("cannot give {} to the sandbox: {e}", scratch.display()))?;
        tail.push(setpriv.into());
        tail.extend(
            [
                format!("--reuid={uid}"),
                format!("--regid={uid}"),
                "--clear-groups".into(),
                "--inh-caps=-all".into(),
                "--bounding-set=-all".into(),
                "--".into(),
            ]
            .map(OsString::from),
        );
    }
    tail.push(tools.prlimit.clone().into());
    if let Some(s) = limits.cpu_seconds {
        tail.push(format!("--cpu={}", s.max(1)).into());
    }
    if let Some(mb) = limits.memory_mb {
        tail.push(format!("--as={}", mb.saturating_mul(1024 * 1024)).into());
    }
    if let Some(n) = limits.processes {
        tail.push(format!("--nproc={}", n.max(1)).into());
    }
    if let Some(mb) = limits.file_size_mb {
        tail.push(format!("--fsize={}", mb.saturating_mul(1024 * 1024)).into());
    }
    tail.push("--".into());
    tail.push(program.into());
    tail.extend(args.iter().cloned());
    Ok(match backend {
        Backend::Bubblewrap => bwrap_args(tools, mounts, scratch, cwd, tail),
        Backend::Unshare => unshare_args(tools, &sandbox_root()?, mounts, scratch, cwd, tail),
    })
}

/// The `Spec`'s own limits ([`crate::Limits`]), merged into the sandbox's.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ExtraLimits {
    pub(crate) cpu_seconds: Option<u64>,
    pub(crate) memory_mb: Option<u64>,
}

fn min_opt(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// What a backend needs, found by its probe.
#[derive(Clone, Debug)]
struct Tools {
    /// `bwrap` or `unshare`, absolute.
    program: PathBuf,
    prlimit: PathBuf,
    setpriv: Option<PathBuf>,
    /// verity runs as root: the program switches to an unprivileged id of its own.
    root: bool,
}

fn bwrap_args(
    tools: &Tools,
    mounts: &[Mount],
    scratch: &Path,
    cwd: &Path,
    tail: Vec<OsString>,
) -> Vec<OsString> {
    let mut a: Vec<OsString> = Vec::new();
    let mut push = |items: &[&std::ffi::OsStr]| a.extend(items.iter().map(|s| s.to_os_string()));
    if tools.root {
        // Root needs no user namespace to build the view, and keeps the right to switch to
        // the unprivileged id (setpriv drops it, and every other capability).
        push(&[
            "--unshare-ipc".as_ref(),
            "--unshare-pid".as_ref(),
            "--unshare-net".as_ref(),
            "--unshare-uts".as_ref(),
            "--unshare-cgroup-try".as_ref(),
            "--cap-add".as_ref(),
            "CAP_SETUID,CAP_SETGID".as_ref(),
        ]);
    } else {
        push(&["--unshare-all".as_ref()]);
    }
    push(&["--die-with-parent".as_ref(), "--new-session".as_ref()]);
    for dir in SYSTEM_DIRS {
        let path = Path::new(dir);
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => {
                if let Ok(target) = std::fs::read_link(path) {
                    push(&["--symlink".as_ref(), target.as_os_str(), path.as_os_str()]);
                }
            }
            Ok(m) if m.is_dir() => {
                push(&["--ro-bind".as_ref(), path.as_os_str(), path.as_os_str()])
            }
            _ => {}
        }
    }
    push(&[
        "--proc".as_ref(),
        "/proc".as_ref(),
        "--dev".as_ref(),
        "/dev".as_ref(),
        "--tmpfs".as_ref(),
        "/tmp".as_ref(),
    ]);
    // Directories on the way to a mount, readable by all (bubblewrap makes them 0700).
    let mut made: Vec<PathBuf> = Vec::new();
    for dest in mounts.iter().map(|m| m.inside.as_path()).chain([scratch]) {
        let mut ancestors: Vec<&Path> = dest.ancestors().skip(1).collect();
        ancestors.reverse();
        for dir in ancestors {
            if dir == Path::new("/")
                || dir == Path::new("/tmp")
                || under_system(dir)
                || made.iter().any(|m| m == dir)
            {
                continue;
            }
            made.push(dir.to_owned());
            push(&["--dir".as_ref(), dir.as_os_str()]);
        }
    }
    for m in mounts {
        push(&[
            "--ro-bind".as_ref(),
            m.host.as_os_str(),
            m.inside.as_os_str(),
        ]);
    }
    push(&[
        "--bind".as_ref(),
        scratch.as_os_str(),
        scratch.as_os_str(),
        "--remount-ro".as_ref(),
        "/".as_ref(),
        "--chdir".as_ref(),
        cwd.as_os_str(),
        "--".as_ref(),
    ]);
    a.extend(tail);
    a
}

/// The unshare backend's prologue: `sh -c PROLOGUE sh ROOT CWD [KIND ARGS…]… -- PROGRAM…`.
/// Paths travel as arguments, never spliced into the script.
const PROLOGUE: &str = r#"set -eu
umask 022
user_path=${PATH-}
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
chroot_bin=$(command -v chroot)
root=$1; cwd=$2; shift 2
mount -t tmpfs -o mode=0755 verity-sandbox "$root"
while [ "$1" != -- ]; do
  case $1 in
    ro) mkdir -p "$root$3"; mount --bind "$2" "$root$3"; mount -o remount,ro,bind "$root$3"; shift 3 ;;
    rw) mkdir -p "$root$3"; mount --bind "$2" "$root$3"; shift 3 ;;
    link) ln -s "$2" "$root$3"; shift 3 ;;
    dev) touch "$root$2"; mount --bind "$2" "$root$2"; shift 2 ;;
    tmp) mkdir -p "$root$2"; mount -t tmpfs -o "mode=$3" verity-tmp "$root$2"; shift 3 ;;
    proc) mkdir -p "$root$2"; mount -t proc proc "$root$2" 2>/dev/null || true; shift 2 ;;
    *) echo "verity sandbox: bad prologue argument $1" >&2; exit 125 ;;
  esac
done
shift
ln -s /proc/self/fd "$root/dev/fd"
ln -s /proc/self/fd/0 "$root/dev/stdin"
ln -s /proc/self/fd/1 "$root/dev/stdout"
ln -s /proc/self/fd/2 "$root/dev/stderr"
mount -o remount,ro,bind "$root"
exec 3<&0
PATH=$user_path "$chroot_bin" "$root" /bin/sh -c 'cd -- "$0" && exec "$@"' "$cwd" "$@" <&3 3<&- &
wait $!
"#;

fn unshare_args(
    tools: &Tools,
    root: &Path,
    mounts: &[Mount],
    scratch: &Path,
    cwd: &Path,
    tail: Vec<OsString>,
) -> Vec<OsString> {
    let mut a: Vec<OsString> = Vec::new();
    if !tools.root {
        a.extend(["--user", "--map-root-user"].map(OsString::from));
    }
    a.extend(
        [
            "--net",
            "--mount",
            "--pid",
            "--ipc",
            "--uts",
            "--fork",
            "--kill-child",
            "--propagation",
            "private",
            "/bin/sh",
            "-c",
            PROLOGUE,
            "sh",
        ]
        .map(OsString::from),
    );
    a.push(root.into());
    a.push(cwd.into());
    let mut push = |items: &[&std::ffi::OsStr]| a.extend(items.iter().map(|s| s.to_os_string()));
    for dir in SYSTEM_DIRS {
        let path = Path::new(dir);
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => {
                if let Ok(target) = std::fs::read_link(path) {
                    push(&["link".as_ref(), target.as_os_str(), path.as_os_str()]);
                }
            }
            Ok(m) if m.is_dir() => push(&["ro".as_ref(), path.as_os_str(), path.as_os_str()]),
            _ => {}
        }
    }
    push(&["proc".as_ref(), "/proc".as_ref()]);
    push(&["tmp".as_ref(), "/dev".as_ref(), "0755".as_ref()]);
    for dev in DEVICES {
        if Path::new(dev).exists() {
            push(&["dev".as_ref(), dev.as_ref()]);
        }
    }
    push(&["tmp".as_ref(), "/tmp".as_ref(), "1777".as_ref()]);
    for m in mounts {
        push(&["ro".as_ref(), m.host.as_os_str(), m.inside.as_os_str()]);
    }
    push(&[
        "rw".as_ref(),
        scratch.as_os_str(),
        scratch.as_os_str(),
        "--".as_ref(),
    ]);
    a.extend(tail);
    a
}

/// An empty directory the unshare backend mounts its root on (inside its own mount namespace,
/// so every sandbox can share it).
fn sandbox_root() -> Result<PathBuf, String> {
    let uid = rustix::process::geteuid().as_raw();
    let dir = std::env::temp_dir().join(format!("verity-sandbox-root-{uid}"));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Ok(dir)
}

/// The directory a program is installed in: the parent of its `bin` directory, or its own
/// directory.
fn install_dir(program: &Path) -> Option<PathBuf> {
    let real = std::fs::canonicalize(program).ok()?;
    let dir = real.parent()?;
    if dir.file_name().is_some_and(|n| n == "bin") {
        dir.parent().map(Path::to_owned)
    } else {
        Some(dir.to_owned())
    }
}

fn under_system(path: &Path) -> bool {
    SYSTEM_DIRS.iter().any(|d| path.starts_with(d))
}

/// `name` on `path` (a `PATH` value), absolute.
pub(crate) fn find_program(
    name: &std::ffi::OsStr,
    path: Option<&std::ffi::OsStr>,
) -> Option<PathBuf> {
    let candidate = Path::new(name);
    if candidate.components().count() > 1 || candidate.is_absolute() {
        return Some(candidate.to_owned());
    }
    let path = path
        .map(OsString::from)
        .or_else(|| std::env::var_os("PATH"))?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(candidate))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The id root's sandboxed programs run as: one per sandbox, so that the process limit counts
/// only that sandbox's processes. From a range no account uses.
fn next_uid() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed) % 4096;
    2_000_000_000 + (std::process::id() % 100_000) * 4096 + n
}

fn probe(backend: Backend) -> &'static Result<Tools, String> {
    static BWRAP: OnceLock<Result<Tools, String>> = OnceLock::new();
    static UNSHARE: OnceLock<Result<Tools, String>> = OnceLock::new();
    let cell = match backend {
        Backend::Bubblewrap => &BWRAP,
        Backend::Unshare => &UNSHARE,
    };
    cell.get_or_init(|| probe_now(backend))
}

/// Finds the tools of `backend` and runs `true` in such a sandbox.
fn probe_now(backend: Backend) -> Result<Tools, String> {
    let name = match backend {
        Backend::Bubblewrap => "bwrap",
        Backend::Unshare => "unshare",
    };
    // On verity's own PATH (plus the sbin directories a user's PATH may lack).
    let search = std::env::var_os("PATH").map(|path| {
        let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
        for sbin in ["/usr/sbin", "/sbin"] {
            if dirs
                .iter()
                .any(|d| d == Path::new("/usr/bin") || d == Path::new("/bin"))
            {
                dirs.push(PathBuf::from(sbin));
            }
        }
        std::env::join_paths(dirs).unwrap_or(path)
    });
    let find =
        |tool: &str| find_program(tool.as_ref(), Some(search.as_deref().unwrap_or_default()));
    let program = find(name).ok_or_else(|| format!("{name} is not installed"))?;
    let prlimit = find("prlimit").ok_or("prlimit (util-linux) is not installed")?;
    let root = rustix::process::geteuid().is_root();
    let setpriv = find("setpriv");
    if root && setpriv.is_none() {
        return Err("setpriv (util-linux) is not installed, and verity runs as root".into());
    }
    let tools = Tools {
        program,
        prlimit,
        setpriv,
        root,
    };
    let truth = find("true").ok_or("true is not installed")?;
    let scratch = tempfile_dir().map_err(|e| format!("cannot create a probe directory: {e}"))?;
    let result = (|| {
        let line = build(
            backend,
            &tools,
            &[],
            &scratch,
            &scratch,
            SandboxLimits::default(),
            &truth,
            &[],
        )?;
        let out = crate::Spec::new(&tools.program)
            .args(line)
            .stderr(crate::Capture::Tail(2048))
            .timeout(PROBE_TIMEOUT)
            .run()
            .map_err(|e| format!("{name} cannot start: {e}"))?;
        if out.exit.success() {
            Ok(())
        } else {
            let tail = out.stderr_tail();
            Err(format!(
                "{name} does not work here ({}{})",
                out.exit,
                if tail.is_empty() {
                    String::new()
                } else {
                    format!(": {tail}")
                }
            ))
        }
    })();
    let _ = std::fs::remove_dir_all(&scratch);
    result.map(|()| tools)
}

/// A fresh private directory under the temporary directory.
fn tempfile_dir() -> std::io::Result<PathBuf> {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "verity-sandbox-probe-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir(&dir)?;
    Ok(dir)
}
