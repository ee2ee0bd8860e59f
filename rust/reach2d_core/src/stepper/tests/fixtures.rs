//! A creature the tests walk: feet whose homes sit under a body moving at a given velocity, over a ground given as a
//! height profile (y down, as on screen), and the record of every frame's goals and events.

use glam::Vec2;

use crate::stepper::{Gait, StepEvent, StepFoot, StepFrame, StepSettings, walk};

/// Up on a y-down screen.
pub const UP: Vec2 = Vec2::new(0.0, -1.0);

/// The ground's height (y, down) at `x`: flat at 0 with a bump, a step up and a slope, as in the Godot walk. `None`
/// in a gap.
pub fn bumpy(x: f32) -> Option<f32> {
    match x {
        x if (300.0..340.0).contains(&x) => Some(-12.0 * (1.0 - ((x - 320.0) / 20.0).powi(2))),
        x if (500.0..700.0).contains(&x) => Some(-20.0),
        x if (800.0..1000.0).contains(&x) => Some(-(x - 800.0) * 0.3),
        x if x >= 1000.0 => Some(-60.0),
        _ => Some(0.0),
    }
}

/// The creature: `homes` relative to its body, each foot's group, its state and where it is.
pub struct Creature {
    pub offsets: Vec<Vec2>,
    pub feet: Vec<StepFoot>,
    pub gait: Gait,
    pub body: Vec2,
    pub homes: Vec<Vec2>,
    pub settings: StepSettings,
}

/// Everything one frame did: the goals after it and its events.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub goals: Vec<Vec2>,
    pub events: Vec<StepEvent>,
    pub in_air_groups: u32,
}

impl Creature {
    /// `n` feet spread 30 px apart around the body's x, on its ground line (y 0), groups alternating by index.
    pub fn new(n: usize, settings: StepSettings) -> Self {
        let offsets: Vec<Vec2> = (0..n).map(|i| Vec2::new((i as f32 - (n - 1) as f32 * 0.5) * 30.0, 0.0)).collect();
        let feet = (0..n).map(|i| StepFoot::new((i % 2) as u32)).collect();
        Self { homes: offsets.clone(), offsets, feet, gait: Gait::default(), body: Vec2::ZERO, settings }
    }

    /// Plants every foot under its home on `ground` (the first frame), mirrored by `sign`.
    pub fn start(&mut self, ground: impl Fn(f32) -> Option<f32>, sign: f32) {
        for (home, offset) in self.homes.iter_mut().zip(&self.offsets) {
            *home = self.body + *offset * Vec2::new(sign, 1.0);
        }
        crate::stepper::replant(&mut self.feet, &self.homes, |_, aim| {
            ground(aim.x * sign).map(|y| Vec2::new(aim.x, y))
        });
    }

    /// Moves the body by `velocity * delta` and walks one frame on `ground` (heights by x), mirrored by `sign` (-1:
    /// every x negated, the ground's too).
    pub fn frame(&mut self, velocity: Vec2, delta: f32, ground: impl Fn(f32) -> Option<f32>, sign: f32) -> Frame {
        self.body += velocity * delta;
        for (home, offset) in self.homes.iter_mut().zip(&self.offsets) {
            *home = self.body + *offset * Vec2::new(sign, 1.0);
        }
        let frame = StepFrame { homes: &self.homes, up: UP, velocity, delta, reach: &[] };
        let mut events = Vec::new();
        let plant = |_home: Vec2, aim: Vec2| ground(aim.x * sign).map(|y| Vec2::new(aim.x, y));
        walk(&mut self.gait, &mut self.feet, &frame, &self.settings, plant, |e| events.push(e));
        let in_air_groups = self.feet.iter().filter(|f| f.is_swinging()).fold(0u64, |b, f| b | 1 << f.group);
        Frame {
            goals: self.feet.iter().map(StepFoot::goal).collect(),
            events,
            in_air_groups: in_air_groups.count_ones(),
        }
    }
}
