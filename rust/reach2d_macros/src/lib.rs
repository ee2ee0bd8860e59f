//! Reach2D's declaring attributes. They write only what every node class declares the same way, and decide nothing at
//! run time (that is `runtime/`, which the generated lines call). Every property is a field of the class's struct,
//! written out in its file with its attributes, its setter and its engine callbacks; what these write is listed here
//! and in ARCHITECTURE.md ("A node file"), and nothing else:
//!
//! - [`macro@shared_docs`], on a node class's struct or on a `#[godot_api]` impl block: a doc comment
//!   `/// @shared KEY` on a field, a function or a constant becomes the help text `KEY` of
//!   `rust/reach2d/src/nodes/shared_docs.md`, so the text several classes share is written once.
//! - [`macro@api`], on a class's primary `#[godot_api]` impl block: appends the shared methods it names, each a
//!   one-line call of a `runtime` function, with its shared help text: `solve`, `reset`, `angle_limits`
//!   (`set_angle_limits`, `clear_angle_limits`, `has_angle_limits`), `setup_warning` (`get_setup_warning`),
//!   `bone_count` (`get_bone_count`), `update_constants` (`UPDATE_PROCESS`, `UPDATE_PHYSICS`, `UPDATE_MANUAL`).
//! - [`macro@NodeFields`] (a derive): `runtime::frame::NodeFields`, reading the fields every bone-driving node has
//!   by name (`enabled`, `update_mode`, `editor_preview`, `state`) and recording a solve in `last_error` and
//!   `last_iterations`.

mod docs;
mod error;

use error::error;

use proc_macro::TokenStream;
use proc_macro2::{Delimiter, Group, TokenStream as Tokens, TokenTree};
use quote::quote;

/// Replaces each `/// @shared KEY` doc comment on a struct's fields, or on an impl block's functions and constants,
/// by the help text `KEY` of `rust/reach2d/src/nodes/shared_docs.md`. Nothing else.
#[proc_macro_attribute]
pub fn shared_docs(args: TokenStream, item: TokenStream) -> TokenStream {
    if !args.is_empty() {
        return error("#[shared_docs] takes no arguments").into();
    }
    expand_shared_docs(item.into()).unwrap_or_else(|e| e).into()
}

