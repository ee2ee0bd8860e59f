//! Each crate as a graph of files: its module tree (walked from the crate root through `mod` declarations,
//! `#[path]` included), the paths its files name resolved to the file of their longest module prefix (through a
//! hub's re-exports: a crate root's, or a `foo.rs`'s whose children are files), and the strongly connected
//! components of that graph (Tarjan), for files and for top-level modules alike.

use super::scan::Scan;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::{Path, PathBuf};

/// One `.rs` file: `path` as found on disk (canonical), `rel` as reported.
pub struct SourceFile {
    pub path: PathBuf,
    pub rel: String,
    pub scan: Scan,
}

/// A file of a crate: its module path and whether it is a hub (whose re-exports are followed, and are no edges
/// unless the file uses the name itself): a crate root, or a module file with child modules in files of their own
/// (`foo.rs` beside `foo/`, or `foo/mod.rs`), not counting its tests.
struct Member {
    file: usize,
    module: Vec<String>,
    hub: bool,
}

/// One crate: its files, and the file holding each module path (inline modules map to their file).
pub struct Crate {
    /// The file the crate is walked from.
    pub root: usize,
    members: Vec<Member>,
    modules: HashMap<Vec<String>, usize>,
    alias: Option<String>,
}

/// A path as a file names it: the file (`file`), the module it is named in (`ctx`, from the crate root) and its
/// `segments` as written.
#[derive(Clone, Copy)]
pub struct Named<'a> {
    pub file: usize,
    pub ctx: &'a [String],
    pub segments: &'a [String],
}

/// An edge of the file graph, as first seen: where (line) and what path made it.
pub type Edges = BTreeMap<(usize, usize), (usize, String)>;

/// Where a file declared by `mod`, `#[path]` or not, would be; `None` when the file is not there.
fn declared_file(from: &Path, mod_rs: bool, scope: &[String], name: &str, path_attr: Option<&str>) -> Option<PathBuf> {
    let dir = from.parent()?;
    let mut base = if mod_rs || path_attr.is_some() { dir.to_path_buf() } else { dir.join(from.file_stem()?) };
    base.extend(scope);
    let candidates = match path_attr {
        Some(p) => vec![base.join(p)],
        None => vec![base.join(format!("{name}.rs")), base.join(name).join("mod.rs")],
    };
    candidates.into_iter().find_map(|p| p.canonicalize().ok())
}

/// A crate root by Cargo's conventions: `src/lib.rs`, `src/main.rs`, `src/bin/*.rs`, or a file directly in
/// `tests/`, `benches/`, `examples/` or (cargo-fuzz) `fuzz_targets/` next to a `Cargo.toml`.
fn conventional_root(path: &Path) -> bool {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else { return false };
    let dir_name = dir.file_name().unwrap_or_default();
    let crate_dir = if dir_name == "bin" { dir.parent().and_then(Path::parent) } else { dir.parent() };
    let conventional = (dir_name == "src" && (name == "lib.rs" || name == "main.rs"))
        || (dir_name == "bin" && dir.parent().is_some_and(|p| p.ends_with("src")))
        || ["tests", "benches", "examples", "fuzz_targets"].iter().any(|d| dir_name == *d);
    conventional && crate_dir.is_some_and(|c| c.join("Cargo.toml").is_file())
}

