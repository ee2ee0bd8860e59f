//! Emscripten for the web build, fetched on first use into `target/emscripten` without touching the host.
//!
//! Which emscripten: a GDExtension is an emscripten *side module* that Godot's web export template (the *main
//! module*) links at load time, so the two should come from emscripten versions close enough to agree on the
//! dynamic-linking ABI and the libc symbols the side module imports. Godot's official templates are built with
//! 3.1.6x (Godot 4.3, 4.4), 4.0.x (4.5-4.7) and 6.0.x (4.8). We build with Debian trixie's emscripten 3.1.69, the
//! one of those a registry here carries whole (Python and JavaScript, architecture `all`, with its prebuilt system
//! libraries in `cache/`, `pic/` ones included), and the browser test (`cargo xtask test --web`) measures which
//! templates load the result.
//!
//! What it runs on:
//! - Debian 12's own `clang-19`, `lld-19` and `llvm-19` (host packages, installed on first use when we are root);
//! - sid's binaryen (131): trixie's 120 rejects what rustc 1.95's LLVM emits (`--enable-bulk-memory-opt`) and
//!   Debian 12's 108 lacks `--no-stack-ir`. Its tools need a newer glibc and libstdc++ than Debian 12's, so each
//!   one runs through trixie's dynamic loader with trixie's libraries (wrapper scripts in `binaryen/bin`);
//! - Node.js (`node` on PATH) for emscripten's JavaScript parts and for running what it builds, with Debian's
//!   `node-acorn` found through a `node_modules` link beside emscripten (its JavaScript imports it as a package).

