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

use crate::library::{ENTRY_SYMBOL, parse_error};
use crate::process::Result;
use crate::toolchain::ios::{LIBRARY_FILE, MIN_IOS, MIN_IOS_SIMULATOR, SYMBOL_PREFIX};
use object::macho;
use object::read::archive::{ArchiveFile, ArchiveKind};
use object::read::macho::{LoadCommandVariant, MachOFile64};
use object::{Architecture, Endianness, Object, ObjectSection, ObjectSymbol};
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
mod tests;
