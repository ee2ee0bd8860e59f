//! The property declarations several node classes share, written once. A node file names the groups it has where
//! they go in its inspector, with a placeholder field:
//!
//! ```ignore
//! /// Shared: `enabled`, `weight`, `update_mode`, `editor_preview`.
//! #[shared_properties(frame)]
//! _frame: (),
//! ```
//!
//! and `#[node]` puts the group's fields there (their help text from `nodes/shared_docs.md`, their validation by
//! their `#[checked]` rule, like any other field). The groups:
//! - `frame`: `enabled`, `weight` (0..1), `update_mode`, `editor_preview`: every node that solves;
//! - `spring_frame`: the same four, with the help text of a node that steps through time;
//! - `motion`: the *Motion* group, `solve_from_rest` and `max_angular_speed` (>= 0);
//! - `tip_rotation`: the *Tip Rotation* group, `match_target_rotation` and `target_rotation_weight` (0..1);
//! - `ground`: the *Ground* group's physics filter, `collision_mask` (32 bits), `collide_with_bodies` and
//!   `collide_with_areas`: the helper nodes that stand feet on the world (`FootGrounder2D`, `LegStepper2D`).

use proc_macro2::TokenStream as Tokens;
use quote::quote;

use crate::error::error;

/// The fields of group `name`.
pub fn group(name: &str) -> Result<Tokens, Tokens> {
    Ok(match name {
        "frame" => frame("enabled", "weight", "update_mode", "editor_preview"),
        "spring_frame" => frame("spring.enabled", "spring.weight", "spring.update_mode", "spring.editor_preview"),
        "motion" => quote! {
            #[doc = " @shared solve_from_rest"]
            #[export_group(name = "Motion")]
            #[export]
            solve_from_rest: bool,
            #[doc = " @shared max_angular_speed"]
            #[export(range = (0.0, 1440.0, 1.0, or_greater, radians_as_degrees, suffix = "°/s"))]
            #[checked(0.0..)]
            max_angular_speed: f32,
        },
        "tip_rotation" => quote! {
            #[doc = " @shared match_target_rotation"]
            #[export_group(name = "Tip Rotation")]
            #[export]
            match_target_rotation: bool,
            #[doc = " @shared target_rotation_weight"]
            #[export(range = (0.0, 1.0, 0.01))]
            #[checked(0.0..=1.0)]
            #[init(val = 1.0)]
            target_rotation_weight: f32,
        },
        "ground" => quote! {
            #[doc = " @shared ground.collision_mask"]
            #[export_group(name = "Ground")]
            #[export(flags_2d_physics)]
            #[checked(layers)]
            #[init(val = 1)]
            collision_mask: i64,
            #[doc = " @shared ground.collide_with_bodies"]
            #[export]
            #[init(val = true)]
            collide_with_bodies: bool,
            #[doc = " @shared ground.collide_with_areas"]
            #[export]
            collide_with_areas: bool,
        },
        other => {
            return Err(error(&format!(
                "#[shared_properties({other})]: unknown group (frame, spring_frame, motion, tip_rotation, ground)"
            )));
        }
    })
}

/// `enabled`, `weight`, `update_mode` and `editor_preview`, with the help text under these keys.
fn frame(enabled: &str, weight: &str, update_mode: &str, editor_preview: &str) -> Tokens {
    let key = |k: &str| format!(" @shared {k}");
    let (enabled, weight, update_mode, editor_preview) =
        (key(enabled), key(weight), key(update_mode), key(editor_preview));
    quote! {
        #[doc = #enabled]
        #[export]
        #[init(val = true)]
        enabled: bool,
        #[doc = #weight]
        #[export(range = (0.0, 1.0, 0.01))]
        #[checked(0.0..=1.0)]
        #[init(val = 1.0)]
        weight: f32,
        #[doc = #update_mode]
        #[export(enum = (Process = 0, Physics = 1, Manual = 2))]
        update_mode: crate::runtime::frame::UpdateMode,
        #[doc = #editor_preview]
        #[export]
        #[init(val = true)]
        editor_preview: bool,
    }
}
