//! `cargo xtask layout`, also the first stage of `cargo xtask test`: the house rules for every `.rs` file under
//! `rust/` (all crates with their `tests/`, `benches/` and `fuzz/`; `target/` skipped).
//!
//! - **size**: at most [`MAX_CODE_LINES`] lines of code (lines with anything but whitespace and comments).
//! - **tests apart**: no inline `#[cfg(test)] mod name { .. }` outside test code; a file's tests live in a file of
//!   their own (`#[cfg(test)] mod tests;` in `foo.rs` declares `foo/tests.rs`).
//! - **no cycles**: per crate, no cycle among its files, where a file depends on another when it names one of
//!   its items through `crate::`, `super::`, `self::`, `$crate::`, a child module or an imported module (in `use`
//!   lines and in code). A path points into the file of its longest module prefix; an item a hub (a crate root,
//!   or a `foo.rs` whose child modules are files in `foo/`) re-exports (`pub use x::Y`) points into the file that
//!   defines it, and such a re-export is no dependency of the hub unless the hub's own code uses the name.
//!   `mod x;` is no dependency.
//! - **no module cycles**: per crate, no cycle among its top-level modules (`nodes` is `nodes.rs` and everything
//!   under `nodes/`; the crate root only declares and is left out). A module depends on another when one of its
//!   files depends on one of the other's, or when it invokes a proc macro of the workspace (`#[reach2d_macros::x]`,
//!   `reach2d_macros::` anywhere) whose `quote!`s write `crate::other::..` into their user. A file cycle across
//!   modules is reported once, as the file cycle.
//! - **one module style**: no `mod.rs`; a module with child files is `foo.rs` beside `foo/`. The one exception is
//!   cargo's: a helper folder directly in a crate's `tests/` (`tests/common/mod.rs`), since cargo builds every
//!   `.rs` file directly in `tests/` as a test of its own.
//!
//! A file may break a rule only with an entry in [`EXCEPTIONS`]; an entry whose file keeps the rule fails too, so
//! the list never goes stale. The scanner reads tokens, not a syntax tree: a glob re-export (`pub use x::*`)
//! counts as a dependency, since it cannot tell which names come through; a path whose item the file it points
//! into never spells is no dependency (a file shared by several crates, like `tests/common`, can name something
//! that exists in only one of them), so an item only a `macro_rules!` expansion names is not seen, and a proc
//! macro's paths count for modules only.

mod graph;
mod lexer;
mod modules;
mod scan;
#[cfg(test)]
mod tests;

use crate::process::{Result, repo_root};
use graph::SourceFile;
use std::path::Path;

/// The most lines of code a file may have.
pub const MAX_CODE_LINES: usize = 350;

/// One of the house rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    Size,
    TestsApart,
    NoCycles,
    NoModuleCycles,
    NoModRs,
}

impl Rule {
    fn name(self) -> String {
        match self {
            Rule::Size => format!("size: at most {MAX_CODE_LINES} lines of code per file"),
            Rule::TestsApart => {
                "tests apart: a test module lives in a file of its own (`#[cfg(test)] mod tests;`)".into()
            }
            Rule::NoCycles => "no cycles between a crate's files".into(),
            Rule::NoModuleCycles => "no cycles between a crate's top-level modules".into(),
            Rule::NoModRs => {
                "one module style: `foo.rs` beside `foo/`, no `foo/mod.rs` (cargo's `tests/<helper>/mod.rs` excepted)"
                    .into()
            }
        }
    }
}

/// A file allowed to break a rule (`path` from the repository root; for [`Rule::NoCycles`], any file of the
/// cycle; for [`Rule::NoModuleCycles`], any file that makes one of the cycle's dependencies), and why, in one line.
pub struct Exception {
    pub path: &'static str,
    pub rule: Rule,
    pub reason: &'static str,
}

/// The hand-written exceptions, each with its reason.
pub const EXCEPTIONS: &[Exception] = &[];

/// One broken rule: the files involved and what to report.
struct Finding {
    rule: Rule,
    files: Vec<String>,
    message: String,
}

/// Checks the repository, printing every problem; fails if there is one.
pub fn layout() -> Result {
    let problems = check(&repo_root(), EXCEPTIONS)?;
    for problem in &problems {
        println!("layout: {problem}");
    }
    if problems.is_empty() {
        println!("layout: ok (size, tests apart, no file or module cycles, no mod.rs)");
        return Ok(());
    }
    Err(format!(
        "{} layout problems (above): split the file, move the tests to a file of their own, cut the cycle, or \
         move `foo/mod.rs` to `foo.rs`; an exception needs an entry with its reason in \
         rust/xtask/src/commands/layout.rs",
        problems.len()
    ))
}

