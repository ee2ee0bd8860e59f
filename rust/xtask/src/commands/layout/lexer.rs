//! A Rust source file as tokens, and its count of lines of code: enough of Rust's lexical rules (nested block
//! comments, raw and byte strings, char literals against lifetimes) that a `//` inside a string or a `"` inside
//! a comment is read right.

/// What a token is; literals (strings, chars, numbers, lifetimes) are kept only as placeholders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    Punct,
    Literal,
}

/// One token: its text (`::` is one token; a literal's text is its raw source) and its 1-based line.
#[derive(Clone, Debug)]
pub struct Token {
    pub kind: Kind,
    pub text: String,
    pub line: usize,
}

impl Token {
    /// True for the identifier or punctuation `text`.
    pub fn is(&self, text: &str) -> bool {
        self.kind != Kind::Literal && self.text == text
    }
}

/// A file's tokens (comments and whitespace dropped) and its lines of code: lines holding anything but
/// whitespace and comments.
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub code_lines: usize,
}

struct Lexer {
    chars: Vec<char>,
    at: usize,
    line: usize,
    last_code_line: usize,
    code_lines: usize,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> char {
        self.chars.get(self.at + ahead).copied().unwrap_or('\0')
    }

    /// Consumes one char, counting the line it is on as code unless it is whitespace.
    fn take(&mut self, code: bool) -> char {
        let c = self.peek(0);
        self.at += 1;
        if c == '\n' {
            self.line += 1;
        } else if code && !c.is_whitespace() && self.last_code_line != self.line {
            self.last_code_line = self.line;
            self.code_lines += 1;
        }
        c
    }

    fn text_from(&self, start: usize) -> String {
        self.chars[start..self.at].iter().collect()
    }

    fn ident_chars(&mut self) {
        while self.peek(0) == '_' || self.peek(0).is_alphanumeric() {
            self.take(true);
        }
    }

    /// A quoted literal after its opening quote: up to the closing `quote`, skipping escapes.
    fn quoted(&mut self, quote: char) {
        while self.at < self.chars.len() {
            match self.take(true) {
                '\\' => {
                    self.take(true);
                }
                c if c == quote => return,
                _ => {}
            }
        }
    }

    /// A raw string from its first `#` or `"`: `r#"..."#` ends at a quote followed by as many hashes.
    fn raw_string(&mut self) {
        let mut hashes = 0;
        while self.peek(0) == '#' {
            self.take(true);
            hashes += 1;
        }
        self.take(true); // the opening quote
        while self.at < self.chars.len() {
            if self.take(true) == '"' && (0..hashes).all(|k| self.peek(k) == '#') {
                for _ in 0..hashes {
                    self.take(true);
                }
                return;
            }
        }
    }

    fn block_comment(&mut self) {
        let mut depth = 0;
        while self.at < self.chars.len() {
            if self.peek(0) == '/' && self.peek(1) == '*' {
                depth += 1;
                self.at += 1;
            } else if self.peek(0) == '*' && self.peek(1) == '/' {
                depth -= 1;
                self.at += 1;
            }
            self.take(false);
            if depth == 0 {
                return;
            }
        }
    }

    /// After an identifier that may prefix a literal (`r`, `b`, `br`, `c`, `cr`): the literal, if one follows.
    fn prefixed_literal(&mut self, prefix: &str) -> bool {
        let raw = prefix.ends_with('r');
        let (next, after_hashes) = (self.peek(0), self.chars[self.at..].iter().find(|&&c| c != '#'));
        if raw && (next == '"' || (next == '#' && after_hashes == Some(&'"'))) {
            self.raw_string();
        } else if !raw && next == '"' {
            self.take(true);
            self.quoted('"');
        } else if prefix == "b" && next == '\'' {
            self.take(true);
            self.quoted('\'');
        } else {
            return false;
        }
        true
    }
}

/// Splits `source` into tokens and counts its lines of code.
pub fn lex(source: &str) -> Lexed {
    let mut lx = Lexer { chars: source.chars().collect(), at: 0, line: 1, last_code_line: 0, code_lines: 0 };
    let mut tokens = Vec::new();
    while lx.at < lx.chars.len() {
        let (c, start, line) = (lx.peek(0), lx.at, lx.line);
        let kind = if c.is_whitespace() {
            lx.take(false);
            continue;
        } else if c == '/' && lx.peek(1) == '/' {
            while lx.at < lx.chars.len() && lx.peek(0) != '\n' {
                lx.take(false);
            }
            continue;
        } else if c == '/' && lx.peek(1) == '*' {
            lx.block_comment();
            continue;
        } else if c == '"' {
            lx.take(true);
            lx.quoted('"');
            Kind::Literal
        } else if c == '\'' && (lx.peek(1) == '\\' || lx.peek(2) == '\'') {
            lx.take(true);
            lx.quoted('\'');
            Kind::Literal
        } else if c == '\'' {
            // A lifetime or a loop label.
            lx.take(true);
            lx.ident_chars();
            Kind::Literal
        } else if c.is_ascii_digit() {
            while lx.peek(0) == '_'
                || lx.peek(0).is_alphanumeric()
                || (lx.peek(0) == '.' && lx.peek(1).is_ascii_digit())
            {
                lx.take(true);
            }
            Kind::Literal
        } else if c == '_' || c.is_alphabetic() {
            lx.ident_chars();
            let word = lx.text_from(start);
            if matches!(word.as_str(), "r" | "b" | "br" | "c" | "cr") && lx.prefixed_literal(&word) {
                Kind::Literal
            } else if word == "r" && lx.peek(0) == '#' {
                // A raw identifier: `r#type` is the identifier `type`.
                lx.take(true);
                let name_start = lx.at;
                lx.ident_chars();
                tokens.push(Token { kind: Kind::Ident, text: lx.text_from(name_start), line });
                continue;
            } else {
                Kind::Ident
            }
        } else if c == ':' && lx.peek(1) == ':' {
            lx.take(true);
            lx.take(true);
            Kind::Punct
        } else {
            lx.take(true);
            Kind::Punct
        };
        tokens.push(Token { kind, text: lx.text_from(start), line });
    }
    Lexed { tokens, code_lines: lx.code_lines }
}
