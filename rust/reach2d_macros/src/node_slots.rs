//! Every `#[export]` field that holds an object (`Option<Gd<T>>`) or an array of them (`Array<Gd<T>>`): Godot's
//! property becomes a `crate::runtime::node_property::NodeProperty<TYPE>` in the field's place (with its attributes: help
//! text, group, export), whose getter and setter take a `Variant`, and the field stays as plain storage the node's
//! code uses. The setter checks the class through `crate::runtime::node_property::NodeValue` (one sentence, the last good
//! value kept) before anything is stored, so no route leaves the check to godot-rust's conversion.
//!
//! A field whose value must act when set names the method that takes the checked value: `#[var(set = METHOD)]`
//! (an ordinary method, not `#[func]`, not named `set_FIELD`).

use proc_macro2::{Ident, TokenStream as Tokens, TokenTree};
use quote::{format_ident, quote};

use crate::error::error;

/// Splits each object field of `fields` in two (see the module help), in place; returns the accessors for the
/// class's `#[api]` block.
pub fn split(class: &Ident, fields: &mut venial::NamedFields) -> Result<Vec<Tokens>, Tokens> {
    let mut out = venial::Punctuated::new();
    let mut accessors = Vec::new();
    for (field, comma) in fields.fields.iter() {
        if !is_object_export(field) {
            out.push(field.clone(), Some(comma.clone()));
            continue;
        }
        let name = field.name.clone();
        let ty = &field.ty;
        let vis = &field.vis_marker;
        let mut store = None;
        let mut property_attributes = Vec::new();
        let mut storage_attributes = Vec::new();
        for attribute in &field.attributes {
            match attribute.path.first().map(ToString::to_string).as_deref() {
                Some("var") => store = Some(setter_of(attribute)?),
                Some("init") => storage_attributes.push(attribute.clone()),
                _ => property_attributes.push(attribute.clone()),
            }
        }
        let (getter, setter) = (format_ident!("get_{}", name), format_ident!("set_{}", name));
        let property = format_ident!("__{}_property", name);
        let parsed = venial::parse_item(quote! {
            struct Fields {
                #(#property_attributes)*
                #[var(get = #getter, set = #setter, rename = #name)]
                #property: crate::runtime::node_property::NodeProperty<#ty>,
                #(#storage_attributes)*
                #vis #name: #ty,
            }
        });
        let Ok(venial::Item::Struct(venial::Struct { fields: venial::Fields::Named(named), .. })) = parsed else {
            return Err(error("an object property's fields do not parse"));
        };
        for (split_field, split_comma) in named.fields.iter() {
            out.push(split_field.clone(), Some(split_comma.clone()));
        }
        let (class_name, property_name) = (class.to_string(), name.to_string());
        let keep = match store {
            Some(method) => quote! { self.#method(value); },
            None => quote! { self.#name = value; },
        };
        let get_doc = format!(" The value of [member {property_name}].");
        let set_doc = format!(
            " Sets [member {property_name}]: a value of another class (or no object) prints one error naming it, and \
             the current value is kept."
        );
        accessors.push(quote! {
            #[doc = #get_doc]
            #[func]
            fn #getter(&self) -> godot::builtin::Variant {
                godot::meta::ToGodot::to_variant(&self.#name)
            }
            #[doc = #set_doc]
            #[func]
            fn #setter(&mut self, value: godot::builtin::Variant) {
                if let Some(value) =
                    <#ty as crate::runtime::node_property::NodeValue>::checked(&value, #class_name, #property_name)
                {
                    #keep
                }
            }
        });
    }
    fields.fields = out;
    Ok(accessors)
}

/// `#[export]` on a field of type `Option<Gd<..>>` or `Array<Gd<..>>`.
fn is_object_export(field: &venial::NamedField) -> bool {
    let exported = field.attributes.iter().any(|a| a.path.len() == 1 && a.path[0].to_string() == "export");
    let ty: String = field.ty.tokens.iter().map(ToString::to_string).collect();
    exported && (ty.starts_with("Option<Gd<") || ty.starts_with("Array<Gd<"))
}

/// The method in `#[var(set = METHOD)]`, the only `#[var]` an object property may carry.
fn setter_of(attribute: &venial::Attribute) -> Result<Ident, Tokens> {
    let tokens: Vec<TokenTree> = match &attribute.value {
        venial::AttributeValue::Group(_, tokens) => tokens.clone(),
        _ => Vec::new(),
    };
    match tokens.as_slice() {
        [TokenTree::Ident(set), TokenTree::Punct(eq), TokenTree::Ident(method)]
            if set == "set" && eq.as_char() == '=' =>
        {
            Ok(method.clone())
        }
        _ => Err(error("an object property takes only #[var(set = METHOD)] (the method that keeps the checked value)")),
    }
}
