//! The emscripten that the browser test builds with: Debian sid's `emscripten` (Python and JavaScript,
//! architecture `all`) with sid's clang, lld, llvm and binaryen, all fetched with a private apt into
//! `target/web-sid/` and never installed into the system.
//!
//! sid's compilers need a newer C library than Debian 12's. Each ELF program is patched (`patchelf
//! --set-interpreter`) to start with the unpacked sid loader, and runs through a wrapper script that sets
//! `LD_LIBRARY_PATH` to the unpacked sid libraries. Running clang through the loader instead (`ld.so clang`) is
//! not enough: clang derives its resource folder (its own headers) from its executable's path, which would then
//! be the loader's. emscripten finds the wrappers through its own config file (`EM_CONFIG`), which also puts its
//! cache of system libraries (built on first use: sid ships none) under `target/web-sid/em-cache`.

use crate::process::{Result, repo_root, write_file};
use crate::toolchain::debian::{self, PrivateApt};
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// sid's LLVM major version that its emscripten depends on.
const LLVM_MAJOR: &str = "21";
/// What is fetched (with the whole dependency closure): the compiler driver and its tools.
const PACKAGES: [&str; 5] = ["emscripten", "clang-21", "lld-21", "llvm-21", "binaryen"];

/// The fetched emscripten, ready to run.
pub struct Emscripten {
    /// `target/web-sid`.
    dir: PathBuf,
}

/// The private folder: `apt/`, `root/` (the unpacked packages), `llvm/` and `binaryen/bin/` (wrappers),
/// `emscripten.config`, `em-cache/`.
pub fn folder() -> PathBuf {
    repo_root().join("target/web-sid")
}

/// sid's archive, binary and source packages, configured under `target/web-sid/apt`.
pub fn sid_apt() -> Result<PrivateApt> {
    let dir = folder().join("apt");
    let apt = PrivateApt::new(dir.clone(), &["sid"], "amd64")?;
    // The template is built from Debian's sources: add the `deb-src` line beside the private `deb` one.
    let uri = debian::archive_uri().ok_or("no Debian archive in /etc/apt")?;
    let keyring = "/usr/share/keyrings/debian-archive-keyring.gpg";
    let signed = if Path::new(keyring).exists() { format!("[signed-by={keyring}] ") } else { String::new() };
    let line = format!("deb-src {signed}{uri} sid main\n");
    let parts = dir.join("parts/sources.list");
    if fs::read_to_string(&parts).ok().as_deref() != Some(line.as_str()) {
        fs::write(&parts, line).map_err(|e| format!("cannot write {}: {e}", parts.display()))?;
    }
    Ok(apt)
}

impl Emscripten {
    /// The emscripten under `target/web-sid`, fetched and set up on first use.
    pub fn ensure() -> Result<Self> {
        let dir = folder();
        let em = Emscripten { dir: dir.clone() };
        let stamp = dir.join("ready");
        if stamp.is_file() && em.root().join("usr/share/emscripten/emcc").is_file() {
            return Ok(em);
        }
        debian::ensure_host_programs("the web build's emscripten", &[("patchelf", "patchelf"), ("node", "nodejs")])?;
        println!("xtask: fetching Debian sid's emscripten, clang-{LLVM_MAJOR} and binaryen into {}", dir.display());
        let apt = sid_apt()?;
        apt.update(true)?;
        apt.fetch_closure(&PACKAGES, &em.root())?;
        em.patch_and_wrap()?;
        let config = format!(
            "LLVM_ROOT = '{}'\nBINARYEN_ROOT = '{}'\nNODE_JS = '{}'\nCACHE = '{}'\n",
            dir.join("llvm").display(),
            dir.join("binaryen").display(),
            debian::which("node").ok_or("node is not on PATH")?.display(),
            dir.join("em-cache").display(),
        );
        write_file(&em.config(), &config)?;
        // A first compile proves the chain works (and builds emscripten's libc into its cache).
        let probe = dir.join("probe");
        fs::create_dir_all(&probe).map_err(|e| format!("cannot create {}: {e}", probe.display()))?;
        write_file(&probe.join("probe.c"), "int main(void) { return 0; }\n")?;
        crate::process::run(em.command("emcc").current_dir(&probe).args(["probe.c", "-o", "probe.js"]))
            .map_err(|e| format!("sid's emscripten does not compile a C file: {e}"))?;
        write_file(&stamp, &em.version()?)?;
        Ok(em)
    }

