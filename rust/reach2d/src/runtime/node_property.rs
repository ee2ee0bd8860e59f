//! The one check of a value a script, a scene file or the inspector assigns to a property that holds an object (a
//! target, a bone, a leg, a path, a curve) or an array of them: a value of another class (or no object at all) prints
//! one sentence naming the property, the class it takes and what it got, and the property keeps its last good value.
//!
//! How every route reaches it (issue 36): such a field is an [`ObjectProperty`] ([`NodeSlot`], [`NodeList`]). Godot
//! sees the property with the value's own type (the inspector's node picker, the class hint, node paths in scene
//! files), but its setter `set_NAME` takes a `Variant`, so godot-rust converts nothing before [`NodeValue::checked`]
//! runs. `node.x = v`, `set("x", v)`,
//! `set_x(v)`, `call("set_x", v)`, the inspector and a scene file all reach that setter; before, a wrong class never
//! reached the node's code, and godot-rust printed its own conversion text (`parameter #0 (Option<Gd<Bone2D>>)
//! conversion … VariantGd { .. }`) and Godot `Bug: Invalid call error code 1337`.

use godot::builtin::{Array, VarArray, Variant, VariantType};
use godot::classes::{Node, Object, Resource};
use godot::global::{godot_error, type_string};
use godot::meta::shape::GodotShape;
use godot::meta::{GodotConvert, ToGodot};
use godot::obj::{Gd, GodotClass};
use godot::register::property::{Export, Var};

/// An exported property that holds an object ([`NodeSlot`]: `Option<Gd<T>>`) or an array of them ([`NodeList`]:
/// `Array<Gd<T>>`). Godot sees the value's own type and hints (the inspector's node picker, node paths in scene
/// files), but converts to a `Variant` only, so every assignment reaches [`NodeValue::checked`] in `var_set`, the
/// one place that writes the value. The node's code reads the value through `Deref`.
pub struct ObjectProperty<V> {
    value: V,
    /// The class and property the error names (`FabrikChain2D.target takes a Node2D, got …`).
    class: &'static str,
    property: &'static str,
}

/// A property holding one object of class `T`, or none.
pub type NodeSlot<T> = ObjectProperty<Option<Gd<T>>>;
/// A property holding an array of objects of class `T`.
pub type NodeList<T> = ObjectProperty<Array<Gd<T>>>;

impl<V: Default> ObjectProperty<V> {
    /// An empty property `class.property` (the names its errors give).
    pub fn named(class: &'static str, property: &'static str) -> Self {
        Self { value: V::default(), class, property }
    }
}

impl<V: Default> Default for ObjectProperty<V> {
    fn default() -> Self {
        Self::named("?", "?")
    }
}

impl<V> std::ops::Deref for ObjectProperty<V> {
    type Target = V;

    fn deref(&self) -> &V {
        &self.value
    }
}

impl<V> std::ops::DerefMut for ObjectProperty<V> {
    fn deref_mut(&mut self) -> &mut V {
        &mut self.value
    }
}

impl<V: GodotConvert> GodotConvert for ObjectProperty<V> {
    // Godot hands the accessors a `Variant`: godot-rust converts nothing before `var_set` checks it.
    type Via = Variant;

    fn godot_shape() -> GodotShape {
        V::godot_shape()
    }
}

impl<V: NodeValue + GodotConvert> Var for ObjectProperty<V> {
    type PubType = Variant;

    fn var_get(field: &Self) -> Variant {
        field.value.to_variant()
    }

    fn var_set(field: &mut Self, value: Variant) {
        if let Some(value) = V::checked(&value, field.class, field.property) {
            field.value = value;
        }
    }

    fn var_pub_get(field: &Self) -> Variant {
        Self::var_get(field)
    }

    fn var_pub_set(field: &mut Self, value: Variant) {
        Self::var_set(field, value);
    }
}

impl<V: Export + NodeValue> Export for ObjectProperty<V> {
    fn as_node_class() -> Option<godot::meta::ClassId> {
        V::as_node_class()
    }
}

/// A value an [`ObjectProperty`] holds: `Option<Gd<T>>` or `Array<Gd<T>>`.
pub trait NodeValue: ToGodot + Sized {
    /// `value` as this type; otherwise one error (`class.property takes a T, got …; keeping the current …`) and
    /// `None`. Runs on a set, never per frame.
    fn checked(value: &Variant, class: &str, property: &str) -> Option<Self>;
}

impl<T: GodotClass> NodeValue for Option<Gd<T>> {
    fn checked(value: &Variant, class: &str, property: &str) -> Option<Self> {
        if value.is_nil() {
            return Some(None);
        }
        match value.try_to::<Gd<T>>() {
            Ok(object) => Some(Some(object)),
            Err(_) => {
                refuse::<T>(format_args!("{class}.{property}"), value, property);
                None
            }
        }
    }
}

impl<T: GodotClass> NodeValue for Array<Gd<T>> {
    fn checked(value: &Variant, class: &str, property: &str) -> Option<Self> {
        // An array typed for `T` already: Godot checked every entry's class.
        if let Ok(typed) = value.try_to::<Array<Gd<T>>>() {
            return Some(typed);
        }
        let Ok(entries) = value.try_to::<VarArray>() else {
            godot_error!(
                "{class}.{property} takes an Array of {}, got {}; keeping the current {property}.",
                T::class_id(),
                what(value)
            );
            return None;
        };
        let mut typed = Array::new();
        for (index, entry) in entries.iter_shared().enumerate() {
            match entry.try_to::<Gd<T>>() {
                Ok(object) => typed.push(&object),
                Err(_) => {
                    refuse::<T>(format_args!("{class}.{property}[{index}]"), &entry, property);
                    return None;
                }
            }
        }
        Some(typed)
    }
}

/// The one sentence: `{slot} takes a T, got {what}; keeping the current {property}.`
fn refuse<T: GodotClass>(slot: core::fmt::Arguments, value: &Variant, property: &str) {
    let class = T::class_id().to_string();
    godot_error!("{slot} takes {} {class}, got {}; keeping the current {property}.", article(&class), what(value));
}

/// What a value is, for the message: `a Sprite2D (/root/Main/Head/Sprite)`, `a Node2D "Hand" (not in the tree)`,
/// `a freed object`, `an int (5)`, `a String (bone_0)`, `null`.
fn what(value: &Variant) -> String {
    match value.get_type() {
        VariantType::NIL => "null".to_string(),
        VariantType::OBJECT => match value.try_to::<Gd<Object>>() {
            Err(_) => "a freed object".to_string(),
            Ok(object) => {
                let class = object.get_class().to_string();
                let a = article(&class);
                if let Ok(node) = object.clone().try_cast::<Node>() {
                    if node.is_inside_tree() {
                        format!("{a} {class} ({})", node.get_path())
                    } else {
                        format!("{a} {class} \"{}\" (not in the tree)", node.get_name())
                    }
                } else if let Ok(resource) = object.try_cast::<Resource>() {
                    let path = resource.get_path();
                    if path.is_empty() { format!("{a} {class}") } else { format!("{a} {class} ({path})") }
                } else {
                    format!("{a} {class}")
                }
            }
        },
        other => {
            let name = type_string(i64::from(other.ord)).to_string();
            format!("{} {name} ({value})", article(&name))
        }
    }
}

/// `a` or `an` before `word`.
fn article(word: &str) -> &'static str {
    if word.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
}
