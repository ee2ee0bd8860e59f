//! `FootGrounder2D`'s setup (a plain `impl` block of the class): checking it (its own check, another helper's claim on
//! a leg), marking the legs and letting go of what it wrote. Not per frame but for the
//! marking and the claims' field reads, which are cheap (`legs.rs`).

use godot::prelude::*;

use crate::engine::editor::in_editor;
use crate::engine::slot::live;
use crate::nodes::foot_grounder_2d::state::check_setup;
use crate::nodes::legs::Leg;
use crate::problem::Problem;
use crate::runtime::frame::uncounted;

use super::FootGrounder2D;

impl FootGrounder2D {
    /// `Err` when a leg it names is held by another helper (a FootGrounder2D or LegStepper2D that named it first;
    /// issue 36: before, both drove it, silently). A field read, per frame.
    pub(super) fn check_claims(&self) -> Result<(), Problem> {
        self.state.marks.contested().map_or(Ok(()), |slot| Err(Problem::LegClaimed(slot as u8)))
    }

    /// The setup as it stands, without touching a bone (`state::check_setup`).
    pub(super) fn check_setup(&self) -> Result<(), Problem> {
        let legs = [&*self.first_leg, &*self.second_leg];
        check_setup(legs, [&*self.first_foot, &*self.second_foot], &self.hips)
    }

    /// Marks the named legs as driven by this node while it is enabled at run time.
    pub(super) fn mark_legs(&mut self) {
        let driven = !in_editor() && self.enabled;
        let legs = [&*self.first_leg, &*self.second_leg].map(|slot| live(slot).map(|leg| Leg::TwoBone(leg.clone())));
        let me = self.base().instance_id();
        uncounted(|| self.state.marks.update(me, legs.into_iter(), driven));
    }

    /// Takes back everything this node wrote (the hips' offset, the feet's turn); the legs solve by themselves.
    pub(super) fn let_go(&mut self) {
        self.state.let_go(&self.hips, [&*self.first_foot, &*self.second_foot]);
        if self.state.active {
            self.state.active = false;
            self.state.marks.stop_driving();
        }
    }
}
