//! The one place that validates values a script (or a scene file, or the inspector) assigns to a node's numeric
//! properties: a value out of range prints one error that names the valid range, and the property keeps its last
//! good value. Nothing here can panic, whatever the Variant.
//!
//! The rule for enum properties, now and later: the field is an `i64` with an `#[export(enum = (..))]` hint and a
//! custom setter that goes through [`enum_value`], so no conversion to a Rust enum can fail at the FFI boundary
//! (godot-rust's derived enum conversion panics on an unknown value). The node converts the stored, validated
//! integer with the enum's own `from_i64`.

use godot::global::godot_error;
use godot::prelude::*;

/// Most iterations a node accepts: bounds the work of one frame whatever a script assigns.
pub const MAX_ITERATIONS: i64 = 1024;

/// What a numeric property accepts (inclusive ranges; floats must also be finite).
#[derive(Clone, Copy)]
enum Range {
    Float(f64, f64),
    Int(i64, i64),
}

/// The numeric properties checked in `_set`, by name. `update_mode` and `weight` have their own setters (they are
/// shared by every class), so direct setter calls are checked too.
const RULES: [(&str, Range); 5] = [
    ("tolerance", Range::Float(0.0, f32::MAX as f64)),
    ("softness", Range::Float(0.0, f32::MAX as f64)),
    ("max_angle_step", Range::Float(0.0, f32::MAX as f64)),
    ("max_iterations", Range::Int(0, MAX_ITERATIONS)),
    // Radians; the bound is PI as stored in an f32 (just above f64's PI), so the inspector's 180 degrees passes.
    ("angle_offset", Range::Float(-(core::f32::consts::PI as f64), core::f32::consts::PI as f64)),
];

/// `value` when it is one of `names`' indices; otherwise one error naming the choices, and `None`.
pub fn enum_value(class: &str, property: &str, value: i64, names: &[&str]) -> Option<i64> {
    if usize::try_from(value).is_ok_and(|i| i < names.len()) {
        return Some(value);
    }
    let choices: Vec<String> = names.iter().enumerate().map(|(i, n)| format!("{n} ({i})")).collect();
    godot_error!("{class}.{property} = {value} is not one of {}: the value is ignored", choices.join(", "));
    None
}

/// `value` when it is finite and within `[min, max]`; otherwise one error naming the range, and `None`.
pub fn float_value(class: &str, property: &str, value: f64, min: f64, max: f64) -> Option<f64> {
    if value.is_finite() && (min..=max).contains(&value) {
        return Some(value);
    }
    godot_error!("{class}.{property} = {value} is outside [{min}, {max}] (or not finite): the value is ignored");
    None
}

/// For `_set`: `true` when `property` is one of [`RULES`] and `value` breaks its rule (after printing one error), so
/// Godot stops there and the property keeps its value. `false` lets the property's own setter run.
///
/// `property` is the name as characters (no allocation on the per-frame path of animated properties).
pub fn refuse(class: &str, property: &[char], value: &Variant) -> bool {
    let Some((name, range)) = RULES.iter().find(|(name, _)| name.chars().eq(property.iter().copied())) else {
        return false;
    };
    match *range {
        Range::Float(min, max) => match value.try_to::<f64>() {
            Ok(v) => float_value(class, name, v, min, max).is_none(),
            // Not a number: Godot's own setter call reports the wrong type.
            Err(_) => false,
        },
        Range::Int(min, max) => match value.try_to::<i64>() {
            Ok(v) if (min..=max).contains(&v) => false,
            Ok(v) => {
                godot_error!("{class}.{name} = {v} is outside [{min}, {max}]: the value is ignored");
                true
            }
            Err(_) => false,
        },
    }
}
