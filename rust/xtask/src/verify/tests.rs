use super::*;

/// The checks fail on a file that is not the platform's library: here, this test program itself.
#[test]
fn rejects_what_is_not_the_platforms_library() {
    let exe = std::env::current_exe().expect("the test binary");
    let linux = check(Platform::LinuxX86_64, &exe).unwrap_err();
    assert!(linux.contains("does not export gdext_rust_init"), "{linux}");
    let arm = check(Platform::LinuxArm64, &exe).unwrap_err();
    assert!(arm.contains("expected Aarch64"), "{arm}");
    assert!(check(Platform::WindowsX86_64, &exe).unwrap_err().contains("not a 64-bit PE file"));
    assert!(check(Platform::MacOs, &exe).unwrap_err().contains("not a universal"));
    assert!(check(Platform::Web, &exe).unwrap_err().contains("not a WebAssembly module"));
}

#[test]
fn reads_the_ad_hoc_flag_of_a_code_signature() {
    // A superblob with one CodeDirectory at offset 20 whose flags are `flags`.
    let blob = |flags: u32| {
        let mut b = Vec::new();
        for word in [0xfade_0cc0u32, 40, 1, 0, 20, 0xfade_0c02, 20, 0x20400, flags] {
            b.extend_from_slice(&word.to_be_bytes());
        }
        b
    };
    assert!(ad_hoc_signed(&blob(0x2)));
    assert!(ad_hoc_signed(&blob(0x2 | 0x20000)));
    assert!(!ad_hoc_signed(&blob(0)));
    assert!(!ad_hoc_signed(&[0; 8]));
}

#[test]
fn parses_glibc_versions() {
    assert_eq!(parse_version("2.34"), Some((2, 34)));
    assert_eq!(parse_version("2.2.5"), Some((2, 2)));
    assert_eq!(parse_version("2"), Some((2, 0)));
    assert_eq!(parse_version("PRIVATE"), None);
}
