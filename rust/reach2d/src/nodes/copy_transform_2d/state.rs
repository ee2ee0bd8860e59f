//! `CopyTransform2D`'s run-time state and the engine side of its frame (`nodes/copy_transform_2d.rs` runs the
//! steps in order): reading the source ([`CopyState::read_source`]) and the bone ([`CopyState::read_bone`]),
//! writing the bone's channels ([`CopyState::write`]), and putting back what it wrote ([`CopyState::let_go`],
//! [`CopyState::take_back`] and [`CopyState::reapply`] around an editor save). What the copy wrote is told from what
//! others wrote (an animation, the user) by `io/written.rs`'s one rule, per property.

use godot::classes::{Bone2D, CanvasItem, Node2D};
use godot::prelude::*;
use reach2d_core::Vec2;
use reach2d_core::copy_transform::{BoneFrame, Copied, CopyError, LocalPose, SourceReading, Turns, read_source};

use crate::engine::convert::{affine, vec2, vector2};
use crate::io::written::{Overwritten, RoundTrip};
use crate::nodes::copy_transform_2d::choices::Space;
use crate::problem::Problem;

/// Which of the bone's properties a copy writes: those whose amount is above 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Channels {
    pub rotation: bool,
    pub position: bool,
    pub scale: bool,
}

/// Everything `CopyTransform2D` keeps between frames.
#[derive(Default)]
pub struct CopyState {
    /// The bone the memories below belong to.
    bone: Option<Gd<Bone2D>>,
    /// The bone's local rotation, position and scale: the value someone else gave each and the copy's last write.
    rotation: Overwritten<f32>,
    position: Overwritten<Vec2>,
    scale: Overwritten<Vec2>,
    /// What the last [`CopyState::take_back`] took back (an editor save), for [`CopyState::reapply`].
    taken: Values,
    /// The source last seen, and the same object as a `Bone2D` when it is one (its rest is read in the rest space).
    source: Option<(InstanceId, Option<Gd<Bone2D>>)>,
    /// The source hangs below the bone (a copy in the global space would chase itself): found by the setup check
    /// when it is not verified, kept while it is.
    pub source_under_bone: bool,
    /// The whole turns the source's rotation made, so a remap reads it continuous, and the source and space they
    /// were counted for (another one starts over).
    turns: Turns,
    turns_of: Option<(InstanceId, Space)>,
}

/// A value per property, or none: the writes of a copy, or those an editor save took back.
#[derive(Clone, Copy, Default)]
struct Values {
    rotation: Option<f32>,
    position: Option<Vec2>,
    scale: Option<Vec2>,
}

impl CopyState {
    /// Makes `bone` the one the memories belong to: a new bone gets back what the copy wrote into the old one (if it
    /// still holds it), and the memories start over. Cheap when it is the same bone (an id comparison).
    pub fn hold(&mut self, bone: &Gd<Bone2D>) {
        let same = self.bone.as_ref().is_some_and(|held| held.instance_id_unchecked() == bone.instance_id_unchecked());
        if !same {
            self.let_go();
            *self = Self {
                bone: Some(bone.clone()),
                source: self.source.take(),
                source_under_bone: self.source_under_bone,
                ..Self::default()
            };
        }
    }

    /// The source as a `Bone2D` when it is one (cast once per source, not per frame).
    pub fn source_bone(&mut self, source: &Gd<Node2D>) -> Option<&Gd<Bone2D>> {
        let id = source.instance_id_unchecked();
        if self.source.as_ref().is_none_or(|(seen, _)| *seen != id) {
            self.source = Some((id, source.clone().try_cast::<Bone2D>().ok()));
        }
        self.source.as_ref().and_then(|(_, bone)| bone.as_ref())
    }

    /// The source read in `space`: its global transform (global), else its local one, with its rest (rest space:
    /// the source must be a `Bone2D`, the setup check said so); its rotation continuous across turns. For a
    /// `rotation` written in the local or rest space, also the sense its parent turns in on screen (one more engine
    /// call: the sign of its global determinant over its local one).
    pub fn read_source(&mut self, source: &Gd<Node2D>, space: Space, rotation: bool) -> Result<SourceReading, Problem> {
        let (transform, rest) = match space {
            Space::Global => (affine(source.get_global_transform()), glam::Affine2::IDENTITY),
            Space::Local => (affine(source.get_transform()), glam::Affine2::IDENTITY),
            Space::Rest => {
                let rest =
                    self.source_bone(source).map(|bone| affine(bone.get_rest())).ok_or(Problem::SourceHasNoRest)?;
                (affine(source.get_transform()), rest)
            }
        };
        let mut reading = read_source(space.core(), transform, rest).map_err(|error| match error {
            CopyError::SourceCollapsed => Problem::SourceZeroScale,
            CopyError::RestCollapsed => Problem::RestZeroScale,
            _ => Problem::SourceNotFinite,
        })?;
        if rotation && space != Space::Global {
            let global = affine(source.get_global_transform()).matrix2.determinant();
            reading = reading.under_parent(global * transform.matrix2.determinant());
        }
        let counted_for = Some((source.instance_id_unchecked(), space));
        if self.turns_of != counted_for {
            self.turns.reset();
            self.turns_of = counted_for;
        }
        Ok(reading.unwrapped(&mut self.turns))
    }

