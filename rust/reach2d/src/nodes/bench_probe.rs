//! Bench builds only (`--features bench`, built by `cargo xtask bench`): the I/O floor under every solve, and the
//! engine-call alternatives it was chosen from. Never part of a shipped library.
//!
//! The floor reads what a chain solve reads (the target, the root's parent, each bone's local pose, the tip's bone
//! angle and length) and writes each bone's rotation back unchanged, with no solving: the cost no IK can avoid with
//! Godot's per-node API.

use std::time::Instant;

use godot::classes::{Bone2D, CanvasItem, Node2D};
use godot::prelude::*;

use crate::debug::phases::{self, Phase};
use crate::engine::convert::affine;
use crate::io::bones::{self, Bones};
use crate::io::chain::Shape;
use crate::io::tree_watch;
use crate::runtime::frame::counted;
use crate::runtime::setup::{Slots, check};

/// Measures the engine I/O a chain solve cannot avoid (benchmarks only; present in builds with the `bench` feature).
#[derive(GodotClass)]
#[class(init, base = RefCounted)]
pub struct Reach2DIoFloor {
    target: Option<Gd<Node2D>>,
    root: Option<Gd<Bone2D>>,
    tip: Option<Gd<Bone2D>>,
    chain: Bones,
    /// The same bones, root first, for the variants that bypass [`Bones`].
    bones: Vec<Gd<Bone2D>>,
    parent: Option<Gd<CanvasItem>>,
}

#[godot_api]
impl Reach2DIoFloor {
    /// Sets the chain [param root] ..= [param tip] (a Bone2D and one of its descendants) and the [param target] read
    /// every run.
    #[func]
    fn setup(&mut self, target: Gd<Node2D>, root: Gd<Bone2D>, tip: Gd<Bone2D>) {
        self.bones.clear();
        let mut bone = tip.clone();
        while bone.instance_id() != root.instance_id() {
            self.bones.push(bone.clone());
            match bone.get_parent().and_then(|p| p.try_cast::<Bone2D>().ok()) {
                Some(parent) => bone = parent,
                None => break,
            }
        }
        self.bones.push(root.clone());
        self.bones.reverse();
        self.parent = root.get_parent().and_then(|p| p.try_cast::<CanvasItem>().ok());
        self.target = Some(target);
        self.root = Some(root);
        self.tip = Some(tip);
    }

    /// One run of the floor, the way the nodes do it (liveness checks, the chain's staleness check, the read, one
    /// `set_rotation` per bone). Returns [code]false[/code] when the chain cannot be read.
    #[func]
    fn run(&mut self) -> bool {
        let outer = phases::enter(Phase::Check);
        let read = counted(|| {
            let slots =
                Slots { target: Some(&self.target), pole: None, root: &self.root, tip: &self.tip, shape: Shape::Chain };
            if check(&mut self.chain, slots).is_err() {
                return false;
            }
            bones::rewrite_as_read(&mut self.chain).is_ok()
        });
        phases::enter(outer);
        read
    }

    /// One run of an alternative engine path over cached handles, with no checks: [param variant] 1 = local
    /// transform and rotation read per bone, rotations written root to tip; 2 = the same written tip to root; 3 =
    /// global transform read per bone instead of the local one; 4 = local transform written with `set_transform`
    /// instead of `set_rotation`; 5 = rotation read only (no transform); 6 = no write. Returns the sum of what was
    /// read, so nothing is optimized away.
    #[func]
    fn run_variant(&mut self, variant: i32) -> f32 {
        let mut sum = 0.0;
        if let Some(target) = &self.target {
            sum += target.get_global_position().x;
        }
        if let Some(parent) = &self.parent {
            sum += parent.get_global_transform().origin.x;
        }
        let n = self.bones.len();
        for i in 0..n {
            let i = if variant == 2 { n - 1 - i } else { i };
            let bone = &mut self.bones[i];
            match variant {
                3 => {
                    let global = bone.get_global_transform();
                    let rotation = bone.get_rotation();
                    sum += global.origin.x + rotation;
                    bone.set_rotation(rotation);
                }
                4 => {
                    let local = bone.get_transform();
                    sum += local.origin.x;
                    bone.set_transform(local);
                }
                5 => {
                    let rotation = bone.get_rotation();
                    sum += rotation;
                    bone.set_rotation(rotation);
                }
                6 => {
                    let local = affine(bone.get_transform());
                    sum += local.translation.x + bone.get_rotation();
                }
                _ => {
                    let local = affine(bone.get_transform());
                    let rotation = bone.get_rotation();
                    sum += local.translation.x;
                    bone.set_rotation(rotation);
                }
            }
        }
        sum
    }

