//! The macros that declare a Reach2D node class: [`ik_node`] writes the struct with the properties every node
//! shares around the class's own, and [`ik_node_class`] implements the API and engine callbacks every node shares
//! on top of the run-time cycle in `common.rs`.

/// Declares a node class with the properties every node shares, around its own, and its setup check.
///
/// `bones:` picks the bone properties, right after `target` in the inspector, and how the setup check resolves
/// them:
/// - `chain` — `root_bone`, `tip_bone` and `pole`, a chain of any length;
/// - `limb { /// help root_bone, /// help tip_bone, /// help pole, <more fields> }` — the two bones of a limb (the
///   tip is the root's direct child) and its pole, with their own help text and any further fields of the class
///   right after them;
/// - `single { /// help bone }` — one `bone`.
///
/// Help text passes as `tt` tokens (doc comments or string literals), never as `literal` fragments: those reach
/// the help as source text, with their quotes.
/// `Bone2D` and `Node2D` must be in scope where it is used.
///
/// `solver { .. }` fields come after the shared settings, and an optional `solver_api { .. }` holds their setters
/// (`#[func]`s in the class's main API block, where `#[var(set = ..)]` looks); `target`, `last_error` and
/// `last_iterations` take the
/// class's own help text. Also generates `check_setup_impl`, which returns the target's and the pole's global
/// positions once the bones are checked, and implements the shared API ([`ik_node_class`]).
macro_rules! ik_node {
    (
        $(#$doc:tt)*
        pub struct $class:ident {
            target: $target_doc:tt,
            bones: chain,
            solver { $($solver:tt)* }
            $(solver_api { $($solver_api:tt)* })?
            last_error: $last_error_doc:tt,
            last_iterations: $last_iterations_doc:tt,
        }
    ) => {
        $crate::node_class::ik_node! {
            @tip_rotation $(#$doc)*
            pub struct $class {
                target: $target_doc,
                bones {
                    /// First bone of the chain (it turns but never moves).
                    #[export]
                    root_bone: Option<Gd<Bone2D>>,
                    /// Last bone of the chain: [member root_bone] itself or one of its Bone2D descendants.
                    #[export]
                    tip_bone: Option<Gd<Bone2D>>,
                    /// Optional: a node the chain's middle bends toward, like the built-in FABRIK's magnet (an elbow or
                    /// knee pointer for a longer limb). Each solve starts (instead of from the last frame's pose) from
                    /// the chain bent like a two-bone limb (its first half and the rest each straight) that reaches for
                    /// [member target] with the bend on the pole's side of the line from [member root_bone] to the
                    /// target, so the solved chain bulges to that side; the end still reaches the target as exactly as
                    /// without a pole. Only the side counts, not the distance; a pole on the line decides nothing. Make
                    /// it a child of the character and it turns with it: the mirrored character gets the mirror image
                    /// of the pose. A pole that was freed, is outside the tree or has a NaN position stops the node
                    /// (one error and a configuration warning, the bones keep their pose) until it is fixed or cleared.
                    #[export]
                    pole: Option<Gd<Node2D>>,
                }
                ensure(this) { this.state.chain.ensure(this.root_bone.as_ref(), this.tip_bone.as_ref(), false) }
                pole(this) { this.pole.as_ref() }
                solver { $($solver)* }
                solver_api { $($($solver_api)*)? }
                last_error: $last_error_doc,
                last_iterations: $last_iterations_doc,
            }
        }
    };
    (
        $(#$doc:tt)*
        pub struct $class:ident {
            target: $target_doc:tt,
            bones: limb { $(#$root_doc:tt)* root_bone, $(#$tip_doc:tt)* tip_bone, $(#$pole_doc:tt)* pole, $($more:tt)* }
            solver { $($solver:tt)* }
            $(solver_api { $($solver_api:tt)* })?
            last_error: $last_error_doc:tt,
            last_iterations: $last_iterations_doc:tt,
        }
    ) => {
        $crate::node_class::ik_node! {
            @tip_rotation $(#$doc)*
            pub struct $class {
                target: $target_doc,
                bones {
                    $(#$root_doc)*
                    #[export]
                    root_bone: Option<Gd<Bone2D>>,
                    $(#$tip_doc)*
                    #[export]
                    tip_bone: Option<Gd<Bone2D>>,
                    $(#$pole_doc)*
                    #[export]
                    pole: Option<Gd<Node2D>>,
                    $($more)*
                }
                ensure(this) { this.state.chain.ensure(this.root_bone.as_ref(), this.tip_bone.as_ref(), true) }
                pole(this) { this.pole.as_ref() }
                solver { $($solver)* }
                solver_api { $($($solver_api)*)? }
                last_error: $last_error_doc,
                last_iterations: $last_iterations_doc,
            }
        }
    };
    (
        $(#$doc:tt)*
        pub struct $class:ident {
            target: $target_doc:tt,
            bones: single { $(#$bone_doc:tt)* bone }
            solver { $($solver:tt)* }
            $(solver_api { $($solver_api:tt)* })?
            last_error: $last_error_doc:tt,
            last_iterations: $last_iterations_doc:tt,
        }
    ) => {
        $crate::node_class::ik_node! {
            @class $(#$doc)*
            pub struct $class {
                target: $target_doc,
                bones {
                    $(#$bone_doc)*
                    #[export]
                    bone: Option<Gd<Bone2D>>,
                }
                ensure(this) {
                    let bone = this.bone.as_ref().ok_or($crate::problem::Problem::NoBone)?;
                    this.state.chain.ensure(Some(bone), Some(bone), false)
                }
                pole(_this) { None }
                tip_rotation {}
                tip_rotation_api {}
                solver { $($solver)* }
                solver_api { $($($solver_api)*)? }
                last_error: $last_error_doc,
                last_iterations: $last_iterations_doc,
            }
        }
    };
    // Chains and limbs: the tip bone can follow the target's rotation.
    (
        @tip_rotation $(#$doc:tt)*
        pub struct $class:ident {
            target: $target_doc:tt,
            bones { $($bones:tt)* }
            ensure($this:ident) $ensure:block
            pole($pole_this:ident) $pole:block
            solver { $($solver:tt)* }
            $(solver_api { $($solver_api:tt)* })?
            last_error: $last_error_doc:tt,
            last_iterations: $last_iterations_doc:tt,
        }
    ) => {
        $crate::node_class::ik_node! {
            @class $(#$doc)*
            pub struct $class {
                target: $target_doc,
                bones { $($bones)* }
                ensure($this) $ensure
                pole($pole_this) $pole
                tip_rotation {
                    /// Turn the tip bone so that its global direction follows the target's global rotation, to
                    /// plant a hand or foot at an angle: [code]tip_bone.global_transform.x[/code] takes the direction
                    /// of [code]target.global_transform.x[/code] (both as Godot reports them, so a mirrored target
                    /// under a mirrored character gives the mirror image of the pose), and the bones before it reach
                    /// the tip bone's start, like the built-in FABRIK's [i]use_target_rotation[/i]. The tip bone's
                    /// angle limit still holds (it wins over the target's rotation). A chain of one bone ignores it.
                    /// On [TwoBoneIk2D] only [member root_bone] is then free: it points at where [member tip_bone]
                    /// must start, so the end reaches the target only where the limb can reach it at that angle
                    /// ([member TwoBoneIk2D.stretch] and [member TwoBoneIk2D.compress] widen that by letting the upper
                    /// bone change length); [member last_error] says how far off it stays.
                    #[export_group(name = "Tip Rotation")]
                    #[export]
                    match_target_rotation: bool,
                    /// How much of the target's rotation the tip bone takes with [member match_target_rotation]: its
                    /// direction is [code]lerp_angle(plain, target, target_rotation_weight)[/code], where plain is the
                    /// direction a solve without it gives (found by one more solve when the value is below 1). A
                    /// value outside [0, 1] (or NaN) is an error and is ignored.
                    #[export(range = (0.0, 1.0, 0.01))]
                    #[var(set = set_target_rotation_weight)]
                    #[init(val = 1.0)]
                    target_rotation_weight: f32,
                }
                tip_rotation_api {
                    /// Sets [member target_rotation_weight]: a value outside [0, 1] (or NaN) prints an error and keeps
                    /// the current one.
                    #[func]
                    fn set_target_rotation_weight(&mut self, value: f32) {
                        let (class, property) = (stringify!($class), "target_rotation_weight");
                        if let Some(v) = $crate::checked::float_value(class, property, f64::from(value), 0.0, 1.0) {
                            self.target_rotation_weight = v as f32;
                        }
                    }

                    /// The tip direction [member match_target_rotation] asks for, or `None` when it is off.
                    fn tip_direction(&self) -> Option<$crate::pose::TipDirection> {
                        let (on, weight) = (self.match_target_rotation, self.target_rotation_weight);
                        $crate::common::tip_direction(self.target.as_ref(), on, weight)
                    }
                }
                solver { $($solver)* }
                solver_api { $($($solver_api)*)? }
                last_error: $last_error_doc,
                last_iterations: $last_iterations_doc,
            }
        }
    };
    (
        @class $(#$doc:tt)*
        pub struct $class:ident {
            target: $target_doc:tt,
            bones { $($bones:tt)* }
            ensure($this:ident) $ensure:block
            pole($pole_this:ident) $pole:block
            tip_rotation { $($tip_rotation:tt)* }
            tip_rotation_api { $($tip_rotation_api:tt)* }
            solver { $($solver:tt)* }
            $(solver_api { $($solver_api:tt)* })?
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
            #[doc = $target_doc]
            #[export]
            target: Option<Gd<Node2D>>,
            $($bones)*
            /// If [code]false[/code], the node stops solving by itself; [method solve] still solves.
            #[export]
            #[init(val = true)]
            enabled: bool,
            /// How much of the solved pose is applied: each bone's written rotation is
            /// [code]lerp_angle(input, solved, weight)[/code], where input is its rotation before the solve. A value
            /// outside [0, 1] (or NaN) is an error and is ignored.
            #[export(range = (0.0, 1.0, 0.01))]
            #[var(set = set_weight)]
            #[init(val = 1.0)]
            weight: f32,
            /// When the node solves by itself: every process frame ([constant UPDATE_PROCESS]), every physics
            /// frame ([constant UPDATE_PHYSICS]), or only when [method solve] is called ([constant UPDATE_MANUAL]).
            /// Any other value is an error and is ignored.
            // An i64 with an enum hint, validated in its setter: see `checked.rs` for why (and for later enums).
            #[export(enum = (Process = 0, Physics = 1, Manual = 2))]
            #[var(set = set_update_mode)]
            update_mode: i64,
            /// Show the solve in the editor while you edit. Saving a scene always stores your own bone rotations.
            #[export]
            #[init(val = true)]
            editor_preview: bool,
            /// Start every solve from the bones' rest pose ([member Bone2D.rest]'s rotation) instead of the last
            /// solve's result, so the same target always gives the same pose (Godot 3D's [i]deterministic[/i]). A
            /// rotation that something else wrote since the last solve (an [AnimationPlayer], your script) is kept
            /// and solved from instead: IK still layers on top of animation. That is told by value: a rotation
            /// still equal to what the last solve wrote counts as the node's own (an animation that holds a bone
            /// still rewrites nothing, so that bone then starts from rest); the first solve starts from the pose it
            /// finds (the scene's or the animation's). [member weight] then blends from the
            /// pose the solve started from. In the editor the preview starts from rest too; saving still stores
            /// your own rotations.
            #[export_group(name = "Motion")]
            #[export]
            solve_from_rest: bool,
            /// The fastest each written bone rotation may turn, in radians per second (the inspector shows degrees
            /// per second); 0 = no limit. Cures snapping and jitter, and gives lazy, weighty motion. Applied after
            /// the solve and before [member weight], per bone, in the bone's local rotation: each solve moves the
            /// rotation by at most [code]max_angular_speed * delta[/code] from the previous solve's, where delta is
            /// the process or physics tick's ([member update_mode]); a [method solve] call uses the current physics
            /// tick's delta when called during a physics frame, else the current process frame's. An angle limit
            /// always holds: a limited bone turns the long way round inside its limit rather than across the
            /// excluded side. A value below 0 (or not finite) is an error and is ignored.
            #[export(range = (0.0, 1440.0, 1.0, or_greater, radians_as_degrees, suffix = "°/s"))]
            #[var(set = set_max_angular_speed)]
            max_angular_speed: f32,
            $($tip_rotation)*
            $($solver)*
            #[doc = $last_error_doc]
            #[var(no_set)]
            #[init(val = -1.0)]
            last_error: f32,
            #[doc = $last_iterations_doc]
            #[var(no_set)]
            last_iterations: i32,

            limits: $crate::limits::AngleLimits,
            state: $crate::common::IkState,
            base: Base<Node2D>,
        }

        #[godot_api]
        impl $class {
            /// Sets [member weight]: a value outside [0, 1] (or NaN) prints an error and keeps the current one.
            #[func]
            fn set_weight(&mut self, value: f32) {
                let class = stringify!($class);
                if let Some(v) = $crate::checked::float_value(class, "weight", f64::from(value), 0.0, 1.0) {
                    self.weight = v as f32;
                }
            }

            $($tip_rotation_api)*
            $($($solver_api)*)?

            /// Sets [member max_angular_speed] (radians per second): a value below 0 (or not finite) prints an error
            /// and keeps the current one.
            #[func]
            fn set_max_angular_speed(&mut self, value: f32) {
                let class = stringify!($class);
                let max = f64::from(f32::MAX);
                if let Some(v) = $crate::checked::float_value(class, "max_angular_speed", f64::from(value), 0.0, max) {
                    self.max_angular_speed = v as f32;
                }
            }

            /// Sets [member update_mode]: anything but [constant UPDATE_PROCESS], [constant UPDATE_PHYSICS] or
            /// [constant UPDATE_MANUAL] prints an error and keeps the current mode.
            #[func]
            fn set_update_mode(&mut self, value: i64) {
                let names = $crate::common::UpdateMode::NAMES;
                if let Some(v) = $crate::checked::enum_value(stringify!($class), "update_mode", value, &names) {
                    self.update_mode = v;
                }
            }
        }

        impl $class {
            /// Checks the setup without touching any bone: returns the target's and the pole's global positions once
            /// the bones are resolved (the target is checked first, then the pole, then the bones).
            fn check_setup_impl(&mut self) -> Result<$crate::common::Setup, $crate::problem::Problem> {
                let goal = $crate::common::target_position(self.target.as_ref())?;
                let pole = $crate::common::pole_position(Self::pole_node(self))?;
                Self::ensure_bones(self)?;
                Ok($crate::common::Setup { goal, pole })
            }

            fn ensure_bones($this: &mut Self) -> Result<(), $crate::problem::Problem> $ensure

            /// The pole node, for the gizmo (`None` for a class without one).
            fn pole_node($pole_this: &Self) -> Option<&Gd<Node2D>> $pole
        }

        $crate::node_class::ik_node_class!($class);
    };
}
pub(crate) use ik_node;

/// Implements what every IK node class shares, given the fields `target`, `enabled`, `update_mode`,
/// `editor_preview`, `last_error`, `last_iterations`, `limits` and `state`, and the inherent methods
/// `check_setup_impl` (from [`ik_node`]) and `solve_impl`: the update-mode constants, `solve()`, the shared API
/// ([`ik_node_api`]: angle-limit methods, [`IkNode`](crate::common::IkNode) plumbing) and the
/// `_process`/`_notification`/`_draw`/inspector callbacks.
macro_rules! ik_node_class {
    ($class:ident) => {
        #[godot_api(secondary)]
        impl $class {
            /// [member update_mode]: solve every process frame (the default).
            #[constant]
            pub const UPDATE_PROCESS: i32 = 0;
            /// [member update_mode]: solve every physics frame.
            #[constant]
            pub const UPDATE_PHYSICS: i32 = 1;
            /// [member update_mode]: solve only when [method solve] is called.
            #[constant]
            pub const UPDATE_MANUAL: i32 = 2;

            /// Solves now, whatever [member update_mode] and [member enabled] say. Returns [code]false[/code], leaving
            /// every bone untouched, when the setup is invalid (the reason is printed once and shown as a
            /// configuration warning). [member max_angular_speed] counts the current physics tick's delta when
            /// called during a physics frame, else the current process frame's.
            #[func]
            pub fn solve(&mut self) -> bool {
                $crate::common::solve(self)
            }
        }

        $crate::node_class::ik_node_api!($class, motion);

        #[godot_api]
        impl godot::classes::INode2D for $class {
            fn process(&mut self, delta: f64) {
                $crate::common::tick_timed(self, $crate::common::Tick::Process, delta);
            }
            fn physics_process(&mut self, delta: f64) {
                $crate::common::tick_timed(self, $crate::common::Tick::Physics, delta);
            }
            fn on_notification(&mut self, what: godot::classes::notify::CanvasItemNotification) {
                $crate::common::notification(self, what);
            }
            fn draw(&mut self) {
                let mut this = self.to_gd().upcast::<godot::classes::Node2D>();
                let (target, pole) = (self.target.as_ref(), Self::pole_node(self));
                $crate::gizmo::draw(&mut this, &self.state.chain, target, pole, self.limits.active());
            }
            fn get_configuration_warnings(&self) -> PackedStringArray {
                $crate::common::configuration_warnings(self)
            }
            fn on_get_property_list(&mut self) -> Vec<godot::register::info::PropertyInfo> {
                self.limits.property_list(self.state.chain.len())
            }
            fn on_get(&self, property: StringName) -> Option<Variant> {
                $crate::common::counted(|| self.limits.get_property(&property))
            }
            fn on_set(&mut self, property: StringName, value: Variant) -> bool {
                $crate::common::counted(|| {
                    let name = GString::from(&property);
                    // Refused numbers stop here (one error, value kept); Godot runs the property's setter otherwise.
                    $crate::checked::refuse(stringify!($class), name.chars(), &value)
                        || self.limits.set_property(&property, &value)
                })
            }
            fn on_property_get_revert(&self, property: StringName) -> Option<Variant> {
                $crate::limits::AngleLimits::property_revert(&property)
            }
        }
    };
}
pub(crate) use ik_node_class;

/// The API every node class shares whatever drives it (a target or time), given the fields `enabled`,
/// `update_mode`, `editor_preview`, `last_error`, `last_iterations`, `limits` and `state`, and the inherent
/// methods `check_setup_impl` and `solve_impl`: the angle-limit methods, `get_setup_warning()`,
/// `get_bone_count()` and the [`IkNode`](crate::common::IkNode) plumbing. Used by [`ik_node_class`] and by
/// classes that declare their own struct (`SpringChain2D`).
macro_rules! ik_node_api {
    ($class:ident) => {
        $crate::node_class::ik_node_api!(@api $class {});
    };
    // With the shared motion settings (`solve_from_rest`, `max_angular_speed`) of [`ik_node`].
    ($class:ident, motion) => {
        $crate::node_class::ik_node_api!(@api $class {
            fn motion(&self, delta: f64) -> $crate::chain::Motion {
                $crate::chain::Motion {
                    from_rest: self.solve_from_rest,
                    max_step: $crate::common::max_step(self.max_angular_speed, delta),
                }
            }
            fn speed_limited(&self) -> bool {
                self.max_angular_speed > 0.0
            }
        });
    };
    (@api $class:ident { $($motion:tt)* }) => {
        #[godot_api(secondary)]
        impl $class {
            /// Limits bone [param bone_index]'s local [member Node2D.rotation] (wrapped to (-PI, PI]) to
            /// [[param min_angle], [param max_angle]], in radians; index 0 is the first bone. The limit holds after
            /// every solve, [member weight] included. A bad index or [param min_angle] > [param max_angle] is an
            /// error and is ignored. Also editable in the inspector's [i]Angle Limits[/i] group.
            #[func]
            pub fn set_angle_limits(&mut self, bone_index: i64, min_angle: f32, max_angle: f32) {
                let bones = self.known_bone_count();
                if self.limits.set(bone_index, min_angle, max_angle, bones) {
                    self.base_mut().notify_property_list_changed();
                }
            }

            /// Removes bone [param bone_index]'s angle limit.
            #[func]
            pub fn clear_angle_limits(&mut self, bone_index: i64) {
                let bones = self.known_bone_count();
                if self.limits.clear(bone_index, bones) {
                    self.base_mut().notify_property_list_changed();
                }
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
                $crate::common::check_now(self);
                $crate::common::configuration_warnings(self).get(0).unwrap_or_default()
            }

            /// The number of bones the node drives, or 0 while its setup is invalid.
            #[func]
            pub fn get_bone_count(&self) -> i64 {
                self.state.chain.len() as i64
            }

            fn known_bone_count(&self) -> Option<usize> {
                Some(self.state.chain.len()).filter(|&n| n > 0)
            }
        }

        impl $crate::common::IkNode for $class {
            fn state(&mut self) -> &mut $crate::common::IkState {
                &mut self.state
            }
            fn state_ref(&self) -> &$crate::common::IkState {
                &self.state
            }
            fn enabled(&self) -> bool {
                self.enabled
            }
            fn update_mode(&self) -> $crate::common::UpdateMode {
                $crate::common::UpdateMode::from_i64(self.update_mode).unwrap_or_default()
            }
            fn editor_preview(&self) -> bool {
                self.editor_preview
            }
            fn record(&mut self, solved: $crate::common::Solved) {
                self.last_error = solved.error;
                self.last_iterations = solved.iterations as i32;
            }
            fn check_setup(&mut self) -> Result<(), $crate::problem::Problem> {
                self.check_setup_impl().map(drop)
            }
            fn solve_once(&mut self) -> Result<$crate::common::Solved, $crate::problem::Problem> {
                self.solve_impl()
            }
            $($motion)*
        }
    };
}
pub(crate) use ik_node_api;
