//! `cargo xtask screenshots --animated`: the README's moving picture, `docs/screenshots/demo.gif`. The demo project
//! renders the demos that move (`ANIMATED_SCENES` in `godot_project/demo_runner.gd`: the spider, the snake, the tail)
//! under Xvfb as `screenshots` does, writing raw RGBA frames; this encodes them, one after the other, as a looping GIF
//! (each frame's palette quantized by `gif`'s NeuQuant).

use crate::commands::build::build;
use crate::commands::demo::rendering_demo_runner;
use crate::godot_run::{DONE_SENTINEL, log_problem, run_logged, write_extension_list};
use crate::process::{Result, repo_root};
use crate::toolchain::godot::Godot;
use std::fs;
use std::path::Path;
use std::time::Duration;

/// The frames' size, as `ANIMATION_SIZE` in `demo_runner.gd`.
const WIDTH: u16 = 480;
const HEIGHT: u16 = 270;
/// Each frame shows this long (hundredths of a second): the demo runner keeps every fourth frame of 60 fps.
const DELAY: u16 = 7;

pub fn animation() -> Result {
    build(false)?;
    let root = repo_root();
    let project = root.join("godot_project");
    write_extension_list(&project)?;
    let frames = root.join("target/animation-frames");
    let _ = fs::remove_dir_all(&frames);
    fs::create_dir_all(&frames).map_err(|e| format!("cannot create {}: {e}", frames.display()))?;
    let godot = Godot::locate_or_fetch()?;
    let mut cmd = rendering_demo_runner(&godot, &project, "--animate", &frames)?;
    let log = root.join("target/godot-animation.log");
    let outcome = run_logged(&mut cmd, &log, Duration::from_secs(240))?;
    if let Some(problem) = log_problem(&outcome.output) {
        return Err(format!("the animation run logged an error: {problem} (full log: {})", log.display()));
    }
    if !outcome.success || !outcome.output.contains(DONE_SENTINEL) || outcome.output.contains("TEST FAIL") {
        return Err(format!("the animation run did not finish cleanly (full log: {})", log.display()));
    }
    let out = root.join("docs/screenshots/demo.gif");
    let count = encode(&frames, &out)?;
    let size = fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    println!("xtask: wrote {} ({count} frames, {:.1} MB)", out.display(), size as f64 / 1e6);
    Ok(())
}

/// Encodes every `*.rgba` frame in `dir`, in name order, into a looping GIF at `out`; returns the frame count.
fn encode(dir: &Path, out: &Path) -> Result<usize> {
    let mut names: Vec<_> = fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rgba"))
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(format!("no frames in {}", dir.display()));
    }
    let file = fs::File::create(out).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let mut encoder = gif::Encoder::new(file, WIDTH, HEIGHT, &[]).map_err(|e| format!("gif: {e}"))?;
    encoder.set_repeat(gif::Repeat::Infinite).map_err(|e| format!("gif: {e}"))?;
    for name in &names {
        let mut rgba = fs::read(name).map_err(|e| format!("cannot read {}: {e}", name.display()))?;
        if rgba.len() != usize::from(WIDTH) * usize::from(HEIGHT) * 4 {
            return Err(format!("{} is not a {WIDTH}x{HEIGHT} RGBA frame", name.display()));
        }
        let mut frame = gif::Frame::from_rgba_speed(WIDTH, HEIGHT, &mut rgba, 10);
        frame.delay = DELAY;
        encoder.write_frame(&frame).map_err(|e| format!("gif: {e}"))?;
    }
    Ok(names.len())
}
