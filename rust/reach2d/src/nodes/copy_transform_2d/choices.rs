//! `CopyTransform2D`'s enum properties: the space it copies in and which of the source's values each written property
//! takes. Each is a [`Choice`] (Godot sees an `int`; a value that is none of the constants is refused with one error
//! in `checked.rs`, never converted by godot-rust), and maps to its `reach2d_core::copy_transform` twin.

use godot::meta::GodotConvert;
use godot::meta::shape::GodotShape;
use godot::register::property::{Export, Var};
use reach2d_core::copy_transform::{CopySpace, Property};

use crate::runtime::checked::{self, Choice};

/// Where `CopyTransform2D` reads its source and writes its bone (`space`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Space {
    /// The canvas: global transforms.
    #[default]
    Global = 0,
    /// Each one's parent's space: local values.
    Local = 1,
    /// Each one's rest pose: the change from it.
    Rest = 2,
}

impl Space {
    /// The solver's twin.
    pub fn core(self) -> CopySpace {
        match self {
            Self::Global => CopySpace::Global,
            Self::Local => CopySpace::Local,
            Self::Rest => CopySpace::Rest,
        }
    }
}

impl Choice for Space {
    const NAMES: &'static [&'static str] = &["SPACE_GLOBAL", "SPACE_LOCAL", "SPACE_REST"];

    fn from_index(index: i64) -> Option<Self> {
        match index {
            0 => Some(Self::Global),
            1 => Some(Self::Local),
            2 => Some(Self::Rest),
            _ => None,
        }
    }

    fn index(self) -> i64 {
        self as i64
    }
}

/// Which of the source's values a written property takes (`rotation_from`, `x_from`, ...).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SourceValue {
    #[default]
    Rotation = 0,
    X = 1,
    Y = 2,
    ScaleX = 3,
    ScaleY = 4,
}

impl SourceValue {
    /// The solver's twin.
    pub fn core(self) -> Property {
        match self {
            Self::Rotation => Property::Rotation,
            Self::X => Property::X,
            Self::Y => Property::Y,
            Self::ScaleX => Property::ScaleX,
            Self::ScaleY => Property::ScaleY,
        }
    }
}

impl Choice for SourceValue {
    const NAMES: &'static [&'static str] = &["FROM_ROTATION", "FROM_X", "FROM_Y", "FROM_SCALE_X", "FROM_SCALE_Y"];

    fn from_index(index: i64) -> Option<Self> {
        match index {
            0 => Some(Self::Rotation),
            1 => Some(Self::X),
            2 => Some(Self::Y),
            3 => Some(Self::ScaleX),
            4 => Some(Self::ScaleY),
            _ => None,
        }
    }

    fn index(self) -> i64 {
        self as i64
    }
}

/// Godot sees each enum as an `int`: every route to the property (`node.space = v`, `set()`, the setter, a scene
/// file, the inspector) passes an int to `var_set`, which keeps a value that is none of the constants out (as
/// `frame::UpdateMode` does).
macro_rules! int_property {
    ($choice:ty, $property:literal) => {
        impl GodotConvert for $choice {
            type Via = i64;
            fn godot_shape() -> GodotShape {
                GodotShape::of_builtin::<i64>()
            }
        }

        impl Var for $choice {
            type PubType = Self;
            fn var_get(field: &Self) -> i64 {
                field.index()
            }
            fn var_set(field: &mut Self, value: i64) {
                checked::set_choice(field, $property, value);
            }
            fn var_pub_get(field: &Self) -> Self {
                *field
            }
            fn var_pub_set(field: &mut Self, value: Self) {
                *field = value;
            }
        }

        impl Export for $choice {}
    };
}

int_property!(Space, "space");
int_property!(SourceValue, "a remap's source value (rotation_from, x_from, y_from, scale_x_from, scale_y_from)");