/// Every problem in `repo/rust/` under `exceptions`, one line each (files named from `repo`).
pub fn check(repo: &Path, exceptions: &[Exception]) -> Result<Vec<String>> {
    let mut paths = Vec::new();
    rust_files(&repo.join("rust"), &mut paths)?;
    paths.sort();
    let repo = repo.canonicalize().map_err(|e| format!("cannot resolve {}: {e}", repo.display()))?;
    let mut files = Vec::new();
    let mut findings = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let path = path.canonicalize().map_err(|e| format!("cannot resolve {}: {e}", path.display()))?;
        let rel = path.strip_prefix(&repo).unwrap_or(&path).to_string_lossy().into_owned();
        let lexed = lexer::lex(&text);
        if lexed.code_lines > MAX_CODE_LINES {
            let message = format!("{rel}: {} lines of code, more than {MAX_CODE_LINES}", lexed.code_lines);
            findings.push(Finding { rule: Rule::Size, files: vec![rel.clone()], message });
        }
        if let Some(folder) = rel.strip_suffix("/mod.rs").filter(|_| !cargo_needs_mod_rs(&repo, &rel)) {
            let message = format!("{rel}: a `mod.rs`; move it to `{folder}.rs`, beside its folder (`git mv`)");
            findings.push(Finding { rule: Rule::NoModRs, files: vec![rel.clone()], message });
        }
        files.push(SourceFile { path, rel, scan: scan::scan(&lexed.tokens) });
    }
    let (crates, test) = graph::crates(&files);
    for (file, _) in files.iter().zip(&test).filter(|(_, test)| !**test) {
        for decl in file.scan.mods.iter().filter(|m| m.inline && m.cfg_test) {
            let message = format!("{}:{}: inline test module `mod {}`", file.rel, decl.line, decl.name);
            findings.push(Finding { rule: Rule::TestsApart, files: vec![file.rel.clone()], message });
        }
    }
    let macros: Vec<_> = crates.iter().filter_map(|krate| modules::macro_crate(&files, krate)).collect();
    let (mut seen, mut seen_modules) = (Vec::new(), Vec::new());
    for krate in &crates {
        let edges = krate.edges(&files);
        let file_tangles = cycle_findings(&files, &edges, &mut seen, &mut findings);
        // A file cycle across modules is that module cycle too: reported once, as the file cycle.
        let reported: Vec<Vec<&str>> = file_tangles
            .iter()
            .map(|tangle| {
                let mut modules: Vec<&str> = tangle.iter().filter_map(|&f| krate.top_module(f)).collect();
                modules.sort_unstable();
                modules.dedup();
                modules
            })
            .collect();
        for cycle in modules::module_cycles(&files, krate, &edges, &macros, &reported, &mut seen_modules) {
            findings.push(Finding { rule: Rule::NoModuleCycles, files: cycle.files, message: cycle.message });
        }
    }
    Ok(judge(findings, exceptions))
}

/// One finding per tangle of files (a strongly connected component) not `seen` in another crate: a shortest
/// cycle, the files tangled together, and each dependency among them with the line that makes it. Returns every
/// tangle of the crate.
fn cycle_findings(
    files: &[SourceFile],
    edges: &graph::Edges,
    seen: &mut Vec<Vec<usize>>,
    out: &mut Vec<Finding>,
) -> Vec<Vec<usize>> {
    let names = |list: &[usize]| list.iter().map(|&f| files[f].rel.clone()).collect::<Vec<_>>();
    let tangles = graph::tangles(files.len(), edges);
    for component in tangles.iter().cloned() {
        if seen.contains(&component) {
            continue;
        }
        let mut message = format!("cycle: {}", names(&graph::cycle_through(&component, edges)).join(" -> "));
        message += &format!("\n  tangled together: {}", names(&component).join(", "));
        for ((from, to), (line, path)) in edges {
            if component.contains(from) && component.contains(to) {
                message += &format!("\n  {}:{line} -> {} ({path})", files[*from].rel, files[*to].rel);
            }
        }
        out.push(Finding { rule: Rule::NoCycles, files: names(&component), message });
        seen.push(component);
    }
    tangles
}

/// The findings no exception covers, then the exceptions that cover nothing or give no one-line reason.
fn judge(findings: Vec<Finding>, exceptions: &[Exception]) -> Vec<String> {
    let covers = |e: &Exception, f: &Finding| e.rule == f.rule && f.files.iter().any(|p| p == e.path);
    let mut problems: Vec<String> = findings
        .iter()
        .filter(|f| !exceptions.iter().any(|e| covers(e, f)))
        .map(|f| format!("{} [rule {}]", f.message, f.rule.name()))
        .collect();
    for e in exceptions {
        if !findings.iter().any(|f| covers(e, f)) {
            problems.push(format!("{}: stale exception, the file keeps the rule [rule {}]", e.path, e.rule.name()));
        }
        if e.reason.trim().is_empty() || e.reason.contains('\n') {
            problems.push(format!("{}: an exception needs a one-line reason [rule {}]", e.path, e.rule.name()));
        }
    }
    problems
}

/// Whether `rel` (from `repo`) is a `mod.rs` cargo needs: a helper folder directly in a crate's `tests/`
/// (`tests/common/mod.rs`), since cargo builds every `.rs` file directly in `tests/` as a test of its own.
fn cargo_needs_mod_rs(repo: &Path, rel: &str) -> bool {
    let tests = Path::new(rel).parent().and_then(Path::parent);
    tests.is_some_and(|t| t.ends_with("tests") && t.parent().is_some_and(|c| repo.join(c).join("Cargo.toml").is_file()))
}

/// Every `.rs` file under `dir`, skipping `target/` folders.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) -> Result {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() && entry.file_name() != "target" {
            rust_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}