    fn root(&self) -> PathBuf {
        self.dir.join("root")
    }

    fn config(&self) -> PathBuf {
        self.dir.join("emscripten.config")
    }

    /// The folder that holds `emcc`, `em++` and the other drivers.
    pub fn bin(&self) -> PathBuf {
        self.root().join("usr/share/emscripten")
    }

    /// emscripten's version (`6.0.5`).
    pub fn version(&self) -> Result<String> {
        let file = self.bin().join("emscripten-version.txt");
        let text = fs::read_to_string(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        Ok(text.trim().trim_matches('"').to_string())
    }

    /// Sets `EM_CONFIG` and puts emcc on `PATH` for `cmd`.
    pub fn configure(&self, cmd: &mut Command) -> Result {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let paths = std::iter::once(self.bin()).chain(std::env::split_paths(&path));
        cmd.env("PATH", std::env::join_paths(paths).map_err(|e| e.to_string())?);
        cmd.env("EM_CONFIG", self.config());
        Ok(())
    }

    /// One of emscripten's drivers (`emcc`, `em++`, ...), configured.
    pub fn command(&self, driver: &str) -> Command {
        let mut cmd = Command::new(self.bin().join(driver));
        cmd.env("EM_CONFIG", self.config());
        cmd
    }

    /// Points each sid ELF program at sid's loader and writes a wrapper for it that sets the library path.
    fn patch_and_wrap(&self) -> Result {
        let root = self.root();
        let lib = root.join("usr/lib/x86_64-linux-gnu");
        let loader = lib.join("ld-linux-x86-64.so.2");
        let libs = format!("{}:{}", lib.display(), root.join(format!("usr/lib/llvm-{LLVM_MAJOR}/lib")).display());
        let llvm_bin = root.join(format!("usr/lib/llvm-{LLVM_MAJOR}/bin"));
        let binaryen: Vec<PathBuf> = entries(&root.join("usr/bin"))?
            .into_iter()
            .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("wasm")))
            .collect();
        for (programs, wrappers) in
            [(entries(&llvm_bin)?, self.dir.join("llvm")), (binaryen, self.dir.join("binaryen/bin"))]
        {
            let _ = fs::remove_dir_all(&wrappers);
            fs::create_dir_all(&wrappers).map_err(|e| format!("cannot create {}: {e}", wrappers.display()))?;
            for program in programs {
                let real = fs::canonicalize(&program).map_err(|e| format!("{}: {e}", program.display()))?;
                if is_elf(&real) && !real.ends_with(loader.file_name().unwrap_or_default()) {
                    // Idempotent: setting the same interpreter twice is harmless.
                    crate::process::run(Command::new("patchelf").arg("--set-interpreter").arg(&loader).arg(&real))?;
                }
                let Some(name) = program.file_name() else { continue };
                let wrapper = wrappers.join(name);
                write_file(
                    &wrapper,
                    &format!("#!/bin/sh\nLD_LIBRARY_PATH={libs} exec {} \"$@\"\n", program.display()),
                )?;
                fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755))
                    .map_err(|e| format!("cannot make {} executable: {e}", wrapper.display()))?;
            }
        }
        Ok(())
    }
}

fn entries(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .collect();
    out.sort();
    Ok(out)
}

fn is_elf(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 4];
    fs::File::open(path).and_then(|mut f| f.read_exact(&mut magic)).is_ok() && magic == *b"\x7fELF"
}
