//! How far a leg reaches from its hip, and what that asks of its steps: a planted foot lifts before its leg would
//! have to stretch past its reach (or fold onto its hip), and a foot lands where its leg reaches it from where the
//! hip will be.

use glam::Vec2;

/// A planted foot lifts before its hip is farther from it than this fraction of the leg's full reach: the leg then
/// still holds it exactly (an IK chain cannot hold a foot beyond its reach: the foot would slide).
pub const LIFT_REACH: f32 = 0.99;

/// A foot lands at most this fraction of the leg's full reach from where the hip will be when it lands, so it can
/// stand there while the hip passes over it.
pub const LAND_REACH: f32 = 0.975;

/// A planted foot lifts (and a landing is pushed away) before its hip comes nearer than this fraction of the leg's
/// span above its folded length: a chain folded onto its hip flips its knee.
pub const FOLD_REACH: f32 = 0.02;

/// A home whose foot can move less than this fraction of the leg's reach either way (across `up`) and still stand
/// leaves no room for a step: [`LegReach::room`] below it is what the node warns about.
pub const MIN_ROOM: f32 = 0.05;

/// One leg's reach this frame, global px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LegReach {
    /// The leg's root joint (the hip) this frame.
    pub hip: Vec2,
    /// The farthest the foot gets from the hip: the bones' lengths laid straight.
    pub longest: f32,
    /// The nearest the foot folds to the hip (the longest bone less the others, or 0).
    pub shortest: f32,
}

impl LegReach {
    /// A leg of these segment lengths (global px) with its hip at `hip`.
    #[must_use]
    pub fn of_lengths(hip: Vec2, lengths: &[f32]) -> Self {
        let longest: f32 = lengths.iter().sum();
        let biggest = lengths.iter().copied().fold(0.0f32, f32::max);
        Self { hip, longest, shortest: (2.0 * biggest - longest).max(0.0) }
    }

    /// `true` for a reach the rules can use: finite, with a positive length.
    #[must_use]
    pub fn usable(&self) -> bool {
        self.hip.is_finite() && self.longest.is_finite() && self.shortest.is_finite() && self.longest > 0.0
    }

    /// The distances from the hip a foot stands at: from just above the folded length to just below full reach.
    #[must_use]
    pub fn standing_range(&self) -> (f32, f32) {
        (self.shortest + FOLD_REACH * (self.longest - self.shortest), LIFT_REACH * self.longest)
    }

    /// `true` while a foot at `foot` can stand with the hip moved on by `hip_shift`: within [`Self::standing_range`].
    /// An unusable reach always stands (no rule from it).
    #[must_use]
    pub fn stands(&self, foot: Vec2, hip_shift: Vec2) -> bool {
        if !self.usable() {
            return true;
        }
        let (near, far) = self.standing_range();
        let distance = foot.distance(self.hip + hip_shift);
        !(distance > far || distance < near)
    }

    /// `point` moved across `up` (keeping its height) so that it lies between the folded limit and `LAND_REACH` of
    /// the reach from `hip` (where the hip will be): the nearest such point, or `point` itself when it already does
    /// or none exists at that height (a ledge far below: the nearest the leg gets is straight under the hip).
    #[must_use]
    pub fn landing_within(&self, point: Vec2, hip: Vec2, up: Vec2, forward: Vec2) -> Vec2 {
        if !self.usable() {
            return point;
        }
        let (near, _) = self.standing_range();
        let far = LAND_REACH * self.longest;
        let offset = point - hip;
        let distance = offset.length();
        if distance <= far && distance >= near {
            return point;
        }
        let height = offset.dot(up);
        let across = offset - up * height;
        let wanted = if distance > far { far } else { near };
        if height.abs() >= wanted {
            // No point at this height is at the wanted distance: straight under (over) the hip is the nearest.
            return if distance > far { point - across } else { point };
        }
        let width = (wanted * wanted - height * height).sqrt();
        // Keep the side the point was on; a point right under the hip goes forward.
        let side = across.try_normalize().unwrap_or(forward);
        let moved = hip + up * height + side * width;
        if moved.is_finite() { moved } else { point }
    }

    /// `point` lowered (along `-up`, by at most `most` px) until its leg no longer folds past
    /// [`Self::standing_range`]'s near end: a swing's arc lifted close under the hip. `point` itself when it is far
    /// enough, or when the reach is not usable.
    #[must_use]
    pub fn below_fold(&self, point: Vec2, up: Vec2, most: f32) -> Vec2 {
        let (near, _) = self.standing_range();
        let offset = point - self.hip;
        if !self.usable() || offset.length() >= near {
            return point;
        }
        // |offset - up t| = near, t >= 0: the nearest point below.
        let height = offset.dot(up);
        let t = height + (height * height - offset.length_squared() + near * near).max(0.0).sqrt();
        let lowered = point - up * t.min(most.max(0.0));
        // Lowered as far as the arc allows and still too near: out across `up`, away from the hip, at that height.
        let offset = lowered - self.hip;
        let height = offset.dot(up);
        let across = offset - up * height;
        let moved = if offset.length() >= near || height.abs() >= near {
            lowered
        } else {
            let side = across.try_normalize().unwrap_or(up.perp());
            self.hip + up * height + side * (near * near - height * height).sqrt()
        };
        if moved.is_finite() { moved } else { point }
    }

    /// How much room a foot resting at `home` has to step in (px): half the width, across `up`, of the band at the
    /// home's height where the foot is within `LIFT_REACH` of the reach; negative when the home itself is outside
    /// it (by how far). Below [`MIN_ROOM`] × `longest` no step can keep the foot planted.
    #[must_use]
    pub fn room(&self, home: Vec2, up: Vec2) -> f32 {
        let offset = home - self.hip;
        let height = offset.dot(up);
        let across = (offset - up * height).length();
        let far = LIFT_REACH * self.longest;
        if height.abs() > far {
            return far - height.abs();
        }
        let width = (far * far - height * height).sqrt();
        if across > width { width - across } else { width }
    }
}
