//! Finding (or fetching) the Godot 4 that the tests and the demo run in, and running it with a timeout.
//!
//! Order: `$GODOT`; else `godot4` or `godot` on PATH when its `--version` is 4.3 or newer; else, on a
//! Debian-family system, Debian `sid`'s `godot` package with its whole dependency closure, unpacked into a
//! private sysroot under `target/` and run through that sysroot's own loader. Nothing is installed into the
//! system: sid's Godot needs a newer C library than Debian 12 has.

use crate::{Result, repo_root};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A runnable Godot 4: a program, plus the loader arguments it needs when it lives in a private sysroot.
pub struct Godot {
    program: PathBuf,
    prefix_args: Vec<String>,
}

const MIN_VERSION: (u32, u32) = (4, 3);

impl Godot {
    /// Finds a usable Godot 4.3+, fetching Debian's into `target/godot-sysroot` if nothing else is there.
    pub fn locate_or_fetch() -> Result<Self> {
        if let Some(path) = std::env::var_os("GODOT") {
            let godot = Godot { program: PathBuf::from(path), prefix_args: Vec::new() };
            let version = godot.version().ok_or("$GODOT is set but `$GODOT --version` did not run")?;
            check_version(&version).map_err(|e| format!("$GODOT: {e}"))?;
            return Ok(godot);
        }
        for name in ["godot4", "godot"] {
            let godot = Godot { program: PathBuf::from(name), prefix_args: Vec::new() };
            if let Some(version) = godot.version() {
                if check_version(&version).is_ok() {
                    return Ok(godot);
                }
                eprintln!("xtask: ignoring `{name}` on PATH: version {version} is older than 4.3");
            }
        }
        let sysroot = repo_root().join("target/godot-sysroot");
        if !sysroot.join("usr/bin/godot").exists() {
            fetch_debian_godot(&sysroot)?;
        }
        let godot = Godot::in_sysroot(&sysroot);
        let version = godot.version().ok_or_else(|| {
            format!("the Godot in {} does not start; delete that folder to fetch it again", sysroot.display())
        })?;
        check_version(&version)?;
        Ok(godot)
    }

    fn in_sysroot(sysroot: &Path) -> Self {
        let lib = sysroot.join("usr/lib/x86_64-linux-gnu");
        let library_path = format!("{}:{}", lib.display(), lib.join("pulseaudio").display());
        Godot {
            program: lib.join("ld-linux-x86-64.so.2"),
            prefix_args: vec![
                "--library-path".into(),
                library_path,
                sysroot.join("usr/bin/godot").display().to_string(),
            ],
        }
    }

    /// `true` for the Godot fetched into `target/godot-sysroot` (see [`ensure_sysroot_packages`]).
    pub fn in_private_sysroot(&self) -> bool {
        !self.prefix_args.is_empty()
    }

    /// A command that runs this Godot; append Godot's own arguments.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.args(&self.prefix_args);
        cmd
    }

    /// `godot --version`'s first line, or `None` when it does not run.
    pub fn version(&self) -> Option<String> {
        let out = self.command().args(["--headless", "--version"]).stderr(Stdio::null()).output().ok()?;
        if !out.status.success() {
            return None;
        }
        let text = String::from_utf8_lossy(&out.stdout);
        text.lines().map(str::trim).rfind(|l| l.starts_with(|c: char| c.is_ascii_digit())).map(str::to_string)
    }
}

fn check_version(version: &str) -> Result {
    let mut parts = version.split(|c: char| !c.is_ascii_digit()).filter_map(|p| p.parse::<u32>().ok());
    let found = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    if found >= MIN_VERSION { Ok(()) } else { Err(format!("Godot {version} is too old: Reach2D needs 4.3 or newer")) }
}

/// The Debian archive URI this machine's apt already uses (so no host name is written into the repository).
fn debian_archive_uri() -> Option<String> {
    let mut texts = vec![fs::read_to_string("/etc/apt/sources.list").unwrap_or_default()];
    if let Ok(dir) = fs::read_dir("/etc/apt/sources.list.d") {
        for entry in dir.flatten() {
            let path = entry.path();
            if matches!(path.extension().and_then(|e| e.to_str()), Some("list" | "sources")) {
                texts.push(fs::read_to_string(path).unwrap_or_default());
            }
        }
    }
    let candidates = texts.iter().flat_map(|t| t.lines()).filter_map(|line| {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("URIs:") {
            return rest.split_whitespace().next();
        }
        let rest = line.strip_prefix("deb ")?;
        rest.split_whitespace().find(|w| w.contains("://"))
    });
    // The main archive, not the security one.
    candidates.filter(|uri| uri.ends_with("/debian") || uri.ends_with("/debian/")).map(str::to_string).next()
}

