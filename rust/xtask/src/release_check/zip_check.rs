//! What Godot's Asset Library takes: a zip whose only top folder is `addons/reach2d/` (the editor's installer
//! unpacks it into the project's root), with the license, the `plugin.cfg` of the release's version, the icons the
//! `.gdextension` names, every library it names (a full release), and nothing stray (editor caches, `.import` and
//! `.uid` files, hidden files, Python caches, backups).

use super::ini_value;
use crate::process::Result;
use std::io::{Cursor, Read};

/// The folder everything lives in.
pub const ADDON: &str = "addons/reach2d/";

/// Names that do not belong in a shipped addon.
fn stray(path: &str) -> Option<&'static str> {
    let name = path.trim_end_matches('/').rsplit('/').next().unwrap_or(path);
    if path.split('/').any(|part| part.starts_with('.') && !part.is_empty()) {
        Some("a hidden file or folder")
    } else if name.ends_with(".import") || name.ends_with(".uid") {
        Some("an editor import file")
    } else if path.contains("__pycache__") || name.ends_with(".pyc") {
        Some("a Python cache")
    } else if name.ends_with('~') || name.ends_with(".orig") || name.ends_with(".bak") || name.ends_with(".tmp") {
        Some("a backup")
    } else if name == "Thumbs.db" || name == "desktop.ini" {
        Some("a system file")
    } else {
        None
    }
}

/// Checks the zip `bytes` for `version`; with `libraries`, every library `reach2d.gdextension` names must be in it.
/// Returns a one-line summary; fails with every problem found.
pub fn check_zip(bytes: &[u8], version: &str, libraries: bool) -> Result<String> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| format!("not a zip: {e}"))?;
    let names: Vec<String> = archive.file_names().map(str::to_string).collect();
    let mut problems = Vec::new();
    for name in &names {
        if !(name.starts_with(ADDON) || ADDON.starts_with(name.as_str())) {
            problems.push(format!(
                "{name} is outside {ADDON} (the Asset Library installs the zip into the project's root)"
            ));
        } else if let Some(why) = stray(name) {
            problems.push(format!("{name} is {why}"));
        }
    }
    let mut read = |inner: &str| -> Option<String> {
        let mut file = archive.by_name(&format!("{ADDON}{inner}")).ok()?;
        let mut text = String::new();
        file.read_to_string(&mut text).ok().map(|_| text)
    };
    let has = |inner: &str| {
        names.iter().any(|n| n == &format!("{ADDON}{inner}") || n.starts_with(&format!("{ADDON}{inner}/")))
    };
    if !["LICENSE.txt", "LICENSE", "LICENSE.md"].iter().any(|l| has(l)) {
        problems.push(format!("no license ({ADDON}LICENSE.txt)"));
    }
    match read("plugin.cfg").map(|t| ini_value(&t, "plugin", "version")) {
        None => problems.push(format!("no {ADDON}plugin.cfg")),
        Some(v) if v.as_deref() != Some(version) => {
            problems.push(format!("{ADDON}plugin.cfg says version {}, the release is {version}", v.unwrap_or_default()))
        }
        Some(_) => {}
    }
    let Some(extension) = read("reach2d.gdextension") else {
        problems.push(format!("no {ADDON}reach2d.gdextension"));
        return Err(problems.join("\n"));
    };
    let mut icons = 0;
    for (section, kind) in [("icons", "icon"), ("libraries", "library")] {
        for value in section_values(&extension, section) {
            if section == "icons" {
                icons += 1;
            }
            if (section == "icons" || libraries) && !has(&value) {
                problems.push(format!("the {kind} {ADDON}{value} that reach2d.gdextension names is missing"));
            }
        }
    }
    if icons == 0 {
        problems.push("reach2d.gdextension names no icon".into());
    }
    if problems.is_empty() {
        Ok(format!("{} entries under {ADDON}, license, plugin.cfg {version}, {icons} icons", names.len()))
    } else {
        Err(problems.join("\n"))
    }
}

/// The quoted values of a section of a `.gdextension` (its paths).
fn section_values(text: &str, section: &str) -> Vec<String> {
    let mut current = "";
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            current = name;
        } else if current == section
            && !line.starts_with(';')
            && let Some((_, v)) = line.split_once('=')
        {
            out.push(v.trim().trim_matches('"').to_string());
        }
    }
    out
}
