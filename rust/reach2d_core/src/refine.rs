//! Limit-aware refinement: damped least squares (Levenberg–Marquardt) in relative-angle space.
//!
//! The unknowns are the bones' relative angles `θ_i` (bone `i`'s segment measured from its
//! parent: the last non-zero segment before it, else `root_direction`; the limits' own
//! convention). Turning `θ_i` rotates the whole sub-chain distal to joint `i`, so the tip `t`
//! moves by `dθ_i * perp(t - p_i)`: that is the Jacobian column of bone `i`.
//!
//! # Why `O(N)` per iteration
//! The task space is 2D, so the damped least-squares step
//! `Δθ = Jᵀ (J Jᵀ + λ² I)⁻¹ e` only needs the 2x2 matrix `A = Σ c_i c_iᵀ` (one pass), its
//! inverse applied to the error `e = target - t` (O(1)), and then `Δθ_i = c_i · y` per bone
//! while re-posing the chain root to tip (another pass). Nothing is stored per bone: every
//! per-bone quantity is re-derived from the joints on the fly.
//!
//! # Limits
//! After the step each limited angle is clamped into its arc. A bone already at a bound whose
//! step would push it outward is *frozen* (its column is dropped from `A` and the step is
//! re-solved: an active set, re-estimated for a few rounds). The chain is then re-posed root to
//! tip from its relative angles (lengths exact, every limited direction built from the written
//! parent segment), so the limits hold exactly in the output.
//!
//! # Step control
//! `λ²` is `mu` times the mean diagonal of `A` (scale-free). A step is first evaluated without
//! writing (the new tip only); it is written only if it brings the tip strictly closer, and
//! `mu` shrinks; otherwise `mu` grows and the pose is kept. So the distance never increases.

use core::f32::consts::TAU;

use glam::Vec2;

use crate::angle::{ChainLimits, signed_angle, wrap_angle};
use crate::geom::{TINY_SQ, unit_or};

/// A limited bone within this many radians of a bound counts as sitting on it.
const AT_BOUND: f32 = 1e-4;
/// Most active-set rounds per iteration.
const MAX_ROUNDS: u32 = 4;
const MU_START: f32 = 1e-3;
const MU_MIN: f32 = 1e-7;
/// Beyond this the step is negligible: give up (the pose is a constrained local minimum).
const MU_MAX: f32 = 1e7;
const MU_DOWN: f32 = 0.3;
const MU_UP: f32 = 8.0;
/// An accepted step that keeps more than this fraction of the distance counts as a stall.
const STALL: f32 = 0.999;
/// How far (radians) the first restart bends each joint of the current pose.
const NUDGE: f32 = 0.35;
/// Longest chain (bones) that gets restarts (their stack buffer holds this many + 1 points).
pub(crate) const RESTART_MAX_BONES: usize = 64;

