//! `FabrikRig2D`: multi-effector FABRIK over a tree of Bone2D nodes (several tips sharing a spine).

pub mod effectors;
mod gizmo;
pub mod state;

use godot::classes::notify::CanvasItemNotification;
use godot::classes::{Bone2D, INode2D, Node2D};
use godot::prelude::*;
use godot::register::info::PropertyInfo;
use reach2d_core::FabrikSettings;

use crate::batch;
use crate::problem::Problem;
use crate::runtime::checked;
use crate::runtime::frame::{self, BoneDriver, NodeState, RUNTIME_PROCESS_PRIORITY, Solved, Tick, UpdateMode};
use crate::runtime::node_limits;
use crate::runtime::node_property::{NodeList, NodeSlot, NodeValue};
use effectors::{Given, PendingPaths, Side};
use state::{Effectors, RigState};

/// Moves a tree of [Bone2D] nodes so that several end effectors reach their targets at once, sharing the bones they
/// have in common: two hands on one two-handed weapon bending one spine, both front legs of a creature, a tentacle
/// creature holding two things.
///
/// Each effector is a tip bone in [member effector_tips] with its target at the same index in
/// [member effector_targets] (and an optional weight in [member effector_weights]); its branch is the tip and its
/// Bone2D ancestors up to [member root_bone]. Set them as the other nodes' bones and targets, with nodes, before or
/// after the node enters the tree: [code]rig.effector_tips = [left_hand, right_hand][/code] and
/// [code]rig.effector_targets = [left_grip, right_grip][/code], or one effector at a time with
/// [method add_effector]. The branches' union is the rig. Its end effectors are the tip bones' ends, as for
/// [FabrikChain2D]: [code]tip.global_transform * (Vector2.from_angle(tip.get_bone_angle()) * tip.get_length())[/code].
///
/// The solver is FABRIK's sub-base method (Aristidou and Lasenby): each pass pulls every branch toward its target up
/// to the bone where branches meet, places that bone as the weighted best fit of what its branches want, continues
/// to the root, then lays the bones out again from the root. Two [FabrikChain2D] stacked on a shared spine fight (the
/// second solve undoes the first); this node settles the spine for both. When not every target can be reached it
/// holds a stable compromise, weighted by [member effector_weights], frame after frame.
///
/// As the other nodes: only each bone's local [member Node2D.rotation] is written, bone lengths are exact, angle
/// limits hold after every solve, a mirrored character (negative scale anywhere) gets the mirror image of the pose,
/// and the node runs after [AnimationPlayer] and [AnimationTree] in the same frame. Angle limits are numbered in the
/// rig's bone order: the first tip's branch from [member root_bone] down, then each further tip's bones not listed
/// yet ([method get_rig_bone] tells which bone an index is).
#[reach2d_macros::shared_docs]
#[derive(GodotClass, reach2d_macros::NodeFields)]
#[class(init, tool, base = Node2D)]
pub struct FabrikRig2D {
    /// First bone of the rig, shared by every branch (it turns but never moves).
    #[export]
    #[init(val = NodeSlot::named("FabrikRig2D", "root_bone"))]
    root_bone: NodeSlot<Bone2D>,
    /// The last bone of each branch, one per effector: [member root_bone]'s Bone2D descendants, none on another
    /// tip's branch. Read at every solve, so a change made to the array in place ([code]append[/code]) counts too. An
    /// untyped array given to [method Object.set] (or assigned where the node's class is not known statically) is
    /// converted entry by entry (Bone2D nodes; anything else is refused with one error).
    #[export]
    #[var(set = set_effector_tips)]
    #[init(val = NodeList::named("FabrikRig2D", "effector_tips"))]
    effector_tips: NodeList<Bone2D>,
    /// The node each effector reaches for, at the same index as its tip in [member effector_tips].
    #[export]
    #[var(set = set_effector_targets)]
    #[init(val = NodeList::named("FabrikRig2D", "effector_targets"))]
    effector_targets: NodeList<Node2D>,
    /// How much each effector counts where the branches disagree (a missing entry counts 1; 0 follows along and never
    /// pulls). Each value must be finite and >= 0.
    #[export]
    #[var(set = set_effector_weights)]
    effector_weights: PackedFloat32Array,
    /// @shared enabled
    #[export]
    #[init(val = true)]
    enabled: bool,
    /// @shared weight
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_weight)]
    #[init(val = 1.0)]
    weight: f32,
    /// @shared update_mode
    #[export(enum = (Process = 0, Physics = 1, Manual = 2))]
    update_mode: UpdateMode,
    /// @shared editor_preview
    #[export]
    #[init(val = true)]
    editor_preview: bool,

    /// Most backward-and-forward passes per solve.
    #[export_group(name = "Solver")]
    #[export(range = (1.0, 256.0, 1.0, or_greater))]
    #[var(set = set_max_iterations)]
    #[init(val = 16)]
    max_iterations: i64,
    /// Distance from every end effector to its target, in global pixels, that counts as reached.
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "px"))]
    #[var(set = set_tolerance)]
    #[init(val = 0.5)]
    tolerance: f32,

    /// Deprecated: [member effector_tips] as node paths relative to this node, as scenes and scripts made before
    /// it give them. Setting it sets [member effector_tips] as soon as every path leads to a Bone2D (when this node
    /// is in the scene tree); reading it gives the paths to [member effector_tips]. Not saved: a scene saved again
    /// stores [member effector_tips].
    #[var(get = get_tip_bones, set = set_tip_bones)]
    tip_bones: PhantomVar<Array<NodePath>>,
    /// Deprecated: [member effector_targets] as node paths relative to this node; see [member tip_bones].
    #[var(get = get_targets, set = set_targets)]
    targets: PhantomVar<Array<NodePath>>,

    /// The largest distance in global pixels between a target and its end effector after the last solve,
    /// [member weight] included; [code]-1.0[/code] before the first solve.
    #[var(no_set)]
    #[init(val = -1.0)]
    last_error: f32,
    /// Passes the last solve used: 0 when every tip was already within [member tolerance].
    #[var(no_set)]
    last_iterations: i32,

    /// The effectors, the tree of bones and the solver's buffers.
    rig: RigState,
    /// `tip_bones` and `targets` given as node paths, until they resolve.
    pending: PendingPaths,
    state: NodeState,
    base: Base<Node2D>,
}

