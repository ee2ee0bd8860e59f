//! The Android libraries: what a device's bionic loader needs and what nothing here can run to find out.
//!
//! Checked from the file alone (no device, no emulator: nothing here runs bionic): the ELF class and machine, the
//! libraries it links (the Android system's own), its SONAME, its exports (Godot's entry point and no Rust symbol),
//! every import against [`bionic_symbols::SYMBOLS`] at the API level, no glibc symbol version, 16 KB LOAD
//! alignment, no text relocations, no TLS segment (bionic before API 29 has none), a SysV hash table (Android
//! before 6.0 reads no other) and the `.note.android.ident` API level.

use crate::library::{ENTRY_SYMBOL, parse_error, require_entry};
use crate::platform::Platform;
use crate::process::Result;
use crate::toolchain::android::{API_LEVEL, PAGE_SIZE};
use crate::toolchain::bionic_symbols::SYMBOLS;
use object::elf;
use object::read::elf::{ElfFile64, FileHeader, ProgramHeader, SectionHeader, Sym};
use object::{Architecture, Endianness, FileKind, Object};

/// The Android system libraries a library may link: bionic's three and the log library (NDK stable APIs).
const SYSTEM_LIBRARIES: [&str; 4] = ["libc.so", "libm.so", "libdl.so", "liblog.so"];

