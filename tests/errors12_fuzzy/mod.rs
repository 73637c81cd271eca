//! A fuzzy controller's rule base in its own file, as fuzzy-logic code names it: the
//! firing strength of the rule "if the room is cold" is `cold_frule`, of "if it is warm"
//! `warm_frule` (Mamdani rules, `*_frule` for "fuzzy rule"). Functions of the user's that
//! happen to end in `_frule`, differentiated like any other.

/// The firing strength of "if the room is cold": a logistic step down at 18 °C.
#[fwdad::derive_frule]
pub fn cold_frule(t: f64) -> f64 {
    1.0 / (1.0 + ((t - 18.0) / 1.5).exp())
}

/// The firing strength of "if the room is warm": a Gaussian bump at 22 °C.
#[fwdad::derive_frule]
pub fn warm_frule(t: f64) -> f64 {
    let z = (t - 22.0) / 2.0;
    (-0.5 * z * z).exp()
}
