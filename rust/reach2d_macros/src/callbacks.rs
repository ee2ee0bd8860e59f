//! `#[callbacks]` on a bone-driving node's `#[godot_api] impl INode2D` block: the engine callbacks every such node
//! has, each forwarding to one ordinary function, added unless the block writes that callback itself.

use proc_macro2::{Delimiter, Group, TokenStream as Tokens, TokenTree};
use quote::quote;

use crate::error::error;

/// The callbacks and their default bodies: a batched node's entry points (`batch.rs`, `frame.rs`), its
/// configuration warnings, and the inspector's angle-limit properties (`limits.rs`).
fn defaults() -> Vec<(&'static str, Tokens)> {
    vec![
        (
            "ready",
            quote! {
                fn ready(&mut self) {
                    crate::batch::ready(self, crate::runtime::frame::RUNTIME_PROCESS_PRIORITY);
                }
            },
        ),
        (
            "process",
            quote! {
                fn process(&mut self, delta: f64) {
                    crate::runtime::frame::tick(self, crate::runtime::frame::Tick::Process, delta);
                }
            },
        ),
        (
            "physics_process",
            quote! {
                fn physics_process(&mut self, delta: f64) {
                    crate::runtime::frame::tick(self, crate::runtime::frame::Tick::Physics, delta);
                }
            },
        ),
        (
            "on_notification",
            quote! {
                fn on_notification(&mut self, what: godot::classes::notify::CanvasItemNotification) {
                    crate::batch::notification(self, what);
                }
            },
        ),
        (
            "get_configuration_warnings",
            quote! {
                fn get_configuration_warnings(&self) -> godot::builtin::PackedStringArray {
                    crate::runtime::frame::configuration_warnings(self)
                }
            },
        ),
        (
            "on_get_property_list",
            quote! {
                fn on_get_property_list(&mut self) -> Vec<godot::register::info::PropertyInfo> {
                    self.state.limits.property_list(self.state.bones.chain.len())
                }
            },
        ),
        (
            "on_get",
            quote! {
                fn on_get(&self, property: godot::builtin::StringName) -> Option<godot::builtin::Variant> {
                    crate::runtime::frame::counted(|| self.state.limits.get_property(&property))
                }
            },
        ),
        (
            "on_set",
            quote! {
                fn on_set(&mut self, property: godot::builtin::StringName, value: godot::builtin::Variant) -> bool {
                    crate::runtime::frame::counted(|| self.state.limits.set_property(&property, &value))
                }
            },
        ),
        (
            "on_property_get_revert",
            quote! {
                fn on_property_get_revert(&self, property: godot::builtin::StringName) -> Option<godot::builtin::Variant> {
                    crate::runtime::limits::AngleLimits::property_revert(&property)
                }
            },
        ),
    ]
}

/// Adds the default callbacks the impl block `item` does not write itself.
pub fn expand(item: Tokens) -> Result<Tokens, Tokens> {
    let mut tokens: Vec<TokenTree> = item.into_iter().collect();
    let body = match tokens.pop() {
        Some(TokenTree::Group(body)) if body.delimiter() == Delimiter::Brace => body,
        _ => return Err(error("#[callbacks] goes on `impl INode2D for ClassName { .. }`")),
    };
    let written = function_names(&body.stream());
    let mut inner = body.stream();
    for (name, callback) in defaults() {
        if !written.iter().any(|w| w == name) {
            inner.extend(callback);
        }
    }
    let mut new_body = Group::new(Delimiter::Brace, inner);
    new_body.set_span(body.span());
    tokens.push(TokenTree::Group(new_body));
    Ok(tokens.into_iter().collect())
}

/// The names of the functions an impl block's body defines (the identifier after each top-level `fn`).
fn function_names(body: &Tokens) -> Vec<String> {
    let tokens: Vec<TokenTree> = body.clone().into_iter().collect();
    tokens
        .windows(2)
        .filter_map(|pair| match pair {
            [TokenTree::Ident(keyword), TokenTree::Ident(name)] if keyword == "fn" => Some(name.to_string()),
            _ => None,
        })
        .collect()
}