#[reach2d_macros::api(update_constants, solve, reset, angle_limits, setup_warning, bone_count)]
#[godot_api]
impl FabrikRig2D {
    /// Adds an effector: [param tip] (the last bone of a branch under [member root_bone]) reaches for
    /// [param target] with [param weight] (finite, >= 0; else an error and nothing is added). Works before the node
    /// enters the tree.
    #[func]
    fn add_effector(&mut self, tip: Gd<Bone2D>, target: Gd<Node2D>, #[opt(default = 1.0)] weight: f32) {
        let count = self.effector_tips.len();
        let max = f64::from(f32::MAX);
        if checked::float_value("FabrikRig2D", "add_effector: weight", f64::from(weight), 0.0, max).is_none() {
            return;
        }
        // The new effector's weight at its index: the ones before it that had none count 1.
        let mut weights = self.effector_weights.clone();
        weights.resize(weights.len().min(count));
        while weights.len() < count {
            weights.push(1.0);
        }
        weights.push(weight);
        self.effector_weights = weights;
        self.effector_tips.push(&tip);
        self.effector_targets.push(&target);
        self.pending = PendingPaths::default();
    }

    /// Removes every effector (and their weights).
    #[func]
    fn clear_effectors(&mut self) {
        *self.effector_tips = Array::new();
        *self.effector_targets = Array::new();
        self.effector_weights = PackedFloat32Array::new();
        self.pending = PendingPaths::default();
    }

    /// Deprecated: sets [member effector_tips] from node paths relative to this node, as soon as they resolve.
    #[func]
    fn set_tip_bones(&mut self, value: Array<NodePath>) {
        self.take_paths(Side::Tips, value);
    }

