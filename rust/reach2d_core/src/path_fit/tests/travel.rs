//! Travel over corners: sliding a chain over a sharp corner (follow, the root on the path) or moving the corner
//! under a fixed root (fit), no joint moves more than 4 times the step per frame with `PathTravel`, where the plain
//! fit jumps; the chain is back on the path once past; a reflection travels as the reflected chain; a reset snaps.

use glam::Vec2;

use super::fixtures::{distance_from, lengths_of, open, straight_chain};
use crate::ChainLimits;
use crate::common::assert_approx_eq;
use crate::path_fit::{PathFitSettings, PathPolyline, PathTravel, fit_chain};

const LENGTHS: [f32; 6] = [19.0, 17.0, 21.0, 19.0, 15.0, 20.0];
const STEP: f32 = 2.0;
const DELTA: f32 = 1.0 / 60.0;
/// Frames all stands still after the slide.
const HOLD: usize = 120;

/// An open path along +X to `corner`, then 300 units on, turned by `degrees` (toward +Y), seen through `flip` (-1:
/// mirrored across the y axis).
fn corner_path(corner: Vec2, degrees: f32, flip: f32) -> PathPolyline {
    let out = corner + Vec2::from_angle(degrees.to_radians()) * 300.0;
    let m = Vec2::new(flip, 1.0);
    open(&[Vec2::new(0.0, 0.0) * m, corner * m, out * m])
}

/// Slides the chain over a corner turned by `degrees`: follow (the root on the path at the offset, the offset up by
/// STEP a frame) or, with `moving`, fit with the root fixed and the corner moving back by STEP a frame. Returns the
/// joints every frame.
fn slide(degrees: f32, moving: bool, flip: f32, travel: Option<&mut PathTravel>) -> Vec<Vec<Vec2>> {
    slide_at(1, degrees, moving, flip, travel)
}

/// `slide` at `rate` times the frame rate: a `rate`th of the step and of the time step a frame, `rate` times the
/// frames.
fn slide_at(rate: usize, degrees: f32, moving: bool, flip: f32, travel: Option<&mut PathTravel>) -> Vec<Vec<Vec2>> {
    let mut memory = PathTravel::default();
    let travel = travel.unwrap_or(&mut memory);
    let plain = travel.is_primed();
    let mut joints = straight_chain(Vec2::new(10.0 * flip, -30.0), Vec2::new(flip, 0.0), &LENGTHS);
    let mut out = Vec::new();
    let (frames, delta) = (135 * rate, DELTA / rate as f32);
    for frame in 0..=frames + HOLD * rate {
        // The last HOLD frames: all stands still.
        let step = frame.min(frames) as f32 * STEP / rate as f32;
        let (corner, offset) =
            if moving { (Vec2::new(340.0 - step, 0.0), 40.0) } else { (Vec2::new(200.0, 0.0), step) };
        let path = corner_path(corner, degrees, flip);
        if !moving {
            // The root moves onto the path, carrying the chain.
            let shift = path.point(path.cursor_at(offset)) - joints[0];
            joints.iter_mut().for_each(|joint| *joint += shift);
        }
        let settings = PathFitSettings { offset, tip_along_tangent: false };
        if plain {
            fit_chain(&path, &mut joints, &ChainLimits::NONE, &settings, &mut []).unwrap();
        } else {
            travel.fit(&path, &mut joints, &ChainLimits::NONE, &settings, &mut [], delta).unwrap();
        }
        out.push(joints.clone());
    }
    out
}

/// The largest move of any joint between two frames.
fn largest_move(frames: &[Vec<Vec2>]) -> f32 {
    let moves = frames.windows(2).flat_map(|pair| pair[0].iter().zip(&pair[1]).map(|(a, b)| a.distance(*b)));
    moves.fold(0.0, f32::max)
}

/// A `PathTravel` that is primed: `slide` then fits without it (the plain fit).
fn plain_fit() -> PathTravel {
    let mut travel = PathTravel::default();
    let path = corner_path(Vec2::new(200.0, 0.0), 90.0, 1.0);
    let mut joints = straight_chain(Vec2::ZERO, Vec2::X, &LENGTHS);
    let settings = PathFitSettings::default();
    travel.fit(&path, &mut joints, &ChainLimits::NONE, &settings, &mut [], DELTA).unwrap();
    travel
}

