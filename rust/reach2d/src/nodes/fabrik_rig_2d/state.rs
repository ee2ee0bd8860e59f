//! `FabrikRig2D`'s engine side: its effectors (tip bones and targets, read from the node's arrays every solve, so a
//! change made to an array in place is seen), its bones (one watched chain per effector, their union held in the
//! node's `Bones` so the authored-pose machinery covers every bone), and the buffers its solves reuse.

use godot::classes::{Bone2D, CanvasItem, Node2D};
use godot::prelude::*;
use reach2d_core::{AngleLimit, FabrikRig, FabrikSettings, RigEffector, RigPose, SolveReport, Vec2};

use crate::engine::convert::vec2;
use crate::engine::slot::{Slot, slot};
use crate::io::bones::{self, Bones, Start};
use crate::io::chain::{BoneChain, Shape};
use crate::problem::Problem;

/// Everything `FabrikRig2D` keeps between solves besides its `Bones`.
#[derive(Default)]
pub struct RigState {
    /// The live `effector_tips` and `effector_targets` of the last check, one per effector.
    tips: Vec<Gd<Bone2D>>,
    targets: Vec<Gd<Node2D>>,
    /// One chain per effector, `root_bone ..= tip`, each watched for changes.
    paths: Vec<BoneChain>,
    /// The solver for the union of the paths (`None` until resolved).
    solver: Option<FabrikRig>,
    tip_offsets: Vec<Vec2>,
    points: Vec<Vec2>,
    effectors: Vec<RigEffector>,
    segment_limits: Vec<Option<AngleLimit>>,
    /// Each effector's end in the written pose.
    ends: Vec<Vec2>,
}

/// What the node's properties say about its effectors.
pub struct Effectors<'a> {
    pub tips: &'a Array<Gd<Bone2D>>,
    pub targets: &'a Array<Gd<Node2D>>,
    pub weights: &'a PackedFloat32Array,
}

impl RigState {
    /// The solver, once resolved.
    pub fn solver(&self) -> Option<&FabrikRig> {
        self.solver.as_ref()
    }

    /// The points of the last solve (bone origins, then ends), for drawing.
    pub fn points(&self) -> &[Vec2] {
        &self.points
    }

    /// The resolved targets.
    pub fn targets(&self) -> &[Gd<Node2D>] {
        &self.targets
    }

    /// Checks the setup without touching a bone's pose: the effectors (each array entry a live node of its class;
    /// each target's global position into the effectors) and the bones (resolving the chains when one changed).
    /// Reads the arrays every time (two engine calls per effector, no allocation once the buffers have grown).
    pub fn check(&mut self, bones: &mut Bones, root: &Option<Gd<Bone2D>>, given: &Effectors) -> Result<(), Problem> {
        let count = given.tips.len();
        if count == 0 {
            return Err(Problem::NoEffectors);
        }
        if given.targets.len() != count {
            return Err(Problem::EffectorsMismatch);
        }
        let root = match slot(root) {
            Slot::Empty => return Err(Problem::NoRootBone),
            Slot::Freed => return Err(Problem::BoneFreed),
            Slot::Live(root) => root,
        };
        self.tips.clear();
        self.targets.clear();
        self.effectors.resize(count, RigEffector { target: Vec2::ZERO, weight: 1.0 });
        for k in 0..count {
            let index = k as u16;
            // Read as Variants: an entry may be null (a new entry in the inspector) or freed.
            let tip = AnyArray::get(given.tips, k).and_then(|entry| entry.try_to::<Gd<Bone2D>>().ok());
            self.tips.push(tip.ok_or(Problem::RigTipMissing(index))?);
            let target = AnyArray::get(given.targets, k).and_then(|entry| entry.try_to::<Gd<Node2D>>().ok());
            let target = target.filter(|t| t.is_inside_tree()).ok_or(Problem::RigTargetMissing(index))?;
            let position = vec2(target.get_global_position());
            if !position.is_finite() {
                return Err(Problem::RigTargetNotFinite(index));
            }
            self.effectors[k] = RigEffector { target: position, weight: given.weights.get(k).unwrap_or(1.0) };
            self.targets.push(target);
        }
        self.ensure_bones(bones, root)
    }

