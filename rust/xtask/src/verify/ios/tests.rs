use super::*;
use crate::apple_files::tbd_symbols;
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
            let (kind, section) = if defined { (macho::N_SECT.0 | macho::N_EXT.0, 1u8) } else { (macho::N_EXT.0, 0) };
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
        let header = format!("{:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n", format!("m{i}.o/"), 0, 0, 0, 644, member.len());
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
