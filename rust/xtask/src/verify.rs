//! What every shipped library must look like, checked by reading the file itself (ELF, PE, Mach-O or WebAssembly):
//! the right format and architectures, Godot's entry point exported (and on Windows and macOS little else), and
//! nothing linked but the platform's system libraries, so the library loads on a user's machine with nothing
//! installed. A web library must be an emscripten side module that Godot's web template can link.

use crate::platform::Platform;
mod android;
pub mod ios;
mod wasm;

use crate::library::{ENTRY_SYMBOL, parse_error, require_entry};
use crate::process::Result;
use object::read::elf::{ElfFile64, FileHeader};
use object::read::macho::{FatArch, LoadCommandVariant, MachOFatFile32, MachOFile64};
use object::{Architecture, Endianness, FileKind, Object, ObjectSymbol, macho};
use std::fmt::Write;
use std::path::Path;

/// At most this many exported symbols on Windows and macOS, where nothing but the entry point should be public.
const MAX_EXPORTS: usize = 4;
/// The newest glibc symbol version the Linux libraries may need (what Rust's std asks of a glibc 2.34+ host): they
/// load on Ubuntu 22.04, Debian 12, Fedora 35 and newer. A rise means users on those systems can no longer load them.
const MAX_GLIBC: (u32, u32) = (2, 34);

/// Checks `file` as `platform`'s library; returns a one-line summary for the log and the README.
pub fn check(platform: Platform, file: &Path) -> Result<String> {
    if platform == Platform::Ios {
        let system = crate::toolchain::cross::libsystem_symbols()?;
        return ios::check_xcframework(file, &system).map_err(|e| format!("ios ({}): {e}", file.display()));
    }
    let data = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let size = format!("{:.1} MB", data.len() as f64 / 1e6);
    let detail = match platform {
        Platform::LinuxX86_64 => check_elf(&data, Architecture::X86_64),
        Platform::LinuxArm64 => check_elf(&data, Architecture::Aarch64),
        Platform::WindowsX86_64 => check_pe(&data),
        Platform::MacOs => check_universal_macho(&data),
        Platform::Web => wasm::check_side_module(&data, false),
        Platform::WebThreads => wasm::check_side_module(&data, true),
        Platform::AndroidArm64 | Platform::AndroidX86_64 => android::check_android(&data, platform),
        Platform::Ios => unreachable!("checked above"),
    }
    .map_err(|e| format!("{} ({}): {e}", platform.name(), file.display()))?;
    Ok(format!("{}: {size}, {detail}", platform.name()))
}

fn check_elf(data: &[u8], arch: Architecture) -> Result<String> {
    if FileKind::parse(data).map_err(parse_error)? != FileKind::Elf64 {
        return Err("not a 64-bit ELF file".into());
    }
    let file = ElfFile64::<Endianness>::parse(data).map_err(parse_error)?;
    if file.architecture() != arch {
        return Err(format!("built for {:?}, expected {arch:?}", file.architecture()));
    }
    if file.elf_header().e_type(file.endian()) != object::elf::ET_DYN {
        return Err("not a shared library".into());
    }
    let exports = exported_names(&file)?;
    require_entry(&exports, ENTRY_SYMBOL)?;

    let endian = file.endian();
    let sections = file.elf_section_table();
    let dynamic = sections.dynamic_table(endian, data).map_err(parse_error)?;
    let mut needed = Vec::new();
    for entry in dynamic.iter() {
        if entry.tag == object::elf::DT_NEEDED {
            needed.push(String::from_utf8_lossy(dynamic.string(entry).map_err(parse_error)?).into_owned());
        }
    }
    let system = |lib: &str| {
        ["libc.so.", "libm.so.", "libgcc_s.so.", "libpthread.so.", "libdl.so.", "librt.so.", "ld-linux"]
            .iter()
            .any(|p| lib.starts_with(p))
    };
    if let Some(lib) = needed.iter().find(|l| !system(l)) {
        return Err(format!("links {lib}, which is not part of every Linux system (needs: {})", needed.join(", ")));
    }

    let mut newest = (0, 0);
    if let Some((mut needs, link)) = sections.gnu_verneed(endian, data).map_err(parse_error)? {
        let strings = sections.strings(endian, data, link).map_err(parse_error)?;
        while let Some((_, mut aux)) = needs.next().map_err(parse_error)? {
            while let Some(aux) = aux.next().map_err(parse_error)? {
                let name = String::from_utf8_lossy(aux.name(endian, strings).map_err(parse_error)?).into_owned();
                if let Some(version) = name.strip_prefix("GLIBC_").and_then(parse_version) {
                    newest = newest.max(version);
                }
            }
        }
    }
    if newest > MAX_GLIBC {
        return Err(format!(
            "needs glibc {}.{}, newer than the {}.{} we promise",
            newest.0, newest.1, MAX_GLIBC.0, MAX_GLIBC.1
        ));
    }
    Ok(format!(
        "ELF {arch:?} shared library, exports {ENTRY_SYMBOL} ({} exports), needs {} (glibc {}.{} at most)",
        exports.len(),
        needed.join(", "),
        newest.0,
        newest.1
    ))
}

