//! "Is this still what we wrote?": the one rule every node uses to tell its own output, read back from the engine,
//! from a value someone else (an animation, a script, the user) gave the same property since.
//!
//! The engine does not always hand a written value back bit for bit: a `Skeleton2D` with a modification stack (even
//! an empty or disabled one) rebuilds each bone's transform and derives the rotation from it again, a few float
//! steps off (0.952237964 written, 0.952238023 read), and a position can come back through a global transform. An
//! exact comparison then takes the node's own output for a new pose (a knee that flips every frame, issue 31). So
//! a value counts as written within [`ROUND_TRIP`] of it, relative to its size, for rotations (radians) and
//! positions (px) alike; a genuinely new value is never that close to the old one by chance in a way that matters
//! (a difference below 1e-5 of the value is invisible).

use reach2d_core::Vec2;

/// Relative tolerance of an engine round trip (at least this many radians or pixels for values up to 1).
pub const ROUND_TRIP: f32 = 1e-5;

/// A value the engine can hand back with rounding.
pub trait RoundTrip: Copy {
    /// `true` when `read` is `written` back from the engine, within [`ROUND_TRIP`].
    fn is_written(read: Self, written: Self) -> bool;
}

impl RoundTrip for f32 {
    fn is_written(read: f32, written: f32) -> bool {
        (read - written).abs() <= ROUND_TRIP * read.abs().max(written.abs()).max(1.0)
    }
}

impl RoundTrip for Vec2 {
    fn is_written(read: Vec2, written: Vec2) -> bool {
        f32::is_written(read.x, written.x) && f32::is_written(read.y, written.y)
    }
}

/// One engine value a node writes over someone else's: the value they gave it (the *unwritten* one) and the node's
/// last write. The node reads the engine's current value with [`Overwritten::observe`] before it writes: a value
/// that is no longer its own write is someone else's and becomes the unwritten value.
#[derive(Clone, Copy, Debug, Default)]
pub struct Overwritten<T> {
    unwritten: T,
    written: Option<T>,
}

impl<T: RoundTrip> Overwritten<T> {
    /// Takes `current` (the engine's value now) as someone else's unless it is still the node's last write;
    /// returns the unwritten value.
    pub fn observe(&mut self, current: T) -> T {
        if !self.holds_own(current) {
            self.unwritten = current;
            self.written = None;
        }
        self.unwritten
    }

    /// `true` when `current` is still the node's last write.
    pub fn holds_own(&self, current: T) -> bool {
        self.written.is_some_and(|w| T::is_written(current, w))
    }

    /// Records that the node wrote `value`.
    pub fn wrote(&mut self, value: T) {
        self.written = Some(value);
    }

    /// The value someone else gave the property.
    pub fn unwritten(&self) -> T {
        self.unwritten
    }

    /// The node's last write, if it has one that was not since replaced.
    pub fn written(&self) -> Option<T> {
        self.written
    }

    /// Letting go: the unwritten value to put back when the engine still holds the node's write (`None`: nothing to
    /// put back). Forgets the write either way.
    pub fn release(&mut self, current: T) -> Option<T> {
        let own = self.holds_own(current);
        self.written = None;
        own.then_some(self.unwritten)
    }
}

#[cfg(test)]
mod tests;
