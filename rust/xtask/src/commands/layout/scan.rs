//! What one file says about modules: the modules it declares (in files or inline), its `use` declarations as
//! flat paths, the other paths it names (`crate::a::b(..)`, `super::x`, `$crate::m::f` in a macro), and the
//! identifiers its code uses outside `use` lines (to tell a re-export from an import the file itself uses), and the
//! `crate::` paths a proc macro writes into its user's crate (inside `quote!`).

use super::lexer::{Kind, Token};
use std::collections::HashSet;

/// `mod name;` (a file) or `mod name { .. }` (inline), inside the inline modules `scope`.
pub struct ModDecl {
    pub name: String,
    pub inline: bool,
    /// Under `#[cfg(test)]` (or a `cfg` that requires `test`).
    pub cfg_test: bool,
    /// The `#[path = ".."]` attribute's value.
    pub path_attr: Option<String>,
    pub scope: Vec<String>,
    pub line: usize,
}

/// One name a `use` brings in: its path (`self` leaves folded into their module) and the name it binds (`None`
/// for a glob).
pub struct UseLeaf {
    pub segments: Vec<String>,
    pub bound: Option<String>,
}

/// A `use` declaration (`public` for `pub` or `pub(..)`), inside the inline modules `scope`.
pub struct UseDecl {
    pub leaves: Vec<UseLeaf>,
    pub public: bool,
    pub scope: Vec<String>,
    pub line: usize,
}

/// A path of two or more segments named in code, inside the inline modules `scope`.
pub struct PathRef {
    pub segments: Vec<String>,
    pub scope: Vec<String>,
    pub line: usize,
}

/// Everything [`scan`] finds in one file.
#[derive(Default)]
pub struct Scan {
    pub mods: Vec<ModDecl>,
    pub uses: Vec<UseDecl>,
    pub paths: Vec<PathRef>,
    /// The `crate::` paths inside `quote!`/`quote_spanned!`: a proc macro writes them into the crate that uses it.
    pub quoted: Vec<PathRef>,
    /// `extern crate self as NAME;`: NAME is this crate.
    pub crate_alias: Option<String>,
    pub used_idents: HashSet<String>,
}

fn is(tokens: &[Token], at: usize, text: &str) -> bool {
    tokens.get(at).is_some_and(|t| t.is(text))
}

fn ident(tokens: &[Token], at: usize) -> Option<&str> {
    tokens.get(at).filter(|t| t.kind == Kind::Ident).map(|t| t.text.as_str())
}

