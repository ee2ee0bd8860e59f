//! The spring's tests, all in one place: unit tests with the module's private items in reach (the speed cap, the
//! state's fields) and the property tests over random chains (proptest), by subject.

mod bad_input;
mod equilibrium;
mod fixtures;
mod mirror;
mod motion;
mod properties;
