//! The iOS `.xcframework`: what Godot's iOS export and Xcode's link need, read from the files alone (nothing here
//! runs iOS or links with Apple's tools).
//!
//! - `Info.plist` is plain XML, lists a device slice and a simulator slice, and each slice's `BinaryPath` is a
//!   static library (`.a`), which is how Godot 4.3's export tells a static `.xcframework` from a dynamic one;
//! - every object of each library is a 64-bit Mach-O object of the slice's architecture whose `LC_BUILD_VERSION`
//!   names iOS (or the iOS simulator) and a minimum version no newer than we promise;
//! - `_gdext_rust_init` is defined, and every other global symbol carries Reach2D's prefix (nothing can clash with
//!   Godot's symbols or another Rust extension's);
//! - every undefined symbol is resolvable from the system: it is in the Darwin `libSystem` symbol list the macOS
//!   build already links against (zig's `libSystem.tbd`). iOS's `libSystem` is the same library built for iOS;
//!   the list is macOS's, so a symbol only macOS has would pass here and fail in Xcode (none of the C library,
//!   pthread and dyld functions `std` uses is such a one).

use super::{ENTRY_SYMBOL, parse_error};
use crate::process::Result;
use crate::toolchain::ios::{LIBRARY_FILE, MIN_IOS, MIN_IOS_SIMULATOR, SYMBOL_PREFIX};
use object::macho;
use object::read::archive::{ArchiveFile, ArchiveKind};
use object::read::macho::{LoadCommandVariant, MachOFile64};
use object::{Architecture, Endianness, FileKind, Object, ObjectSection, ObjectSymbol};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;

/// Checks the `.xcframework` folder `dir` against the `libSystem` symbol list `system`; returns a summary.
pub fn check_xcframework(dir: &Path, system: &HashSet<String>) -> Result<String> {
    let plist_path = dir.join("Info.plist");
    let text =
        std::fs::read_to_string(&plist_path).map_err(|e| format!("cannot read {}: {e}", plist_path.display()))?;
    let root = parse_plist(&text).map_err(|e| format!("Info.plist is not a plain XML property list: {e}"))?;
    let root = root.as_dict().ok_or("Info.plist's root is not a dictionary")?;
    if root.get("CFBundlePackageType").and_then(Plist::as_str) != Some("XFWK") {
        return Err("Info.plist's CFBundlePackageType is not XFWK (not an .xcframework)".into());
    }
    let libraries =
        root.get("AvailableLibraries").and_then(Plist::as_array).ok_or("Info.plist lists no AvailableLibraries")?;
    let (mut device, mut simulator, mut summary) = (0, 0, Vec::new());
    for library in libraries {
        let library = library.as_dict().ok_or("an AvailableLibraries entry is not a dictionary")?;
        let field = |key: &str| library.get(key).and_then(Plist::as_str).ok_or(format!("a library has no {key}"));
        let identifier = field("LibraryIdentifier")?;
        let binary = field("BinaryPath")?;
        if !binary.ends_with(".a") {
            return Err(format!("{identifier}: BinaryPath {binary} is not a static library (.a)"));
        }
        if field("LibraryPath")? != binary {
            return Err(format!("{identifier}: LibraryPath and BinaryPath differ"));
        }
        if field("SupportedPlatform")? != "ios" {
            return Err(format!("{identifier}: SupportedPlatform is not ios"));
        }
        let is_simulator = match library.get("SupportedPlatformVariant").map(|v| v.as_str()) {
            None => false,
            Some(Some("simulator")) => true,
            Some(other) => return Err(format!("{identifier}: unexpected SupportedPlatformVariant {other:?}")),
        };
        let archs: Vec<&str> = library
            .get("SupportedArchitectures")
            .and_then(Plist::as_array)
            .map(|a| a.iter().filter_map(Plist::as_str).collect())
            .unwrap_or_default();
        let [arch] = archs[..] else {
            return Err(format!("{identifier}: expected one architecture, found {archs:?}"));
        };
        let architecture = match arch {
            "arm64" => Architecture::Aarch64,
            "x86_64" if is_simulator => Architecture::X86_64,
            _ => return Err(format!("{identifier}: unexpected architecture {arch}")),
        };
        let path = dir.join(identifier).join(binary);
        let data = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let detail = check_static_library(&data, architecture, is_simulator, system)
            .map_err(|e| format!("{identifier}/{binary}: {e}"))?;
        summary.push(format!("{identifier}: {detail}"));
        if is_simulator { simulator += 1 } else { device += 1 }
    }
    if device != 1 || simulator != 1 {
        return Err(format!("expected one device and one simulator library, found {device} and {simulator}"));
    }
    Ok(format!("static .xcframework ({LIBRARY_FILE}): {}", summary.join("; ")))
}