/// The index of the bracket that opens the one closing at `close`, searching backwards.
fn opening(tokens: &[Token], close: usize, open: &str, shut: &str) -> Option<usize> {
    let mut depth = 0;
    for k in (0..=close).rev() {
        if tokens[k].is(shut) {
            depth += 1;
        } else if tokens[k].is(open) {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    None
}

/// The index just past the bracketed group that opens at `open` (`{`, `(` or `[`); `open` itself when none does.
fn past_group(tokens: &[Token], open: usize) -> usize {
    let Some(first) = tokens.get(open) else { return open };
    let (opener, closer) = match first.text.as_str() {
        "{" => ("{", "}"),
        "(" => ("(", ")"),
        "[" => ("[", "]"),
        _ => return open,
    };
    let mut depth = 0usize;
    for (k, token) in tokens.iter().enumerate().skip(open) {
        if token.is(opener) {
            depth += 1;
        } else if token.is(closer) {
            depth -= 1;
            if depth == 0 {
                return k + 1;
            }
        }
    }
    tokens.len()
}

/// Where the item whose keyword is at `at` starts, counting a visibility (`pub`, `pub(crate)`) before it.
fn item_start(tokens: &[Token], at: usize) -> usize {
    if at > 0 && is(tokens, at - 1, ")") {
        if let Some(k) = opening(tokens, at - 1, "(", ")").filter(|&k| k > 0 && is(tokens, k - 1, "pub")) {
            return k - 1;
        }
    } else if at > 0 && is(tokens, at - 1, "pub") {
        return at - 1;
    }
    at
}

/// The outer attributes (`#[..]`, contents only) just before the token at `start`.
fn attributes_before(tokens: &[Token], mut start: usize) -> Vec<&[Token]> {
    let mut attrs = Vec::new();
    while start > 0 && is(tokens, start - 1, "]") {
        match opening(tokens, start - 1, "[", "]").filter(|&k| k > 0 && is(tokens, k - 1, "#")) {
            Some(k) => {
                attrs.push(&tokens[k + 1..start - 1]);
                start = k - 1;
            }
            None => break,
        }
    }
    attrs
}

/// Reads the use tree at `at` under `prefix`, adding its leaves; returns the index after it.
fn use_tree(tokens: &[Token], mut at: usize, prefix: &mut Vec<String>, leaves: &mut Vec<UseLeaf>) -> usize {
    let base = prefix.len();
    if is(tokens, at, "::") {
        // A global path (`::std::x`) names another crate.
        prefix.push("::".into());
        at += 1;
    }
    while let Some(t) = tokens.get(at) {
        if t.is("{") {
            at += 1;
            while at < tokens.len() && !is(tokens, at, "}") {
                let next = use_tree(tokens, at, prefix, leaves);
                if next == at {
                    break; // not a use tree: stop rather than loop
                }
                at = if is(tokens, next, ",") { next + 1 } else { next };
            }
            at += 1;
        } else if t.is("*") {
            leaves.push(UseLeaf { segments: prefix.clone(), bound: None });
            at += 1;
        } else if t.kind == Kind::Ident {
            prefix.push(t.text.clone());
            at += 1;
            if is(tokens, at, "::") {
                at += 1;
                continue;
            }
            let mut segments = prefix.clone();
            if t.text == "self" {
                segments.pop();
            }
            let mut bound = segments.last().cloned();
            if is(tokens, at, "as") {
                bound = ident(tokens, at + 1).map(str::to_string);
                at += 2;
            }
            leaves.push(UseLeaf { segments, bound });
        }
        break;
    }
    prefix.truncate(base);
    at
}

/// The segments of the path whose first identifier is at `at` (`a::b::c`, stopping before generics or a call).
fn path_at(tokens: &[Token], at: usize) -> Vec<String> {
    let mut segments = vec![tokens[at].text.clone()];
    let mut next = at + 1;
    while is(tokens, next, "::")
        && let Some(name) = ident(tokens, next + 1)
    {
        segments.push(name.to_string());
        next += 2;
    }
    segments
}

/// Scans one file's tokens.
pub fn scan(tokens: &[Token]) -> Scan {
    let mut found = Scan::default();
    let mut depth = 0usize;
    // The inline modules around the current token, each with the brace depth outside it.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        let t = &tokens[at];
        let scope: Vec<String> = inline.iter().map(|(name, _)| name.clone()).collect();
        if t.is("{") {
            depth += 1;
        } else if t.is("}") {
            depth = depth.saturating_sub(1);
            if inline.last().is_some_and(|&(_, outside)| outside == depth) {
                inline.pop();
            }
        } else if t.is("use") {
            let public = item_start(tokens, at) < at;
            let mut leaves = Vec::new();
            at = use_tree(tokens, at + 1, &mut Vec::new(), &mut leaves);
            found.uses.push(UseDecl { leaves, public, scope, line: t.line });
            continue;
        } else if t.is("mod")
            && let Some(name) = ident(tokens, at + 1)
            && (is(tokens, at + 2, ";") || is(tokens, at + 2, "{"))
        {
            let attrs = attributes_before(tokens, item_start(tokens, at));
            let cfg_test = attrs.iter().any(|a| {
                a.first().is_some_and(|t| t.is("cfg"))
                    && a.iter().any(|t| t.is("test"))
                    && !a.iter().any(|t| t.is("not"))
            });
            let path_attr = attrs.iter().find(|a| a.len() == 3 && a[0].is("path") && a[1].is("=")).map(|a| {
                let quoted = &a[2].text;
                quoted.trim_matches('"').to_string()
            });
            let inline_body = is(tokens, at + 2, "{");
            if inline_body {
                inline.push((name.to_string(), depth));
            }
            found.mods.push(ModDecl {
                name: name.into(),
                inline: inline_body,
                cfg_test,
                path_attr,
                scope,
                line: t.line,
            });
            at += 2;
            continue;
        } else if (t.is("quote") || t.is("quote_spanned")) && is(tokens, at + 1, "!") {
            // Tokens a proc macro writes into its user's crate: their `crate::` paths are the user's, not this
            // crate's.
            let end = past_group(tokens, at + 2);
            for k in at + 2..end {
                // `k > at + 1`, so `k - 1` is inside the file.
                if tokens[k].is("crate")
                    && !is(tokens, k - 1, "::")
                    && is(tokens, k + 1, "::")
                    && ident(tokens, k + 2).is_some()
                {
                    let segments = path_at(tokens, k);
                    found.quoted.push(PathRef { segments, scope: scope.clone(), line: tokens[k].line });
                }
            }
            at = end;
            continue;
        } else if t.is("extern")
            && is(tokens, at + 1, "crate")
            && is(tokens, at + 2, "self")
            && is(tokens, at + 3, "as")
        {
            found.crate_alias = ident(tokens, at + 4).map(str::to_string);
        } else if t.kind == Kind::Ident {
            found.used_idents.insert(t.text.clone());
            let after_path = at > 0 && is(tokens, at - 1, "::");
            let metavariable = at > 0 && is(tokens, at - 1, "$") && t.text != "crate";
            if is(tokens, at + 1, "::") && ident(tokens, at + 2).is_some() && !after_path && !metavariable {
                found.paths.push(PathRef { segments: path_at(tokens, at), scope, line: t.line });
            }
        }
        at += 1;
    }
    found
}