fn fetch_debian_godot(sysroot: &Path) -> Result {
    let no_godot =
        "no Godot 4.3+ found. Install Godot 4.3 or newer and put `godot` on PATH, or set GODOT=/path/to/godot";
    if !Path::new("/etc/debian_version").exists() || Command::new("apt-get").arg("--version").output().is_err() {
        return Err(no_godot.into());
    }
    let uri =
        debian_archive_uri().ok_or_else(|| format!("{no_godot} (no Debian archive found in /etc/apt to fetch one)"))?;
    println!("xtask: no Godot 4.3+ found; fetching Debian sid's `godot` into {}", sysroot.display());
    println!("xtask: (about 150 MB once; it is reused afterwards. Set GODOT to use your own Godot instead.)");

    let apt = repo_root().join("target/godot-apt");
    let apt_get = || sid_apt_get(&apt);
    prepare_sid_apt(&apt, &uri)?;
    println!("xtask: reading sid's package lists");
    crate::run(apt_get().args(["-qq", "update"]))?;
    println!("xtask: downloading godot and its dependencies");
    crate::run(apt_get().args(["-qq", "install", "--download-only", "--no-install-recommends", "-y", "godot"]))?;

    let archives = apt.join("cache/archives");
    let mut debs: Vec<PathBuf> = fs::read_dir(&archives)
        .map_err(|e| format!("cannot read {}: {e}", archives.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "deb"))
        .collect();
    debs.sort();
    let staging = sysroot.with_extension("partial");
    let _ = fs::remove_dir_all(&staging);
    fs::create_dir_all(&staging).map_err(|e| format!("cannot create {}: {e}", staging.display()))?;
    for (i, deb) in debs.iter().enumerate() {
        if i % 30 == 0 {
            println!("xtask: unpacking packages {}..{} of {}", i + 1, (i + 30).min(debs.len()), debs.len());
        }
        crate::run(Command::new("dpkg").arg("-x").arg(deb).arg(&staging))?;
    }
    let _ = fs::remove_dir_all(sysroot);
    fs::rename(&staging, sysroot).map_err(|e| format!("cannot move the sysroot into place: {e}"))?;
    // The downloaded archives are no longer needed.
    let _ = fs::remove_dir_all(&archives);
    Ok(())
}

/// Writes the private apt configuration under `apt` (`target/godot-apt`): sid's archive at `uri`, and an empty
/// dpkg status so that apt resolves whole dependency closures instead of trusting the host's packages.
fn prepare_sid_apt(apt: &Path, uri: &str) -> Result {
    for dir in ["lists/partial", "cache/archives/partial", "parts"] {
        fs::create_dir_all(apt.join(dir)).map_err(|e| format!("cannot create {}: {e}", apt.display()))?;
    }
    let keyring = "/usr/share/keyrings/debian-archive-keyring.gpg";
    let signed = if Path::new(keyring).exists() { format!("[signed-by={keyring}] ") } else { String::new() };
    let write =
        |path: &Path, text: &str| fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()));
    write(&apt.join("sources.list"), &format!("deb {signed}{uri} sid main\n"))?;
    write(&apt.join("status"), "")
}

/// An `apt-get` that works only inside the private configuration written by [`prepare_sid_apt`].
fn sid_apt_get(apt: &Path) -> Command {
    let d = |key: &str, value: &Path| format!("-o{key}={}", value.display());
    let mut cmd = Command::new("apt-get");
    cmd.args([
        d("Dir::Etc::sourcelist", &apt.join("sources.list")),
        d("Dir::Etc::sourceparts", &apt.join("parts")),
        d("Dir::Etc::preferencesparts", &apt.join("parts")),
        "-oDir::Etc::preferences=/dev/null".into(),
        d("Dir::State::Lists", &apt.join("lists")),
        d("Dir::State::status", &apt.join("status")),
        d("Dir::Cache", &apt.join("cache")),
        "-oDebug::NoLocking=1".into(),
        "-oAPT::Architecture=amd64".into(),
        "-oAcquire::Languages=none".into(),
    ]);
    cmd
}

