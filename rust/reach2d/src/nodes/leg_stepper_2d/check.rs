//! `LegStepper2D`'s setup (a plain `impl` block of the class): checking it, resolving and marking the legs, and
//! letting go of everything it wrote. Not per frame but for the marking, which is cheap (`legs.rs`).

use godot::classes::Node;
use godot::obj::{Gd, WithBaseField};

use crate::engine::editor::in_editor;
use crate::nodes::leg_stepper_2d::state::{check_setup, index_of};
use crate::nodes::legs::{Leg, named_legs};
use crate::problem::Problem;
use crate::runtime::frame::{self, uncounted};

use super::LegStepper2D;

impl LegStepper2D {
    /// The setup as it stands, without touching a bone (class lookups: not per frame).
    pub(super) fn check_setup(&self) -> Result<(), Problem> {
        check_setup(&self.legs, &self.body, &self.to_gd().upcast())
    }

    /// Resolves the legs now, inside the tree (they are marked before any of them ticks again), and shows what is
    /// wrong with the setup, if anything; outside the tree, on entering it. Allocates: only when the legs change.
    pub(super) fn resolve_legs(&mut self) {
        self.state.resolved = false;
        if !self.base().is_inside_tree() {
            return;
        }
        let problem = self.check_everything().err();
        frame::show(self, problem);
    }

    /// The whole setup: `check_setup`, the legs resolved if they changed and marked, then each leg's own setup (its
    /// bones; a leg the stepper names needs no target). Not per frame.
    pub(super) fn check_everything(&mut self) -> Result<(), Problem> {
        let mut checked = self.check_setup();
        if checked.is_ok() && !self.state.resolved {
            checked = uncounted(|| self.state.resolve(&self.legs, &self.gait_groups));
        }
        self.mark_named_legs();
        self.find_misplaced();
        checked.and_then(|()| self.state.check_legs()).and_then(|()| self.check_claims())
    }

    /// `Err` when a leg it names is held by another helper (a LegStepper2D or FootGrounder2D that named it first),
    /// or when the node was moved out from under the creature it walks: it then leaves every leg alone (issue 36:
    /// before, both silently). Field reads, per frame.
    pub(super) fn check_claims(&self) -> Result<(), Problem> {
        if self.creature.left() {
            return Err(Problem::StepperLeftCreature);
        }
        self.state.marks.contested().map_or(Ok(()), |i| Err(Problem::StepperLegClaimed(index_of(i))))
    }

    /// Whether the node is still under the creature it walks (`legs.rs` `Creature`: its transform places the
    /// homes, so it must move with the legs). Ancestor walks: when the legs are resolved or the node enters the tree
    /// (a reparent), not per frame.
    pub(super) fn find_misplaced(&mut self) {
        let me = self.to_gd().upcast::<Node>();
        let legs: Vec<Gd<Node>> = self.state.legs.iter().filter(|leg| leg.is_alive()).map(Leg::node).collect();
        self.creature.check(&me, &legs);
    }

    /// Marks the resolved legs as driven by this node while it steps (at run time, or previewing in the editor).
    /// Per frame: while the setup is refused, the legs marked by [`Self::mark_named_legs`] stay so (only whether
    /// they are driven is told).
    pub(super) fn mark_legs(&mut self) {
        let driven = self.driven();
        if !self.state.resolved {
            self.state.marks.drive(driven);
            return;
        }
        // A freed leg is never cloned (a handle to a freed object must not be touched).
        let legs = self.state.legs.iter().map(|leg| leg.is_alive().then(|| leg.clone()));
        let me = self.base().instance_id();
        uncounted(|| self.state.marks.update(me, legs, driven));
    }

    /// Marks the legs as [`Self::mark_legs`] does; while the setup is refused (one entry of `legs` is wrong), the
    /// good entries, so each keeps its pose quietly instead of reporting that it has no target: one message for
    /// the bad entry, not one per good leg (issue 36). Allocates: when the setup is checked, not per frame.
    pub(super) fn mark_named_legs(&mut self) {
        if self.state.resolved {
            return self.mark_legs();
        }
        let driven = self.driven();
        let legs = named_legs(&self.legs);
        let me = self.base().instance_id();
        uncounted(|| self.state.marks.update(me, legs.into_iter(), driven));
    }

    /// The stepper solves its legs itself: at run time, or previewing in the editor.
    fn driven(&self) -> bool {
        self.enabled && (!in_editor() || self.editor_preview)
    }

    /// Takes back everything this node wrote (the body's offset; the legs' preview in the editor); the legs solve
    /// by themselves, and the walk starts afresh next time (`StepperState::start_afresh`).
    pub(super) fn let_go(&mut self) {
        self.state.release_body(&self.body);
        self.state.start_afresh();
        if self.state.active {
            self.state.active = false;
            self.state.marks.stop_driving();
            if in_editor() {
                for leg in self.state.legs.iter_mut().filter(|l| l.is_alive()) {
                    leg.stop_preview();
                }
            }
        }
    }
}
