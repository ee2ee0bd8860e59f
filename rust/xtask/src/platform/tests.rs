use super::Platform;

/// Every library name `package` writes must be one the addon's `.gdextension` loads.
#[test]
fn library_names_match_the_gdextension() {
    let gdextension = include_str!("../../../../addons/reach2d/reach2d.gdextension");
    for platform in Platform::ALL {
        for release in [false, true] {
            let name = platform.library_name(release);
            assert!(gdextension.contains(&format!("\"bin/{name}\"")), "{name} is not in reach2d.gdextension");
        }
    }
}

#[test]
fn parses_names_and_triples() {
    for platform in Platform::ALL {
        assert_eq!(Platform::parse(platform.name()), Ok(vec![platform]));
        if !platform.is_web() {
            assert_eq!(Platform::parse(platform.rust_target()), Ok(vec![platform]));
        }
    }
    assert_eq!(Platform::parse("web"), Ok(Platform::WEB.to_vec()));
    assert_eq!(Platform::parse("wasm32-unknown-emscripten"), Ok(Platform::WEB.to_vec()));
    assert_eq!(Platform::parse("android"), Ok(Platform::ANDROID.to_vec()));
    assert!(Platform::parse("amiga").unwrap_err().contains("linux-arm64"));
}
