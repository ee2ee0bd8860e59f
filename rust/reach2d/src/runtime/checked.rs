//! The one place that validates values a script (or a scene file, or the inspector) assigns to a node's numeric
//! properties: a value out of range prints one error that names the valid range, and the property keeps its last
//! good value. Nothing here can panic, whatever the value.
//!
//! The rule, for every property of every node, now and later: a property with a valid range narrower than its type
//! has a setter written in its node file (`#[var(set = set_x)]`), and the setter stores the
//! value only through [`set_float`], [`set_int`], [`set_vector`] or [`set_choice`] here. Scripts (`node.x = v`,
//! `set("x", v)`, `set_x(v)`), scene files and the inspector all call the setter, so one check covers them all, and
//! the solve uses what is stored as it is: no clamping at solve time. An enum property stores the enum itself (a
//! [`Choice`]); Godot sees an `int`, and a value that is none of its constants is refused here, never converted by
//! godot-rust (whose derived enum conversion panics on an unknown value at the FFI boundary). Array properties check
//! every entry ([`each_non_negative`]), the angle limits their angles ([`angle`]). Every float, int and vector
//! property has such a setter (`tests/robustness/test_every_route.gd` reads them from ClassDB and tries every route).

use godot::builtin::Vector2;
use godot::global::godot_error;

#[cfg(test)]
mod tests;

/// An enum stored in a property: Godot sees its index, an `int`, with one constant per choice.
pub trait Choice: Copy + Sized {
    /// The constants' names, by index, for error messages.
    const NAMES: &'static [&'static str];
    /// The choice at `index`, if any.
    fn from_index(index: i64) -> Option<Self>;
    /// The choice's index.
    fn index(self) -> i64;
}

/// Each check below is a pure function that returns the value to keep or the one sentence to print; the setters
/// print that sentence with [`kept`]. An `Err` is always a whole message.
type Checked<T> = Result<T, String>;

/// The value of a check, or `None` after printing its message as one error.
fn kept<T>(checked: Checked<T>) -> Option<T> {
    checked.map_err(|message| godot_error!("{message}")).ok()
}

/// The choice at `value`, or the message naming the choices.
pub fn choice<C: Choice>(property: &str, value: i64) -> Checked<C> {
    C::from_index(value).ok_or_else(|| {
        let choices: Vec<String> = C::NAMES.iter().enumerate().map(|(i, n)| format!("{n} ({i})")).collect();
        format!("{property} = {value} is not one of {}: the value is ignored", choices.join(", "))
    })
}

/// Stores the choice at `value` in `field` when there is one; otherwise one error naming the choices, and `field`
/// keeps its value. The setter of every enum property (called from the enum's `Var` impl, which godot-rust's
/// generated setter calls: it does not know the node's class, so the message names the property only).
pub fn set_choice<C: Choice>(field: &mut C, property: &str, value: i64) {
    if let Some(choice) = kept(choice(property, value)) {
        *field = choice;
    }
}

/// `value` when it is finite and within `[min, max]` (`max` = `f32::MAX`: no upper bound), or the message naming
/// the range.
pub fn float(class: &str, property: &str, value: f64, min: f64, max: f64) -> Checked<f64> {
    if value.is_finite() && (min..=max).contains(&value) {
        Ok(value)
    } else if max == f64::from(f32::MAX) {
        Err(format!("{class}.{property} = {value} is not a finite value of at least {min}: the value is ignored"))
    } else {
        Err(format!("{class}.{property} = {value} is outside [{min}, {max}] (or not finite): the value is ignored"))
    }
}

/// `value` when it is finite and within `[min, max]`; otherwise one error naming the range, and `None`.
pub fn float_value(class: &str, property: &str, value: f64, min: f64, max: f64) -> Option<f64> {
    kept(float(class, property, value, min, max))
}

/// Stores `value` in `field` when it is finite and within `[min, max]`; otherwise one error, and `field` keeps its
/// value. The setter of every float property.
pub fn set_float(field: &mut f32, class: &str, property: &str, value: f32, min: f32, max: f32) {
    if let Some(v) = float_value(class, property, f64::from(value), f64::from(min), f64::from(max)) {
        *field = v as f32;
    }
}

/// `value` when it is within `[min, max]`, or the message naming the range.
pub fn int(class: &str, property: &str, value: i64, min: i64, max: i64) -> Checked<i64> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{class}.{property} = {value} is outside [{min}, {max}]: the value is ignored"))
    }
}

/// Stores `value` in `field` when it is within `[min, max]`; otherwise one error, and `field` keeps its value. The
/// setter of every integer property (an `i64` field, so a script's int never fails godot-rust's conversion).
pub fn set_int(field: &mut i64, class: &str, property: &str, value: i64, min: i64, max: i64) {
    if let Some(v) = kept(int(class, property, value, min, max)) {
        *field = v;
    }
}