fn parse_version(text: &str) -> Option<(u32, u32)> {
    let mut parts = text.split('.').map(|p| p.parse::<u32>().ok());
    Some((parts.next()??, parts.next().flatten().unwrap_or(0)))
}

fn check_pe(data: &[u8]) -> Result<String> {
    if FileKind::parse(data).map_err(parse_error)? != FileKind::Pe64 {
        return Err("not a 64-bit PE file".into());
    }
    let file = object::File::parse(data).map_err(parse_error)?;
    if file.architecture() != Architecture::X86_64 {
        return Err(format!("built for {:?}, expected X86_64", file.architecture()));
    }
    let exports = exported_names(&file)?;
    require_entry(&exports, ENTRY_SYMBOL)?;
    limit_exports(&exports)?;
    let mut dlls = Vec::new();
    for import in file.imports().map_err(parse_error)? {
        dlls.push(String::from_utf8_lossy(import.map_err(parse_error)?.library()).to_lowercase());
    }
    dlls.sort();
    dlls.dedup();
    // Libraries that come with every Windows 10+; MinGW's own runtime DLLs (libgcc_s_seh, libwinpthread) must be
    // linked in statically, since a user's machine has none.
    let system = |dll: &str| {
        dll.starts_with("api-ms-win-")
            || [
                "kernel32.dll",
                "ntdll.dll",
                "advapi32.dll",
                "bcrypt.dll",
                "bcryptprimitives.dll",
                "msvcrt.dll",
                "ucrtbase.dll",
                "userenv.dll",
                "ws2_32.dll",
                "user32.dll",
                "shell32.dll",
                "ole32.dll",
                "oleaut32.dll",
                "secur32.dll",
                "synchronization.dll",
            ]
            .contains(&dll)
    };
    if let Some(dll) = dlls.iter().find(|d| !system(d)) {
        return Err(format!("imports {dll}, which is not a Windows system DLL (imports: {})", dlls.join(", ")));
    }
    Ok(format!("PE x86_64 DLL, exports {}, imports system DLLs only ({})", exports.join(" "), dlls.join(", ")))
}

fn check_universal_macho(data: &[u8]) -> Result<String> {
    if FileKind::parse(data).map_err(parse_error)? != FileKind::MachOFat32 {
        return Err("not a universal (fat) Mach-O file".into());
    }
    let fat = MachOFatFile32::parse(data).map_err(parse_error)?;
    let mut archs: Vec<Architecture> = fat.arches().iter().map(|a| a.architecture()).collect();
    archs.sort_by_key(|a| format!("{a:?}"));
    if archs != [Architecture::Aarch64, Architecture::X86_64] {
        return Err(format!("holds {archs:?}, expected arm64 and x86_64"));
    }
    let mut summary = String::from("universal Mach-O dylib:");
    for arch in fat.arches() {
        let slice = arch.data(data).map_err(parse_error)?;
        let detail = check_macho_slice(slice, arch.architecture())
            .map_err(|e| format!("{:?} slice: {e}", arch.architecture()))?;
        let _ = write!(summary, " [{detail}]");
    }
    Ok(summary)
}

