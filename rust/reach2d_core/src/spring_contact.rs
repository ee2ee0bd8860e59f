//! Colliders for the spring ([`collide_spring`]): after a step, each bone's end is kept outside the world's shapes,
//! sliding along them. The world is the caller's ([`SpringCollider`]: in Godot, the physics space), so this file
//! only does plane geometry.
//!
//! # What it guarantees
//!
//! Bone by bone from the root, the end's motion since the last step (a straight line from where it was written
//! to where the step wants it) is swept as a circle of the bone's radius: a contact stops it at the first touch,
//! however fast it moved and however long the frame was, so it never passes through a wall, however thin. The
//! end then slides: of the points it can reach (a circle around the bone's origin), it takes the first point on
//! the free side of the contact's tangent line that the bone meets turning from where it was toward where it
//! wanted to go ([`slide_on_circle`]). A query pushes an end that a moving body (or a reset, or a turn) left inside
//! a shape out along that shape's normal; if that leaves it in another shape (a corner), a second query and the
//! point clear of every surface met. The bone's angular velocity loses
//! its component into the surface (`ω ← ω·(1 − s²)`, `s` the sine between the end's path and the surface), so a
//! contact never adds kinetic energy and never bounces; and where moving an end out turned its bone further from
//! its goal than the step had it, the velocities give that energy back, so the chain's `Σ ½ω² + ½k·x²` after
//! the contacts is at most what the step left (or the chain is at rest). A wall that holds a bone while its parent
//! swings on bends it, turning the parent's motion into spring energy over the next frames: the energy then rises,
//! but never above what the chain had before it touched (tested). Angle limits win over contacts.
//!
//! Every step here is plain vector geometry (dot products, signed angles, a circle and a line), so a mirrored
//! chain against a mirrored world gives the mirrored result. What can differ is the caller's input: coordinates
//! on another float grid, a physics engine's answers whose last bits differ in a mirrored world; a long sliding
//! contact can grow that (see the tests). A contact that is not finite is ignored, so no NaN reaches the state.

use glam::Vec2;

use crate::angle::{signed_angle, wrap_angle};
use crate::spring::{RIGID_LENGTH, SpringBone, SpringFrame, SpringGoal, SpringScale, SpringSettings, spring_energy};

/// How far outside a surface an end is put back, caller units (px): enough that the next sweep starts outside
/// the shape (a sweep ignores a shape it starts in), too little to see.
pub const CONTACT_SKIN: f32 = 0.01;

/// The caller's world: shape queries of a circle in the chain's (global) frame.
pub trait SpringCollider {
    /// Moves a circle of `radius` from `from` by `motion`: `Some((point, normal))` when it touches a shape on the
    /// way, a point on that shape's surface where it first touches and the surface's outward normal there (the
    /// contact's tangent line; it need not be the exact first point); `None` when the whole motion is free.
    /// Shapes the circle already overlaps at `from` may be ignored.
    fn sweep(&mut self, from: Vec2, motion: Vec2, radius: f32) -> Option<(Vec2, Vec2)>;

    /// The deepest overlap of a circle of `radius` at `at`: `Some((point, normal))`, a point on the shape's
    /// surface and its outward normal; `None` when it overlaps nothing.
    fn overlap(&mut self, at: Vec2, radius: f32) -> Option<(Vec2, Vec2)>;

    /// `false` when no shape overlaps the circle of `radius` around `centre`: the whole chain, where it was and
    /// where it goes, lies inside it, so no other query is needed this step. One query per chain.
    fn anything_near(&mut self, _centre: Vec2, _radius: f32) -> bool {
        true
    }
}

/// How many times an end is queried for an overlap after its sweep: the first push-out, and one more for a
/// corner, where the push out of one shape can end inside another.
pub const OVERLAP_PASSES: usize = 2;

/// A line the end's centre must stay on the `normal` side of: `(p - point) · normal >= 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// A point of the line.
    pub point: Vec2,
    /// The free side's unit normal.
    pub normal: Vec2,
}

impl Contact {
    /// A contact from a point and any normal; `None` when either is not finite or the normal is zero.
    #[must_use]
    pub fn new(point: Vec2, normal: Vec2) -> Option<Self> {
        let normal = normal.try_normalize()?;
        point.is_finite().then_some(Self { point, normal })
    }

    /// The line moved `by` along its normal.
    #[must_use]
    pub fn lifted(self, by: f32) -> Self {
        Self { point: self.point + self.normal * by, ..self }
    }

    /// `true` when `p` is on the free side (or on the line).
    #[must_use]
    pub fn allows(&self, p: Vec2) -> bool {
        (p - self.point).dot(self.normal) >= 0.0
    }
}