    /// Forgets the source's whole turns: the next reading is taken as the engine gives it.
    fn forget_turns(&mut self) {
        self.turns.reset();
    }

    /// The held bone as the copy finds it: each property's unwritten value (a value that is not the copy's last
    /// write is someone else's and becomes the unwritten one), its skew, and what `space` needs (the global
    /// transform of `parent`, or the bone's rest). Only what the `channels` written need is read (one engine call
    /// per value): the scale always (its signs and a zero scale count for every channel), the rotation for a written
    /// rotation or a global scale, the position for a written position, the skew for a written scale, the parent's
    /// global transform in the global space or for a written rotation (its handedness turns a local or rest one).
    pub fn read_bone(
        &mut self,
        parent: Option<&Gd<CanvasItem>>,
        space: Space,
        channels: Channels,
    ) -> Result<BoneFrame, Problem> {
        let bone = self.bone.as_ref().ok_or(Problem::EmptyChain)?;
        let rotation = channels.rotation || (channels.scale && space == Space::Global);
        let unwritten = LocalPose {
            rotation: if rotation { self.rotation.observe(bone.get_rotation()) } else { 0.0 },
            position: if channels.position { self.position.observe(vec2(bone.get_position())) } else { Vec2::ZERO },
            scale: self.scale.observe(vec2(bone.get_scale())),
            skew: if channels.scale { bone.get_skew() } else { 0.0 },
        };
        let parent = match parent {
            Some(parent) if space == Space::Global || channels.rotation => affine(parent.get_global_transform()),
            _ => glam::Affine2::IDENTITY,
        };
        let rest = if space == Space::Rest { affine(bone.get_rest()) } else { glam::Affine2::IDENTITY };
        Ok(BoneFrame { unwritten, parent, rest })
    }

    /// Writes `copied` into the held bone, only the `channels` on, and remembers each write. A value the bone still
    /// holds from the last write (`read_bone` observed it this frame) is not written again: a still source costs no
    /// transform update.
    pub fn write(&mut self, copied: &Copied, channels: Channels) {
        fn changed<T: RoundTrip + PartialEq>(on: bool, last: &Overwritten<T>, value: T) -> Option<T> {
            (on && last.written() != Some(value)).then_some(value)
        }
        let values = Values {
            rotation: changed(channels.rotation, &self.rotation, copied.rotation),
            position: changed(channels.position, &self.position, copied.position),
            scale: changed(channels.scale, &self.scale, copied.scale),
        };
        self.store(values);
    }

    /// Puts back the unwritten value of each property not in `channels` that still holds the copy's write (a channel
    /// switched off).
    pub fn release_unused(&mut self, channels: Channels) {
        self.put_back(Channels { rotation: !channels.rotation, position: !channels.position, scale: !channels.scale });
    }

    /// Puts back every property that still holds the copy's write (disabled, leaving the tree, the preview off).
    pub fn let_go(&mut self) {
        self.put_back(Channels { rotation: true, position: true, scale: true });
    }

    /// [`CopyState::let_go`] and [`CopyState::forget_turns`]: the next copy starts from the bone's own values and
    /// reads the source's rotation afresh, as a new node's does (disabled, out of the tree, reset).
    pub fn start_over(&mut self) {
        self.let_go();
        self.forget_turns();
    }

    /// Editor, before saving: [`CopyState::let_go`], remembering what it took back for [`CopyState::reapply`].
    pub fn take_back(&mut self) {
        self.taken = Values {
            rotation: self.rotation.written(),
            position: self.position.written(),
            scale: self.scale.written(),
        };
        self.let_go();
    }

    /// Editor, after saving: writes back what [`CopyState::take_back`] took.
    pub fn reapply(&mut self) {
        let taken = core::mem::take(&mut self.taken);
        if self.bone().is_some() {
            self.store(taken);
        }
    }

    /// The held bone, if it is alive.
    pub fn bone(&self) -> Option<&Gd<Bone2D>> {
        self.bone.as_ref().filter(|bone| bone.is_instance_valid())
    }

    /// Writes each of `values` into the held bone and remembers it as the copy's write.
    fn store(&mut self, values: Values) {
        let Some(bone) = self.bone.as_mut() else { return };
        if let Some(rotation) = values.rotation {
            bone.set_rotation(rotation);
            self.rotation.wrote(rotation);
        }
        if let Some(position) = values.position {
            bone.set_position(vector2(position));
            self.position.wrote(position);
        }
        if let Some(scale) = values.scale {
            bone.set_scale(vector2(scale));
            self.scale.wrote(scale);
        }
    }

    fn put_back(&mut self, which: Channels) {
        let Some(bone) = self.bone.as_mut().filter(|bone| bone.is_instance_valid()) else { return };
        // Only a property the copy wrote is read back (nothing to do, and no engine call, for the others).
        if which.rotation
            && self.rotation.written().is_some()
            && let Some(rotation) = self.rotation.release(bone.get_rotation())
        {
            bone.set_rotation(rotation);
        }
        if which.position
            && self.position.written().is_some()
            && let Some(position) = self.position.release(vec2(bone.get_position()))
        {
            bone.set_position(vector2(position));
        }
        if which.scale
            && self.scale.written().is_some()
            && let Some(scale) = self.scale.release(vec2(bone.get_scale()))
        {
            bone.set_scale(vector2(scale));
        }
    }
}