/// `value` when both components are finite, or the message.
pub fn vector(class: &str, property: &str, value: Vector2) -> Checked<Vector2> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(format!("{class}.{property} = {value} is not finite: the value is ignored"))
    }
}

/// Stores `value` in `field` when both components are finite; otherwise one error, and `field` keeps its value. The
/// setter of every vector property.
pub fn set_vector(field: &mut Vector2, class: &str, property: &str, value: Vector2) {
    if let Some(v) = kept(vector(class, property, value)) {
        *field = v;
    }
}

/// Every entry of `values` finite and at least 0, or the message naming the first bad entry.
pub fn non_negative_entries(class: &str, property: &str, values: &[f32]) -> Checked<()> {
    match values.iter().position(|v| !(v.is_finite() && *v >= 0.0)) {
        None => Ok(()),
        Some(index) => Err(format!(
            "{class}.{property}[{index}] = {} is not a finite value of at least 0: the value is ignored",
            values[index]
        )),
    }
}

/// `true` when every entry of `values` is finite and at least 0; otherwise one error naming the first bad entry.
pub fn each_non_negative(class: &str, property: &str, values: &[f32]) -> bool {
    kept(non_negative_entries(class, property, values)).is_some()
}

/// Every entry of `values` within `[min, max]`, or the message naming the first bad entry.
pub fn int_entries(class: &str, property: &str, values: &[i32], min: i32, max: i32) -> Checked<()> {
    match values.iter().position(|v| !(min..=max).contains(v)) {
        None => Ok(()),
        Some(index) => Err(format!(
            "{class}.{property}[{index}] = {} is outside [{min}, {max}]: the value is ignored",
            values[index]
        )),
    }
}

/// `true` when every entry of `values` is within `[min, max]`; otherwise one error naming the first bad entry.
pub fn each_int_in(class: &str, property: &str, values: &[i32], min: i32, max: i32) -> bool {
    kept(int_entries(class, property, values, min, max)).is_some()
}

/// Every entry of `values` with finite components, or the message naming the first bad entry.
pub fn finite_vector_entries(class: &str, property: &str, values: &[Vector2]) -> Checked<()> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(index) => {
            Err(format!("{class}.{property}[{index}] = {} is not finite: the value is ignored", values[index]))
        }
    }
}

/// `true` when every entry of `values` has finite components; otherwise one error naming the first bad entry.
pub fn each_finite_vector(class: &str, property: &str, values: &[Vector2]) -> bool {
    kept(finite_vector_entries(class, property, values)).is_some()
}

/// An angle limit's bound when it is radians within [-PI, PI] (with a little slack for rounding, e.g.
/// `deg_to_rad(180.0)` in `f32`), clamped to that range; otherwise the message, which says degrees were probably
/// passed as radians.
pub fn radians(what: core::fmt::Arguments, value: f32) -> Checked<f32> {
    const PI: f32 = core::f32::consts::PI;
    if value.abs() <= PI + 1e-3 {
        return Ok(value.clamp(-PI, PI));
    }
    Err(format!(
        "{what} = {value} is not an angle in radians within [-PI, PI] (degrees? use deg_to_rad()): the value is ignored"
    ))
}

/// [`radians`], printing its message: `None` after an error.
pub fn angle(what: core::fmt::Arguments, value: f32) -> Option<f32> {
    kept(radians(what, value))
}

/// `(min, max)` of an angle limit when both are angles ([`radians`]) and `min <= max`, or the message.
pub fn angle_limit(method: &str, min: f32, max: f32) -> Checked<(f32, f32)> {
    let min = radians(format_args!("{method}: min_angle"), min)?;
    let max = radians(format_args!("{method}: max_angle"), max)?;
    if min <= max {
        return Ok((min, max));
    }
    Err(format!("{method}: min_angle ({min}) is greater than max_angle ({max}): the limit is unchanged"))
}

/// `(min, max)` of an angle limit when both are angles and `min <= max`; otherwise one error, and `None`.
pub fn angle_range(method: &str, min: f32, max: f32) -> Option<(f32, f32)> {
    kept(angle_limit(method, min, max))
}

/// `index` as a bone index below `count`, or the message saying which indices are valid.
pub fn index_below(method: &str, index: i64, count: usize) -> Checked<usize> {
    match usize::try_from(index) {
        Ok(i) if i < count => Ok(i),
        _ => Err(format!(
            "{method}: bone_index {index} is outside the chain (0 = root_bone .. {}): ignored",
            count.saturating_sub(1)
        )),
    }
}

/// `index` as a bone index below `count`; otherwise one error saying which indices are valid, and `None`.
pub fn bone_index(method: &str, index: i64, count: usize) -> Option<usize> {
    kept(index_below(method, index, count))
}
