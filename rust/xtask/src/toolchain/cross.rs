//! Cross builds from Linux x86_64: the pieces a build for another platform needs, fetched on first use.
//!
//! Only the host's standard library ships with the installed Rust, so every cross build compiles `std` itself
//! (`-Z build-std`, allowed on a stable compiler through `RUSTC_BOOTSTRAP=1`) from the standard library's source
//! of exactly the installed compiler's version: Debian's `rust-src` package, fetched into `target/rust-src/<ver>`.
//! Linkers: Debian's MinGW-w64 (Windows), `gcc-aarch64-linux-gnu` (Linux arm64), and zig through
//! `cargo-zigbuild` from PyPI in a private virtualenv under `target/zig-venv` (macOS, one universal dylib).
//! The web: emscripten (`toolchain/emscripten.rs`). Android: Debian's clang-19 and lld with a sysroot made here
//! (`toolchain/android.rs`). iOS: no linker (static libraries, `toolchain/ios.rs`).
//! Running the results: Wine (Windows), `qemu-aarch64` (arm64) and Node.js (web), with their own setup in
//! `commands/platforms.rs`.

use crate::platform::Platform;
use crate::process::{Result, repo_root};
use crate::toolchain::debian::{self, PrivateApt};
use crate::toolchain::emscripten::Emscripten;
use std::fs;
use std::path::PathBuf;
use std::process::Command;

/// The oldest macOS the universal dylib loads on: Godot 4.3's own minimum. zig records it in both slices (every Mac
/// with Apple silicon runs macOS 11 or newer, so the arm64 slice is unaffected).
pub const MACOS_DEPLOYMENT_TARGET: &str = "10.13";
/// What the macOS build installs from PyPI, pinned so every machine links with the same zig.
const ZIG_PACKAGES: [&str; 2] = ["ziglang==0.17.1", "cargo-zigbuild==0.24.0"];
/// Where the cross builds put their output, apart from the host builds so neither invalidates the other.
pub const CROSS_TARGET_DIR: &str = "target/cross";
/// The Linux arm64 C library's root (Debian's `libc6-dev-arm64-cross`), for the linker and for qemu.
pub const ARM64_SYSROOT: &str = "/usr/aarch64-linux-gnu";

/// A cargo (or cargo-zigbuild) command ready to build or test for `platform` from this machine: run it with
/// `build`/`test` arguments after [`cross_args`]. The host platform gets plain cargo.
pub fn cargo_for(platform: Platform) -> Result<Command> {
    if Some(platform) == Platform::host() {
        return Ok(crate::process::cargo());
    }
    if Platform::host() != Some(Platform::LinuxX86_64) {
        return Err(format!(
            "cross builds run from Linux x86_64 only; build {} on that platform with `cargo build --release -p \
             reach2d` (see the README)",
            platform.name()
        ));
    }
    let library = rust_src_library()?;
    let mut cmd = match platform {
        Platform::MacOs => {
            let venv = zig_venv()?;
            let mut cmd = Command::new(venv.join("bin/cargo-zigbuild"));
            // cargo-zigbuild finds zig through the virtualenv's python (`python3 -m ziglang`).
            let path = std::env::var_os("PATH").unwrap_or_default();
            let paths = std::iter::once(venv.join("bin")).chain(std::env::split_paths(&path));
            cmd.env("PATH", std::env::join_paths(paths).map_err(|e| e.to_string())?);
            cmd.env("MACOSX_DEPLOYMENT_TARGET", MACOS_DEPLOYMENT_TARGET);
            // zig's linker ignores rustc's list of exported symbols: without this the dylib exports every Rust
            // symbol (139,000 of them, 71 MB) instead of Godot's entry point alone.
            cmd.env("RUSTFLAGS", "-Zdefault-visibility=hidden");
            cmd
        }
        Platform::WindowsX86_64 => {
            debian::ensure_host_programs(
                "the Windows build",
                &[
                    ("x86_64-w64-mingw32-gcc", "gcc-mingw-w64-x86-64"),
                    ("x86_64-w64-mingw32-dlltool", "binutils-mingw-w64-x86-64"),
                ],
            )?;
            let mut cmd = crate::process::cargo();
            cmd.env("CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER", "x86_64-w64-mingw32-gcc");
            cmd
        }
        Platform::LinuxArm64 => {
            debian::ensure_host_programs(
                "the Linux arm64 build",
                &[
                    ("aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu"),
                    ("/usr/aarch64-linux-gnu/lib/libc.so.6", "libc6-dev-arm64-cross"),
                    ("/usr/aarch64-linux-gnu/include/stdio.h", "libc6-dev-arm64-cross"),
                ],
            )?;
            let mut cmd = crate::process::cargo();
            cmd.env("CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER", "aarch64-linux-gnu-gcc");
            cmd
        }
        Platform::Web | Platform::WebThreads => {
            let mut cmd = crate::process::cargo();
            Emscripten::locate_or_fetch()?.configure(&mut cmd)?;
            cmd
        }
        // Android's linker and flags are set per target by `toolchain::android::configure`; iOS links nothing.
        Platform::AndroidArm64 | Platform::AndroidX86_64 | Platform::Ios => crate::process::cargo(),
        Platform::LinuxX86_64 => unreachable!("the host platform returned above"),
    };
    cmd.current_dir(repo_root())
        .env("RUSTC_BOOTSTRAP", "1")
        .env("__CARGO_TESTS_ONLY_SRC_ROOT", &library)
        .env("CARGO_TARGET_DIR", target_dir(platform));
    Ok(cmd)
}