/// Checks `data` as `platform`'s Android library; returns a one-line summary.
pub fn check_android(data: &[u8], platform: Platform) -> Result<String> {
    let arch = match platform {
        Platform::AndroidArm64 => Architecture::Aarch64,
        Platform::AndroidX86_64 => Architecture::X86_64,
        _ => return Err(format!("{} is not an Android platform", platform.name())),
    };
    if FileKind::parse(data).map_err(parse_error)? != FileKind::Elf64 {
        return Err("not a 64-bit ELF file".into());
    }
    let file = ElfFile64::<Endianness>::parse(data).map_err(parse_error)?;
    let endian = file.endian();
    if file.architecture() != arch {
        return Err(format!("built for {:?}, expected {arch:?}", file.architecture()));
    }
    let header = file.elf_header();
    if header.e_type(endian) != elf::ET_DYN {
        return Err("not a shared library".into());
    }

    // The dynamic section: NEEDED, SONAME, text relocations, the SysV hash table.
    let sections = file.elf_section_table();
    let dynamic = sections.dynamic_table(endian, data).map_err(parse_error)?;
    let (mut needed, mut soname, mut textrel, mut sysv_hash): (Vec<String>, Option<String>, bool, bool) =
        (Vec::new(), None, false, false);
    for entry in dynamic.iter() {
        let tag = entry.tag;
        match tag {
            elf::DT_NEEDED => needed.push(String::from_utf8_lossy(dynamic.string(entry).map_err(parse_error)?).into()),
            elf::DT_SONAME => {
                soname = Some(String::from_utf8_lossy(dynamic.string(entry).map_err(parse_error)?).into_owned())
            }
            elf::DT_TEXTREL => textrel = true,
            elf::DT_FLAGS if entry.val & elf::DF_TEXTREL.0 != 0 => textrel = true,
            elf::DT_HASH => sysv_hash = true,
            _ => {}
        }
    }
    if let Some(lib) = needed.iter().find(|l| !SYSTEM_LIBRARIES.contains(&l.as_str())) {
        return Err(format!("links {lib}, which is not an Android system library (needs: {})", needed.join(", ")));
    }
    let names = [platform.library_name(true), platform.library_name(false)];
    match &soname {
        None => return Err("has no SONAME: bionic refuses such a library from API 23 on".into()),
        Some(name) if !names.contains(name) => {
            return Err(format!("its SONAME is {name}, not the name the addon ships it under ({})", names[0]));
        }
        Some(_) => {}
    }
    if textrel {
        return Err("has text relocations (DT_TEXTREL): Android refuses them from API 23 on".into());
    }
    if !sysv_hash {
        return Err("has no SysV hash table (DT_HASH): Android before 6.0 (API 23) cannot look up its symbols".into());
    }

    // Segments: 16 KB alignment, no TLS.
    let mut loads = 0;
    for segment in header.program_headers(endian, data).map_err(parse_error)? {
        match segment.p_type(endian) {
            elf::PT_LOAD => {
                loads += 1;
                let align = segment.p_align(endian);
                if align < PAGE_SIZE {
                    return Err(format!(
                        "a LOAD segment is aligned to {align} bytes, less than the {PAGE_SIZE} that Android 15+ \
                         devices with 16 KB pages need"
                    ));
                }
            }
            elf::PT_TLS => {
                return Err(format!("has a TLS segment, which bionic loads only from API 29 (we promise {API_LEVEL})"));
            }
            _ => {}
        }
    }
    if loads == 0 {
        return Err("has no LOAD segment".into());
    }
    let api = android_api_note(&file, data)?;
    if api != API_LEVEL {
        return Err(format!("its .note.android.ident says API {api}, expected {API_LEVEL}"));
    }

    // Symbols: exports, then imports against the table.
    let versions = sections.versions(endian, data).map_err(parse_error)?;
    let symbols = sections.symbols(endian, data, elf::SHT_DYNSYM).map_err(parse_error)?;
    let strings = symbols.strings();
    let (mut exports, mut imports, mut weak_newer) = (Vec::new(), 0, Vec::new());
    for (index, symbol) in symbols.enumerate() {
        let name = String::from_utf8_lossy(symbol.name(endian, strings).map_err(parse_error)?).into_owned();
        if name.is_empty() {
            continue;
        }
        let version = versions.as_ref().and_then(|v| {
            let id = v.version_index(endian, index);
            v.version(id.index()).ok().flatten().map(|v| String::from_utf8_lossy(v.name()).into_owned())
        });
        if let Some(version) = version.as_deref().filter(|v| v.starts_with("GLIBC_")) {
            return Err(format!("{name} needs the glibc version {version}, which Android's bionic does not have"));
        }
        let binding = symbol.st_bind();
        if !symbol.is_undefined(endian) {
            if binding != elf::STB_LOCAL {
                exports.push(name);
            }
            continue;
        }
        imports += 1;
        let weak = binding == elf::STB_WEAK;
        let entry = SYMBOLS.iter().find(|s| s.name == name).ok_or_else(|| {
            format!(
                "imports {name}, which is not in the bionic symbol table (rust/xtask/src/toolchain/bionic_symbols.rs)"
            )
        })?;
        if let Some(version) = &version
            && version != entry.version
        {
            return Err(format!("imports {name}@{version}, but bionic has it in {}", entry.version));
        }
        if entry.api > API_LEVEL {
            if !weak {
                return Err(format!(
                    "imports {name}, which bionic has only from API {} (we promise {API_LEVEL}), and not weakly",
                    entry.api
                ));
            }
            weak_newer.push(format!("{name} (API {}, weak)", entry.api));
        }
    }
    exports.sort();
    require_entry(&exports, ENTRY_SYMBOL)?;
    if let Some(rust) = exports.iter().find(|e| *e != ENTRY_SYMBOL && looks_like_rust(e)) {
        return Err(format!("exports the Rust symbol {rust}: only {ENTRY_SYMBOL} should be public"));
    }
    Ok(format!(
        "ELF {arch:?} shared library, SONAME {}, exports {}, needs {}, {imports} imports all in bionic's table at API \
         {API_LEVEL}{}, {PAGE_SIZE}-byte LOAD alignment, no TEXTREL, no TLS, API note {api}",
        soname.unwrap_or_default(),
        exports.join(" "),
        needed.join(", "),
        if weak_newer.is_empty() { String::new() } else { format!(" (+ {})", weak_newer.join(", ")) },
    ))
}

/// `true` for a name that Rust gives (mangled, or one of the runtime's own unmangled names).
fn looks_like_rust(name: &str) -> bool {
    name.starts_with("_ZN") || name.starts_with("_R") || name.contains("rust") || name.starts_with("__rdl")
}

/// The API level in the `.note.android.ident` note (name `Android`, type 1, the level as the first word).
fn android_api_note(file: &ElfFile64<Endianness>, data: &[u8]) -> Result<u32> {
    let endian = file.endian();
    for section in file.elf_section_table().iter() {
        let Some(mut notes) = section.notes(endian, data).map_err(parse_error)? else { continue };
        while let Some(note) = notes.next().map_err(parse_error)? {
            if note.name() == b"Android" && note.n_type(endian) == elf::NoteType(1) {
                let desc = note.desc();
                let word = desc.get(..4).ok_or("its .note.android.ident note is too short")?;
                return Ok(u32::from_le_bytes([word[0], word[1], word[2], word[3]]));
            }
        }
    }
    Err("has no .note.android.ident note (the API level it was built for)".into())
}

#[cfg(test)]
mod tests;
