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
    if platforms.len() > 1 && platforms.iter().all(|p| p.is_android()) {
        for (platform, built) in platforms.iter().zip(compile_android(&platforms, release)?) {
            place(&built, &platform.library_name(release))?;
        }
        return Ok(());
    }
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

/// Builds the `reach2d` library for `platform`; returns cargo's output file (for iOS, the `.xcframework` folder).
pub fn compile(platform: Platform, release: bool) -> Result<PathBuf> {
    if platform == Platform::Ios {
        return crate::toolchain::ios::build(release);
    }
    if platform.is_android() {
        return Ok(compile_android(&[platform], release)?.remove(0));
    }
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

/// Builds every one of `platforms` (release or debug), sharing what can be (see [`compile_each`]); returns one
/// outcome per platform, in order.
pub fn compile_all(platforms: &[Platform], release: bool) -> Vec<Result<PathBuf>> {
    let mut outcomes: Vec<Option<Result<PathBuf>>> = vec![None; platforms.len()];
    compile_each(platforms, release, |platform, outcome| {
        let index = platforms.iter().position(|p| *p == platform).expect("one of the platforms asked for");
        outcomes[index] = Some(outcome);
    });
    outcomes.into_iter().map(|o| o.expect("every platform reported")).collect()
}

/// Builds every one of `platforms` (release or debug) and hands each outcome to `on_built` as soon as it is there,
/// so the caller can check a library (and free its build folder) before the next build fills the disk. Shared
/// where it can be: the Android ABIs in one cargo invocation, and iOS (which compiles no C and links nothing) in
/// the background, beside the others, in its own target folders; iOS is reported last.
pub fn compile_each(platforms: &[Platform], release: bool, mut on_built: impl FnMut(Platform, Result<PathBuf>)) {
    let started = std::time::Instant::now();
    let mut ios = None;
    if platforms.contains(&Platform::Ios) {
        // Whatever iOS fetches or installs, before anything runs beside it (apt and the fetches are not shared).
        match crate::toolchain::ios::prepare() {
            Ok(()) => ios = Some(std::thread::spawn(move || crate::toolchain::ios::build(release))),
            Err(e) => ios = Some(std::thread::spawn(move || Err(e))),
        }
    }
    let android: Vec<Platform> = platforms.iter().copied().filter(|p| p.is_android()).collect();
    let mut android_built: Option<Result<Vec<PathBuf>>> = None;
    for &platform in platforms.iter().filter(|p| **p != Platform::Ios) {
        let outcome = if platform.is_android() {
            let built = android_built.get_or_insert_with(|| compile_android(&android, release));
            let index = android.iter().position(|a| *a == platform).expect("listed above");
            built.clone().map(|libraries| libraries[index].clone())
        } else {
            compile(platform, release)
        };
        let done = if outcome.is_ok() { "built" } else { "FAILED to build" };
        println!("xtask: {} {done}, {:.0} s into the builds", platform.name(), started.elapsed().as_secs_f64());
        on_built(platform, outcome);
    }
    if let Some(thread) = ios {
        let outcome = thread.join().unwrap_or_else(|_| Err("the iOS build panicked".into()));
        let done = if outcome.is_ok() { "built" } else { "FAILED to build" };
        println!("xtask: ios {done} (in the background), {:.0} s into the builds", started.elapsed().as_secs_f64());
        on_built(Platform::Ios, outcome);
    }
}

/// Builds the Android ABIs `platforms` in one cargo invocation (each with its own target flags, see
/// `toolchain/android.rs`), so cargo runs both ABIs' crates side by side; returns each library, in order.
pub fn compile_android(platforms: &[Platform], release: bool) -> Result<Vec<PathBuf>> {
    let mut cmd = cargo_for(platforms[0])?;
    crate::toolchain::android::configure(&mut cmd, platforms, release)?;
    cmd.args(["build", "-p", "reach2d"]);
    for platform in platforms {
        cmd.args(["--target", platform.rust_target()]);
    }
    // `std` without its backtrace feature: nothing unwinds (panic=abort), and symbolizing a backtrace that the
    // unwinder stub ends at once would only add size.
    cmd.args(&cross_args(platforms[0])[2..]).arg("-Zbuild-std-features=");
    if release {
        cmd.arg("--release");
    }
    let names: Vec<&str> = platforms.iter().map(|p| p.name()).collect();
    println!("xtask: building {} ({})", names.join(", "), if release { "release" } else { "debug" });
    crate::process::run(&mut cmd)?;
    Ok(platforms.iter().map(|&p| built_library(p, release)).collect())
}

/// Copies `built` into `addons/reach2d/bin/NAME` (a folder, the iOS `.xcframework`, with everything in it).
pub fn place(built: &Path, name: &str) -> Result<PathBuf> {
    let root = repo_root();
    let bin = root.join("addons/reach2d/bin");
    std::fs::create_dir_all(&bin).map_err(|e| format!("cannot create {}: {e}", bin.display()))?;
    let placed = bin.join(name);
    // Copy to a temporary name and rename, so a running Godot never sees a half-written library.
    let tmp = bin.join(".incoming");
    if built.is_dir() {
        let _ = std::fs::remove_dir_all(&tmp);
        crate::process::copy_dir(built, &tmp)?;
        let _ = std::fs::remove_dir_all(&placed);
    } else {
        std::fs::copy(built, &tmp).map_err(|e| format!("cannot copy {}: {e}", built.display()))?;
    }
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