/// Checks one static library (an `ar` archive of Mach-O objects) of a slice.
pub fn check_static_library(
    data: &[u8],
    arch: Architecture,
    simulator: bool,
    system: &HashSet<String>,
) -> Result<String> {
    let (platform, promised) =
        if simulator { (macho::PLATFORM_IOSSIMULATOR, MIN_IOS_SIMULATOR) } else { (macho::PLATFORM_IOS, MIN_IOS) };
    let promised = parse_os_version(promised).expect("a valid version constant");
    let archive = ArchiveFile::parse(data).map_err(|e| format!("not a static library (ar archive): {e}"))?;
    let (mut objects, mut defined, mut undefined) = (0, BTreeSet::new(), BTreeSet::new());
    let mut newest = 0;
    for member in archive.members() {
        let member = member.map_err(parse_error)?;
        let name = String::from_utf8_lossy(member.name()).into_owned();
        let bytes = member.data(data).map_err(parse_error)?;
        let object =
            MachOFile64::<Endianness>::parse(bytes).map_err(|e| format!("{name} is not a 64-bit Mach-O: {e}"))?;
        let endian = object.endian();
        if object.macho_header().filetype.get(endian) != macho::MH_OBJECT {
            return Err(format!("{name} is not a Mach-O object file"));
        }
        if object.architecture() != arch {
            return Err(format!("{name} is built for {:?}, expected {arch:?}", object.architecture()));
        }
        let mut build = None;
        let mut commands = object.macho_load_commands().map_err(parse_error)?;
        while let Some(command) = commands.next().map_err(parse_error)? {
            if let LoadCommandVariant::BuildVersion(version, _) = command.variant().map_err(parse_error)? {
                build = Some((version.platform.get(endian), version.minos.get(endian).0));
            }
        }
        let (found, minos) = build.ok_or(format!("{name} has no LC_BUILD_VERSION (which OS it is for)"))?;
        if found != platform {
            return Err(format!(
                "{name} is built for platform {} (LC_BUILD_VERSION), expected {} ({})",
                found.0,
                platform.0,
                if simulator { "the iOS simulator" } else { "iOS" }
            ));
        }
        if minos > promised {
            return Err(format!(
                "{name} needs iOS {}, newer than the {} we promise",
                os_version(minos),
                os_version(promised)
            ));
        }
        newest = newest.max(minos);
        if object.sections().any(|section| section.name() == Ok("__bitcode")) {
            return Err(format!("{name} carries embedded LLVM bitcode (__LLVM,__bitcode), which Xcode 14+ rejects"));
        }
        for symbol in object.symbols() {
            let symbol_name = symbol.name().map_err(parse_error)?.to_string();
            if symbol.is_undefined() {
                undefined.insert(symbol_name);
            } else if symbol.is_global() {
                defined.insert(symbol_name);
            }
        }
        objects += 1;
    }
    if objects == 0 {
        return Err("holds no object file".into());
    }
    let entry = format!("_{ENTRY_SYMBOL}");
    if !defined.contains(&entry) {
        return Err(format!("does not define {entry}, so Godot's generated code cannot register it"));
    }
    // Apple's linker reads only a BSD-style table of contents (`__.SYMDEF`), and finds the member that defines the
    // entry point through it.
    if !matches!(archive.kind(), ArchiveKind::Bsd | ArchiveKind::Bsd64) {
        return Err(format!(
            "its archive format is {:?}, not the BSD one with the table Apple's linker reads",
            archive.kind()
        ));
    }
    let mut indexed = false;
    for symbol in archive.symbols().map_err(parse_error)?.into_iter().flatten() {
        indexed |= symbol.map_err(parse_error)?.name() == entry.as_bytes();
    }
    if !indexed {
        return Err(format!("its table of contents does not list {entry}, so the linker would not find it"));
    }
    let unprefixed: Vec<&String> = defined.iter().filter(|n| **n != entry && !n.starts_with(SYMBOL_PREFIX)).collect();
    if !unprefixed.is_empty() {
        let some: Vec<&str> = unprefixed.iter().take(5).map(|s| s.as_str()).collect();
        return Err(format!(
            "defines {} global symbols without the {SYMBOL_PREFIX} prefix (e.g. {}): they may clash with Godot's or \
             another extension's in the game's binary",
            unprefixed.len(),
            some.join(", ")
        ));
    }
    let unresolved: Vec<&String> = undefined.iter().filter(|n| !defined.contains(*n) && !system.contains(*n)).collect();
    if !unresolved.is_empty() {
        let some: Vec<&str> = unresolved.iter().take(8).map(|s| s.as_str()).collect();
        return Err(format!("needs {} symbols that libSystem does not have: {}", unresolved.len(), some.join(", ")));
    }
    let imports = undefined.iter().filter(|n| !defined.contains(*n)).count();
    Ok(format!(
        "{objects} {arch:?} objects for {} {}+, defines {entry} and {} prefixed globals, {imports} imports all in \
         libSystem",
        if simulator { "the iOS simulator" } else { "iOS" },
        os_version(newest),
        defined.len() - 1
    ))
}

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

