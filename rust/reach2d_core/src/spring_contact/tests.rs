//! The spring's colliders, by subject.

mod chains;
mod queries;
mod sim;
mod slide;
mod worlds;