    /// Deprecated: the paths from this node to [member effector_tips] (or the paths given that have not resolved).
    #[func]
    fn get_tip_bones(&self) -> Array<NodePath> {
        self.paths(Side::Tips)
    }

    /// Deprecated: sets [member effector_targets] from node paths relative to this node, as soon as they resolve.
    #[func]
    fn set_targets(&mut self, value: Array<NodePath>) {
        self.take_paths(Side::Targets, value);
    }

    /// Deprecated: the paths from this node to [member effector_targets] (or the paths given that have not resolved).
    #[func]
    fn get_targets(&self) -> Array<NodePath> {
        self.paths(Side::Targets)
    }

    /// The rig's bone at [param index] in its bone order (the one [method set_angle_limits] uses), or
    /// [code]null[/code] while the setup is invalid or the index is out of range.
    #[func]
    fn get_rig_bone(&self, index: i64) -> Option<Gd<Bone2D>> {
        let index = usize::try_from(index).ok()?;
        self.state.bones.chain.bones().get(index).cloned()
    }

    /// Sets [member effector_tips]: a value that is not an array of Bone2D nodes prints one error naming it, and
    /// the current tips are kept; tips set as nodes replace tips still waiting as node paths.
    #[func]
    fn set_effector_tips(&mut self, value: Variant) {
        let Some(tips) = <Array<Gd<Bone2D>> as NodeValue>::checked(&value, "FabrikRig2D", "effector_tips") else {
            return;
        };
        *self.effector_tips = tips;
        self.pending.drop_side(Side::Tips);
    }
    /// Sets [member effector_targets], checked as [member effector_tips] is.
    #[func]
    fn set_effector_targets(&mut self, value: Variant) {
        let Some(targets) = <Array<Gd<Node2D>> as NodeValue>::checked(&value, "FabrikRig2D", "effector_targets") else {
            return;
        };
        *self.effector_targets = targets;
        self.pending.drop_side(Side::Targets);
    }
    /// Sets [member effector_weights]: a negative or non-finite entry prints an error and keeps the current weights.
    #[func]
    fn set_effector_weights(&mut self, value: PackedFloat32Array) {
        if checked::each_non_negative("FabrikRig2D", "effector_weights", value.as_slice()) {
            self.effector_weights = value;
        }
    }

    // The checked setters: a bad value prints one error naming the valid range and keeps the last good one.
    #[func]
    fn set_weight(&mut self, value: f32) {
        checked::set_float(&mut self.weight, "FabrikRig2D", "weight", value, 0.0, 1.0);
    }
    #[func]
    fn set_max_iterations(&mut self, value: i64) {
        checked::set_int(&mut self.max_iterations, "FabrikRig2D", "max_iterations", value, 1, 1024);
    }
    #[func]
    fn set_tolerance(&mut self, value: f32) {
        checked::set_float(&mut self.tolerance, "FabrikRig2D", "tolerance", value, 0.0, f32::MAX);
    }
}

#[godot_api]
impl INode2D for FabrikRig2D {
    fn ready(&mut self) {
        batch::ready(self, RUNTIME_PROCESS_PRIORITY);
    }
    fn process(&mut self, delta: f64) {
        frame::tick(self, Tick::Process, delta);
    }
    fn physics_process(&mut self, delta: f64) {
        frame::tick(self, Tick::Physics, delta);
    }
    fn on_notification(&mut self, what: CanvasItemNotification) {
        if what == CanvasItemNotification::ENTER_TREE {
            // A scene saved with `tip_bones`/`targets` paths: its nodes are all there now (a path that leads nowhere
            // yet is tried again at each check).
            // Reported, if still so, by the next check.
            let _unresolved = self.resolve_pending();
        }
        batch::notification(self, what);
    }
    fn draw(&mut self) {
        let rig = &self.rig;
        gizmo::draw_rig(&mut self.to_gd().upcast(), rig.solver(), rig.points(), rig.targets());
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        frame::configuration_warnings(self)
    }
    fn on_get_property_list(&mut self) -> Vec<PropertyInfo> {
        node_limits::property_list(self)
    }
    fn on_get(&self, property: StringName) -> Option<Variant> {
        node_limits::get_property(self, &property)
    }
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        frame::counted(|| self.set_untyped(&property, &value) || self.state.limits.set_property(&property, &value))
    }
    fn on_property_get_revert(&self, property: StringName) -> Option<Variant> {
        node_limits::property_revert(&property)
    }
}

