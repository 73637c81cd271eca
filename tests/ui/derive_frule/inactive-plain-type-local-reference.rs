// A reference to a value of a type without `Differentiable` made in the body (`&band` of a
// local `Band { .. }`), passed to a parameter declared `inactive`: only a parameter of the
// caller declared `inactive` (or a reference into one) is passed on plain. Instead: take
// the value as an `inactive` parameter, or give the type `#[derive(Differentiable)]`.
use fwdad::prelude::*;

pub struct Band {
    pub gain: f64,
    pub centre: f64,
}

#[derive_frule(inactive(band))]
fn band_response(band: &Band, f: f64) -> f64 {
    band.gain / (1.0 + (f - band.centre).powi(2))
}

#[derive_frule]
fn response(f: f64) -> f64 {
    let band = Band {
        gain: 2.0,
        centre: 0.5,
    };
    band_response(&band, f)
}

fn main() {}
