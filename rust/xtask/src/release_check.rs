//! What a release is made of, checked without building anything: one version everywhere (`Cargo.toml`,
//! `plugin.cfg`, the CHANGELOG's newest heading, the Asset Library fields), the release notes (the CHANGELOG's
//! section of the version), the Asset Library's submission fields (`dist-meta/asset_library.cfg`), and the zip's
//! layout (`zip_check`). `commands/release.rs` runs them around `cargo xtask package`.

pub mod sha256;
pub mod zip_check;

use crate::process::Result;
use std::path::Path;

/// The Asset Library's submission fields, from the repository root.
pub const ASSET_LIBRARY_CFG: &str = "dist-meta/asset_library.cfg";

/// The value of `key` in the section `[section]` of an INI-like file (`Cargo.toml`, a Godot `.cfg`), unquoted.
pub fn ini_value(text: &str, section: &str, key: &str) -> Option<String> {
    let mut current = String::new();
    for line in text.lines().map(str::trim) {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            current = name.trim().to_string();
        } else if current == section
            && let Some((k, v)) = line.split_once('=')
            && k.trim() == key
        {
            return Some(v.trim().trim_matches('"').to_string());
        }
    }
    None
}

/// The version of the newest release heading of a CHANGELOG (`## 0.2.0` or `## [0.2.0]`, optionally followed by
/// ` - date` or ` (date)`); an `## Unreleased` section above it is allowed.
pub fn changelog_version(changelog: &str) -> Option<String> {
    changelog.lines().filter_map(heading_version).next()
}

fn heading_version(line: &str) -> Option<String> {
    let rest = line.strip_prefix("## ")?.trim();
    let rest = rest.strip_prefix('[').unwrap_or(rest);
    let version: String =
        rest.chars().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+')).collect();
    let after = rest[version.len()..].trim_start();
    let well_formed = version.split('.').count() == 3 && version.starts_with(|c: char| c.is_ascii_digit());
    (well_formed && (after.is_empty() || after.starts_with([']', '-', '(', '—'])))
        .then(|| version.trim_end_matches('-').to_string())
}

/// The release notes: the text of the CHANGELOG's section for `version`, up to the next `## ` heading.
pub fn release_notes(changelog: &str, version: &str) -> Result<String> {
    let mut lines = changelog.lines().skip_while(|l| heading_version(l).as_deref() != Some(version));
    if lines.next().is_none() {
        return Err(format!("CHANGELOG.md has no `## {version}` section for the release notes"));
    }
    let body: Vec<&str> = lines.take_while(|l| !l.starts_with("## ")).collect();
    let notes = body.join("\n").trim().to_string();
    if notes.is_empty() {
        return Err(format!("CHANGELOG.md's `## {version}` section is empty"));
    }
    Ok(notes + "\n")
}

/// Checks that the workspace version, `plugin.cfg`, the CHANGELOG and the Asset Library fields name one version;
/// returns it.
pub fn check_versions(root: &Path) -> Result<String> {
    let read = |rel: &str| std::fs::read_to_string(root.join(rel)).map_err(|e| format!("cannot read {rel}: {e}"));
    let cargo = ini_value(&read("Cargo.toml")?, "workspace.package", "version")
        .ok_or("Cargo.toml has no [workspace.package] version")?;
    let found = [
        ("addons/reach2d/plugin.cfg", ini_value(&read("addons/reach2d/plugin.cfg")?, "plugin", "version")),
        ("CHANGELOG.md (its newest `## X.Y.Z` or `## [X.Y.Z]` heading)", changelog_version(&read("CHANGELOG.md")?)),
        (ASSET_LIBRARY_CFG, ini_value(&read(ASSET_LIBRARY_CFG)?, "asset", "version")),
    ];
    let wrong: Vec<String> = found
        .iter()
        .filter(|(_, v)| v.as_deref() != Some(cargo.as_str()))
        .map(|(file, v)| format!("{file} says {}", v.as_deref().unwrap_or("nothing")))
        .collect();
    if wrong.is_empty() {
        Ok(cargo)
    } else {
        Err(format!("the versions disagree: Cargo.toml says {cargo}, but {}", wrong.join("; ")))
    }
}

/// The Asset Library's fields: what a submission asks for (see <https://docs.godotengine.org/en/stable/community/asset_library/submitting_to_assetlib.html>).
pub const ASSET_FIELDS: [&str; 9] =
    ["title", "version", "category", "godot_version", "license", "repository", "issues", "icon", "description"];

/// The categories the Asset Library offers for addons.
const CATEGORIES: [&str; 7] = ["2D Tools", "3D Tools", "Shaders", "Materials", "Tools", "Scripts", "Misc"];

/// Checks the Asset Library fields in `root`: every field filled in, a known category, a Godot version of the form
/// 4.x, a square PNG icon of at least 64 px in the repository, the license the workspace declares.
pub fn check_asset_library(root: &Path) -> Result<String> {
    let text = std::fs::read_to_string(root.join(ASSET_LIBRARY_CFG))
        .map_err(|e| format!("cannot read {ASSET_LIBRARY_CFG}: {e}"))?;
    let field = |k: &str| ini_value(&text, "asset", k).filter(|v| !v.is_empty());
    let missing: Vec<&str> = ASSET_FIELDS.iter().copied().filter(|k| field(k).is_none()).collect();
    if !missing.is_empty() {
        return Err(format!("{ASSET_LIBRARY_CFG} lacks {}", missing.join(", ")));
    }
    let category = field("category").unwrap_or_default();
    if !CATEGORIES.contains(&category.as_str()) {
        return Err(format!(
            "{ASSET_LIBRARY_CFG}: category {category:?} is none of the Asset Library's ({})",
            CATEGORIES.join(", ")
        ));
    }
    let godot = field("godot_version").unwrap_or_default();
    if godot.strip_prefix("4.").is_none_or(|minor| minor.parse::<u32>().is_err()) {
        return Err(format!("{ASSET_LIBRARY_CFG}: godot_version {godot:?} is not 4.x"));
    }
    let cargo = std::fs::read_to_string(root.join("Cargo.toml")).unwrap_or_default();
    let license = ini_value(&cargo, "workspace.package", "license").unwrap_or_default();
    if field("license").unwrap_or_default() != license {
        return Err(format!("{ASSET_LIBRARY_CFG}: license differs from Cargo.toml's {license:?}"));
    }
    let icon = field("icon").unwrap_or_default();
    let bytes = std::fs::read(root.join(&icon)).map_err(|e| format!("{ASSET_LIBRARY_CFG}: icon {icon}: {e}"))?;
    let (w, h) = png_size(&bytes).ok_or(format!("{ASSET_LIBRARY_CFG}: icon {icon} is not a PNG"))?;
    if w != h || w < 64 {
        return Err(format!(
            "{ASSET_LIBRARY_CFG}: icon {icon} is {w}x{h}; the Asset Library shows a square of at least 64 px"
        ));
    }
    Ok(format!("{} for Godot {godot}, {category}, icon {w}x{h}", field("title").unwrap_or_default()))
}

/// The width and height of a PNG (from its IHDR chunk).
pub fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let word = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    Some((word(16), word(20)))
}

#[cfg(test)]
mod tests;