/// Adds Debian sid packages (just these, not their dependencies) to the private sysroot that holds the fetched
/// Godot, e.g. the GL client libraries a windowed run needs. Packages already added are skipped (they are listed
/// in `target/godot-sysroot/.extra-packages`). Returns the sysroot's library folder.
pub fn ensure_sysroot_packages(packages: &[&str]) -> Result<PathBuf> {
    let sysroot = repo_root().join("target/godot-sysroot");
    let lib = sysroot.join("usr/lib/x86_64-linux-gnu");
    if !sysroot.join("usr/bin/godot").exists() {
        return Err(format!("no Godot sysroot at {}", sysroot.display()));
    }
    let marker = sysroot.join(".extra-packages");
    let have = fs::read_to_string(&marker).unwrap_or_default();
    let missing: Vec<&str> = packages.iter().copied().filter(|p| !have.lines().any(|l| l == *p)).collect();
    if missing.is_empty() {
        return Ok(lib);
    }
    let uri = debian_archive_uri().ok_or("no Debian archive found in /etc/apt to fetch packages from")?;
    let apt = repo_root().join("target/godot-apt");
    prepare_sid_apt(&apt, &uri)?;
    println!("xtask: adding sid packages to {}: {}", sysroot.display(), missing.join(" "));
    if !apt.join("lists").read_dir().map(|mut d| d.any(|e| e.is_ok_and(|e| e.path().is_file()))).unwrap_or(false) {
        crate::run(sid_apt_get(&apt).args(["-qq", "update"]))?;
    }
    let download = apt.join("cache/extra");
    let _ = fs::remove_dir_all(&download);
    fs::create_dir_all(&download).map_err(|e| format!("cannot create {}: {e}", download.display()))?;
    // `apt-get download` fetches exactly the named packages into the current folder.
    let mut cmd = sid_apt_get(&apt);
    cmd.current_dir(&download).args(["-qq", "download"]).args(&missing);
    if crate::run(&mut cmd).is_err() {
        // The package lists may be stale (sid moves fast): refresh them once and retry.
        crate::run(sid_apt_get(&apt).args(["-qq", "update"]))?;
        crate::run(&mut cmd)?;
    }
    let debs = fs::read_dir(&download).map_err(|e| format!("cannot read {}: {e}", download.display()))?;
    for deb in debs.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "deb")) {
        crate::run(Command::new("dpkg").arg("-x").arg(&deb).arg(&sysroot))?;
    }
    let _ = fs::remove_dir_all(&download);
    let mut listed = have;
    for p in missing {
        listed.push_str(p);
        listed.push('\n');
    }
    fs::write(&marker, listed).map_err(|e| format!("cannot write {}: {e}", marker.display()))?;
    Ok(lib)
}

/// What a Godot run printed and how it ended.
pub struct Run {
    /// stdout and stderr, interleaved as written.
    pub output: String,
    /// Exited with status 0 before the timeout.
    pub success: bool,
    /// Killed at the timeout.
    pub timed_out: bool,
}

/// Runs `cmd` with its output in `log`, killing it after `timeout`.
pub fn run_logged(cmd: &mut Command, log: &Path, timeout: Duration) -> Result<Run> {
    if let Some(dir) = log.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let file = fs::File::create(log).map_err(|e| format!("cannot write {}: {e}", log.display()))?;
    let file2 = file.try_clone().map_err(|e| e.to_string())?;
    let mut child =
        cmd.stdin(Stdio::null()).stdout(file).stderr(file2).spawn().map_err(|e| format!("cannot start Godot: {e}"))?;
    let start = Instant::now();
    let (success, timed_out) = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break (status.success(), false);
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            break (false, true);
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = String::from_utf8_lossy(&fs::read(log).unwrap_or_default()).into_owned();
    Ok(Run { output, success, timed_out })
}

/// The first line of a Godot log that shows a script error or a failed extension load, if any.
pub fn log_problem(output: &str) -> Option<&str> {
    const PROBLEMS: [&str; 6] = [
        "SCRIPT ERROR",
        "Error loading extension",
        "Can't open dynamic library",
        "[panic ",
        "panicked at",
        "Parse Error",
    ];
    output.lines().find(|line| PROBLEMS.iter().any(|p| line.contains(p)))
}
