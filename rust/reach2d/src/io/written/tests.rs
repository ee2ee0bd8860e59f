use super::*;

#[test]
fn a_round_trip_off_by_a_few_float_steps_is_still_written() {
    // The value issue 31 saw: written 0.952237964, read back 0.952238023 through a Skeleton2D with a stack.
    let written = 0.952_237_96_f32;
    let read = f32::from_bits(written.to_bits() + 1);
    assert!(f32::is_written(read, written));
    assert!(f32::is_written(0.952_238, written));
    // Large values (an unwrapped rotation, a position far from the origin) keep the same relative tolerance.
    assert!(f32::is_written(1000.004, 1000.0));
    assert!(!f32::is_written(1000.02, 1000.0));
}

#[test]
fn a_new_value_is_not_written() {
    assert!(!f32::is_written(0.953, 0.952));
    assert!(!f32::is_written(-0.9522, 0.9522));
    assert!(!Vec2::is_written(Vec2::new(10.0, 20.001), Vec2::new(10.0, 20.0)));
    assert!(!f32::is_written(f32::NAN, 0.0));
}

#[test]
fn overwritten_keeps_the_unwritten_value_while_the_engine_holds_its_own() {
    let mut value = Overwritten::<f32>::default();
    assert_eq!(value.observe(0.3), 0.3);
    value.wrote(0.8);
    // The engine hands our write back, a float step off: still ours, the unwritten value stays.
    assert_eq!(value.observe(f32::from_bits(0.8_f32.to_bits() + 1)), 0.3);
    // Someone else writes: that is the new unwritten value, and our write is forgotten.
    assert_eq!(value.observe(0.5), 0.5);
    assert_eq!(value.written(), None);
    value.wrote(0.9);
    assert_eq!(value.release(0.9), Some(0.5));
    assert_eq!(value.release(0.9), None, "released once");
    value.wrote(0.9);
    assert_eq!(value.release(0.1), None, "someone else's value is never put back over");
}
