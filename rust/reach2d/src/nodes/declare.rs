//! The macro that declares a node class's properties: [`node_class`] picks the shared properties of the class's kind
//! (its bones, the target's *Motion* and *Tip Rotation* groups, the help text of the shared properties) and hands
//! them to `declare_class.rs`, which writes the struct. No behaviour here: each class's frame and solve are written
//! in its own file.

/// Declares a node class with the properties every node shares, around its own.
///
/// `bones:` picks the bone properties and their place (right after `target` in the inspector):
/// - `chain` — `root_bone`, `tip_bone` and `pole`, a chain of any length;
/// - `limb { /// help root_bone, /// help tip_bone, /// help pole, <more fields> }` — the two bones of a limb (the
///   tip is the root's direct child) and its pole, with their own help text and any further fields of the class
///   right after them;
/// - `single { /// help bone }` — one `bone`;
/// - `spring { /// help root_bone }` — `root_bone` and `tip_bone` of a chain driven by time, not a target: no
///   `target`, no *Motion* or *Tip Rotation* group, and the help text of the shared properties speaks of steps.
///
/// Help text passes as `tt` tokens (doc comments or string literals), never as `literal` fragments: those reach
/// the help as source text, with their quotes. `Bone2D` and `Node2D` must be in scope where it is used.
///
/// `settings { .. }` are the class's own fields, after the shared ones; `setters { .. }` their `#[func]` setters
/// (`#[var(set = ..)]` looks for them in the class's main API block, which this macro writes).
macro_rules! node_class {
    (
        $(#$doc:tt)*
        pub struct $class:ident {
            target: $target_doc:tt,
            bones: chain,
            settings { $($settings:tt)* }
            $(setters { $($setters:tt)* })?
            last_error: $last_error_doc:tt,
            last_iterations: $last_iterations_doc:tt,
        }
    ) => {
        // A chain's bones are a limb's with the chain's help text (and no further fields).
        $crate::nodes::declare::node_class! {
            $(#$doc)*
            pub struct $class {
                target: $target_doc,
                bones: limb {
                    /// First bone of the chain (it turns but never moves).
                    root_bone,
                    /// Last bone of the chain: [member root_bone] itself or one of its Bone2D descendants.
                    tip_bone,
                    /// Optional: a node the chain's middle bends toward, like the built-in FABRIK's magnet (an elbow or
                    /// knee pointer for a longer limb). Each solve starts (instead of from the last frame's pose) from
                    /// the chain bent like a two-bone limb (its first half and the rest each straight) that reaches for
                    /// [member target] with the bend on the pole's side of the line from [member root_bone] to the
                    /// target, so the solved chain bulges to that side; the end still reaches the target as exactly as
                    /// without a pole. Only the side counts, not the distance; a pole on the line decides nothing. Make
                    /// it a child of the character and it turns with it: the mirrored character gets the mirror image
                    /// of the pose. A pole that was freed, is outside the tree or has a NaN position stops the node
                    /// (one error and a configuration warning, the bones keep their pose) until it is fixed or cleared.
                    pole,
                }
                settings { $($settings)* }
                setters { $($($setters)*)? }
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
            settings { $($settings:tt)* }
            $(setters { $($setters:tt)* })?
            last_error: $last_error_doc:tt,
            last_iterations: $last_iterations_doc:tt,
        }
    ) => {
        $crate::nodes::declare::node_class! {
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
                settings { $($settings)* }
                setters { $($($setters)*)? }
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
            settings { $($settings:tt)* }
            $(setters { $($setters:tt)* })?
            last_error: $last_error_doc:tt,
            last_iterations: $last_iterations_doc:tt,
        }
    ) => {
        $crate::nodes::declare::node_class! {
            @target $(#$doc)*
            pub struct $class {
                target: $target_doc,
                bones {
                    $(#$bone_doc)*
                    #[export]
                    bone: Option<Gd<Bone2D>>,
                }
                settings { $($settings)* }
                setters { $($($setters)*)? }
                last_error: $last_error_doc,
                last_iterations: $last_iterations_doc,
            }
        }
    };
    (
        $(#$doc:tt)*
        pub struct $class:ident {
            bones: spring { $(#$root_doc:tt)* root_bone }
            settings { $($settings:tt)* }
            $(setters { $($setters:tt)* })?
            last_error: $last_error_doc:tt,
            last_iterations: $last_iterations_doc:tt,
        }
    ) => {
        $crate::nodes::declare_class::declare_class! {
            $(#$doc)*
            pub struct $class {
                leading {
                    $(#$root_doc)*
                    #[export]
                    root_bone: Option<Gd<Bone2D>>,
                    /// Last bone of the chain: [member root_bone] itself or one of its Bone2D descendants.
                    #[export]
                    tip_bone: Option<Gd<Bone2D>>,
                }
                docs {
                    enabled: "If [code]false[/code], the node stops simulating by itself and leaves the bones to their \
                        pose; [method advance] still steps.",
                    weight: "How much of the simulated pose is applied: each bone's written rotation is \
                        [code]lerp_angle(input, simulated, weight)[/code], where input is its rotation before the \
                        step. A value outside [0, 1] (or NaN) is an error and is ignored.",
                    update_mode: "When the node steps by itself: every process frame ([constant UPDATE_PROCESS]), \
                        every physics frame ([constant UPDATE_PHYSICS]), or only when [method advance] or \
                        [method solve] is called ([constant UPDATE_MANUAL]). Any other value is an error and is \
                        ignored. In physics mode each step advances by the tick's time; in process mode by the \
                        frame's, but never by more than Godot's physics catches up after a long frame \
                        ([member Engine.max_physics_steps_per_frame] ticks). With physics interpolation on, use \
                        physics mode and let whatever poses the bones (an [AnimationPlayer]'s \
                        [member AnimationMixer.callback_mode_process]) run in physics too.",
                    editor_preview: "Simulate in the editor while you edit. Saving a scene always stores your own \
                        bone rotations.",
                    process: "[member update_mode]: step every process frame (the default).",
                    physics: "[member update_mode]: step every physics frame.",
                    manual: "[member update_mode]: step only when [method advance] or [method solve] is called.",
                }
                speed_limited(_this) { false }
                middle {}
                settings { $($settings)* }
                setters { $($($setters)*)? }
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
            settings { $($settings:tt)* }
            setters { $($setters:tt)* }
            last_error: $last_error_doc:tt,
            last_iterations: $last_iterations_doc:tt,
        }
    ) => {
        $crate::nodes::declare::node_class! {
            @target $(#$doc)*
            pub struct $class {
                target: $target_doc,
                bones { $($bones)* }
                settings {
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
                    $($settings)*
                }
                setters {
                    /// Sets [member target_rotation_weight]: a value outside [0, 1] (or NaN) prints an error and keeps
                    /// the current one.
                    #[func]
                    fn set_target_rotation_weight(&mut self, value: f32) {
                        $crate::checked::set_float(&mut self.target_rotation_weight, stringify!($class), "target_rotation_weight", value, 0.0, 1.0);
                    }
                    $($setters)*
                }
                last_error: $last_error_doc,
                last_iterations: $last_iterations_doc,
            }
        }
    };
    // The IK nodes: a target, and the *Motion* group.
    (
        @target $(#$doc:tt)*
        pub struct $class:ident {
            target: $target_doc:tt,
            bones { $($bones:tt)* }
            settings { $($settings:tt)* }
            setters { $($setters:tt)* }
            last_error: $last_error_doc:tt,
            last_iterations: $last_iterations_doc:tt,
        }
    ) => {
        $crate::nodes::declare_class::declare_class! {
            $(#$doc)*
            pub struct $class {
                leading {
                    #[doc = $target_doc]
                    #[export]
                    target: Option<Gd<Node2D>>,
                    $($bones)*
                }
                docs {
                    enabled: "If [code]false[/code], the node stops solving by itself; [method solve] still solves.",
                    weight: "How much of the solved pose is applied: each bone's written rotation is \
                        [code]lerp_angle(input, solved, weight)[/code], where input is the bone's rotation as the \
                        animation or the scene left it, never this node's own last result: 0.5 is half the IK on \
                        every frame, with or without an [AnimationPlayer]. Below 1 the solve also starts from that \
                        input. Every written rotation is the equal angle within half a turn of the input, so \
                        rotations never wind up over frames. A value outside [0, 1] (or NaN) is an error and is \
                        ignored.",
                    update_mode: "When the node solves by itself: every process frame ([constant UPDATE_PROCESS]), \
                        every physics frame ([constant UPDATE_PHYSICS]), or only when [method solve] is called \
                        ([constant UPDATE_MANUAL]). Any other value is an error and is ignored. Use the mode of \
                        whatever poses the bones: with [AnimationMixer.callback_mode_process] on [i]Physics[/i] (as \
                        with physics interpolation on, where each Bone2D is then drawn between its poses at the last \
                        two ticks), [constant UPDATE_PHYSICS]; on [i]Idle[/i], [constant UPDATE_PROCESS]. Physics \
                        mode under an animation in [i]Idle[/i] never shows: the animation poses the bones again \
                        every frame after the tick's solve (the flicker of Godot's own modifications).",
                    editor_preview: "Show the solve in the editor while you edit. Saving a scene always stores your \
                        own bone rotations.",
                    process: "[member update_mode]: solve every process frame (the default).",
                    physics: "[member update_mode]: solve every physics frame.",
                    manual: "[member update_mode]: solve only when [method solve] is called.",
                }
                speed_limited(this) { this.max_angular_speed > 0.0 }
                middle {
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
                }
                settings { $($settings)* }
                setters {
                    /// Solves now, whatever [member update_mode] and [member enabled] say. Returns [code]false[/code],
                    /// leaving every bone untouched, when the setup is invalid (the reason is printed once and shown as
                    /// a configuration warning). [member max_angular_speed] counts the current physics tick's delta
                    /// when called during a physics frame, else the current process frame's.
                    #[func]
                    pub fn solve(&mut self) -> bool {
                        $crate::frame::solve(self)
                    }

                    /// Sets [member max_angular_speed] (radians per second): a value below 0 (or not finite) prints an
                    /// error and keeps the current one.
                    #[func]
                    fn set_max_angular_speed(&mut self, value: f32) {
                        $crate::checked::set_float(&mut self.max_angular_speed, stringify!($class), "max_angular_speed", value, 0.0, f32::MAX);
                    }
                    $($setters)*
                }
                last_error: $last_error_doc,
                last_iterations: $last_iterations_doc,
            }
        }
    };
}
pub(crate) use node_class;
