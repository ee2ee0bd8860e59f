//! A small reader for the XML Godot's `--doctool` writes: elements, attributes and text, with the five predefined
//! entities and numeric character references. No namespaces, DTDs or CDATA (the class docs use none).

use crate::process::Result;

/// One element: its name, attributes (in document order) and children; `text` is its text content, trimmed.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Element {
    pub name: String,
    pub attributes: Vec<(String, String)>,
    pub children: Vec<Element>,
    pub text: String,
}

impl Element {
    /// The value of attribute `name`, if present.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The first child named `name`.
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    /// Every child named `name`.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The trimmed text of the child `name` ("" when absent).
    pub fn child_text(&self, name: &str) -> &str {
        self.child(name).map_or("", |c| c.text.as_str())
    }
}

/// Parses a document into its root element.
pub fn parse(source: &str) -> Result<Element> {
    let mut reader = Reader { s: source, pos: 0 };
    reader.skip_prolog()?;
    let root = reader.element()?;
    Ok(root)
}

struct Reader<'a> {
    s: &'a str,
    pos: usize,
}

impl Reader<'_> {
    fn rest(&self) -> &str {
        &self.s[self.pos..]
    }

    fn fail<T>(&self, what: &str) -> Result<T> {
        let line = self.s[..self.pos].matches('\n').count() + 1;
        Err(format!("XML: {what} at line {line}"))
    }

    fn skip_ws(&mut self) {
        let trimmed = self.rest().trim_start();
        self.pos = self.s.len() - trimmed.len();
    }

    /// Skips the declaration, comments and whitespace before the root element.
    fn skip_prolog(&mut self) -> Result {
        loop {
            self.skip_ws();
            if self.rest().starts_with("<?") {
                self.skip_past("?>")?;
            } else if self.rest().starts_with("<!--") {
                self.skip_past("-->")?;
            } else {
                return Ok(());
            }
        }
    }

    fn skip_past(&mut self, end: &str) -> Result {
        match self.rest().find(end) {
            Some(i) => {
                self.pos += i + end.len();
                Ok(())
            }
            None => self.fail(&format!("no closing {end}")),
        }
    }

    fn name(&mut self) -> Result<String> {
        let len = self.rest().find(|c: char| c.is_whitespace() || matches!(c, '>' | '/' | '=')).unwrap_or(0);
        if len == 0 {
            return self.fail("a name expected");
        }
        let name = self.rest()[..len].to_string();
        self.pos += len;
        Ok(name)
    }

    fn element(&mut self) -> Result<Element> {
        if !self.rest().starts_with('<') {
            return self.fail("an element expected");
        }
        self.pos += 1;
        let mut element = Element { name: self.name()?, ..Element::default() };
        loop {
            self.skip_ws();
            if self.rest().starts_with("/>") {
                self.pos += 2;
                return Ok(element);
            }
            if self.rest().starts_with('>') {
                self.pos += 1;
                break;
            }
            let key = self.name()?;
            self.skip_ws();
            if !self.rest().starts_with('=') {
                return self.fail("'=' expected after an attribute name");
            }
            self.pos += 1;
            self.skip_ws();
            let quote = match self.rest().chars().next() {
                Some(q @ ('"' | '\'')) => q,
                _ => return self.fail("a quoted attribute value expected"),
            };
            self.pos += 1;
            let Some(len) = self.rest().find(quote) else { return self.fail("an unclosed attribute value") };
            let value = unescape(&self.rest()[..len]);
            self.pos += len + 1;
            element.attributes.push((key, value));
        }
        let mut text = String::new();
        loop {
            let Some(lt) = self.rest().find('<') else { return self.fail(&format!("no </{}>", element.name)) };
            text.push_str(&unescape(&self.rest()[..lt]));
            self.pos += lt;
            if self.rest().starts_with("<!--") {
                self.skip_past("-->")?;
            } else if let Some(after) = self.rest().strip_prefix("</") {
                let close = format!("{}>", element.name);
                if !after.trim_start().starts_with(&close) {
                    return self.fail(&format!("</{}> expected", element.name));
                }
                self.skip_past(">")?;
                element.text = text.trim().to_string();
                return Ok(element);
            } else {
                element.children.push(self.element()?);
            }
        }
    }
}

/// Replaces `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;` and `&#N;`/`&#xN;` with their characters.
pub fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let Some(semi) = rest.find(';') else { break };
        let entity = &rest[1..semi];
        let decoded = match entity {
            "lt" => Some('<'),
            "gt" => Some('>'),
            "amp" => Some('&'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => entity
                .strip_prefix("#x")
                .map(|h| u32::from_str_radix(h, 16))
                .or_else(|| entity.strip_prefix('#').map(str::parse))
                .and_then(|n| n.ok())
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[semi + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}
