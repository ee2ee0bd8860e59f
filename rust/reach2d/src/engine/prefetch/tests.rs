use super::*;

#[test]
fn the_hinted_lines_are_the_ones_asked_for() {
    assert_eq!(line_addresses(0x1000, 3).collect::<Vec<_>>(), [0x1000, 0x1040, 0x1080]);
    assert_eq!(line_addresses(0x1000, 0).count(), 0);
    assert_eq!(line_addresses(0, OBJECT_LINES).count(), 0, "a null handle asks for nothing");
    // The end of the address space wraps instead of overflowing (a debug build would panic).
    assert_eq!(line_addresses(usize::MAX - 8, 2).collect::<Vec<_>>(), [usize::MAX - 8, 55]);
    assert_eq!(line_addresses(1, OBJECT_LINES).count(), OBJECT_LINES);
}

#[test]
fn a_hint_never_faults_nor_changes_memory() {
    // Addresses that would fault on a read: a hint must not (the test process would die).
    prefetch(1, OBJECT_LINES);
    prefetch(usize::MAX - 8, 2);
    let buffer: Vec<u8> = (0..4 * LINE).map(|i| i as u8).collect();
    prefetch(buffer.as_ptr() as usize, 4);
    assert!(buffer.iter().enumerate().all(|(i, &b)| b == i as u8));
}
