//! `cargo xtask platforms` (also a stage of `cargo xtask test`): every platform's release library is built and
//! checked (`verify.rs`); the libraries that this machine can run are loaded by a tiny native loader of their
//! platform (`native/load_library.c`: LoadLibrary/GetProcAddress under Wine, dlopen under qemu-aarch64 and
//! natively, and dlopen in an emscripten main module under Node.js for each web variant); and the solver core's
//! whole test suite runs as a Windows program under Wine, as an arm64 program under qemu and as a wasm program
//! under Node.js. macOS, Android and iOS cannot run here (nothing here runs bionic or Apple's OSes), so their
//! libraries are checked statically only (`verify/`).

use crate::platform::Platform;
use crate::process::{Result, repo_root};
use crate::tally::{Tally, run_cargo_test};
use crate::toolchain::cross::{ARM64_SYSROOT, CROSS_TARGET_DIR, cargo_for, cross_args, target_dir, web_tests_dir};
use crate::toolchain::debian::{ensure_host_programs, which};
use crate::toolchain::emscripten::Emscripten;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The standalone command (`platforms [PLATFORM]`): the stage below, for every platform or the named ones, with
/// its own summary.
pub fn platforms(args: &[String]) -> Result {
    let only = match args.first() {
        Some(name) => Platform::parse(name)?,
        None => Platform::ALL.to_vec(),
    };
    let mut tally = Tally::default();
    run_stage(&mut tally, &only)?;
    for failure in &tally.failures {
        println!("  FAILED {failure}");
    }
    println!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.failed > 0 { Err(format!("{} platform checks failed", tally.failed)) } else { Ok(()) }
}

/// Builds and checks `platforms`, adding each check to `tally`. A platform whose build or tools fail counts as a
/// failure and the others still run. Each platform is checked as soon as it is built; under CI (`CI` set, as
/// `.ci/run` does) its build folder is then deleted, since all the platforms' folders together need about 20 GB.
pub fn run_stage(tally: &mut Tally, platforms: &[Platform]) -> Result {
    let started = std::time::Instant::now();
    let lean = crate::process::in_ci();
    let mut outcome = Ok(());
    crate::commands::build::compile_each(platforms, true, |platform, library| {
        if outcome.is_ok() {
            outcome = check_platform(tally, platform, library);
        }
        if lean {
            for folder in build_folders(platform) {
                let _ = fs::remove_dir_all(&folder);
            }
        }
    });
    println!("xtask: platforms stage took {:.0} s", started.elapsed().as_secs_f64());
    outcome
}

/// The folders that only `platform`'s own builds fill (its `std`, dependencies and library; for the web, its test
/// program's too): what a CI run deletes once the platform is checked. Empty for the host, whose release folder
/// the benchmark shares.
fn build_folders(platform: Platform) -> Vec<PathBuf> {
    let cross = repo_root().join(CROSS_TARGET_DIR);
    match platform {
        _ if Platform::host() == Some(platform) => Vec::new(),
        Platform::Web => vec![target_dir(platform), web_tests_dir()],
        Platform::WebThreads => vec![target_dir(platform)],
        Platform::Ios => crate::toolchain::ios::slice_dirs(),
        // cargo-zigbuild builds each architecture in its own folder, then joins them.
        Platform::MacOs => ["x86_64-apple-darwin", "aarch64-apple-darwin", platform.rust_target()]
            .into_iter()
            .map(|triple| cross.join(triple))
            .collect(),
        _ => vec![cross.join(platform.rust_target())],
    }
}

