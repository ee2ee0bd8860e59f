//! The struct every node class shares, around its own properties: `enabled`, `weight`, `update_mode`,
//! `editor_preview`, `last_error`, `last_iterations`, the angle limits and the run-time state, with the validated
//! setters (through `checked.rs`), the `UPDATE_*` constants and the shared methods, each of which calls one ordinary
//! function (`frame.rs`, `limits.rs`). Used by [`node_class`](crate::nodes::declare::node_class), which picks the
//! rest by the class's kind; no behaviour here.

/// Writes a node class's struct and its shared API; see the module docs.
macro_rules! declare_class {
    (
        $(#$doc:tt)*
        pub struct $class:ident {
            leading { $($leading:tt)* }
            docs {
                enabled: $enabled_doc:tt,
                weight: $weight_doc:tt,
                update_mode: $update_mode_doc:tt,
                editor_preview: $editor_preview_doc:tt,
                process: $process_doc:tt,
                physics: $physics_doc:tt,
                manual: $manual_doc:tt,
            }
            speed_limited($this:ident) $speed_limited:block
            middle { $($middle:tt)* }
            settings { $($settings:tt)* }
            setters { $($setters:tt)* }
            last_error: $last_error_doc:tt,
            last_iterations: $last_iterations_doc:tt,
        }
    ) => {
        // Help text passes as `tt`, never `literal` or `meta`: those fragments reach the derive that collects the
        // help wrapped in an invisible group, which it prints as source text (`r" ..."`, quotes and all).
        $(#$doc)*
        #[derive(GodotClass)]
        #[class(init, tool, base = Node2D)]
        pub struct $class {
            $($leading)*
            #[doc = $enabled_doc]
            #[export]
            #[init(val = true)]
            enabled: bool,
            #[doc = $weight_doc]
            #[export(range = (0.0, 1.0, 0.01))]
            #[var(set = set_weight)]
            #[init(val = 1.0)]
            weight: f32,
            #[doc = $update_mode_doc]
            // An i64 with an enum hint, validated in its setter: see `checked.rs` for why (and for later enums).
            #[export(enum = (Process = 0, Physics = 1, Manual = 2))]
            #[var(set = set_update_mode)]
            update_mode: i64,
            #[doc = $editor_preview_doc]
            #[export]
            #[init(val = true)]
            editor_preview: bool,
            $($middle)*
            $($settings)*
            #[doc = $last_error_doc]
            #[var(no_set)]
            #[init(val = -1.0)]
            last_error: f32,
            #[doc = $last_iterations_doc]
            #[var(no_set)]
            last_iterations: i32,

            limits: $crate::limits::AngleLimits,
            state: $crate::frame::NodeState,
            base: Base<Node2D>,
        }

        #[godot_api]
        impl $class {
            #[doc = $process_doc]
            #[constant]
            pub const UPDATE_PROCESS: i32 = 0;
            #[doc = $physics_doc]
            #[constant]
            pub const UPDATE_PHYSICS: i32 = 1;
            #[doc = $manual_doc]
            #[constant]
            pub const UPDATE_MANUAL: i32 = 2;

            /// Sets [member weight]: a value outside [0, 1] (or NaN) prints an error and keeps the current one.
            #[func]
            fn set_weight(&mut self, value: f32) {
                $crate::checked::set_float(&mut self.weight, stringify!($class), "weight", value, 0.0, 1.0);
            }

            /// Sets [member update_mode]: anything but [constant UPDATE_PROCESS], [constant UPDATE_PHYSICS] or
            /// [constant UPDATE_MANUAL] prints an error and keeps the current mode.
            #[func]
            fn set_update_mode(&mut self, value: i64) {
                let names = $crate::frame::UpdateMode::NAMES;
                $crate::checked::set_enum(&mut self.update_mode, stringify!($class), "update_mode", value, &names);
            }

            $($setters)*

            /// Limits bone [param bone_index]'s local [member Node2D.rotation] (wrapped to (-PI, PI]) to
            /// [[param min_angle], [param max_angle]], in radians; index 0 is the first bone. The limit holds after
            /// every solve, [member weight] included. A bad index or [param min_angle] > [param max_angle] is an
            /// error and is ignored. Also editable in the inspector's [i]Angle Limits[/i] group.
            #[func]
            pub fn set_angle_limits(&mut self, bone_index: i64, min_angle: f32, max_angle: f32) {
                $crate::frame::set_angle_limits(self, bone_index, Some((min_angle, max_angle)));
            }

            /// Removes bone [param bone_index]'s angle limit.
            #[func]
            pub fn clear_angle_limits(&mut self, bone_index: i64) {
                $crate::frame::set_angle_limits(self, bone_index, None);
            }

            /// [code]true[/code] when bone [param bone_index] has an angle limit.
            #[func]
            pub fn has_angle_limits(&self, bone_index: i64) -> bool {
                self.limits.get(bone_index).is_some()
            }

            /// Why the node could not solve at its last attempt, in the words of its configuration warning; empty
            /// when the setup was valid.
            #[func]
            pub fn get_setup_warning(&mut self) -> GString {
                // Checked now, not at the last solve: a node that never solved (manual mode) says what is wrong too.
                $crate::frame::check_now(self);
                $crate::frame::configuration_warnings(self).get(0).unwrap_or_default()
            }

            /// The number of bones the node drives, or 0 while its setup is invalid.
            #[func]
            pub fn get_bone_count(&self) -> i64 {
                self.state.bones.chain.len() as i64
            }
        }

        impl $crate::frame::Shared for $class {
            fn state(&mut self) -> &mut $crate::frame::NodeState {
                &mut self.state
            }
            fn state_ref(&self) -> &$crate::frame::NodeState {
                &self.state
            }
            fn limits(&mut self) -> &mut $crate::limits::AngleLimits {
                &mut self.limits
            }
            fn enabled(&self) -> bool {
                self.enabled
            }
            fn update_mode(&self) -> $crate::frame::UpdateMode {
                $crate::frame::UpdateMode::from_i64(self.update_mode).unwrap_or_default()
            }
            fn editor_preview(&self) -> bool {
                self.editor_preview
            }
            fn record(&mut self, solved: $crate::frame::Solved) {
                self.last_error = solved.error;
                self.last_iterations = solved.iterations as i32;
            }
            fn speed_limited(&self) -> bool {
                let $this = self;
                $speed_limited
            }
        }
    };
}
pub(crate) use declare_class;
