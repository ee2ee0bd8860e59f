//! Which Godot test files `cargo xtask test` runs: every `test_*.gd` under `tests/`, in the area folders
//! (`tests/chains/`, `tests/legs/`, ...) at any depth. Not searched: `lib/` (the helpers; `lib/test_case.gd` is no
//! test), `addons/` (the editor test plugin, and the addon through a symlink), hidden folders (Godot's `.godot/`
//! cache), symlinked folders, and a folder holding a `project.godot` of its own (`web/project`), which `runner.gd`
//! cannot load from the `tests` project.

use crate::process::Result;
use std::path::Path;

/// Folders under `tests/` that hold no test files, whatever their files are named.
const NOT_TESTS: [&str; 2] = ["lib", "addons"];

/// One Godot test file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestFile {
    /// From the `tests` folder, with `/`: what `runner.gd` loads (`res://` + this), and the log's name.
    pub path: String,
    /// The file name alone: what `REACH2D_TEST_FILTER` and the release attack list match.
    pub name: String,
}

/// Every test file under `project` whose name contains `filter` (all of them when it is empty), sorted by path.
/// Two test files with the same name are an error: the filter and the release attack list go by name.
pub fn find_test_files(project: &Path, filter: &str) -> Result<Vec<TestFile>> {
    let mut files = Vec::new();
    collect(project, "", &mut files)?;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let mut by_name: Vec<&TestFile> = files.iter().collect();
    by_name.sort_by(|a, b| a.name.cmp(&b.name));
    if let Some(pair) = by_name.windows(2).find(|w| w[0].name == w[1].name) {
        return Err(format!(
            "two Godot test files are both named {}: tests/{} and tests/{}; give one another name",
            pair[0].name, pair[0].path, pair[1].path
        ));
    }
    files.retain(|f| f.name.contains(filter));
    Ok(files)
}

/// The test file called `name` (a file name, as in the release attack list), or an error naming it.
pub fn by_name<'a>(files: &'a [TestFile], name: &str) -> Result<&'a TestFile> {
    files.iter().find(|f| f.name == name).ok_or_else(|| format!("no Godot test file named {name} under tests/"))
}

fn collect(dir: &Path, prefix: &str, out: &mut Vec<TestFile>) -> Result {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let Ok(name) = entry.file_name().into_string() else { continue };
        let Ok(kind) = entry.file_type() else { continue };
        let path = format!("{prefix}{name}");
        if kind.is_dir() {
            let top_level_helpers = prefix.is_empty() && NOT_TESTS.contains(&name.as_str());
            let own_project = entry.path().join("project.godot").exists();
            if !(name.starts_with('.') || top_level_helpers || own_project) {
                collect(&entry.path(), &format!("{path}/"), out)?;
            }
        } else if kind.is_file() && name.starts_with("test_") && name.ends_with(".gd") {
            out.push(TestFile { path, name });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
