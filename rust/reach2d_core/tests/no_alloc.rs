//! Proves that a steady-state solve performs zero heap allocations, with a counting global
//! allocator (per thread, so the test harness's own threads do not interfere).
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use reach2d_core::{
    AngleLimit, CcdSettings, ChainLimits, ChainSolver, FabrikSettings, Vec2, solve_ccd, solve_fabrik, solve_look_at,
    solve_two_bone,
};
use reach2d_core::{FabrikRig, RigEffector};

mod common;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn bump() {
    // `try_with`: the slot may already be gone while a thread is being torn down.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: forwards every call to `System` unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn counter_sees_allocations() {
    let n = allocations_during(|| {
        std::hint::black_box(vec![1u8; 16]);
    });
    assert!(n >= 1, "the counting allocator must see a Vec");
}

#[test]
fn steady_state_solves_do_not_allocate() {
    const N: usize = 16;
    let lengths = [10.0f32; N];
    let mut joints: Vec<Vec2> = (0..=N).map(|i| Vec2::new(i as f32 * 10.0, 0.0)).collect();
    let per_bone = [AngleLimit::new(-0.8, 0.8); N];
    let limited = ChainLimits { root_direction: Vec2::X, per_bone: &per_bone };
    let fabrik = FabrikSettings { max_iterations: 32, tolerance: 0.0 };
    let ccd = CcdSettings { max_iterations: 32, tolerance: 0.0, max_angle_step: 0.2 };
    let targets = [
        Vec2::new(50.0, 60.0),
        Vec2::new(-40.0, 30.0),
        Vec2::new(1000.0, 0.0),
        Vec2::ZERO,
        Vec2::new(f32::NAN, 0.0), // error path too
    ];
    // Warm up (first calls may touch lazily initialised runtime state).
    let _ = solve_fabrik(&mut joints, &lengths, targets[0], &limited, &fabrik);
    let count = allocations_during(|| {
        for _ in 0..10 {
            for &t in &targets {
                let _ = solve_fabrik(&mut joints, &lengths, t, &ChainLimits::NONE, &fabrik);
                let _ = solve_fabrik(&mut joints, &lengths, t, &limited, &fabrik);
                let _ = solve_ccd(&mut joints, t, &ChainLimits::NONE, &ccd);
                let _ = solve_ccd(&mut joints, t, &limited, &ccd);
                let _ = ccd.solve(&mut joints, &lengths, t, &limited);
                let _ = fabrik.solve(&mut joints, &lengths, t, &limited);
                let _ = solve_two_bone(Vec2::ZERO, 3.0, 4.0, t, -1.0, 0.1);
                let _ = solve_look_at(Vec2::ZERO, Vec2::X, t, 0.3, Some((per_bone[0].unwrap(), Vec2::Y)));
            }
        }
    });
    assert_eq!(count, 0, "solving allocated {count} times");
    assert!(joints.iter().all(|p| p.is_finite()));
}

#[test]
fn limited_refinement_does_not_allocate() {
    // Reachable in-limit targets (the refinement and, with tolerance 0, its restarts in the
    // stack buffer run), on a chain that gets restarts (N = 12) and one too long for them
    // (N = 70).
    for n in [12usize, 70] {
        let lengths: Vec<f32> = (0..n).map(|i| if i % 5 == 3 { 0.0 } else { 8.0 + i as f32 }).collect();
        let per_bone: Vec<_> = (0..n).map(|i| AngleLimit::new(-0.2 - 0.05 * i as f32, 0.6)).collect();
        let limits = ChainLimits { root_direction: Vec2::Y, per_bone: &per_bone };
        let mut joints: Vec<Vec2> = (0..=n).map(|i| Vec2::new(0.0, i as f32)).collect();
        let targets: Vec<Vec2> = [0.1f32, 0.35, 0.55]
            .iter()
            .map(|&a| {
                let (mut p, mut dir) = (Vec2::ZERO, Vec2::Y);
                for &l in &lengths {
                    dir = dir.rotate(Vec2::from_angle(a));
                    p += dir * l;
                }
                p
            })
            .collect();
        for tolerance in [0.5, 0.0] {
            let fabrik = FabrikSettings { max_iterations: 64, tolerance };
            let ccd = CcdSettings { max_iterations: 64, tolerance, ..CcdSettings::default() };
            let _ = solve_fabrik(&mut joints, &lengths, targets[0], &limits, &fabrik);
            let count = allocations_during(|| {
                for &t in &targets {
                    let _ = solve_fabrik(&mut joints, &lengths, t, &limits, &fabrik);
                    let _ = solve_ccd(&mut joints, t, &limits, &ccd);
                    let _ = solve_ccd(&mut joints, t, &ChainLimits::NONE, &ccd);
                }
            });
            assert_eq!(count, 0, "N={n}: solving allocated {count} times");
        }
        assert!(joints.iter().all(|p| p.is_finite()));
    }
}