/// Deterministic pseudo-random number in `[0, 1)` for restart `seed` and bone `i` (SplitMix64).
fn unit_random(seed: u32, i: usize) -> f32 {
    let mut z = (u64::from(seed) << 32 ^ i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
}

/// A bone's limit as `(mid, half width)`, or `None` when it has none (or a full-turn one).
#[inline]
fn arc(limits: &ChainLimits, i: usize) -> Option<(f32, f32)> {
    limits.get(i).filter(|l| l.width() < TAU).map(|l| (l.mid(), 0.5 * l.width()))
}

/// `true` when a bone at offset `d` from its arc's middle (half width `half`) sits on a bound
/// and the rate `g` pushes it outward.
#[inline]
fn pushes_out(d: f32, half: f32, g: f32) -> bool {
    (d >= half - AT_BOUND && g > 0.0) || (d <= AT_BOUND - half && g < 0.0)
}

/// The refinement's settings and its O(1) state.
pub(crate) struct Refiner<'a, 'l> {
    /// Bone lengths to re-pose with (FABRIK); `None` keeps the incoming segments (CCD).
    lengths: Option<&'a [f32]>,
    limits: &'a ChainLimits<'l>,
    /// Unit root direction.
    root_dir: Vec2,
    /// Largest change of one relative angle per iteration (radians, `INFINITY` = none).
    max_step: f32,
    mu: f32,
}

impl<'a, 'l> Refiner<'a, 'l> {
    pub(crate) fn new(lengths: Option<&'a [f32]>, limits: &'a ChainLimits<'l>, root_dir: Vec2, max_step: f32) -> Self {
        Self { lengths, limits, root_dir, max_step, mu: MU_START }
    }

    /// Runs up to `budget` iterations on `joints` (whose limits must already hold), starting
    /// at tip distance `distance`. Returns the iterations used and the final distance; stops
    /// early within `tol` or when nothing improves any more.
    ///
    /// When the descent stalls in a local minimum above `tol` (with limits, the reachable
    /// angles form a box and the distance can have several minima in it), it restarts from
    /// deterministic seed poses inside the limits, in a stack buffer, while budget remains, and
    /// copies a restart's result into `joints` only if it is closer. Chains longer than
    /// [`RESTART_MAX_BONES`] bones skip the restarts.
    pub(crate) fn run(
        &mut self,
        joints: &mut [Vec2],
        target: Vec2,
        tol: f32,
        budget: u32,
        distance: f32,
    ) -> (u32, f32) {
        let (mut used, mut distance) = self.descend(joints, target, tol, budget, distance);
        let n = joints.len() - 1;
        if n > RESTART_MAX_BONES {
            return (used, distance);
        }
        let mut buf = [Vec2::ZERO; RESTART_MAX_BONES + 1];
        let scratch = &mut buf[..=n];
        let mut seed = 0;
        let side = if distance > tol && used < budget { self.side(joints, target) } else { 1.0 };
        while distance > tol && used < budget {
            seed += 1;
            used += 1; // posing the seed counts as an iteration
            let d0 = self.seed_pose(scratch, joints, seed, side).distance(target);
            self.mu = MU_START;
            let (u, d) = self.descend(scratch, target, tol, budget - used, d0);
            used += u;
            if d < distance {
                joints.copy_from_slice(scratch);
                distance = d;
            }
        }
        (used, distance)
    }

    /// The side (`1` or `-1`) the restarts bend toward, so that a mirror image of the chain, its target and its
    /// limits (reflected across any line) restarts from the mirror images of the same seed poses: the side of the
    /// reference (the root direction with limits, else the first bone) the target lies on; on that line, the side of
    /// the pose's first bend; with neither, of the first off-centre limit. With none of them the input is its own
    /// mirror image and either side will do.
    fn side(&self, joints: &[Vec2], target: Vec2) -> f32 {
        let sign = |x: f32| (x != 0.0).then(|| x.signum());
        let first_bone = joints.windows(2).map(|w| w[1] - w[0]).find(|s| s.length_squared() > TINY_SQ);
        let reference = match first_bone {
            Some(bone) if !self.limits.is_active() => bone,
            _ => self.root_dir,
        };
        let mut parent = self.root_dir;
        let mut bends = joints.windows(2).filter_map(|w| {
            let s = w[1] - w[0];
            if s.length_squared() <= TINY_SQ {
                return None;
            }
            let bend = parent.perp_dot(s);
            parent = s;
            sign(bend)
        });
        sign(reference.perp_dot(target - joints[0]))
            .or_else(|| bends.next())
            .or_else(|| (0..joints.len() - 1).find_map(|i| arc(self.limits, i).and_then(|(mid, _)| sign(mid))))
            .unwrap_or(1.0)
    }

    /// Writes into `out` a pose of the chain `from` (same root, same segment lengths, or
    /// `lengths`) with pseudo-random relative angles inside the limits (free bones: anywhere),
    /// determined by `seed` and turned to `side` (see [`Refiner::side`]). Returns its tip.
    fn seed_pose(&self, out: &mut [Vec2], from: &[Vec2], seed: u32, side: f32) -> Vec2 {
        let root = from[0];
        out[0] = root;
        let mut prev = root;
        let mut parent = self.root_dir;
        for (i, w) in from.windows(2).enumerate() {
            let s = w[1] - w[0];
            let len2 = s.length_squared();
            let placed = if len2 <= TINY_SQ {
                prev + s
            } else {
                let angle = if seed == 1 {
                    // First, a nudge of the current pose: bending every joint a little (alternating
                    // sides) breaks a stationary point such as a chain folded along the target line,
                    // and starts the descent close to where the chain already is.
                    let nudge = side * if i % 2 == 0 { NUDGE } else { -NUDGE };
                    let current = signed_angle(parent, s) + nudge;
                    arc(self.limits, i)
                        .map_or(current, |(mid, half)| mid + wrap_angle(current - mid).clamp(-half, half))
                } else {
                    let r = unit_random(seed, i);
                    match arc(self.limits, i) {
                        Some((mid, half)) => mid + side * half * (2.0 * r - 1.0),
                        None => side * TAU * (r - 0.5),
                    }
                };
                let dir = parent.rotate(Vec2::from_angle(angle));
                let p = prev + dir * self.lengths.map_or_else(|| len2.sqrt(), |l| l[i]);
                parent = unit_or(p - prev, dir);
                p
            };
            out[i + 1] = placed;
            prev = placed;
        }
        prev
    }

    /// Damped least squares from the pose in `joints` until within `tol`, out of budget, or
    /// stalled. Returns the iterations used and the final distance.
    fn descend(&mut self, joints: &mut [Vec2], target: Vec2, tol: f32, budget: u32, distance: f32) -> (u32, f32) {
        let n = joints.len() - 1;
        let mut used = 0;
        let mut distance = distance;
        while used < budget && distance > tol {
            used += 1;
            let tip = joints[n];
            let Some((y, freeze)) = self.direction(joints, tip, target - tip) else {
                break;
            };
            let trial = self.apply::<false>(joints, tip, y, freeze).distance(target);
            if trial == distance {
                // No bone moves: a stationary point (e.g. a chain folded along the line to the target,
                // where every Jacobian column is perpendicular to the error). More damping cannot help;
                // leave the budget to the restarts.
                break;
            }
            if trial < distance {
                let before = distance;
                distance = self.apply::<true>(joints, tip, y, freeze).distance(target);
                self.mu = (self.mu * MU_DOWN).max(MU_MIN);
                if distance > STALL * before {
                    break;
                }
            } else {
                self.mu *= MU_UP;
                if self.mu > MU_MAX {
                    break;
                }
            }
        }
        (used, distance)
    }

    /// Solves for `y = (A + λ² I)⁻¹ e` with the active set, so that `Δθ_i = c_i · y`.
    /// Returns `y` and the vector `freeze` that decided the frozen bones (a bone on a bound is
    /// frozen when `c_i · freeze` pushes it out), or `None` when no bone can move.
    fn direction(&self, joints: &[Vec2], tip: Vec2, e: Vec2) -> Option<(Vec2, Vec2)> {
        let mut freeze = e; // first guess: the gradient's direction
        let mut last_frozen = usize::MAX;
        let mut round = 0;
        loop {
            round += 1;
            let (a11, a12, a22, frozen) = self.normal_matrix(joints, tip, freeze);
            let trace = a11 + a22;
            if trace.is_nan() || trace <= 0.0 {
                return None;
            }
            // Normalize by the trace so that nothing overflows whatever the scale.
            let (a11, a12, a22) = (a11 / trace, a12 / trace, a22 / trace);
            let l2 = 0.5 * self.mu;
            let (b11, b22) = (a11 + l2, a22 + l2);
            let det = b11 * b22 - a12 * a12;
            if det.is_nan() || det <= 0.0 {
                return None;
            }
            let y = Vec2::new(b22 * e.x - a12 * e.y, b11 * e.y - a12 * e.x) / (det * trace);
            if round >= MAX_ROUNDS || frozen == last_frozen {
                return y.is_finite().then_some((y, freeze));
            }
            last_frozen = frozen;
            freeze = y;
        }
    }

    /// `A = Σ c_i c_iᵀ` over the movable bones (upper triangle) and the number of frozen ones.
    fn normal_matrix(&self, joints: &[Vec2], tip: Vec2, freeze: Vec2) -> (f32, f32, f32, usize) {
        let (mut a11, mut a12, mut a22) = (0.0, 0.0, 0.0);
        let mut frozen = 0;
        let mut parent = self.root_dir; // need not be unit for `signed_angle`
        for (i, w) in joints.windows(2).enumerate() {
            let s = w[1] - w[0];
            if s.length_squared() <= TINY_SQ {
                continue;
            }
            let c = (tip - w[0]).perp();
            if let Some((mid, half)) = arc(self.limits, i) {
                let d = wrap_angle(signed_angle(parent, s) - mid);
                if pushes_out(d, half, c.dot(freeze)) {
                    frozen += 1;
                    parent = s;
                    continue;
                }
            }
            parent = s;
            a11 += c.x * c.x;
            a12 += c.x * c.y;
            a22 += c.y * c.y;
        }
        (a11, a12, a22, frozen)
    }

    /// Applies the step `Δθ_i = c_i · y` (frozen bones 0, capped at `max_step`, limited angles
    /// clamped) and re-poses root to tip. Returns the new tip; writes `joints` only if `WRITE`
    /// (the same arithmetic either way, so a trial predicts the written tip exactly).
    fn apply<const WRITE: bool>(&self, joints: &mut [Vec2], tip: Vec2, y: Vec2, freeze: Vec2) -> Vec2 {
        let n = joints.len() - 1;
        let root = joints[0];
        let mut prev_old = root;
        let mut prev_new = root;
        let mut parent_old = self.root_dir; // raw old parent segment (for `signed_angle`)
        let mut parent_old_unit = self.root_dir;
        let mut parent_new = self.root_dir; // unit, measured from the new positions
        for i in 0..n {
            let next_old = joints[i + 1];
            let s = next_old - prev_old;
            let len2 = s.length_squared();
            let placed = if len2 <= TINY_SQ {
                prev_new + s
            } else {
                let len = len2.sqrt();
                let u = s / len;
                let c = (tip - prev_old).perp();
                let step = c.dot(y).clamp(-self.max_step, self.max_step);
                let dir = if let Some((mid, half)) = arc(self.limits, i) {
                    let d = wrap_angle(signed_angle(parent_old, s) - mid);
                    let step = if pushes_out(d, half, c.dot(freeze)) { 0.0 } else { step };
                    parent_new.rotate(Vec2::from_angle(mid + (d + step).clamp(-half, half)))
                } else {
                    let rel = Vec2::new(parent_old_unit.dot(u), parent_old_unit.perp_dot(u));
                    parent_new.rotate(rel.rotate(Vec2::from_angle(step)))
                };
                let out_len = self.lengths.map_or(len, |l| l[i]);
                let p = prev_new + dir * out_len;
                parent_old = s;
                parent_old_unit = u;
                parent_new = unit_or(p - prev_new, dir);
                p
            };
            if WRITE {
                joints[i + 1] = placed;
            }
            prev_old = next_old;
            prev_new = placed;
        }
        prev_new
    }
}
