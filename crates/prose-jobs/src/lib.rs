//! Job entries (seed 002).
pub mod json;
