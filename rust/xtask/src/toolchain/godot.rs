//! Finding (or fetching) the Godot 4 that the tests and the demo run in. Running it is `godot_run.rs`.
//!
//! Order: `$GODOT`; else `godot4` or `godot` on PATH when its `--version` is 4.3 or newer; else, on a
//! Debian-family system, Debian `sid`'s `godot` package with its whole dependency closure, unpacked into a
//! private sysroot under `target/` and run through that sysroot's own loader. Nothing is installed into the
//! system: sid's Godot needs a newer C library than Debian 12 has.

use crate::process::{Result, repo_root};
use crate::toolchain::debian::PrivateApt;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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
        let sysroot = sysroot();
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

    /// Debian sid's arm64 Godot, fetched into `target/godot-sysroot-arm64` on first use and run under
    /// `qemu-aarch64` through that sysroot's own loader, so the arm64 library can be tested from an x86_64 machine.
    pub fn arm64_under_qemu() -> Result<Self> {
        crate::toolchain::debian::ensure_host_programs("running arm64 Godot", &[("qemu-aarch64", "qemu-user")])?;
        let sysroot = repo_root().join("target/godot-sysroot-arm64");
        if !sysroot.join("usr/bin/godot").exists() {
            println!("xtask: fetching Debian sid's arm64 `godot` into {} (about 130 MB once)", sysroot.display());
            let apt = sid_apt("arm64")?;
            apt.update(true)?;
            apt.fetch_closure(&["godot"], &sysroot)?;
        }
        let lib = sysroot.join("usr/lib/aarch64-linux-gnu");
        let godot = Godot {
            program: PathBuf::from("qemu-aarch64"),
            prefix_args: vec![
                lib.join("ld-linux-aarch64.so.1").display().to_string(),
                "--library-path".into(),
                format!("{}:{}", lib.display(), lib.join("pulseaudio").display()),
                sysroot.join("usr/bin/godot").display().to_string(),
            ],
        };
        let version = godot
            .version()
            .ok_or_else(|| format!("the arm64 Godot in {} does not start under qemu-aarch64", sysroot.display()))?;
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

/// Where the fetched Godot lives.
fn sysroot() -> PathBuf {
    repo_root().join("target/godot-sysroot")
}

/// sid's archive for one architecture, configured under `target/godot-apt` (amd64) or `target/godot-apt-<arch>`.
pub fn sid_apt(arch: &'static str) -> Result<PrivateApt> {
    let dir = if arch == "amd64" { "target/godot-apt".to_string() } else { format!("target/godot-apt-{arch}") };
    PrivateApt::new(repo_root().join(dir), &["sid"], arch)
}

fn fetch_debian_godot(sysroot: &Path) -> Result {
    let no_godot =
        "no Godot 4.3+ found. Install Godot 4.3 or newer and put `godot` on PATH, or set GODOT=/path/to/godot";
    let apt = sid_apt("amd64").map_err(|e| format!("{no_godot} ({e})"))?;
    println!("xtask: no Godot 4.3+ found; fetching Debian sid's `godot` into {}", sysroot.display());
    println!("xtask: (about 150 MB once; it is reused afterwards. Set GODOT to use your own Godot instead.)");
    apt.update(true)?;
    apt.fetch_closure(&["godot"], sysroot)
}

/// Adds Debian sid packages (just these, not their dependencies) to the private sysroot that holds the fetched
/// Godot, e.g. the GL client libraries a windowed run needs. Packages already added are skipped (they are listed
/// in `target/godot-sysroot/.extra-packages`). Returns the sysroot's library folder.
pub fn ensure_sysroot_packages(packages: &[&str]) -> Result<PathBuf> {
    let sysroot = sysroot();
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
    println!("xtask: adding sid packages to {}: {}", sysroot.display(), missing.join(" "));
    let apt = sid_apt("amd64")?;
    apt.update(false)?;
    apt.add_packages(&missing, &sysroot)?;
    let mut listed = have;
    for p in missing {
        listed.push_str(p);
        listed.push('\n');
    }
    fs::write(&marker, listed).map_err(|e| format!("cannot write {}: {e}", marker.display()))?;
    Ok(lib)
}
