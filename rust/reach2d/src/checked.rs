//! The one place that validates values a script (or a scene file, or the inspector) assigns to a node's numeric
//! properties: a value out of range prints one error that names the valid range, and the property keeps its last
//! good value. Nothing here can panic, whatever the value.
//!
//! The rule, for every property of every node, now and later: a property with a valid range narrower than its type
//! has `#[var(set = set_<name>)]`, and that `#[func]` setter stores the value only through [`set_float`],
//! [`set_int`], [`set_iterations`], [`set_vector`] or [`set_enum`] here. Scripts (`node.x = v`, `set("x", v)`), scene files and the inspector all
//! call the setter, so one check covers them all, and the solve can trust what is stored. An enum is an `i64` field
//! with an `#[export(enum = (..))]` hint (godot-rust's derived enum conversion panics on an unknown value at the FFI
//! boundary); the node converts the stored, validated integer with the enum's own `from_i64`. Every float, int and
//! vector property has such a setter (`tests/test_every_route.gd` reads them from ClassDB and tries every route).

use godot::builtin::Vector2;
use godot::global::godot_error;

/// Most iterations a node accepts: bounds the work of one frame whatever a script assigns.
pub const MAX_ITERATIONS: i64 = 1024;

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
    if max == f64::from(f32::MAX) {
        godot_error!("{class}.{property} = {value} is not a finite value of at least {min}: the value is ignored");
    } else {
        godot_error!("{class}.{property} = {value} is outside [{min}, {max}] (or not finite): the value is ignored");
    }
    None
}

/// Stores `value` in `field` when it is finite and within `[min, max]`; otherwise one error, and `field` keeps its
/// value. The setter of every float property.
pub fn set_float(field: &mut f32, class: &str, property: &str, value: f32, min: f32, max: f32) {
    if let Some(v) = float_value(class, property, f64::from(value), f64::from(min), f64::from(max)) {
        *field = v as f32;
    }
}

/// Stores `value` in `field` when it is one of `names`' indices; otherwise one error, and `field` keeps its value.
/// The setter of every enum property.
pub fn set_enum(field: &mut i64, class: &str, property: &str, value: i64, names: &[&str]) {
    if let Some(v) = enum_value(class, property, value, names) {
        *field = v;
    }
}

/// Stores `value` in `field` when it is within `[min, max]`; otherwise one error, and `field` keeps its value. The
/// setter of every integer property (an `i64` field, so a script's int never fails godot-rust's conversion).
pub fn set_int(field: &mut i64, class: &str, property: &str, value: i64, min: i64, max: i64) {
    if (min..=max).contains(&value) {
        *field = value;
    } else {
        godot_error!("{class}.{property} = {value} is outside [{min}, {max}]: the value is ignored");
    }
}

/// Stores `value` in an iteration count when it is within `0..=MAX_ITERATIONS`; otherwise one error, and `field`
/// keeps its value.
pub fn set_iterations(field: &mut i64, class: &str, value: i64) {
    set_int(field, class, "max_iterations", value, 0, MAX_ITERATIONS);
}

/// Stores `value` in `field` when both components are finite; otherwise one error, and `field` keeps its value. The
/// setter of every vector property.
pub fn set_vector(field: &mut Vector2, class: &str, property: &str, value: Vector2) {
    if value.is_finite() {
        *field = value;
    } else {
        godot_error!("{class}.{property} = {value} is not finite: the value is ignored");
    }
}
