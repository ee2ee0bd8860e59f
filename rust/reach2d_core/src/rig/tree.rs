//! The rig's tree ([`FabrikRig`]): bones numbered parents first, the points each bone carries, and the buffers its
//! solves work in, built once per rig shape.

use glam::{Affine2, Vec2};

use crate::error::SolveError;

/// Squared length below which a bone's axis has no direction (its limit is skipped).
pub(super) const DEGENERATE_SQ: f32 = 1.0e-12;

/// A tree of bones with end effectors, and the buffers its solves work in.
///
/// Bones are numbered parents first: bone 0 is the root, and each other bone's parent has a smaller index. *Points*
/// are the `bones` bone origins followed by one end per effector (`points.len() == bones + effectors`). Built once
/// per rig shape ([`FabrikRig::new`] allocates); solving allocates nothing.
#[derive(Clone, Debug)]
pub struct FabrikRig {
    /// Per bone: its parent (root: 0, unused).
    pub(super) parents: Vec<usize>,
    /// Per effector: its tip bone.
    pub(super) tips: Vec<usize>,
    /// Per bone: its carried points, `carried[first[i]..first[i + 1]]`, the first of them its axis point.
    pub(super) first: Vec<usize>,
    pub(super) carried: Vec<usize>,
    /// Per point: its offset from its carrier's origin in the pose the solve started from (global units).
    pub(super) shape: Vec<Vec2>,
    /// Per bone: its turn since the start pose, a unit complex number.
    pub(super) turn: Vec<Vec2>,
    /// Per point: the effector weight that pulls through it.
    pub(super) weight: Vec<f32>,
    /// Per point: its position after the last forward pass (to tell when the iteration has settled).
    pub(super) last: Vec<Vec2>,
    /// Per point: the start of this solve (the result when the passes ended clearly worse).
    pub(super) start: Vec<Vec2>,
    /// Per bone, when the rig is one chain (one effector, each bone the next one's parent): its length in the solve's
    /// start pose, for [`solve_fabrik`](crate::solve_fabrik); empty otherwise.
    pub(super) chain_lengths: Vec<f32>,
    /// Per bone: the bone's global transform, for the engine-side helpers (written, then solved).
    pub(super) globals: Vec<Affine2>,
    pub(super) solved: Vec<Affine2>,
}

impl FabrikRig {
    /// A rig of `parents.len()` bones (`parents[0]` is ignored; `parents[i] < i` for the others) and one effector
    /// per entry of `tips` (a bone index). A tip bone may not carry another bone of the rig: its end is its only
    /// carried point.
    ///
    /// # Errors
    /// [`SolveError::EmptyChain`] without a bone or an effector; [`SolveError::InvalidTree`] when a parent does not
    /// come before its child, a tip is out of range, named twice or has a child bone, or a bone other than a tip
    /// has no child (a branch that leads to no effector).
    pub fn new(parents: &[usize], tips: &[usize]) -> Result<Self, SolveError> {
        let (n, e) = (parents.len(), tips.len());
        if n == 0 || e == 0 {
            return Err(SolveError::EmptyChain);
        }
        if parents.iter().enumerate().skip(1).any(|(i, &p)| p >= i) {
            return Err(SolveError::InvalidTree);
        }
        let mut children = vec![0usize; n];
        for &p in &parents[1..] {
            children[p] += 1;
        }
        let mut tipped = vec![false; n];
        for &t in tips {
            if t >= n || tipped[t] || children[t] > 0 {
                return Err(SolveError::InvalidTree);
            }
            tipped[t] = true;
        }
        if (0..n).any(|i| children[i] == 0 && !tipped[i]) {
            return Err(SolveError::InvalidTree);
        }
        let carrier = |p: usize| if p < n { parents[p] } else { tips[p - n] };
        let mut first = Vec::with_capacity(n + 1);
        let mut carried = Vec::with_capacity(n + e - 1);
        for i in 0..n {
            first.push(carried.len());
            carried.extend((1..n + e).filter(|&p| carrier(p) == i));
        }
        first.push(carried.len());
        let is_chain = e == 1 && parents.iter().enumerate().skip(1).all(|(i, &p)| p + 1 == i);
        Ok(Self {
            parents: parents.to_vec(),
            tips: tips.to_vec(),
            first,
            carried,
            shape: vec![Vec2::ZERO; n + e],
            turn: vec![Vec2::X; n],
            weight: vec![0.0; n + e],
            last: vec![Vec2::ZERO; n + e],
            start: vec![Vec2::ZERO; n + e],
            chain_lengths: if is_chain { vec![0.0; n] } else { Vec::new() },
            globals: vec![Affine2::IDENTITY; n],
            solved: vec![Affine2::IDENTITY; n],
        })
    }

    /// Number of bones.
    #[must_use]
    pub fn bone_count(&self) -> usize {
        self.parents.len()
    }

    /// Number of effectors.
    #[must_use]
    pub fn effector_count(&self) -> usize {
        self.tips.len()
    }

    /// Number of points: the bone origins, then one end per effector.
    #[must_use]
    pub fn point_count(&self) -> usize {
        self.parents.len() + self.tips.len()
    }

    /// Bone `i`'s parent (`None` for the root or an index out of range).
    #[must_use]
    pub fn parent(&self, i: usize) -> Option<usize> {
        (i > 0).then(|| self.parents.get(i).copied()).flatten()
    }

    /// Bone `i`'s axis point: the first point it carries (its first child's origin, or a tip's end).
    pub(super) fn axis_point(&self, i: usize) -> usize {
        self.carried[self.first[i]]
    }

    /// The points bone `i` carries.
    pub(super) fn carried_by(&self, i: usize) -> core::ops::Range<usize> {
        self.first[i]..self.first[i + 1]
    }

    /// The bone whose shape holds point `p` (`p >= 1`).
    pub(super) fn carrier(&self, p: usize) -> usize {
        let n = self.parents.len();
        if p < n { self.parents[p] } else { self.tips[p - n] }
    }

    /// The unit direction bone `i`'s limit is measured from: its nearest ancestor's axis that has one, else
    /// `root_dir`.
    pub(super) fn reference(&self, points: &[Vec2], i: usize, root_dir: Vec2) -> Vec2 {
        let mut bone = i;
        while bone > 0 {
            bone = self.parents[bone];
            let axis = points[self.axis_point(bone)] - points[bone];
            if axis.length_squared() > DEGENERATE_SQ {
                return axis.normalize();
            }
        }
        root_dir
    }
}
