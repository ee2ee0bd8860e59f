//! `FabrikRig2D`: multi-effector FABRIK over a tree of Bone2D nodes (several tips sharing a spine).

use godot::classes::notify::CanvasItemNotification;
use godot::classes::{Bone2D, INode2D, Node2D};
use godot::prelude::*;
use reach2d_core::FabrikSettings;

use crate::frame::{self, BoneDriver, NodeState, Solved};
use crate::limits::AngleLimits;
use crate::problem::Problem;
use crate::rig_state::{EffectorPaths, RigState};
use crate::{batch, checked, gizmo};

/// Moves a tree of [Bone2D] nodes so that several end effectors reach their targets at once, sharing the bones they
/// have in common: two hands on one two-handed weapon bending one spine, both front legs of a creature, a tentacle
/// creature holding two things.
///
/// Each effector is a tip bone in [member tip_bones] with its target at the same index in [member targets] (and an
/// optional weight in [member effector_weights]); its branch is the tip and its Bone2D ancestors up to
/// [member root_bone]. The branches' union is the rig. Its end effectors are the tip bones' ends, as for
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
#[reach2d_macros::node(frame)]
#[derive(GodotClass)]
#[class(init, tool, base = Node2D)]
pub struct FabrikRig2D {
    /// First bone of the rig, shared by every branch (it turns but never moves).
    #[export]
    root_bone: Option<Gd<Bone2D>>,
    /// The last bone of each branch, one per effector: [member root_bone]'s Bone2D descendants, none on another
    /// tip's branch. Paths are resolved once, when they change (and when a resolved node is freed). An untyped array
    /// given to [method Object.set] (or assigned where the node's class is not known statically) is converted entry
    /// by entry: NodePaths and Strings; anything else is refused with one error.
    #[export]
    #[var(set = set_tip_bones)]
    tip_bones: Array<NodePath>,
    /// The node each effector reaches for, at the same index as its tip in [member tip_bones].
    #[export]
    #[var(set = set_targets)]
    targets: Array<NodePath>,
    /// How much each effector counts where the branches disagree (a missing entry counts 1; 0 follows along and never
    /// pulls). Each value must be finite and >= 0.
    #[export]
    #[var(set = set_effector_weights)]
    effector_weights: PackedFloat32Array,
    /// Shared with the other nodes (declared in `reach2d_macros/src/shared_properties.rs`): `enabled`, `weight`,
    /// `update_mode`, `editor_preview`.
    #[shared_properties(frame)]
    _shared: (),

    /// Most backward-and-forward passes per solve.
    #[export_group(name = "Solver")]
    #[export(range = (1.0, 256.0, 1.0, or_greater))]
    #[checked(1..=1024)]
    #[init(val = 16)]
    max_iterations: i64,
    /// Distance from every end effector to its target, in global pixels, that counts as reached.
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "px"))]
    #[checked(0.0..)]
    #[init(val = 0.5)]
    tolerance: f32,

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
    limits: AngleLimits,
    state: NodeState,
    base: Base<Node2D>,
}

#[reach2d_macros::api(update_constants, solve, angle_limits, setup_warning, bone_count)]
#[godot_api]
impl FabrikRig2D {
    /// Sets [member tip_bones]; they are resolved again before the next solve.
    #[func]
    fn set_tip_bones(&mut self, value: Array<NodePath>) {
        self.tip_bones = value;
        self.rig.paths_changed();
    }

    /// Sets [member targets]; they are resolved again before the next solve.
    #[func]
    fn set_targets(&mut self, value: Array<NodePath>) {
        self.targets = value;
        self.rig.paths_changed();
    }

    /// Sets [member effector_weights]: a negative or non-finite entry prints an error and keeps the current weights.
    #[func]
    fn set_effector_weights(&mut self, value: PackedFloat32Array) {
        if checked::each_non_negative("FabrikRig2D", "effector_weights", value.as_slice()) {
            self.effector_weights = value;
        }
    }

    /// The rig's bone at [param index] in its bone order (the one [method set_angle_limits] uses), or
    /// [code]null[/code] while the setup is invalid or the index is out of range.
    #[func]
    fn get_rig_bone(&self, index: i64) -> Option<Gd<Bone2D>> {
        let index = usize::try_from(index).ok()?;
        self.state.bones.chain.bones().get(index).cloned()
    }
}