/// Where an end that wants to be at `wanted` (on the circle around `centre` of `radius`, the bone's reach) can
/// be: `wanted` itself when it is on the free side of every one of `contacts`, else where the circle crosses a
/// contact's line, free of all of them (the end slides along the surface; two contacts make a corner).
///
/// Of those crossings it takes the first one the bone meets turning from `came_from` (where the end was, on the
/// same circle) toward `wanted`: a bone that swings into a surface stops on the side it came from. Without
/// `came_from`, or when no crossing lies on that turn (the end was already inside: a reset, a moving body), the
/// crossing nearest to `wanted`. Both rules use only signed angles and distances, so a mirrored input gives the
/// mirrored answer; the first also keeps the answer from jumping to the far side of a shape when `wanted` lies
/// straight through it, where the nearest crossing would flip on the last bit. `None` when no point of the circle
/// is free of every contact.
#[must_use]
pub fn slide_on_circle(
    centre: Vec2,
    radius: f32,
    wanted: Vec2,
    came_from: Option<Vec2>,
    contacts: &[Option<Contact>],
) -> Option<Vec2> {
    let free = |p: Vec2| contacts.iter().flatten().all(|c| (p - c.point).dot(c.normal) >= -CONTACT_SKIN * 0.5);
    if free(wanted) {
        return Some(wanted);
    }
    if !(radius.is_finite() && centre.is_finite()) {
        return None;
    }
    // The turn from where the end was toward where it wants to go, when where it was is free.
    let turn = came_from.filter(|&p| p.is_finite() && free(p)).map(|p| {
        let from = p - centre;
        (from, signed_angle(from, wanted - centre))
    });
    // The best crossing by each rule, with its score: the angle turned to reach it, the distance² to `wanted`.
    let mut first: Option<(f32, Vec2)> = None;
    let mut nearest: Option<(f32, Vec2)> = None;
    for contact in contacts.iter().flatten() {
        let distance = (centre - contact.point).dot(contact.normal);
        if !(distance.abs() <= radius && distance.is_finite()) {
            continue;
        }
        let foot = centre - contact.normal * distance;
        let along = contact.normal.perp() * (radius * radius - distance * distance).max(0.0).sqrt();
        for crossing in [foot + along, foot - along] {
            if !(crossing.is_finite() && free(crossing)) {
                continue;
            }
            let away = crossing.distance_squared(wanted);
            if nearest.is_none_or(|(d, _)| away < d) {
                nearest = Some((away, crossing));
            }
            if let Some((from, total)) = turn {
                let at = signed_angle(from, crossing - centre);
                let on_the_way = at.abs() <= TURN_EPSILON || (at * total > 0.0 && at.abs() <= total.abs());
                if on_the_way && first.is_none_or(|(a, _)| at.abs() < a) {
                    first = Some((at.abs(), crossing));
                }
            }
        }
    }
    first.or(nearest).map(|(_, p)| p)
}

/// Radians within which a crossing counts as where the end already was (an end resting on a surface).
const TURN_EPSILON: f32 = 1e-4;

/// The angular velocity left after a contact: the end's velocity (`ω·L` along `perp(direction)`) loses its
/// component into the surface, and the bone keeps what its one degree of freedom can still do:
/// `ω·(1 − s²)` with `s = perp(direction) · normal`, when moving into the surface; unchanged when moving away.
/// Never larger in magnitude than `velocity`.
#[must_use]
pub fn slide_velocity(velocity: f32, direction: Vec2, normal: Vec2) -> f32 {
    let s = direction.perp().dot(normal);
    if velocity * s < 0.0 { velocity * (1.0 - s * s).clamp(0.0, 1.0) } else { velocity }
}

/// The bones' ends for [`collide_spring`]: how large they are and where they were.
#[derive(Clone, Copy, Debug)]
pub struct SpringEnds<'a> {
    /// Each bone's radius, caller units (one per bone; 0 = not queried).
    pub radii: &'a [f32],
    /// The joints written at the last step (`N + 1`), where the sweeps start; `None` right after a reset.
    pub previous: Option<&'a [Vec2]>,
}

