//! Per-bone angle limits on local rotation, editable from scripts (`set_angle_limits`, `clear_angle_limits`) and as
//! inspector properties (`angle_limits/bone_<i>/enabled`, `.../min_angle`, `.../max_angle`), saved with the scene.
//! Every value comes in through `checked.rs`.

use core::f32::consts::FRAC_PI_2;
use godot::prelude::*;
use godot::register::info::{PropertyHint, PropertyHintInfo, PropertyInfo, PropertyUsageFlags};
use reach2d_core::AngleLimit;

use crate::runtime::checked;

#[cfg(test)]
mod tests;

const PREFIX: &str = "angle_limits/bone_";
/// More bones than any chain has; guards the slot vector against absurd indices.
const MAX_BONES: usize = 4096;

/// One bone's limit as the inspector edits it: kept even while disabled, so toggling loses nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Slot {
    enabled: bool,
    min: f32,
    max: f32,
}

/// One of a slot's three inspector properties.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Field {
    Enabled,
    Min,
    Max,
}

impl Slot {
    fn get(self, field: Field) -> Variant {
        match field {
            Field::Enabled => self.enabled.to_variant(),
            Field::Min => self.min.to_variant(),
            Field::Max => self.max.to_variant(),
        }
    }
}

/// `text` without the leading `prefix`, if it starts with it.
fn strip_prefix<'a>(text: &'a [char], prefix: &str) -> Option<&'a [char]> {
    let mut rest = text;
    for expected in prefix.chars() {
        let (&first, tail) = rest.split_first()?;
        if first != expected {
            return None;
        }
        rest = tail;
    }
    Some(rest)
}

impl Default for Slot {
    fn default() -> Self {
        Slot { enabled: false, min: -FRAC_PI_2, max: FRAC_PI_2 }
    }
}

/// Angle limits of a chain, indexed by bone (0 = root bone).
#[derive(Default)]
pub struct AngleLimits {
    slots: Vec<Slot>,
    /// What the solvers use: `Some` for each enabled, valid slot.
    active: Vec<Option<AngleLimit>>,
}

impl AngleLimits {
    /// The limits the solvers use, one entry per bone that has a slot (possibly fewer than the chain's bones).
    pub fn active(&self) -> &[Option<AngleLimit>] {
        &self.active
    }

    /// Limits bone `index`'s local rotation (radians, wrapped to (-PI, PI]) to `[min, max]`.
    ///
    /// `bones` is the chain's length when it is known. A bad index or `min > max` prints an error that says what
    /// to pass, and changes nothing.
    pub fn set(&mut self, index: i64, min: f32, max: f32, bones: Option<usize>) -> bool {
        let Some(index) = checked::bone_index("set_angle_limits", index, bones.unwrap_or(MAX_BONES)) else {
            return false;
        };
        let Some((min, max)) = checked::angle_range("set_angle_limits", min, max) else { return false };
        *self.slot_mut(index) = Slot { enabled: true, min, max };
        self.refresh();
        true
    }

    /// Removes bone `index`'s limit (its range is kept for the inspector, disabled).
    pub fn clear(&mut self, index: i64, bones: Option<usize>) -> bool {
        let Some(index) = checked::bone_index("clear_angle_limits", index, bones.unwrap_or(MAX_BONES)) else {
            return false;
        };
        if let Some(slot) = self.slots.get_mut(index) {
            slot.enabled = false;
        }
        self.refresh();
        true
    }

    /// `(min, max)` of bone `index` when it is limited.
    pub fn get(&self, index: i64) -> Option<AngleLimit> {
        usize::try_from(index).ok().and_then(|i| self.active.get(i).copied().flatten())
    }

    fn slot_mut(&mut self, index: usize) -> &mut Slot {
        if index >= self.slots.len() {
            self.slots.resize(index + 1, Slot::default());
        }
        &mut self.slots[index]
    }

    fn refresh(&mut self) {
        self.active.clear();
        self.active.extend(self.slots.iter().map(|s| if s.enabled { AngleLimit::new(s.min, s.max) } else { None }));
    }

