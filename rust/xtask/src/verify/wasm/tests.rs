use super::*;

/// A tiny wasm module exporting `gdext_rust_init`: optionally a side module (`dylink.0` first), importing a
/// memory (shared or not), with a tag (exception handling).
fn wasm_module(side_module: bool, shared: bool, tag: bool) -> Vec<u8> {
    let section = |id: u8, payload: &[u8]| [&[id, payload.len() as u8][..], payload].concat();
    let mut module = b"\0asm\x01\0\0\0".to_vec();
    if side_module {
        module.extend(section(0, b"\x08dylink.0"));
    }
    module.extend(section(1, &[1, 0x60, 0, 0]));
    let limits: &[u8] = if shared { &[3, 1, 1] } else { &[0, 1] };
    module.extend(section(2, &[&[1, 3][..], b"env", &[6], b"memory", &[2], limits].concat()));
    module.extend(section(3, &[1, 0]));
    if tag {
        module.extend(section(13, &[1, 0, 0]));
    }
    module.extend(section(7, &[&[1, 15][..], ENTRY_SYMBOL.as_bytes(), &[0, 0]].concat()));
    module.extend(section(10, &[1, 2, 0, 0x0b]));
    module
}

#[test]
fn a_web_library_must_be_a_side_module_with_the_template_s_memory_and_no_exceptions() {
    assert!(check_side_module(&wasm_module(true, false, false), false).is_ok());
    assert!(check_side_module(&wasm_module(true, true, false), true).is_ok());
    let plain = check_side_module(&wasm_module(false, false, false), false).unwrap_err();
    assert!(plain.contains("not an emscripten side module"), "{plain}");
    let unshared = check_side_module(&wasm_module(true, false, false), true).unwrap_err();
    assert!(unshared.contains("memory is not shared"), "{unshared}");
    let shared = check_side_module(&wasm_module(true, true, false), false).unwrap_err();
    assert!(shared.contains("memory is shared"), "{shared}");
    let tag = check_side_module(&wasm_module(true, false, true), false).unwrap_err();
    assert!(tag.contains("exception handling"), "{tag}");
}
