use super::*;

/// A hand-made Android shared library: just the ELF structures the check reads, each one settable so a test
/// can break exactly one thing.
struct FakeLibrary {
    machine: u16,
    needed: Vec<&'static str>,
    soname: Option<String>,
    exports: Vec<&'static str>,
    /// Imported symbols: name, version (needed from `libc.so`), weak.
    imports: Vec<(&'static str, Option<&'static str>, bool)>,
    load_align: u64,
    tls: bool,
    textrel: bool,
    sysv_hash: bool,
    api_note: Option<u32>,
}

impl FakeLibrary {
    /// What a good arm64 library looks like.
    fn good() -> Self {
        FakeLibrary {
            machine: elf::EM_AARCH64.0,
            needed: vec!["libc.so", "libdl.so"],
            soname: Some(Platform::AndroidArm64.library_name(true)),
            exports: vec![ENTRY_SYMBOL],
            imports: vec![("memcpy", Some("LIBC"), false), ("getrandom", None, true)],
            load_align: PAGE_SIZE,
            tls: false,
            textrel: false,
            sysv_hash: true,
            api_note: Some(API_LEVEL),
        }
    }

    fn check(&self) -> Result<String> {
        check_android(&self.bytes(), Platform::AndroidArm64)
    }

    /// The ELF file: header, program headers, then the sections' contents, then the section headers.
    fn bytes(&self) -> Vec<u8> {
        let mut dynstr = vec![0u8];
        let mut string = |text: &str| {
            let offset = dynstr.len() as u32;
            dynstr.extend_from_slice(text.as_bytes());
            dynstr.push(0);
            offset
        };
        let needed: Vec<u32> = self.needed.iter().map(|n| string(n)).collect();
        let soname = self.soname.as_deref().map(&mut string);
        let libc = string("libc.so");
        let mut versions: Vec<&str> = self.imports.iter().filter_map(|i| i.1).collect();
        versions.dedup();
        let version_names: Vec<u32> = versions.iter().map(|v| string(v)).collect();
        // Symbols: index 0 is null; exports are defined in section 1; imports are undefined.
        let mut dynsym = vec![0u8; 24];
        let mut versym = vec![0u8; 2];
        for name in &self.exports {
            let at = string(name);
            push_symbol(&mut dynsym, at, elf::STB_GLOBAL.0, elf::STT_FUNC.0, 1);
            versym.extend_from_slice(&1u16.to_le_bytes());
        }
        for (name, version, weak) in &self.imports {
            let at = string(name);
            let bind = if *weak { elf::STB_WEAK.0 } else { elf::STB_GLOBAL.0 };
            push_symbol(&mut dynsym, at, bind, elf::STT_FUNC.0, 0);
            let index = version.map_or(1, |v| 2 + versions.iter().position(|x| *x == v).unwrap() as u16);
            versym.extend_from_slice(&index.to_le_bytes());
        }
        let mut verneed = Vec::new();
        if !versions.is_empty() {
            for word in [1u16.to_le_bytes(), (versions.len() as u16).to_le_bytes()] {
                verneed.extend_from_slice(&word);
            }
            for word in [libc, 16, 0] {
                verneed.extend_from_slice(&word.to_le_bytes());
            }
            for (i, (version, name)) in versions.iter().zip(&version_names).enumerate() {
                verneed.extend_from_slice(&elf::hash(version.as_bytes()).to_le_bytes());
                verneed.extend_from_slice(&0u16.to_le_bytes());
                verneed.extend_from_slice(&(2 + i as u16).to_le_bytes());
                verneed.extend_from_slice(&name.to_le_bytes());
                let next: u32 = if i + 1 < versions.len() { 16 } else { 0 };
                verneed.extend_from_slice(&next.to_le_bytes());
            }
        }
        let mut dynamic = Vec::new();
        let mut entry = |tag: i64, value: u64| {
            dynamic.extend_from_slice(&tag.to_le_bytes());
            dynamic.extend_from_slice(&value.to_le_bytes());
        };
        for offset in needed {
            entry(elf::DT_NEEDED.0, offset.into());
        }
        if let Some(offset) = soname {
            entry(elf::DT_SONAME.0, offset.into());
        }
        if self.sysv_hash {
            entry(elf::DT_HASH.0, 0);
        }
        if self.textrel {
            entry(elf::DT_TEXTREL.0, 0);
        }
        entry(elf::DT_NULL.0, 0);
        let mut note = Vec::new();
        if let Some(api) = self.api_note {
            for word in [8u32, 4, 1] {
                note.extend_from_slice(&word.to_le_bytes());
            }
            note.extend_from_slice(b"Android\0");
            note.extend_from_slice(&api.to_le_bytes());
        }

        // Sections: name, type, contents, link, info, entry size.
        let shstrtab_names = [
            "",
            ".dynstr",
            ".dynsym",
            ".gnu.version",
            ".gnu.version_r",
            ".dynamic",
            ".note.android.ident",
            ".shstrtab",
        ];
        let mut shstrtab = Vec::new();
        let name_at: Vec<u32> = shstrtab_names
            .iter()
            .map(|n| {
                let at = shstrtab.len() as u32;
                shstrtab.extend_from_slice(n.as_bytes());
                shstrtab.push(0);
                at
            })
            .collect();
        let verneed_count = u32::from(!versions.is_empty());
        let sections: Vec<(u32, Vec<u8>, u32, u32, u64)> = vec![
            (elf::SHT_STRTAB.0, dynstr, 0, 0, 0),
            (elf::SHT_DYNSYM.0, dynsym, 1, 1, 24),
            (elf::SHT_GNU_VERSYM.0, versym, 2, 0, 2),
            (elf::SHT_GNU_VERNEED.0, verneed, 1, verneed_count, 0),
            (elf::SHT_DYNAMIC.0, dynamic, 1, 0, 16),
            (elf::SHT_NOTE.0, note, 0, 0, 0),
            (elf::SHT_STRTAB.0, shstrtab, 0, 0, 0),
        ];
        let phnum: u16 = if self.tls { 2 } else { 1 };
        let mut file = vec![0u8; 64 + 56 * usize::from(phnum)];
        let mut placed = Vec::new();
        for (_, contents, ..) in &sections {
            while !file.len().is_multiple_of(8) {
                file.push(0);
            }
            placed.push((file.len() as u64, contents.len() as u64));
            file.extend_from_slice(contents);
        }
        while !file.len().is_multiple_of(8) {
            file.push(0);
        }
        let shoff = file.len() as u64;
        file.extend_from_slice(&[0u8; 64]);
        for (i, ((kind, _, link, info, entsize), (offset, size))) in sections.iter().zip(&placed).enumerate() {
            let mut header = Vec::new();
            header.extend_from_slice(&name_at[i + 1].to_le_bytes());
            header.extend_from_slice(&kind.to_le_bytes());
            for word in [2u64 /* SHF_ALLOC */, *offset, *offset, *size] {
                header.extend_from_slice(&word.to_le_bytes());
            }
            header.extend_from_slice(&link.to_le_bytes());
            header.extend_from_slice(&info.to_le_bytes());
            let align: u64 = if *kind == elf::SHT_NOTE.0 { 4 } else { 8 };
            header.extend_from_slice(&align.to_le_bytes());
            header.extend_from_slice(&entsize.to_le_bytes());
            file.extend_from_slice(&header);
        }
        let length = file.len() as u64;
        // The ELF header.
        file[..4].copy_from_slice(b"\x7fELF");
        file[4] = elf::ELFCLASS64.0;
        file[5] = elf::ELFDATA2LSB.0;
        file[6] = 1;
        let put16 = |file: &mut Vec<u8>, at: usize, v: u16| file[at..at + 2].copy_from_slice(&v.to_le_bytes());
        let put32 = |file: &mut Vec<u8>, at: usize, v: u32| file[at..at + 4].copy_from_slice(&v.to_le_bytes());
        let put64 = |file: &mut Vec<u8>, at: usize, v: u64| file[at..at + 8].copy_from_slice(&v.to_le_bytes());
        put16(&mut file, 16, elf::ET_DYN.0);
        put16(&mut file, 18, self.machine);
        put32(&mut file, 20, 1);
        put64(&mut file, 32, 64);
        put64(&mut file, 40, shoff);
        put16(&mut file, 52, 64);
        put16(&mut file, 54, 56);
        put16(&mut file, 56, phnum);
        put16(&mut file, 58, 64);
        put16(&mut file, 60, sections.len() as u16 + 1);
        put16(&mut file, 62, sections.len() as u16);
        // Program headers: one LOAD over the whole file, and a TLS one if asked.
        let mut segments = vec![(elf::PT_LOAD.0, self.load_align)];
        if self.tls {
            segments.push((elf::PT_TLS.0, 8));
        }
        for (i, (kind, align)) in segments.into_iter().enumerate() {
            let at = 64 + 56 * i;
            put32(&mut file, at, kind);
            put32(&mut file, at + 4, 5);
            for (j, value) in [0, 0, 0, length, length, align].into_iter().enumerate() {
                put64(&mut file, at + 8 + 8 * j, value);
            }
        }
        file
    }
}

