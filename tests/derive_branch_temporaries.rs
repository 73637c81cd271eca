//! A reference to a temporary in the arms of an `if` or `match` that initialises a `let`
//! (`let m: &Lin = if c { &Lin { k: 2.0 } } else { &Lin { k: 3.0 } };`), whose lifetime
//! Rust extends to the `let`'s: the rule keeps it alive as long, in every mode, against
//! central differences of the plain function, each primal bit for bit.

mod common;

use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Spring {
    pub k: f64,
    pub rest: f64,
}

#[derive_frule]
impl Spring {
    fn energy(&self, x: f64) -> f64 {
        let d = x - self.rest;
        0.5 * self.k * d * d
    }
}

#[derive_frule]
fn stretch_energy(x: &[f64]) -> f64 {
    let mut e = 0.0;
    for (i, &xi) in x.iter().enumerate() {
        // Stiff springs on even nodes, soft ones on odd nodes.
        let s: &Spring = if i % 2 == 0 {
            &Spring { k: 40.0, rest: 0.5 }
        } else {
            &Spring { k: 2.5, rest: 1.0 }
        };
        e += s.energy(xi);
    }
    e
}

/// The spring's stiffness depends on the input: the temporary is active.
#[derive_frule]
fn graded_energy(x: &[f64]) -> f64 {
    let s = match x.len() {
        0 => &Spring { k: 1.0, rest: 0.0 },
        1 => &Spring {
            k: 2.0 * x[0],
            rest: 0.1,
        },
        _ => {
            if x[1] > 0.0 {
                &Spring {
                    k: x[1] * x[1],
                    rest: 0.2,
                }
            } else {
                &Spring { k: 3.0, rest: x[1] }
            }
        }
    };
    s.energy(x[0]) + x[1]
}

#[test]
fn borrowed_temporaries_of_if_arms_in_every_mode() {
    check_modes!(stretch_energy {}, stretch_energy, [0.3, 1.4, 0.9, 0.1]);
}

#[test]
fn borrowed_active_temporaries_of_nested_match_and_if_arms_in_every_mode() {
    check_modes!(graded_energy {}, graded_energy, [0.7, 1.3]);
    check_modes!(graded_energy {}, graded_energy, [0.7, -1.3]);
}
