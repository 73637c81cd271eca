//! `static` and `const` tables of the user's structs read in a derived body, as chemical
//! and physical codes keep reaction lists and material data: `for rx in REACTIONS.iter()`
//! over a `static` of non-`Copy` structs holding `&'static [(usize, f64)]`, a `const`
//! table indexed in a loop. Checked against closed forms (Arrhenius: dk/dT = k·Ea/(R·T²))
//! and central differences in every mode, primals bit for bit.
// The table is indexed as the physics code does (`WALL[i].k`).
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

pub struct Reaction {
    pub reactants: &'static [(usize, f64)],
    pub products: &'static [(usize, f64)],
    pub a: f64,
    pub ea: f64,
}

pub static REACTIONS: [Reaction; 2] = [
    Reaction {
        reactants: &[(0, 1.0)],
        products: &[(1, 1.0)],
        a: 1.0e3,
        ea: 4.0e4,
    },
    Reaction {
        reactants: &[(1, 2.0)],
        products: &[(2, 1.0)],
        a: 5.0e2,
        ea: 3.0e4,
    },
];

const R_GAS: f64 = 8.314;

/// Mass-action rates of change of three species.
#[derive_frule]
fn rates(c: &[f64; 3], temp: f64) -> [f64; 3] {
    let mut dc = [0.0; 3];
    for rx in REACTIONS.iter() {
        let k = rx.a * (-rx.ea / (R_GAS * temp)).exp();
        let mut r = k;
        for &(s, nu) in rx.reactants {
            r *= c[s].powf(nu);
        }
        for &(s, nu) in rx.reactants {
            dc[s] -= nu * r;
        }
        for &(s, nu) in rx.products {
            dc[s] += nu * r;
        }
    }
    dc
}

#[derive_frule]
fn product_rate(x: &[f64]) -> f64 {
    let c = [x[0], x[1], x[2]];
    rates(&c, x[3])[2]
}

#[derive(Clone, Copy)]
pub struct Layer {
    pub k: f64,
    pub thickness: f64,
}

const WALL: [Layer; 3] = [
    Layer {
        k: 0.8,
        thickness: 0.1,
    },
    Layer {
        k: 0.04,
        thickness: 0.05,
    },
    Layer {
        k: 0.2,
        thickness: 0.02,
    },
];

/// Heat flux through a layered wall with convective films `h_in`, `h_out`.
#[derive_frule]
fn wall_flux(x: &[f64]) -> f64 {
    let (h_in, h_out, dt) = (x[0], x[1], x[2]);
    let mut r = 1.0 / h_in + 1.0 / h_out;
    for i in 0..WALL.len() {
        r += WALL[i].thickness / WALL[i].k;
    }
    dt / r
}

#[test]
fn a_static_table_of_reactions() {
    let x = [0.8, 0.3, 0.1, 330.0];
    let y = product_rate(&x);
    let (v, g) = fwdad::gradient(product_rate {}, &x);
    assert_eq!(v.to_bits(), y.to_bits());
    // dc2/dt = k2 c1^2: d/dc1 = 2 k2 c1, d/dT = k2 Ea2/(R T^2) c1^2.
    let k2 = 5.0e2 * (-3.0e4 / (R_GAS * 330.0)).exp();
    assert_close(g[1], 2.0 * k2 * 0.3, 1e-12, "d/dc1");
    assert_close(
        g[3],
        k2 * 3.0e4 / (R_GAS * 330.0 * 330.0) * 0.09,
        1e-12,
        "d/dT",
    );
    assert_eq!((g[0], g[2]), (0.0, 0.0));
    check_modes!(product_rate {}, product_rate, [0.8, 0.3, 0.1, 330.0]);
}

#[test]
fn a_const_table_of_layers() {
    let x = [8.0, 25.0, 20.0];
    check_modes!(wall_flux {}, wall_flux, x);
    let r = 1.0 / 8.0 + 1.0 / 25.0 + 0.1 / 0.8 + 0.05 / 0.04 + 0.02 / 0.2;
    let (v, g) = fwdad::gradient(wall_flux {}, &x);
    assert_eq!(v.to_bits(), wall_flux(&x).to_bits());
    assert_close(g[0], 20.0 / (r * r * 64.0), 1e-14, "d/dh_in");
    assert_close(g[2], 1.0 / r, 1e-14, "d/ddt");
}
