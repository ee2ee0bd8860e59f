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
mod tests {
    use super::*;
    use crate::{ChainLimits, step_spring};

    /// Axis-aligned boxes; a circle is taken as its centre against the box grown by the radius.
    struct Boxes(Vec<(Vec2, Vec2)>);

    impl Boxes {
        fn grown(&self, radius: f32) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
            self.0.iter().map(move |&(lo, hi)| (lo - Vec2::splat(radius), hi + Vec2::splat(radius)))
        }
        fn mirrored(&self) -> Self {
            Self(self.0.iter().map(|&(lo, hi)| (Vec2::new(-hi.x, lo.y), Vec2::new(-lo.x, hi.y))).collect())
        }
    }

    fn inside(p: Vec2, lo: Vec2, hi: Vec2) -> bool {
        p.cmpgt(lo).all() && p.cmplt(hi).all()
    }

    impl SpringCollider for Boxes {
        fn sweep(&mut self, from: Vec2, motion: Vec2, radius: f32) -> Option<(Vec2, Vec2)> {
            let mut best: Option<(f32, Vec2)> = None;
            for (lo, hi) in self.grown(radius) {
                if inside(from, lo, hi) {
                    continue;
                }
                let (mut enter, mut exit, mut normal) = (f32::NEG_INFINITY, 1.0f32, Vec2::ZERO);
                for axis in 0..2 {
                    let (f, m, l, h) = (from[axis], motion[axis], lo[axis], hi[axis]);
                    if m == 0.0 {
                        if f < l || f > h {
                            exit = -1.0;
                        }
                        continue;
                    }
                    let (t0, t1) = ((l - f) / m, (h - f) / m);
                    let (near, far, n) = if t0 < t1 { (t0, t1, -1.0) } else { (t1, t0, 1.0) };
                    if near > enter {
                        enter = near;
                        normal = Vec2::ZERO;
                        normal[axis] = n;
                    }
                    exit = exit.min(far);
                }
                if (0.0..=exit).contains(&enter) && normal != Vec2::ZERO && best.is_none_or(|(t, _)| enter < t) {
                    best = Some((enter, normal));
                }
            }
            best.map(|(t, normal)| (from + motion * t - normal * radius, normal))
        }

        fn anything_near(&mut self, centre: Vec2, radius: f32) -> bool {
            self.grown(radius).any(|(lo, hi)| centre.cmpge(lo).all() && centre.cmple(hi).all())
        }

        fn overlap(&mut self, at: Vec2, radius: f32) -> Option<(Vec2, Vec2)> {
            let (&(lo, hi), (glo, ghi)) =
                self.0.iter().zip(self.grown(radius)).find(|(_, (l, h))| inside(at, *l, *h))?;
            let faces = [
                (at.x - glo.x, Vec2::new(lo.x, at.y), -Vec2::X),
                (ghi.x - at.x, Vec2::new(hi.x, at.y), Vec2::X),
                (at.y - glo.y, Vec2::new(at.x, lo.y), -Vec2::Y),
                (ghi.y - at.y, Vec2::new(at.x, hi.y), Vec2::Y),
            ];
            let nearest = faces.iter().min_by(|a, b| a.0.total_cmp(&b.0))?;
            Some((nearest.1, nearest.2))
        }
    }

    struct Sim {
        frame: SpringFrame,
        bones: Vec<SpringBone>,
        out: Vec<Vec2>,
        previous: Vec<Vec2>,
        primed: bool,
    }

    impl Sim {
        fn new(n: usize) -> Self {
            let joints = vec![Vec2::ZERO; n + 1];
            Self {
                frame: SpringFrame::default(),
                bones: vec![SpringBone::default(); n],
                out: joints.clone(),
                previous: joints,
                primed: false,
            }
        }
        fn step(
            &mut self,
            joints: &[Vec2],
            settings: &SpringSettings,
            delta: f32,
            radius: f32,
            world: &mut Boxes,
        ) -> u32 {
            let goal = SpringGoal { joints, limits: ChainLimits::NONE, scales: &[] };
            step_spring(&mut self.frame, &mut self.bones, &goal, settings, delta, &mut self.out).expect("valid");
            let radii = vec![radius; self.bones.len()];
            let previous = self.primed.then_some(&self.previous[..]);
            let contacts = collide_spring(
                &self.frame,
                &mut self.bones,
                &goal,
                settings,
                SpringEnds { radii: &radii, previous },
                &mut self.out,
                world,
            );
            self.previous.copy_from_slice(&self.out);
            self.primed = true;
            contacts
        }
    }

    /// A chain from `root` along the absolute `angle`, straight.
    fn straight(root: Vec2, lengths: &[f32], angle: f32) -> Vec<Vec2> {
        let mut out = vec![root];
        for l in lengths {
            out.push(*out.last().unwrap() + Vec2::from_angle(angle) * *l);
        }
        out
    }

    #[test]
    fn sliding_on_a_circle_stays_on_it_and_on_the_free_side() {
        let floor = Contact::new(Vec2::new(0.0, 50.0), -Vec2::Y).unwrap();
        let centre = Vec2::ZERO;
        // Wanted straight down through the floor at y = 50, bone 80 long: it ends where the circle meets the floor,
        // on the side it came from.
        let wanted = Vec2::new(-1.0, 80.0).normalize() * 80.0;
        let slid = slide_on_circle(centre, 80.0, wanted, None, &[Some(floor)]).unwrap();
        assert!((slid.length() - 80.0).abs() < 1e-3 && (slid.y - 50.0).abs() < 1e-3 && slid.x < 0.0, "{slid}");
        assert_eq!(
            slide_on_circle(centre, 80.0, Vec2::new(0.0, -80.0), None, &[Some(floor)]),
            Some(Vec2::new(0.0, -80.0))
        );
        // The whole circle below a ceiling: no answer.
        assert_eq!(slide_on_circle(Vec2::new(0.0, 200.0), 80.0, Vec2::new(0.0, 280.0), None, &[Some(floor)]), None);
        assert!(Contact::new(Vec2::ZERO, Vec2::new(f32::NAN, 1.0)).is_none());
        assert!(Contact::new(Vec2::ZERO, Vec2::ZERO).is_none());
        assert!(Contact::new(Vec2::new(f32::INFINITY, 0.0), Vec2::Y).is_none());
    }

    #[test]
    fn a_bone_swinging_into_a_surface_stops_on_the_side_it_came_from() {
        // A bone of 80 px from the origin, a floor whose free side is y < 40. The bone swings from pointing right
        // (free) to pointing a little left of straight down: the crossing nearest to where it wants to go is the
        // left one, on the far side of the floor's patch it would sweep through; it must stop at the right one.
        let floor = Contact::new(Vec2::new(0.0, 40.0), Vec2::new(0.0, -1.0)).unwrap();
        let came_from = Vec2::new(80.0, 0.0);
        let wanted = Vec2::from_angle(std::f32::consts::FRAC_PI_2 + 0.2) * 80.0;
        let stop = slide_on_circle(Vec2::ZERO, 80.0, wanted, Some(came_from), &[Some(floor)]).unwrap();
        assert!(stop.x > 0.0 && (stop.y - 40.0).abs() < 1e-3, "stopped at {stop}");
        // Without where it came from, the nearest crossing.
        let nearest = slide_on_circle(Vec2::ZERO, 80.0, wanted, None, &[Some(floor)]).unwrap();
        assert!(nearest.x < 0.0, "nearest {nearest}");
        // Mirrored: the mirrored answer, bit for bit.
        let m = |v: Vec2| Vec2::new(-v.x, v.y);
        let mirrored = slide_on_circle(Vec2::ZERO, 80.0, m(wanted), Some(m(came_from)), &[Some(floor)]).unwrap();
        assert_eq!(mirrored, m(stop));
    }

    #[test]
    fn a_contact_never_speeds_a_bone_up() {
        for i in 0..64 {
            let direction = Vec2::from_angle(i as f32 * 0.1);
            let normal = Vec2::from_angle(i as f32 * 0.37 + 1.0);
            for velocity in [-5.0, -0.5, 0.0, 0.5, 5.0] {
                let after = slide_velocity(velocity, direction, normal);
                assert!(after.abs() <= velocity.abs() && after * velocity >= 0.0);
                // Mirrored: the same magnitude, the mirrored sign.
                let m = |v: Vec2| Vec2::new(-v.x, v.y);
                assert_eq!(slide_velocity(-velocity, m(direction), m(normal)), -after);
            }
        }
    }

    fn floor_world() -> Boxes {
        // A floor whose top is at y = 100, from x = -400 to 400.
        Boxes(vec![(Vec2::new(-400.0, 100.0), Vec2::new(400.0, 140.0))])
    }

    #[test]
    fn a_tail_hanging_over_a_floor_rests_on_it_and_still_swings() {
        let lengths = [40.0, 40.0, 40.0];
        let settings = SpringSettings {
            stiffness: 5.0,
            damping: 2.0,
            gravity: Vec2::new(0.0, 980.0),
            ..SpringSettings::default()
        };
        let radius = 6.0;
        let mut world = floor_world();
        let mut sim = Sim::new(3);
        let mut xs = Vec::new();
        for frame in 0..600 {
            let t = frame as f32 / 60.0;
            // The root 60 px above the floor, swaying right and left; the tail would hang 60 px into the floor.
            let root = Vec2::new(80.0 * (1.5 * t).sin(), 40.0);
            sim.step(&straight(root, &lengths, 0.3), &settings, 1.0 / 60.0, radius, &mut world);
            for p in &sim.out[1..] {
                assert!(p.y <= 100.0 - radius + 1e-3, "frame {frame}: an end at {p} is inside the floor");
                assert!(p.is_finite());
            }
            xs.push(sim.out[3].x);
        }
        // Resting on the floor: the tip is within a hair of it, and it still follows the sway.
        assert!((sim.out[3].y - (100.0 - radius)).abs() < 0.5, "tip at {}", sim.out[3]);
        let (lo, hi) = xs[300..].iter().fold((f32::MAX, f32::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        assert!(hi - lo > 100.0, "the tip swept {lo}..{hi}");
    }

    #[test]
    fn a_tail_thrown_at_a_thin_wall_does_not_pass() {
        let lengths = [50.0, 50.0, 50.0, 50.0];
        // A 1 px wall at x = 120, 400 px high; the root spins the tail into it at up to 60 rad/s, at 30 and 10 fps.
        for delta in [1.0 / 30.0, 0.1] {
            let mut world = Boxes(vec![(Vec2::new(120.0, -200.0), Vec2::new(121.0, 200.0))]);
            let settings = SpringSettings { stiffness: 3000.0, damping: 1.0, ..SpringSettings::default() };
            let mut sim = Sim::new(4);
            let mut contacts = 0;
            for frame in 0..120 {
                let angle =
                    core::f32::consts::PI - (frame as f32 * delta * 6.0).min(3.0) * (frame as f32 * delta * 20.0);
                let last = sim.out.clone();
                contacts += sim.step(&straight(Vec2::ZERO, &lengths, angle), &settings, delta, 4.0, &mut world);
                for p in &sim.out {
                    assert!(
                        p.x <= 120.0 - 4.0 + 1e-3,
                        "delta {delta} frame {frame}: {p} passed the wall; {:?} prev {:?}",
                        sim.out,
                        last
                    );
                }
            }
            // Enough contacts to have tested something: how many depends on the platform's sin and cos (15 at
            // 30 fps on x86_64, 10 as wasm under Node.js), the wall holds on every one.
            assert!(contacts >= 5, "delta {delta}: {contacts} contacts");
        }
    }

    #[test]
    fn a_mirrored_chain_in_a_mirrored_world_is_the_mirror_image() {
        let lengths = [30.0, 35.0, 25.0, 20.0];
        let settings = SpringSettings {
            stiffness: 40.0,
            damping: 1.5,
            gravity: Vec2::new(150.0, 980.0),
            ..SpringSettings::default()
        };
        let mirrored_settings = SpringSettings { gravity: Vec2::new(-150.0, 980.0), ..settings };
        let m = |v: Vec2| Vec2::new(-v.x, v.y);
        let mut world = Boxes(vec![
            (Vec2::new(-300.0, 90.0), Vec2::new(300.0, 120.0)),
            (Vec2::new(60.0, -100.0), Vec2::new(64.0, 90.0)),
        ]);
        let mut mirrored_world = world.mirrored();
        let (mut a, mut b) = (Sim::new(4), Sim::new(4));
        let (mut worst, mut contacts) = (0.0f32, 0);
        for frame in 0..400 {
            let t = frame as f32 / 60.0;
            let root = Vec2::new(70.0 * (1.7 * t).sin() + 10.0, 20.0 * (2.3 * t).cos());
            let joints = straight(root, &lengths, 0.4 + 0.5 * (3.0 * t).sin());
            let mirrored: Vec<Vec2> = joints.iter().map(|&p| m(p)).collect();
            contacts += a.step(&joints, &settings, 1.0 / 60.0, 5.0, &mut world);
            let goal = SpringGoal {
                joints: &mirrored,
                limits: ChainLimits { root_direction: -Vec2::X, per_bone: &[] },
                scales: &[],
            };
            step_spring(&mut b.frame, &mut b.bones, &goal, &mirrored_settings, 1.0 / 60.0, &mut b.out).unwrap();
            let previous = b.primed.then_some(&b.previous[..]);
            collide_spring(
                &b.frame,
                &mut b.bones,
                &goal,
                &mirrored_settings,
                SpringEnds { radii: &[5.0; 4], previous },
                &mut b.out,
                &mut mirrored_world,
            );
            b.previous.copy_from_slice(&b.out);
            b.primed = true;
            for (p, q) in a.out.iter().zip(&b.out) {
                worst = worst.max(m(*p).distance(*q));
            }
        }
        assert!(contacts > 50, "{contacts} contacts");
        // Not bit for bit: the mirrored chain's angles round differently (1e-5 px a step), and a sliding contact
        // carries that on (measured 0.0015 px).
        assert!(worst < 0.01, "worst mirrored joint difference {worst} px");
    }

    #[test]
    fn an_end_pushed_out_of_a_wall_into_a_floor_ends_clear_of_both() {
        // A corner: a floor (y > 100) and a 10 px wall (50 < x < 60) standing on it. A one-bone chain from
        // (30, 60) whose goal lies inside the wall (a teleport, or a turn that mirrors a tail into it): the wall's
        // nearest free line is its left face, and on the bone's circle the point there nearest the goal is in the
        // floor. The end must finish clear of both.
        let settings = SpringSettings { stiffness: 400.0, damping: 5.0, ..SpringSettings::default() };
        let radius = 5.0;
        let mut world = Boxes(vec![
            (Vec2::new(-300.0, 100.0), Vec2::new(300.0, 140.0)),
            (Vec2::new(50.0, -100.0), Vec2::new(60.0, 100.0)),
        ]);
        let root = Vec2::new(30.0, 60.0);
        let into_wall = (Vec2::new(55.0, 92.0) - root).to_angle();
        let mut sim = Sim::new(1);
        let touched = sim.step(&straight(root, &[40.0], into_wall), &settings, 1.0 / 60.0, radius, &mut world);
        assert!(touched > 0, "the end started in the wall");
        let end = sim.out[1];
        for &(lo, hi) in &world.0 {
            let gap = (lo - end).max(end - hi).max(Vec2::ZERO).length();
            assert!(gap >= radius - 1e-3, "the end at {end} is {gap} px from a box");
        }
        assert!((end.distance(root) - 40.0).abs() < 1e-3, "the bone keeps its length");
    }

    #[test]
    fn contacts_never_add_energy() {
        let lengths = [40.0, 30.0, 20.0];
        // No gravity: the spring alone swings the chain into a wall to its right, again and again.
        let settings = SpringSettings { stiffness: 300.0, damping: 0.5, ..SpringSettings::default() };
        let mut world = Boxes(vec![(Vec2::new(70.0, -300.0), Vec2::new(90.0, 300.0))]);
        let mut sim = Sim::new(3);
        let joints = straight(Vec2::ZERO, &lengths, core::f32::consts::FRAC_PI_2);
        sim.step(&joints, &settings, 0.0, 5.0, &mut world);
        for (i, bone) in sim.bones.iter_mut().enumerate() {
            bone.velocity = -12.0 + 3.0 * i as f32;
        }
        let initial = spring_energy(&sim.bones, &settings, &[]);
        let mut energy = initial;
        let mut contacts = 0;
        for frame in 0..600 {
            contacts += sim.step(&joints, &settings, 1.0 / 60.0, 5.0, &mut world);
            let next = spring_energy(&sim.bones, &settings, &[]);
            // The wall bends a bone against its parent's swing: that parent's motion becomes spring energy over the
            // next frames (measured: 101 -> 112 after the first touch), never above what the chain had before it.
            assert!(next <= initial * (1.0 + 1e-4), "frame {frame}: {energy} -> {next}, initially {initial}");
            energy = next;
        }
        assert!(contacts > 0 && energy < 1e-3 * initial, "{contacts} contacts, energy {initial} -> {energy}");
    }

    /// Counts the queries a world answers.
    struct Counted(Boxes, u32);

    impl SpringCollider for Counted {
        fn sweep(&mut self, from: Vec2, motion: Vec2, radius: f32) -> Option<(Vec2, Vec2)> {
            self.1 += 1;
            self.0.sweep(from, motion, radius)
        }
        fn overlap(&mut self, at: Vec2, radius: f32) -> Option<(Vec2, Vec2)> {
            self.1 += 1;
            self.0.overlap(at, radius)
        }
        fn anything_near(&mut self, centre: Vec2, radius: f32) -> bool {
            self.1 += 1;
            self.0.anything_near(centre, radius)
        }
    }

    #[test]
    fn a_chain_far_from_every_shape_asks_once() {
        let joints = straight(Vec2::ZERO, &[20.0, 20.0, 20.0], 1.0);
        let settings = SpringSettings { gravity: Vec2::new(0.0, 980.0), ..SpringSettings::default() };
        let goal = SpringGoal { joints: &joints, limits: ChainLimits::NONE, scales: &[] };
        let (mut frame, mut bones, mut out) = (SpringFrame::default(), vec![SpringBone::default(); 3], joints.clone());
        let mut far = Counted(floor_world(), 0);
        step_spring(&mut frame, &mut bones, &goal, &settings, 1.0 / 60.0, &mut out).unwrap();
        let previous = out.clone();
        let ends = SpringEnds { radii: &[3.0; 3], previous: Some(&previous) };
        collide_spring(&frame, &mut bones, &goal, &settings, ends, &mut out, &mut far);
        assert_eq!(far.1, 1, "one bounding query, nothing near");
        // Near a shape (not touching it): the bounding query, then a sweep and an overlap per end.
        let mut near = Counted(Boxes(vec![(Vec2::new(-100.0, 55.0), Vec2::new(100.0, 60.0))]), 0);
        let mut out = previous.clone();
        collide_spring(&frame, &mut bones, &goal, &settings, ends, &mut out, &mut near);
        assert_eq!(near.1, 7);
    }

    /// A world that answers with NaN and nonsense.
    struct Broken;

    impl SpringCollider for Broken {
        fn sweep(&mut self, _: Vec2, _: Vec2, _: f32) -> Option<(Vec2, Vec2)> {
            Some((Vec2::new(f32::NAN, 0.0), Vec2::new(f32::NAN, 0.0)))
        }
        fn overlap(&mut self, _: Vec2, _: f32) -> Option<(Vec2, Vec2)> {
            Some((Vec2::new(f32::INFINITY, 0.0), Vec2::Y))
        }
    }

    #[test]
    fn a_broken_world_changes_nothing() {
        let joints = straight(Vec2::new(3.0, 4.0), &[10.0, 20.0], 0.3);
        let settings = SpringSettings { gravity: Vec2::new(0.0, 980.0), ..SpringSettings::default() };
        let mut frame = SpringFrame::default();
        let mut bones = vec![SpringBone::default(); 2];
        let mut out = vec![Vec2::ZERO; 3];
        let goal = SpringGoal { joints: &joints, limits: ChainLimits::NONE, scales: &[] };
        step_spring(&mut frame, &mut bones, &goal, &settings, 1.0 / 60.0, &mut out).unwrap();
        let (before, state) = (out.clone(), bones.clone());
        let previous = out.clone();
        assert_eq!(
            collide_spring(
                &frame,
                &mut bones,
                &goal,
                &settings,
                SpringEnds { radii: &[3.0, 3.0], previous: Some(&previous) },
                &mut out,
                &mut Broken
            ),
            0
        );
        assert_eq!((out, bones), (before, state));
    }
}