/// `major.minor` of a Mach-O `xxxx.yy.zz` version word.
fn os_version(word: u32) -> String {
    format!("{}.{}", word >> 16, (word >> 8) & 0xff)
}

/// The Mach-O version word of `major.minor`.
fn parse_os_version(text: &str) -> Option<u32> {
    let (major, minor) = text.split_once('.')?;
    Some((major.parse::<u32>().ok()? << 16) | (minor.parse::<u32>().ok()? << 8))
}

/// A value of an XML property list (only what an `.xcframework`'s `Info.plist` holds).
#[derive(Debug, PartialEq)]
pub enum Plist {
    String(String),
    Array(Vec<Plist>),
    Dict(BTreeMap<String, Plist>),
}

impl Plist {
    fn as_str(&self) -> Option<&str> {
        if let Plist::String(s) = self { Some(s) } else { None }
    }
    fn as_array(&self) -> Option<&Vec<Plist>> {
        if let Plist::Array(a) = self { Some(a) } else { None }
    }
    fn as_dict(&self) -> Option<&BTreeMap<String, Plist>> {
        if let Plist::Dict(d) = self { Some(d) } else { None }
    }
}

/// Parses an XML property list's root value (`<dict>`, `<array>`, `<string>`, `<key>`; no entities but none is
/// needed for file names).
pub fn parse_plist(text: &str) -> std::result::Result<Plist, String> {
    let start = text.find("<plist").ok_or("no <plist> element")?;
    let body = &text[start..];
    let open = body.find('>').ok_or("unterminated <plist>")? + 1;
    let mut tokens = Tokens { text: &body[open..] };
    let value = parse_value(&mut tokens)?;
    match tokens.next()? {
        Some(Token::Close("plist")) => Ok(value),
        other => Err(format!("expected </plist>, found {other:?}")),
    }
}

#[derive(Debug, PartialEq)]
enum Token<'a> {
    Open(&'a str),
    Close(&'a str),
    Text(&'a str),
}

struct Tokens<'a> {
    text: &'a str,
}

impl<'a> Tokens<'a> {
    fn next(&mut self) -> std::result::Result<Option<Token<'a>>, String> {
        let trimmed = self.text.trim_start();
        if trimmed.is_empty() {
            return Ok(None);
        }
        if let Some(rest) = trimmed.strip_prefix('<') {
            let end = rest.find('>').ok_or("unterminated tag")?;
            let tag = &rest[..end];
            self.text = &rest[end + 1..];
            return Ok(Some(match tag.strip_prefix('/') {
                Some(name) => Token::Close(name.trim()),
                None => Token::Open(tag.trim()),
            }));
        }
        let end = trimmed.find('<').unwrap_or(trimmed.len());
        self.text = &trimmed[end..];
        Ok(Some(Token::Text(trimmed[..end].trim_end())))
    }
}

fn parse_value(tokens: &mut Tokens) -> std::result::Result<Plist, String> {
    match tokens.next()? {
        Some(Token::Open("string")) => Ok(Plist::String(text_until(tokens, "string")?)),
        Some(Token::Open("string/")) => Ok(Plist::String(String::new())),
        Some(Token::Open("array")) => {
            let mut items = Vec::new();
            loop {
                let saved = tokens.text;
                if let Some(Token::Close("array")) = tokens.next()? {
                    return Ok(Plist::Array(items));
                }
                tokens.text = saved;
                items.push(parse_value(tokens)?);
            }
        }
        Some(Token::Open("dict")) => {
            let mut entries = BTreeMap::new();
            loop {
                match tokens.next()? {
                    Some(Token::Close("dict")) => return Ok(Plist::Dict(entries)),
                    Some(Token::Open("key")) => {
                        let key = text_until(tokens, "key")?;
                        entries.insert(key, parse_value(tokens)?);
                    }
                    other => return Err(format!("expected <key> or </dict>, found {other:?}")),
                }
            }
        }
        other => Err(format!("expected <string>, <array> or <dict>, found {other:?}")),
    }
}

