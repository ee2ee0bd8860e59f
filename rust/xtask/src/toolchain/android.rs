//! Android without the NDK: the sysroot the Android libraries link against, made here at build time.
//!
//! No registry this project reaches carries the Android NDK or a bionic sysroot, so this module makes what the
//! link needs the way the NDK makes its own sysroot:
//! - stub `libc.so`, `libm.so`, `libdl.so` (and an empty `liblog.so`, which `std` names) generated from
//!   [`bionic_symbols::SYMBOLS`], the project's own table of every bionic symbol Reach2D imports, each with its
//!   version node and the API level it arrived in. A stub holds only the symbols at or below [`API_LEVEL`], so the
//!   link fails on anything newer, unless it is a weak reference that `std` checks at run time (as the NDK's
//!   stubs for an API level do), and on anything missing from the table (`--no-undefined`);
//! - `crtbegin_so.o` and `crtend_so.o`, written here (below): `__dso_handle`, the `__cxa_finalize` call bionic's
//!   own start object makes at `dlclose`, and the `.note.android.ident` note with the API level;
//! - an empty `libunwind.a` for `std`'s `-lunwind`: the library is built with `panic=abort` (as the web build is),
//!   so nothing unwinds, and `std`'s only other use of the unwinder (backtraces) resolves to [`UNWIND_STUB_C`].
//!
//! The driver is Debian's `clang-19` with `--target=<arch>-linux-android<API>` and `lld`; it compiles the stubs
//! and links the library (16 KB pages, SONAME, both hash tables: see [`rustflags`]).

use crate::platform::Platform;
use crate::process::{Result, repo_root, run, write_file};
use crate::toolchain::bionic_symbols::{self, SYMBOLS};
use crate::toolchain::debian::ensure_host_programs;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The lowest Android API level the libraries load on: the lowest minSdk Godot 4.3's Android export accepts
/// (`OPENGL_MIN_SDK_VERSION = 21` in `platform/android/export/export_plugin.cpp` of Godot 4.3; the Vulkan renderers
/// ask for 24 and Godot 4.5 raised its minimum to 24), so one library serves every Godot from 4.3 on.
pub const API_LEVEL: u32 = 21;
/// The largest page size an Android device uses (Android 15+ devices may run 16 KB pages); every LOAD segment is
/// aligned to it.
pub const PAGE_SIZE: u64 = 16384;
/// The LLVM whose `clang` and `lld` link the Android libraries: the same host packages the web build uses.
const CLANG: &str = "clang-19";
/// Written last into the sysroot, with what it was made from, so a changed table or source remakes it.
const STAMP: &str = "reach2d-android-sysroot.txt";

