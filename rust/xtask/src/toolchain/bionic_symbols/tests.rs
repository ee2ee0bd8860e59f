use super::{LIBRARIES, SYMBOLS};

/// Where bionic's map says `name` is for `arch`: (library, version node, first API level), one per map entry.
fn lookup(maps: &[(&str, String)], name: &str, arch: &str) -> Vec<(String, String, u32)> {
    const ARCHES: [&str; 5] = ["arm", "arm64", "x86", "x86_64", "riscv64"];
    let mut found = Vec::new();
    for (library, text) in maps {
        let (mut node, mut node_tags) = (String::new(), Vec::new());
        for line in text.lines() {
            let (code, comment) = line.split_once('#').unwrap_or((line, ""));
            let (code, tags) = (code.trim(), comment.split_whitespace().collect::<Vec<_>>());
            if let Some(header) = code.strip_suffix('{') {
                (node, node_tags) = (header.trim().to_string(), tags);
            } else if code.strip_suffix(';') == Some(name) {
                let arches: Vec<&&str> = tags.iter().filter(|t| ARCHES.contains(t)).collect();
                if !arches.is_empty() && !arches.iter().any(|a| **a == arch) {
                    continue;
                }
                let level = |tags: &[&str], key: &str| {
                    tags.iter().find_map(|t| t.strip_prefix(key).and_then(|v| v.parse::<u32>().ok()))
                };
                let per_arch = format!("introduced-{arch}=");
                let api = level(&tags, &per_arch)
                    .or_else(|| level(&node_tags, &per_arch))
                    .or_else(|| level(&tags, "introduced="))
                    .or_else(|| level(&node_tags, "introduced="))
                    .unwrap_or(21);
                found.push((library.to_string(), node.clone(), api));
            }
        }
    }
    found
}

/// Checks the table against bionic's own maps: `BIONIC_SRC=<a checkout of AOSP's platform/bionic> cargo test -p
/// xtask -- --ignored bionic` (no registry here carries bionic's source, so CI cannot run it).
#[test]
#[ignore = "needs BIONIC_SRC, a checkout of AOSP's bionic"]
fn the_table_matches_bionics_maps() {
    let root = std::path::PathBuf::from(std::env::var("BIONIC_SRC").expect("BIONIC_SRC"));
    let maps: Vec<(&str, String)> =
        [("libc.so", "libc/libc.map.txt"), ("libm.so", "libm/libm.map.txt"), ("libdl.so", "libdl/libdl.map.txt")]
            .into_iter()
            .map(|(library, path)| (library, std::fs::read_to_string(root.join(path)).expect("a bionic map")))
            .collect();
    for symbol in SYMBOLS {
        for arch in ["arm64", "x86_64"] {
            let found = lookup(&maps, symbol.name, arch);
            let expected = (symbol.library.to_string(), symbol.version.to_string(), symbol.api);
            assert_eq!(found, vec![expected], "{} on {arch}", symbol.name);
        }
    }
    assert_eq!(LIBRARIES[..3], ["libc.so", "libm.so", "libdl.so"]);
}
