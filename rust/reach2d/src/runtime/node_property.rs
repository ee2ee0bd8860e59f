//! The one check of a value a script, a scene file or the inspector assigns to a property that holds an object (a
//! target, a bone, a leg, a path, a curve) or an array of them: a value of another class (or no object at all) prints
//! one sentence naming the property, the class it takes and what it got, and the property keeps its last good value.
//!
//! How every route reaches it (issue 36): `#[reach2d_macros::node]` declares each `#[export]` field of type
//! `Option<Gd<T>>` or `Array<Gd<T>>` twice: the field itself, plain Rust storage the node's code uses as before, and
//! a [`NodeProperty`] in its place that carries the attributes. Godot sees the property with the field's own type
//! (the inspector's node picker, the class hint, node paths in scene files), but its setter `set_NAME` takes a
//! `Variant`, so godot-rust converts nothing before [`NodeValue::checked`] runs. `node.x = v`, `set("x", v)`,
//! `set_x(v)`, `call("set_x", v)`, the inspector and a scene file all reach that setter; before, a wrong class never
//! reached the node's code, and godot-rust printed its own conversion text (`parameter #0 (Option<Gd<Bone2D>>)
//! conversion … VariantGd { .. }`) and Godot `Bug: Invalid call error code 1337`.

use std::marker::PhantomData;

use godot::builtin::{Array, VarArray, Variant, VariantType};
use godot::classes::{Node, Object, Resource};
use godot::global::{godot_error, type_string};
use godot::meta::shape::GodotShape;
use godot::meta::{GodotConvert, ToGodot};
use godot::obj::{Gd, GodotClass};
use godot::register::property::{Export, Var};

/// The property Godot sees for an object field of type `T`: `T`'s type and hints, a `Variant` getter and setter.
/// No storage (the field beside it holds the value).
pub struct NodeProperty<T>(PhantomData<T>);

impl<T> Default for NodeProperty<T> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

impl<T: GodotConvert> GodotConvert for NodeProperty<T> {
    // Never converted: the getter and setter are the node's own (`Variant` in, `Variant` out).
    type Via = Variant;

    fn godot_shape() -> GodotShape {
        T::godot_shape()
    }
}

impl<T: GodotConvert> Var for NodeProperty<T> {
    // What the setter takes and the getter returns: godot-rust checks the accessors' types against this.
    type PubType = Variant;

    fn var_get(_field: &Self) -> Variant {
        Variant::nil()
    }

    fn var_set(_field: &mut Self, _value: Variant) {}

    fn var_pub_get(_field: &Self) -> Variant {
        Variant::nil()
    }

    fn var_pub_set(_field: &mut Self, _value: Variant) {}
}

impl<T: Export> Export for NodeProperty<T> {
    fn as_node_class() -> Option<godot::meta::ClassId> {
        T::as_node_class()
    }
}

/// A field type [`NodeProperty`] stands for: `Option<Gd<T>>` or `Array<Gd<T>>`.
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
