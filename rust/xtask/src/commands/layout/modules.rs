//! Each crate as a graph of its top-level modules (`nodes` holds `nodes.rs` and everything under `nodes/`; the
//! crate root only declares and is left out). One module depends on another when one of its files depends on one
//! of the other's files (the file graph's edges: `use` lines and paths in code), or when it invokes a proc macro
//! of the workspace (`#[reach2d_macros::shared_docs]`, `use reach2d_macros::..`) whose `quote!`s write a `crate::` path
//! into that module.

use super::graph::{Crate, Edges, SourceFile, cycle_through, tangles};
use std::collections::BTreeMap;

/// A proc-macro crate of the workspace: the name other crates call it by, and each `crate::` path its `quote!`s
/// write into them, with the file and line that writes it.
pub struct MacroCrate {
    pub name: String,
    pub writes: Vec<(usize, usize, Vec<String>)>,
}

/// Why one module depends on another: the first file and line that makes it, the path, and, when a macro writes
/// the path, the macro crate and the file and line of its `quote!`.
struct Why {
    file: usize,
    line: usize,
    path: String,
    written_by: Option<(String, usize, usize)>,
}

/// One module tangle: the files that make its dependencies (for exceptions) and its report.
pub struct ModuleCycle {
    pub files: Vec<String>,
    pub message: String,
}

/// The proc-macro crate rooted at `root` (`src/lib.rs` beside a `Cargo.toml` with `proc-macro = true`), by the
/// name its users write (the `[lib]` name, else the package name with `-` as `_`); `None` for any other crate.
pub fn macro_crate(files: &[SourceFile], krate: &Crate) -> Option<MacroCrate> {
    let manifest = files[krate.root].path.parent()?.parent()?.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).ok()?;
    let (mut section, mut package, mut lib, mut proc_macro) = ("", None, None, false);
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        let (key, value) = (key.trim(), value.trim().trim_matches('"'));
        match (section, key) {
            ("[package]", "name") => package = Some(value.replace('-', "_")),
            ("[lib]", "name") => lib = Some(value.to_string()),
            ("[lib]", "proc-macro" | "proc_macro") => proc_macro = value == "true",
            _ => {}
        }
    }
    if !(proc_macro && files[krate.root].path.ends_with("src/lib.rs")) {
        return None;
    }
    let mut writes = Vec::new();
    for file in krate.files() {
        for path in &files[file].scan.quoted {
            writes.push((file, path.line, path.segments.clone()));
        }
    }
    Some(MacroCrate { name: lib.or(package)?, writes })
}

/// How a crate is named in a report: its folder for `src/lib.rs` or `src/main.rs`, else its root file.
fn crate_label(files: &[SourceFile], krate: &Crate) -> String {
    let root = &files[krate.root].rel;
    ["/src/lib.rs", "/src/main.rs"].iter().find_map(|tail| root.strip_suffix(tail)).unwrap_or(root).to_string()
}

/// The first line of `file` that names `name` as a path's first segment (`name::x` in code or a `use`).
fn first_mention(files: &[SourceFile], file: usize, name: &str) -> Option<usize> {
    let scan = &files[file].scan;
    let in_code = scan.paths.iter().filter(|p| p.segments[0] == name).map(|p| p.line);
    let in_uses = scan.uses.iter().filter(|u| u.leaves.iter().any(|l| l.segments.first().is_some_and(|s| s == name)));
    in_code.chain(in_uses.map(|u| u.line)).min()
}

/// The cycles among `krate`'s top-level modules, one per tangle, except a tangle of exactly the modules of one of
/// `reported` (a file cycle across them says it) or whose report is in `seen` (found again in another crate that
/// shares the files).
pub fn module_cycles(
    files: &[SourceFile],
    krate: &Crate,
    file_edges: &Edges,
    macros: &[MacroCrate],
    reported: &[Vec<&str>],
    seen: &mut Vec<String>,
) -> Vec<ModuleCycle> {
    let mut names: Vec<String> = krate.files().filter_map(|f| krate.top_module(f)).map(str::to_string).collect();
    names.sort();
    names.dedup();
    let index = |name: &str| names.binary_search_by(|n| n.as_str().cmp(name)).ok();
    let module_of = |file: usize| krate.top_module(file).and_then(index);
    let mut edges: BTreeMap<(usize, usize), Why> = BTreeMap::new();
    for (&(from, to), (line, path)) in file_edges {
        if let (Some(a), Some(b)) = (module_of(from), module_of(to))
            && a != b
        {
            edges.entry((a, b)).or_insert(Why { file: from, line: *line, path: path.clone(), written_by: None });
        }
    }
    for file in krate.files() {
        let Some(from) = module_of(file) else { continue };
        for macros in macros {
            let Some(line) = first_mention(files, file, &macros.name) else { continue };
            for (at, at_line, path) in &macros.writes {
                let Some(to) = path.get(1).and_then(|m| index(m)).filter(|&to| to != from) else { continue };
                let written_by = Some((macros.name.clone(), *at, *at_line));
                edges.entry((from, to)).or_insert(Why { file, line, path: path.join("::"), written_by });
            }
        }
    }
    let mut cycles = Vec::new();
    for component in tangles(names.len(), &edges) {
        let cycle: Vec<&str> = cycle_through(&component, &edges).iter().map(|&m| names[m].as_str()).collect();
        let tangled: Vec<&str> = component.iter().map(|&m| names[m].as_str()).collect();
        if reported.contains(&tangled) {
            continue;
        }
        let mut body = format!("\n  modules tangled together: {}", tangled.join(", "));
        let mut involved = Vec::new();
        for ((a, b), why) in edges.iter().filter(|((a, b), _)| component.contains(a) && component.contains(b)) {
            let at = format!("{}:{}", files[why.file].rel, why.line);
            body += &match &why.written_by {
                None => format!("\n  {} -> {}: {at} names {}", names[*a], names[*b], why.path),
                Some((name, file, line)) => format!(
                    "\n  {} -> {}: {at} invokes {name}, whose macros write {} ({}:{line})",
                    names[*a], names[*b], why.path, files[*file].rel
                ),
            };
            involved.push(files[why.file].rel.clone());
        }
        body += "\n  to fix: dependencies point one way, from the higher layer to the lower (nodes -> plumbing -> core): \
                 pick the dependency above that points up, and move what it names down into the lower module (or \
                 into a new module below both), so that no module names one that names it back";
        if seen.contains(&body) {
            continue;
        }
        seen.push(body.clone());
        let message = format!("module cycle in {}: {}{body}", crate_label(files, krate), cycle.join(" -> "));
        involved.sort();
        involved.dedup();
        cycles.push(ModuleCycle { files: involved, message });
    }
    cycles
}
