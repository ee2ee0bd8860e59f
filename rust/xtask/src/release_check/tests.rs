use super::sha256::sha256_hex;
use super::zip_check::check_zip;
use super::{changelog_version, check_asset_library, check_versions, ini_value, png_size, release_notes};
use crate::process::repo_root;
use std::io::{Cursor, Write};

#[test]
fn sha256_matches_the_standard_vectors() {
    assert_eq!(sha256_hex(b""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert_eq!(
        sha256_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
    assert_eq!(sha256_hex(&[b'a'; 1000]), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

const CHANGELOG: &str = "# Changelog\n\n## Unreleased\n\n- next\n\n## [0.2.0] - 2026-11-28\n\n### Shipped\n- a\n- b\n\n## 0.1.0\n\n- first\n";

#[test]
fn the_changelog_gives_the_newest_version_and_its_notes() {
    assert_eq!(changelog_version(CHANGELOG).as_deref(), Some("0.2.0"));
    assert_eq!(changelog_version("## 0.2.0\n").as_deref(), Some("0.2.0"));
    assert_eq!(changelog_version("## 0.2.0 (2026-11-28)\n").as_deref(), Some("0.2.0"));
    assert_eq!(changelog_version("## Unreleased\n### 1.0.0 is not a release heading\n"), None);
    assert_eq!(release_notes(CHANGELOG, "0.2.0").unwrap(), "### Shipped\n- a\n- b\n");
    assert_eq!(release_notes(CHANGELOG, "0.1.0").unwrap(), "- first\n");
    assert!(release_notes(CHANGELOG, "0.3.0").unwrap_err().contains("no `## 0.3.0` section"));
    assert!(release_notes("## 0.3.0\n\n## 0.2.0\n", "0.3.0").unwrap_err().contains("empty"));
}

#[test]
fn ini_values_are_read_from_their_section() {
    let text = "[package]\nversion = \"9\"\n[workspace.package]\nversion = \"0.2.0\"\n[plugin]\nversion=\"1\"\n";
    assert_eq!(ini_value(text, "workspace.package", "version").as_deref(), Some("0.2.0"));
    assert_eq!(ini_value(text, "plugin", "version").as_deref(), Some("1"));
    assert_eq!(ini_value(text, "nope", "version"), None);
}

/// A repository of the four files in a temporary folder, each with its version.
fn fake_repo(name: &str, cargo: &str, plugin: &str, changelog: &str, asset: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("reach2d-xtask-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("addons/reach2d")).unwrap();
    std::fs::create_dir_all(dir.join("dist-meta")).unwrap();
    std::fs::write(dir.join("Cargo.toml"), format!("[workspace.package]\nversion = \"{cargo}\"\nlicense = \"MIT\"\n"))
        .unwrap();
    std::fs::write(dir.join("addons/reach2d/plugin.cfg"), format!("[plugin]\nversion=\"{plugin}\"\n")).unwrap();
    std::fs::write(dir.join("CHANGELOG.md"), format!("# Changelog\n\n## Unreleased\n\n## {changelog}\n\n- x\n"))
        .unwrap();
    std::fs::write(dir.join("dist-meta/asset_library.cfg"), format!("[asset]\nversion=\"{asset}\"\n")).unwrap();
    dir
}

#[test]
fn versions_that_disagree_fail_naming_the_file() {
    assert_eq!(check_versions(&fake_repo("agree", "1.2.3", "1.2.3", "[1.2.3]", "1.2.3")).unwrap(), "1.2.3");
    let err = check_versions(&fake_repo("plugin", "1.2.3", "1.2.2", "1.2.3", "1.2.3")).unwrap_err();
    assert!(err.contains("Cargo.toml says 1.2.3") && err.contains("plugin.cfg says 1.2.2"), "{err}");
    let err = check_versions(&fake_repo("changelog", "1.2.3", "1.2.3", "1.2.0", "1.2.3")).unwrap_err();
    assert!(err.contains("CHANGELOG.md") && err.contains("says 1.2.0"), "{err}");
}

/// The release's one version: Cargo.toml's, plugin.cfg's, the CHANGELOG's newest `## X.Y.Z` (or `## [X.Y.Z]`)
/// heading and the Asset Library fields'.
#[test]
fn the_repository_names_one_version() {
    let version = check_versions(&repo_root()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
}

#[test]
fn the_asset_library_fields_are_complete() {
    let summary = check_asset_library(&repo_root()).unwrap_or_else(|e| panic!("{e}"));
    assert!(summary.contains("Reach2D for Godot 4.3"), "{summary}");
    let dir = fake_repo("asset", "1.0.0", "1.0.0", "1.0.0", "1.0.0");
    std::fs::write(dir.join("dist-meta/asset_library.cfg"), "[asset]\ntitle=\"X\"\ncategory=\"Games\"\n").unwrap();
    let err = check_asset_library(&dir).unwrap_err();
    assert!(err.contains("lacks version, godot_version, license"), "{err}");
}

#[test]
fn png_size_reads_the_header() {
    let icon = std::fs::read(repo_root().join("dist-meta/icon.png")).unwrap();
    assert_eq!(png_size(&icon), Some((128, 128)));
    assert_eq!(png_size(b"<svg/>"), None);
}

const EXTENSION: &str = "[configuration]\nentry_symbol = \"x\"\n[libraries]\nlinux.release.x86_64 = \"bin/lib.so\"\n\
                         [icons]\nArm2D = \"icons/Arm2D.svg\"\n";

/// A zip of `files` (path, contents) as `cargo xtask package` writes them.
fn zip_of(files: &[(&str, &str)]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (path, text) in files {
        zip.start_file(*path, zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn good_files() -> Vec<(&'static str, &'static str)> {
    vec![
        ("addons/reach2d/LICENSE.txt", "MIT"),
        ("addons/reach2d/plugin.cfg", "[plugin]\nversion=\"0.2.0\"\n"),
        ("addons/reach2d/reach2d.gdextension", EXTENSION),
        ("addons/reach2d/icons/Arm2D.svg", "<svg/>"),
        ("addons/reach2d/bin/lib.so", "ELF"),
    ]
}

#[test]
fn a_zip_the_asset_library_takes_passes() {
    let summary = check_zip(&zip_of(&good_files()), "0.2.0", true).unwrap();
    assert!(summary.contains("5 entries") && summary.contains("1 icons"), "{summary}");
}

#[test]
fn a_zip_with_something_wrong_fails_saying_what() {
    let with = |extra: (&'static str, &'static str)| {
        let mut files = good_files();
        files.push(extra);
        check_zip(&zip_of(&files), "0.2.0", true).unwrap_err()
    };
    let without = |gone: &str, libraries: bool| {
        let files: Vec<_> = good_files().into_iter().filter(|(p, _)| !p.ends_with(gone)).collect();
        check_zip(&zip_of(&files), "0.2.0", libraries)
    };
    assert!(with(("reach2d/plugin.cfg", "")).contains("outside addons/reach2d/"));
    assert!(with(("README.md", "")).contains("outside addons/reach2d/"));
    assert!(with(("addons/reach2d/icons/Arm2D.svg.import", "")).contains("an editor import file"));
    assert!(with(("addons/reach2d/editor/plugin.gd.uid", "")).contains("an editor import file"));
    assert!(with(("addons/reach2d/__pycache__/x.pyc", "")).contains("a Python cache"));
    assert!(with(("addons/reach2d/.godot/cache", "")).contains("a hidden file"));
    assert!(with(("addons/reach2d/plugin.gd~", "")).contains("a backup"));
    assert!(without("LICENSE.txt", true).unwrap_err().contains("no license"));
    assert!(
        without("icons/Arm2D.svg", true)
            .unwrap_err()
            .contains("icons/Arm2D.svg that reach2d.gdextension names is missing")
    );
    assert!(without("bin/lib.so", true).unwrap_err().contains("library addons/reach2d/bin/lib.so"));
    assert!(without("bin/lib.so", false).is_ok(), "--skip-build: the libraries are not required");
    assert!(without("plugin.cfg", true).unwrap_err().contains("no addons/reach2d/plugin.cfg"));
    let err = check_zip(&zip_of(&good_files()), "0.3.0", true).unwrap_err();
    assert!(err.contains("plugin.cfg says version 0.2.0, the release is 0.3.0"), "{err}");
    assert!(check_zip(b"not a zip", "0.2.0", true).unwrap_err().starts_with("not a zip"));
}

/// The workflows cannot run here: they must stay thin wrappers of the commands tested here, in a Debian container.
#[test]
fn the_workflows_run_the_tested_commands() {
    let read = |name: &str| std::fs::read_to_string(repo_root().join(".github/workflows").join(name)).unwrap();
    let ci = read("ci.yml");
    let release = read("release.yml");
    for text in [&ci, &release] {
        assert!(text.contains("container: debian:"), "a workflow runs outside Debian");
        assert!(text.contains("thin wrapper"), "a workflow lost its comment");
    }
    assert!(ci.contains("run: .ci/run"));
    assert!(release.contains("tags: [\"v*\"]"));
    assert!(release.contains("run: cargo xtask release --tag \"$GITHUB_REF_NAME\""));
    // What it attaches is what `finish` writes.
    for file in ["body_path: dist/RELEASE_NOTES.md", "dist/reach2d-*.zip", "dist/SHA256SUMS"] {
        assert!(release.contains(file), "release.yml does not attach {file}");
    }
    let command = std::fs::read_to_string(repo_root().join("rust/xtask/src/commands/release.rs")).unwrap();
    assert!(command.contains("\"SHA256SUMS\"") && command.contains("\"RELEASE_NOTES.md\""));
}
