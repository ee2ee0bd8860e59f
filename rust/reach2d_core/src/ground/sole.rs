//! A foot with a toe on uneven ground: two rays, one under the heel (through the ankle, as a one-ray foot casts) and
//! one under the toe (through the foot bone's end), so a bump or a step's edge under the toe is seen. The foot turns
//! to the slope between the two contacts and is kept above both: its heel is planted as a one-ray foot's, and when
//! the turned foot's toe would go into the ground under it the whole foot comes up until it does not.
//!
//! Plane geometry on global vectors, like the rest of `ground`: a reflected input gives the reflected output (and
//! the negated tilt).

use glam::{Affine2, Mat2, Vec2};

use super::stance::{GroundHit, GroundSettings, rotate};

/// Below this `up · normal` a contact's surface is a wall (or faces down): it holds no toe up.
const MIN_UP_ALONG_NORMAL: f32 = 0.05;

/// Contacts closer than this (px) give no slope between them: the heel's normal is used.
const MIN_CONTACT_SPAN: f32 = 1.0e-3;

/// What a foot's two rays found, each `None` when its ray met nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SoleHits {
    /// Under the heel: the ray through the animated ankle (the leg's end effector).
    pub heel: Option<GroundHit>,
    /// Under the toe: the ray through the animated toe (the foot bone's end).
    pub toe: Option<GroundHit>,
}

/// Where a foot goes on the ground: the ankle's goal (global px) and the foot's turn to the slope (radians, within
/// `±max_tilt`; positive turns the foot the way `Vec2::from_angle` turns).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FootPlacement {
    /// The leg's end effector (the ankle) goes here.
    pub goal: Vec2,
    /// The foot bone turns by this from its animated angle to the world.
    pub tilt: f32,
    /// At least one ray found ground.
    pub grounded: bool,
}

impl GroundSettings {
    /// The ground's normal under a foot from its contacts: with both, the unit normal of the line from the heel's
    /// contact to the toe's, on the side of `up` (the slope the foot stands on, whatever lies between); with one,
    /// that contact's normal; also the heel's (else the toe's) when the two are closer than 1e-3 px or the line
    /// between them is nearly along `up` (a step's riser). `None` without contacts.
    #[must_use]
    pub fn sole_normal(&self, hits: SoleHits) -> Option<Vec2> {
        let single = hits.heel.or(hits.toe).map(|hit| hit.normal);
        let (Some(heel), Some(toe)) = (hits.heel, hits.toe) else { return single };
        let span = toe.point - heel.point;
        // Written so that a NaN span falls back too.
        if span.length().partial_cmp(&MIN_CONTACT_SPAN) != Some(core::cmp::Ordering::Greater) {
            return single;
        }
        let normal = span.perp().normalize();
        let normal = if normal.dot(self.up) < 0.0 { -normal } else { normal };
        if normal.dot(self.up) > MIN_UP_ALONG_NORMAL { Some(normal) } else { single }
    }

    /// How high the animated toe `toe` is above the ground line, px along `up` (negative below it).
    #[must_use]
    pub fn toe_height(&self, toe: Vec2) -> f32 {
        (toe - self.ground_line).dot(self.up)
    }

    /// The point the toe of a foot animated at `ankle` and `toe` must not go below on the ground `hit` under it
    /// (below: across `hit.normal`). The toe keeps the height the animation gave it above the ground line: the
    /// ankle's lift ([`GroundSettings::lift`], a swing) along `up`, as the ankle does, and the rest (the foot's own
    /// shape: the toe's height over the sole, negative for a toe drawn a little into the ground line) along the
    /// ground's normal, so that on flat ground at the line, and on an even slope the foot is turned to, the foot is
    /// exactly the animation's.
    #[must_use]
    pub fn toe_floor(&self, ankle: Vec2, toe: Vec2, hit: GroundHit) -> Vec2 {
        let lift = self.lift(ankle);
        hit.point + hit.normal * (self.toe_height(toe) - lift) + self.up * lift
    }

