//! The shared help text: `rust/reach2d/src/nodes/shared_docs.md`, one entry per `## KEY` heading, read when the
//! attributes expand. The generated code includes the file, so editing it rebuilds what uses it.

use proc_macro2::{Literal, TokenStream as Tokens, TokenTree};
use quote::quote;

use crate::error::error;

/// Where the text lives, from the using crate's manifest folder.
const FILE: &str = "src/nodes/shared_docs.md";

/// The entries of the shared help text, by key.
pub struct SharedDocs {
    path: String,
    entries: Vec<(String, Vec<String>)>,
}

impl SharedDocs {
    /// Reads the file of the crate being compiled.
    pub fn load() -> Result<Self, Tokens> {
        let dir = std::env::var("CARGO_MANIFEST_DIR").map_err(|_| error("CARGO_MANIFEST_DIR is not set"))?;
        let path = format!("{dir}/{FILE}");
        let text = std::fs::read_to_string(&path).map_err(|e| error(&format!("cannot read {path}: {e}")))?;
        let mut entries: Vec<(String, Vec<String>)> = Vec::new();
        for line in text.lines() {
            if let Some(key) = line.strip_prefix("## ") {
                entries.push((key.trim().to_string(), Vec::new()));
            } else if let Some((_, lines)) = entries.last_mut() {
                lines.push(line.to_string());
            }
        }
        for (_, lines) in &mut entries {
            while lines.last().is_some_and(|l| l.trim().is_empty()) {
                lines.pop();
            }
            while lines.first().is_some_and(|l| l.trim().is_empty()) {
                lines.remove(0);
            }
        }
        Ok(Self { path, entries })
    }

    /// `#[doc = "..."]` attributes holding entry `key`, one per line (as `///` comments would be).
    pub fn doc_attributes(&self, key: &str) -> Result<Tokens, Tokens> {
        let lines = self.lines(key)?;
        let lines = lines.iter().map(|line| Literal::string(&format!(" {line}")));
        Ok(quote! { #(#[doc = #lines])* })
    }

    fn lines(&self, key: &str) -> Result<&[String], Tokens> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, lines)| &lines[..])
            .ok_or_else(|| error(&format!("no `## {key}` entry in {}", self.path)))
    }

    /// Replaces a doc comment `/// @shared KEY` in `attributes` by the lines of entry `KEY`.
    pub fn replace_in(&self, attributes: &mut Vec<venial::Attribute>) -> Result<(), Tokens> {
        let mut out = Vec::with_capacity(attributes.len());
        for attribute in attributes.drain(..) {
            let Some(key) = shared_key(&attribute) else {
                out.push(attribute);
                continue;
            };
            for line in self.lines(&key)? {
                let mut doc = attribute.clone();
                if let venial::AttributeValue::Equals(_, value) = &mut doc.value {
                    *value = vec![TokenTree::Literal(Literal::string(&format!(" {line}")))];
                }
                out.push(doc);
            }
        }
        *attributes = out;
        Ok(())
    }

    /// A constant that includes the file, so that rustc rebuilds the user when the text changes.
    pub fn tracking(&self) -> Tokens {
        let path = &self.path;
        quote! { const _: &str = include_str!(#path); }
    }
}

/// `KEY` of a `#[doc = " @shared KEY"]` attribute.
fn shared_key(attribute: &venial::Attribute) -> Option<String> {
    let is_doc = attribute.path.len() == 1 && attribute.path[0].to_string() == "doc";
    let venial::AttributeValue::Equals(_, value) = &attribute.value else { return None };
    let [TokenTree::Literal(literal)] = &value[..] else { return None };
    let text = literal.to_string();
    let text = text.strip_prefix('"')?.strip_suffix('"')?;
    let key = text.trim().strip_prefix("@shared ")?;
    is_doc.then(|| key.trim().to_string())
}