impl FabrikRig2D {
    /// `set()` of an effector property with an untyped `Array` (a script that does not know the node's class, `[...]`
    /// literals): converted entry by entry (`effectors::convert_untyped`) and given to the typed setter; an
    /// entry of the wrong kind is one error naming it, and the value is kept. `false` for other properties and for
    /// typed arrays, which take Godot's own route.
    fn set_untyped(&mut self, property: &StringName, value: &Variant) -> bool {
        match effectors::convert_untyped(property, value) {
            None => false,
            Some(Err(message)) => {
                godot_error!("FabrikRig2D: {message}");
                true
            }
            Some(Ok(given)) => {
                match given {
                    Given::Paths(side, paths) => self.take_paths(side, paths),
                    Given::Weights(weights) => self.set_effector_weights(weights),
                }
                true
            }
        }
    }

    /// Node paths for one side (scenes and scripts from before `effector_tips`): held, and resolved now if they can.
    fn take_paths(&mut self, side: Side, paths: Array<NodePath>) {
        self.pending.hold(side, paths);
        // A path that leads nowhere yet is reported by the next check.
        let _unresolved = self.resolve_pending();
    }

    /// Resolves held node paths (in the tree only: before, relative paths may not lead anywhere yet) into the node
    /// arrays. Returns the first path that leads nowhere, if any.
    fn resolve_pending(&mut self) -> Result<(), Problem> {
        if !self.pending.waiting() || !self.base().is_inside_tree() {
            return Ok(());
        }
        let (resolved, missing) = self.pending.resolve(&self.to_gd().upcast());
        if let Some(tips) = resolved.tips {
            *self.effector_tips = tips;
        }
        if let Some(targets) = resolved.targets {
            *self.effector_targets = targets;
        }
        missing.map_err(|(side, k)| match side {
            Side::Tips => Problem::RigTipMissing(k as u16),
            Side::Targets => Problem::RigTargetMissing(k as u16),
        })
    }

    /// What `tip_bones` or `targets` reads as: the paths still waiting, else the paths to the node array's nodes.
    fn paths(&self, side: Side) -> Array<NodePath> {
        if let Some(held) = self.pending.held(side) {
            return held.clone();
        }
        let nodes: &AnyArray = match side {
            Side::Tips => &self.effector_tips,
            Side::Targets => &self.effector_targets,
        };
        effectors::paths_to(&self.to_gd().upcast(), nodes)
    }
}

impl BoneDriver for FabrikRig2D {
    fn check_setup(&mut self) -> Result<(), Problem> {
        // Only while node paths wait (a scene from before whose path led nowhere yet): never in a working rig.
        if self.pending.waiting() {
            frame::uncounted(|| self.resolve_pending())?;
        }
        let given =
            Effectors { tips: &self.effector_tips, targets: &self.effector_targets, weights: &self.effector_weights };
        self.rig.check(&mut self.state.bones, &self.root_bone, &given)
    }

    fn solve_frame(&mut self, _delta: f64) -> Result<Solved, Problem> {
        self.check_setup()?;
        let settings = FabrikSettings { max_iterations: self.max_iterations as u32, tolerance: self.tolerance };
        let weight = self.weight * self.state.character.weight();
        let (report, error) = self.rig.solve(&mut self.state.bones, weight, self.state.limits.active(), &settings)?;
        Ok(Solved { error, iterations: report.iterations as i32 })
    }
}
