//! `cargo xtask reference [--check]`: the class reference in `docs/reference/`, made from the documentation the
//! editor's help shows. Godot (4.3+) dumps an extension's class docs with `--doctool DIR --gdextension-docs`;
//! godot-rust registers them from the doc comments of `rust/reach2d/src` (its `register-docs` feature), so a page
//! changes only with those comments or the classes' properties, methods, signals and constants.
//!
//! Godot's dump holds no descriptions of an extension's classes (its `--doctool` merges them from XML files in the
//! folder, as godot-cpp projects keep them), so a second run asks the debug library for the XML godot-rust gives the
//! editor's help (`Reach2DDebug.class_docs_xml()`, debug builds only) and `class_docs::merge` joins the two.
//!
//! Without `--check` the pages are rewritten (and pages of classes that no longer exist deleted); with it nothing
//! is written and a stale, missing or extra page fails with the command that fixes it. `cargo xtask test` runs the
//! check after its debug build.

use crate::class_docs::{REFERENCE_DIR, compare};
use crate::commands::build::{build, host_platform};
use crate::godot_run::{run_logged, write_extension_list};
use crate::process::{Result, repo_root};
use crate::toolchain::godot::Godot;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `cargo xtask reference [--check]`: builds the debug library, then writes (or checks) the pages.
pub fn reference(check: bool) -> Result {
    build(false)?;
    if check { check_pages().map(|summary| println!("xtask: {summary}")) } else { write_pages() }
}

/// The pages as the built library documents its classes (the debug library must be built).
pub fn generate() -> Result<BTreeMap<String, String>> {
    let root = repo_root();
    let library = root.join("addons/reach2d/bin").join(host_platform()?.library_name(false));
    if !library.is_file() {
        return Err(format!("{} is missing: run `cargo xtask build` first", library.display()));
    }
    let project = root.join("tests");
    write_extension_list(&project)?;
    let dump = root.join("target/reference-xml");
    let _ = fs::remove_dir_all(&dump);
    fs::create_dir_all(&dump).map_err(|e| format!("cannot create {}: {e}", dump.display()))?;
    let godot = Godot::locate_or_fetch()?;
    let mut cmd = godot.command();
    cmd.args(["--headless", "--path"]).arg(&project).arg("--doctool").arg(&dump).arg("--gdextension-docs");
    let run = run_logged(&mut cmd, &root.join("target/reference-xml.log"), Duration::from_secs(180))?;
    let mut files = Vec::new();
    collect_xml(&dump, &mut files)?;
    if files.is_empty() || !run.success {
        return Err(format!(
            "Godot's --doctool wrote no class documents{} (log: target/reference-xml.log)",
            if run.success { "" } else { " and failed" }
        ));
    }
    let doctool = read_all(&mut files)?;

    // The descriptions: a script asks the debug library's `Reach2DDebug` for what godot-rust registers.
    let registered_dir = root.join("target/reference-registered");
    let _ = fs::remove_dir_all(&registered_dir);
    fs::create_dir_all(&registered_dir).map_err(|e| format!("cannot create {}: {e}", registered_dir.display()))?;
    let script = project.join(".godot/reach2d_class_docs.gd");
    crate::process::write_file(&script, DUMP_SCRIPT)?;
    let mut cmd = godot.command();
    cmd.args(["--headless", "--path"])
        .arg(&project)
        .args(["-s", "res://.godot/reach2d_class_docs.gd", "--"])
        .arg(&registered_dir);
    let log = root.join("target/reference-registered.log");
    let run = run_logged(&mut cmd, &log, Duration::from_secs(180))?;
    if let Some(problem) = run.problem(Duration::from_secs(180)) {
        return Err(format!("reading the registered class docs: {problem} (log: {})", log.display()));
    }
    let mut files = Vec::new();
    collect_xml(&registered_dir, &mut files)?;
    let registered = read_all(&mut files)?;
    let types = fs::read_to_string(registered_dir.join("types.tsv")).unwrap_or_default();
    let doctool: Vec<String> = doctool.iter().map(|xml| with_property_types(xml, &types)).collect();
    crate::class_docs::pages(&doctool, &registered)
}

