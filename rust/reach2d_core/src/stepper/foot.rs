//! One foot: its gait group, where it is in its step, and the goal its leg reaches for this frame.

use glam::Vec2;

/// Where a foot is in its step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FootPhase {
    /// On the ground. The leg's goal is `at` itself, unchanged until the foot lifts: a planted foot never slides.
    Planted {
        /// Where the foot stands, global px.
        at: Vec2,
    },
    /// In the air, on the arc from `from` to `to` ([`swing_point`](crate::stepper::swing_point)).
    Swinging {
        /// Where it lifted, global px.
        from: Vec2,
        /// Where it lands, global px; without ground, its home (followed every frame).
        to: Vec2,
        /// From 0 (lifted) to 1 (landed).
        progress: f32,
        /// `to` is ground the foot plants on; otherwise there was none and the foot hangs at its home when the
        /// step ends.
        lands: bool,
    },
    /// No ground under its home: the foot hangs at its home, in the air, and steps down as soon as there is ground.
    Hanging,
}

/// One foot of a creature: its gait group, its phase and this frame's goal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepFoot {
    /// The gait group (below [`MAX_GROUPS`](crate::stepper::MAX_GROUPS)): feet of one group step together, and
    /// the groups take turns.
    pub group: u32,
    pub(super) phase: FootPhase,
    pub(super) goal: Vec2,
    /// The gait turn at which this foot's group last lifted (0: never), for choosing the group that waited longest.
    pub(super) turn: u64,
    /// The gait turn at which this foot itself last lifted (0: never).
    pub(super) lifted: u64,
    /// The foot landed on this frame (it does not lift again before the next).
    pub(super) landed: bool,
}

impl StepFoot {
    /// A foot of gait group `group`, not on the ground yet: [`replant`](crate::stepper::replant) plants it (the
    /// first frame), or it hangs at its home and steps down when the walk finds ground.
    #[must_use]
    pub fn new(group: u32) -> Self {
        Self { group, phase: FootPhase::Hanging, goal: Vec2::ZERO, turn: 0, lifted: 0, landed: false }
    }

    /// Where the foot is in its step.
    #[must_use]
    pub fn phase(&self) -> FootPhase {
        self.phase
    }

    /// The point the leg reaches for this frame, global px: the planted point, the point on the swing's arc, or
    /// the home it hangs at.
    #[must_use]
    pub fn goal(&self) -> Vec2 {
        self.goal
    }

    /// The point it stands on, when planted.
    #[must_use]
    pub fn planted_at(&self) -> Option<Vec2> {
        match self.phase {
            FootPhase::Planted { at } => Some(at),
            _ => None,
        }
    }

    /// `true` while the foot swings (hanging is not swinging: that foot has no ground to step to).
    #[must_use]
    pub fn is_swinging(&self) -> bool {
        matches!(self.phase, FootPhase::Swinging { .. })
    }

    /// Plants the foot at `at` now, or hangs it at `home` when there is no ground: no step (a teleport, the first
    /// frame).
    pub(super) fn set_down(&mut self, at: Option<Vec2>, home: Vec2) {
        (self.phase, self.goal) = match at {
            Some(at) => (FootPhase::Planted { at }, at),
            None => (FootPhase::Hanging, home),
        };
    }

    /// Moves every point the foot holds by `map` (a turn's reflection).
    pub(super) fn carry(&mut self, map: impl Fn(Vec2) -> Vec2) {
        self.goal = map(self.goal);
        self.phase = match self.phase {
            FootPhase::Planted { at } => FootPhase::Planted { at: map(at) },
            FootPhase::Swinging { from, to, progress, lands } => {
                FootPhase::Swinging { from: map(from), to: map(to), progress, lands }
            }
            FootPhase::Hanging => FootPhase::Hanging,
        };
    }
}

/// How far (px) `home` is from the planted point `at` across `up`: the drift that makes a foot step. Height
/// differences (a foot on a stair, a body that bobs) do not count. Not finite only for a non-finite input.
#[must_use]
pub fn drift(at: Vec2, home: Vec2, up: Vec2) -> f32 {
    let offset = home - at;
    (offset - up * offset.dot(up)).length()
}