    /// Starts the per-phase timer (`debug/phases.rs`): from now on every solve charges its time to its phases.
    #[func]
    fn start_phases() {
        phases::start();
    }

    /// Stops the per-phase timer; returns the nanoseconds charged to each phase since [method start_phases], in the
    /// order of [code]PHASE_NAMES[/code]: outside Reach2D, the batch's loop, around the solve, the setup check, the
    /// read, the solver, the rotations from the joints, the write.
    #[func]
    fn stop_phases() -> PackedFloat64Array {
        PackedFloat64Array::from(&phases::stop()[..])
    }

    /// Nanoseconds per engine call of kind [param call] on the root bone (or the target), over [param count] calls:
    /// 0 `get_rotation`, 1 `get_transform`, 2 `set_rotation` (root: the chain below is marked dirty), 3
    /// `set_rotation` on the tip, 4 `get_global_transform` of the root's parent, 5 `get_global_position` of the
    /// target, 6 `is_instance_valid`, 7 `is_inside_tree`, 8 `get_bone_angle`, 9 `get_length`, 10 `instance_id`.
    #[func]
    fn time_call(&mut self, call: i32, count: i32) -> f64 {
        let (Some(root), Some(tip), Some(target)) = (self.root.clone(), self.tip.clone(), self.target.clone()) else {
            return -1.0;
        };
        let (mut root, mut tip) = (root, tip);
        let parent = self.parent.clone();
        let rotation = root.get_rotation();
        let tip_rotation = tip.get_rotation();
        let mut sink = 0.0f64;
        let start = Instant::now();
        for _ in 0..count {
            match call {
                0 => sink += root.get_rotation() as f64,
                1 => sink += root.get_transform().origin.x as f64,
                2 => root.set_rotation(rotation),
                3 => tip.set_rotation(tip_rotation),
                4 => sink += parent.as_ref().map_or(0.0, |p| p.get_global_transform().origin.x) as f64,
                5 => sink += target.get_global_position().x as f64,
                6 => sink += root.is_instance_valid() as u8 as f64,
                7 => sink += root.is_inside_tree() as u8 as f64,
                8 => sink += root.get_bone_angle() as f64,
                9 => sink += root.get_length() as f64,
                _ => sink += root.instance_id().to_i64() as f64,
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / count.max(1) as f64;
        std::hint::black_box(sink);
        ns
    }
}

/// The floor with the nodes' checks once per frame (benchmarks only): every added [Reach2DIoFloor] run as one pass
/// of the tree watch, as the batch runs its nodes, so a setup verified in an earlier pass skips its structural
/// checks (the target, the pole and the tip in the tree, the chain's parent links) and keeps the per-run ones
/// (liveness, positions). Typed handles held from call to call, like the batch's.
#[derive(GodotClass)]
#[class(init, base = RefCounted)]
pub struct Reach2DIoFloorPass {
    floors: Vec<Gd<Reach2DIoFloor>>,
}

#[godot_api]
impl Reach2DIoFloorPass {
    /// Adds [param floor] to the pass.
    #[func]
    fn add(&mut self, floor: Gd<Reach2DIoFloor>) {
        self.floors.push(floor);
    }

    /// Runs every added floor once, in one tree-watch pass. Returns how many could be read.
    #[func]
    fn run(&mut self) -> i64 {
        let outer = phases::enter(Phase::Batch);
        let read = tree_watch::in_pass(|| {
            self.floors.iter_mut().map(|floor| floor.bind_mut().run()).filter(|&read| read).count() as i64
        });
        phases::enter(outer);
        read
    }
}
