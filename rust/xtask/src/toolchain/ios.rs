//! iOS without Apple's SDK: static libraries, one per slice, packed as an `.xcframework` for Godot's iOS export.
//!
//! Godot's iOS export links a GDExtension's static library (`.a`, or an `.xcframework` of them) into the game's
//! Xcode project and registers the entry point by code it generates (`register_dynamic_symbol`; Godot 4.3's
//! `editor/plugins/gdextension_export_plugin.h` and `platform/ios/export/export_plugin.cpp`, whose
//! `_check_xcframework_content` reads each slice's `BinaryPath` from the `.xcframework`'s `Info.plist`). A static
//! library is never linked here, so rustc builds it from `rust-src` without any Apple tool; a dynamic library
//! could not be linked honestly without Apple's SDK.
//!
//! Symbol hygiene: the library's objects end up in the game's binary next to Godot's and maybe another Rust
//! extension's, so nothing of ours may share a name with theirs. Each slice is built with fat LTO
//! (`CARGO_PROFILE_*_LTO=fat`): all Rust code, `std` included, becomes one object in which rustc has already made
//! every Rust symbol local; the few global names left (`#[no_mangle]` runtime symbols, compiler-builtins) are then
//! renamed with [`SYMBOL_PREFIX`] in every object of the archive (`llvm-objcopy --redefine-syms`, which renames
//! the references too). Only Godot's entry point keeps its name. No tool here can make those symbols local in a
//! Mach-O object (that needs Apple's `ld -r`), so they stay global but unique to Reach2D.

use crate::platform::Platform;
use crate::process::{Result, repo_root, write_file};
use crate::toolchain::cross::{CROSS_TARGET_DIR, cargo_for, cross_args};
use crate::toolchain::debian::ensure_host_programs;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The oldest iOS the device library runs on: Godot 4.3's iOS export builds for iOS 12.0 (its
/// `application/min_ios_version` default, added in 4.3).
pub const MIN_IOS: &str = "12.0";
/// The arm64 simulator exists from iOS 14.0 (Apple silicon Macs); rustc's own minimum for it.
pub const MIN_IOS_SIMULATOR: &str = "14.0";
/// What every global symbol of the library but the entry point is renamed to start with.
pub const SYMBOL_PREFIX: &str = "_reach2d_";

/// One library of the `.xcframework`.
#[derive(Clone, Copy, Debug)]
pub struct Slice {
    /// The Rust target.
    pub triple: &'static str,
    /// The folder in the `.xcframework` (Apple's naming: platform, architectures, variant).
    pub identifier: &'static str,
    /// The architecture as Apple names it.
    pub arch: &'static str,
    pub simulator: bool,
    /// The minimum iOS version recorded in its objects.
    pub min_os: &'static str,
}

/// The device's and the (arm64) simulator's libraries. The x86_64 simulator (Intel Macs) is left out: it would
/// cost one more `-Z build-std` build in CI for a simulator that only Intel Macs run.
pub const SLICES: [Slice; 2] = [
    Slice { triple: "aarch64-apple-ios", identifier: "ios-arm64", arch: "arm64", simulator: false, min_os: MIN_IOS },
    Slice {
        triple: "aarch64-apple-ios-sim",
        identifier: "ios-arm64-simulator",
        arch: "arm64",
        simulator: true,
        min_os: MIN_IOS_SIMULATOR,
    },
];

/// The static library's name inside each slice folder.
pub const LIBRARY_FILE: &str = "libreach2d.a";

/// Fetches and installs what the iOS build and its check need (the standard library's source, LLVM's tools, zig's
/// `libSystem` list), so that the build can then run beside others without sharing apt or a fetch.
pub fn prepare() -> Result {
    ensure_host_programs("the iOS build", &[("llvm-objcopy-19", "llvm-19"), ("llvm-nm-19", "llvm-19")])?;
    crate::toolchain::cross::rust_src_library()?;
    crate::toolchain::cross::libsystem_symbols().map(drop)
}

/// Builds both slices side by side (one cargo each, in its own target folder, so neither waits for the other's
/// lock), renames their global symbols and packs them as `target/cross/ios/<profile>/<name>.xcframework`;
/// returns that folder.
pub fn build(release: bool) -> Result<PathBuf> {
    prepare()?;
    let profile = if release { "release" } else { "debug" };
    println!("xtask: building ios ({profile}): {}", SLICES.map(|s| s.triple).join(", "));
    let mut children = Vec::new();
    for slice in SLICES {
        let log = slice_dir(slice).join(format!("build-{profile}.log"));
        fs::create_dir_all(slice_dir(slice))
            .map_err(|e| format!("cannot create {}: {e}", slice_dir(slice).display()))?;
        let out = fs::File::create(&log).map_err(|e| format!("cannot write {}: {e}", log.display()))?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let child = slice_cargo(slice, release)?
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start cargo for {}: {e}", slice.triple))?;
        children.push((slice, child, log));
    }
    let started = std::time::Instant::now();
    let mut failures = Vec::new();
    for (slice, mut child, log) in children {
        let status = child.wait().map_err(|e| e.to_string())?;
        if !status.success() {
            let text = fs::read_to_string(&log).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(30).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            failures.push(format!("{} failed ({status}); {}:\n{}", slice.triple, log.display(), tail.join("\n")));
        }
    }
    if !failures.is_empty() {
        return Err(failures.join("\n"));
    }
    println!("xtask: ios slices built in {:.0} s", started.elapsed().as_secs_f64());
    let framework =
        repo_root().join(CROSS_TARGET_DIR).join("ios").join(profile).join(Platform::Ios.library_name(release));
    let _ = fs::remove_dir_all(&framework);
    for slice in SLICES {
        let built = slice_dir(slice).join(slice.triple).join(profile).join(LIBRARY_FILE);
        let dir = framework.join(slice.identifier);
        fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        rename_globals(&built, &dir.join(LIBRARY_FILE))?;
    }
    write_file(&framework.join("Info.plist"), &info_plist())?;
    // Under CI the slices' folders (over a gigabyte each) go as soon as the framework holds their archives, not
    // after every other platform's build (see `commands/platforms.rs`).
    if crate::process::in_ci() {
        for dir in slice_dirs() {
            let _ = fs::remove_dir_all(dir);
        }
    }
    Ok(framework)
}

