//! `cargo xtask release [--tag vX.Y.Z] [--skip-build]`: the files a GitHub release carries, in `dist/`:
//! - `reach2d-<version>.zip`: `cargo xtask package` (every platform's release library, each checked), then checked
//!   as the Asset Library takes it (`release_check/zip_check.rs`);
//! - `SHA256SUMS`: the zip's digest, in `sha256sum -c`'s format;
//! - `RELEASE_NOTES.md`: the CHANGELOG's section of the version.
//!
//! Before anything is built, the versions must agree (Cargo, `plugin.cfg`, the CHANGELOG's newest heading, the Asset
//! Library fields), the notes must exist, the Asset Library fields must be complete and, with `--tag` (what
//! `.github/workflows/release.yml` passes), the tag must be `v<version>`.
//!
//! `--skip-build` packages no library (`reach2d-<version>-nolibs.zip`, never for publishing): the same checks,
//! save that the libraries must be there, in seconds instead of half an hour of cross builds.

use crate::commands::package::{dist_dir, package, write_zip};
use crate::process::{Result, repo_root, write_file};
use crate::release_check::{
    check_asset_library, check_versions, release_notes, sha256::sha256_hex, zip_check::check_zip,
};
use std::path::Path;

/// Runs the release; see the module documentation.
pub fn release(tag: Option<&str>, skip_build: bool) -> Result {
    let root = repo_root();
    let version = check_versions(&root)?;
    if let Some(tag) = tag
        && tag.trim_start_matches("refs/tags/") != format!("v{version}")
    {
        return Err(format!("the tag {tag} is not v{version}, the version in Cargo.toml, plugin.cfg and CHANGELOG.md"));
    }
    let changelog =
        std::fs::read_to_string(root.join("CHANGELOG.md")).map_err(|e| format!("cannot read CHANGELOG.md: {e}"))?;
    let notes = release_notes(&changelog, &version)?;
    println!("xtask: version {version}; Asset Library fields: {}", check_asset_library(&root)?);
    let zip = if skip_build {
        let out = dist_dir()?.join(format!("reach2d-{version}-nolibs.zip"));
        write_zip(&out, &[])?;
        out
    } else {
        package()?
    };
    finish(&zip, &version, &notes, !skip_build)
}

/// Checks `zip` and writes `SHA256SUMS` and `RELEASE_NOTES.md` beside it.
pub fn finish(zip: &Path, version: &str, notes: &str, libraries: bool) -> Result {
    let bytes = std::fs::read(zip).map_err(|e| format!("cannot read {}: {e}", zip.display()))?;
    let summary = check_zip(&bytes, version, libraries)
        .map_err(|problems| format!("{} is not what the Asset Library takes:\n{problems}", zip.display()))?;
    println!("xtask: checked {}: {summary}", zip.display());
    let dir = zip.parent().ok_or("the zip has no folder")?;
    let name = zip.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    write_file(&dir.join("SHA256SUMS"), &format!("{}  {name}\n", sha256_hex(&bytes)))?;
    write_file(&dir.join("RELEASE_NOTES.md"), notes)?;
    println!("xtask: wrote {0}/SHA256SUMS and {0}/RELEASE_NOTES.md", dir.display());
    if !libraries {
        println!("xtask: --skip-build: {name} holds no library; not for publishing");
    }
    Ok(())
}