    /// Makes sure `bones` holds the union of the effectors' chains and the solver its tree, resolving them again
    /// (after restoring the authored pose) when a chain changed.
    fn ensure_bones(&mut self, bones: &mut Bones, root: &Gd<Bone2D>) -> Result<(), Problem> {
        let current = self.solver.is_some()
            && self.paths.len() == self.tips.len()
            && self.paths.iter().zip(&self.tips).all(|(path, tip)| path.is_current(root, tip, false));
        if current {
            return Ok(());
        }
        bones::forget(bones);
        bones.chain.forget();
        self.solver = None;
        self.paths.resize_with(self.tips.len(), BoneChain::default);
        for (k, (path, tip)) in self.paths.iter_mut().zip(&self.tips).enumerate() {
            if !tip.is_instance_valid() {
                return Err(Problem::BoneFreed);
            }
            path.resolve(root, tip, Shape::Chain).map_err(|problem| match problem {
                Problem::TipNotUnderRoot => Problem::RigTipNotUnderRoot(k as u16),
                other => other,
            })?;
        }
        // The union, parents first: each path runs root first, so a bone's parent is always listed before it.
        let mut union: Vec<Gd<Bone2D>> = Vec::new();
        let mut parents = Vec::new();
        let mut tips = Vec::new();
        for path in &self.paths {
            let mut previous = 0;
            for bone in path.bones() {
                let id = bone.instance_id();
                let index = match union.iter().position(|b| b.instance_id() == id) {
                    Some(index) => index,
                    None => {
                        union.push(bone.clone());
                        parents.push(previous);
                        union.len() - 1
                    }
                };
                previous = index;
            }
            tips.push(previous);
        }
        let solver = FabrikRig::new(&parents, &tips).map_err(|_| Problem::RigTipsOverlap)?;
        let parent = union[0].get_parent().and_then(|p| p.try_cast::<CanvasItem>().ok());
        let (n, e) = (union.len(), tips.len());
        bones.chain.hold(union, parent);
        self.tip_offsets.resize(e, Vec2::ZERO);
        self.points.resize(n + e, Vec2::ZERO);
        self.segment_limits.resize(n, None);
        self.ends.resize(e, Vec2::ZERO);
        self.solver = Some(solver);
        Ok(())
    }

    /// Reads the bones, solves, and writes each bone's rotation (blended by `weight`, held in `limits`), through the
    /// chains' one read and write (`io/bones.rs`). Returns the report and the largest distance from a written end to
    /// its target. Writes nothing on error.
    pub fn solve(
        &mut self,
        bones: &mut Bones,
        weight: f32,
        limits: &[Option<AngleLimit>],
        settings: &FabrikSettings,
    ) -> Result<(SolveReport, f32), Problem> {
        let Some(solver) = self.solver.as_mut() else { return Err(Problem::EmptyChain) };
        let n = bones.chain.len();
        if n == 0 || solver.bone_count() != n {
            return Err(Problem::EmptyChain);
        }
        if !bones.chain.bones()[0].is_inside_tree() {
            return Err(Problem::BoneOutsideTree);
        }
        for (tip, offset) in self.tips.iter().zip(self.tip_offsets.iter_mut()) {
            *offset = Vec2::from_angle(tip.get_bone_angle()) * tip.get_length();
        }
        if !self.tip_offsets.iter().all(|t| t.is_finite()) {
            return Err(Problem::PoseNotFinite);
        }
        // The tree's ends are its tips' (`tip_offsets`), not one chain's: the read's own tip offset is unused.
        bones::read_local_poses(bones, Vec2::ZERO, Start::new(false, weight), |_| {})?;
        bones.pose.finish_tree();
        let (read, rotations) = bones.pose.pose_and_rotations();
        let pose = RigPose { parent: read.parent, bones: read.bones, tip_offsets: &self.tip_offsets };
        solver.pose_points(&pose, &mut self.points);
        let limits = &limits[..limits.len().min(n)];
        let segment = if limits.iter().any(Option::is_some) { &mut self.segment_limits[..] } else { &mut [][..] };
        let root_direction = solver.segment_limits(&pose, &self.points, limits, segment);
        let segment: &[Option<AngleLimit>] = segment;
        let report = solver
            .solve(&mut self.points, &self.effectors, segment, root_direction, settings)
            .map_err(Problem::Solver)?;
        // The solved pose before the weight (the next blending solve starts from it), then the pose written: blended
        // from the rotations the memory says (the unwritten ones while blending).
        if !solver.write_back(&pose, &self.points, 1.0, limits, rotations, &mut self.ends) {
            return Err(Problem::PoseNotFinite);
        }
        bones.pose.keep_as_solved();
        if weight < 1.0 {
            bones.pose.blend_from(bones.memory.blend_from());
            let (read, rotations) = bones.pose.pose_and_rotations();
            let pose = RigPose { parent: read.parent, bones: read.bones, tip_offsets: &self.tip_offsets };
            if !solver.write_back(&pose, &self.points, weight, limits, rotations, &mut self.ends) {
                return Err(Problem::PoseNotFinite);
            }
        }
        // Each bone's blend keeps the way round it took last frame (the ends reported stay the short way's).
        bones.pose.blend_continuously(weight, limits);
        bones::write_rotations(bones);
        let error = self.ends.iter().zip(&self.effectors).map(|(end, e)| end.distance(e.target)).fold(0.0, f32::max);
        Ok((report, error))
    }
}