/// Every crate among `files`, walked from its root; a file no root reaches is a root of its own. Also says which
/// files are test code: under a crate's `tests/` or declared under `#[cfg(test)]` (or inside such a file).
pub fn crates(files: &[SourceFile]) -> (Vec<Crate>, Vec<bool>) {
    let index: HashMap<&Path, usize> = files.iter().enumerate().map(|(i, f)| (f.path.as_path(), i)).collect();
    let mut reached = vec![false; files.len()];
    let mut test = vec![false; files.len()];
    let mut roots: Vec<usize> = (0..files.len()).filter(|&i| conventional_root(&files[i].path)).collect();
    let mut crates = Vec::new();
    while let Some(root) = roots.pop().or_else(|| reached.iter().position(|r| !r)) {
        let in_tests = files[root].path.parent().is_some_and(|d| d.ends_with("tests"));
        let mut krate =
            Crate { root, members: Vec::new(), modules: HashMap::new(), alias: files[root].scan.crate_alias.clone() };
        let mut stack = vec![(root, Vec::new(), true, in_tests)];
        while let Some((file, module, mod_rs, is_test)) = stack.pop() {
            if krate.members.iter().any(|m| m.file == file) {
                continue;
            }
            reached[file] = true;
            test[file] |= is_test;
            let has_children = files[file].scan.mods.iter().any(|m| !m.inline && !m.cfg_test);
            let hub = file == root || files[file].path.ends_with("mod.rs") || has_children;
            krate.modules.insert(module.clone(), file);
            for decl in &files[file].scan.mods {
                let child: Vec<String> = module.iter().chain(&decl.scope).chain([&decl.name]).cloned().collect();
                if decl.inline {
                    krate.modules.insert(child, file);
                    continue;
                }
                let found =
                    declared_file(&files[file].path, mod_rs, &decl.scope, &decl.name, decl.path_attr.as_deref());
                if let Some(&next) = found.as_deref().and_then(|p| index.get(p)) {
                    let next_mod_rs = decl.path_attr.is_some() || files[next].path.ends_with("mod.rs");
                    stack.push((next, child, next_mod_rs, is_test || decl.cfg_test));
                }
            }
            krate.members.push(Member { file, module, hub });
        }
        crates.push(krate);
    }
    (crates, test)
}

impl Crate {
    /// The crate's files, root first.
    pub fn files(&self) -> impl Iterator<Item = usize> + '_ {
        self.members.iter().map(|m| m.file)
    }

    /// The top-level module `file` belongs to (`nodes` for `nodes.rs` and everything under `nodes/`); `None` for
    /// the crate root, which only declares.
    pub fn top_module(&self, file: usize) -> Option<&str> {
        self.members.iter().find(|m| m.file == file)?.module.first().map(String::as_str)
    }

    /// The path `named` as a path from the crate root; `None` when it leaves the crate (another crate, a local
    /// name, a primitive).
    fn absolute(&self, files: &[SourceFile], named: Named<'_>, hops: u32) -> Option<Vec<String>> {
        let Named { file, ctx, segments } = named;
        let (first, rest) = segments.split_first()?;
        let joined = |base: &[String], rest: &[String]| Some(base.iter().chain(rest).cloned().collect());
        match first.as_str() {
            "crate" => joined(&[], rest),
            _ if self.alias.as_ref() == Some(first) => joined(&[], rest),
            "self" => joined(ctx, rest),
            "super" => {
                let ups = segments.iter().take_while(|s| *s == "super").count();
                joined(&ctx[..ctx.len().checked_sub(ups)?], &segments[ups..])
            }
            _ if self.modules.contains_key(&[ctx, &segments[..1]].concat()) => joined(ctx, segments),
            _ if hops < 8 => {
                // A name this file imports (`use crate::io::bones;` then `bones::read(..)`).
                let member = self.members.iter().find(|m| m.file == file)?;
                let (decl, leaf) = files[file]
                    .scan
                    .uses
                    .iter()
                    .find_map(|u| u.leaves.iter().find(|l| l.bound.as_ref() == Some(first)).map(|l| (u, l)))?;
                let leaf_ctx: Vec<String> = member.module.iter().chain(&decl.scope).cloned().collect();
                let base = self.absolute(files, Named { file, ctx: &leaf_ctx, segments: &leaf.segments }, hops + 1)?;
                joined(&base, rest)
            }
            _ => None,
        }
    }

    /// The file the path `named` points into: the file of the longest module prefix, or, when the item after that
    /// prefix is re-exported by a hub, the file the re-export points into; `None` when that file does not mention
    /// the item at all.
    pub fn resolve(&self, files: &[SourceFile], named: Named<'_>, hops: u32) -> Option<usize> {
        let path = self.absolute(files, named, hops)?;
        let known = (0..=path.len()).rev().find(|&k| self.modules.contains_key(&path[..k]))?;
        let home = self.modules[&path[..known]];
        let member = self.members.iter().find(|m| m.file == home)?;
        let Some(item) = path.get(known) else { return Some(home) };
        let scan = &files[home].scan;
        let binds = |name: &String| scan.uses.iter().flat_map(|u| &u.leaves).any(|l| l.bound.as_ref() == Some(name));
        let glob = scan.uses.iter().flat_map(|u| &u.leaves).any(|l| l.bound.is_none());
        if !(scan.used_idents.contains(item) || binds(item) || glob) {
            // No such item there: the path means something else in another crate that includes this file.
            return None;
        }
        if !(member.hub && member.module == path[..known] && hops < 8) {
            return Some(home);
        }
        let reexport = files[home]
            .scan
            .uses
            .iter()
            .filter(|u| u.public && u.scope.is_empty())
            .find_map(|u| u.leaves.iter().find(|l| l.bound.as_ref() == Some(item)));
        match reexport {
            Some(leaf) => {
                let target: Vec<String> = leaf.segments.iter().chain(&path[known + 1..]).cloned().collect();
                self.resolve(files, Named { file: home, ctx: &member.module, segments: &target }, hops + 1)
            }
            None => Some(home),
        }
    }

    /// Every edge between two different files of this crate: each `use` leaf and named path that resolves to
    /// another file, except a hub's re-exports of names the hub does not use itself.
    pub fn edges(&self, files: &[SourceFile]) -> Edges {
        let mut edges = Edges::new();
        for member in &self.members {
            let scan = &files[member.file].scan;
            let mut add = |scope: &[String], segments: &[String], line: usize| {
                let ctx: Vec<String> = member.module.iter().chain(scope).cloned().collect();
                let named = Named { file: member.file, ctx: &ctx, segments };
                if let Some(to) = self.resolve(files, named, 0).filter(|&to| to != member.file) {
                    edges.entry((member.file, to)).or_insert_with(|| (line, segments.join("::")));
                }
            };
            for decl in &scan.uses {
                for leaf in &decl.leaves {
                    let reexport_only = member.hub
                        && decl.public
                        && decl.scope.is_empty()
                        && leaf.bound.as_ref().is_some_and(|name| !scan.used_idents.contains(name));
                    if !reexport_only {
                        add(&decl.scope, &leaf.segments, decl.line);
                    }
                }
            }
            for path in &scan.paths {
                add(&path.scope, &path.segments, path.line);
            }
        }
        edges
    }
}