/// Every slice's target folder (the `.xcframework` lives apart from them).
pub fn slice_dirs() -> Vec<PathBuf> {
    SLICES.into_iter().map(slice_dir).collect()
}

/// Each slice's own target folder.
fn slice_dir(slice: Slice) -> PathBuf {
    repo_root().join(CROSS_TARGET_DIR).join("ios").join(slice.identifier)
}

/// `cargo rustc` building the `reach2d` library as a static library for `slice`: `panic=abort` (as on the web
/// and Android: nothing unwinds into Godot), fat LTO (see the module's help), the minimum iOS version.
fn slice_cargo(slice: Slice, release: bool) -> Result<Command> {
    let mut cmd = cargo_for(Platform::Ios)?;
    let key = slice.triple.to_uppercase().replace('-', "_");
    cmd.env("CARGO_TARGET_DIR", slice_dir(slice))
        .env(format!("CARGO_TARGET_{key}_RUSTFLAGS"), "-C panic=abort")
        .env("CARGO_PROFILE_RELEASE_LTO", "fat")
        .env("CARGO_PROFILE_DEV_LTO", "fat")
        .env("IPHONEOS_DEPLOYMENT_TARGET", slice.min_os)
        .args(["rustc", "-p", "reach2d", "--lib", "--crate-type", "staticlib", "--target", slice.triple]);
    // `std` without its backtrace feature, as on Android: nothing unwinds.
    cmd.args(&cross_args(Platform::Ios)[2..]).arg("-Zbuild-std-features=");
    if release {
        cmd.arg("--release");
    }
    Ok(cmd)
}

/// Copies the archive `from` to `to` with every defined global symbol but Godot's entry point renamed to start
/// with [`SYMBOL_PREFIX`], and without embedded bitcode.
fn rename_globals(from: &Path, to: &Path) -> Result {
    let data = fs::read(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    let names = crate::apple_files::defined_globals(&data)?;
    let entry = format!("_{}", crate::library::ENTRY_SYMBOL);
    let mut map = String::new();
    for name in names.iter().filter(|n| **n != entry && !n.starts_with(SYMBOL_PREFIX)) {
        let bare = name.strip_prefix('_').unwrap_or(name);
        map.push_str(&format!("{name} {SYMBOL_PREFIX}{bare}\n"));
    }
    let list = to.with_extension("renames.txt");
    write_file(&list, &map)?;
    let mut cmd = Command::new("llvm-objcopy-19");
    // The objects cargo builds for LTO carry their LLVM bitcode too (`__LLVM,__bitcode`, only compiler-builtins'
    // is left after LTO), which Xcode 14+ no longer takes: drop it.
    cmd.arg(format!("--redefine-syms={}", list.display()))
        .args(["--remove-section=__LLVM,__bitcode", "--remove-section=__LLVM,__cmdline"])
        .arg(from)
        .arg(to);
    crate::process::run(&mut cmd)?;
    fs::remove_file(&list).map_err(|e| format!("cannot remove {}: {e}", list.display()))
}

/// The `.xcframework`'s `Info.plist` (plain XML), listing each slice as `xcodebuild -create-xcframework` does.
pub fn info_plist() -> String {
    let mut libraries = String::new();
    for slice in SLICES {
        let variant = if slice.simulator {
            "\t\t\t<key>SupportedPlatformVariant</key>\n\t\t\t<string>simulator</string>\n"
        } else {
            ""
        };
        libraries.push_str(&format!(
            "\t\t<dict>\n\t\t\t<key>BinaryPath</key>\n\t\t\t<string>{LIBRARY_FILE}</string>\n\
             \t\t\t<key>LibraryIdentifier</key>\n\t\t\t<string>{}</string>\n\
             \t\t\t<key>LibraryPath</key>\n\t\t\t<string>{LIBRARY_FILE}</string>\n\
             \t\t\t<key>SupportedArchitectures</key>\n\t\t\t<array>\n\t\t\t\t<string>{}</string>\n\t\t\t</array>\n\
             \t\t\t<key>SupportedPlatform</key>\n\t\t\t<string>ios</string>\n{variant}\t\t</dict>\n",
            slice.identifier, slice.arch
        ));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n\
         <plist version=\"1.0\">\n<dict>\n\t<key>AvailableLibraries</key>\n\t<array>\n{libraries}\t</array>\n\
         \t<key>CFBundlePackageType</key>\n\t<string>XFWK</string>\n\
         \t<key>XCFrameworkFormatVersion</key>\n\t<string>1.0</string>\n</dict>\n</plist>\n"
    )
}
