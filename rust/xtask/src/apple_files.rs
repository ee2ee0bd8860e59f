//! Reading Apple's library files without Apple's tools: the defined globals of a static library's Mach-O objects
//! and the symbols a text stub (`.tbd`) exports. Used by the iOS build (`toolchain/ios.rs` renames the globals,
//! `toolchain/cross.rs` reads zig's libSystem stub) and by its checks (`verify/ios.rs`): a module of its own, so
//! the build imports nothing of the checks.

use std::collections::{BTreeSet, HashSet};

use object::read::archive::ArchiveFile;
use object::read::macho::MachOFile64;
use object::{Endianness, FileKind, Object, ObjectSymbol};

use crate::library::parse_error;
use crate::process::Result;

/// The defined global symbols of every object in a static library (what `toolchain/ios.rs` renames).
pub fn defined_globals(data: &[u8]) -> Result<BTreeSet<String>> {
    let archive = ArchiveFile::parse(data).map_err(|e| format!("not a static library (ar archive): {e}"))?;
    let mut names = BTreeSet::new();
    for member in archive.members() {
        let member = member.map_err(parse_error)?;
        let bytes = member.data(data).map_err(parse_error)?;
        if FileKind::parse(bytes).map_err(parse_error)? != FileKind::MachO64 {
            continue;
        }
        let object = MachOFile64::<Endianness>::parse(bytes).map_err(parse_error)?;
        for symbol in object.symbols().filter(|s| s.is_global() && !s.is_undefined()) {
            names.insert(symbol.name().map_err(parse_error)?.to_string());
        }
    }
    Ok(names)
}

/// The symbols a TAPI text stub (`.tbd`) exports: every name in its `symbols`, `weak-symbols` and
/// `thread-local-symbols` lists, over all its documents (libSystem's re-exported libraries included).
pub fn tbd_symbols(text: &str) -> HashSet<String> {
    let mut names = HashSet::new();
    let mut in_list = false;
    for line in text.lines() {
        let mut rest = line.trim();
        if let Some(pos) = ["symbols:", "weak-symbols:", "thread-local-symbols:"]
            .iter()
            .filter_map(|key| rest.find(key).map(|p| p + key.len()))
            .next()
            && !rest.starts_with("objc-")
        {
            rest = rest[pos..].trim_start();
            in_list = rest.starts_with('[');
        } else if !in_list {
            continue;
        }
        for word in rest.split([',', '[', ']', ' ']) {
            let word = word.trim().trim_matches('\'').trim_matches('"');
            if !word.is_empty() {
                names.insert(word.to_string());
            }
        }
        if rest.contains(']') {
            in_list = false;
        }
    }
    names
}