/// Where cargo builds for `platform` from this machine. The two web variants compile `std` with different
/// flags, so each has its own folder; sharing one would rebuild `std` at every switch.
pub fn target_dir(platform: Platform) -> PathBuf {
    let cross = repo_root().join(CROSS_TARGET_DIR);
    if platform.is_web() { cross.join(platform.name()) } else { cross }
}

/// Where the solver core's tests for the web are built (a plain wasm program with its own `std`, see
/// `commands/platforms.rs`).
pub fn web_tests_dir() -> PathBuf {
    repo_root().join(CROSS_TARGET_DIR).join("web-tests")
}

/// `RUSTFLAGS` for the web library (an emscripten side module, as godot-rust's "Export to Web" describes it).
///
/// - `-sSIDE_MODULE=2`: a side module that exports only what is marked exported (Godot's entry point), not all of
///   Rust's symbols.
/// - `panic=abort`, with `std` built for it, and emscripten's C++ exceptions off: the module carries no exception
///   handling at all, so it loads into Godot's templates, which are built without exceptions (`verify.rs` checks
///   that no exception instruction or tag is left).
/// - `-Zlink-native-libraries=no`: the libraries `std` names (libc, ...) come from the main module at load time.
/// - Threads: atomics and shared memory, which Godot's threaded template provides.
pub fn web_library_rustflags(platform: Platform) -> String {
    let mut flags = String::from(
        "-C link-args=-sSIDE_MODULE=2 -C panic=abort -Z link-native-libraries=no \
         -C llvm-args=-enable-emscripten-cxx-exceptions=0",
    );
    if platform == Platform::WebThreads {
        flags.push_str(" -C link-args=-pthread -C target-feature=+atomics,+bulk-memory,+mutable-globals");
    }
    flags
}

/// The arguments that make a cargo command from [`cargo_for`] build for `platform`.
pub fn cross_args(platform: Platform) -> Vec<&'static str> {
    if Some(platform) == Platform::host() {
        Vec::new()
    } else {
        vec!["--target", platform.rust_target(), "-Z", "build-std=std,panic_abort"]
    }
}

/// Where cargo leaves the `reach2d` library it built for `platform`.
pub fn built_library(platform: Platform, release: bool) -> PathBuf {
    let profile = if release { "release" } else { "debug" };
    if Some(platform) == Platform::host() {
        let target_dir =
            std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| repo_root().join("target"));
        return target_dir.join(profile).join(platform.built_file_name());
    }
    target_dir(platform).join(platform.rust_target()).join(profile).join(platform.built_file_name())
}