/// A `--doctool` class document with each object property's type as the inspector sees it: the dump takes a
/// property's type from its getter, which for a node property is a `Variant` (it checks the class a script hands
/// it, `node_property.rs`), while the property itself is a `Bone2D`, a `Node2D`, an `Array[Node2D]`. `types` holds
/// `class<TAB>property<TAB>type` lines (the dump script's `types.tsv`).
fn with_property_types(xml: &str, types: &str) -> String {
    let mut xml = xml.to_string();
    for line in types.lines() {
        let mut fields = line.split('\t');
        let (Some(class), Some(name), Some(kind)) = (fields.next(), fields.next(), fields.next()) else { continue };
        if !xml.contains(&format!("<class name=\"{class}\"")) {
            continue;
        }
        let variant = format!("<member name=\"{name}\" type=\"Variant\"");
        xml = xml.replace(&variant, &format!("<member name=\"{name}\" type=\"{kind}\""));
    }
    xml
}

/// Writes each class document godot-rust registers (`Reach2DDebug.class_docs_xml()`, debug builds) into the folder
/// given after `--`.
const DUMP_SCRIPT: &str = r#"extends SceneTree

func _init() -> void:
	var dir: String = OS.get_cmdline_user_args()[0]
	var docs: PackedStringArray = Reach2DDebug.class_docs_xml()
	# Each object property's type as the inspector sees it (the --doctool dump takes it from the getter).
	var types := FileAccess.open(dir.path_join("types.tsv"), FileAccess.WRITE)
	var named := RegEx.create_from_string("<class name=\"(\\w+)\"")
	for i in docs.size():
		var file := FileAccess.open(dir.path_join("class_%03d.xml" % i), FileAccess.WRITE)
		file.store_string(docs[i])
		file.close()
		var found := named.search(docs[i])
		if found == null:
			continue
		for p in ClassDB.class_get_property_list(found.get_string(1), true):
			if p["type"] == TYPE_OBJECT and p["class_name"] != &"":
				types.store_line("%s\t%s\t%s" % [found.get_string(1), p["name"], p["class_name"]])
			elif p["type"] == TYPE_ARRAY and p["hint"] == PROPERTY_HINT_TYPE_STRING and ":" in p["hint_string"]:
				types.store_line("%s\t%s\tArray[%s]" % [found.get_string(1), p["name"], p["hint_string"].get_slice(":", 1)])
	types.close()
	print("REACH2D_DONE")
	quit(0 if docs.size() > 0 else 1)
"#;

fn read_all(files: &mut [PathBuf]) -> Result<Vec<String>> {
    files.sort();
    files.iter().map(|f| fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))).collect()
}

fn collect_xml(dir: &Path, out: &mut Vec<PathBuf>) -> Result {
    for entry in fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_xml(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "xml") {
            out.push(path);
        }
    }
    Ok(())
}

/// The Markdown files now in `docs/reference/`.
fn existing(dir: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            found.insert(name, fs::read_to_string(entry.path()).unwrap_or_default());
        }
    }
    found
}

fn write_pages() -> Result {
    let dir = repo_root().join(REFERENCE_DIR);
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let pages = generate()?;
    for name in existing(&dir).keys().filter(|n| !pages.contains_key(*n)) {
        fs::remove_file(dir.join(name)).map_err(|e| format!("cannot delete {name}: {e}"))?;
        println!("xtask: deleted {REFERENCE_DIR}/{name} (no such class)");
    }
    for (name, text) in &pages {
        crate::process::write_file(&dir.join(name), text)?;
    }
    println!("xtask: wrote {} pages in {REFERENCE_DIR}/", pages.len());
    Ok(())
}

/// Compares the pages with what the built library documents; the error names each stale file.
pub fn check_pages() -> Result<String> {
    let pages = generate()?;
    let problems = compare(&pages, &existing(&repo_root().join(REFERENCE_DIR)));
    if problems.is_empty() {
        Ok(format!("{REFERENCE_DIR}/ is up to date ({} pages)", pages.len()))
    } else {
        Err(format!(
            "the class reference is stale:\n  {}\nrun `cargo xtask reference` and commit {REFERENCE_DIR}/",
            problems.join("\n  ")
        ))
    }
}
