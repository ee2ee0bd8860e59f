//! The copy's tests, by subject: the remap's arithmetic, each space's meaning, mirrored inputs, bad input, and the
//! property tests over random inputs (proptest).

mod bad_input;
mod fixtures;
mod mirror;
mod properties;
mod remap;
mod spaces;
mod turning;