use crate::process::{Result, repo_root, write_file};
use crate::toolchain::debian::{PrivateApt, ensure_host_programs, which};
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The emscripten release we build with (trixie's), and the Debian packages that make it up: `name/suite`.
pub const VERSION: &str = "3.1.69";
const PACKAGES: [&str; 6] =
    ["emscripten/trixie", "node-acorn/trixie", "binaryen/sid", "libc6/trixie", "libstdc++6/trixie", "libgcc-s1/trixie"];
/// The LLVM major version trixie's emscripten 3.1.69 is made for; Debian 12 carries it as host packages.
const LLVM: &str = "19";
/// Written into the fetched folder last, so a half-fetched toolchain is fetched again.
const STAMP: &str = "reach2d-emscripten.txt";

/// A fetched emscripten: `emcc` and its configuration.
pub struct Emscripten {
    /// The folder the Debian packages were unpacked into.
    root: PathBuf,
}

impl Emscripten {
    /// The toolchain, fetched into `target/emscripten` on first use.
    pub fn locate_or_fetch() -> Result<Self> {
        let node = which("node").ok_or(
            "the web build needs Node.js (`node` on PATH) to run emscripten; install it (Debian: `apt-get install \
             nodejs`)",
        )?;
        let clang = format!("clang-{LLVM}");
        let wasm_ld = format!("wasm-ld-{LLVM}");
        let llvm_ar = format!("llvm-ar-{LLVM}");
        ensure_host_programs(
            "the web build (emscripten)",
            &[(clang.as_str(), "clang-19"), (wasm_ld.as_str(), "lld-19"), (llvm_ar.as_str(), "llvm-19")],
        )?;
        let root = repo_root().join("target/emscripten");
        let toolchain = Emscripten { root };
        let wanted = format!("{}\n{}", PACKAGES.join("\n"), node.display());
        if fs::read_to_string(toolchain.root.join(STAMP)).is_ok_and(|s| s == wanted) {
            return Ok(toolchain);
        }
        println!("xtask: fetching emscripten {VERSION} and binaryen from Debian into {}", toolchain.root.display());
        let apt = PrivateApt::new(repo_root().join("target/emscripten-apt"), &["trixie", "sid"], "amd64")?;
        apt.update(true)?;
        let staging = toolchain.root.with_extension("partial");
        let _ = fs::remove_dir_all(&staging);
        fs::create_dir_all(&staging).map_err(|e| format!("cannot create {}: {e}", staging.display()))?;
        apt.add_packages(&PACKAGES, &staging)?;
        let _ = fs::remove_dir_all(&toolchain.root);
        fs::rename(&staging, &toolchain.root)
            .map_err(|e| format!("cannot move {} into place: {e}", toolchain.root.display()))?;
        toolchain.write_wrappers_and_config(&node)?;
        let version = toolchain.version()?;
        if !version.contains(VERSION) {
            return Err(format!("the fetched emscripten says `{version}`, expected {VERSION}"));
        }
        write_file(&toolchain.root.join(STAMP), &wanted)?;
        Ok(toolchain)
    }

    /// The folder holding `emcc`.
    fn emcc_dir(&self) -> PathBuf {
        self.root.join("usr/share/emscripten")
    }

    /// Makes `cmd` find this `emcc` on PATH with its configuration (what cargo's emscripten target and its
    /// build scripts need).
    pub fn configure(&self, cmd: &mut Command) -> Result {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let paths = std::iter::once(self.emcc_dir()).chain(std::env::split_paths(&path));
        cmd.env("PATH", std::env::join_paths(paths).map_err(|e| e.to_string())?)
            .env("EM_CONFIG", self.root.join("em_config.py"))
            // Binaryen is newer than the release expects (see the module's help); say so once, not per link.
            .env("EMCC_CFLAGS", "-Wno-version-check");
        Ok(())
    }

    /// An `emcc` command with the configuration applied.
    pub fn emcc(&self) -> Result<Command> {
        let mut cmd = Command::new(self.emcc_dir().join("emcc"));
        self.configure(&mut cmd)?;
        Ok(cmd)
    }

    /// `emcc --version`'s first line.
    pub fn version(&self) -> Result<String> {
        let out = self.emcc()?.arg("--version").output().map_err(|e| format!("cannot run emcc: {e}"))?;
        let text = String::from_utf8_lossy(&out.stdout);
        match text.lines().next() {
            Some(line) if out.status.success() => Ok(line.trim().to_string()),
            _ => Err(format!("emcc --version failed: {}", String::from_utf8_lossy(&out.stderr).trim())),
        }
    }

    /// Binaryen's tools through trixie's loader and libraries, acorn where emscripten's JavaScript looks for it,
    /// and emscripten's configuration file.
    fn write_wrappers_and_config(&self, node: &Path) -> Result {
        let node_modules = self.emcc_dir().join("node_modules");
        fs::create_dir_all(&node_modules).map_err(|e| format!("cannot create {}: {e}", node_modules.display()))?;
        std::os::unix::fs::symlink("../../nodejs/acorn", node_modules.join("acorn"))
            .map_err(|e| format!("cannot link acorn into {}: {e}", node_modules.display()))?;
        let libs = self.root.join("usr/lib/x86_64-linux-gnu");
        let loader = libs.join("ld-linux-x86-64.so.2");
        let wrappers = self.root.join("binaryen/bin");
        fs::create_dir_all(&wrappers).map_err(|e| format!("cannot create {}: {e}", wrappers.display()))?;
        let tools = self.root.join("usr/bin");
        let entries = fs::read_dir(&tools).map_err(|e| format!("cannot read {}: {e}", tools.display()))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !(name.starts_with("wasm") || name.starts_with("binaryen")) {
                continue;
            }
            let wrapper = wrappers.join(&name);
            let script = format!(
                "#!/bin/sh\nexec '{}' --library-path '{}' '{}' \"$@\"\n",
                loader.display(),
                libs.display(),
                entry.path().display()
            );
            write_file(&wrapper, &script)?;
            fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755))
                .map_err(|e| format!("cannot make {} executable: {e}", wrapper.display()))?;
        }
        let config = format!(
            "LLVM_ROOT = '/usr/bin'\nLLVM_ADD_VERSION = '{LLVM}'\nCLANG_ADD_VERSION = '{LLVM}'\n\
             BINARYEN_ROOT = '{}'\nNODE_JS = '{}'\nCACHE = '{}'\nFROZEN_CACHE = True\n",
            self.root.join("binaryen").display(),
            node.display(),
            self.emcc_dir().join("cache").display()
        );
        write_file(&self.root.join("em_config.py"), &config)
    }
}