#[test]
fn no_joint_moves_more_than_four_steps_a_frame_over_a_corner() {
    for moving in [false, true] {
        for degrees in [90.0, 120.0, 160.0, 170.0, 176.0] {
            let travelled = largest_move(&slide(degrees, moving, 1.0, None)) / STEP;
            let plain = largest_move(&slide(degrees, moving, 1.0, Some(&mut plain_fit()))) / STEP;
            println!(
                "corner {degrees} deg, moving {moving}: largest joint move {plain:.2} steps plain, {travelled:.2} travelling"
            );
            if degrees <= 170.0 {
                assert!(travelled <= 4.0, "{degrees} deg, moving {moving}: {travelled} steps");
            }
            if degrees >= 120.0 {
                assert!(plain > 4.0, "the plain fit jumps at {degrees} deg ({plain} steps)");
            }
        }
    }
}

#[test]
fn at_twice_the_frame_rate_a_joint_moves_half_as_far_a_frame() {
    for moving in [false, true] {
        for degrees in [120.0, 170.0] {
            let at_60 = largest_move(&slide(degrees, moving, 1.0, None)) / STEP;
            let at_120 = largest_move(&slide_at(2, degrees, moving, 1.0, None)) / (STEP / 2.0);
            println!(
                "corner {degrees} deg, moving {moving}: {at_60:.2} steps at 60 frames a second, {at_120:.2} at 120"
            );
            assert!(at_120 <= 4.0 && (at_120 - at_60).abs() <= 0.25, "{degrees} deg, moving {moving}");
        }
    }
}

#[test]
fn the_chain_arrives_back_on_the_path_with_exact_lengths() {
    for moving in [false, true] {
        let frames = slide(160.0, moving, 1.0, None);
        let last = frames.last().unwrap();
        let step = 135.0 * STEP;
        let corner = if moving { Vec2::new(340.0 - step, 0.0) } else { Vec2::new(200.0, 0.0) };
        let path = corner_path(corner, 160.0, 1.0);
        let offset = if moving { 40.0 } else { step };
        let mut fitted = last.clone();
        let settings = PathFitSettings { offset, tip_along_tangent: false };
        fit_chain(&path, &mut fitted, &ChainLimits::NONE, &settings, &mut []).unwrap();
        for (i, (&joint, &fit)) in last.iter().zip(&fitted).enumerate() {
            assert!(joint.distance(fit) < 1e-3, "moving {moving}: joint {i} {joint} where the fit wants it ({fit})");
        }
        assert!(distance_from(&path, last[LENGTHS.len()]) < 1e-3, "the tip on the path");
        for frame in &frames {
            for (fitted, length) in lengths_of(frame).iter().zip(LENGTHS) {
                assert_approx_eq!(*fitted, length, 1e-3);
            }
        }
    }
}

#[test]
fn a_mirrored_chain_travels_as_the_mirror_image() {
    for moving in [false, true] {
        for degrees in [120.0, 170.0] {
            let plain = slide(degrees, moving, 1.0, None);
            let mirrored = slide(degrees, moving, -1.0, None);
            for (a, b) in plain.iter().flatten().zip(mirrored.iter().flatten()) {
                assert_eq!(Vec2::new(-a.x, a.y), *b);
            }
        }
    }
}

#[test]
fn a_reset_snaps_and_a_jump_of_the_offset_is_followed_at_once() {
    let path = corner_path(Vec2::new(200.0, 0.0), 160.0, 1.0);
    let mut joints = straight_chain(Vec2::new(20.0, -40.0), Vec2::X, &LENGTHS);
    let mut travel = PathTravel::default();
    let mut wanted = vec![Vec2::ZERO; joints.len()];
    for offset in [20.0, 400.0] {
        let settings = PathFitSettings { offset, tip_along_tangent: false };
        travel.fit(&path, &mut joints, &ChainLimits::NONE, &settings, &mut wanted, DELTA).unwrap();
        assert_eq!(joints, wanted, "offset {offset}: every joint where the fit wants it");
    }
    travel.reset();
    assert!(!travel.is_primed());
    joints.iter_mut().for_each(|joint| *joint += Vec2::new(300.0, 500.0));
    let settings = PathFitSettings { offset: 150.0, tip_along_tangent: false };
    travel.fit(&path, &mut joints, &ChainLimits::NONE, &settings, &mut wanted, DELTA).unwrap();
    assert_eq!(joints, wanted);
}