/// The strongly connected components of more than one node (Tarjan), each sorted: `edges` join nodes `0..count`
/// (files, or a crate's top-level modules).
pub fn tangles<V>(count: usize, edges: &BTreeMap<(usize, usize), V>) -> Vec<Vec<usize>> {
    struct Tarjan<'a> {
        next: Vec<Vec<usize>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        counter: usize,
        found: &'a mut Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.counter);
            self.low[v] = self.counter;
            self.counter += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for w in self.next[v].clone() {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(i) if self.on_stack[w] => self.low[v] = self.low[v].min(i),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort_unstable();
                    self.found.push(component);
                }
            }
        }
    }
    let mut next = vec![Vec::new(); count];
    for &(from, to) in edges.keys() {
        next[from].push(to);
    }
    let mut found = Vec::new();
    let mut t = Tarjan {
        next,
        index: vec![None; count],
        low: vec![0; count],
        stack: Vec::new(),
        on_stack: vec![false; count],
        counter: 0,
        found: &mut found,
    };
    for v in 0..count {
        if t.index[v].is_none() {
            t.visit(v);
        }
    }
    found
}

/// A shortest cycle through `component[0]` inside `component`, as nodes in order (the first repeated at the end).
pub fn cycle_through<V>(component: &[usize], edges: &BTreeMap<(usize, usize), V>) -> Vec<usize> {
    let start = component[0];
    let mut came_from: HashMap<usize, usize> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for &(_, w) in edges.range((v, 0)..=(v, usize::MAX)).map(|(k, _)| k) {
            if !component.contains(&w) || came_from.contains_key(&w) {
                continue;
            }
            came_from.insert(w, v);
            if w == start {
                let mut cycle = vec![start];
                let mut at = v;
                while at != start {
                    cycle.push(at);
                    at = came_from[&at];
                }
                cycle.push(start);
                cycle.reverse();
                return cycle;
            }
            queue.push_back(w);
        }
    }
    component.to_vec()
}