#[test]
fn spring_steps_do_not_allocate() {
    use reach2d_core::{
        SpringBone, SpringFrame, SpringGoal, SpringScale, SpringSettings, carry_spring, reset_spring, step_spring,
    };
    const N: usize = 16;
    let mut goal_joints: Vec<Vec2> = (0..=N).map(|i| Vec2::new(i as f32 * 10.0, 0.0)).collect();
    let per_bone = [AngleLimit::new(-0.8, 0.8); N];
    let scales = [SpringScale { stiffness: 0.5, damping: 2.0 }; N];
    let settings = SpringSettings { gravity: Vec2::new(0.0, 980.0), max_angle_step: 0.2, ..SpringSettings::default() };
    let mut frame = SpringFrame::default();
    let mut bones = vec![SpringBone::default(); N];
    let mut out = vec![Vec2::ZERO; N + 1];
    let count = allocations_during(|| {
        for step in 0..200 {
            for j in goal_joints.iter_mut() {
                *j += Vec2::new((step as f32 * 0.1).sin(), 0.5);
            }
            let goal = SpringGoal {
                joints: &goal_joints,
                limits: ChainLimits { root_direction: Vec2::from_angle(step as f32 * 0.01), per_bone: &per_bone },
                scales: &scales,
            };
            let _ = step_spring(&mut frame, &mut bones, &goal, &settings, 1.0 / 60.0, &mut out);
            if step % 50 == 0 {
                carry_spring(&mut frame, &mut bones, glam::Affine2::from_scale(Vec2::new(-1.0, 1.0)));
                let _ = reset_spring(&mut frame, &mut bones, &goal);
            }
            let _ = step_spring(&mut frame, &mut bones, &goal, &settings, f32::NAN, &mut out); // error path
        }
    });
    assert_eq!(count, 0, "spring steps allocated {count} times");
    assert!(out.iter().all(|p| p.is_finite()));
}

#[test]
fn rig_steady_state_solve_does_not_allocate() {
    let mut rig = FabrikRig::new(&common::TWO_ARMS_PARENTS, &common::TWO_ARMS_TIPS).unwrap();
    let start = common::TWO_ARMS_POINTS;
    let effectors = [
        RigEffector { target: Vec2::new(-30.0, 60.0), weight: 1.0 },
        RigEffector { target: Vec2::new(90.0, 90.0), weight: 2.0 },
    ];
    let limits = [None, AngleLimit::new(-0.3, 0.3), None, None, None, None, None];
    let mut points = start;
    let n = allocations_during(|| {
        for _ in 0..10 {
            points = start;
            let report = rig.solve(&mut points, &effectors, &limits, Vec2::Y, &FabrikSettings::default()).unwrap();
            std::hint::black_box(report);
        }
    });
    assert_eq!(n, 0);
}

#[test]
fn path_fits_do_not_allocate_once_the_path_is_set() {
    use reach2d_core::{PathFitSettings, PathPolyline, PathTravel, fit_chain};
    let mut path = PathPolyline::default();
    let wave = |phase: f32| (0..400).map(move |i| Vec2::new(i as f32 * 5.0, 80.0 * (i as f32 * 0.03 + phase).sin()));
    path.set(wave(0.0)).unwrap();
    let mut joints: Vec<Vec2> = (0..=12).map(|i| Vec2::new(0.0, i as f32 * 20.0)).collect();
    let mut wanted = vec![Vec2::ZERO; joints.len()];
    let per_bone = [AngleLimit::new(-0.4, 0.4); 12];
    let limits = ChainLimits { root_direction: Vec2::X, per_bone: &per_bone };
    // The travel's memory grows on its first fit.
    let mut travel = PathTravel::default();
    travel.fit(&path, &mut joints, &limits, &PathFitSettings::default(), &mut wanted, 0.016).unwrap();
    let count = allocations_during(|| {
        for frame in 0..60 {
            let settings = PathFitSettings { offset: frame as f32 * 13.0 - 100.0, tip_along_tangent: frame % 2 == 0 };
            let _ = fit_chain(&path, &mut joints, &ChainLimits::NONE, &settings, &mut wanted);
            let _ = fit_chain(&path, &mut joints, &limits, &settings, &mut wanted);
            let _ = travel.fit(&path, &mut joints, &limits, &settings, &mut wanted, 0.016);
            // The path moving (its transform changed): set again, no larger than before.
            path.set(wave(frame as f32 * 0.1)).unwrap();
        }
    });
    assert_eq!(count, 0, "fitting allocated {count} times");
    assert!(joints.iter().all(|p| p.is_finite()));
}

