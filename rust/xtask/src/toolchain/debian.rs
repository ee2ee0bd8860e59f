//! Getting packages from Debian's archive without changing the host, plus installing the few host tools the cross
//! builds need.
//!
//! [`PrivateApt`] is an `apt-get` confined to a folder under `target/`: its own sources list (any suite, any
//! architecture), package lists, cache and an empty dpkg status, so apt resolves whole dependency closures and
//! never trusts, or touches, the host's packages. What it downloads is unpacked with `dpkg -x` into a folder of
//! ours. That is how Godot (sid), the standard library's source (trixie-backports or newer) and the arm64 Godot
//! sysroot arrive. The archive's address is read from the host's own apt configuration, so no host name is
//! written into the repository.

use crate::process::Result;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Debian archive URI this machine's apt already uses, or `None` off Debian.
pub fn archive_uri() -> Option<String> {
    if !Path::new("/etc/debian_version").exists() || Command::new("apt-get").arg("--version").output().is_err() {
        return None;
    }
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

/// An `apt-get` confined to `dir`, reading `suites` of the archive for one Debian `arch` (`amd64`, `arm64`).
pub struct PrivateApt {
    dir: PathBuf,
    arch: &'static str,
}

impl PrivateApt {
    /// Writes the private configuration (idempotent). Fails with a clear message off Debian.
    pub fn new(dir: PathBuf, suites: &[&str], arch: &'static str) -> Result<Self> {
        let uri = archive_uri().ok_or(
            "this needs Debian's archive, reached through apt-get on a Debian-family system; none was found in /etc/apt",
        )?;
        for sub in ["lists/partial", "cache/archives/partial", "parts"] {
            fs::create_dir_all(dir.join(sub)).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let keyring = "/usr/share/keyrings/debian-archive-keyring.gpg";
        let signed = if Path::new(keyring).exists() { format!("[signed-by={keyring}] ") } else { String::new() };
        let sources: String = suites.iter().map(|suite| format!("deb {signed}{uri} {suite} main\n")).collect();
        let write = |path: PathBuf, text: &str| {
            fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
        };
        write(dir.join("sources.list"), &sources)?;
        write(dir.join("status"), "")?;
        Ok(PrivateApt { dir, arch })
    }

    /// An `apt-get` (or `apt-cache`) command that works only inside this configuration.
    pub fn command(&self, program: &str) -> Command {
        let d = |key: &str, value: &Path| format!("-o{key}={}", value.display());
        let dir = &self.dir;
        let mut cmd = Command::new(program);
        cmd.args([
            d("Dir::Etc::sourcelist", &dir.join("sources.list")),
            d("Dir::Etc::sourceparts", &dir.join("parts")),
            d("Dir::Etc::preferencesparts", &dir.join("parts")),
            "-oDir::Etc::preferences=/dev/null".into(),
            d("Dir::State::Lists", &dir.join("lists")),
            d("Dir::State::status", &dir.join("status")),
            d("Dir::Cache", &dir.join("cache")),
            "-oDebug::NoLocking=1".into(),
            format!("-oAPT::Architecture={}", self.arch),
            "-oAcquire::Languages=none".into(),
            // Downloads land in our own folder, which apt's unprivileged `_apt` user may not be able to enter.
            "-oAPT::Sandbox::User=root".into(),
        ]);
        cmd
    }

    /// Reads the suites' package lists (once; `refresh` forces it, e.g. after sid moved on).
    pub fn update(&self, refresh: bool) -> Result {
        let have_lists =
            self.dir.join("lists").read_dir().is_ok_and(|mut d| d.any(|e| e.is_ok_and(|e| e.path().is_file())));
        if refresh || !have_lists {
            crate::process::run(self.command("apt-get").args(["-qq", "update"]))?;
        }
        Ok(())
    }

    /// The versions of `package` the suites carry, newest first.
    pub fn versions(&self, package: &str) -> Result<Vec<String>> {
        let out = self
            .command("apt-cache")
            .args(["madison", package])
            .output()
            .map_err(|e| format!("cannot run apt-cache: {e}"))?;
        // Lines look like ` rust-src | 1.95.0+dfsg1-2~bpo13+1 | <archive> trixie-backports/main amd64 Packages`.
        Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|line| line.split('|').nth(1).map(|v| v.trim().to_string()))
            .collect())
    }

    /// Downloads `packages` (`name` or `name=version`) with their whole dependency closure and unpacks them all
    /// into `root`, replacing it (built in a sibling folder and moved into place, so an interrupted run leaves
    /// nothing half made).
    pub fn fetch_closure(&self, packages: &[&str], root: &Path) -> Result {
        let archives = self.dir.join("cache/archives");
        let _ = fs::remove_dir_all(&archives);
        fs::create_dir_all(archives.join("partial"))
            .map_err(|e| format!("cannot create {}: {e}", archives.display()))?;
        crate::process::run(
            self.command("apt-get")
                .args(["-qq", "install", "--download-only", "--no-install-recommends", "-y"])
                .args(packages),
        )?;
        let debs = debs_in(&archives)?;
        unpack_into(&debs, root)?;
        let _ = fs::remove_dir_all(&archives);
        Ok(())
    }

    /// Downloads exactly `packages` (no dependencies) and unpacks them into the existing folder `root`.
    pub fn add_packages(&self, packages: &[&str], root: &Path) -> Result {
        let download = self.dir.join("cache/extra");
        let _ = fs::remove_dir_all(&download);
        fs::create_dir_all(&download).map_err(|e| format!("cannot create {}: {e}", download.display()))?;
        // `apt-get download` fetches exactly the named packages into the current folder.
        let mut cmd = self.command("apt-get");
        cmd.current_dir(&download).args(["-qq", "download"]).args(packages);
        if crate::process::run(&mut cmd).is_err() {
            // The package lists may be stale (sid moves fast): refresh them once and retry.
            self.update(true)?;
            crate::process::run(&mut cmd)?;
        }
        for deb in debs_in(&download)? {
            crate::process::run(Command::new("dpkg").arg("-x").arg(&deb).arg(root))?;
        }
        let _ = fs::remove_dir_all(&download);
        Ok(())
    }
}