    /// Inspector properties for `bones` bones (or more, if limits were set beyond the chain).
    pub fn property_list(&self, bones: usize) -> Vec<PropertyInfo> {
        let count = bones.max(self.slots.iter().rposition(|s| *s != Slot::default()).map_or(0, |i| i + 1));
        let mut list = vec![PropertyInfo::new_group("Angle Limits", "angle_limits/")];
        let angle_hint =
            PropertyHintInfo { hint: PropertyHint::RANGE, hint_string: "-180,180,0.1,radians_as_degrees".into() };
        for i in 0..count {
            let base = format!("{PREFIX}{i}/");
            let mut enabled = PropertyInfo::new_export::<bool>(&format!("{base}enabled"));
            enabled.usage = PropertyUsageFlags::DEFAULT;
            list.push(enabled);
            for name in ["min_angle", "max_angle"] {
                let mut info =
                    PropertyInfo::new_export::<f32>(&format!("{base}{name}")).with_hint_info(angle_hint.clone());
                info.usage = PropertyUsageFlags::DEFAULT;
                list.push(info);
            }
        }
        list
    }

    /// Splits `angle_limits/bone_<i>/<field>` into the bone index and the field, without allocating: Godot asks
    /// `_get`/`_set` about every property access on the node, including per-frame reads of `last_error`.
    fn parse(property: &StringName) -> Option<(usize, Field)> {
        Self::parse_name(GString::from(property).chars())
    }

    /// [`Self::parse`] on the name's characters.
    fn parse_name(name: &[char]) -> Option<(usize, Field)> {
        let rest = strip_prefix(name, PREFIX)?;
        let slash = rest.iter().position(|&c| c == '/')?;
        let (digits, field) = (&rest[..slash], &rest[slash + 1..]);
        if digits.is_empty() || digits.len() > 4 {
            return None;
        }
        let index = digits.iter().try_fold(0usize, |n, c| c.to_digit(10).map(|d| n * 10 + d as usize))?;
        let field = [(Field::Enabled, "enabled"), (Field::Min, "min_angle"), (Field::Max, "max_angle")]
            .into_iter()
            .find(|(_, name)| strip_prefix(field, name).is_some_and(<[char]>::is_empty))?
            .0;
        (index < MAX_BONES).then_some((index, field))
    }

    /// The value of an `angle_limits/...` property, or `None` for other properties.
    pub fn get_property(&self, property: &StringName) -> Option<Variant> {
        let (index, field) = Self::parse(property)?;
        Some(self.slots.get(index).copied().unwrap_or_default().get(field))
    }

    /// Sets an `angle_limits/...` property; `false` for other properties. An inverted range is accepted while
    /// editing (one end is dragged past the other) but only a valid range limits the bone.
    pub fn set_property(&mut self, property: &StringName, value: &Variant) -> bool {
        let Some((index, field)) = Self::parse(property) else { return false };
        let slot = self.slot_mut(index);
        match field {
            Field::Enabled => slot.enabled = value.try_to::<bool>().unwrap_or(false),
            Field::Min | Field::Max => {
                // A float, or an int from a script; anything else is not an angle.
                let angle = value.try_to::<f64>().or_else(|_| value.try_to::<i64>().map(|i| i as f64));
                let angle = angle.map_or(f32::NAN, |a| a as f32);
                let name = if matches!(field, Field::Min) { "min_angle" } else { "max_angle" };
                let Some(angle) = checked::angle(format_args!("angle_limits/bone_{index}/{name}"), angle) else {
                    return true;
                };
                if matches!(field, Field::Min) { slot.min = angle } else { slot.max = angle }
            }
        }
        self.refresh();
        true
    }

    /// The inspector's revert value for an `angle_limits/...` property.
    pub fn property_revert(property: &StringName) -> Option<Variant> {
        let (_, field) = Self::parse(property)?;
        Some(Slot::default().get(field))
    }
}