#[reach2d_macros::callbacks]
#[godot_api]
impl INode2D for FabrikRig2D {
    fn on_notification(&mut self, what: CanvasItemNotification) {
        if what == CanvasItemNotification::ENTER_TREE {
            // Paths are relative to the node: a node that moved in the tree resolves them again.
            self.rig.paths_changed();
        }
        batch::notification(self, what);
    }
    fn draw(&mut self) {
        let rig = &self.rig;
        gizmo::draw_rig(&mut self.to_gd().upcast(), rig.solver(), rig.points(), rig.targets());
    }
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        frame::counted(|| self.set_effector_array(&property, &value) || self.limits.set_property(&property, &value))
    }
}

impl FabrikRig2D {
    /// `set()` of `tip_bones`, `targets` or `effector_weights` with an untyped `Array` (a script that does not
    /// know the node's class, `[...]` literals): each entry is converted (a NodePath or a String for the paths, a
    /// number for the weights) and the typed setter takes it; an entry that is neither, or a value that is no
    /// array, is one error naming it, and the value is kept. `false` for other properties and for typed arrays,
    /// which take Godot's own route.
    fn set_effector_array(&mut self, property: &StringName, value: &Variant) -> bool {
        // Godot asks `_set` about every property set on the node (an animated `weight` every frame): compare
        // without a Rust allocation.
        let text = GString::from(property);
        let chars = text.chars();
        let Some(name) = ["tip_bones", "targets", "effector_weights"]
            .into_iter()
            .find(|name| chars.iter().copied().eq(name.chars()))
        else {
            return false;
        };
        let typed = value.get_type() == VariantType::ARRAY && value.try_to::<VarArray>().is_err();
        if typed || value.get_type() == VariantType::PACKED_FLOAT32_ARRAY {
            return false; // Typed: Godot's own route reaches the typed setter.
        }
        let Ok(entries) = value.try_to::<VarArray>() else {
            godot_error!("FabrikRig2D: {name} must be an Array, not {value}; keeping the current {name}.");
            return true;
        };
        if name == "effector_weights" {
            let mut weights = PackedFloat32Array::new();
            for (index, entry) in entries.iter_shared().enumerate() {
                let number = entry.try_to::<f64>().or_else(|_| entry.try_to::<i64>().map(|i| i as f64));
                let Ok(number) = number else {
                    godot_error!(
                        "FabrikRig2D: effector_weights[{index}] = {entry} is not a number; keeping the current weights."
                    );
                    return true;
                };
                weights.push(number as f32);
            }
            self.set_effector_weights(weights);
            return true;
        }
        let mut paths = Array::<NodePath>::new();
        for (index, entry) in entries.iter_shared().enumerate() {
            let path = entry
                .try_to::<NodePath>()
                .or_else(|_| entry.try_to::<GString>().map(|s| NodePath::from(&s)))
                .or_else(|_| entry.try_to::<StringName>().map(|s| NodePath::from(&GString::from(&s))));
            let Ok(path) = path else {
                godot_error!(
                    "FabrikRig2D: {name}[{index}] = {entry} is not a node path (use get_path_to(node)); keeping the \
                     current {name}."
                );
                return true;
            };
            paths.push(&path);
        }
        if name == "tip_bones" {
            self.set_tip_bones(paths)
        } else {
            self.set_targets(paths)
        }
        true
    }
}

impl BoneDriver for FabrikRig2D {
    fn check_setup(&mut self) -> Result<(), Problem> {
        let node = self.to_gd().upcast();
        let paths =
            EffectorPaths { tip_bones: &self.tip_bones, targets: &self.targets, weights: &self.effector_weights };
        self.rig.check(&node, &mut self.state.bones, &self.root_bone, &paths)
    }

    fn solve_frame(&mut self, _delta: f64) -> Result<Solved, Problem> {
        self.check_setup()?;
        let settings = FabrikSettings { max_iterations: self.max_iterations as u32, tolerance: self.tolerance };
        let weight = self.weight * self.state.character.weight();
        let (report, error) = self.rig.solve(&mut self.state.bones, weight, self.limits.active(), &settings)?;
        Ok(Solved { error, iterations: report.iterations as i32 })
    }
}
