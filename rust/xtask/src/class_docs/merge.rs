//! Two halves of one class's documentation joined: Godot's `--doctool` dump knows every property, method, signal
//! and constant as the engine sees them (types, defaults, accessors, signatures) but no description of an
//! extension's class; the XML godot-rust registers with the editor's help (`Reach2DDebug.class_docs_xml()`) holds
//! the descriptions from the doc comments. [`fill`] copies the second's descriptions into the first.

use super::xml::Element;

/// Puts the descriptions of `docs` (the registered XML of a class) into `structure` (its `--doctool` element).
pub fn fill(structure: &mut Element, docs: &Element) {
    for part in ["brief_description", "description"] {
        let text = docs.child_text(part);
        if let Some(target) = structure.children.iter_mut().find(|c| c.name == part)
            && !text.is_empty()
        {
            target.text = text.to_string();
        }
    }
    for (list, item, nested) in [
        ("members", "member", false),
        ("methods", "method", true),
        ("signals", "signal", true),
        ("constants", "constant", false),
    ] {
        let (Some(ours), Some(theirs)) = (structure.children.iter_mut().find(|c| c.name == list), docs.child(list))
        else {
            continue;
        };
        for entry in ours.children.iter_mut().filter(|c| c.name == item) {
            let name = entry.attr("name").unwrap_or_default().to_string();
            let Some(source) = theirs.children_named(item).find(|c| c.attr("name") == Some(name.as_str())) else {
                continue;
            };
            if nested {
                let text = source.child_text("description").to_string();
                match entry.children.iter_mut().find(|c| c.name == "description") {
                    Some(d) => d.text = text,
                    None => entry.children.push(Element { name: "description".into(), text, ..Element::default() }),
                }
            } else {
                entry.text = source.text.clone();
            }
        }
    }
}
