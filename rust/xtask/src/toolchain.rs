//! The tools the commands need from outside the repository, fetched on first use without touching the host
//! beyond the few host packages they name: Debian's archive through a confined apt (`debian`), the cross builds'
//! standard-library source, linkers and zig (`cross`), emscripten for the web (`emscripten`), the browser test's emscripten
//! and Godot web export template (`emscripten_sid`, `web_template`), Godot itself (`godot`), and the phones'
//! pieces made here: the Android sysroot (`android`, from the bionic symbol table `bionic_symbols`) and the iOS
//! `.xcframework` (`ios`).

pub mod android;
pub mod bionic_symbols;
pub mod cross;
pub mod debian;
pub mod emscripten;
pub mod emscripten_sid;
pub mod godot;
pub mod ios;
pub mod web_template;