fn push_symbol(table: &mut Vec<u8>, name: u32, bind: u8, kind: u8, section: u16) {
    table.extend_from_slice(&name.to_le_bytes());
    table.push((bind << 4) | kind);
    table.push(0);
    table.extend_from_slice(&section.to_le_bytes());
    table.extend_from_slice(&[0u8; 16]);
}

/// Runs the check on `library` and returns its error, failing the test if it passed.
fn rejected(library: FakeLibrary) -> String {
    library.check().expect_err("a bad library passed the check")
}

#[test]
fn a_good_library_passes() {
    let summary = FakeLibrary::good().check().expect("the good library");
    assert!(summary.contains("getrandom (API 28, weak)"), "{summary}");
}

#[test]
fn each_android_check_fails_on_a_bad_file() {
    let bad = |change: &dyn Fn(&mut FakeLibrary)| {
        let mut library = FakeLibrary::good();
        change(&mut library);
        rejected(library)
    };
    assert!(bad(&|l| l.machine = elf::EM_X86_64.0).contains("expected Aarch64"));
    assert!(
        check_android(&FakeLibrary::good().bytes(), Platform::AndroidX86_64).unwrap_err().contains("expected X86_64")
    );
    assert!(bad(&|l| l.needed.push("libstdc++.so")).contains("not an Android system library"));
    assert!(bad(&|l| l.needed.push("libc.so.6")).contains("not an Android system library"));
    assert!(bad(&|l| l.soname = None).contains("no SONAME"));
    assert!(bad(&|l| l.soname = Some("libother.so".into())).contains("its SONAME is libother.so"));
    assert!(bad(&|l| l.exports = vec!["something_else"]).contains("does not export gdext_rust_init"));
    assert!(bad(&|l| l.exports.push("_ZN4core3fmt5write17h0123456789abcdefE")).contains("exports the Rust symbol"));
    assert!(bad(&|l| l.exports.push("rust_eh_personality")).contains("exports the Rust symbol"));
    assert!(bad(&|l| l.imports.push(("not_in_bionic", None, false))).contains("not in the bionic symbol table"));
    assert!(bad(&|l| l.imports.push(("getrandom", None, false))).contains("only from API 28"));
    assert!(bad(&|l| l.imports[0].1 = Some("LIBC_N")).contains("bionic has it in LIBC"));
    assert!(bad(&|l| l.imports[0].1 = Some("GLIBC_2.14")).contains("glibc version GLIBC_2.14"));
    assert!(bad(&|l| l.load_align = 4096).contains("aligned to 4096 bytes"));
    assert!(bad(&|l| l.textrel = true).contains("text relocations"));
    assert!(bad(&|l| l.tls = true).contains("TLS segment"));
    assert!(bad(&|l| l.sysv_hash = false).contains("no SysV hash table"));
    assert!(bad(&|l| l.api_note = None).contains("no .note.android.ident"));
    assert!(bad(&|l| l.api_note = Some(30)).contains("says API 30"));
}

/// Every table entry is sane: a known library and version node, an API level bionic has, no duplicates.
#[test]
fn the_symbol_table_is_consistent() {
    use crate::toolchain::bionic_symbols::LIBRARIES;
    let mut names: Vec<&str> = SYMBOLS.iter().map(|s| s.name).collect();
    names.sort();
    let count = names.len();
    names.dedup();
    assert_eq!(names.len(), count, "a symbol is listed twice");
    for symbol in SYMBOLS {
        assert!(LIBRARIES[..3].contains(&symbol.library), "{symbol:?}");
        assert!(symbol.version.starts_with("LIBC"), "{symbol:?}");
        assert!((21..=37).contains(&symbol.api), "{symbol:?}");
    }
}