/// Keeps each bone's end outside the caller's world after [`step_spring`](crate::step_spring), bone by bone from
/// the root, and writes the moved joints into `out` (as `step_spring` wrote them, `N + 1`). `goal` and `settings`
/// are the step's (its limits hold; its stiffness measures the energy); `ends` gives each bone's radius (a bone
/// with radius 0 or a rigid bone still moves with its parent but is not queried) and the joints written at the
/// last step (the sweeps start there; `None` right after a reset: only overlaps are resolved). Returns how many
/// ends touched.
///
/// A bone that touches has its angle and velocity changed in `bones` (see the module docs); a chain that touches
/// nothing is left bit for bit as it was. Never panics; a contact that is not finite is ignored. Allocates nothing.
pub fn collide_spring(
    frame: &SpringFrame,
    bones: &mut [SpringBone],
    goal: &SpringGoal,
    settings: &SpringSettings,
    ends: SpringEnds<'_>,
    out: &mut [Vec2],
    collider: &mut (impl SpringCollider + ?Sized),
) -> u32 {
    let SpringEnds { radii, previous } = ends;
    if out.len() != bones.len() + 1 || radii.len() != bones.len() {
        return 0;
    }
    let previous = previous.filter(|p| p.len() == out.len());
    let (centre, reach) = bounds(out, previous.unwrap_or(&[]), radii);
    if !(reach.is_finite() && collider.anything_near(centre, reach)) {
        return 0;
    }
    let limits = &goal.limits;
    let energy = spring_energy(bones, settings, goal.scales);
    let mut contacts = 0;
    let mut moved = false;
    let mut absolute = frame.root_angle();
    let mut old_start = out[0];
    for (i, bone) in bones.iter_mut().enumerate() {
        let start = out[i];
        let old_end = out[i + 1];
        if bone.length <= RIGID_LENGTH {
            out[i + 1] = start + (old_end - old_start);
            old_start = old_end;
            continue;
        }
        old_start = old_end;
        let parent = absolute;
        absolute += bone.angle;
        let wanted = if moved { start + Vec2::from_angle(absolute) * bone.length } else { old_end };
        out[i + 1] = wanted;
        let radius = radii[i];
        if !(radius > 0.0 && wanted.is_finite()) {
            continue;
        }
        let mut end = wanted;
        // Where the end was at the last step, on this bone's circle now (its direction then, from here).
        let came_from =
            previous.and_then(|p| (p[i + 1] - p[i]).try_normalize()).map(|direction| start + direction * bone.length);
        // The contacts this end met, as lines its centre must stay beyond: the sweep's first touch, then each
        // shape a query still finds it in (a corner: the slide off one surface can end inside the next).
        let mut touched = [None; 1 + OVERLAP_PASSES];
        if let Some(from) = previous.map(|p| p[i + 1]).filter(|p| p.is_finite())
            && let Some((point, normal)) = collider.sweep(from, end - from, radius)
            && let Some(surface) = Contact::new(point, normal)
        {
            touched[0] = Some(surface.lifted(radius + CONTACT_SKIN));
            if let Some(slid) = slide_on_circle(start, bone.length, wanted, came_from, &touched) {
                end = slid;
            }
        }
        for pass in 1..=OVERLAP_PASSES {
            let Some((point, normal)) = collider.overlap(end, radius) else { break };
            let Some(surface) = Contact::new(point, normal) else { break };
            let contact = surface.lifted(radius + CONTACT_SKIN);
            if pass > 1 && contact.allows(end + contact.normal * CONTACT_SKIN) {
                // The surface it was just put beside (a query within the skin of it): no corner.
                break;
            }
            touched[pass] = Some(contact);
            match slide_on_circle(start, bone.length, wanted, came_from, &touched)
                .or_else(|| slide_on_circle(start, bone.length, end, None, &[Some(contact)]))
            {
                Some(slid) => end = slid,
                None => break,
            }
        }
        if touched.iter().all(Option::is_none) {
            continue;
        }
        let direction = (end - start).try_normalize().unwrap_or(Vec2::from_angle(absolute));
        let mut angle = signed_angle(Vec2::from_angle(parent), direction);
        let mut velocity = bone.velocity;
        for contact in touched.into_iter().flatten() {
            velocity = slide_velocity(velocity, direction, contact.normal);
        }
        if let Some(limit) = limits.get(i)
            && !limit.contains(angle, 0.0)
        {
            angle = wrap_angle(limit.clamp(angle));
            velocity = 0.0;
        }
        if !(angle.is_finite() && velocity.is_finite()) {
            continue;
        }
        contacts += 1;
        bone.angle = angle;
        bone.velocity = velocity;
        absolute = parent + angle;
        out[i + 1] = start + Vec2::from_angle(absolute) * bone.length;
        moved = true;
    }
    if contacts > 0 {
        keep_energy(bones, settings, goal.scales, energy);
    }
    contacts
}

/// A circle holding every joint of `out` and `previous`, grown by the largest radius and the skin.
fn bounds(out: &[Vec2], previous: &[Vec2], radii: &[f32]) -> (Vec2, f32) {
    let (lo, hi) = out
        .iter()
        .chain(previous)
        .fold((Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let largest = radii.iter().fold(0.0f32, |a, &r| a.max(r));
    ((lo + hi) * 0.5, (hi - lo).length() * 0.5 + largest + CONTACT_SKIN)
}

/// Where moving the ends out of the world turned a bone further from its goal than the step had it, the spring
/// would gain energy the wall never gave: the velocities give it back (scaled down until `Σ ½ω² + ½k·x²` is at
/// most `energy`, or to rest).
fn keep_energy(bones: &mut [SpringBone], settings: &SpringSettings, scales: &[SpringScale], energy: f32) {
    let after = spring_energy(bones, settings, scales);
    if after <= energy || !after.is_finite() {
        return;
    }
    let kinetic: f32 = bones.iter().map(|b| 0.5 * b.velocity * b.velocity).sum();
    let room = kinetic - (after - energy);
    let factor = if kinetic > 0.0 && room > 0.0 { (room / kinetic).sqrt() } else { 0.0 };
    for bone in bones.iter_mut() {
        bone.velocity *= factor;
    }
}

#[cfg(test)]
mod tests;
