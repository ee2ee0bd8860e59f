//! `cargo xtask demo` (run the demo project) and `cargo xtask screenshots` (render each demo scene to a PNG).

use crate::commands::build::build;
use crate::godot_run::{DONE_SENTINEL, log_problem, run_logged, write_extension_list};
use crate::process::{Result, repo_root, run};
use crate::toolchain::godot::{Godot, ensure_sysroot_packages};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// GL client libraries from Debian sid that the sysroot's Godot needs to draw through Mesa (llvmpipe without a GPU).
const GL_PACKAGES: [&str; 6] = ["libgl1", "libglx0", "libglvnd0", "libglx-mesa0", "libxcb-glx0", "libxxf86vm1"];
/// The X screen the screenshots render on (the project's window is 960x540).
const XVFB_SCREEN: &str = "-screen 0 1280x720x24";

/// Builds the extension (optimized, so the stress scene's timings mean something) and runs the demo project:
/// in a window when there is a display, otherwise every scene headless through `demo_runner.gd`.
pub fn demo() -> Result {
    crate::commands::build::release_in_debug_slot()?;
    let root = repo_root();
    println!("xtask: the demo uses the release build (the next `cargo xtask build` puts the debug build back)");
    let project = root.join("godot_project");
    write_extension_list(&project)?;
    let godot = Godot::locate_or_fetch()?;
    let has_display = std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some();
    if has_display {
        println!("xtask: opening the demo in a window");
        let mut cmd = godot.command();
        if godot.in_private_sysroot() {
            gl_environment(&mut cmd)?;
        }
        return run(cmd.arg("--path").arg(&project));
    }
    println!("xtask: no display; running every demo scene headless");
    let log = root.join("target/godot-demo.log");
    let outcome = run_logged(
        godot.command().args(["--headless", "--path"]).arg(&project).args(["-s", "res://demo_runner.gd"]),
        &log,
        Duration::from_secs(300),
    )?;
    print!("{}", outcome.output);
    if let Some(problem) = log_problem(&outcome.output) {
        return Err(format!("the demo logged an error: {problem} (full log: {})", log.display()));
    }
    if !outcome.success || !outcome.output.contains(DONE_SENTINEL) {
        return Err(format!("the demo did not finish cleanly (full log: {})", log.display()));
    }
    Ok(())
}

/// Renders the menu and each demo scene to `docs/screenshots/<scene>.png` with Godot's Compatibility renderer on
/// an X server (Xvfb, so no display or GPU is needed: Mesa's llvmpipe draws), and fails on a blank render.
pub fn screenshots() -> Result {
    build(false)?;
    let root = repo_root();
    let project = root.join("godot_project");
    write_extension_list(&project)?;
    let out = root.join("docs/screenshots");
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let godot = Godot::locate_or_fetch()?;
    let mut cmd = rendering_demo_runner(&godot, &project, "--screenshots", &out)?;
    let log = root.join("target/godot-screenshots.log");
    let outcome = run_logged(&mut cmd, &log, Duration::from_secs(240))?;
    for line in outcome.output.lines().filter(|l| l.starts_with("screenshot ") || l.starts_with("TEST ")) {
        println!("{line}");
    }
    if let Some(problem) = log_problem(&outcome.output) {
        return Err(format!("the screenshot run logged an error: {problem} (full log: {})", log.display()));
    }
    if outcome.output.contains("TEST FAIL") {
        return Err(format!("a screenshot is blank or missing (full log: {})", log.display()));
    }
    if !outcome.success || !outcome.output.contains(DONE_SENTINEL) {
        return Err(format!("the screenshot run did not finish cleanly (full log: {})", log.display()));
    }
    // The editor itself: the preview and gizmo of the editor test's scene (tests/editor), in the 2D editor.
    let tests = root.join("tests");
    write_extension_list(&tests)?;
    let editor_png = out.join("editor.png");
    let mut editor_cmd = godot.command();
    if godot.in_private_sysroot() {
        gl_environment(&mut editor_cmd)?;
    }
    editor_cmd
        .env("REACH2D_EDITOR_TEST", "1")
        .env("REACH2D_EDITOR_SCREENSHOT", &editor_png)
        .args(["--editor", "--path"])
        .arg(&tests)
        .args(["--display-driver", "x11", "--rendering-driver", "opengl3", "--rendering-method", "gl_compatibility"])
        .args(["--audio-driver", "Dummy"]);
    let log = root.join("target/godot-editor-screenshot.log");
    // A windowed editor upgrades and rewrites project.godot on exit; the repository keeps its own.
    let settings = tests.join("project.godot");
    let original = std::fs::read(&settings).map_err(|e| format!("cannot read {}: {e}", settings.display()))?;
    let outcome = run_logged(&mut under_x(editor_cmd)?, &log, Duration::from_secs(240));
    std::fs::write(&settings, original).map_err(|e| format!("cannot restore {}: {e}", settings.display()))?;
    let outcome = outcome?;
    if !outcome.success || !editor_png.exists() || log_problem(&outcome.output).is_some() {
        return Err(format!("the editor screenshot failed (full log: {})", log.display()));
    }
    println!("screenshot {}", editor_png.display());
    println!("xtask: screenshots in {}", out.strip_prefix(&root).unwrap_or(&out).display());
    Ok(())
}

