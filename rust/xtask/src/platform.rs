//! The platforms the addon ships a library for, and the file names `addons/reach2d/reach2d.gdextension` gives them.

use crate::process::Result;

/// A platform of the addon: one library file per build profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platform {
    LinuxX86_64,
    LinuxArm64,
    WindowsX86_64,
    /// One universal (x86_64 + arm64) dylib.
    MacOs,
    /// An emscripten side module for Godot's web export without threads (the default since Godot 4.3).
    Web,
    /// An emscripten side module for Godot's web export with threads (SharedArrayBuffer).
    WebThreads,
    /// Android phones and tablets (arm64-v8a), built without the NDK (`toolchain/android.rs`).
    AndroidArm64,
    /// Android emulators and Chromebooks (x86_64).
    AndroidX86_64,
    /// iOS: an `.xcframework` of static libraries (device arm64, simulator arm64) that Godot's iOS export links
    /// into the game (`toolchain/ios.rs`).
    Ios,
}

impl Platform {
    /// Every platform `cargo xtask package` ships, in the order it builds them.
    pub const ALL: [Platform; 9] = [
        Platform::LinuxX86_64,
        Platform::LinuxArm64,
        Platform::WindowsX86_64,
        Platform::MacOs,
        Platform::Web,
        Platform::WebThreads,
        Platform::AndroidArm64,
        Platform::AndroidX86_64,
        Platform::Ios,
    ];
    /// The web export's two variants, which `--target web` builds together.
    pub const WEB: [Platform; 2] = [Platform::Web, Platform::WebThreads];
    /// The Android ABIs, which `--target android` builds together (in one cargo invocation).
    pub const ANDROID: [Platform; 2] = [Platform::AndroidArm64, Platform::AndroidX86_64];

    /// The name `--target` takes and messages use.
    pub fn name(self) -> &'static str {
        match self {
            Platform::LinuxX86_64 => "linux-x86_64",
            Platform::LinuxArm64 => "linux-arm64",
            Platform::WindowsX86_64 => "windows-x86_64",
            Platform::MacOs => "macos",
            Platform::Web => "web-nothreads",
            Platform::WebThreads => "web-threads",
            Platform::AndroidArm64 => "android-arm64",
            Platform::AndroidX86_64 => "android-x86_64",
            Platform::Ios => "ios",
        }
    }

    /// `true` for the web export's side modules.
    pub fn is_web(self) -> bool {
        matches!(self, Platform::Web | Platform::WebThreads)
    }

    /// `true` for the Android ABIs.
    pub fn is_android(self) -> bool {
        matches!(self, Platform::AndroidArm64 | Platform::AndroidX86_64)
    }

    /// The platforms a `--target` name means: one, both web variants for `web` (or the emscripten triple), or
    /// both Android ABIs for `android`.
    pub fn parse(text: &str) -> Result<Vec<Self>> {
        if text == "web" || text == Platform::Web.rust_target() {
            return Ok(Platform::WEB.to_vec());
        }
        if text == "android" {
            return Ok(Platform::ANDROID.to_vec());
        }
        let one = Platform::ALL.into_iter().find(|p| p.name() == text || p.rust_target() == text);
        one.map(|p| vec![p]).ok_or_else(|| {
            let names: Vec<&str> = Platform::ALL.iter().map(|p| p.name()).collect();
            format!(
                "unknown platform `{text}`: use one of {}, web (both web variants) or android (both ABIs)",
                names.join(", ")
            )
        })
    }

    /// The platform this machine builds without cross tools, if it is one of ours.
    pub fn host() -> Option<Self> {
        match (std::env::consts::OS, std::env::consts::ARCH) {
            ("linux", "x86_64") => Some(Platform::LinuxX86_64),
            ("linux", "aarch64") => Some(Platform::LinuxArm64),
            ("windows", "x86_64") => Some(Platform::WindowsX86_64),
            ("macos", _) => Some(Platform::MacOs),
            _ => None,
        }
    }

    /// The Rust target (for macOS, cargo-zigbuild's pseudo-target that builds both architectures and merges them;
    /// for iOS, the device's: the simulator's are in `toolchain/ios.rs`).
    pub fn rust_target(self) -> &'static str {
        match self {
            Platform::LinuxX86_64 => "x86_64-unknown-linux-gnu",
            Platform::LinuxArm64 => "aarch64-unknown-linux-gnu",
            Platform::WindowsX86_64 => "x86_64-pc-windows-gnu",
            Platform::MacOs => "universal2-apple-darwin",
            Platform::Web | Platform::WebThreads => "wasm32-unknown-emscripten",
            Platform::AndroidArm64 => "aarch64-linux-android",
            Platform::AndroidX86_64 => "x86_64-linux-android",
            Platform::Ios => "aarch64-apple-ios",
        }
    }

    /// The file cargo writes for the `reach2d` cdylib (for iOS: the static library xtask asks for).
    pub fn built_file_name(self) -> &'static str {
        match self {
            Platform::LinuxX86_64 | Platform::LinuxArm64 | Platform::AndroidArm64 | Platform::AndroidX86_64 => {
                "libreach2d.so"
            }
            Platform::Ios => "libreach2d.a",
            Platform::WindowsX86_64 => "reach2d.dll",
            Platform::MacOs => "libreach2d.dylib",
            Platform::Web | Platform::WebThreads => "reach2d.wasm",
        }
    }

    /// The library's file name in `addons/reach2d/bin/`, as `reach2d.gdextension` names it (for iOS a folder, the
    /// `.xcframework`).
    pub fn library_name(self, release: bool) -> String {
        let profile = if release { "release" } else { "debug" };
        match self {
            Platform::LinuxX86_64 => format!("libreach2d.linux.{profile}.x86_64.so"),
            Platform::LinuxArm64 => format!("libreach2d.linux.{profile}.aarch64.so"),
            Platform::WindowsX86_64 => format!("reach2d.windows.{profile}.x86_64.dll"),
            Platform::MacOs => format!("libreach2d.macos.{profile}.dylib"),
            Platform::Web => format!("libreach2d.web.{profile}.nothreads.wasm32.wasm"),
            Platform::WebThreads => format!("libreach2d.web.{profile}.threads.wasm32.wasm"),
            Platform::AndroidArm64 => format!("libreach2d.android.{profile}.arm64.so"),
            Platform::AndroidX86_64 => format!("libreach2d.android.{profile}.x86_64.so"),
            Platform::Ios => format!("libreach2d.ios.{profile}.xcframework"),
        }
    }
}

#[cfg(test)]
mod tests;