/// The checks of one platform's freshly built `library`: its file (`verify/`), a load in the platform's own
/// loader where this machine runs its programs, and the solver core's tests as a program of the platform.
fn check_platform(tally: &mut Tally, platform: Platform, library: Result<PathBuf>) -> Result {
    let checked = library.as_ref().map_err(Clone::clone).and_then(|lib| crate::verify::check(platform, lib));
    let ok = checked.is_ok();
    tally.check(&format!("{} release library", platform.name()), checked);
    if let (true, Ok(library)) = (ok, &library) {
        match runner(platform) {
            Ok(Some(runner)) => {
                tally.check(&format!("{} library loads", platform.name()), load_test(platform, &runner, library))
            }
            Ok(None) => {}
            Err(e) => tally.check(&format!("{} library loads", platform.name()), Err(e)),
        }
    }
    if ![Platform::WindowsX86_64, Platform::LinuxArm64, Platform::Web].contains(&platform) {
        return Ok(());
    }
    let label = format!("reach2d_core on {}", platform.name());
    let (runner, mut cmd) = match (runner(platform), cargo_for(platform)) {
        (Ok(Some(runner)), Ok(cmd)) => (runner, cmd),
        (Err(e), _) | (_, Err(e)) => {
            tally.check(&label, Err(e));
            return Ok(());
        }
        (Ok(None), _) => return Ok(()),
    };
    println!("xtask: the solver core's tests as a {} program", platform.name());
    runner.apply_to(&mut cmd, platform);
    cmd.args(["test", "-p", "reach2d_core", "--no-fail-fast"]).args(cross_args(platform));
    if platform.is_web() {
        // A plain wasm program, not a side module: panics unwind (wasm exceptions, which Node.js runs) so a
        // failing test is reported like on every other platform; proptest needs more than emscripten's 64 KB
        // default stack. Its own folder keeps the side module's `std` built.
        cmd.env("CARGO_TARGET_DIR", web_tests_dir()).env("RUSTFLAGS", "-C link-args=-sSTACK_SIZE=8MB");
    }
    run_cargo_test(&mut cmd, &label, tally)
}

