//! Reach rate of the multi-effector rig: targets taken from random poses of the same two-armed rig (so both are
//! reachable together), solved from the straight-armed start pose. Printed with `--nocapture`. Like FABRIK on a
//! chain, the tree converges slowly near full extension: at 64 passes about 80% (small turns) to 99% (large) reach
//! 0.05 px; at 256 passes 99.4-99.9%, the rest within 1 px.
mod common;
use common::Rng;
use reach2d_core::{FabrikRig, FabrikSettings, RigEffector, Vec2};

#[test]
fn rig_reach_rate() {
    let parents = common::TWO_ARMS_PARENTS;
    let base = common::TWO_ARMS_POINTS;
    let mut rig = FabrikRig::new(&parents, &common::TWO_ARMS_TIPS).unwrap();
    let mut rng = Rng(7);
    for spread in [0.3f32, 0.6, 1.0, 1.5] {
        let mut reached = 0;
        let mut worst = 0.0f32;
        let cases = 500;
        for _ in 0..cases {
            // Pose: turn every bone by a random angle (about its origin, carrying its subtree).
            let mut goal = base;
            let carrier = |p: usize| if p < 7 { parents[p] } else { [4, 6][p - 7] };
            let mut turns = [0.0f32; 7];
            for t in turns.iter_mut() {
                *t = rng.range(-spread, spread);
            }
            // Accumulate: global turn of bone i = own + parent's.
            let mut total = [0.0f32; 7];
            for i in 0..7 {
                total[i] = turns[i] + if i == 0 { 0.0 } else { total[parents[i]] };
            }
            for p in 1..9 {
                let c = carrier(p);
                goal[p] = goal[c] + Vec2::from_angle(total[c]).rotate(base[p] - base[c]);
            }
            let effectors =
                [RigEffector { target: goal[7], weight: 1.0 }, RigEffector { target: goal[8], weight: 1.0 }];
            let mut points = base;
            let r = rig
                .solve(&mut points, &effectors, &[], Vec2::Y, &FabrikSettings { max_iterations: 256, tolerance: 0.05 })
                .unwrap();
            if r.reached {
                reached += 1;
            }
            worst = worst.max(r.distance);
        }
        println!("spread {spread}: {reached}/{cases} reached (256 passes, 0.05 px), worst {worst}");
        assert!(reached * 100 >= cases * 98, "spread {spread}: only {reached}/{cases} reached");
        assert!(worst < 2.0, "spread {spread}: worst {worst} px");
    }
}
