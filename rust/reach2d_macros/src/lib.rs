//! Reach2D's declaring attributes. They write only what a node class declares the same way as every other: they
//! never decide anything at run time (that is `frame.rs`, `checked.rs` and `limits.rs`, which the generated lines
//! call). Every property stays a plain field of the class's struct, in its own file, with its attributes.
//!
//! - [`macro@node`], on a node class's struct (before `#[derive(GodotClass)]`):
//!   - a placeholder field marked `#[shared_properties(GROUP, ..)]` becomes the fields of those groups, declared once
//!     in `shared_properties.rs` (`enabled`, `weight`, `update_mode`, `editor_preview`; the *Motion* and *Tip
//!     Rotation* groups; the helpers' *Ground* filter);
//!   - a doc comment `/// @shared KEY` is replaced by the help text `KEY` in `rust/reach2d/src/nodes/shared_docs.md`,
//!     so the text shared by several classes is written once;
//!   - a field marked `#[checked(RULE)]` gets `#[var(set = set_FIELD)]`; its setter, which stores the value only
//!     through `crate::runtime::checked` (one error naming the valid range, the last good value kept), goes into the
//!     class's `#[api]` block (godot-rust looks for a property's setter in the primary `#[godot_api]` block); see
//!     [`setters`] for the rules;
//!   - an `#[export]` field holding an object or an array of them (`Option<Gd<T>>`, `Array<Gd<T>>`) gets its
//!     property through `crate::runtime::node_property` (a getter and setter taking a `Variant`, the class checked before
//!     anything is stored); see [`node_slots`];
//!   - `#[node(frame)]` also implements `crate::runtime::frame::NodeFields` (the fields every node has, by name: `enabled`,
//!     `update_mode`, `editor_preview`, `last_error`, `last_iterations`, `state`) and `crate::runtime::limits::Limited` (its
//!     `limits`).
//! - [`macro@api`], on the class's primary `#[godot_api] impl` block: adds the setters of its `#[checked]` fields
//!   and the methods every node of its kind has, as listed (`solve`, the angle limits, `get_setup_warning`,
//!   `get_bone_count`, the `UPDATE_*` constants), each a one-line call of an ordinary function, with the shared help
//!   text.
//!
//! - [`macro@callbacks`], on the class's `#[godot_api] impl INode2D` block: the engine callbacks every bone-driving
//!   node has (`ready`, `process`, `physics_process`, `on_notification`: the batch's entry points;
//!   `get_configuration_warnings`; the inspector's angle-limit properties), each a one-line call of an ordinary
//!   function, except those the block writes itself (the spring's own `process`, the rig's `on_notification`).
//!
//! How the setters reach the impl block: `#[node]` also defines a `macro_rules!` named after the class that
//! appends them to an impl block's body, and `#[api]` passes its block through it before `#[godot_api]` expands.

mod callbacks;
mod docs;
mod error;
mod node_slots;
mod setters;
mod shared_properties;

use error::error;

use proc_macro::TokenStream;
use proc_macro2::{Delimiter, Group, TokenStream as Tokens, TokenTree};
use quote::quote;

/// Declares a node class's shared parts around its struct; see the crate docs.
#[proc_macro_attribute]
pub fn node(args: TokenStream, item: TokenStream) -> TokenStream {
    expand_node(args.into(), item.into()).unwrap_or_else(|e| e).into()
}

/// Adds the checked setters and the shared methods named in the arguments to a class's primary `#[godot_api]` impl
/// block; see the crate docs.
#[proc_macro_attribute]
pub fn api(args: TokenStream, item: TokenStream) -> TokenStream {
    expand_api(args.into(), item.into()).unwrap_or_else(|e| e).into()
}

/// Adds the engine callbacks every bone-driving node has (batched entry points, configuration warnings, the
/// inspector's angle limits) to its `#[godot_api] impl INode2D` block, unless the block writes them itself; see
/// `callbacks.rs`.
#[proc_macro_attribute]
pub fn callbacks(args: TokenStream, item: TokenStream) -> TokenStream {
    if !args.is_empty() {
        return error("#[callbacks] takes no arguments").into();
    }
    callbacks::expand(item.into()).unwrap_or_else(|e| e).into()
}

/// `#[derive(NodeFields)]`: implements `crate::runtime::frame::NodeFields` for a node class by reading the fields
/// every bone-driving node has, by name: `enabled`, `update_mode`, `editor_preview`, `last_error`,
/// `last_iterations` and `state`. Nothing else.
#[proc_macro_derive(NodeFields)]
pub fn derive_node_fields(item: TokenStream) -> TokenStream {
    match venial::parse_item(item.into()) {
        Ok(venial::Item::Struct(item)) => node_fields(&item.name).into(),
        _ => error("#[derive(NodeFields)] goes on a node class's struct").into(),
    }
}

/// On a node class's `#[godot_api] impl` block: replaces each doc comment `/// @shared KEY` on its functions and
/// constants by the help text `KEY` of `rust/reach2d/src/nodes/shared_docs.md`. Nothing else.
#[proc_macro_attribute]
pub fn shared_docs(args: TokenStream, item: TokenStream) -> TokenStream {
    if !args.is_empty() {
        return error("#[shared_docs] takes no arguments").into();
    }
    expand_shared_docs(item.into()).unwrap_or_else(|e| e).into()
}