/// `cmd` run under a private Xvfb when `xvfb-run` is available, else on the current display.
/// The demo project's `demo_runner.gd` (`flag` `dir`: `--screenshots` or `--animate`) in a real renderer under Xvfb, at
/// a fixed 60 fps: what `screenshots` and `screenshots --animated` run.
pub(crate) fn rendering_demo_runner(godot: &Godot, project: &Path, flag: &str, dir: &Path) -> Result<Command> {
    let mut godot_cmd = godot.command();
    if godot.in_private_sysroot() {
        gl_environment(&mut godot_cmd)?;
    }
    godot_cmd
        .args(["--path"])
        .arg(project)
        .args(["--display-driver", "x11", "--rendering-driver", "opengl3", "--rendering-method", "gl_compatibility"])
        .args(["--audio-driver", "Dummy", "--fixed-fps", "60", "-s", "res://demo_runner.gd", "--", flag])
        .arg(dir);
    under_x(godot_cmd)
}

fn under_x(cmd: Command) -> Result<Command> {
    if !ensure_xvfb()? {
        println!(
            "xtask: no xvfb-run; rendering on the current display {:?}",
            std::env::var("DISPLAY").unwrap_or_default()
        );
        return Ok(cmd);
    }
    // xvfb-run starts a private X server, runs the command with DISPLAY set, and stops the server.
    let mut wrapped = Command::new("xvfb-run");
    wrapped.args(["-a", "-s", XVFB_SCREEN]).arg(cmd.get_program()).args(cmd.get_args());
    for (key, value) in cmd.get_envs() {
        match value {
            Some(value) => wrapped.env(key, value),
            None => wrapped.env_remove(key),
        };
    }
    Ok(wrapped)
}

/// Makes the sysroot's Godot use the sysroot's own GL stack (sid's glvnd and Mesa), never the host's older Mesa:
/// the sysroot's loader runs Godot with `--library-path` (its library folder first; LD_LIBRARY_PATH would also
/// reach the host's `sh` in xvfb-run and break it).
fn gl_environment(cmd: &mut Command) -> Result {
    ensure_sysroot_packages(&GL_PACKAGES)?;
    // Mesa's GLX (libGLX_mesa, libgallium) comes from the same sysroot folder through the loader's path.
    cmd.env_remove("LIBGL_DRIVERS_PATH");
    Ok(())
}

/// `true` when `xvfb-run` is available, installing Debian's `xvfb` and `xauth` first when running as root;
/// `false` when it is missing but a display is already there; an error otherwise.
fn ensure_xvfb() -> Result<bool> {
    let found = || Command::new("sh").args(["-c", "command -v xvfb-run && command -v xauth"]).output();
    if found().is_ok_and(|o| o.status.success()) {
        return Ok(true);
    }
    let is_root = Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if is_root && Path::new("/etc/debian_version").exists() {
        println!("xtask: installing xvfb and xauth (apt-get)");
        run(Command::new("apt-get").args(["install", "-y", "--no-install-recommends", "xvfb", "xauth"]))?;
        return Ok(true);
    }
    if std::env::var_os("DISPLAY").is_some() {
        return Ok(false);
    }
    Err("rendering screenshots needs an X server: install `xvfb` and `xauth` (Debian: sudo apt-get install -y xvfb xauth)".into())
}
