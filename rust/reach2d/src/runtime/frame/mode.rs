//! When a node runs: the `update_mode` property ([`UpdateMode`]) and the engine callback that is running
//! ([`Tick`]).

use std::cell::Cell;

use godot::meta::GodotConvert;
use godot::meta::shape::GodotShape;
use godot::register::property::{Export, Var};

use crate::runtime::checked::{self, Choice};

/// When a node solves by itself: the `update_mode` property (Godot sees an `int`; see `checked.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UpdateMode {
    /// Every process frame (`_process`), after animation.
    #[default]
    Process = 0,
    /// Every physics frame (`_physics_process`), after animation in physics mode.
    Physics = 1,
    /// Only when a script calls `solve()`.
    Manual = 2,
}

impl UpdateMode {
    /// `true` when a node in this mode runs on `tick`.
    pub fn runs_on(self, tick: Tick) -> bool {
        match self {
            UpdateMode::Process => tick == Tick::Process,
            UpdateMode::Physics => tick == Tick::Physics,
            UpdateMode::Manual => false,
        }
    }
}

impl Choice for UpdateMode {
    const NAMES: &'static [&'static str] = &["UPDATE_PROCESS", "UPDATE_PHYSICS", "UPDATE_MANUAL"];

    fn from_index(index: i64) -> Option<Self> {
        match index {
            0 => Some(Self::Process),
            1 => Some(Self::Physics),
            2 => Some(Self::Manual),
            _ => None,
        }
    }

    fn index(self) -> i64 {
        self as i64
    }
}

// Godot sees the mode as an `int`: every route to the property (`node.update_mode = v`, `set()`, the setter, a
// scene file, the inspector) passes an int to `var_set`, which keeps a value that is none of the modes out.
impl GodotConvert for UpdateMode {
    type Via = i64;
    fn godot_shape() -> GodotShape {
        GodotShape::of_builtin::<i64>()
    }
}

impl Var for UpdateMode {
    type PubType = Self;
    fn var_get(field: &Self) -> i64 {
        field.index()
    }
    fn var_set(field: &mut Self, value: i64) {
        let was = *field;
        checked::set_choice(field, "update_mode", value);
        note_mode_change(was, *field);
    }
    fn var_pub_get(field: &Self) -> Self {
        *field
    }
    fn var_pub_set(field: &mut Self, value: Self) {
        note_mode_change(*field, value);
        *field = value;
    }
}

impl Export for UpdateMode {}

thread_local! {
    /// Set when some node's `update_mode` changed since the batch last looked ([`take_mode_change`]).
    static MODE_CHANGED: Cell<bool> = const { Cell::new(false) };
}

fn note_mode_change(was: UpdateMode, now: UpdateMode) {
    if was != now {
        MODE_CHANGED.with(|changed| changed.set(true));
    }
}

/// `true` once after any node's `update_mode` changed. The batch's physics pass visits only the members it last saw
/// in physics mode; after a change it visits them all, so a node switched to physics mode after the last process
/// pass (from a physics callback, a signal, a later script) solves at the very next physics tick.
pub fn take_mode_change() -> bool {
    MODE_CHANGED.with(|changed| changed.replace(false))
}

/// Which engine callback is running.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Tick {
    Process,
    Physics,
}