fn expand_shared_docs(item: Tokens) -> Result<Tokens, Tokens> {
    let shared = docs::SharedDocs::load()?;
    let item = match venial::parse_item(item) {
        Ok(venial::Item::Struct(mut item)) => {
            let venial::Fields::Named(fields) = &mut item.fields else {
                return Err(error("#[shared_docs]: the struct needs named fields"));
            };
            for (field, _) in fields.fields.iter_mut() {
                shared.replace_in(&mut field.attributes)?;
            }
            quote! { #item }
        }
        Ok(venial::Item::Impl(mut block)) => {
            for member in block.body_items.iter_mut() {
                match member {
                    venial::ImplMember::AssocFunction(function) => shared.replace_in(&mut function.attributes)?,
                    venial::ImplMember::AssocConstant(constant) => shared.replace_in(&mut constant.attributes)?,
                    _ => {}
                }
            }
            quote! { #block }
        }
        _ => return Err(error("#[shared_docs] goes on a node class's struct or on an impl block")),
    };
    let tracking = shared.tracking();
    Ok(quote! {
        #item
        #tracking
    })
}

/// Appends the shared methods named in the arguments to a class's primary `#[godot_api]` impl block; see the crate
/// docs.
#[proc_macro_attribute]
pub fn api(args: TokenStream, item: TokenStream) -> TokenStream {
    expand_api(args.into(), item.into()).unwrap_or_else(|e| e).into()
}

/// `#[derive(NodeFields)]`: `runtime::frame::NodeFields` for a node class, reading by name the fields every
/// bone-driving node has: `enabled`, `update_mode`, `editor_preview`, `state`, and `last_error` and
/// `last_iterations`, where a solve's outcome is recorded. Nothing else.
#[proc_macro_derive(NodeFields)]
pub fn derive_node_fields(item: TokenStream) -> TokenStream {
    match venial::parse_item(item.into()) {
        Ok(venial::Item::Struct(item)) => node_fields(&item.name).into(),
        _ => error("#[derive(NodeFields)] goes on a node class's struct").into(),
    }
}

fn node_fields(class: &proc_macro2::Ident) -> Tokens {
    quote! {
        impl crate::runtime::frame::NodeFields for #class {
            fn state(&mut self) -> &mut crate::runtime::frame::NodeState {
                &mut self.state
            }
            fn state_ref(&self) -> &crate::runtime::frame::NodeState {
                &self.state
            }
            fn enabled(&self) -> bool {
                self.enabled
            }
            fn update_mode(&self) -> crate::runtime::frame::UpdateMode {
                self.update_mode
            }
            fn editor_preview(&self) -> bool {
                self.editor_preview
            }
            fn record(&mut self, solved: crate::runtime::frame::Solved) {
                self.last_error = solved.error;
                self.last_iterations = solved.iterations;
            }
        }
    }
}

fn expand_api(args: Tokens, item: Tokens) -> Result<Tokens, Tokens> {
    let shared = docs::SharedDocs::load()?;
    let mut methods = Tokens::new();
    for name in args.into_iter().filter_map(|t| if let TokenTree::Ident(i) = t { Some(i) } else { None }) {
        methods.extend(shared_method(&shared, &name.to_string())?);
    }
    // The impl block's body is its last token, a brace group: the methods go at its end.
    let mut tokens: Vec<TokenTree> = item.into_iter().collect();
    let body = match tokens.pop() {
        Some(TokenTree::Group(body)) if body.delimiter() == Delimiter::Brace => body,
        _ => return Err(error("#[api] goes on an impl block")),
    };
    let mut inner = body.stream();
    inner.extend(methods);
    let mut new_body = Group::new(Delimiter::Brace, inner);
    new_body.set_span(body.span());
    tokens.push(TokenTree::Group(new_body));
    let block: Tokens = tokens.into_iter().collect();
    let tracking = shared.tracking();
    Ok(quote! {
        #block
        #tracking
    })
}

/// The methods of one shared group, with their help text.
fn shared_method(shared: &docs::SharedDocs, group: &str) -> Result<Tokens, Tokens> {
    let doc = |key: &str| shared.doc_attributes(key);
    Ok(match group {
        "solve" => {
            let d = doc("solve")?;
            quote! {
                #d
                #[func]
                pub fn solve(&mut self) -> bool {
                    crate::runtime::frame::solve(self)
                }
            }
        }
        "angle_limits" => {
            let (set, clear, has) = (doc("set_angle_limits")?, doc("clear_angle_limits")?, doc("has_angle_limits")?);
            quote! {
                #set
                #[func]
                pub fn set_angle_limits(&mut self, bone_index: i64, min_angle: f32, max_angle: f32) {
                    crate::runtime::node_limits::set_angle_limits(self, bone_index, Some((min_angle, max_angle)));
                }
                #clear
                #[func]
                pub fn clear_angle_limits(&mut self, bone_index: i64) {
                    crate::runtime::node_limits::set_angle_limits(self, bone_index, None);
                }
                #has
                #[func]
                pub fn has_angle_limits(&self, bone_index: i64) -> bool {
                    crate::runtime::node_limits::has_angle_limits(self, bone_index)
                }
            }
        }
        "reset" => {
            let d = doc("reset")?;
            quote! {
                #d
                #[func]
                pub fn reset(&mut self) {
                    crate::runtime::frame::reset(self);
                }
            }
        }
        "setup_warning" => {
            let d = doc("get_setup_warning")?;
            quote! {
                #d
                #[func]
                pub fn get_setup_warning(&mut self) -> GString {
                    crate::runtime::frame::setup_warning(self)
                }
            }
        }
        "bone_count" => {
            let d = doc("get_bone_count")?;
            quote! {
                #d
                #[func]
                pub fn get_bone_count(&self) -> i64 {
                    crate::runtime::frame::bone_count(self)
                }
            }
        }
        "update_constants" => {
            let (p, ph, m) = (doc("UPDATE_PROCESS")?, doc("UPDATE_PHYSICS")?, doc("UPDATE_MANUAL")?);
            quote! {
                #p
                #[constant]
                pub const UPDATE_PROCESS: i32 = crate::runtime::frame::UpdateMode::Process as i32;
                #ph
                #[constant]
                pub const UPDATE_PHYSICS: i32 = crate::runtime::frame::UpdateMode::Physics as i32;
                #m
                #[constant]
                pub const UPDATE_MANUAL: i32 = crate::runtime::frame::UpdateMode::Manual as i32;
            }
        }
        other => {
            return Err(error(&format!(
                "#[api({other})]: unknown group (solve, reset, angle_limits, setup_warning, bone_count, \
                 update_constants)"
            )));
        }
    })
}
