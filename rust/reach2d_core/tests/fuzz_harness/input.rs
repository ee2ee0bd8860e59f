//! Decoding fuzz bytes ([`Bytes`]), and the solvers' validity rules restated, so a false rejection is caught.

use core::f32::consts::{PI, TAU};

use reach2d_core::{AngleLimit, MAX_COORDINATE, Vec2};

/// Reads fuzz bytes as numbers; past the end every read is zero, so any input decodes.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { data }
    }

    pub fn u8(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    pub fn flag(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    /// Uniform in `[lo, hi]` most of the time; sometimes a hostile value.
    pub fn float(&mut self, lo: f32, hi: f32) -> f32 {
        let tag = self.u8();
        if tag < 240 {
            return lo + (hi - lo) * (f32::from(self.u16()) / f32::from(u16::MAX));
        }
        match tag - 240 {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => f32::NEG_INFINITY,
            3 => 1.0e30,
            4 => -1.0e30,
            5 => MAX_COORDINATE,
            6 => -MAX_COORDINATE,
            7 => f32::MIN_POSITIVE / 4.0,
            8 => -0.0,
            9 => 0.0,
            10 => f32::EPSILON,
            11 => f32::MAX,
            12 => 1.0e7,
            13 => -1.0e7,
            _ => f32::from_bits(self.u32()),
        }
    }

    pub fn vec(&mut self, lo: f32, hi: f32) -> Vec2 {
        Vec2::new(self.float(lo, hi), self.float(lo, hi))
    }

    /// A limit from raw fields (may be invalid: `min > max`, wider than a turn, non-finite).
    pub fn limit(&mut self) -> Option<AngleLimit> {
        if self.u8() < 100 {
            return None;
        }
        let min = self.float(-PI, PI);
        let width = self.float(-0.2, TAU + 0.2);
        Some(AngleLimit { min, max: min + width })
    }
}

/// Prints a decoded input when `REACH2D_FUZZ_DEBUG` is set (to read a crash reproducer).
pub fn debug(input: &dyn core::fmt::Debug) {
    if std::env::var_os("REACH2D_FUZZ_DEBUG").is_some() {
        eprintln!("input: {input:#?}");
    }
}

/// Finite and within `MAX_COORDINATE` (the solvers' rule, restated here so a false rejection is caught).
pub fn coord_ok(v: Vec2) -> bool {
    v.x.abs() <= MAX_COORDINATE && v.y.abs() <= MAX_COORDINATE
}

/// Non-zero, and a squared length that neither underflows nor overflows.
pub fn direction_ok(d: Vec2) -> bool {
    let length_squared = d.length_squared();
    length_squared.is_finite() && length_squared > f32::MIN_POSITIVE
}

pub fn length_ok(l: f32) -> bool {
    (0.0..=MAX_COORDINATE).contains(&l)
}

pub fn tolerance_ok(t: f32) -> bool {
    t.is_finite() && t >= 0.0
}

pub fn same_bits(a: &[Vec2], b: &[Vec2]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(p, q)| p.x.to_bits() == q.x.to_bits() && p.y.to_bits() == q.y.to_bits())
}

pub fn check_report(distance: f32, reached: bool, tolerance: f32, actual: f32, eps: f32) {
    assert!(distance.is_finite(), "report distance {distance}");
    assert!((distance - actual).abs() <= eps + 1e-5 * actual, "report distance {distance}, tip is {actual} away");
    assert_eq!(reached, distance <= tolerance, "reached disagrees with distance {distance} / tolerance {tolerance}");
}