/// `std`'s backtrace support calls these; with `panic=abort` nothing unwinds, so a backtrace (only taken with
/// `RUST_BACKTRACE` set) ends at once instead of pulling in an unwinder. `_URC_END_OF_STACK` is 5.
const UNWIND_STUB_C: &str = "\
typedef int (*trace_fn)(void *, void *);
__attribute__((visibility(\"hidden\"))) int _Unwind_Backtrace(trace_fn f, void *arg) { (void)f; (void)arg; return 5; }
__attribute__((visibility(\"hidden\"))) unsigned long _Unwind_GetIP(void *c) { (void)c; return 0; }
__attribute__((visibility(\"hidden\"))) unsigned long _Unwind_GetCFA(void *c) { (void)c; return 0; }
__attribute__((visibility(\"hidden\"))) void *_Unwind_FindEnclosingFunction(void *pc) { return pc; }
";

/// The start object of a shared library, as bionic's `crtbegin_so.c` and `crtbrand.S` make it: `__dso_handle`
/// (which `__cxa_atexit` and `__cxa_thread_atexit_impl` registrations name this library by), the call that runs
/// those registrations when the library is unloaded, and the note that records the API level it was built for.
fn crtbegin_so_c(api: u32) -> String {
    format!(
        "extern void __cxa_finalize(void *);
__attribute__((visibility(\"hidden\"))) void *__dso_handle = &__dso_handle;
__attribute__((visibility(\"hidden\"), destructor)) void __on_dlclose(void) {{ __cxa_finalize(&__dso_handle); }}
__asm__(\".pushsection .note.android.ident,\\\"a\\\",%note\\n\"
        \".balign 4\\n.long 8\\n.long 4\\n.long 1\\n.asciz \\\"Android\\\"\\n.balign 4\\n.long {api}\\n.popsection\");
"
    )
}

/// The end object: nothing but the note that the library needs no executable stack.
const CRTEND_SO_C: &str = "/* The end of a shared library: nothing to add on Android's arm64 and x86_64. */\n";

/// The clang target triple of `platform` at [`API_LEVEL`] (`aarch64-linux-android21`).
pub fn clang_target(platform: Platform) -> String {
    format!("{}{API_LEVEL}", platform.rust_target())
}

/// The sysroot for `platform` (both ABIs share one folder, `target/android-sysroot/api<API>`), made on first use.
pub fn sysroot(platform: Platform) -> Result<PathBuf> {
    ensure_host_programs(
        "the Android build",
        &[(CLANG, "clang-19"), ("ld.lld-19", "lld-19"), ("llvm-ar-19", "llvm-19")],
    )?;
    let root = repo_root().join(format!("target/android-sysroot/api{API_LEVEL}"));
    let lib_dir = root.join("usr/lib").join(platform.rust_target());
    let api_dir = lib_dir.join(API_LEVEL.to_string());
    let wanted = stamp_text(platform);
    let stamp = lib_dir.join(STAMP);
    if fs::read_to_string(&stamp).is_ok_and(|s| s == wanted) {
        return Ok(root);
    }
    println!("xtask: making the Android sysroot for {} in {}", platform.name(), lib_dir.display());
    let _ = fs::remove_dir_all(&lib_dir);
    let src = lib_dir.join("src");
    fs::create_dir_all(&src).map_err(|e| format!("cannot create {}: {e}", src.display()))?;
    fs::create_dir_all(&api_dir).map_err(|e| format!("cannot create {}: {e}", api_dir.display()))?;
    let target = clang_target(platform);
    for library in bionic_symbols::LIBRARIES {
        let asm = src.join(format!("{library}.S"));
        let map = src.join(format!("{library}.map"));
        write_file(&asm, &stub_assembly(library))?;
        let mut cmd = clang(&target);
        cmd.args(["-shared", "-nostdlib", "-fuse-ld=lld", "-o"]).arg(api_dir.join(library)).arg(&asm);
        let script = stub_version_script(library);
        // liblog.so has no symbol, so no version node either.
        if !script.is_empty() {
            write_file(&map, &script)?;
            cmd.arg(format!("-Wl,--version-script={}", map.display()));
        }
        run(cmd.arg(format!("-Wl,-soname,{library}")))?;
    }
    for (name, text) in [("crtbegin_so", crtbegin_so_c(API_LEVEL)), ("crtend_so", CRTEND_SO_C.to_string())] {
        let c = src.join(format!("{name}.c"));
        write_file(&c, &text)?;
        let object = api_dir.join(format!("{name}.o"));
        run(clang(&target).args(["-c", "-O2", "-fPIC", "-fno-stack-protector", "-o"]).arg(object).arg(&c))?;
    }
    let unwind_c = src.join("unwind_stub.c");
    let unwind_o = src.join("unwind_stub.o");
    write_file(&unwind_c, UNWIND_STUB_C)?;
    run(clang(&target).args(["-c", "-O2", "-fPIC", "-o"]).arg(&unwind_o).arg(&unwind_c))?;
    let archive = lib_dir.join("libunwind.a");
    let _ = fs::remove_file(&archive);
    run(Command::new("llvm-ar-19").arg("rcs").arg(&archive).arg(&unwind_o))?;
    write_file(&stamp, &wanted)?;
    Ok(root)
}

/// What the sysroot is made from, so a change to any of it remakes the sysroot.
fn stamp_text(platform: Platform) -> String {
    let mut text =
        format!("{}\n{API_LEVEL}\n{}\n{CRTEND_SO_C}{UNWIND_STUB_C}", platform.name(), crtbegin_so_c(API_LEVEL));
    for library in bionic_symbols::LIBRARIES {
        text.push_str(&stub_assembly(library));
        text.push_str(&stub_version_script(library));
    }
    text
}

/// The stub library's source: one global function per table entry of `library` at or below [`API_LEVEL`]. Only
/// the names, types and versions matter: nothing ever runs it.
fn stub_assembly(library: &str) -> String {
    let mut text = String::from("/* Generated by cargo xtask from rust/xtask/src/toolchain/bionic_symbols.rs. */\n");
    for symbol in SYMBOLS.iter().filter(|s| s.library == library && s.api <= API_LEVEL) {
        let name = symbol.name;
        text.push_str(&format!(".text\n.globl {name}\n.type {name}, %function\n{name}:\n"));
    }
    text
}

/// The stub library's version script: each symbol in its bionic version node (`LIBC`, `LIBC_N`, ...).
fn stub_version_script(library: &str) -> String {
    let symbols: Vec<_> = SYMBOLS.iter().filter(|s| s.library == library && s.api <= API_LEVEL).collect();
    let mut nodes: Vec<&str> = symbols.iter().map(|s| s.version).collect();
    nodes.sort();
    nodes.dedup();
    let mut text = String::new();
    for node in nodes {
        text.push_str(&format!("{node} {{\n  global:\n"));
        for symbol in symbols.iter().filter(|s| s.version == node) {
            text.push_str(&format!("    {};\n", symbol.name));
        }
        text.push_str("};\n");
    }
    text
}

/// The cargo environment that builds `platforms` (Android ABIs) in one invocation: `clang-19` as each target's
/// linker and the target's own `RUSTFLAGS` (see [`rustflags`]).
pub fn configure(cmd: &mut Command, platforms: &[Platform], release: bool) -> Result {
    for &platform in platforms {
        let root = sysroot(platform)?;
        let key = platform.rust_target().to_uppercase().replace('-', "_");
        cmd.env(format!("CARGO_TARGET_{key}_LINKER"), CLANG)
            .env(format!("CARGO_TARGET_{key}_RUSTFLAGS"), rustflags(platform, &root, release));
    }
    Ok(())
}

/// The target's `RUSTFLAGS`:
/// - `panic=abort` (std is built for it): nothing unwinds (see the module's help; README: what a panic does);
/// - clang-19 as the driver for `<arch>-linux-android<API>` with the sysroot above, linking with lld;
/// - `--no-undefined`: a symbol missing from the stubs (so from the table) fails the link;
/// - SONAME = the file name the addon ships it under (bionic requires one from API 23);
/// - LOAD segments aligned to 16 KB (Android 15+); `--hash-style=both`: Android before 6.0 (API 23) reads only
///   the SysV hash table.
pub fn rustflags(platform: Platform, sysroot: &Path, release: bool) -> String {
    let link_args = [
        format!("--target={}", clang_target(platform)),
        format!("--sysroot={}", sysroot.display()),
        "-fuse-ld=lld".to_string(),
        "-Wl,--no-undefined".to_string(),
        format!("-Wl,-soname,{}", platform.library_name(release)),
        format!("-Wl,-z,max-page-size={PAGE_SIZE}"),
        "-Wl,--hash-style=both".to_string(),
    ];
    let mut flags = String::from("-C panic=abort");
    for arg in link_args {
        flags.push_str(" -C link-arg=");
        flags.push_str(&arg);
    }
    flags
}

/// A `clang-19` command for `target`.
fn clang(target: &str) -> Command {
    let mut cmd = Command::new(CLANG);
    cmd.arg(format!("--target={target}"));
    cmd
}