    /// Where a foot whose animated ankle is at `ankle` and animated toe at `toe` (the foot bone's end; `None`: no
    /// foot, one ray, and `hits.toe` is not looked at) goes on the ground `hits` found: its tilt, the signed angle
    /// from `up` to [`GroundSettings::sole_normal`] held within `±max_tilt`, and the ankle's goal for that tilt
    /// ([`GroundSettings::foot_goal`]). Without contacts the foot stays where the animation put it (`grounded`
    /// false).
    ///
    /// A toe contact whose surface is a wall (`up · normal` at most 0.05) is no contact: it holds no toe up and
    /// gives no slope.
    #[must_use]
    pub fn place_foot(&self, ankle: Vec2, toe: Option<Vec2>, hits: SoleHits) -> FootPlacement {
        let hits = self.usable(toe, hits);
        let Some(normal) = self.sole_normal(hits) else {
            return FootPlacement { goal: ankle, tilt: 0.0, grounded: false };
        };
        let tilt = self.tilt_to(normal);
        FootPlacement { goal: self.foot_goal(ankle, toe, hits, tilt), tilt, grounded: true }
    }

    /// The ankle's goal for the foot of [`GroundSettings::place_foot`] turned by `tilt` radians: the tilt it wants,
    /// or the one a speed limit lets it have this frame (the toe is kept out for the turn the foot really has).
    ///
    /// - With a heel contact alone the ankle is planted on it as [`GroundSettings::planted`] does (`foot_height`
    ///   along its normal, plus the animation's lift); with both contacts `foot_height` is along the turned foot's
    ///   own up (`up` turned by `tilt`), so the foot turns about its heel's contact (the same on an even slope the
    ///   foot is turned to).
    /// - With a toe contact, the toe turned with the foot by `tilt` about the ankle must stay above its
    ///   [`GroundSettings::toe_floor`] (across the contact's normal): the goal moves along `up` until it does,
    ///   never down below the heel's ground; without a heel contact it moves along `up` (either way) until the toe
    ///   stands on its contact.
    /// - Without contacts, `ankle`.
    #[must_use]
    pub fn foot_goal(&self, ankle: Vec2, toe: Option<Vec2>, hits: SoleHits, tilt: f32) -> Vec2 {
        let hits = self.usable(toe, hits);
        let mut goal = match hits.heel {
            // Both contacts: the sole rests on the heel's contact turned with the foot, so the toe (turned about the
            // ankle) comes down near its own contact, not a few px back from it (the ankle would shift along a
            // bump's normal).
            Some(heel) if hits.toe.is_some() => {
                heel.point + rotate(self.up, tilt) * self.foot_height + self.up * self.lift(ankle)
            }
            Some(heel) => self.planted(ankle, heel),
            None => ankle,
        };
        if let (Some(toe), Some(hit)) = (toe, hits.toe) {
            let toe_from_ankle = rotate(toe - ankle, tilt);
            let floor = self.toe_floor(ankle, toe, hit);
            let rise = (floor - goal - toe_from_ankle).dot(hit.normal) / self.up.dot(hit.normal);
            if rise.is_finite() && (rise > 0.0 || hits.heel.is_none()) {
                goal += self.up * rise;
            }
        }
        goal
    }

    /// `hits` without a toe contact that holds nothing: none without a toe (the one-ray foot), none on a wall.
    fn usable(&self, toe: Option<Vec2>, hits: SoleHits) -> SoleHits {
        let holds = |hit: &GroundHit| toe.is_some() && self.up.dot(hit.normal) > MIN_UP_ALONG_NORMAL;
        SoleHits { toe: hits.toe.filter(holds), ..hits }
    }
}

/// The global end of a foot bone (its toe) in the animated pose: `animated_tip` is the leg's tip bone's global
/// transform there, `position` the foot's local position, `rotation` its animated local rotation, `basis` its local
/// basis without the rotation (scale and skew), `end` its end in its own space (`from_angle(bone_angle) * length`).
/// Reflections live in the matrices.
#[must_use]
pub fn foot_end(animated_tip: Affine2, position: Vec2, rotation: f32, basis: Mat2, end: Vec2) -> Vec2 {
    let local = Affine2::from_mat2_translation(Mat2::from_angle(rotation) * basis, position);
    (animated_tip * local).transform_point2(end)
}

#[cfg(test)]
mod tests;
