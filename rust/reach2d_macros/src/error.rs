//! How the attributes say what is wrong: a `compile_error!` at the call site.

use proc_macro2::TokenStream;
use quote::quote;

/// A `compile_error!` with `message`.
pub fn error(message: &str) -> TokenStream {
    quote! { compile_error!(#message); }
}