#[test]
fn copy_transform_does_not_allocate() {
    use glam::Affine2;
    use reach2d_core::copy_transform::{
        BoneFrame, CopySettings, CopySpace, LocalPose, Property, Remap, copy_transform, read_source,
    };
    let bone = BoneFrame {
        unwritten: LocalPose { position: Vec2::new(3.0, 4.0), rotation: 0.2, scale: Vec2::ONE, skew: 0.1 },
        parent: Affine2::from_scale_angle_translation(Vec2::new(-1.0, 2.0), 0.3, Vec2::new(5.0, 6.0)),
        rest: Affine2::from_angle(0.4),
    };
    let mut total = Vec2::ZERO;
    let n = allocations_during(|| {
        for step in 0..300 {
            let space = [CopySpace::Global, CopySpace::Local, CopySpace::Rest][step % 3];
            let mut settings = CopySettings { space, ..CopySettings::default() };
            settings.amounts.scale = 0.5;
            settings.rotation = Remap { from: Property::X, factor: 0.01, range: Some((-1.0, 1.0)) };
            let source =
                Affine2::from_scale_angle_translation(Vec2::splat(1.5), step as f32 * 0.1, Vec2::splat(step as f32));
            if let Ok(reading) = read_source(space, source, Affine2::IDENTITY)
                && let Ok(copied) = copy_transform(&settings, &reading, &bone)
            {
                total += copied.position;
            }
        }
    });
    assert_eq!(n, 0, "copies allocated {n} times");
    assert!(total.is_finite());
}

#[test]
fn stepper_walks_do_not_allocate() {
    use reach2d_core::stepper::{
        BodyFit, Gait, StepFoot, StepFrame, StepSettings, carry, fit_body, reground, replant, walk,
    };
    const N: usize = 8;
    let offsets: Vec<Vec2> = (0..N).map(|i| Vec2::new(i as f32 * 20.0 - 70.0, 0.0)).collect();
    let mut homes = offsets.clone();
    let mut feet: Vec<StepFoot> = (0..N).map(|i| StepFoot::new((i % 2) as u32)).collect();
    let mut gait = Gait::default();
    let settings = StepSettings { max_lag: 50.0, ..StepSettings::default() };
    let ground =
        |_: Vec2, aim: Vec2| (aim.x.rem_euclid(500.0) > 40.0).then(|| Vec2::new(aim.x, (aim.x * 0.02).sin() * 10.0));
    let mut events = 0;
    let count = allocations_during(|| {
        replant(&mut feet, &homes, ground);
        let mut body = Vec2::ZERO;
        for frame in 0..600 {
            let velocity = Vec2::new(200.0 * (frame as f32 * 0.01).cos(), 0.0);
            body += velocity / 60.0;
            for (home, offset) in homes.iter_mut().zip(&offsets) {
                *home = body + *offset;
            }
            let input = StepFrame { homes: &homes, up: Vec2::NEG_Y, velocity, delta: 1.0 / 60.0, reach: &[] };
            walk(&mut gait, &mut feet, &input, &settings, ground, |_| events += 1);
            let planted = feet.iter().zip(&homes).filter_map(|(f, h)| f.planted_at().map(|a| (a, *h)));
            std::hint::black_box(fit_body(planted, body, Vec2::NEG_Y, BodyFit::Line));
            if frame % 100 == 0 {
                carry(&mut feet, |p| Vec2::new(2.0 * body.x - p.x, p.y));
                reground(&mut feet, ground);
            }
        }
    });
    assert_eq!(count, 0, "the stepper allocated {count} times");
    assert!(events > 50 && feet.iter().all(|f| f.goal().is_finite()));
}
