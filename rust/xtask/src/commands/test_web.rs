//! `cargo xtask test --web [--threads]`: the web build proven in a real browser.
//!
//! 1. `toolchain/emscripten_sid.rs`: Debian sid's emscripten 6.0.5 (clang-21, binaryen 131), fetched into `target/web-sid`.
//! 2. `toolchain/web_template.rs`: a Godot web export template with GDExtension support (`dlink_enabled=yes`, without threads or with), built
//!    with that emscripten from Debian's source of the same Godot the tests run in, cached in
//!    `~/.cache/reach2d/web-template/` and rebuilt only when missing.
//! 3. The shipped web library (`cargo xtask build --target web`'s release build, emscripten 3.1.69) of the same
//!    variant, placed with the shipped `reach2d.gdextension` in a copy of the small project `tests/web/project`,
//!    which the headless Godot editor exports for the web with the template.
//! 4. [`browser`]: the export served on 127.0.0.1 and opened in headless Chromium; the test reads the page's
//!    console and fails unless every node solved within tolerance, the sentinel came and no error was logged.
//!
//! `REACH2D_WEB_WASM=/path/to/lib.wasm` tests a side module built elsewhere in the same template instead.

mod browser;

use crate::commands::build::compile;
use crate::platform::Platform;
use crate::process::{Result, copy_dir, repo_root, write_file};
use crate::toolchain::godot::Godot;
use crate::toolchain::web_template;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The last line the web test scene prints when every node ran.
pub const SENTINEL: &str = "REACH2D_WEB_DONE";
/// How long the page may take, from navigation to the sentinel.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(120);
/// How far (px) past the tolerance the scene prints for a node its worst tip error may be: float32 rounding.
const SLACK_PX: f64 = 0.01;
/// The five nodes, each of which must report a result line.
const NODES: [&str; 5] = ["FabrikChain2D", "CcdChain2D", "TwoBoneIk2D", "LookAt2D", "SpringChain2D"];

/// `cargo xtask test --web [--threads]`: the no-threads variant, or the threads one.
pub fn test_web(threads: bool) -> Result {
    let summary = run(threads)?;
    println!("xtask: web test passed in Chromium: {summary}");
    println!("1 passed, 0 failed");
    Ok(())
}

/// `cargo xtask test`'s browser stage: the no-threads variant, when a template is cached (building one takes
/// about 17 minutes on two cores, which a cold CI run does not spend); returns `None` when it was skipped.
pub fn stage(godot: &Godot) -> Result<Option<Result<String>>> {
    let version = godot.version().ok_or("Godot does not start")?;
    if web_template::cached(&version, false)?.is_none() {
        println!(
            "xtask: browser test skipped: no Godot {version} web template is cached (`cargo xtask test --web` builds \
             one once, then `cargo xtask test` runs it every time)"
        );
        return Ok(None);
    }
    Ok(Some(run(false)))
}

/// Exports and runs the web test project in Chromium; returns what it measured.
fn run(threads: bool) -> Result<String> {
    let started = Instant::now();
    let godot = Godot::locate_or_fetch()?;
    let godot_version = godot.version().ok_or("Godot does not start")?;
    let template = web_template::ensure(&godot_version, threads)?;
    // The library users get: the release build `cargo xtask package` ships (emscripten 3.1.69).
    let wasm = match std::env::var_os("REACH2D_WEB_WASM") {
        Some(path) => PathBuf::from(path),
        None => compile(if threads { Platform::WebThreads } else { Platform::Web }, true)?,
    };
    let size = fs::metadata(&wasm).map_err(|e| format!("{}: {e}", wasm.display()))?.len();
    println!("xtask: web side module {} ({} KB)", wasm.display(), size / 1024);
    let out = export(&godot, &template, &wasm, threads)?;
    let console = browser::run_page(&out, "index.html", SENTINEL, BROWSER_TIMEOUT)?;
    let log = repo_root().join("target/web-test/console.log");
    write_file(&log, &console.join("\n"))?;
    let frame = check(&console).map_err(|e| format!("{e}\n(the page's console is in {})", log.display()))?;
    Ok(format!(
        "5 nodes within tolerance, {frame}, {} KB side module, {:.0} s",
        size / 1024,
        started.elapsed().as_secs_f64()
    ))
}

