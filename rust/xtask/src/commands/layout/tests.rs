//! The guard on small trees written to a temporary folder: each rule fails where it should and only there.

use super::{Exception, MAX_CODE_LINES, Rule, check, lexer};
use std::path::PathBuf;

/// A repository in a temporary folder holding one crate, `rust/c` (removed when dropped).
struct Tree(PathBuf);

impl Tree {
    fn new(name: &str, files: &[(&str, &str)]) -> Tree {
        let root = std::env::temp_dir().join(format!("xtask-layout-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let krate = root.join("rust/c");
        std::fs::create_dir_all(&krate).unwrap();
        std::fs::write(krate.join("Cargo.toml"), "[package]\nname = \"c\"\n").unwrap();
        for (path, text) in files {
            let path = krate.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        Tree(root)
    }

    fn problems(&self, exceptions: &[Exception]) -> Vec<String> {
        check(&self.0, exceptions).unwrap()
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `lines` lines of code.
fn code(lines: usize) -> String {
    (0..lines).map(|i| format!("pub const C{i}: u32 = {i};\n")).collect()
}

#[test]
fn a_file_over_the_limit_fails_and_one_at_it_passes() {
    let at = Tree::new("at", &[("src/lib.rs", &code(MAX_CODE_LINES))]);
    assert_eq!(at.problems(&[]), Vec::<String>::new());
    let over = Tree::new("over", &[("src/lib.rs", &code(MAX_CODE_LINES + 1))]);
    let problems = over.problems(&[]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("rust/c/src/lib.rs: 351 lines of code, more than 350 [rule size"), "{problems:?}");
}

#[test]
fn comments_and_blank_lines_do_not_count() {
    let padding =
        "\n   \n// a comment\n/// a doc comment\n//! an inner doc comment\n/* a block\n   comment /* nested */\n*/\n";
    let text = format!("{padding}{}{padding}", code(MAX_CODE_LINES));
    let tree = Tree::new("comments", &[("src/lib.rs", &text)]);
    assert_eq!(tree.problems(&[]), Vec::<String>::new());
}

#[test]
fn strings_are_code_even_when_they_look_like_comments() {
    let source = "const A: &str = \"\n// not a comment\n/* nor this\n\";\nconst B: &str = r#\"\n*/\n\"#;\n// one\n";
    assert_eq!(lexer::lex(source).code_lines, 7);
    // A lifetime is no char literal: the quote in the comment opens nothing.
    assert_eq!(lexer::lex("fn f<'a>(x: &'a u8, y: &'a u8) {}\n// it's a comment\n").code_lines, 1);
}

#[test]
fn an_inline_test_module_fails_and_a_test_file_passes() {
    let inline = Tree::new(
        "inline",
        &[("src/lib.rs", "pub fn f() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n")],
    );
    let problems = inline.problems(&[]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("rust/c/src/lib.rs:4: inline test module `mod tests` [rule tests apart"),
        "{problems:?}"
    );

    let apart = Tree::new(
        "apart",
        &[
            ("src/lib.rs", "mod foo;\n"),
            ("src/foo.rs", "pub fn f() {}\n#[cfg(test)]\nmod tests;\n"),
            // Inside test code, inline modules are free (and `super::*` is the test's own parent).
            ("src/foo/tests.rs", "use super::*;\nmod more {\n    #[cfg(test)]\n    mod deeper {}\n}\n"),
            ("tests/it.rs", "#[cfg(test)]\nmod helpers {}\n"),
        ],
    );
    assert_eq!(apart.problems(&[]), Vec::<String>::new());
}

#[test]
fn a_two_file_cycle_fails_naming_it() {
    let tree = Tree::new(
        "two",
        &[
            ("src/lib.rs", "mod a;\nmod b;\n"),
            ("src/a.rs", "use crate::b::B;\npub struct A;\n"),
            ("src/b.rs", "pub struct B;\npub fn f() { let _ = crate::a::A; }\n"),
        ],
    );
    let problems = tree.problems(&[]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("cycle: rust/c/src/a.rs -> rust/c/src/b.rs -> rust/c/src/a.rs\n"), "{problems:?}");
    assert!(problems[0].contains("rust/c/src/b.rs:2 -> rust/c/src/a.rs (crate::a::A)"), "{problems:?}");
}

#[test]
fn a_three_file_cycle_through_nested_modules_and_macros_fails_naming_it() {
    let tree = Tree::new(
        "three",
        &[
            ("src/lib.rs", "mod io;\nmod nodes;\n"),
            ("src/io.rs", "pub mod bones;\n"),
            // A grouped use: `crate::nodes::{tick::{self}}` points into nodes/tick.rs.
            ("src/io/bones.rs", "use crate::{nodes::{tick::{self}}};\npub fn read() {}\n"),
            ("src/nodes.rs", "pub mod declare;\npub mod tick;\n"),
            // A macro's `$crate::` path.
            ("src/nodes/declare.rs", "macro_rules! m { () => { $crate::io::bones::read() } }\n"),
            // `super::` from nodes/tick.rs is nodes/.
            ("src/nodes/tick.rs", "pub fn t() { super::declare::m!(); }\n"),
        ],
    );
    let problems = tree.problems(&[]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let cycle = "cycle: rust/c/src/io/bones.rs -> rust/c/src/nodes/tick.rs -> rust/c/src/nodes/declare.rs -> \
                 rust/c/src/io/bones.rs\n";
    assert!(problems[0].starts_with(cycle), "{problems:?}");
}

#[test]
fn a_facade_reexport_is_no_cycle_but_a_hub_that_uses_its_children_is() {
    let files = [
        (
            "src/lib.rs",
            "mod a;\nmod b;\nmod nodes;\npub use a::A;\npub use b::{B, helper as help};\npub const V: u8 = 1;\n",
        ),
        // `crate::B` is b.rs's B; `crate::V` is the root's own (and the root uses nothing of a.rs).
        ("src/a.rs", "use crate::B;\npub struct A(B);\npub const W: u8 = crate::V;\n"),
        ("src/b.rs", "pub struct B;\npub fn helper() { let _ = crate::nodes::Node; }\n"),
        ("src/nodes.rs", "mod node;\npub use node::Node;\n"),
        ("src/nodes/node.rs", "pub struct Node;\npub fn f() -> super::Node { Node }\n"),
    ];
    assert_eq!(Tree::new("facade", &files).problems(&[]), Vec::<String>::new());

    // A re-export is followed: b.rs's `crate::a::A` and a.rs's `crate::B` (b.rs's B) are a cycle.
    let mut through = files;
    through[2].1 = "pub struct B;\npub fn helper() { let _ = crate::a::A; }\n";
    let problems = Tree::new("through", &through).problems(&[]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("cycle: rust/c/src/a.rs -> rust/c/src/b.rs -> rust/c/src/a.rs\n"), "{problems:?}");

    // The root's own code uses `A`, and a.rs uses the root's `Settings`: a real cycle.
    let mut hub = files;
    hub[0].1 = "mod a;\nmod b;\nmod nodes;\npub use a::A;\npub struct Settings(pub A);\n";
    hub[1].1 = "pub struct A;\npub fn f(_: crate::Settings) {}\n";
    let problems = Tree::new("hub", &hub).problems(&[]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("cycle: rust/c/src/a.rs -> rust/c/src/lib.rs -> rust/c/src/a.rs\n"),
        "{problems:?}"
    );
}

#[test]
fn exceptions_cover_a_file_and_fail_when_stale() {
    let long = Tree::new("excepted", &[("src/lib.rs", &code(MAX_CODE_LINES + 1))]);
    let reason = "generated tables, split by hand would hide their order";
    let excepted = [Exception { path: "rust/c/src/lib.rs", rule: Rule::Size, reason }];
    assert_eq!(long.problems(&excepted), Vec::<String>::new());
    // Another rule's exception does not cover it.
    let wrong_rule = [Exception { path: "rust/c/src/lib.rs", rule: Rule::TestsApart, reason }];
    assert_eq!(long.problems(&wrong_rule).len(), 2);
    let no_reason = [Exception { path: "rust/c/src/lib.rs", rule: Rule::Size, reason: " " }];
    assert_eq!(
        long.problems(&no_reason),
        ["rust/c/src/lib.rs: an exception needs a one-line reason [rule size: at most 350 lines of code per file]"]
    );

    let short = Tree::new("stale", &[("src/lib.rs", &code(MAX_CODE_LINES))]);
    let problems = short.problems(&excepted);
    assert_eq!(
        problems,
        ["rust/c/src/lib.rs: stale exception, the file keeps the rule [rule size: at most 350 lines of code per file]"]
    );
}

#[test]
fn a_shared_file_is_read_in_each_crate_that_includes_it() {
    // In tests/it.rs's crate, common's `$crate::common` is common itself and `super::run` names nothing; in
    // tests/deep.rs's crate (through `#[path]`), `$crate::common` names nothing and `super::run` is harness's run,
    // which calls common: one cycle, and only that one.
    let common =
        "pub fn helper() {}\npub fn go() { super::run() }\nmacro_rules! m { () => { $crate::common::helper() } }\n";
    let tree = Tree::new(
        "shared",
        &[
            ("tests/common/mod.rs", common),
            ("tests/it.rs", "mod common;\nfn main() { common::helper(); }\n"),
            (
                "tests/harness/mod.rs",
                "#[path = \"../common/mod.rs\"]\npub mod common;\npub fn run() { common::helper() }\n",
            ),
            ("tests/deep.rs", "mod harness;\nuse harness::common::helper;\nfn main() { helper(); harness::run(); }\n"),
        ],
    );
    let problems = tree.problems(&[]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let cycle = "cycle: rust/c/tests/common/mod.rs -> rust/c/tests/harness/mod.rs -> rust/c/tests/common/mod.rs\n  \
                 tangled together: rust/c/tests/common/mod.rs, rust/c/tests/harness/mod.rs\n";
    assert!(problems[0].starts_with(cycle), "{problems:?}");
}

#[test]
fn paths_a_proc_macro_writes_for_its_user_are_not_its_own() {
    // `crate::frame::X` inside `quote!` is the user's crate; the same path outside it is this crate's.
    let tree = Tree::new(
        "quote",
        &[
            ("src/lib.rs", "mod a;\nmod frame;\npub fn f() -> T { a::g() }\n"),
            ("src/a.rs", "pub fn g() -> T { quote! { impl crate::frame::X for Y {} } }\n"),
            ("src/frame.rs", "pub fn h() { crate::a::g(); }\n"),
        ],
    );
    assert!(tree.problems(&[]).is_empty(), "{:?}", tree.problems(&[]));
    let tree = Tree::new(
        "quote-outside",
        &[
            ("src/lib.rs", "mod a;\nmod frame;\n"),
            ("src/a.rs", "pub fn g() { crate::frame::h(); }\n"),
            ("src/frame.rs", "pub fn h() { crate::a::g(); }\n"),
        ],
    );
    assert_eq!(tree.problems(&[]).len(), 1, "the same paths outside quote! are a cycle");
}

/// A crate whose top-level modules `nodes` and `frame` depend on each other without any file cycle: `frame/tick.rs`
/// names `crate::nodes::helper` inline, and `nodes/node.rs` invokes the proc macro crate `m` (`rust/m`), whose
/// `quote!` writes `crate::frame::tick::run` into it. With `frame_back` false, `frame` names nothing of `nodes`.
fn module_tree(name: &str, frame_back: bool) -> Tree {
    let tick = if frame_back {
        "pub fn run() {}\npub fn t() { crate::nodes::helper::help(); }\n"
    } else {
        "pub fn run() {}\n"
    };
    Tree::new(
        name,
        &[
            ("src/lib.rs", "mod frame;\nmod nodes;\n"),
            ("src/frame.rs", "pub mod tick;\n"),
            ("src/frame/tick.rs", tick),
            ("src/nodes.rs", "pub mod helper;\npub mod node;\n"),
            ("src/nodes/helper.rs", "pub fn help() {}\n"),
            ("src/nodes/node.rs", "#[m::node]\npub struct Node;\n"),
            ("../m/Cargo.toml", "[package]\nname = \"m\"\n\n[lib]\nproc-macro = true\n"),
            (
                "../m/src/lib.rs",
                "use crate::gen::body;\nmod gen;\npub fn node() -> T {\n    quote! { fn f() { crate::frame::tick::run() } }\n}\n",
            ),
            ("../m/src/gen.rs", "pub fn body() {}\n"),
        ],
    )
}

#[test]
fn a_cycle_between_top_level_modules_fails_counting_paths_a_macro_writes() {
    let problems = module_tree("modules", true).problems(&[]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let lines: Vec<&str> = problems[0].lines().collect();
    assert_eq!(
        lines[..4],
        [
            "module cycle in rust/c: frame -> nodes -> frame",
            "  modules tangled together: frame, nodes",
            "  frame -> nodes: rust/c/src/frame/tick.rs:2 names crate::nodes::helper::help",
            "  nodes -> frame: rust/c/src/nodes/node.rs:1 invokes m, whose macros write crate::frame::tick::run \
             (rust/m/src/lib.rs:4)",
        ],
        "{problems:?}"
    );
    assert!(lines[4].starts_with("  to fix: dependencies point one way"), "{problems:?}");
    assert!(problems[0].ends_with("[rule no cycles between a crate's top-level modules]"), "{problems:?}");

    // An exception names a file that makes one of the dependencies.
    let reason = "being restructured";
    let excepted = [Exception { path: "rust/c/src/frame/tick.rs", rule: Rule::NoModuleCycles, reason }];
    assert_eq!(module_tree("modules-excepted", true).problems(&excepted), Vec::<String>::new());
}

#[test]
fn top_level_modules_that_depend_one_way_pass() {
    // `nodes` -> `frame` through the macro only; the macro crate's own `crate::gen` is its own module, not one the
    // macro writes.
    assert_eq!(module_tree("one-way", false).problems(&[]), Vec::<String>::new());
    // The same cycle through a `use` line (no macro) fails too, and a crate root naming both is no part of it.
    let tree = Tree::new(
        "modules-use",
        &[
            ("src/lib.rs", "mod a;\nmod b;\npub use a::A;\npub fn f() -> b::B { b::B }\n"),
            ("src/a.rs", "mod inner;\npub struct A;\n"),
            ("src/a/inner.rs", "use crate::b::B;\npub fn g(_: B) {}\n"),
            ("src/b.rs", "pub struct B;\npub fn h(_: crate::a::A) {}\n"),
        ],
    );
    let problems = tree.problems(&[]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("module cycle in rust/c: a -> b -> a\n"), "{problems:?}");
}

#[test]
fn a_mod_rs_fails_except_a_test_helper_folder_cargo_needs() {
    let tree = Tree::new(
        "mod-rs",
        &[
            ("src/lib.rs", "mod nodes;\nmod io;\n"),
            ("src/nodes/mod.rs", "mod node;\npub use node::Node;\n"),
            ("src/nodes/node.rs", "pub struct Node;\n"),
            ("src/io.rs", "#[cfg(test)]\nmod tests;\n"),
            ("src/io/tests/mod.rs", "mod reads;\n"),
            ("src/io/tests/reads.rs", "#[test]\nfn t() {}\n"),
            ("tests/common/mod.rs", "pub fn helper() {}\n"),
            ("tests/it.rs", "mod common;\n#[test]\nfn t() { common::helper() }\n"),
        ],
    );
    let problems = tree.problems(&[]);
    let rule = "[rule one module style: `foo.rs` beside `foo/`, no `foo/mod.rs` (cargo's `tests/<helper>/mod.rs` \
                excepted)]";
    assert_eq!(
        problems,
        [
            format!(
                "rust/c/src/io/tests/mod.rs: a `mod.rs`; move it to `rust/c/src/io/tests.rs`, beside its folder (`git mv`) {rule}"
            ),
            format!(
                "rust/c/src/nodes/mod.rs: a `mod.rs`; move it to `rust/c/src/nodes.rs`, beside its folder (`git mv`) {rule}"
            ),
        ]
    );

    // Moved: no problem, and `nodes.rs` beside `nodes/` is the facade its `mod.rs` was (its re-export of its child
    // is no dependency, so the child naming it back is no cycle).
    let moved = Tree::new(
        "mod-rs-moved",
        &[
            ("src/lib.rs", "mod nodes;\nmod io;\n"),
            ("src/nodes.rs", "mod node;\npub use node::Node;\npub struct Settings;\n"),
            ("src/nodes/node.rs", "pub struct Node(super::Settings);\n"),
            ("src/io.rs", "#[cfg(test)]\nmod tests;\n"),
            ("src/io/tests.rs", "mod reads;\n"),
            ("src/io/tests/reads.rs", "#[test]\nfn t() {}\n"),
            ("tests/common/mod.rs", "pub fn helper() {}\n"),
            ("tests/it.rs", "mod common;\n#[test]\nfn t() { common::helper() }\n"),
        ],
    );
    assert_eq!(moved.problems(&[]), Vec::<String>::new());
}