fn check_macho_slice(data: &[u8], arch: Architecture) -> Result<String> {
    let file = MachOFile64::<Endianness>::parse(data).map_err(parse_error)?;
    if file.macho_header().filetype.get(file.endian()) != macho::MH_DYLIB {
        return Err("not a dylib".into());
    }
    let exports = exported_names(&file)?;
    let entry = format!("_{ENTRY_SYMBOL}");
    require_entry(&exports, &entry)?;
    limit_exports(&exports)?;
    let endian = file.endian();
    let (mut dylibs, mut min_os, mut signature) = (Vec::new(), None, None);
    let mut commands = file.macho_load_commands().map_err(parse_error)?;
    while let Some(command) = commands.next().map_err(parse_error)? {
        match command.variant().map_err(parse_error)? {
            LoadCommandVariant::Dylib(dylib) => {
                let name = command.string(endian, dylib.dylib.name).map_err(parse_error)?;
                dylibs.push(String::from_utf8_lossy(name).into_owned());
            }
            LoadCommandVariant::BuildVersion(build, _) => min_os = Some(build.minos.get(endian).0),
            LoadCommandVariant::VersionMin(version) => min_os = Some(version.version.get(endian).0),
            LoadCommandVariant::LinkeditData(linkedit) if command.cmd() == macho::LC_CODE_SIGNATURE => {
                signature = Some((linkedit.dataoff.get(endian) as usize, linkedit.datasize.get(endian) as usize));
            }
            _ => {}
        }
    }
    if let Some(lib) = dylibs.iter().find(|l| !l.starts_with("/usr/lib/") && !l.starts_with("/System/Library/")) {
        return Err(format!("links {lib}, which is not a macOS system library"));
    }
    let min_os = min_os.ok_or("no minimum macOS version (LC_BUILD_VERSION) recorded")?;
    let (major, minor) = (min_os >> 16, (min_os >> 8) & 0xff);
    let expected = if arch == Architecture::Aarch64 { (11, 0) } else { (10, 13) };
    if (major, minor) > expected {
        return Err(format!("needs macOS {major}.{minor}, newer than {}.{}", expected.0, expected.1));
    }
    let signed = match signature {
        Some((offset, size)) => ad_hoc_signed(data.get(offset..offset + size).ok_or("code signature out of the file")?),
        None => false,
    };
    // Apple silicon refuses to load unsigned code; an ad-hoc signature is what a linker gives and what Godot's
    // export re-signs.
    if arch == Architecture::Aarch64 && !signed {
        return Err("no ad-hoc code signature: macOS on Apple silicon would refuse to load it".into());
    }
    Ok(format!(
        "{arch:?}: exports {}, links {}, macOS {major}.{minor}+{}",
        exports.join(" "),
        dylibs.join(", "),
        if signed { ", ad-hoc signed" } else { "" }
    ))
}

/// `true` when a code signature superblob holds a CodeDirectory with the ad-hoc flag.
fn ad_hoc_signed(blob: &[u8]) -> bool {
    const SUPERBLOB: u32 = 0xfade_0cc0;
    const CODE_DIRECTORY: u32 = 0xfade_0c02;
    const CS_ADHOC: u32 = 0x2;
    let be = |at: usize| blob.get(at..at + 4).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
    if be(0) != Some(SUPERBLOB) {
        return false;
    }
    let count = be(8).unwrap_or(0) as usize;
    (0..count.min(64)).filter_map(|i| be(12 + i * 8 + 4)).any(|offset| {
        let offset = offset as usize;
        be(offset) == Some(CODE_DIRECTORY) && be(offset + 12).is_some_and(|flags| flags & CS_ADHOC != 0)
    })
}

/// The names a library exports (for ELF: its defined global dynamic symbols), sorted.
fn exported_names<'data>(file: &impl Object<'data>) -> Result<Vec<String>> {
    let mut names = Vec::new();
    if file.dynamic_symbol_table().is_some() {
        for symbol in file.dynamic_symbols().filter(|s| s.is_definition() && s.is_global()) {
            names.push(symbol.name().map_err(parse_error)?.to_string());
        }
    } else {
        for export in file.exports().map_err(parse_error)? {
            names.push(match export.map_err(parse_error)?.name() {
                object::NameOrOrdinal::Name(name) => String::from_utf8_lossy(name).into_owned(),
                object::NameOrOrdinal::Ordinal(n) => format!("#{n}"),
            });
        }
    }
    names.sort();
    names.dedup();
    Ok(names)
}

fn limit_exports(exports: &[String]) -> Result {
    if exports.len() > MAX_EXPORTS {
        let some: Vec<&str> = exports.iter().take(5).map(String::as_str).collect();
        return Err(format!(
            "exports {} symbols (e.g. {}); only the entry point should be public",
            exports.len(),
            some.join(", ")
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