/// How this machine runs a program of a platform.
enum Runner {
    /// Directly: the host's own platform.
    Native,
    /// Through an emulator (Wine, qemu-aarch64) with the environment it needs.
    Emulated { program: PathBuf, env: Vec<(&'static str, String)> },
}

impl Runner {
    /// A command that runs `exe` with this runner.
    fn command(&self, exe: &Path) -> Command {
        match self {
            Runner::Native => Command::new(exe),
            Runner::Emulated { program, env } => {
                let mut cmd = Command::new(program);
                cmd.envs(env.iter().map(|(k, v)| (k, v))).arg(exe);
                cmd
            }
        }
    }

    /// Makes `cargo test` for `platform` run its test binaries through this runner.
    fn apply_to(&self, cmd: &mut Command, platform: Platform) {
        if let Runner::Emulated { program, env } = self {
            let key = format!("CARGO_TARGET_{}_RUNNER", platform.rust_target().to_uppercase().replace('-', "_"));
            cmd.env(key, program).envs(env.iter().map(|(k, v)| (k, v)));
        }
    }
}

/// The runner for `platform`'s programs on this machine, or `None` when nothing here runs them (macOS).
fn runner(platform: Platform) -> Result<Option<Runner>> {
    if Platform::host() == Some(platform) {
        return Ok(Some(Runner::Native));
    }
    Ok(match platform {
        Platform::WindowsX86_64 => Some(wine()?),
        Platform::LinuxArm64 => {
            ensure_host_programs("running arm64 programs", &[("qemu-aarch64", "qemu-user")])?;
            let program = which("qemu-aarch64").ok_or("qemu-aarch64 is not on PATH")?;
            Some(Runner::Emulated { program, env: vec![("QEMU_LD_PREFIX", ARM64_SYSROOT.into())] })
        }
        Platform::Web | Platform::WebThreads => {
            let program = which("node").ok_or("running web programs needs Node.js (`node` on PATH)")?;
            Some(Runner::Emulated { program, env: Vec::new() })
        }
        _ => None,
    })
}

/// Wine with a private prefix (`target/wine-prefix`) that has the `ProcessPrng` Wine 8 lacks.
fn wine() -> Result<Runner> {
    const DEBIAN_WINE64: &str = "/usr/lib/wine/wine64";
    let find = || which("wine64").or_else(|| which(DEBIAN_WINE64)).or_else(|| which("wine"));
    if find().is_none() {
        ensure_host_programs("running Windows programs", &[(DEBIAN_WINE64, "wine64")])?;
    }
    let program = find().ok_or("Wine is not installed")?;
    let prefix = repo_root().join("target/wine-prefix");
    let env = vec![
        ("WINEPREFIX", prefix.display().to_string()),
        ("WINEDEBUG", "-all".to_string()),
        // No Mono or Gecko installer dialogs; our ProcessPrng before Wine's own (absent) one.
        ("WINEDLLOVERRIDES", "mscoree,mshtml=;bcryptprimitives=n,b".to_string()),
    ];
    let system32 = prefix.join("drive_c/windows/system32");
    let stub = system32.join("bcryptprimitives.dll");
    let server = program.with_file_name("wineserver");
    let runner = Runner::Emulated { program, env };
    if !stub.exists() {
        println!("xtask: preparing the Wine prefix {}", prefix.display());
        if !system32.exists() {
            crate::process::run(runner.command(Path::new("wineboot")).arg("--init"))?;
            // wineboot returns before its wineserver has written the prefix out.
            let mut wait = Command::new(if server.exists() { server } else { PathBuf::from("wineserver") });
            let _ = wait.arg("--wait").env("WINEPREFIX", &prefix).status();
        }
        let built =
            compile_c(Platform::WindowsX86_64, "process_prng.c", "bcryptprimitives.dll", &["-shared", "-ladvapi32"])?;
        fs::copy(&built, &stub).map_err(|e| format!("cannot install {}: {e}", stub.display()))?;
    }
    Ok(runner)
}

/// Compiles one of `rust/xtask/native/*.c` for `platform` into `target/cross/native/<platform>/OUTPUT`.
///
/// For the web, the program is an emscripten *main module* (as Godot's web template is one) that reaches the
/// host's files directly (`NODERAWFS`), built with the same emscripten as the library, threaded for the threaded
/// variant.
fn compile_c(platform: Platform, source: &str, output: &str, flags: &[&str]) -> Result<PathBuf> {
    let root = repo_root();
    let out_dir = root.join("target/cross/native").join(platform.name());
    fs::create_dir_all(&out_dir).map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    let out = out_dir.join(output);
    let mut cmd = match platform {
        Platform::WindowsX86_64 => Command::new("x86_64-w64-mingw32-gcc"),
        Platform::LinuxArm64 => Command::new("aarch64-linux-gnu-gcc"),
        Platform::Web | Platform::WebThreads => {
            let mut cmd = Emscripten::locate_or_fetch()?.emcc()?;
            cmd.args(["-sMAIN_MODULE=1", "-sNODERAWFS=1"]);
            if platform == Platform::WebThreads {
                cmd.args(["-pthread", "-Wno-experimental"]);
            }
            cmd
        }
        _ => Command::new("cc"),
    };
    cmd.arg("-O2").arg("-o").arg(&out).arg(root.join("rust/xtask/native").join(source));
    // Libraries go after the sources for the GNU linker.
    cmd.args(flags);
    if platform == Platform::LinuxX86_64 || platform == Platform::LinuxArm64 {
        cmd.arg("-ldl");
    }
    crate::process::run(&mut cmd)?;
    Ok(out)
}

/// Loads `library` in the platform's native loader program, under `runner`, and looks up Godot's entry symbol.
fn load_test(platform: Platform, runner: &Runner, library: &Path) -> Result<String> {
    let exe = match platform {
        Platform::WindowsX86_64 => "load_library.exe",
        Platform::Web | Platform::WebThreads => "load_library.js",
        _ => "load_library",
    };
    let loader = compile_c(platform, "load_library.c", exe, &[])?;
    // Side by side in one folder, so the loader finds the library by its file name on every platform.
    let dir = loader.parent().expect("the loader is in a folder");
    let name = platform.library_name(true);
    fs::copy(library, dir.join(&name)).map_err(|e| format!("cannot copy the library: {e}"))?;
    let mut cmd = runner.command(&loader);
    let path = if platform == Platform::WindowsX86_64 { name.clone() } else { format!("./{name}") };
    let out = cmd
        .current_dir(dir)
        .arg(&path)
        .arg(crate::library::ENTRY_SYMBOL)
        .output()
        .map_err(|e| format!("cannot start the loader: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if out.status.success() && text.starts_with("loaded ") {
        Ok(text)
    } else {
        Err(format!("{text} {}", String::from_utf8_lossy(&out.stderr).trim()))
    }
}
