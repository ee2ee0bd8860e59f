//! The web library: an emscripten side module that Godot's web export template links at load time.

use crate::library::{ENTRY_SYMBOL, require_entry};
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
mod tests;
