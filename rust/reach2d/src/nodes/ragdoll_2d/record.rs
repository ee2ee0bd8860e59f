//! The bake: a running ragdoll's written pose recorded into an `Animation` as keys, one per physics tick, so a fall
//! simulated once replays as an animation (a death animation authored by physics).

use godot::classes::animation::TrackType;
use godot::classes::{Animation, Bone2D, Node};
use godot::prelude::*;

/// An animation being recorded: one rotation track per bone (and the root's position track), the time so far.
pub struct Recording {
    animation: Gd<Animation>,
    rotation_tracks: Vec<i32>,
    position_track: Option<i32>,
    time: f64,
}

impl Recording {
    /// Starts recording `bones` (the root first) into `animation`, their paths taken from `root` (the
    /// `AnimationPlayer`'s root node), a track found or added per bone; `with_position` records the root's
    /// position too. Keys the pose the bones have now at time 0.
    pub fn new(mut animation: Gd<Animation>, root: &Gd<Node>, bones: &[Gd<Bone2D>], with_position: bool) -> Self {
        let mut track = |bone: &Gd<Bone2D>, property: &str| {
            let path = NodePath::from(&format!("{}:{property}", root.get_path_to(bone)));
            let found = animation.find_track(&path, TrackType::VALUE);
            if found >= 0 {
                return found;
            }
            let index = animation.add_track(TrackType::VALUE);
            animation.track_set_path(index, &path);
            index
        };
        let rotation_tracks = bones.iter().map(|b| track(b, "rotation")).collect();
        let position_track = (with_position && !bones.is_empty()).then(|| track(&bones[0], "position"));
        let mut recording = Self { animation, rotation_tracks, position_track, time: 0.0 };
        recording.key(bones);
        recording
    }

    /// Keys the bones' pose `delta` seconds after the last key.
    pub fn advance(&mut self, delta: f64, bones: &[Gd<Bone2D>]) {
        self.time += delta;
        self.key(bones);
    }

    fn key(&mut self, bones: &[Gd<Bone2D>]) {
        for (bone, &track) in bones.iter().zip(&self.rotation_tracks) {
            self.animation.track_insert_key(track, self.time, &bone.get_rotation().to_variant());
        }
        if let (Some(track), Some(root)) = (self.position_track, bones.first()) {
            self.animation.track_insert_key(track, self.time, &root.get_position().to_variant());
        }
    }

    /// Ends the recording: the animation is as long as what was recorded.
    pub fn finish(mut self) {
        let length = self.time.max(1e-3) as f32;
        self.animation.set_length(length);
    }
}
