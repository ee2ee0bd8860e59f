//! The step planner's tests, by subject: the arc and the aim, the walk's rules, the body's fit, the mirror, and the
//! property tests over random walks (proptest), with the walking creature they share in `fixtures.rs`.

mod arc;
mod body;
mod fixtures;
mod mirror;
mod properties;
mod reach;
mod rules;
