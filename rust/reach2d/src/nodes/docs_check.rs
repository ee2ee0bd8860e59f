//! Every class, property, method and constant the editor shows has help text (the XML `register-docs` sends to
//! the editor's help), and the README's node table lists every node class.

#[test]
fn every_documented_item_has_text() {
    let docs: Vec<String> = godot::docs::__gather_xml_docs().collect();
    let mut classes = Vec::new();
    let mut missing = Vec::new();
    let mut residue = Vec::new();
    let mut checked = 0;
    for xml in &docs {
        let class = between(xml, "<class name=\"", "\"").unwrap_or("?").to_string();
        if between(xml, "<brief_description>", "</brief_description>").is_none_or(|t| t.trim().is_empty()) {
            missing.push(format!("{class}: class description"));
        }
        for (open, close) in [("<brief_description>", "</brief_description>"), ("<description>", "</description>")] {
            if let Some(text) = between(xml, open, close) {
                check_source_residue(&format!("{class}: class {open}"), text, &mut residue);
            }
        }
        for (open, close) in [("<member ", "</member>"), ("<method ", "</method>"), ("<constant ", "</constant>")] {
            let mut rest = xml.as_str();
            while let Some(start) = rest.find(open) {
                let end = rest[start..].find(close).map_or(rest.len(), |e| start + e);
                let item = &rest[start..end];
                let name = between(item, "name=\"", "\"").unwrap_or("?");
                let text = item.split_once('>').map_or("", |(_, body)| body);
                let text = text.replace("<description>", "").replace("</description>", "");
                if text.trim().is_empty() {
                    missing.push(format!("{class}.{name}"));
                }
                check_source_residue(&format!("{class}.{name}"), &text, &mut residue);
                checked += 1;
                rest = &rest[end..];
            }
        }
        classes.push(class);
    }
    classes.sort();
    for class in [
        "CcdChain2D",
        "CharacterWeight2D",
        "CopyTransform2D",
        "FabrikChain2D",
        "FabrikRig2D",
        "FootGrounder2D",
        "LegStepper2D",
        "LookAt2D",
        "PathChain2D",
        "Ragdoll2D",
        "SpringChain2D",
        "TwoBoneIk2D",
    ] {
        assert!(classes.iter().any(|c| c == class), "{class} has no docs; found {classes:?}");
    }
    // The shared help text reached every class that names it (`nodes/shared_docs.md`), and no key was left behind.
    assert!(docs.iter().all(|xml| !xml.contains("@shared")), "a `/// @shared KEY` was not replaced");
    let fabrik = docs.iter().find(|xml| xml.contains("<class name=\"FabrikChain2D\"")).expect("FabrikChain2D docs");
    let weight = between(fabrik, "<member name=\"weight\"", "</member>").expect("FabrikChain2D.weight");
    assert!(weight.contains("lerp_angle(input, solved"), "FabrikChain2D.weight has the shared text: {weight}");
    assert!(missing.is_empty(), "items without help text: {missing:#?}");
    assert!(residue.is_empty(), "help text that shows Rust source (string quotes) instead of text: {residue:#?}");
    // 5 classes x (10+ members, 5 methods, 3 constants): make sure the XML was actually read.
    assert!(checked >= 5 * 18, "only {checked} documented items found");
}

/// Records `item` when its help text is Rust source rather than the string's value: a literal that reached the
/// docs derive as a token (wrapped by a `literal` macro fragment) keeps its `r"` prefix and quotes (`&quot;`).
fn check_source_residue(item: &str, text: &str, residue: &mut Vec<String>) {
    let text = text.trim();
    let raw_prefix = ["r\"", "r#", "r&quot;"].iter().any(|p| text.starts_with(p));
    let quoted_end = text.starts_with("&quot;") || text.ends_with("&quot;") || text.ends_with("\"#");
    if raw_prefix || quoted_end || text.contains("\\n") {
        residue.push(format!("{item}: {}", text.chars().take(60).collect::<String>()));
    }
}

fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = text.find(start)? + start.len();
    let to = text[from..].find(end)? + from;
    Some(&text[from..to])
}

/// The README's opening counts the node classes in words and its first table lists each: every documented class that
/// is a node (inherits Node or Node2D), but for the internal `Reach2D*` ones (the batcher, test and benchmark
/// probes). A new class fails this until the README says what it does.
#[test]
fn the_readme_lists_every_node_class() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).expect("README.md");
    let mut nodes: Vec<String> = godot::docs::__gather_xml_docs()
        .filter(|xml| matches!(between(xml, "inherits=\"", "\""), Some("Node" | "Node2D")))
        .filter_map(|xml| between(&xml, "<class name=\"", "\"").map(str::to_string))
        .filter(|class| !class.starts_with("Reach2D"))
        .collect();
    nodes.sort();
    nodes.dedup();
    assert!(nodes.len() >= 7, "node classes found: {nodes:?}");
    const WORDS: [&str; 21] = [
        "Zero",
        "One",
        "Two",
        "Three",
        "Four",
        "Five",
        "Six",
        "Seven",
        "Eight",
        "Nine",
        "Ten",
        "Eleven",
        "Twelve",
        "Thirteen",
        "Fourteen",
        "Fifteen",
        "Sixteen",
        "Seventeen",
        "Eighteen",
        "Nineteen",
        "Twenty",
    ];
    let count = WORDS.get(nodes.len()).copied().unwrap_or("Many");
    let opening = readme.split("\n\n").nth(1).unwrap_or("");
    assert!(
        opening.contains(&format!("{count} nodes")),
        "the README's opening should say \"{count} nodes\": {opening}"
    );
    let table: Vec<&str> = readme
        .lines()
        .skip_while(|line| !line.starts_with("| node |"))
        .take_while(|line| line.starts_with('|'))
        .collect();
    for class in &nodes {
        let row = format!("| `{class}` |");
        assert!(table.iter().any(|line| line.starts_with(&row)), "the README's node table has no row for {class}");
    }
    assert_eq!(table.len(), nodes.len() + 2, "one row per node class (and the head): {table:#?}");
}