/// The installed compiler's version (`1.95.0`), refusing the ones Debian has no standard-library source for.
fn rustc_release() -> Result<String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(&rustc)
        .arg("-vV")
        .current_dir(repo_root())
        .output()
        .map_err(|e| format!("cannot run rustc: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let release = text.lines().find_map(|l| l.strip_prefix("release: ")).ok_or("`rustc -vV` printed no release")?;
    if release.contains('-') {
        return Err(format!(
            "the cross builds need a stable Rust (this is {release}): Debian ships the standard library's source only \
             for stable releases"
        ));
    }
    Ok(release.to_string())
}

/// The standard library's source (`.../library`) for the installed compiler, fetched from Debian on first use.
pub fn rust_src_library() -> Result<PathBuf> {
    let release = rustc_release()?;
    let root = repo_root().join("target/rust-src").join(&release);
    let library = root.join(format!("usr/src/rustc-{release}/library"));
    if library.join("Cargo.lock").is_file() {
        return Ok(library);
    }
    println!(
        "xtask: fetching the standard library's source for Rust {release} (Debian's rust-src) into {}",
        root.display()
    );
    // Debian carries each stable release for a while in one of these suites.
    let apt = PrivateApt::new(repo_root().join("target/rust-src-apt"), &["trixie-backports", "forky", "sid"], "amd64")?;
    apt.update(true)?;
    let versions = apt.versions("rust-src")?;
    let Some(version) = versions.iter().find(|v| v.starts_with(&format!("{release}+"))) else {
        return Err(format!(
            "Debian has no rust-src for Rust {release} (it has: {}). Install one of those Rust versions with rustup \
             (`rustup default <version>`), or build on each platform natively (see the README)",
            versions.join(", ")
        ));
    };
    let staging = root.with_extension("partial");
    let _ = fs::remove_dir_all(&staging);
    fs::create_dir_all(&staging).map_err(|e| format!("cannot create {}: {e}", staging.display()))?;
    apt.add_packages(&[&format!("rust-src={version}")], &staging)?;
    let _ = fs::remove_dir_all(&root);
    fs::rename(&staging, &root).map_err(|e| format!("cannot move {} into place: {e}", root.display()))?;
    if !library.join("Cargo.lock").is_file() {
        return Err(format!("Debian's rust-src {version} has no {}", library.display()));
    }
    Ok(library)
}

/// The symbols Darwin's `libSystem` exports, from the `libSystem.tbd` that zig links the macOS library against
/// (the iOS check resolves the iOS library's imports with it; see `verify/ios.rs`).
pub fn libsystem_symbols() -> Result<std::collections::HashSet<String>> {
    let venv = zig_venv()?;
    let lib = venv.join("lib");
    let tbd = fs::read_dir(&lib)
        .map_err(|e| format!("cannot read {}: {e}", lib.display()))?
        .flatten()
        .map(|python| python.path().join("site-packages/ziglang/lib/libc/darwin/libSystem.tbd"))
        .find(|path| path.is_file())
        .ok_or_else(|| format!("zig's libSystem.tbd is not in {}", venv.display()))?;
    let text = fs::read_to_string(&tbd).map_err(|e| format!("cannot read {}: {e}", tbd.display()))?;
    let symbols = crate::apple_files::tbd_symbols(&text);
    if symbols.len() < 1000 {
        return Err(format!("{} lists only {} symbols: not Darwin's libSystem", tbd.display(), symbols.len()));
    }
    Ok(symbols)
}

/// A virtualenv with zig and cargo-zigbuild from PyPI, made on first use.
fn zig_venv() -> Result<PathBuf> {
    let venv = repo_root().join("target/zig-venv");
    let stamp = venv.join("reach2d-packages.txt");
    if fs::read_to_string(&stamp).is_ok_and(|s| s == ZIG_PACKAGES.join("\n")) {
        return Ok(venv);
    }
    println!("xtask: installing {} from PyPI into {}", ZIG_PACKAGES.join(" "), venv.display());
    let python = ["python3", "python"].into_iter().find(|p| debian::which(p).is_some()).ok_or(
        "the macOS build needs Python 3 (for zig and cargo-zigbuild from PyPI); install python3 with its venv module",
    )?;
    let _ = fs::remove_dir_all(&venv);
    crate::process::run(Command::new(python).args(["-m", "venv"]).arg(&venv)).map_err(|e| {
        format!("{e}\nthe macOS build needs Python's venv module (Debian: `apt-get install python3-venv`)")
    })?;
    crate::process::run(
        Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", "--disable-pip-version-check"])
            .args(ZIG_PACKAGES),
    )?;
    fs::write(&stamp, ZIG_PACKAGES.join("\n")).map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    Ok(venv)
}
