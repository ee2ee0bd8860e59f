//! The web library: an emscripten side module that Godot's web export template links at load time.

use super::{ENTRY_SYMBOL, require_entry};
use crate::process::Result;

/// An emscripten side module as Godot's web template links it: a `dylink.0` section first, Godot's entry point
/// exported, memory imported from the main module (shared exactly when built for threads), and no exception
/// handling (no tag and no try/throw instruction), which Godot's templates, built without exceptions, cannot link.
pub fn check_side_module(data: &[u8], threads: bool) -> Result<String> {
    use wasmparser::{Operator, Parser, Payload, TypeRef};
    let wasm_error = |e: wasmparser::BinaryReaderError| format!("not a readable WebAssembly module: {e}");
    if !data.starts_with(b"\0asm") {
        return Err("not a WebAssembly module (no `\\0asm` magic)".into());
    }
    let mut first_section = None;
    let mut exports = Vec::new();
    let mut import_modules: Vec<String> = Vec::new();
    let mut imports = 0;
    let mut memory_shared = None;
    let mut exception_handling = Vec::new();
    for payload in Parser::new(0).parse_all(data) {
        let payload = payload.map_err(wasm_error)?;
        if first_section.is_none() && !matches!(payload, Payload::Version { .. }) {
            first_section = Some(match &payload {
                Payload::CustomSection(custom) => custom.name().to_string(),
                _ => "a non-custom section".to_string(),
            });
        }
        match payload {
            Payload::ImportSection(reader) => {
                for import in reader {
                    let import = import.map_err(wasm_error)?;
                    imports += 1;
                    if !import_modules.iter().any(|m| m == import.module) {
                        import_modules.push(import.module.to_string());
                    }
                    match import.ty {
                        TypeRef::Memory(memory) => memory_shared = Some(memory.shared),
                        TypeRef::Tag(_) => exception_handling.push(format!("imports the tag {}", import.name)),
                        _ => {}
                    }
                }
            }
            Payload::ExportSection(reader) => {
                for export in reader {
                    exports.push(export.map_err(wasm_error)?.name.to_string());
                }
            }
            Payload::TagSection(_) => exception_handling.push("has a tag section".into()),
            Payload::CodeSectionEntry(body) => {
                let mut operators = body.get_operators_reader().map_err(wasm_error)?;
                while !operators.eof() {
                    let op = operators.read().map_err(wasm_error)?;
                    let name = match op {
                        Operator::Try { .. } | Operator::TryTable { .. } => "try",
                        Operator::Throw { .. } | Operator::ThrowRef | Operator::Rethrow { .. } => "throw",
                        _ => continue,
                    };
                    if exception_handling.len() < 8 {
                        exception_handling.push(format!("has a `{name}` instruction"));
                    }
                }
            }
            _ => {}
        }
    }
    if first_section.as_deref() != Some("dylink.0") {
        return Err(format!(
            "not an emscripten side module: its first section is {}, not `dylink.0` (build with -sSIDE_MODULE)",
            first_section.unwrap_or_else(|| "missing".into())
        ));
    }
    require_entry(&exports, ENTRY_SYMBOL)?;
    match memory_shared {
        None => return Err("imports no memory from the main module".into()),
        Some(shared) if shared != threads => {
            return Err(format!(
                "its memory is {}shared, but a {} template's is {}",
                if shared { "" } else { "not " },
                if threads { "threaded" } else { "thread-less" },
                if threads { "shared" } else { "not" }
            ));
        }
        Some(_) => {}
    }
    if !exception_handling.is_empty() {
        return Err(format!(
            "uses exception handling, which Godot's web templates lack: {}",
            exception_handling.join(", ")
        ));
    }
    Ok(format!(
        "wasm side module (dylink.0), exports {ENTRY_SYMBOL} ({} exports), {imports} imports from {}, {} memory, no \
         exception handling",
        exports.len(),
        import_modules.join(", "),
        if threads { "shared" } else { "unshared" }
    ))
}

#[cfg(test)]
mod tests {
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
}
