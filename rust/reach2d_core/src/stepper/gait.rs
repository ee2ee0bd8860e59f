//! The gait: which group lifts next, so that the groups take turns and (but for the catch-up rule) only one group
//! is in the air at a time.

use super::foot::StepFoot;

/// Gait groups are numbered `0..MAX_GROUPS`; a foot of a higher group counts as group `group % MAX_GROUPS`.
pub const MAX_GROUPS: u32 = 64;

/// When a group lifts, its planted feet whose homes drifted more than this fraction of `step_distance` lift with
/// it: legs in one group step together, but a foot whose home has hardly moved (the inner legs of a turn) stays.
pub const STEP_TOGETHER: f32 = 0.25;

/// The gait's memory between frames. `Gait::default()` is a gait that has not stepped yet.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Gait {
    /// Lifts so far (each group lift and each catch-up is one turn).
    pub(super) turn: u64,
    /// Feet that lifted by the catch-up rule while another group was in the air, or before their leg would have
    /// stretched past its reach.
    pub(super) catch_ups: u64,
    /// Every foot has stood near its home since the last group lifted: the groups are in phase, so the next lifts
    /// are spread out (see `walk`).
    pub(super) settled: bool,
    /// How long the body has stood still, seconds.
    pub(super) still: f32,
    /// The turn at which the body had stood still long enough for the feet to step home: a foot that stepped
    /// since has stepped home as well as its leg reaches, and does not step again until the body moves.
    pub(super) still_since: u64,
}

impl Gait {
    /// How many feet lifted by the catch-up rule (a foot left more than `max_lag` behind while another group was
    /// in the air) since the gait began.
    #[must_use]
    pub fn catch_ups(&self) -> u64 {
        self.catch_ups
    }

    /// Latches `settled` once every foot is planted and `near_home(i)` holds for each.
    pub(super) fn settle(&mut self, feet: &[StepFoot], near_home: impl Fn(usize) -> bool) {
        self.settled = self.settled || (0..feet.len()).all(near_home);
    }

    /// The next turn's number.
    pub(super) fn next_turn(&mut self) -> u64 {
        self.turn += 1;
        self.turn
    }
}

/// The bit of a foot's group.
pub(super) fn group_bit(foot: &StepFoot) -> u64 {
    1 << (foot.group % MAX_GROUPS)
}

/// The groups with a foot in the air (swinging), as bits.
pub(super) fn groups_in_air(feet: &[StepFoot]) -> u64 {
    feet.iter().filter(|f| f.is_swinging()).fold(0, |bits, f| bits | group_bit(f))
}

/// The group to lift now, when no group is in the air: among the groups with a foot that `needs` a step, the one
/// that lifted longest ago (its feet's latest turn), the lower group number on a tie. `None` when no foot needs to
/// step.
pub(super) fn next_group(feet: &[StepFoot], needs: impl Fn(usize) -> bool) -> Option<u32> {
    let mut best: Option<(u64, u32)> = None;
    for (i, foot) in feet.iter().enumerate() {
        if !needs(i) {
            continue;
        }
        let group = foot.group % MAX_GROUPS;
        let last = feet.iter().filter(|f| f.group % MAX_GROUPS == group).map(|f| f.turn).max().unwrap_or(0);
        if best.is_none_or(|b| (last, group) < b) {
            best = Some((last, group));
        }
    }
    best.map(|(_, group)| group)
}
