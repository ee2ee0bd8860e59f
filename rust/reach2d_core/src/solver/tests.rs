use crate::common::assert_lengths;
use crate::*;
use glam::Vec2;

#[test]
fn chain_solver_trait_both_keep_lengths() {
    let solvers: [&dyn ChainSolver; 2] = [
        &FabrikSettings { max_iterations: 64, tolerance: 0.01 },
        &CcdSettings { max_iterations: 64, tolerance: 0.01, ..CcdSettings::default() },
    ];
    for solver in solvers {
        // Incoming spacing differs from the lengths.
        let mut j = vec![Vec2::ZERO, Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0)];
        let l = [3.0, 2.0];
        let r = solver.solve(&mut j, &l, Vec2::new(2.0, 3.0), &ChainLimits::NONE).unwrap();
        assert!(r.reached, "{r:?}");
        assert_lengths(&j, &l, 0.0, 1e-4);
        assert_eq!(
            solver.solve(&mut j, &[1.0], Vec2::ONE, &ChainLimits::NONE),
            Err(SolveError::LengthMismatch { joints: 3, lengths: 1 })
        );
    }
}
