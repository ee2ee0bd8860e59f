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
}

impl Platform {
    /// Every platform `cargo xtask package` ships, in the order it builds them.
    pub const ALL: [Platform; 6] = [
        Platform::LinuxX86_64,
        Platform::LinuxArm64,
        Platform::WindowsX86_64,
        Platform::MacOs,
        Platform::Web,
        Platform::WebThreads,
    ];
    /// The web export's two variants, which `--target web` builds together.
    pub const WEB: [Platform; 2] = [Platform::Web, Platform::WebThreads];

    /// The name `--target` takes and messages use.
    pub fn name(self) -> &'static str {
        match self {
            Platform::LinuxX86_64 => "linux-x86_64",
            Platform::LinuxArm64 => "linux-arm64",
            Platform::WindowsX86_64 => "windows-x86_64",
            Platform::MacOs => "macos",
            Platform::Web => "web-nothreads",
            Platform::WebThreads => "web-threads",
        }
    }

    /// `true` for the web export's side modules.
    pub fn is_web(self) -> bool {
        matches!(self, Platform::Web | Platform::WebThreads)
    }

    /// The platforms a `--target` name means: one, or both web variants for `web` (or the emscripten triple).
    pub fn parse(text: &str) -> Result<Vec<Self>> {
        if text == "web" || text == Platform::Web.rust_target() {
            return Ok(Platform::WEB.to_vec());
        }
        let one = Platform::ALL.into_iter().find(|p| p.name() == text || p.rust_target() == text);
        one.map(|p| vec![p]).ok_or_else(|| {
            let names: Vec<&str> = Platform::ALL.iter().map(|p| p.name()).collect();
            format!("unknown platform `{text}`: use one of {}, or web (both web variants)", names.join(", "))
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

    /// The Rust target (for macOS, cargo-zigbuild's pseudo-target that builds both architectures and merges them).
    pub fn rust_target(self) -> &'static str {
        match self {
            Platform::LinuxX86_64 => "x86_64-unknown-linux-gnu",
            Platform::LinuxArm64 => "aarch64-unknown-linux-gnu",
            Platform::WindowsX86_64 => "x86_64-pc-windows-gnu",
            Platform::MacOs => "universal2-apple-darwin",
            Platform::Web | Platform::WebThreads => "wasm32-unknown-emscripten",
        }
    }

    /// The file cargo writes for the `reach2d` cdylib.
    pub fn built_file_name(self) -> &'static str {
        match self {
            Platform::LinuxX86_64 | Platform::LinuxArm64 => "libreach2d.so",
            Platform::WindowsX86_64 => "reach2d.dll",
            Platform::MacOs => "libreach2d.dylib",
            Platform::Web | Platform::WebThreads => "reach2d.wasm",
        }
    }

    /// The library's file name in `addons/reach2d/bin/`, as `reach2d.gdextension` names it.
    pub fn library_name(self, release: bool) -> String {
        let profile = if release { "release" } else { "debug" };
        match self {
            Platform::LinuxX86_64 => format!("libreach2d.linux.{profile}.x86_64.so"),
            Platform::LinuxArm64 => format!("libreach2d.linux.{profile}.aarch64.so"),
            Platform::WindowsX86_64 => format!("reach2d.windows.{profile}.x86_64.dll"),
            Platform::MacOs => format!("libreach2d.macos.{profile}.dylib"),
            Platform::Web => format!("libreach2d.web.{profile}.nothreads.wasm32.wasm"),
            Platform::WebThreads => format!("libreach2d.web.{profile}.threads.wasm32.wasm"),
        }
    }
}

#[cfg(test)]
mod tests;
