use super::{by_name, find_test_files};
use std::path::{Path, PathBuf};

/// A `tests`-like folder with the given files (paths with `/`), each holding one line.
fn project(name: &str, files: &[&str]) -> PathBuf {
    let root = std::env::temp_dir().join(format!("xtask-discovery-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for file in files {
        let path = root.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "extends Node\n").unwrap();
    }
    root
}

fn paths(root: &Path, filter: &str) -> Vec<String> {
    find_test_files(root, filter).unwrap().into_iter().map(|f| f.path).collect()
}

#[test]
fn finds_test_files_in_area_folders_at_any_depth_and_nothing_else() {
    let root = project(
        "depth",
        &[
            "runner.gd",
            "test_top.gd",
            "chains/test_chains.gd",
            "chains/helper.gd",
            "legs/stepper/test_leg_stepper.gd",
            "lib/test_case.gd",
            "addons/reach2d_editor_test/test_plugin.gd",
            ".godot/test_cached.gd",
            "web/project/project.godot",
            "web/project/test_web.gd",
            "legs/test_notes.txt",
        ],
    );
    assert_eq!(
        paths(&root, ""),
        ["chains/test_chains.gd", "legs/stepper/test_leg_stepper.gd", "test_top.gd"],
        "every test_*.gd of the areas, sorted by path; not lib/, addons/, hidden folders or another project"
    );
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn the_filter_matches_the_file_name_not_the_folder() {
    let root = project("filter", &["chains/test_chains.gd", "legs/test_ground_feet.gd", "legs/test_leg_stepper.gd"]);
    assert_eq!(paths(&root, "leg_"), ["legs/test_leg_stepper.gd"]);
    assert_eq!(paths(&root, "legs"), Vec::<String>::new(), "a folder's name selects nothing");
    assert_eq!(paths(&root, "chain"), ["chains/test_chains.gd"]);
    let files = find_test_files(&root, "").unwrap();
    assert_eq!(by_name(&files, "test_ground_feet.gd").unwrap().path, "legs/test_ground_feet.gd");
    assert!(by_name(&files, "test_gone.gd").unwrap_err().contains("test_gone.gd"));
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn two_files_with_one_name_are_an_error() {
    let root = project("twice", &["chains/test_mirror.gd", "mirror/test_mirror.gd"]);
    let error = find_test_files(&root, "").unwrap_err();
    assert!(error.contains("chains/test_mirror.gd") && error.contains("mirror/test_mirror.gd"), "{error}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn the_repository_s_tests_are_all_found_and_the_release_attacks_among_them() {
    let project = crate::process::repo_root().join("tests");
    let files = find_test_files(&project, "").unwrap();
    assert!(files.len() >= 50, "only {} Godot test files found", files.len());
    assert!(files.iter().all(|f| f.path.contains('/')), "every test file sits in an area folder: {files:?}");
    assert!(files.iter().all(|f| !f.path.starts_with("lib/")), "lib/test_case.gd is no test");
    for name in crate::commands::test::RELEASE_ATTACKS {
        by_name(&files, name).unwrap();
    }
}