fn expand_shared_docs(item: Tokens) -> Result<Tokens, Tokens> {
    let shared = docs::SharedDocs::load()?;
    let mut block = match venial::parse_item(item) {
        Ok(venial::Item::Impl(block)) => block,
        _ => return Err(error("#[shared_docs] goes on an impl block")),
    };
    for member in block.body_items.iter_mut() {
        match member {
            venial::ImplMember::AssocFunction(function) => shared.replace_in(&mut function.attributes)?,
            venial::ImplMember::AssocConstant(constant) => shared.replace_in(&mut constant.attributes)?,
            _ => {}
        }
    }
    let tracking = shared.tracking();
    Ok(quote! {
        #block
        #tracking
    })
}

/// The name of the `macro_rules!` that carries `class`'s setters from its struct to its impl block.
fn setters_macro(class: &impl ToString) -> proc_macro2::Ident {
    quote::format_ident!("__reach2d_setters_of_{}", class.to_string())
}

fn expand_node(args: Tokens, item: Tokens) -> Result<Tokens, Tokens> {
    let frame = match args.to_string().as_str() {
        "" => false,
        "frame" => true,
        other => return Err(error(&format!("#[node({other})]: the only argument is `frame`"))),
    };
    let shared = docs::SharedDocs::load()?;
    let mut item = match venial::parse_item(item) {
        Ok(venial::Item::Struct(item)) => item,
        _ => return Err(error("#[node] goes on a node class's struct")),
    };
    let class = item.name.clone();
    let venial::Fields::Named(fields) = &mut item.fields else {
        return Err(error("#[node]: the struct needs named fields"));
    };
    expand_shared_properties(fields)?;
    let mut setter_fns = Vec::new();
    for (field, _) in fields.fields.iter_mut() {
        shared.replace_in(&mut field.attributes)?;
        if let Some(setter) = setters::take_checked(&class, field)? {
            setter_fns.push(setter);
        }
    }
    setter_fns.extend(node_slots::split(&class, fields)?);
    let tracking = shared.tracking();
    let setters = setters_macro(&class);
    let fields_impl = frame.then(|| node_fields(&class));
    Ok(quote! {
        #item
        // Appends this class's checked setters to the impl block it is given (`#[reach2d_macros::api]`).
        macro_rules! #setters {
            ($(#[$attribute:meta])* impl $name:ident { $($body:tt)* }) => {
                $(#[$attribute])* impl $name { $($body)* #(#setter_fns)* }
            };
        }
        #fields_impl
        #tracking
    })
}

/// Replaces each placeholder field marked `#[shared_properties(GROUP, ..)]` by the groups' fields, in place.
fn expand_shared_properties(fields: &mut venial::NamedFields) -> Result<(), Tokens> {
    let mut out = venial::Punctuated::new();
    for (field, comma) in fields.fields.iter() {
        let marker =
            field.attributes.iter().find(|a| a.path.len() == 1 && a.path[0].to_string() == "shared_properties");
        let Some(marker) = marker else {
            out.push(field.clone(), Some(comma.clone()));
            continue;
        };
        let venial::AttributeValue::Group(_, groups) = &marker.value else {
            return Err(error("#[shared_properties(GROUP, ..)] names its groups"));
        };
        for group in groups.iter().filter_map(|t| if let TokenTree::Ident(i) = t { Some(i.to_string()) } else { None })
        {
            let tokens = shared_properties::group(&group)?;
            let parsed = venial::parse_item(quote! { struct Group { #tokens } });
            let Ok(venial::Item::Struct(venial::Struct { fields: venial::Fields::Named(named), .. })) = parsed else {
                return Err(error("a shared property group does not parse"));
            };
            for (shared, shared_comma) in named.fields.iter() {
                out.push(shared.clone(), Some(shared_comma.clone()));
            }
        }
    }
    fields.fields = out;
    Ok(())
}

/// `crate::runtime::frame::NodeFields` for `class`: its frame's fields, read by name.
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
    // `impl NAME {`: the class is the identifier before the body.
    let Some(TokenTree::Ident(class)) = tokens.last().cloned() else {
        return Err(error("#[api] goes on `impl ClassName { .. }`"));
    };
    let mut inner = body.stream();
    inner.extend(methods);
    let mut new_body = Group::new(Delimiter::Brace, inner);
    new_body.set_span(body.span());
    tokens.push(TokenTree::Group(new_body));
    let block: Tokens = tokens.into_iter().collect();
    let setters = setters_macro(&class);
    let tracking = shared.tracking();
    Ok(quote! {
        #setters! { #block }
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
            // Literals, as the help shows them; `frame::UpdateMode`'s values (a test there checks they agree).
            quote! {
                #p
                #[constant]
                pub const UPDATE_PROCESS: i32 = 0;
                #ph
                #[constant]
                pub const UPDATE_PHYSICS: i32 = 1;
                #m
                #[constant]
                pub const UPDATE_MANUAL: i32 = 2;
            }
        }
        other => {
            return Err(error(&format!(
                "#[shared_methods({other})]: unknown group (solve, reset, angle_limits, setup_warning, bone_count, \
                 update_constants)"
            )));
        }
    })
}