fn debs_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut debs: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "deb"))
        .collect();
    debs.sort();
    Ok(debs)
}

fn unpack_into(debs: &[PathBuf], root: &Path) -> Result {
    let staging = root.with_extension("partial");
    let _ = fs::remove_dir_all(&staging);
    fs::create_dir_all(&staging).map_err(|e| format!("cannot create {}: {e}", staging.display()))?;
    for (i, deb) in debs.iter().enumerate() {
        if i % 30 == 0 && debs.len() > 30 {
            println!("xtask: unpacking packages {}..{} of {}", i + 1, (i + 30).min(debs.len()), debs.len());
        }
        crate::process::run(Command::new("dpkg").arg("-x").arg(deb).arg(&staging))?;
    }
    let _ = fs::remove_dir_all(root);
    fs::rename(&staging, root).map_err(|e| format!("cannot move {} into place: {e}", root.display()))
}

/// Makes sure the host has the Debian packages whose `programs` a step needs (cross linkers, Wine, qemu).
///
/// Each entry is `(program, package)`. Programs already on PATH are fine whatever provides them. Missing ones are
/// installed with the host's own `apt-get` when we are root on Debian (CI, containers); otherwise the error says
/// exactly what to install. These are packages of the host's own release, never another suite's.
pub fn ensure_host_programs(why: &str, needs: &[(&str, &str)]) -> Result {
    let missing: Vec<&str> =
        needs.iter().filter(|(program, _)| which(program).is_none()).map(|(_, pkg)| *pkg).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let mut packages = missing.clone();
    packages.dedup();
    let is_root = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    if !is_root || archive_uri().is_none() {
        return Err(format!(
            "{why} needs these Debian packages: {0}. Install them (`sudo apt-get install {0}`) or the equivalent on \
             your system, then run this again",
            packages.join(" ")
        ));
    }
    println!("xtask: {why}: installing the host packages {}", packages.join(" "));
    let apt = || {
        let mut cmd = Command::new("apt-get");
        cmd.env("DEBIAN_FRONTEND", "noninteractive");
        cmd
    };
    let install = |cmd: &mut Command| {
        crate::process::run(cmd.args(["-qq", "install", "-y", "--no-install-recommends"]).args(&packages))
    };
    if install(&mut apt()).is_err() {
        // A fresh machine may never have read its package lists.
        crate::process::run(apt().args(["-qq", "update"]))?;
        install(&mut apt())?;
    }
    Ok(())
}

/// The full path of `program` on PATH (or `program` itself when it is a path that exists).
pub fn which(program: &str) -> Option<PathBuf> {
    let direct = Path::new(program);
    if direct.components().count() > 1 {
        return direct.is_file().then(|| direct.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join(program)).find(|p| p.is_file())
}
