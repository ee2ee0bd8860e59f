//! `#[checked(RULE)]` on a field: its setter, through `crate::runtime::checked` (the one place with the messages).
//!
//! The rules, by the field's type:
//! - `f32`: `#[checked(MIN..=MAX)]` or `#[checked(MIN..)]` (no upper bound): finite and within the range;
//! - `i64`: `#[checked(MIN..=MAX)]`, or `#[checked(layers)]` (a 32-bit physics layer mask);
//! - `Vector2`: `#[checked(finite)]`.
//!
//! An enum property needs no attribute: its type (a `crate::runtime::checked::Choice`) validates in its own `Var` impl.
//!
//! A trailing `, then = METHOD` calls `self.METHOD()` after every setter call (a value that must act at once).

use proc_macro2::{Ident, Span, TokenStream as Tokens, TokenTree};
use quote::{format_ident, quote};

use crate::error::error;

/// Takes `#[checked(..)]` off `field`, adds the `#[var(..)]` that names its setter, and returns the setter; `None`
/// for a field without the attribute.
pub fn take_checked(class: &Ident, field: &mut venial::NamedField) -> Result<Option<Tokens>, Tokens> {
    let Some(index) = field.attributes.iter().position(|a| path_is(a, "checked")) else { return Ok(None) };
    let attribute = field.attributes.remove(index);
    let venial::AttributeValue::Group(_, args) = &attribute.value else {
        return Err(error("#[checked] needs a rule: #[checked(0.0..=1.0)], #[checked(finite)], ..."));
    };
    let (rule, then) = split_then(args);
    let name = field.name.clone();
    let setter = format_ident!("set_{}", name);
    let property = name.to_string();
    let class_name = class.to_string();
    let ty = field.ty.tokens.iter().map(ToString::to_string).collect::<String>();
    let rule_text = rule.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
    let then = then.map(|method| quote! { self.#method(); });

    let (value_ty, store, doc) = match (ty.as_str(), rule_text.as_str()) {
        ("Vector2", "finite") => (
            quote! { Vector2 },
            quote! { crate::runtime::checked::set_vector(&mut self.#name, #class_name, #property, value); },
            format!(
                " Sets [member {property}]: a NaN or infinite component prints an error and keeps the current value."
            ),
        ),
        ("i64", "layers") => (
            quote! { i64 },
            quote! { crate::runtime::checked::set_int(&mut self.#name, #class_name, #property, value, 0, i64::from(u32::MAX)); },
            format!(
                " Sets [member {property}]: a value outside the 32 layers' bits (negative, or 2^32 and above) prints an error and keeps the current one."
            ),
        ),
        ("f32" | "i64", _) => {
            let (min, max) = split_range(&rule)?;
            let is_float = ty == "f32";
            let (max, max_text) = match (max, is_float) {
                (Some(max), _) => {
                    let text = readable(&max);
                    (max, text)
                }
                (None, true) => (quote! { f32::MAX }, String::new()),
                (None, false) => (quote! { i64::MAX }, String::new()),
            };
            let min_text = readable(&min);
            let doc = if max_text.is_empty() {
                format!(
                    " Sets [member {property}]: a value below {min_text} (or not finite) prints an error and keeps the current one."
                )
            } else {
                format!(
                    " Sets [member {property}]: a value outside [{min_text}, {max_text}] (or not finite) prints an error and keeps the current one."
                )
            };
            if is_float {
                (
                    quote! { f32 },
                    quote! { crate::runtime::checked::set_float(&mut self.#name, #class_name, #property, value, #min, #max); },
                    doc,
                )
            } else {
                (
                    quote! { i64 },
                    quote! { crate::runtime::checked::set_int(&mut self.#name, #class_name, #property, value, #min, #max); },
                    doc,
                )
            }
        }
        _ => {
            return Err(error(&format!(
                "#[checked({rule_text})] on `{property}: {ty}`: no such rule for this type (see reach2d_macros::setters)"
            )));
        }
    };
    field.attributes.push(var_attribute(quote! { set = #setter }));
    Ok(Some(quote! {
        #[doc = #doc]
        #[func]
        fn #setter(&mut self, value: #value_ty) {
            #store
            #then
        }
    }))
}

fn path_is(attribute: &venial::Attribute, name: &str) -> bool {
    attribute.path.len() == 1 && attribute.path[0].to_string() == name
}

/// `#[var(ARGS)]` as a venial attribute.
fn var_attribute(args: Tokens) -> venial::Attribute {
    let tokens: Tokens = quote! { #[var(#args)] };
    let item = quote! { #tokens struct S; };
    match venial::parse_item(item) {
        Ok(venial::Item::Struct(s)) => s.attributes.into_iter().next().expect("one attribute"),
        _ => unreachable!("a plain struct parses"),
    }
}

/// The rule's tokens and the method after `, then =`, if any.
fn split_then(args: &[TokenTree]) -> (Vec<TokenTree>, Option<Ident>) {
    let comma = args.iter().position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','));
    let Some(comma) = comma else { return (args.to_vec(), None) };
    let method = args[comma + 1..].iter().rev().find_map(|t| match t {
        TokenTree::Ident(i) if i != "then" => Some(i.clone()),
        _ => None,
    });
    (args[..comma].to_vec(), method)
}

/// `MIN..=MAX` or `MIN..` as token streams.
fn split_range(rule: &[TokenTree]) -> Result<(Tokens, Option<Tokens>), Tokens> {
    let dots = rule.windows(2).position(|w| {
        matches!((&w[0], &w[1]), (TokenTree::Punct(a), TokenTree::Punct(b)) if a.as_char() == '.' && b.as_char() == '.')
    });
    let Some(dots) = dots else {
        return Err(error("#[checked(..)] on a number takes a range: MIN..=MAX or MIN.."));
    };
    let min: Tokens = rule[..dots].iter().cloned().collect();
    let rest = &rule[dots + 2..];
    match rest.first() {
        None => Ok((min, None)),
        Some(TokenTree::Punct(p)) if p.as_char() == '=' => Ok((min, Some(rest[1..].iter().cloned().collect()))),
        _ => Err(error("#[checked(..)]: write MIN..=MAX (inclusive) or MIN..")),
    }
    .map(|(min, max)| (respan(min), max.map(respan)))
}

/// The tokens with the call site's span, so errors point at the field.
fn respan(tokens: Tokens) -> Tokens {
    tokens
        .into_iter()
        .map(|mut t| {
            t.set_span(Span::call_site());
            t
        })
        .collect()
}

/// A bound as the help shows it: `-core::f32::consts::PI` as `-PI`, `FRAC_PI_2` as `PI/2`.
fn readable(bound: &Tokens) -> String {
    let text: String = bound.clone().into_iter().map(|t| t.to_string()).collect();
    let sign = if text.starts_with('-') { "-" } else { "" };
    let last = text.rsplit("::").next().unwrap_or(&text).trim_start_matches('-');
    let last = match last {
        "FRAC_PI_2" => "PI/2",
        other => other,
    };
    format!("{sign}{last}")
}