/// Copies `tests/web/project` to `target/web-test/project` with the addon's icons and `wasm`, and exports it for
/// the web with `template`; returns the export folder.
fn export(godot: &Godot, template: &Path, wasm: &Path, threads: bool) -> Result<PathBuf> {
    let root = repo_root();
    let work = root.join("target/web-test");
    let project = work.join("project");
    let out = work.join("export");
    let _ = fs::remove_dir_all(&project);
    let _ = fs::remove_dir_all(&out);
    copy_dir(&root.join("tests/web/project"), &project)?;
    // The shipped extension file, so its web entries are what the export follows.
    let addon = project.join("addons/reach2d");
    copy_dir(&root.join("addons/reach2d/icons"), &addon.join("icons"))?;
    let shipped = root.join("addons/reach2d/reach2d.gdextension");
    let config = fs::read_to_string(&shipped).map_err(|e| format!("cannot read {}: {e}", shipped.display()))?;
    write_file(&addon.join("reach2d.gdextension"), &config)?;
    let keys = if threads {
        ["web.release.threads.wasm32", "web.debug.threads.wasm32"]
    } else {
        ["web.release.wasm32", "web.debug.wasm32"]
    };
    for key in keys {
        let path = library_path(&config, key).ok_or_else(|| format!("{} has no `{key}` entry", shipped.display()))?;
        let dest = addon.join(path);
        fs::create_dir_all(dest.parent().unwrap_or(&addon)).map_err(|e| e.to_string())?;
        fs::copy(wasm, &dest).map_err(|e| format!("cannot copy {}: {e}", wasm.display()))?;
    }
    crate::godot_run::write_extension_list(&project)?;
    let template = template.display().to_string();
    let presets = fs::read_to_string(project.join("export_presets.cfg")).map_err(|e| e.to_string())?;
    let presets = presets
        .replace("@TEMPLATE@", &template)
        .replace("variant/thread_support=false", &format!("variant/thread_support={threads}"));
    write_file(&project.join("export_presets.cfg"), &presets)?;
    fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    // The first run imports the project (its .godot folder), the second exports.
    let timeout = Duration::from_secs(300);
    let import = crate::godot_run::run_logged(
        godot.command().args(["--headless", "--path"]).arg(&project).arg("--import"),
        &work.join("import.log"),
        timeout,
    )?;
    if import.timed_out {
        return Err(format!("the web project's import timed out (log: {})", work.join("import.log").display()));
    }
    let log = work.join("export.log");
    let run = crate::godot_run::run_logged(
        godot
            .command()
            .args(["--headless", "--path"])
            .arg(&project)
            .args(["--export-release", "Web"])
            .arg(out.join("index.html")),
        &log,
        timeout,
    )?;
    let exported = out.join("index.pck").is_file() && out.join("index.wasm").is_file();
    if !run.success || !exported {
        return Err(format!("the web export failed (log: {}):\n{}", log.display(), tail(&run.output, 30)));
    }
    let side = fs::read_dir(&out)
        .map_err(|e| e.to_string())?
        .flatten()
        .any(|e| e.file_name().to_string_lossy().contains("reach2d"));
    if !side {
        return Err(format!("the web export holds no Reach2D side module (log: {})", log.display()));
    }
    Ok(out)
}

/// The library path (relative to the `.gdextension` file) of the entry `key` in `config`.
fn library_path<'a>(config: &'a str, key: &str) -> Option<&'a str> {
    config.lines().find_map(|line| {
        let (k, v) = line.split_once('=')?;
        (k.trim() == key).then(|| v.trim().trim_matches('"'))
    })
}

/// Checks the console lines: every node's result within tolerance, a frame time, the sentinel, no error; returns
/// the frame time line.
fn check(console: &[String]) -> Result<String> {
    let mut problems = Vec::new();
    for line in console {
        let lower = line.to_lowercase();
        if lower.contains("error") || lower.contains("panic") || lower.contains("abort") || lower.contains("failed") {
            problems.push(format!("error logged: {line}"));
        }
    }
    for node in NODES {
        let prefix = format!("WEB {node} ");
        match console.iter().find_map(|l| l.split_once(&prefix).map(|(_, rest)| rest.to_string())) {
            None => problems.push(format!("{node}: no result line")),
            Some(rest) => {
                let solved = rest.split_whitespace().find_map(|w| w.strip_prefix("solved="));
                let all_solved = solved.and_then(|s| s.split_once('/')).is_some_and(|(a, b)| a == b);
                match (field(&rest, "worst_tip_px"), field(&rest, "tolerance")) {
                    (Some(e), Some(t)) if e <= t + SLACK_PX && all_solved => println!("xtask: web {node}: {rest}"),
                    (Some(_), Some(_)) => problems.push(format!("{node}: beyond its tolerance or not solved: {rest}")),
                    _ => problems.push(format!("{node}: unreadable result `{rest}`")),
                }
            }
        }
    }
    let frame = console.iter().find_map(|l| l.split_once("WEB frame ").map(|(_, rest)| rest.trim().to_string()));
    if frame.is_none() {
        problems.push("no frame time line".into());
    }
    if !console.iter().any(|l| l.contains(SENTINEL)) {
        problems.push(format!("no {SENTINEL} line"));
    }
    match frame {
        Some(frame) if problems.is_empty() => Ok(frame),
        _ => Err(format!("the web test failed:\n  {}", problems.join("\n  "))),
    }
}

/// The number after `name=` in `text`.
fn field(text: &str, name: &str) -> Option<f64> {
    let rest = text.split_once(&format!("{name}="))?.1;
    rest.split_whitespace().next()?.parse().ok()
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}
