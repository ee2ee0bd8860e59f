use super::*;

#[test]
fn prefetch_never_reads() {
    // Addresses that would fault on a read: a hint must not.
    prefetch(1, OBJECT_LINES);
    prefetch(usize::MAX - 8, 2);
    prefetch(0, OBJECT_LINES);
    let buffer = [0u8; 4 * LINE];
    prefetch(buffer.as_ptr() as usize, 4);
}
