//! `cargo xtask package`: a zip that a user unpacks into the root of their own Godot project.

use crate::commands::build::compile_all;
use crate::platform::Platform;
use crate::process::{Result, repo_root};
use std::io::Write;
use std::path::{Path, PathBuf};
use zip::write::SimpleFileOptions;

/// Builds every platform's release library, checks each (`verify.rs`), and writes the zip; returns its path.
pub fn package() -> Result<PathBuf> {
    let mut libraries = Vec::new();
    for (platform, library) in Platform::ALL.into_iter().zip(compile_all(&Platform::ALL, true)) {
        let library = library?;
        println!("xtask: checked {}", crate::verify::check(platform, &library)?);
        libraries.push((platform, library));
    }
    let out = dist_dir()?.join(format!("reach2d-{}.zip", env!("CARGO_PKG_VERSION")));
    write_zip(&out, &libraries)?;
    Ok(out)
}

/// `dist/`, created.
pub fn dist_dir() -> Result<PathBuf> {
    let dist = repo_root().join("dist");
    std::fs::create_dir_all(&dist).map_err(|e| format!("cannot create {}: {e}", dist.display()))?;
    Ok(dist)
}

/// Writes `out`: `addons/reach2d/` as it is in the repository (without `bin/`, editor caches and `.uid` files),
/// plus `libraries` (built and checked release libraries, each under its release and debug names).
pub fn write_zip(out: &Path, libraries: &[(Platform, PathBuf)]) -> Result {
    let addon = repo_root().join("addons/reach2d");
    let file = std::fs::File::create(out).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let mut zip = zip::ZipWriter::new(file);
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let mut count = 0;
    add_dir(&mut zip, &addon, "addons/reach2d", options, &mut count)?;
    // The editor and debug exports load the `debug` entry: ship the optimized library under both names, so users
    // never carry a large unoptimized build.
    for (platform, library) in libraries {
        if library.is_dir() {
            // The iOS `.xcframework`: a folder.
            for name in [platform.library_name(false), platform.library_name(true)] {
                add_dir(&mut zip, library, &format!("addons/reach2d/bin/{name}"), options, &mut count)?;
            }
            continue;
        }
        let bytes = std::fs::read(library).map_err(|e| format!("cannot read {}: {e}", library.display()))?;
        for name in [platform.library_name(false), platform.library_name(true)] {
            zip.start_file(format!("addons/reach2d/bin/{name}"), options).map_err(|e| e.to_string())?;
            zip.write_all(&bytes).map_err(|e| e.to_string())?;
            count += 1;
        }
    }
    zip.finish().map_err(|e| format!("cannot finish {}: {e}", out.display()))?;
    let size = std::fs::metadata(out).map(|m| m.len() as f64 / 1e6).unwrap_or(0.0);
    println!("xtask: wrote {} ({count} files, {size:.1} MB); unzip it into your Godot project's folder", out.display());
    Ok(())
}

fn add_dir(
    zip: &mut zip::ZipWriter<std::fs::File>,
    dir: &Path,
    prefix: &str,
    options: SimpleFileOptions,
    count: &mut usize,
) -> Result {
    let mut entries: Vec<_> =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        // Editor caches and half-copied libraries are not part of the addon.
        if name.starts_with('.') || name.ends_with(".import") || name.ends_with(".uid") || name == "bin" {
            continue;
        }
        let path = entry.path();
        let inner = format!("{prefix}/{name}");
        if path.is_dir() {
            add_dir(zip, &path, &inner, options, count)?;
        } else {
            let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            zip.start_file(inner.as_str(), options).map_err(|e| e.to_string())?;
            zip.write_all(&bytes).map_err(|e| e.to_string())?;
            *count += 1;
        }
    }
    Ok(())
}