fn text_until(tokens: &mut Tokens, tag: &str) -> std::result::Result<String, String> {
    let mut text = String::new();
    loop {
        match tokens.next()? {
            Some(Token::Text(t)) => text.push_str(t),
            Some(Token::Close(name)) if name == tag => return Ok(text),
            other => return Err(format!("expected text and </{tag}>, found {other:?}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolchain::ios::info_plist;

    /// A hand-made Mach-O object: one empty `__text` section, a build version, and its symbols
    /// (defined or undefined, all external).
    struct FakeObject {
        cpu: u32,
        filetype: u32,
        /// `LC_BUILD_VERSION`'s platform and minimum OS (`major << 16 | minor << 8`), or none.
        build: Option<(u32, u32)>,
        defined: Vec<&'static str>,
        undefined: Vec<&'static str>,
        /// Names its one section `__LLVM,__bitcode` instead of `__TEXT,__text`.
        bitcode: bool,
    }

    impl FakeObject {
        fn device() -> Self {
            FakeObject {
                cpu: macho::CPU_TYPE_ARM64.0,
                filetype: macho::MH_OBJECT.0,
                build: Some((macho::PLATFORM_IOS.0, 12 << 16)),
                defined: vec!["_gdext_rust_init", "_reach2d___rust_alloc"],
                undefined: vec!["_malloc", "_reach2d___rust_alloc"],
                bitcode: false,
            }
        }

        fn bytes(&self) -> Vec<u8> {
            let mut strings = vec![0u8];
            let mut symbols = Vec::new();
            let names = self.defined.iter().map(|n| (n, true)).chain(self.undefined.iter().map(|n| (n, false)));
            for (name, defined) in names {
                symbols.extend_from_slice(&(strings.len() as u32).to_le_bytes());
                strings.extend_from_slice(name.as_bytes());
                strings.push(0);
                let (kind, section) =
                    if defined { (macho::N_SECT.0 | macho::N_EXT.0, 1u8) } else { (macho::N_EXT.0, 0) };
                symbols.push(kind);
                symbols.push(section);
                symbols.extend_from_slice(&0u16.to_le_bytes());
                symbols.extend_from_slice(&0u64.to_le_bytes());
            }
            let count = (self.defined.len() + self.undefined.len()) as u32;
            let mut commands = Vec::new();
            // LC_SEGMENT_64 with one section.
            let segment_size = 72 + 80;
            put32s(&mut commands, &[macho::LC_SEGMENT_64.0, segment_size]);
            commands.extend_from_slice(&[0u8; 16]);
            commands.extend_from_slice(&[0u8; 32]); // vmaddr, vmsize, fileoff, filesize
            put32s(&mut commands, &[7, 7, 1, 0]); // maxprot, initprot, nsects, flags
            let (section, segment): (&[u8], &[u8]) =
                if self.bitcode { (b"__bitcode", b"__LLVM") } else { (b"__text", b"__TEXT") };
            for text in [section, segment] {
                let mut field = [0u8; 16];
                field[..text.len()].copy_from_slice(text);
                commands.extend_from_slice(&field);
            }
            commands.extend_from_slice(&[0u8; 16]); // addr, size
            put32s(&mut commands, &[0, 2, 0, 0, 0x8000_0400, 0, 0, 0]);
            if let Some((platform, minos)) = self.build {
                put32s(&mut commands, &[macho::LC_BUILD_VERSION.0, 24, platform, minos, minos, 0]);
            }
            let symtab_at = commands.len();
            put32s(&mut commands, &[macho::LC_SYMTAB.0, 24, 0, count, 0, strings.len() as u32]);
            let ncmds = 2 + u32::from(self.build.is_some());
            let header_size = 32;
            let symoff = (header_size + commands.len()) as u32;
            let stroff = symoff + symbols.len() as u32;
            commands[symtab_at + 8..symtab_at + 12].copy_from_slice(&symoff.to_le_bytes());
            commands[symtab_at + 16..symtab_at + 20].copy_from_slice(&stroff.to_le_bytes());
            let mut file = Vec::new();
            put32s(&mut file, &[macho::MH_MAGIC_64, self.cpu, 0, self.filetype, ncmds, commands.len() as u32, 0, 0]);
            file.extend_from_slice(&commands);
            file.extend_from_slice(&symbols);
            file.extend_from_slice(&strings);
            file
        }
    }

    fn put32s(out: &mut Vec<u8>, words: &[u32]) {
        for word in words {
            out.extend_from_slice(&word.to_le_bytes());
        }
    }

    /// An `ar` archive of `members` in the BSD format Apple's tools write, its table of contents (`__.SYMDEF`)
    /// listing `indexed` as defined by the first member.
    fn archive_with(members: &[Vec<u8>], indexed: &[&str]) -> Vec<u8> {
        let header = |name: &str, size: usize| format!("{name:<16}{:<12}{:<6}{:<6}{:<8}{size:<10}`\n", 0, 0, 0, 644);
        let mut strings = Vec::new();
        let mut entries = Vec::new();
        let mut table = Vec::new();
        for name in indexed {
            entries.push(strings.len() as u32);
            strings.extend_from_slice(name.as_bytes());
            strings.push(0);
        }
        let first_member = 8 + 60 + 4 + 8 * entries.len() + 4 + strings.len();
        put32s(&mut table, &[8 * entries.len() as u32]);
        for offset in entries {
            put32s(&mut table, &[offset, first_member as u32]);
        }
        put32s(&mut table, &[strings.len() as u32]);
        table.extend_from_slice(&strings);
        let mut out = b"!<arch>\n".to_vec();
        out.extend_from_slice(header("__.SYMDEF", table.len()).as_bytes());
        out.extend_from_slice(&table);
        for (i, member) in members.iter().enumerate() {
            if !out.len().is_multiple_of(2) {
                out.push(b'\n');
            }
            out.extend_from_slice(header(&format!("m{i}.o"), member.len()).as_bytes());
            out.extend_from_slice(member);
        }
        out
    }

    fn archive(members: &[Vec<u8>]) -> Vec<u8> {
        archive_with(members, &["_gdext_rust_init"])
    }

    /// The same archive in the GNU format (no BSD table of contents).
    fn gnu_archive(members: &[Vec<u8>]) -> Vec<u8> {
        let mut out = b"!<arch>\n".to_vec();
        for (i, member) in members.iter().enumerate() {
            let header =
                format!("{:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n", format!("m{i}.o/"), 0, 0, 0, 644, member.len());
            out.extend_from_slice(header.as_bytes());
            out.extend_from_slice(member);
            if !member.len().is_multiple_of(2) {
                out.push(b'\n');
            }
        }
        out
    }

    fn system() -> HashSet<String> {
        ["_malloc", "_free"].into_iter().map(String::from).collect()
    }

    fn check_device(objects: &[FakeObject]) -> Result<String> {
        let members: Vec<Vec<u8>> = objects.iter().map(FakeObject::bytes).collect();
        check_static_library(&archive(&members), Architecture::Aarch64, false, &system())
    }

    #[test]
    fn a_good_static_library_passes() {
        let summary = check_device(&[FakeObject::device()]).expect("the good library");
        assert!(summary.contains("iOS 12.0+"), "{summary}");
        let mut simulator = FakeObject::device();
        simulator.build = Some((macho::PLATFORM_IOSSIMULATOR.0, 14 << 16));
        let data = archive(&[simulator.bytes()]);
        assert!(check_static_library(&data, Architecture::Aarch64, true, &system()).is_ok());
    }

    #[test]
    fn each_ios_check_fails_on_a_bad_file() {
        let bad = |change: &dyn Fn(&mut FakeObject)| {
            let mut object = FakeObject::device();
            change(&mut object);
            check_device(&[FakeObject::device(), object]).expect_err("a bad library passed the check")
        };
        assert!(bad(&|o| o.cpu = macho::CPU_TYPE_X86_64.0).contains("expected Aarch64"));
        assert!(bad(&|o| o.filetype = macho::MH_DYLIB.0).contains("not a Mach-O object"));
        assert!(bad(&|o| o.build = None).contains("no LC_BUILD_VERSION"));
        assert!(bad(&|o| o.build = Some((macho::PLATFORM_MACOS.0, 12 << 16))).contains("expected 2 (iOS)"));
        assert!(bad(&|o| o.build = Some((macho::PLATFORM_IOSSIMULATOR.0, 12 << 16))).contains("expected 2 (iOS)"));
        assert!(bad(&|o| o.build = Some((macho::PLATFORM_IOS.0, 15 << 16))).contains("needs iOS 15.0"));
        assert!(bad(&|o| o.defined.push("___udivti3")).contains("without the _reach2d_ prefix"));
        assert!(bad(&|o| o.undefined.push("_NSLog")).contains("libSystem does not have: _NSLog"));
        assert!(bad(&|o| o.bitcode = true).contains("embedded LLVM bitcode"));
        let mut no_entry = FakeObject::device();
        no_entry.defined.retain(|n| *n != "_gdext_rust_init");
        assert!(check_device(&[no_entry]).unwrap_err().contains("does not define _gdext_rust_init"));
        let device = [FakeObject::device().bytes()];
        let gnu = check_static_library(&gnu_archive(&device), Architecture::Aarch64, false, &system());
        assert!(gnu.unwrap_err().contains("not the BSD one"));
        let unindexed = check_static_library(&archive_with(&device, &[]), Architecture::Aarch64, false, &system());
        assert!(unindexed.unwrap_err().contains("table of contents does not list"));
        let not_archive = check_static_library(&FakeObject::device().bytes(), Architecture::Aarch64, false, &system());
        assert!(not_archive.unwrap_err().contains("not a static library"));
        let simulator =
            check_static_library(&archive(&[FakeObject::device().bytes()]), Architecture::Aarch64, true, &system());
        assert!(simulator.unwrap_err().contains("expected 7 (the iOS simulator)"));
    }

    /// The `.xcframework` as `toolchain/ios.rs` writes it passes, and one whose `Info.plist` is broken or lists the
    /// wrong slices does not.
    #[test]
    fn the_xcframework_layout_is_checked() {
        let dir = std::env::temp_dir().join(format!("reach2d-xcframework-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (identifier, platform, minos) in
            [("ios-arm64", macho::PLATFORM_IOS, 12), ("ios-arm64-simulator", macho::PLATFORM_IOSSIMULATOR, 14)]
        {
            let mut object = FakeObject::device();
            object.build = Some((platform.0, minos << 16));
            std::fs::create_dir_all(dir.join(identifier)).unwrap();
            std::fs::write(dir.join(identifier).join(LIBRARY_FILE), archive(&[object.bytes()])).unwrap();
        }
        std::fs::write(dir.join("Info.plist"), info_plist()).unwrap();
        let summary = check_xcframework(&dir, &system()).expect("the good .xcframework");
        assert!(summary.contains("ios-arm64-simulator"), "{summary}");

        let broken = info_plist().replace("<key>BinaryPath</key>", "<key>BinaryPath</key><string>");
        std::fs::write(dir.join("Info.plist"), broken).unwrap();
        assert!(check_xcframework(&dir, &system()).unwrap_err().contains("not a plain XML property list"));
        let dynamic = info_plist().replace("<string>libreach2d.a</string>", "<string>libreach2d.dylib</string>");
        std::fs::write(dir.join("Info.plist"), dynamic).unwrap();
        assert!(check_xcframework(&dir, &system()).unwrap_err().contains("is not a static library (.a)"));
        let no_simulator = info_plist().replace("<string>simulator</string>", "<string>maccatalyst</string>");
        std::fs::write(dir.join("Info.plist"), no_simulator).unwrap();
        assert!(check_xcframework(&dir, &system()).unwrap_err().contains("SupportedPlatformVariant"));
        std::fs::write(dir.join("Info.plist"), info_plist()).unwrap();
        std::fs::write(dir.join("ios-arm64").join(LIBRARY_FILE), b"!<arch>\n").unwrap();
        assert!(check_xcframework(&dir, &system()).unwrap_err().contains("holds no object file"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reads_a_tbd_symbol_list() {
        let tbd = "--- !tapi-tbd\ntbd-version: 4\nexports:\n  - targets: [ arm64-macos ]\n    symbols: [ _malloc, _free,\n      _pthread_key_create ]\n    weak-symbols: [ _weak_one ]\n    objc-classes: [ NSObject ]\n...\n";
        let names = tbd_symbols(tbd);
        for name in ["_malloc", "_free", "_pthread_key_create", "_weak_one"] {
            assert!(names.contains(name), "{name} missing from {names:?}");
        }
        assert!(!names.contains("NSObject"));
    }
}
