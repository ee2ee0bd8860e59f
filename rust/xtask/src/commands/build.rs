//! `cargo xtask build`: builds the extension for a platform and places it where `reach2d.gdextension` looks.

use crate::platform::Platform;
use crate::process::{Result, repo_root};
use crate::toolchain::cross::{built_library, cargo_for, cross_args};
use std::path::{Path, PathBuf};

/// `build [--release] [--target PLATFORM]`.
pub fn build_command(args: &[String], release: bool) -> Result {
    let platforms = match args.iter().position(|a| a == "--target") {
        Some(i) => Platform::parse(args.get(i + 1).ok_or("--target needs a platform")?)?,
        None => vec![host_platform()?],
    };
    for platform in platforms {
        build_for(platform, release)?;
    }
    Ok(())
}

/// The platform this machine builds for by default; fails on a machine the addon has no library for.
pub fn host_platform() -> Result<Platform> {
    Platform::host()
        .ok_or_else(|| format!("Reach2D ships no library for {}-{}", std::env::consts::OS, std::env::consts::ARCH))
}

/// Builds the extension for this machine and places it in `addons/reach2d/bin/`; returns the placed file.
pub fn build(release: bool) -> Result<PathBuf> {
    build_for(host_platform()?, release)
}

/// Builds the extension for `platform` (cross-compiling when it is not this machine's) and places it in
/// `addons/reach2d/bin/` under the name `reach2d.gdextension` gives it; returns the placed file.
pub fn build_for(platform: Platform, release: bool) -> Result<PathBuf> {
    let built = compile(platform, release)?;
    place(&built, &platform.library_name(release))
}

/// Builds the `reach2d` library for `platform`; returns cargo's output file.
pub fn compile(platform: Platform, release: bool) -> Result<PathBuf> {
    let mut cmd = cargo_for(platform)?;
    cmd.arg(if platform == Platform::MacOs && Platform::host() != Some(Platform::MacOs) {
        "zigbuild"
    } else {
        "build"
    });
    cmd.args(["-p", "reach2d"]).args(cross_args(platform));
    match platform {
        Platform::Web => cmd.args(["--features", "web-nothreads"]),
        Platform::WebThreads => cmd.args(["--features", "web"]),
        _ => &mut cmd,
    };
    if platform.is_web() {
        cmd.env("RUSTFLAGS", crate::toolchain::cross::web_library_rustflags(platform));
    }
    if release {
        cmd.arg("--release");
    }
    if Platform::host() != Some(platform) {
        println!("xtask: building {} ({})", platform.name(), if release { "release" } else { "debug" });
    }
    crate::process::run(&mut cmd)?;
    Ok(built_library(platform, release))
}

/// Copies `built` into `addons/reach2d/bin/NAME`.
pub fn place(built: &Path, name: &str) -> Result<PathBuf> {
    let root = repo_root();
    let bin = root.join("addons/reach2d/bin");
    std::fs::create_dir_all(&bin).map_err(|e| format!("cannot create {}: {e}", bin.display()))?;
    let placed = bin.join(name);
    // Copy to a temporary name and rename, so a running Godot never sees a half-written library.
    let tmp = bin.join(".incoming");
    std::fs::copy(built, &tmp).map_err(|e| format!("cannot copy {}: {e}", built.display()))?;
    std::fs::rename(&tmp, &placed).map_err(|e| format!("cannot place {}: {e}", placed.display()))?;
    println!("xtask: placed {}", placed.strip_prefix(&root).unwrap_or(&placed).display());
    Ok(placed)
}

/// Builds the optimized library and places it under the `debug` name too, for runs whose timings must mean
/// something: the editor build of Godot that the demo and the benchmark run in loads the `debug` entry. The next
/// `cargo xtask build` or `test` puts the debug build back.
pub fn release_in_debug_slot() -> Result<PathBuf> {
    let release = build(true)?;
    place(&release, &host_platform()?.library_name(false))
}
