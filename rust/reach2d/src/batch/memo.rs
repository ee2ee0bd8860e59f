//! What one member's last visit touched, to prefetch before it is visited again.

use crate::engine::prefetch::{BUFFER_LINES, OBJECT_LINES, prefetch};
use crate::runtime::frame::UpdateMode;

/// Engine objects remembered per member for prefetching: the node, the root's parent and the first bones.
const MAX_OBJECTS: usize = 20;
/// Rust buffers remembered per member: the node's own struct, its chain's handles and its pose buffers
/// (`io::bones::touched`).
const MAX_BUFFERS: usize = 14;

/// What one member's last visit touched, to prefetch on the next pass before it is visited again, and its mode as
/// last seen. Addresses are only ever prefetched, never read through, so a stale one (a bone freed since) costs a
/// wasted fetch and nothing else. Inline arrays: no allocation.
#[derive(Clone, Copy)]
pub struct Memo {
    objects: [usize; MAX_OBJECTS],
    object_count: u8,
    buffers: [usize; MAX_BUFFERS],
    buffer_count: u8,
    /// The node's update mode at its last visit: the physics pass visits only physics members.
    pub mode: UpdateMode,
}

impl Default for Memo {
    fn default() -> Self {
        Self {
            objects: [0; MAX_OBJECTS],
            object_count: 0,
            buffers: [0; MAX_BUFFERS],
            buffer_count: 0,
            mode: UpdateMode::Process,
        }
    }
}

impl Memo {
    /// A memo for a member that has not run yet, in `mode`.
    pub fn new(mode: UpdateMode) -> Self {
        Self { mode, ..Self::default() }
    }

    /// Forgets the addresses (a visit is about to record new ones).
    pub fn clear(&mut self) {
        self.object_count = 0;
        self.buffer_count = 0;
    }

    /// Remembers an engine object's address (0: none).
    pub fn push_object(&mut self, address: usize) {
        if usize::from(self.object_count) < MAX_OBJECTS && address != 0 {
            self.objects[usize::from(self.object_count)] = address;
            self.object_count += 1;
        }
    }

    /// Remembers a Rust buffer's address (0: none).
    pub fn push_buffer(&mut self, address: usize) {
        if usize::from(self.buffer_count) < MAX_BUFFERS && address != 0 {
            self.buffers[usize::from(self.buffer_count)] = address;
            self.buffer_count += 1;
        }
    }

    /// Asks the cache for everything remembered.
    pub fn prefetch(&self) {
        for &address in &self.objects[..usize::from(self.object_count)] {
            prefetch(address, OBJECT_LINES);
        }
        for &address in &self.buffers[..usize::from(self.buffer_count)] {
            prefetch(address, BUFFER_LINES);
        }
    }
}
