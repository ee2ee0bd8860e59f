//! Godot's documentation BBCode (what the editor's help shows) turned into GitHub Markdown.
//!
//! `ours` names the classes that have a page in `docs/reference/`; references to them become links, references to
//! engine classes link to Godot's online class reference.

/// Converts one description (the text of a `<description>` as `--doctool` writes it: tab-indented lines) into
/// Markdown paragraphs. `class` is the page's class, for links to its own members.
pub fn to_markdown(text: &str, class: &str, ours: &[String]) -> String {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("[codeblock") {
        out.extend(paragraphs(&rest[..start], class, ours));
        let after = &rest[start..];
        let open_end = after.find(']').map_or(after.len(), |i| i + 1);
        let body_and_rest = &after[open_end..];
        let (body, next) = match body_and_rest.find("[/codeblock]") {
            Some(end) => (&body_and_rest[..end], &body_and_rest[end + "[/codeblock]".len()..]),
            None => (body_and_rest, ""),
        };
        out.push(code_block(body));
        rest = next;
    }
    out.extend(paragraphs(rest, class, ours));
    out.join("\n\n")
}

/// A fenced block: the lines with their common indentation removed.
fn code_block(body: &str) -> String {
    let all: Vec<&str> = body.lines().collect();
    let first = all.iter().position(|l| !l.trim().is_empty()).unwrap_or(all.len());
    let last = all.iter().rposition(|l| !l.trim().is_empty()).map_or(first, |i| i + 1);
    let lines = &all[first..last];
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches(['\t', ' ']).len())
        .min()
        .unwrap_or(0);
    let body: Vec<&str> = lines.iter().map(|l| l.get(indent..).unwrap_or("").trim_end()).collect();
    format!("```gdscript\n{}\n```", body.join("\n"))
}

/// Each non-empty line is a paragraph in Godot's help; so it is here.
fn paragraphs(text: &str, class: &str, ours: &[String]) -> Vec<String> {
    // godot-rust writes a doc comment's paragraphs on one line, parted by `[br][br]`.
    let text = text.replace("[br]", "\n");
    text.lines().map(str::trim).filter(|l| !l.is_empty()).map(|l| inline(l, class, ours)).collect()
}

/// The inline tags of one line.
pub fn inline(line: &str, class: &str, ours: &[String]) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find(']') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let tag = &after[..close];
        let tail = &after[close + 1..];
        if let Some((replacement, consumed)) = paired(tag, tail) {
            out.push_str(&replacement);
            rest = &tail[consumed..];
        } else if let Some(replacement) = single(tag, class, ours) {
            out.push_str(&replacement);
            rest = tail;
        } else {
            out.push('[');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Tags with a closing tag: `[code]`, `[b]`, `[i]`, `[kbd]`, `[url]`; returns the Markdown and how much of `tail`
/// (after the opening tag) it used.
fn paired(tag: &str, tail: &str) -> Option<(String, usize)> {
    let (name, arg) = tag.split_once('=').map_or((tag, None), |(n, a)| (n, Some(a)));
    let closing = format!("[/{name}]");
    let end = tail.find(&closing)?;
    let body = &tail[..end];
    let used = end + closing.len();
    let text = match (name, arg) {
        ("code" | "kbd", None) => {
            if body.contains('`') {
                format!("`` {body} ``")
            } else {
                format!("`{body}`")
            }
        }
        ("b", None) => format!("**{body}**"),
        ("i", None) => format!("*{body}*"),
        ("u", None) | ("center", None) => body.to_string(),
        ("url", None) => format!("<{body}>"),
        ("url", Some(url)) => format!("[{body}]({url})"),
        _ => return None,
    };
    Some((text, used))
}

/// Tags without a closing tag: references to members and classes, `[br]`.
fn single(tag: &str, class: &str, ours: &[String]) -> Option<String> {
    if tag == "br" {
        return Some("<br>".into());
    }
    if let Some((kind, target)) = tag.split_once(' ') {
        let (label, anchor) = match kind {
            "member" => (target.to_string(), "property"),
            "method" | "constructor" | "operator" => (format!("{target}()"), "method"),
            "signal" => (target.to_string(), "signal"),
            "constant" => (target.to_string(), "constant"),
            "enum" => (target.to_string(), "enum"),
            "param" => return Some(format!("`{target}`")),
            "theme_item" | "annotation" => return Some(format!("`{target}`")),
            _ => return None,
        };
        return Some(member_link(&label, anchor, target, class, ours));
    }
    let is_class = tag.chars().next().is_some_and(|c| c.is_ascii_uppercase() || c == '@')
        && tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '@');
    is_class.then(|| class_link(tag, ours))
}

/// `[member x]` in its class, `[member Other.x]` elsewhere.
fn member_link(label: &str, anchor: &str, target: &str, class: &str, ours: &[String]) -> String {
    let (owner, name) = target.rsplit_once('.').unwrap_or((class, target));
    if owner == class {
        format!("[`{label}`](#{anchor}-{})", name.to_lowercase())
    } else if ours.iter().any(|c| c == owner) {
        format!("[`{label}`]({owner}.md#{anchor}-{})", name.to_lowercase())
    } else {
        let page = owner.to_lowercase();
        let kind = match anchor {
            "property" => "property",
            "method" => "method",
            "signal" => "signal",
            _ => "constant",
        };
        format!("[`{label}`]({GODOT_CLASSES}class_{page}.html#class-{page}-{kind}-{})", name.replace('_', "-"))
    }
}

/// Godot's online class reference.
pub const GODOT_CLASSES: &str = "https://docs.godotengine.org/en/stable/classes/";

/// A class name as a link: to its page here, or to Godot's reference.
pub fn class_link(name: &str, ours: &[String]) -> String {
    if ours.iter().any(|c| c == name) {
        format!("[{name}]({name}.md)")
    } else {
        format!("[{name}]({GODOT_CLASSES}class_{}.html)", name.to_lowercase().replace('@', "%40"))
    }
}
