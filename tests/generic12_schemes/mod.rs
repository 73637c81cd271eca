//! The stepper trait of `tests/generic12_traits.rs`, declared in a module file of its
//! own, apart from its implementations, as a library lays its traits out (`mod traits;`).
use fwdad::derive_frule;
use num_traits::Float;

/// A one-step method for `y' = f(t, y)`, generic over the scalar, with the time loop as a
/// default method.
#[derive_frule]
pub trait Integrator<T: Float> {
    /// One step of size `h` from `(t, y)`.
    fn step(&self, t: T, y: T, h: T) -> T;

    /// `n` steps of size `h` from `(t0, y0)`.
    fn run(&self, t0: T, y0: T, h: T, n: usize) -> T {
        let mut t = t0;
        let mut y = y0;
        for _ in 0..n {
            y = self.step(t, y, h);
            t = t + h;
        }
        y
    }
}
