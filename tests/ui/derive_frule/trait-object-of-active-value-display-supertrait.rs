// A value that depends on the inputs boxed as a trait object whose trait has a supertrait
// other than `Debug`, `Send` and `Sync` (here `Display`): its objects cannot carry the
// derivative (the carrier cannot implement the supertrait), so boxing it is an error at
// `Box::new` saying so and what to write instead.
use fwdad::prelude::*;
use std::fmt;

#[derive_frule]
pub trait Gauge: fmt::Display {
    fn reading(&self, load: f64) -> f64;
}

#[derive(Clone, Copy, Differentiable)]
pub struct Spring {
    pub k: f64,
}

impl fmt::Display for Spring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "spring k={}", self.k)
    }
}

#[derive_frule]
impl Gauge for Spring {
    fn reading(&self, load: f64) -> f64 {
        load / self.k
    }
}

#[derive_frule]
fn stretch(k: f64, load: f64) -> f64 {
    let gauges: Vec<Box<dyn Gauge>> = vec![Box::new(Spring { k })];
    gauges.iter().map(|g| g.reading(load)).sum()
}

// Built from constants, the same objects are fine (no error here).
#[derive_frule]
fn stretch_of_fixed_springs(load: f64) -> f64 {
    let gauges: Vec<Box<dyn Gauge>> = vec![Box::new(Spring { k: 2.0 }), Box::new(Spring { k: 3.0 })];
    gauges.iter().map(|g| g.reading(load)).sum()
}

fn main() {}
