//! The gait: which group lifts next, so that the groups take turns and (but for the catch-up rule) only one group
//! is in the air at a time.

use super::foot::StepFoot;

/// Gait groups are numbered `0..MAX_GROUPS`; a foot of a higher group counts as group `group % MAX_GROUPS`.
pub const MAX_GROUPS: u32 = 64;

/// When a group lifts, its planted feet whose homes drifted more than this fraction of `step_distance` lift with
/// it: legs in one group step together, but a foot whose home has hardly moved (the inner legs of a turn) stays.
pub const STEP_TOGETHER: f32 = 0.25;

/// The gait's memory between frames.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gait {
    /// Lifts so far (each group lift and each catch-up is one turn).
    pub(super) turn: u64,
    /// Feet that lifted by the catch-up rule while another group was in the air.
    pub(super) catch_ups: u64,
}

impl Gait {
    /// How many feet lifted by the catch-up rule (a foot left more than `max_lag` behind while another group was
    /// in the air) since the gait began.
    #[must_use]
    pub fn catch_ups(&self) -> u64 {
        self.catch_ups
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

/// The group to lift now, when no group is in the air: among the groups with a planted foot whose drift
/// (`drift(i)`, px) is beyond `step_distance`, the one that lifted longest ago (its feet's latest turn), the lower
/// group number on a tie. `None` when no foot needs to step.
pub(super) fn next_group(feet: &[StepFoot], drift: impl Fn(usize) -> Option<f32>, step_distance: f32) -> Option<u32> {
    let mut best: Option<(u64, u32)> = None;
    for (i, foot) in feet.iter().enumerate() {
        if !drift(i).is_some_and(|d| d > step_distance) {
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
